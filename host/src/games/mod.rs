//! Per-game codecs (canonical JSON), protocols and verifiers.
pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;
