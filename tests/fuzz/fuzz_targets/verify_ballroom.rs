//! The Ballroom Blitz log verifier on any text. Never panics; a text it accepts is one
//! `arena verify` recognises as a Ballroom log, and verifying it again gives the same report.
#![no_main]
use arena_host::games::ballroom::verify_log;
use arena_host::replay::{detect, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match verify_log(text) {
        Ok(report) => {
            assert_eq!(detect(text), Ok(Kind::Ballroom));
            let again = verify_log(text);
            assert_eq!(format!("{again:?}"), format!("{:?}", Ok::<_, ()>(report)));
        }
        Err(mismatch) => {
            let _ = mismatch.to_string();
        }
    }
});
