//! Seat views: what a [`crate::Bot`] is given.
//!
//! A game whose rules hide nothing from any seat (Tower Defense, ColorFight, Ballroom) gives each
//! seat an [`Open`] view: the whole state, and whose view it is. A game with hidden information
//! has a view type of its own whose fields are private (Ants: `ants::AntsView`, the fog of war;
//! Mammut: `mammut::MammutView`, the public table), so that a bot cannot reach the state behind it.

use crate::game::Game;
use crate::seat::Seat;

/// The view of a seat in an open game: the whole state, and the seat.
#[derive(Debug)]
pub struct Open<'a, G> {
    state: &'a G,
    seat: Seat,
}

// Derived Clone/Copy would ask `G: Clone`: a view is a borrow, copied whatever the game.
impl<G> Clone for Open<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G> Copy for Open<'_, G> {}

impl<'a, G: Game> Open<'a, G> {
    /// Seat `seat`'s view of `state`.
    pub fn new(state: &'a G, seat: Seat) -> Self {
        Open { state, seat }
    }

    /// The whole state (the game hides nothing).
    pub fn state(&self) -> &'a G {
        self.state
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Turns played so far ([`Game::turn`]).
    pub fn turn(&self) -> u32 {
        self.state.turn()
    }
}

impl<G> core::ops::Deref for Open<'_, G> {
    type Target = G;
    fn deref(&self) -> &G {
        self.state
    }
}
