//! The Ants replay verifier on any (replay, map) pair: the input is the map, a NUL byte, then the
//! replay. Never panics; a pair it accepts verifies again with the same report, for as many players
//! as the map has.
#![no_main]
use arena_core::games::ants::AntsMap;
use arena_host::games::ants::verify_replay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (map, replay) = text.split_once('\0').unwrap_or(("", text));
    match verify_replay(replay, map) {
        Ok(report) => {
            let parsed = AntsMap::parse(map).expect("a verified replay's map parses");
            assert_eq!(report.players, parsed.players as usize);
            assert_eq!(verify_replay(replay, map), Ok(report));
        }
        Err(mismatch) => {
            let _ = mismatch.to_string();
        }
    }
});
