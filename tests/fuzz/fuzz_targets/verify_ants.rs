//! Ants: the replay reader on any (map, replay) pair, the input being the map, a NUL byte, then
//! the replay: see `arena_fuzz::verify`. A pair it accepts was played by as many players as the
//! map has.
#![no_main]
use arena_core::games::ants::{Ants, AntsMap};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Some((_, players)) = arena_fuzz::verify::<Ants>(data) {
        let map = data.split(|&b| b == 0).next().unwrap_or_default();
        let map = AntsMap::parse(std::str::from_utf8(map).unwrap_or_default());
        assert_eq!(Ok(players), map.map(|m| m.players as usize));
    }
});
