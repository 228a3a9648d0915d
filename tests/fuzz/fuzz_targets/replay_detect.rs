//! `arena verify`/`arena render`'s first look at a file: which game's replay it is. Never panics;
//! the answer is a function of the text.
#![no_main]
use arena_host::replay::detect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let kind = detect(text);
    if let Ok(k) = kind {
        assert!(!k.name().is_empty());
    }
    assert_eq!(detect(text), kind);
});
