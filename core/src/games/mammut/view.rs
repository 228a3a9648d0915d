//! A seat's view of Mammut: the public table, what the protocol's JSON sends every seat.
//!
//! Every seat sees the same table (hands, middle, the side each tile shows, ids, points, whose
//! turn), and no seat sees a tile's other side (a Mystery tile shows "Mystery" until scoring), the
//! physical tile an id names, or the game's seed (which draws the next rounds' sides). The view's
//! fields are private and its deal is the deal *as seen*: each id names a tile with the side it
//! shows (a Mystery tile names the first Mystery tile), so a bot reading it learns nothing more.

use super::round::Refusal;
use super::scoring::{score_round, RoundScore};
use super::tiles::{Deal, Side, TileSet, TILES, TILE_COUNT};
use super::{Action, Mammut, PLAYERS};
use crate::game::Game;
use crate::seat::Seat;

/// Seat `seat`'s view of a Mammut game ([`Game::view`]).
#[derive(Clone, Copy, Debug)]
pub struct MammutView<'a> {
    game: &'a Mammut,
    seat: Seat,
    seen: Deal,
}

/// The deal as the table shows it: each id names the first tile of [`TILES`] with the side it
/// shows up (and that side up).
fn seen_deal(deal: &Deal) -> Deal {
    let mut kinds = [u8::MAX; TILE_COUNT];
    let mut faces = 0u32;
    for (id, kind) in kinds.iter_mut().enumerate() {
        let Some(side) = deal.visible(id as u8) else {
            continue;
        };
        let found = TILES
            .iter()
            .enumerate()
            .find_map(|(k, sides)| sides.iter().position(|&s| s == side).map(|up| (k, up)));
        if let Some((k, up)) = found {
            *kind = k as u8;
            faces |= (up as u32) << id;
        }
    }
    Deal::new(kinds, faces)
}

impl<'a> MammutView<'a> {
    pub(super) fn new(game: &'a Mammut, seat: Seat) -> Self {
        MammutView {
            game,
            seat,
            seen: seen_deal(game.deal()),
        }
    }
    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// Steps played so far.
    pub fn turn(&self) -> u32 {
        self.game.turn()
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }
    /// Each seat's id.
    pub fn ids(&self) -> &'a [u8; PLAYERS] {
        self.game.ids()
    }
    /// The tiles `seat` holds.
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.game.hand(seat)
    }
    /// Every seat's hand.
    pub fn hands(&self) -> &'a [TileSet; PLAYERS] {
        self.game.hands()
    }
    /// The tiles in the middle.
    pub fn middle(&self) -> TileSet {
        self.game.middle()
    }
    /// The deal as seen: the side every id shows, and nothing of the other side.
    pub fn deal(&self) -> &Deal {
        &self.seen
    }
    /// The side the tile with id `tile` shows now.
    pub fn visible(&self, tile: u8) -> Option<Side> {
        self.game.visible(tile)
    }
    /// The tie-breaker tile's id this round (it shows one of its two tie-breaker sides).
    pub fn tie_tile(&self) -> u8 {
        self.game.tie_tile()
    }
    /// Every seat's points.
    pub fn points(&self) -> &'a [i32; PLAYERS] {
        self.game.points()
    }
    /// Every seat's cumulative fur points.
    pub fn furs(&self) -> &'a [u16; PLAYERS] {
        self.game.furs()
    }
    /// The animals each seat has obtained, as animal sets.
    pub fn animals(&self) -> &'a [u8; PLAYERS] {
        self.game.animals()
    }
    /// The current round, 1..=5.
    pub fn round(&self) -> u8 {
        self.game.round()
    }
    /// The round's first player.
    pub fn first_player(&self) -> Seat {
        self.game.first_player()
    }
    /// Whose turn it is, `None` once the game is over.
    pub fn mover(&self) -> Option<Seat> {
        self.game.mover()
    }
    /// Whether `seat` was removed from this round.
    pub fn is_removed(&self, seat: Seat) -> bool {
        self.game.is_removed(seat)
    }
    /// Whether `seat` acts when its turn comes: in the round, holding nothing.
    pub fn waits(&self, seat: Seat) -> bool {
        self.game.waits(seat)
    }
    /// The mover was refused once this turn.
    pub fn has_strike(&self) -> bool {
        self.game.has_strike()
    }
    /// Whether `action` by `seat` would be legal now, and if not, why (the rules' check reads only
    /// the table).
    pub fn legal(&self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        self.game.legal(seat, action)
    }
    /// What scoring would give if the round ended with `hands`, as the table shows them (a Mystery
    /// tile counting as nothing).
    pub fn score_seen(&self, hands: &[TileSet; PLAYERS]) -> RoundScore {
        score_round(
            hands,
            &self.seen,
            self.game.ids(),
            self.game.first_player(),
            self.game.round(),
        )
    }
}
