//! The rotation of matches a board plays, over games of different types, without allocation.
//!
//! A lineup is a list of entries (game, configuration, bots), each a different `Game` type: instead
//! of boxing them, [`Lineup::visit`] hands entry `i` to a [`Visit`]or generic over the game, which
//! monomorphises the match loop once per game. The same lineup type runs on the board and on the
//! host, so both play the same matches.

use arena_core::Roster;

use crate::screen::Screen;

/// A game's bots and configuration label for one entry of a lineup.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub config: &'static str,
    pub bots: &'static [&'static str],
}

/// Something done with one entry, whatever its game.
pub trait Visit {
    type Out;
    fn visit<G: Screen + Roster>(self, entry: &Entry, params: &G::Params) -> Self::Out;
    /// The entry's params could not be built (a map that does not parse): nothing to play.
    fn skip(self, entry: &Entry) -> Self::Out;
}

/// A fixed rotation of entries.
pub trait Lineup {
    /// How many entries; match `n` plays entry `n % LEN`.
    const LEN: usize;
    /// Hand entry `index % LEN` to `visitor`.
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out;
}
