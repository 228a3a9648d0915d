//! # Ballroom Blitz (MechMania 28)
//!
//! Four players on a 10×10 ballroom score 2 points for every turn they end on the 2×2 control
//! block in the middle and 1 for every hit that leaves another player at 0 health; 100 turns.
//! The rules are `rules/ballroom-blitz.md`; the `engine` ruleset (default) is the official engine
//! (MechMania-28/Engine 1.6) to the statement, because every tournament bot was written against
//! it and its logs are our golden data. `as-written` follows the public text where it differs.
//!
//! ## Why a step is a phase
//! The reference asks every bot once per phase (USE, MOVE, ATTACK, BUY) and shows it the state
//! after the previous phase, so a bot chooses its attack knowing where everyone moved. A
//! [`Game::step`] is therefore one phase: 400 steps make a game, plus one handshake step
//! ([`Phase::Class`], each bot names its class) unless [`Params::classes`] fixes the classes.
//! [`Game::turn`] counts complete turns, so gold = turn + 1 − spent at every step once started.
//!
//! ## What [`Action`] holds
//! Anything a bot could send: any `i32` destination or target, an action meant for another
//! phase, a timeout (`Null`) or an unreadable line (`Malformed`). The engine refuses, snaps or
//! defaults exactly as the reference does and keeps what it did in a [`TurnRecord`] (the
//! reference's `isValid`, `damage`, `nullified`), readable through [`Ballroom::record`].
//! A bot may send those flags too ([`Flags`], played with [`Ballroom::step_sent`]): as in the
//! reference, its value stands in the record wherever the engine's judgement does not set the
//! flag (it never changes the game).
//!
//! ## Decisions (rules file, "Our decisions")
//! 1. Winner: most points, then most gold, then a coin flip from the match seed's `tiebreak`
//!    stream; every seat gets a distinct rank.
//! 2. No crash on bad input: where the reference crashes (no destination, no item, bad class name)
//!    the seat plays the default action. A bot acts for its own seat only: the `executor` it names
//!    is ignored ([`Game::step`] has none). [`Ballroom::step_replies`] executes replies for the
//!    executor they name, as the reference does, to re-play official logs.
//! 3. An action for the wrong phase is the default action, counted as refused.
//!
//! ## Refusals
//! [`StepReport::refused`] counts, per seat, replies that were replaced by the default (wrong
//! phase, `Malformed`, the first `Null`) and explicit actions the reference marks invalid (a
//! snapped move, an attack out of range, a buy off spawn or too dear, using a passive item).
//! `use=false` on a passive item and an attack on oneself (the phase's default action, how bots
//! pass in ATTACK) are marked invalid by the reference but are not refusals; neither is
//! [`Action::Pass`].
//!
//! ## Capacities
//! None: four players, fixed arrays. `size_of::<Ballroom>()` is 192 bytes on x86-64, tested to
//! stay within 512.

mod action;
pub mod bots;
mod player;
mod rules;
mod types;

#[cfg(feature = "arbitrary")]
mod arbitrary;
#[cfg(test)]
mod tests;

pub use action::{
    Action, AttackRecord, BuyRecord, Flags, MoveRecord, Reply, Sent, TurnRecord, UseRecord,
};
pub use player::Player;
pub use types::{
    Class, Item, Phase, Pos, Ruleset, StatSet, BOARD, CONTROL_BEGIN, CONTROL_END, CONTROL_POINTS,
    PLAYERS, TURNS,
};

use crate::digest::Digest;
use crate::game::{Game, Roster, SetupError, StepReport};
use crate::outcome::{Decision, Outcome};
use crate::rng::Rng;
use crate::seat::{SeatSet, MAX_SEATS};

/// The description of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Params {
    /// Which rules to follow where the text and the reference engine disagree.
    pub ruleset: Ruleset,
    /// Fixed starting classes (replays); `None` plays the handshake step first.
    pub classes: Option<[Class; PLAYERS]>,
}

impl Params {
    /// Params with fixed classes if `fixed`, each seat's picked in seat order by `pick`.
    pub fn with_classes<E>(
        ruleset: Ruleset,
        fixed: bool,
        mut pick: impl FnMut() -> Result<Class, E>,
    ) -> Result<Params, E> {
        let classes = if fixed {
            let mut classes = [Class::Knight; PLAYERS];
            for c in &mut classes {
                *c = pick()?;
            }
            Some(classes)
        } else {
            None
        };
        Ok(Params { ruleset, classes })
    }
}

/// A Ballroom Blitz match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballroom {
    ruleset: Ruleset,
    seed: u64,
    /// The phase the next step plays.
    phase: Phase,
    /// Complete turns.
    turn: u8,
    players: [Player; PLAYERS],
    record: TurnRecord,
}

impl Ballroom {
    /// The phase the next step plays, `None` once the game is over.
    pub fn phase(&self) -> Option<Phase> {
        if self.turn >= TURNS {
            None
        } else {
            Some(self.phase)
        }
    }

    /// The turn number the reference shows bots (`turnCount`): 1 during the first turn, 101 at the end.
    pub fn engine_turn(&self) -> u32 {
        u32::from(self.turn).saturating_add(1)
    }

    /// Whether the classes are chosen (the turn-0 settlement has happened).
    pub fn started(&self) -> bool {
        self.phase != Phase::Class
    }

    /// The rules followed.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Every player's state, by seat.
    pub fn players(&self) -> &[Player; PLAYERS] {
        &self.players
    }

    /// The player at `seat`, `None` out of range.
    pub fn player(&self, seat: usize) -> Option<&Player> {
        self.players.get(seat)
    }

    /// The actions of the turn in progress as executed, with the reference's flags. A phase's
    /// entries are those of the last time that phase was played: after BUY, the whole turn.
    pub fn record(&self) -> &TurnRecord {
        &self.record
    }

    /// Whether `seat`'s attack on `target` would land now (in range, not itself).
    pub fn in_range(&self, seat: usize, target: usize) -> bool {
        match (self.players.get(seat), self.players.get(target)) {
            (Some(a), Some(t)) => seat != target && a.stats().range >= a.pos.chebyshev(t.pos),
            _ => false,
        }
    }

    /// One phase with one action per player: `actions[i]` is player `i`'s, and `None` that
    /// nothing is executed for player `i` (a player left out of USE, MOVE or BUY is not touched in
    /// that phase, and one left out of ATTACK queues no attack). The same as
    /// [`Ballroom::step_replies`] with the players' own actions in player order; [`Game::step`]
    /// plays every seat's own action this way (decision 2).
    pub fn step_logged(&mut self, actions: &[Option<Action>; PLAYERS]) -> StepReport {
        let mut replies = [Reply::default(); PLAYERS];
        let mut n = 0;
        for (seat, a) in actions.iter().enumerate() {
            if let (Some(a), Some(r)) = (a, replies.get_mut(n)) {
                *r = Reply {
                    executor: seat as u8,
                    action: *a,
                    flags: Flags::NONE,
                };
                n = n.saturating_add(1);
            }
        }
        self.step_replies(replies.get(..n).unwrap_or(&[]))
    }

    /// One phase as the official engine plays it: `replies` in the order the engine read them,
    /// each executed for the player its [`Reply::executor`] names (`GameEngine.execute`), which
    /// need not be the seat that sent it. USE, MOVE and BUY execute each reply at once; ATTACK
    /// queues them in this order and runs the queue sorted by damage (ties keep this order). A
    /// player's record holds the last reply executed for it; a player no reply names is not
    /// touched in that phase and keeps its record.
    ///
    /// Our matches never act for another seat (decision 2: [`Game::step`] ignores the executor a
    /// bot names); this is how `arena verify` re-plays an official log whose bots did. At most
    /// [`PLAYERS`] replies are read (the engine reads one per bot); an executor outside the
    /// players (where the engine crashes) is skipped.
    pub fn step_replies(&mut self, replies: &[Reply]) -> StepReport {
        let mut report = StepReport::default();
        let Some(phase) = self.phase() else {
            return report;
        };
        let replies = replies.get(..PLAYERS).unwrap_or(replies);
        if replies.iter().all(|r| usize::from(r.executor) < PLAYERS) {
            self.play_phase(phase, replies, &mut report);
        } else {
            let mut queue = [Reply::default(); PLAYERS];
            let mut n = 0;
            for r in replies.iter().filter(|r| usize::from(r.executor) < PLAYERS) {
                if let Some(q) = queue.get_mut(n) {
                    *q = *r;
                    n = n.saturating_add(1);
                }
            }
            self.play_phase(phase, queue.get(..n).unwrap_or(&[]), &mut report);
        }
        report
    }

    /// One phase of replies whose executors are players.
    fn play_phase(&mut self, phase: Phase, queue: &[Reply], report: &mut StepReport) {
        match phase {
            Phase::Class => {
                let mut actions = [None; PLAYERS];
                for r in queue {
                    if let Some(a) = actions.get_mut(usize::from(r.executor)) {
                        *a = Some(r.action);
                    }
                }
                self.play_class(&actions, report)
            }
            Phase::Use => self.play_use(queue, report),
            Phase::Move => self.play_move(queue, report),
            Phase::Attack => self.play_attack(queue, report),
            Phase::Buy => self.play_buy(queue, report),
        }
    }

    /// One phase with every seat's own reply and the result flags it sent ([`Flags`]): what
    /// [`Game::step`] does, the flags standing in the record where the engine's judgement does
    /// not set them (a desktop match plays its bots' replies this way).
    pub fn step_sent(&mut self, sent: &[Sent]) -> StepReport {
        let mut replies = [Reply::default(); PLAYERS];
        for (seat, r) in replies.iter_mut().enumerate() {
            let s = sent.get(seat).copied().unwrap_or_default();
            *r = Reply {
                executor: seat as u8,
                action: s.action,
                flags: s.flags,
            };
        }
        self.step_replies(&replies)
    }

    /// Final order: points, then gold, then the seeded coin flip. `order[0]` is the winner.
    pub fn ranking(&self) -> [usize; PLAYERS] {
        let mut coin = [0u8, 1, 2, 3];
        Rng::stream(self.seed, b"tiebreak").shuffle(&mut coin);
        let key = |s: usize| {
            let p = self.players.get(s);
            let coin = coin.get(s).copied().unwrap_or(0);
            (p.map_or(0, |p| p.score), p.map_or(0, |p| p.gold), coin)
        };
        let mut order = [0usize, 1, 2, 3];
        // The coins differ, so no two keys tie and the unstable sort is the stable one.
        order.sort_unstable_by_key(|&s| core::cmp::Reverse(key(s)));
        order
    }
}

impl Ballroom {
    /// The game `init` sets up.
    fn build(params: &Params, seed: u64) -> Ballroom {
        let mut game = Ballroom {
            ruleset: params.ruleset,
            seed,
            phase: Phase::Class,
            turn: 0,
            players: core::array::from_fn(|s| Player::new(Class::Knight, s)),
            record: TurnRecord::default(),
        };
        if let Some(classes) = params.classes {
            game.players = core::array::from_fn(|s| {
                Player::new(classes.get(s).copied().unwrap_or(Class::Knight), s)
            });
            game.start();
        }
        game
    }
}

impl Game for Ballroom {
    const NAME: &'static str = "ballroom";
    type Params = Params;
    type Action = Action;
    type View<'a> = crate::view::Open<'a, Self>;

    fn view(&self, seat: crate::seat::Seat) -> Self::View<'_> {
        crate::view::Open::new(self, seat)
    }

    fn blank() -> Self {
        Ballroom::build(
            &Params {
                ruleset: Ruleset::Engine,
                classes: None,
            },
            0,
        )
    }
    /// A small state: built, then moved in.
    fn init(&mut self, params: &Params, seed: u64) -> Result<(), SetupError> {
        *self = Ballroom::build(params, seed);
        Ok(())
    }

    fn seats(&self) -> usize {
        PLAYERS
    }

    fn turn(&self) -> u32 {
        self.turn as u32
    }

    fn to_move(&self) -> SeatSet {
        if self.phase().is_some() {
            SeatSet::all(PLAYERS)
        } else {
            SeatSet::EMPTY
        }
    }

    fn step(&mut self, actions: &[Action]) -> StepReport {
        // Copied in place (`array::from_fn` here moved each 12-byte action through the stack in
        // pieces, which stalled the loads that followed: most of a phase's time).
        let mut replies = [Reply::default(); PLAYERS];
        for (seat, r) in replies.iter_mut().enumerate() {
            r.executor = seat as u8;
            r.action = actions.get(seat).copied().unwrap_or_default();
        }
        self.step_replies(&replies)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase().is_some() {
            return None;
        }
        let mut out = Outcome {
            seats: PLAYERS as u8,
            rank: [0; MAX_SEATS],
            score: [0; MAX_SEATS],
            reason: "100 turns played",
        };
        for (rank, &s) in self.ranking().iter().enumerate() {
            if let (Some(r), Some(score), Some(p)) = (
                out.rank.get_mut(s),
                out.score.get_mut(s),
                self.players.get(s),
            ) {
                *r = rank as u8;
                *score = p.score as i64;
            }
        }
        Some(out)
    }

    fn decision(&self) -> Option<Decision> {
        // What `ranking` compares, in its order.
        let mut why = Decision::of(&self.outcome()?, ["points", "gold"]);
        why.tiebreak = "a seeded coin";
        for (seat, p) in self.players.iter().enumerate() {
            why.set(seat, [p.score.into(), p.gold.into()], None);
        }
        Some(why)
    }

    fn hash_into(&self, d: &mut Digest) {
        d.u8(self.ruleset as u8)
            .u64(self.seed)
            .u8(self.phase.index())
            .u8(self.turn);
        for p in &self.players {
            d.u8(p.class.index())
                .u8(p.pos.x as u8)
                .u8(p.pos.y as u8)
                .u8(p.item.index())
                .u8(p.in_effect.index())
                .u8(p.effect_timer as u8)
                .u8(p.health as u8)
                .u16(p.gold)
                .u16(p.score)
                .u16(p.spent)
                .bool(p.shielded)
                .bool(p.active)
                .bool(p.connected);
        }
        let r = &self.record;
        for u in &r.uses {
            d.bool(u.used).bool(u.valid);
        }
        for m in &r.moves {
            d.i32(m.x).i32(m.y).bool(m.valid);
        }
        for a in &r.attacks {
            d.i32(a.target)
                .bool(a.valid)
                .i32(a.damage)
                .bool(a.nullified);
        }
        for b in &r.buys {
            d.u8(b.item.index()).bool(b.valid).bool(b.bought);
        }
    }
}

impl Roster for Ballroom {
    type Bot = bots::BallroomBot;
    const BOTS: &'static [&'static str] = &["strong", "holder", "random"];

    fn bot(name: &str, seed: u64) -> Option<Self::Bot> {
        bots::BallroomBot::new(name, seed)
    }
}
