//! The tower_defense trace verifier on any text. Never panics; a text it accepts is one `arena verify`
//! recognises as a tower_defense trace, and verifying it again gives the same report.
#![no_main]
use arena_host::games::tower_defense::verify_trace;
use arena_host::replay::{detect, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match verify_trace(text) {
        Ok(report) => {
            assert_eq!(detect(text), Ok(Kind::TowerDefense));
            let again = verify_trace(text);
            assert_eq!(format!("{again:?}"), format!("{:?}", Ok::<_, ()>(report)));
        }
        Err(mismatch) => {
            let _ = mismatch.to_string();
        }
    }
});
