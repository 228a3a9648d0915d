//! Ants (Google AI Challenge 2011), bit-exact with the official engine.
//!
//! `rules/ants.md` is implemented as the official engine (`ants/ants.py`, `worker/engine.py` at
//! aichallenge 4237971f) plays it: the same map, engine seed and orders give the same ants, moves,
//! deaths, food, hills, scores, hive history and end. That needs CPython's generator
//! ([`pyrandom`]), CPython's set order for food sets ([`pyset`]), and every draw in the engine's
//! order, the engine's per-turn shuffle of the bot list included.
//!
//! Battles are `focus` (the default) or `damage` ([`Attack`]); the official `support` and
//! `closest` are broken in the reference and not offered. Food is `symmetric` (the default; the
//! official `random`/`sections`/`offset` placements are not offered). Scenario maps (ants and
//! food drawn in the file) are not supported: as outside scenario mode, one ant starts on every
//! hill.
//!
//! ## Capacities
//! Every container has a const capacity chosen per build through const generics:
//! [`Ants`] (host: every official map, up to 24,000 squares, 10 players, 4,096 living ants) and
//! [`AntsMcu`] (48 x 48, 256 ants, 256 food, 8 hills: 37.5 KB of state, under the 48 KB budget
//! checked by a test; the host build is about 415 KB, so box it: [`AntsGame::blank`] +
//! [`AntsGame::init`] set a game up in place).
//! A full container is a rule case, not an error:
//! - ant list full: a spawn waits (the hive keeps its food) and `capacity_waits` counts it;
//! - food list full: the food stays scheduled and is placed when there is room;
//! - more than `ORDERS` orders for one seat through [`crate::Game::step`]: the action is a
//!   `heapless::Vec`, so a bot cannot build more; [`AntsGame::play_turn`] takes plain slices of any
//!   length (no copy) for the host.
//!
//! Where the official engine crashes, ours refuses at setup (a map that is not symmetric, so no
//! food algorithm; a player without a hill) or goes on (a map without any food set gets no food;
//! the official deque pops its sentinel for ever).
//!
//! ## The engine around the game
//! The official engine's loop is part of the rules here: its `random.shuffle` of the alive bots
//! every turn draws from the game's generator, and the bots it kills (crash, timeout) are killed
//! after that shuffle and before orders are applied. [`AntsGame::play_turn`] takes those kills;
//! [`AntsGame::kill_at_start`] handles bots lost on turn 0. Strict mode (a bad order kills the
//! bot) is left to the caller: every refused order is reported with its official reason.
//!
//! ## Actions
//! One seat's action is its orders for the turn, `heapless::Vec<Order, ORDERS>`, in the order the
//! bot sent them (order matters for "duplicate order"). The hot path ([`AntsGame::play_turn`])
//! borrows the orders as slices and writes only one byte per accepted order into the ant list.

pub mod bots;
pub mod food;
pub mod map;
pub mod orders;
pub mod pyrandom;
pub mod pyset;
pub mod state;
mod turn;
mod view;

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;

pub use map::Map;
pub use orders::{parse_order, Dir, Order, OrderError};
pub use state::{
    Ant, AntsGame, Attack, Cutoff, DeadAnt, Draw, Food, FoodGone, Hill, Params, CUTOFF_FOOD,
    CUTOFF_LAND,
};
pub use turn::MAX_RADIUS2;
pub use view::{AntsView, Sight};

use crate::digest::Digest;
use crate::game::{Game, Roster, SetupError, StepReport};
use crate::outcome::{Decision, Outcome};
use crate::seat::{SeatSet, MAX_SEATS};

/// Host build: every official map (up to 24,000 squares, 10 players), thousands of ants.
pub const HOST_SQUARES: usize = 24_000;
/// Host build: the most ants alive at once.
pub const HOST_ANTS: usize = 4096;
/// Host build: the most food on the map at once.
pub const HOST_FOOD: usize = 4096;
/// Host build: the most hills on a map.
pub const HOST_HILLS: usize = 100;
/// Host build: the most orders one seat may give in one turn.
pub const HOST_ORDERS: usize = 1024;
/// Microcontroller build: 48 x 48, 256 ants; the whole state fits in 48 KB.
pub const MCU_SQUARES: usize = 48 * 48;
/// Microcontroller build: the most ants alive at once.
pub const MCU_ANTS: usize = 256;
/// Microcontroller build: the most food on the map at once.
pub const MCU_FOOD: usize = 256;
/// Microcontroller build: the most hills on a map.
pub const MCU_HILLS: usize = 8;
/// Microcontroller build: the most orders one seat may give in one turn.
pub const MCU_ORDERS: usize = 256;

/// Ants for the desktop.
pub type Ants = AntsGame<HOST_SQUARES, HOST_ANTS, HOST_FOOD, HOST_HILLS, HOST_ORDERS>;
/// The params of the desktop's Ants ([`Ants`]).
pub type AntsParams = Params<HOST_SQUARES, HOST_HILLS>;
/// A map for the desktop's Ants ([`Ants`]).
pub type AntsMap = Map<HOST_SQUARES, HOST_HILLS>;
/// Ants for a microcontroller.
pub type AntsMcu = AntsGame<MCU_SQUARES, MCU_ANTS, MCU_FOOD, MCU_HILLS, MCU_ORDERS>;
/// The params of the microcontroller's Ants ([`AntsMcu`]).
pub type AntsMcuParams = Params<MCU_SQUARES, MCU_HILLS>;
/// A map for the microcontroller's Ants ([`AntsMcu`]).
pub type AntsMcuMap = Map<MCU_SQUARES, MCU_HILLS>;

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Game
    for AntsGame<SQ, A, F, H, O>
{
    const NAME: &'static str = "ants";
    type Params = Params<SQ, H>;
    type Action = heapless::Vec<Order, O>;
    type View<'a> = AntsView<'a, SQ, A, F, H, O>;

    fn view(&self, seat: crate::seat::Seat) -> Self::View<'_> {
        AntsView::new(self, seat)
    }

    /// `seed` is the official `engine_seed` (a negative Python seed is given as its absolute value).
    fn init(&mut self, params: &Self::Params, seed: u64) -> Result<(), SetupError> {
        AntsGame::init(self, params, seed)
    }
    fn blank() -> Self {
        AntsGame::blank()
    }

    fn seats(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> u32 {
        self.turn as u32
    }

    fn to_move(&self) -> SeatSet {
        if self.over {
            return SeatSet::EMPTY;
        }
        self.seats_in()
    }

    fn step(&mut self, actions: &[Self::Action]) -> StepReport {
        let mut slices: [&[Order]; MAX_SEATS] = [&[]; MAX_SEATS];
        for (s, a) in slices.iter_mut().zip(actions) {
            *s = a.as_slice();
        }
        self.play_orders(&slices)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let n = self.players as usize;
        let mut score = [0i64; MAX_SEATS];
        for (s, &v) in score.iter_mut().zip(self.score.iter().take(n)) {
            *s = v as i64;
        }
        Some(Outcome::by_score(
            n,
            score.get(..n).unwrap_or(&score),
            self.cutoff.map_or("", Cutoff::as_str),
        ))
    }

    /// By score alone, as the official engine ranks; a player that went out (no ant left, or
    /// killed by the engine) is named with its turn, as the official `status` and `playerturns`
    /// say it.
    fn decision(&self) -> Option<Decision> {
        let mut why = Decision::by_score(&self.outcome()?, "score");
        for (p, d) in why.defeated.iter_mut().enumerate() {
            *d = self.out_at(p).map(u32::from);
        }
        Some(why)
    }

    fn hash_into(&self, d: &mut Digest) {
        AntsGame::hash_into(self, d)
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Roster
    for AntsGame<SQ, A, F, H, O>
{
    type Bot = bots::AntsBot;
    const BOTS: &'static [&'static str] = &["strong", "hunter", "hold"];

    fn bot(name: &str, seed: u64) -> Option<Self::Bot> {
        bots::AntsBot::by_name(name, seed)
    }

    /// Every seat's orders in one buffer of `A` (an ant takes one order at most, so the ants alive
    /// bound every seat's orders together), not one of `O` for each seat: the same turn as
    /// [`Game::step`] with each seat's action apart.
    fn step_bots<const N: usize, B: crate::game::Bot<Self>>(
        &mut self,
        bots: &mut [B],
        mut on: impl FnMut(crate::game::Moment),
    ) -> StepReport {
        let mut orders: heapless::Vec<Order, A> = heapless::Vec::new();
        let ends = self.decide_all(bots, N, &mut orders, &mut on);
        on(crate::game::Moment::Decided);
        self.play_decided(&orders, &ends)
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsGame<SQ, A, F, H, O>
{
    /// A match loop's turn after the bots decided: each seat's orders are `orders` up to its end in `ends` (from the seat before's): cut here,
    /// not in [`Roster::step_bots`], whose frame is under the bots' while they decide.
    #[inline(never)]
    fn play_decided(&mut self, orders: &[Order], ends: &[u16; MAX_SEATS]) -> StepReport {
        let mut slices: [&[Order]; MAX_SEATS] = [&[]; MAX_SEATS];
        let mut start = 0;
        for (s, &end) in slices.iter_mut().zip(ends.iter()) {
            let end = usize::from(end);
            *s = orders.get(start..end).unwrap_or_default();
            start = end;
        }
        self.play_orders(&slices)
    }

    /// [`AntsGame::play_turn`] with no bot killed and no report of refusals: a match loop's
    /// turn. Out of line, so that the rules' working memory is not reserved in the frame that
    /// holds the orders, beside the bots' (which [`AntsGame::decide_all`] holds before).
    #[inline(never)]
    fn play_orders(&mut self, orders: &[&[Order]]) -> StepReport {
        self.play_turn(orders, SeatSet::EMPTY, |_, _, _| {})
    }
}
