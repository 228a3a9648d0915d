//! The Mammut trace verifier on any text: see `arena_fuzz::verifier`.
#![no_main]
use arena_fuzz::verifier;
use arena_host::games::mammut::verify_trace;
use arena_host::replay::Kind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| verifier(data, Kind::Mammut, verify_trace));
