//! A seat's view of Ants: the fog of war, what the official text protocol sends that seat.
//!
//! As in the official engine (`ants.py`: `update_vision`, `get_player_state`), a seat sees the
//! squares within `viewradius2` of one of its own ants, and of those: water, food, live ants (its
//! own and others'), hills not razed, and the ants that died there last turn. The protocol sends
//! water once, when first seen: the view shows the water in sight every turn, and a bot that
//! wants the water it saw before keeps it itself. Owners are seats (the protocol numbers the
//! players from the reader, `0` being itself: a renaming). The view's fields are private: nothing
//! outside the fog can be read through it.

use super::map::WATER;
use super::state::AntsGame;
use crate::game::Game;
use crate::seat::Seat;

/// Seat `seat`'s view of an Ants game ([`Game::view`]): the fog of war.
#[derive(Debug)]
pub struct AntsView<
    'a,
    const SQ: usize,
    const A: usize,
    const F: usize,
    const H: usize,
    const O: usize,
> {
    game: &'a AntsGame<SQ, A, F, H, O>,
    seat: Seat,
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Clone
    for AntsView<'_, SQ, A, F, H, O>
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Copy
    for AntsView<'_, SQ, A, F, H, O>
{
}

impl<'a, const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsView<'a, SQ, A, F, H, O>
{
    pub(super) fn new(game: &'a AntsGame<SQ, A, F, H, O>, seat: Seat) -> Self {
        AntsView { game, seat }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// The turn being played (the protocol's `turn N`).
    pub fn turn(&self) -> u32 {
        self.game.turn()
    }
    /// Rows of the map (the protocol's `rows`).
    pub fn rows(&self) -> u16 {
        self.game.rows()
    }
    /// Columns of the map (`cols`).
    pub fn cols(&self) -> u16 {
        self.game.cols()
    }
    /// Players in the game (`players`).
    pub fn players(&self) -> usize {
        self.game.players()
    }
    /// The game's turn limit (`turns`).
    pub fn turns(&self) -> u16 {
        self.game.turns()
    }
    /// Squared view radius (`viewradius2`).
    pub fn viewradius2(&self) -> u16 {
        self.game.viewradius2()
    }
    /// Squared attack radius (`attackradius2`).
    pub fn attackradius2(&self) -> u16 {
        self.game.attackradius2()
    }
    /// Squared spawn radius (`spawnradius2`).
    pub fn spawnradius2(&self) -> u16 {
        self.game.spawnradius2()
    }
    /// The seed the protocol gives the players (`player_seed`).
    pub fn player_seed(&self) -> i64 {
        self.game.player_seed()
    }
    /// Squared distance between two squares on the torus (row-major square numbers).
    pub fn distance2(&self, a: usize, b: usize) -> u32 {
        self.game.distance2(a, b)
    }

    /// The seat's own live ants' squares.
    fn own(&self) -> impl Iterator<Item = usize> + 'a {
        let seat = self.seat;
        self.game
            .ants()
            .iter()
            .filter(move |a| a.owner as usize == seat)
            .map(|a| a.sq as usize)
    }

    /// Whether square `sq` is in sight: within `viewradius2` of one of the seat's ants.
    pub fn is_visible(&self, sq: usize) -> bool {
        let r2 = self.game.viewradius2() as u32;
        self.own().any(|a| self.game.distance2(a, sq) <= r2)
    }

    /// Calls `f(square, is_water)` for every square in sight (a square in sight of several ants
    /// comes once for each), as the engine marks its vision: ant by ant, offset by offset.
    pub fn for_each_visible(&self, mut f: impl FnMut(usize, bool)) {
        let r2 = self.game.viewradius2() as i32;
        // `viewradius2` is a u16: the radius is under 256.
        let mut r = 0i32;
        while r.saturating_add(1).saturating_mul(r.saturating_add(1)) <= r2 {
            r = r.saturating_add(1);
        }
        for a in self.own() {
            for dr in r.saturating_neg()..=r {
                for dc in r.saturating_neg()..=r {
                    if dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc)) <= r2 {
                        let sq = self.game.offset(a, dr, dc);
                        f(sq, self.game.square(sq) == WATER);
                    }
                }
            }
        }
    }

    /// Whether `sq` is water in sight (`false` out of sight: not known).
    pub fn is_water(&self, sq: usize) -> bool {
        self.game.square(sq) == WATER && self.is_visible(sq)
    }

    /// The live ants in sight, as `(square, owner)`: the seat's own always (they are in sight).
    pub fn ants(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        self.game
            .ants()
            .iter()
            .map(|a| (a.sq as usize, a.owner as Seat))
            .filter(|&(sq, owner)| owner == self.seat || self.is_visible(sq))
    }

    /// The food in sight, by square.
    pub fn food(&self) -> impl Iterator<Item = usize> + '_ {
        self.game
            .food()
            .iter()
            .map(|f| f.sq as usize)
            .filter(|&sq| self.is_visible(sq))
    }

    /// The hills in sight that are not razed, as `(square, owner)`.
    pub fn hills(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        self.game
            .hills()
            .iter()
            .filter(|h| h.killed_by.is_none())
            .map(|h| (h.sq as usize, h.owner as Seat))
            .filter(|&(sq, _)| self.is_visible(sq))
    }

    /// The ants that died last turn in sight, as `(square, owner)`.
    pub fn dead(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        self.game
            .killed()
            .iter()
            .map(|a| (a.sq as usize, a.owner as Seat))
            .filter(|&(sq, _)| self.is_visible(sq))
    }

    /// Whether the game is over for everyone.
    pub fn is_finished(&self) -> bool {
        self.game.is_finished()
    }
}
