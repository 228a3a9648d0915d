//! Arbitrary params and actions: one generator per game, shared by the property tests
//! (arena-tests' `Suite`), the fuzz targets (`tests/fuzz`) and the long runs (the soak).
//!
//! Behind the `arbitrary` feature, for desktop builds only: the [`arbitrary`](https://docs.rs/arbitrary) crate
//! needs `std`, so no board enables it (the crate itself stays `no_std`).
//!
//! A generator reads its choices from an [`Unstructured`] stream of bytes, given the state the
//! action is for: the same bytes on the same state give the same action, so a run of inputs plays
//! the same match again, and a fuzzer's mutations of the bytes become mutations of the match.
//! Most actions are of the kind the rules do something with (a move of one of the seat's own
//! pieces, a cell next to the seat's own, the current phase's reply); some are anything a bot
//! could send, which the rules must refuse. Params are the variants and sizes worth exploring,
//! small enough that a fuzzer plays thousands of matches a second. Each game's generator is in
//! its folder (`games/<game>/arbitrary.rs`).
//!
//! A generator only fails ([`Result`]'s error) where the bytes cannot give an answer (a choice
//! among nothing); the callers then play the pass ([`Default`]). Once the bytes run out, every draw
//! is its range's first value.

pub use ::arbitrary::{Error, Result, Unstructured};

use crate::game::Game;
use crate::seat::Seat;

/// A game that arbitrary bytes can set up and play.
pub trait ArbitraryGame: Game {
    /// Params for a match: the variants, sizes and maps the fuzzers explore (`new` may still
    /// refuse them: that is one of the things tried).
    fn arbitrary_params(u: &mut Unstructured<'_>) -> Result<Self::Params>;

    /// An action for `seat` in `game`: mostly legal-ish values, sometimes anything.
    fn arbitrary_action(u: &mut Unstructured<'_>, game: &Self, seat: Seat) -> Result<Self::Action>;
}

/// A number in `lo..=hi` seven times in eight, any value of the type otherwise (`lo > hi` is read
/// as `hi..=lo`).
pub fn mostly_in(u: &mut Unstructured<'_>, lo: i64, hi: i64) -> Result<i64> {
    if u.ratio(1, 8)? {
        u.arbitrary()
    } else {
        u.int_in_range(lo.min(hi)..=hi.max(lo))
    }
}

/// [`mostly_in`] for an `i32`.
pub fn mostly_in_i32(u: &mut Unstructured<'_>, lo: i32, hi: i32) -> Result<i32> {
    if u.ratio(1, 8)? {
        u.arbitrary()
    } else {
        u.int_in_range(lo.min(hi)..=hi.max(lo))
    }
}

/// One of the `n` items of `items` (an iterator over them), or `None` when there are none.
pub fn pick<T>(
    u: &mut Unstructured<'_>,
    n: usize,
    mut items: impl Iterator<Item = T>,
) -> Result<Option<T>> {
    if n == 0 {
        return Ok(None);
    }
    Ok(items.nth(u.choose_index(n)?))
}
