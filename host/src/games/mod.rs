//! Per-game codecs (canonical JSON), protocols and verifiers.
pub mod ants;
