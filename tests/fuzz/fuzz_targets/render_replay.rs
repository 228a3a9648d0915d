//! `arena render`'s path on any file, through the registry: see `arena_fuzz::render`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::render(data));
