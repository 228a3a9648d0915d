//! Ants: the map format, for the desktop and the microcontroller capacities. Never panics; a map
//! accepted has its size within capacity and every hill on it, owned by one of its players.
#![no_main]
use arena_core::games::ants::map::Map;
use arena_core::games::ants::map::{LAND, WATER};
use arena_core::games::ants::{AntsMap, AntsMcuMap};
use libfuzzer_sys::fuzz_target;

fn check<const S: usize, const H: usize>(map: &Map<S, H>) {
    let squares = map.squares();
    assert!(squares <= S);
    assert!(map.hills.len() <= H);
    for &(sq, owner) in &map.hills {
        assert!((sq as usize) < squares);
        assert!(owner < map.players);
    }
    assert!(map.terrain.iter().all(|&t| t == LAND || t == WATER));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(map) = AntsMcuMap::parse(text) {
        check(&map);
    }
    if let Ok(map) = AntsMap::parse(text) {
        check(&map);
    }
});
