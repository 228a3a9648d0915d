//! The Ballroom Blitz log verifier on any text: see `arena_fuzz::verifier`.
#![no_main]
use arena_fuzz::verifier;
use arena_host::games::ballroom::verify_log;
use arena_host::replay::Kind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| verifier(data, Kind::Ballroom, verify_log));
