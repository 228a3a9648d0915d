//! The games, one folder each. See the crate docs for the checklist a new game follows.

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;
