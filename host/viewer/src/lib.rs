//! # arena-viewer: a replay in the browser, drawn by the boards' own screens
//!
//! `arena render REPLAY --out match.html` writes one self-contained page that plays a match. The
//! host re-plays (and so checks) the replay as it always does, and writes down what every step
//! was fed: a [`Script`]. The page holds that script and this crate built for
//! `wasm32-unknown-unknown`, which re-plays the match with arena-core's rules and draws each state
//! with arena-firmware's screens, exactly as `arena render --turn T` draws it on the host: the
//! same code, the same colours ([`ToRgb`]), so the same pixels.
//!
//! - [`Viewed`]: what a game adds for the viewer (in `games/<game>.rs`): how a match starts, one
//!   seat's part of a step, their bytes, one step, the canonical JSON;
//! - [`script`]: the compact script and its recorder (each distinct step kept once);
//! - [`view::View`]: the re-played match with a keyframe every few steps, so that any state,
//!   even at the end of a 100,000-turn match, is a clone and at most a few dozen steps away;
//! - [`display`]: the displays a page (and `arena render`) can draw, on one canvas type;
//! - `wasm`: the page's interface, plain `extern "C"` functions over the module's memory.
//!
//! The rules and the screens stay `no_std`; this crate uses std (and serde_json for the
//! canonical JSON, which is the host's own code, see [`games`]).

pub mod code;
pub mod display;
pub mod games;
pub mod script;
pub mod view;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use code::{Error, Reader, Writer};
pub use display::{Display, ToRgb};
pub use script::{Names, Recorder, Script};
pub use view::View;

use arena_firmware::Screen;

/// A game as the viewer re-plays it: what a replay reader tells the viewer at the start and at
/// every step, in the game's own terms, so the page can play the same calls on the rules.
pub trait Viewed: Screen + Sized + 'static {
    /// How the reader set the match up (params, seed, what it did before the first step).
    type Start: Clone + std::fmt::Debug;
    /// One seat's part of one step, as the reader fed it to the rules.
    type Part: Clone + std::fmt::Debug + PartialEq;

    fn put_start(start: &Self::Start, w: &mut Writer);
    fn get_start(r: &mut Reader<'_>) -> Result<Self::Start, Error>;
    fn put_part(part: &Self::Part, w: &mut Writer);
    fn get_part(r: &mut Reader<'_>) -> Result<Self::Part, Error>;

    /// The first state, built where it lives.
    fn begin(start: &Self::Start) -> Result<Box<Self>, Error>;
    /// One step with one part per seat; returns what the rules refused or the file recorded as a
    /// fault (a bot killed, an order refused and why), one line each.
    fn play(&mut self, parts: &[Self::Part]) -> Vec<String>;
    /// The state in the canonical JSON of `rules/<game>.md`.
    fn shown_json(&self) -> String;
    /// A seat's part in the canonical action JSON.
    fn part_json(part: &Self::Part) -> String;
}

/// The refusals of a step report, one line per seat that had any.
pub fn refusals(report: &arena_core::StepReport, seats: usize) -> Vec<String> {
    report
        .refused
        .iter()
        .take(seats)
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(seat, &n)| {
            let s = if n == 1 { "" } else { "s" };
            format!("seat {seat}: {n} action{s} refused")
        })
        .collect()
}
