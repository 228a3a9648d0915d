//! ColorFight: a bot's action line. Never panics; the text and JSON readers agree, and decoding is
//! a fixed point (written back and read again, the same action).
#![no_main]
use arena_host::games::colorfight::{action_from_json, action_from_str, action_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let a = action_from_str(text);
    if let Ok(v) = serde_json::from_str(text) {
        assert_eq!(action_from_json(&v), a);
    }
    assert_eq!(action_from_str(&action_json(&a).to_string()), a);
});
