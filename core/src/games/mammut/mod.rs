//! # Mammut ("Be the Richest Mammut!")
//!
//! Five players, five rounds, one action at a time: a sequential game, so [`Game::to_move`] names
//! one seat. `rules/mammut.md` decides everything the seed text leaves open; this module follows it.
//!
//! - **Why bitmasks.** There are exactly 32 tiles ([`tiles::TILES`]), so every hand, the middle and
//!   the faces (which side is up) are one `u32` each. Conservation ("every tile in exactly one hand or
//!   the middle") is then a check of disjoint masks, and the whole state is 128 bytes on x86-64
//!   (`size_of::<Mammut>()`, tested to stay under 1 KB).
//! - **Capacities.** None to fill: hands and the middle are sets over the fixed tile list, so no
//!   container can overflow. The only bound is the rules' own: [`ACTION_CAP`] legal actions per round.
//! - **Refusals.** Any [`Action`] value can be sent; [`Mammut::legal`] says why one is refused. The
//!   first refused action of a turn asks the same player again (`second chance`); a second one
//!   removes the player from the round, which then scores an empty hand. A crash or a time-out
//!   reaches the rules as [`Action::Nothing`] and is refused like any illegal action, so it too gets
//!   one more chance (as the seed text says: "The same thing goes for throwing exceptions and
//!   infinite loops ... You are given one more chance"). Refused actions are counted
//!   in the [`StepReport`] and do not count toward [`ACTION_CAP`]; since each turn is refused at most
//!   twice and each player is removed at most once a round, a round still ends after at most
//!   `2 * ACTION_CAP + 2 * PLAYERS` steps.
//! - **Randomness.** Seeded streams, one per purpose: `ids` (the players' ids; round 1 starts with
//!   id 1, as the seed text says, so the first player is as random as the ids), `faces` (the random
//!   sides: the `r`-th draw of 32 bits for round `r`, so the state keeps the seed rather than a
//!   generator) and `tile-ids` (the ids dealt to the physical tiles, one shuffle per round). Bots
//!   seed their own.
//! - **Mystery.** A Mystery tile is turned at scoring; after the last round the state shows the
//!   turned sides (in earlier rounds the next deal draws new sides at once). Ids are dealt anew
//!   every round ([`Deal`]), so a Mystery tile's id says nothing of its other side: players,
//!   built-in bots included, see "Mystery" and nothing more until scoring.

mod bots;
mod round;
pub mod scoring;
pub mod tiles;
mod view;

#[cfg(feature = "arbitrary")]
mod arbitrary;
// Tests may unwrap: a panic there is a failed test.
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;

pub use bots::{CautiousBot, GreedyBot, MammutBot, RandomBot};
pub use round::Refusal;
pub use scoring::{placement_points, RoundScore, PLACEMENT_SCALE};
pub use tiles::{Deal, Faces, Side, TileSet, TIE_TILE, TILES, TILE_COUNT};
pub use view::MammutView;

use crate::digest::Digest;
use crate::game::{Game, Roster, SetupError, StepReport};
use crate::outcome::{Decision, Outcome};
use crate::rng::Rng;
use crate::seat::{Seat, SeatSet};

/// Players at the table (the rules fix it).
pub const PLAYERS: usize = 5;
/// Rounds in a game.
pub const ROUNDS: u8 = 5;
/// Legal actions after which a round is stopped.
pub const ACTION_CAP: u16 = 1000;

/// Mammut has nothing to choose: 5 players, 5 rounds, the fixed tile list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Params;

/// One player's action. Any value can be sent; illegal ones are refused ([`Mammut::legal`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    /// No action: no answer, a crash, a time-out, or a message naming no action (an unknown or
    /// repeated tile id, say). Always refused.
    #[default]
    Nothing,
    /// Take these tiles from the middle.
    Take(TileSet),
    /// Take every tile of the player at seat `victim` and put the tile `put_back` in the middle.
    /// Values out of range (no such seat, no such tile) are kept as sent and refused.
    Steal {
        /// The seat robbed.
        victim: u8,
        /// The id of the tile put back.
        put_back: u8,
    },
}

/// The state of a game of Mammut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mammut {
    /// Each seat's id, 1..=5.
    ids: [u8; PLAYERS],
    hands: [TileSet; PLAYERS],
    middle: TileSet,
    /// The round's ids and sides.
    deal: Deal,
    points: [i32; PLAYERS],
    /// Cumulative fur points.
    furs: [u16; PLAYERS],
    /// Animals obtained so far, as animal sets.
    animals: [u8; PLAYERS],
    /// The current round, 1..=ROUNDS (stays ROUNDS once over).
    round: u8,
    /// The round's first player.
    first: u8,
    /// Whose turn it is.
    mover: u8,
    /// Legal actions this round.
    actions: u16,
    /// Seats removed from this round (bitmask).
    removed: u8,
    /// The mover has been refused once this turn.
    strike: bool,
    /// The last scoring: its tie order and the points it gave.
    last: RoundScore,
    /// Steps played.
    steps: u32,
    over: bool,
    /// The game's seed: each round's faces are drawn from its `faces` stream.
    seed: u64,
}

impl Mammut {
    /// Each seat's id.
    pub fn ids(&self) -> &[u8; PLAYERS] {
        &self.ids
    }
    /// The tiles `seat` holds (empty for no such seat).
    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands.get(seat).copied().unwrap_or_default()
    }
    /// Every seat's hand.
    pub fn hands(&self) -> &[TileSet; PLAYERS] {
        &self.hands
    }
    /// The tiles in the middle.
    pub fn middle(&self) -> TileSet {
        self.middle
    }
    /// The side each tile shows this round.
    pub fn faces(&self) -> Faces {
        self.deal.faces()
    }
    /// The round's deal: which physical tile each id names, which side is up.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }
    /// The side the tile with id `tile` shows now (`None` for an unknown id).
    pub fn visible(&self, tile: u8) -> Option<Side> {
        self.deal.visible(tile)
    }
    /// The tie-breaker tile's id this round.
    pub fn tie_tile(&self) -> u8 {
        self.deal.tie_tile()
    }
    /// Every seat's points.
    pub fn points(&self) -> &[i32; PLAYERS] {
        &self.points
    }
    /// Every seat's cumulative fur points.
    pub fn furs(&self) -> &[u16; PLAYERS] {
        &self.furs
    }
    /// The animals each seat has obtained, as animal sets.
    pub fn animals(&self) -> &[u8; PLAYERS] {
        &self.animals
    }
    /// The current round, 1..=5 (stays 5 once over).
    pub fn round(&self) -> u8 {
        self.round
    }
    /// The round's first player.
    pub fn first_player(&self) -> Seat {
        self.first as Seat
    }
    /// Legal actions taken this round.
    pub fn actions(&self) -> u16 {
        self.actions
    }
    /// Whose turn it is, `None` once the game is over.
    pub fn mover(&self) -> Option<Seat> {
        (!self.over).then_some(self.mover as Seat)
    }
    /// Whether `seat` was removed from this round (two refusals in a row).
    pub fn is_removed(&self, seat: Seat) -> bool {
        seat < PLAYERS && self.removed & (1 << seat) != 0
    }
    /// The mover was refused once this turn: one more refusal removes it from the round.
    pub fn has_strike(&self) -> bool {
        self.strike
    }
    /// The last round's scoring (tie order, points gained before the floor).
    pub fn last_scoring(&self) -> &RoundScore {
        &self.last
    }
    /// Placement points so far (final once the game is over), in 1/[`PLACEMENT_SCALE`].
    pub fn placement(&self) -> [u16; PLAYERS] {
        placement_points(&self.points)
    }
}

impl Mammut {
    /// The game `init` sets up: tiles dealt for `seed`.
    fn build(seed: u64) -> Mammut {
        let mut ids = [1u8, 2, 3, 4, 5];
        Rng::stream(seed, b"ids").shuffle(&mut ids);
        // "The player with ID 1 will start the game."
        let first = scoring::seat_of(&ids, 1).unwrap_or(0) as u8;
        let mut g = Mammut {
            ids,
            hands: [TileSet::EMPTY; PLAYERS],
            middle: TileSet::EMPTY,
            deal: Deal::default(),
            points: [scoring::START_POINTS; PLAYERS],
            furs: [0; PLAYERS],
            animals: [0; PLAYERS],
            round: 1,
            first,
            mover: first,
            actions: 0,
            removed: 0,
            strike: false,
            last: RoundScore::default(),
            steps: 0,
            over: false,
            seed,
        };
        g.start_round(first as Seat);
        g
    }
}

impl Game for Mammut {
    const NAME: &'static str = "mammut";
    type Params = Params;
    type Action = Action;
    type View<'a> = MammutView<'a>;

    fn view(&self, seat: Seat) -> MammutView<'_> {
        MammutView::new(self, seat)
    }

    fn blank() -> Self {
        Mammut::build(0)
    }
    /// A 128-byte state: built, then moved in.
    fn init(&mut self, _params: &Params, seed: u64) -> Result<(), SetupError> {
        *self = Mammut::build(seed);
        Ok(())
    }

    fn seats(&self) -> usize {
        PLAYERS
    }

    fn turn(&self) -> u32 {
        self.steps
    }

    fn to_move(&self) -> SeatSet {
        match self.mover() {
            Some(seat) => SeatSet::only(seat),
            None => SeatSet::EMPTY,
        }
    }

    fn step(&mut self, actions: &[Action]) -> StepReport {
        let mut report = StepReport::default();
        if let Some(seat) = self.mover() {
            let action = actions.get(seat).copied().unwrap_or_default();
            if !self.play(seat, action) {
                report.refuse(seat);
            }
        }
        report
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let score = self.points.map(i64::from);
        Some(Outcome::by_score(PLAYERS, &score, "five rounds played"))
    }

    fn decision(&self) -> Option<Decision> {
        Some(Decision::by_score(&self.outcome()?, "points"))
    }

    fn hash_into(&self, d: &mut Digest) {
        d.bytes(&self.ids);
        for h in &self.hands {
            d.u32(h.0);
        }
        d.u32(self.middle.0).u32(self.deal.faces());
        d.bytes(self.deal.kinds());
        for &p in &self.points {
            d.i32(p);
        }
        for &f in &self.furs {
            d.u16(f);
        }
        d.bytes(&self.animals);
        d.u8(self.round).u8(self.first).u8(self.mover);
        d.u16(self.actions).u8(self.removed).bool(self.strike);
        for &g in &self.last.gain {
            d.i32(g);
        }
        d.bytes(&self.last.fur)
            .bytes(&self.last.animals)
            .bytes(&self.last.order);
        d.u32(self.steps).bool(self.over).u64(self.seed);
    }
}

impl Roster for Mammut {
    type Bot = MammutBot;
    const BOTS: &'static [&'static str] = &["cautious", "greedy", "random"];

    fn bot(name: &str, seed: u64) -> Option<MammutBot> {
        MammutBot::by_name(name, seed)
    }
}
