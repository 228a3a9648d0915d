//! The viewer page `arena render --out match.html` writes: one HTML file that holds the
//! WebAssembly module (arena-core's rules and arena-firmware's screens, built by `build.rs`) and
//! the match as a script of what every step was fed, so the browser re-plays the match itself and
//! draws each state with the boards' own code: the same pixels as `arena render --turn T`, and
//! a 100,000-turn match weighs about a byte a turn instead of a picture a turn.
//!
//! The script is taken from the game's own replay reader ([`Visit::start`], [`Visit::fed`]) as it
//! re-plays and checks the file, so the page plays what was verified, not a second reading of it.

use crate::error::{Error, Result};
use crate::host_game::HostGame;
use crate::render::Display;
use crate::replay::{Meta, ReplayContext, Visit};
use arena_viewer::{Names, Recorder, Viewed};
use std::io::BufRead;

/// The module `build.rs` built (empty when the wasm32 target was missing).
const MODULE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/arena_viewer.wasm"));

/// The page, with its three slots: the module, the script (both base64) and the options (JSON).
const PAGE: &str = include_str!("../viewer/page.html");

/// A written page.
pub struct Page {
    /// The game's name, as on the command line.
    pub html: String,
    /// How many states the match has (the first and one after every step).
    pub states: usize,
}

/// Keeps what the reader fed the rules.
struct Record<G: Viewed> {
    recorder: Recorder<G>,
    states: usize,
}

impl<G: HostGame + Viewed> Visit<G> for Record<G> {
    fn meta(&mut self, meta: &Meta) {
        self.recorder.names(Names {
            config: meta.config.clone(),
            seed: meta.seed,
            bots: meta.bots.clone(),
        });
    }
    fn start(&mut self, start: &G::Start) {
        self.recorder.start(start);
    }
    fn fed(&mut self, parts: &[G::Part]) {
        self.recorder.step(parts);
    }
    fn state(&mut self, _game: &G) {
        self.states += 1;
    }
}

/// The viewer page of a replay of `G`, opening on `display` at `turn` (the first state for `None`).
pub fn page<G: HostGame + Viewed>(
    input: &mut dyn BufRead,
    ctx: &ReplayContext,
    display: Display,
    turn: Option<u32>,
) -> Result<Page> {
    if MODULE.is_empty() {
        return Err(Error::View("this arena was built without the viewer's WebAssembly module (the wasm32-unknown-unknown target was missing when it was built): `rustup target add wasm32-unknown-unknown`, then build it again"));
    }
    let mut record = Record::<G> {
        recorder: Recorder::default(),
        states: 0,
    };
    G::replay(input, ctx, &mut record)?;
    let Some(script) = record.recorder.finish() else {
        return Err(Error::View("the replay holds no state"));
    };
    if script.len() + 1 != record.states {
        return Err(Error::StatesAndSteps {
            states: record.states,
            steps: script.len(),
        });
    }
    let options = serde_json::json!({"display": display.name(), "turn": turn});
    let html = PAGE
        .replacen("@MODULE@", &base64(MODULE), 1)
        .replacen("@SCRIPT@", &base64(&script.encode()), 1)
        .replacen("@OPTIONS@", &options.to_string(), 1);
    Ok(Page {
        html,
        states: record.states,
    })
}

/// Standard base64 with padding, as the page's `atob` reads it.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [0, 1, 2].map(|i| chunk.get(i).copied().unwrap_or(0));
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_is_the_standard_one() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xff, 0xfe, 0x00]), "//4A");
    }
}
