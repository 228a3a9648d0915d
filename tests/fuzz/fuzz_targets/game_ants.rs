//! Ants at the board's capacities (the fuzzer plays thousands of matches a second on a 37.5 KB
//! state, not the host's 415 KB), played from the bytes by its arbitrary generator: see
//! `arena_fuzz::game`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    arena_fuzz::game::<arena_core::games::ants::AntsMcu>(data, 100)
});
