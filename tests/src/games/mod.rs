//! The generic suite's view of each game: params, arbitrary actions, invariants.
pub mod ants;
