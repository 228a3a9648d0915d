//! ColorFight played from the bytes by its arbitrary generator: see `arena_fuzz::game`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::game::<
    arena_core::games::colorfight::ColorFight,
>(data, 700));
