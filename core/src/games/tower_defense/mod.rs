//! # Tower Defense (`rules/tower-defense.md`)
//!
//! Invaders walk a path of 100 spaces while towers beside it shoot, stun or blow them up. Two
//! variants of the original king-of-the-hill challenge, both exact to traces written by its
//! JavaScript controller:
//! - **Duel** (default): two players, two paths; each spawns invaders on its own path and builds
//!   towers on the other. Ends when a life reaches 0 or at turn 100,000; more life wins, then gold.
//! - **Siege**: seat 0 (invader) spawns, seat 1 (defender) builds, on one path. Ends when 100
//!   invaders got through; both scores are the turns the defender lasted. A safety cap of 1,000,000
//!   turns ends it as a defender win.
//!
//! Both seats move every turn (simultaneous, Decision 1): a turn first runs the boards (towers fire,
//! invaders move, rewards), then income, then both actions, which touch disjoint parts of the state.
//!
//! ## Capacities
//! A path holds at most one invader and one tower per space ([`board::SPACES`] = 100): that is the
//! rule itself, so a spawn onto an occupied space 0 or a build onto a tower is simply refused. The
//! state is fixed arrays by space plus seven 128-bit masks a board that make a turn fast (see
//! [`board`] for the field widths and why they suffice): the whole Duel game is 4,280 bytes
//! (asserted by a test against its budget of 4,352), the Siege game less.
//!
//! ## Bad input
//! [`Action`] holds whatever a bot sent, as raw integers: positions off the path, unknown names, bad
//! tower types, absurd stat boosts; what a codec could not take as integers at all is
//! [`Action::Malformed`], with the reason (rules Decision 7). `step` refuses what the rules do not
//! allow, counts it in the [`StepReport`], and the seat passes. Arithmetic is exact integer arithmetic (Decision 2):
//! the through-reward is `floor(income * hp / maxhp)`, Siege's `1.1^k` is `11^k / 10^k`, `log10` is
//! a digit count.

#[cfg(feature = "arbitrary")]
mod arbitrary;
pub mod board;
pub mod bots;
pub mod duel;
pub mod siege;
mod strong;
#[cfg(test)]
mod tests;

pub use board::{InvaderView, TowerKind, TowerView, LAST, SPACES};
pub use bots::TdBot;
pub use duel::Player;
pub use siege::{Attacker, Defender};

use crate::digest::Digest;
use crate::game::{Game, Roster, SetupError, StepReport};
use crate::outcome::{Decision, Outcome};
use crate::seat::{Seat, SeatSet, MAX_SEATS};
use duel::Duel;
use siege::Siege;

/// Which version of the challenge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Variant {
    /// The symmetric version (final controller, 2018-05-19).
    #[default]
    Duel,
    /// Defender against invader (earlier controller, 2018-04-23).
    Siege,
}

impl Variant {
    /// The name on the command line: `duel` or `siege`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Duel => "duel",
            Variant::Siege => "siege",
        }
    }

    /// The variant named `name` ([`Variant::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Variant> {
        match name {
            "duel" => Some(Variant::Duel),
            "siege" => Some(Variant::Siege),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
/// The description of a match: the variant (the path and the rules are fixed).
pub struct Params {
    /// Duel or Siege.
    pub variant: Variant,
}

/// The stat an upgrade raises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Stat {
    /// Power: damage per hit, or turns of stun.
    Power,
    /// Range: spaces reached either side.
    Range,
}

impl Stat {
    /// The name in the bot protocol: `power` or `range`.
    pub const fn name(self) -> &'static str {
        match self {
            Stat::Power => "power",
            Stat::Range => "range",
        }
    }

    /// The stat named `name` ([`Stat::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Stat> {
        match name {
            "power" => Some(Stat::Power),
            "range" => Some(Stat::Range),
            _ => None,
        }
    }
}

/// One seat's action for one turn, as the bot sent it: raw values, validated by `step`.
///
/// `kind`/`stat` are `None` when the bot named something that does not exist. Positions and stat
/// boosts are kept as sent (`102`, `-5`, `i64::MAX`), so the refusal is the engine's, not the codec's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    /// `null`: do nothing.
    #[default]
    Pass,
    /// Spawn an invader on your own path; negative boosts count as 0.
    Spawn {
        /// Hit point boost, as sent.
        hp: i64,
        /// Defense boost, as sent.
        defense: i64,
        /// Stun resistance boost, as sent.
        stun_res: i64,
    },
    /// Build a tower (on the opponent's path in Duel).
    Build {
        /// The kind of tower (`None`: a name that is no kind).
        kind: Option<TowerKind>,
        /// The space, as sent.
        pos: i64,
    },
    /// Raise one stat of your tower at `pos`.
    Upgrade {
        /// The tower's space, as sent.
        pos: i64,
        /// The stat raised (`None`: a name that is no stat).
        stat: Option<Stat>,
    },
    /// Remove your tower at `pos` for half the gold invested.
    Destroy {
        /// The tower's space, as sent.
        pos: i64,
    },
    /// Anything else a bot might send (unknown action name, not an object...): always refused.
    Unknown,
    /// An action whose values a codec could not take as the rules' integers (rules Decision 7):
    /// always refused, for the reason it holds.
    Malformed(Malformed),
}

/// Why an action's values are not the rules' integers (rules Decision 7). A codec finds it (the
/// rules hold integers only); the engine refuses the action and counts the refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Malformed {
    /// A build whose position is not a number (a string, an array, a boolean, `null`, none):
    /// the original used it as a number and as a key at once, with effects no rule describes.
    PositionNotANumber,
    /// A position or a boost that is a number but not a whole one (`30.5`, `2.5`): the state is
    /// integral and stays so.
    NotWhole,
}

impl Malformed {
    /// The reason a match report gives for the refusal.
    pub const fn reason(self) -> &'static str {
        match self {
            Malformed::PositionNotANumber => "position is not a number",
            Malformed::NotWhole => "not a whole number",
        }
    }
}

/// A position on the path, or `None` if off it.
fn space(pos: i64) -> Option<usize> {
    usize::try_from(pos).ok().filter(|&p| p < SPACES)
}

/// Spawn boosts clamped at 0, if their total is within `boost_max` (then each fits in 32 bits).
fn spawn_terms(hp: i64, defense: i64, stun_res: i64, boost_max: u32) -> Option<(u64, u64, u64)> {
    let [h, d, r] = [hp, defense, stun_res].map(|v| v.max(0) as u64);
    // Three values below 2^63 never saturate a u128.
    let total = (h as u128)
        .saturating_add(d as u128)
        .saturating_add(r as u128);
    (total <= boost_max as u128).then_some((h, d, r))
}

/// The price of an invader with those terms: `10 + h + 10 * (d + r)` (rule "Invaders").
/// The terms sum to at most a `u32` (see [`spawn_terms`]), so the saturation never bites.
fn spawn_cost(h: u64, d: u64, r: u64) -> u64 {
    d.saturating_add(r)
        .saturating_mul(10)
        .saturating_add(h)
        .saturating_add(10)
}

// Both variants live inline (no allocation); the Duel one sets the size budget.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Duel(Duel),
    Siege(Siege),
}

/// Each variant's state at turn 0.
const DUEL: State = State::Duel(Duel::new());
const SIEGE: State = State::Siege(Siege::new());

/// A Tower Defense game, Duel or Siege.
/// `Copy`, so that a bot's look-ahead copies it in one move, into its own frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerDefense {
    turn: u32,
    /// The turn's first half is played ([`TowerDefense::begin_turn`]): the next `step` plays
    /// the actions only. False in every state a match shows (only a look-ahead sets it).
    begun: bool,
    state: State,
}

impl TowerDefense {
    /// Duel or Siege.
    pub fn variant(&self) -> Variant {
        match self.state {
            State::Duel(_) => Variant::Duel,
            State::Siege(_) => Variant::Siege,
        }
    }

    /// The Duel players' accounts (`None` in Siege).
    pub fn players(&self) -> Option<&[Player; 2]> {
        match &self.state {
            State::Duel(d) => Some(&d.players),
            State::Siege(_) => None,
        }
    }

    /// The Siege accounts (`None` in Duel).
    pub fn siege(&self) -> Option<(&Attacker, &Defender)> {
        match &self.state {
            State::Siege(s) => Some((&s.invader, &s.defender)),
            State::Duel(_) => None,
        }
    }

    /// Number of paths: 2 in Duel (board `i` is walked by player `i`'s invaders), 1 in Siege.
    pub fn boards(&self) -> usize {
        match self.state {
            State::Duel(_) => 2,
            State::Siege(_) => 1,
        }
    }

    /// The invader on space `pos` of board `board`.
    pub fn invader(&self, board: usize, pos: usize) -> Option<InvaderView> {
        match &self.state {
            State::Duel(d) => d.boards.get(board)?.invader(pos),
            State::Siege(s) if board == 0 => s.board.invader(pos),
            State::Siege(_) => None,
        }
    }

    /// The tower on space `pos` of board `board`.
    pub fn tower(&self, board: usize, pos: usize) -> Option<TowerView> {
        match &self.state {
            State::Duel(d) => d.boards.get(board)?.tower(pos, &duel::RULES),
            State::Siege(s) if board == 0 => s.board.tower(pos, &siege::RULES),
            State::Siege(_) => None,
        }
    }

    /// `f` of each invader of board `board` on a space set in `spaces`, lowest space first:
    /// [`TowerDefense::invader`] for many spaces, the board looked up once.
    pub fn visit_invaders(&self, board: usize, spaces: u128, f: impl FnMut(InvaderView)) {
        match &self.state {
            State::Duel(d) => {
                if let Some(b) = d.boards.get(board) {
                    b.visit_invaders(spaces, f);
                }
            }
            State::Siege(s) if board == 0 => s.board.visit_invaders(spaces, f),
            State::Siege(_) => {}
        }
    }

    /// `f` of each tower of board `board` on a space set in `spaces`, lowest space first:
    /// [`TowerDefense::tower`] for many spaces, the board looked up once.
    pub fn visit_towers(&self, board: usize, spaces: u128, f: impl FnMut(TowerView)) {
        match &self.state {
            State::Duel(d) => {
                if let Some(b) = d.boards.get(board) {
                    b.visit_towers(spaces, &duel::RULES, f);
                }
            }
            State::Siege(s) if board == 0 => s.board.visit_towers(spaces, &siege::RULES, f),
            State::Siege(_) => {}
        }
    }

    /// The invaders of a board, in increasing position.
    pub fn invaders(&self, board: usize) -> impl Iterator<Item = InvaderView> + '_ {
        (0..SPACES).filter_map(move |p| self.invader(board, p))
    }

    /// The towers of a board, in increasing position.
    pub fn towers(&self, board: usize) -> impl Iterator<Item = TowerView> + '_ {
        (0..SPACES).filter_map(move |p| self.tower(board, p))
    }

    /// Occupied spaces of a board as bit masks `(invaders, towers)`, bit `i` for space `i`.
    pub fn masks(&self, board: usize) -> (u128, u128) {
        match &self.state {
            State::Duel(d) => d
                .boards
                .get(board)
                .map_or((0, 0), |b| (b.invader_mask(), b.tower_mask())),
            State::Siege(s) if board == 0 => (s.board.invader_mask(), s.board.tower_mask()),
            State::Siege(_) => (0, 0),
        }
    }

    /// The towers of a board whose cooldown is 0, as a bit mask (a tower built, upgraded or
    /// fired is not in it until it has cooled down).
    pub fn ready_mask(&self, board: usize) -> u128 {
        match &self.state {
            State::Duel(d) => d.boards.get(board).map_or(0, board::Board::ready_mask),
            State::Siege(s) if board == 0 => s.board.ready_mask(),
            State::Siege(_) => 0,
        }
    }

    /// The board where `seat`'s invaders walk (`None` for the Siege defender).
    pub fn attacked_board(&self, seat: Seat) -> Option<usize> {
        match self.state {
            State::Duel(_) if seat < 2 => Some(seat),
            State::Siege(_) if seat == siege::INVADER_SEAT => Some(0),
            _ => None,
        }
    }

    /// The board where `seat`'s towers stand (`None` for the Siege invader).
    pub fn defended_board(&self, seat: Seat) -> Option<usize> {
        match self.state {
            State::Duel(_) if seat < 2 => Some(seat ^ 1),
            State::Siege(_) if seat == siege::DEFENDER_SEAT => Some(0),
            _ => None,
        }
    }

    /// `seat`'s gold.
    pub fn gold(&self, seat: Seat) -> u64 {
        match &self.state {
            State::Duel(d) => d.players.get(seat).map_or(0, |p| p.gold as u64),
            State::Siege(s) if seat == siege::INVADER_SEAT => s.invader.gold,
            State::Siege(s) if seat == siege::DEFENDER_SEAT => s.defender.gold,
            State::Siege(_) => 0,
        }
    }

    /// The largest total stat boost `seat` may give an invader now (0 for the Siege defender).
    pub fn boost_max(&self, seat: Seat) -> u32 {
        match &self.state {
            State::Duel(d) => d.players.get(seat).map_or(0, |p| p.boost_max),
            State::Siege(s) if seat == siege::INVADER_SEAT => s.invader.boost_max,
            State::Siege(_) => 0,
        }
    }

    /// What a tower costs `seat` to build now (`u64::MAX` if it cannot build).
    pub fn build_cost(&self, seat: Seat) -> u64 {
        match &self.state {
            State::Duel(d) => d.players.get(seat).map_or(u64::MAX, |p| p.build_cost()),
            State::Siege(_) if seat == siege::DEFENDER_SEAT => siege::TOWER_COST,
            State::Siege(_) => u64::MAX,
        }
    }

    /// What an upgrade costs `seat` now (`u64::MAX` if it cannot upgrade).
    pub fn upgrade_cost(&self, seat: Seat) -> u64 {
        match &self.state {
            State::Duel(d) => d.players.get(seat).map_or(u64::MAX, |p| p.upgrade_cost()),
            State::Siege(_) if seat == siege::DEFENDER_SEAT => siege::TOWER_COST,
            State::Siege(_) => u64::MAX,
        }
    }

    /// Life of the player whose towers defend `board`.
    pub fn life(&self, seat: Seat) -> u32 {
        match &self.state {
            State::Duel(d) => d.players.get(seat).map_or(0, |p| p.life),
            State::Siege(s) if seat == siege::DEFENDER_SEAT => s.defender.life,
            State::Siege(_) => 0,
        }
    }

    /// A state of `variant` at turn `turn` with no tower and no invader, the accounts as at the
    /// start: the first step of rebuilding a state from what a protocol sent a seat (then
    /// [`TowerDefense::set_players`] or [`TowerDefense::set_siege`],
    /// [`TowerDefense::put_invader`], [`TowerDefense::put_tower`]).
    pub fn rebuilt(variant: Variant, turn: u32) -> TowerDefense {
        TowerDefense {
            turn,
            begun: false,
            state: match variant {
                Variant::Duel => DUEL,
                Variant::Siege => SIEGE,
            },
        }
    }

    /// Sets the Duel players' accounts: `false` (nothing changed) in Siege.
    pub fn set_players(&mut self, players: [Player; 2]) -> bool {
        match &mut self.state {
            State::Duel(d) => {
                d.players = players;
                true
            }
            State::Siege(_) => false,
        }
    }

    /// Sets the Siege accounts: `false` (nothing changed) in Duel.
    pub fn set_siege(&mut self, invader: Attacker, defender: Defender) -> bool {
        match &mut self.state {
            State::Siege(s) => {
                s.invader = invader;
                s.defender = defender;
                true
            }
            State::Duel(_) => false,
        }
    }

    /// Puts the invader `v` describes on board `board` (see `Board::put_invader`): `false` for
    /// no such board, a space taken or values the board cannot hold.
    pub fn put_invader(&mut self, board: usize, v: &InvaderView) -> bool {
        match &mut self.state {
            State::Duel(d) => d.boards.get_mut(board).is_some_and(|b| b.put_invader(v)),
            State::Siege(s) if board == 0 => s.board.put_invader(v),
            State::Siege(_) => false,
        }
    }

    /// Puts the tower `t` describes on board `board` (see `Board::put_tower`): `false` for no
    /// such board, a space taken or a level its power and range do not make.
    pub fn put_tower(&mut self, board: usize, t: &TowerView) -> bool {
        match &mut self.state {
            State::Duel(d) => d
                .boards
                .get_mut(board)
                .is_some_and(|b| b.put_tower(t, &duel::RULES)),
            State::Siege(s) if board == 0 => s.board.put_tower(t, &siege::RULES),
            State::Siege(_) => false,
        }
    }

    /// Plays the turn's first half now, as the next [`Game::step`] would play it before the
    /// actions (rules "One turn": the boards, then income and growth; the turn number counts
    /// it): the state the turn's actions meet, what a legal-move mask judges them on. The next
    /// `step` then plays the actions only, so `begin_turn` + `step(actions)` is `step(actions)`
    /// exactly (the same state, digest and report), with the first half played once.
    ///
    /// Returns false, changing nothing, when the game is over or a turn is already begun. A
    /// begun state is a look-ahead's: [`Game::to_move`] and [`Game::outcome`] answer as after
    /// the first half (a life may be 0 already, the actions are still played), and its digest
    /// differs from the same numbers not begun.
    pub fn begin_turn(&mut self) -> bool {
        if self.begun || self.over() {
            return false;
        }
        self.turn = self.turn.saturating_add(1);
        let turn = self.turn;
        match &mut self.state {
            State::Duel(d) => d.advance(turn),
            State::Siege(s) => s.advance(turn),
        }
        self.begun = true;
        true
    }

    /// Whether the turn's first half is played ([`TowerDefense::begin_turn`]).
    pub fn is_begun(&self) -> bool {
        self.begun
    }

    fn over(&self) -> bool {
        match &self.state {
            State::Duel(d) => {
                self.turn >= duel::TURN_LIMIT || d.players.iter().any(|p| p.life == 0)
            }
            State::Siege(s) => s.defender.life == 0 || self.turn >= siege::TURN_CAP,
        }
    }
}

impl Game for TowerDefense {
    const NAME: &'static str = "tower-defense";
    type Params = Params;
    type Action = Action;
    type View<'a> = crate::view::Open<'a, Self>;

    fn view(&self, seat: crate::seat::Seat) -> Self::View<'_> {
        crate::view::Open::new(self, seat)
    }

    fn blank() -> Self {
        TowerDefense {
            turn: 0,
            begun: false,
            state: SIEGE,
        }
    }

    /// The state is copied from a constant (no temporary on the stack).
    fn init(&mut self, params: &Params, _seed: u64) -> Result<(), SetupError> {
        self.turn = 0;
        self.begun = false;
        match params.variant {
            Variant::Duel => self.state = DUEL,
            Variant::Siege => self.state = SIEGE,
        }
        Ok(())
    }

    fn seats(&self) -> usize {
        2
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn to_move(&self) -> SeatSet {
        if self.over() && !self.begun {
            SeatSet::EMPTY
        } else {
            SeatSet::all(2)
        }
    }

    /// A whole turn, or the actions alone when the turn's first half is played already
    /// ([`TowerDefense::begin_turn`]).
    fn step(&mut self, actions: &[Action]) -> StepReport {
        let mut report = StepReport::default();
        if !self.begun && !self.begin_turn() {
            return report;
        }
        self.begun = false;
        let turn = self.turn;
        let pass = Action::Pass;
        let action = |s: usize| actions.get(s).unwrap_or(&pass);
        match &mut self.state {
            State::Duel(d) => {
                for seat in 0..2 {
                    d.apply(seat, action(seat), &mut report);
                }
            }
            State::Siege(s) => {
                for seat in 0..2 {
                    s.apply(seat, turn, action(seat), &mut report);
                }
            }
        }
        report
    }

    /// [`Game::is_over`] without building the outcome (asked several times a step).
    fn is_over(&self) -> bool {
        self.over()
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let mut out = Outcome {
            seats: 2,
            rank: [0; MAX_SEATS],
            score: [0; MAX_SEATS],
            reason: "",
        };
        match &self.state {
            State::Duel(d) => {
                let [a, b] = &d.players;
                out.score[0] = a.life as i64;
                out.score[1] = b.life as i64;
                // Decision 4: more life wins, then more gold, else a draw.
                match (a.life, a.gold).cmp(&(b.life, b.gold)) {
                    core::cmp::Ordering::Greater => out.rank[1] = 1,
                    core::cmp::Ordering::Less => out.rank[0] = 1,
                    core::cmp::Ordering::Equal => {}
                }
                out.reason = if a.life == 0 || b.life == 0 {
                    "life reached 0"
                } else {
                    "turn limit 100000"
                };
            }
            State::Siege(s) => {
                out.score[0] = self.turn as i64;
                out.score[1] = self.turn as i64;
                if s.defender.life == 0 {
                    out.rank[siege::DEFENDER_SEAT] = 1;
                    out.reason = "defender's life reached 0";
                } else {
                    out.rank[siege::INVADER_SEAT] = 1;
                    out.reason = "safety cap 1000000 turns";
                }
            }
        }
        Some(out)
    }

    fn decision(&self) -> Option<Decision> {
        let outcome = self.outcome()?;
        let turn = self.turn;
        Some(match &self.state {
            State::Duel(d) => {
                let mut why = Decision::of(&outcome, ["life", "gold"]);
                for (seat, p) in d.players.iter().enumerate() {
                    let defeated = (p.life == 0).then_some(turn);
                    why.set(seat, [p.life.into(), p.gold.into()], defeated);
                }
                why
            }
            State::Siege(s) => {
                let mut why = Decision::of(&outcome, ["", ""]);
                why.rule = "the invader wins if the defender's life reaches 0 within 1000000 turns";
                why.survivors_first = true;
                let loser = if s.defender.life == 0 {
                    siege::DEFENDER_SEAT
                } else {
                    siege::INVADER_SEAT
                };
                why.set(loser, [0, 0], Some(turn));
                why
            }
        })
    }

    fn hash_into(&self, d: &mut Digest) {
        d.u32(self.turn);
        // Only a look-ahead is begun: every state a match shows hashes as it always did.
        if self.begun {
            d.u8(2);
        }
        match &self.state {
            State::Duel(g) => {
                d.u8(0);
                g.hash_into(d);
            }
            State::Siege(g) => {
                d.u8(1);
                g.hash_into(d);
            }
        }
    }
}

impl Roster for TowerDefense {
    type Bot = TdBot;
    const BOTS: &'static [&'static str] = bots::NAMES;

    fn bot(name: &str, seed: u64) -> Option<TdBot> {
        TdBot::new(name, seed)
    }
}
