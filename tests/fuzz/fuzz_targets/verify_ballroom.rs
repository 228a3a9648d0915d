//! Ballroom Blitz: the replay reader on any text: see `arena_fuzz::verify`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    arena_fuzz::verify::<arena_core::games::ballroom::Ballroom>(data);
});
