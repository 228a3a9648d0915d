//! `arena serve colorfight`: the decoding of a request (method, path, body) into what it asks of
//! the game, or into the original server's answer to a malformed one. Never panics; a request it
//! reads, sent again as a client would send it, reads back the same; names are kept short.
//!
//! The input: its first byte picks the method, then the path up to the first newline, then the
//! body. (The bytes before, the request line and the headers, are hyper's to parse.)
#![no_main]
use arena_host::games::colorfight::request::{decode, ApiRequest, NAME_CHARS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&m, rest)) = data.split_first() else {
        return;
    };
    let method = ["POST", "GET", "PUT", "HEAD"][usize::from(m % 4)];
    let (path, body) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let path = String::from_utf8_lossy(path);
    match decode(method, &path, body) {
        Ok(request) => {
            if let ApiRequest::Join { name } = &request {
                assert!(name.chars().count() <= NAME_CHARS);
            }
            let (method, path, body) = request.encode();
            assert_eq!(decode(method, path, body.as_bytes()), Ok(request));
        }
        Err(m) => assert!([400, 404, 405].contains(&m.status), "{m:?}"),
    }
});
