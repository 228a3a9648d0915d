//! Ballroom Blitz: a bot's reply line for every phase, the handshake's class line included. Never
//! panics; what it reads, written as a starter pack would write it, reads back the same.
#![no_main]
use arena_core::games::ballroom::Phase;
use arena_host::games::ballroom::json::{action_line, parse_action_line};
use libfuzzer_sys::fuzz_target;

const PHASES: [Phase; 5] = [
    Phase::Class,
    Phase::Use,
    Phase::Move,
    Phase::Attack,
    Phase::Buy,
];

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    for phase in PHASES {
        match parse_action_line(phase, line) {
            Ok(a) => assert_eq!(parse_action_line(phase, &action_line(0, &a)), Ok(a)),
            Err(fault) => {
                // The action played instead is one the rules refuse or default.
                let _ = fault.action();
                let _ = fault.to_string();
            }
        }
    }
});
