//! Which game's replay a file is, through the registry: see `arena_fuzz::detect`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::detect(data));
