//! Per-game codecs (canonical JSON), protocols and verifiers.
pub mod colorfight;
pub mod tower_defense;
