//! The generic suite's view of each game: params, arbitrary actions, invariants.

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;
