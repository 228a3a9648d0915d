//! Mammut: a bot's action JSON. Never panics, and decoding is a fixed point.
#![no_main]
use arena_host::games::mammut::{action_from_json, action_json};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(v) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let a = action_from_json(&v);
    assert_eq!(action_from_json(&action_json(&a)), a);
});
