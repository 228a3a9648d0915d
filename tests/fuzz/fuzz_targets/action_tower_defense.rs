//! Tower Defense: a bot's action JSON. Decoding never panics and is a fixed point: what it reads,
//! written back and read again, is the same action.
#![no_main]
use arena_host::games::tower_defense::{action_from_json, action_json};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(v) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let a = action_from_json(&v);
    assert_eq!(action_from_json(&action_json(&a)), a);
});
