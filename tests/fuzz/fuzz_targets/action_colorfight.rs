//! ColorFight: any JSON as a bot's action: see `arena_fuzz::action`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| arena_fuzz::action::<
    arena_core::games::colorfight::ColorFight,
>(data));
