//! # ColorFight
//!
//! The territory game of the 2018 ColorFight practice rounds (`rules/colorfight.md`), made discrete:
//! the reference server updated lazily in real time; here one [`Game::step`] is one 100 ms tick, so a
//! 20-minute game is 12,000 steps and every duration is a whole number of ticks computed in fixed
//! point ([`timing`]), identical on every target.
//!
//! Two variants: [`Variant::Conquest`] (practice round 2: mines, energy, bases, respawn) and
//! [`Variant::Skirmish`] (practice round 1: attacks only).
//!
//! ## Decisions the rules file leaves open
//! - A tick `T` is split across steps: `step` applies the actions of tick `T` (rule 5: respawns,
//!   then every seat in a seeded order), then moves to `T + 1` and runs its rules 1 to 4
//!   (completions, builds, defeats, income). The state a bot sees is thus "tick `T`, ready to act".
//! - "Being taken" means any attack in progress on the cell, including its owner defending it:
//!   such a cell can be neither attacked nor built on.
//! - "Holds no base" (for a retreat) counts an unfinished base as a base.
//! - A player has at most one unfinished base (builds are 30 s apart and take 30 s), so its finish
//!   tick lives in the player, not in every cell.
//! - `bases` in the JSON counts finished and unfinished bases: the number the limit of 3 applies to.
//! - A start or a respawn goes on a random free cell: no owner and no attack in progress, mines
//!   included (as the server drew it). With none, on a random cell that nobody attacks, taken from
//!   its owner as the server's start overwrote it (no retreat: a base there is lost); with none of
//!   those either, a respawn waits for the next tick, until the 5-minute window closes. A respawn
//!   resets gold, energy and the build cool-down.
//! - In the server-compatible mode ([`Respawn::OnJoin`], `arena serve`), a defeated player comes
//!   back only when its client joins again: its action [`Action::Join`] at a tick when it may
//!   respawn (the same window) is its respawn. Anywhere else `Join` is refused.
//! - A build is judged in the server's order (out of the grid, gold, cool-down, base limit, own
//!   cell, being taken, base already there), so the first reason is the server's error code.
//! - Gold and energy are `I32F32`; the income of 0.05 per tick rounds up by 2^-33, so 20 ticks give
//!   at least 1 whole unit and a player never misses a 60-gold base by a rounding error.
//! - The game lasts [`Params::ticks`] ticks (12,000 by default) and never ends early.
//! - An attack keeps the duration computed when it started, even if the cell is emptied by its
//!   owner's defeat meanwhile; it still completes, and the attacker takes the cell.
//! - An attempt's score (for the best-of rule) is taken at its defeat, after that tick's losses.
//! - A defeated seat that will not respawn is not in `to_move`; its actions are ignored, not counted.
//!
//! ## Capacities
//! At most [`MAX_CELLS`] cells (32 x 32) and [`MAX_PLAYERS`] players. The state is a fixed array
//! of 12-byte cells: 12,792 bytes on x86-64 whatever the grid size (a test checks it against the
//! 24 KB budget).

pub mod bots;
pub mod grid;
mod player;
mod ranking;
mod tick;
pub mod timing;

#[cfg(feature = "arbitrary")]
mod arbitrary;
#[cfg(test)]
mod tests;

use crate::game::{Game, Roster, SetupError, StepReport};
use crate::outcome::{Decision, Outcome};
use crate::rng::Rng;
use crate::seat::{Seat, SeatSet, MAX_SEATS};
use crate::Digest;

pub use bots::ColorFightBot;
use grid::seat_tag;
pub use grid::{Building, Cell, Kind};
pub use player::Player;
pub use timing::Num;

/// The most cells a grid may have (32 x 32; the default grid is 30 x 30).
pub const MAX_CELLS: usize = 1024;
/// The most players.
pub const MAX_PLAYERS: usize = 8;
/// 20 minutes of 100 ms ticks.
pub const DEFAULT_TICKS: u32 = 12_000;
/// Conquest: defeated players respawn during the first 5 minutes.
pub const RESPAWN_TICKS: u32 = 3_000;
/// A base costs 60 gold, takes 30 s to build, and a player builds at most one per 30 s.
pub const BASE_COST: i32 = 60;
/// Ticks a base takes to build, and the least between two builds by one player.
pub const BUILD_TICKS: u32 = 300;
/// At most 3 bases per player, unfinished ones included.
pub const MAX_BASES: u8 = 3;
/// Start gold, and the cap on gold and energy.
pub const START_GOLD: i32 = 30;
/// The cap on gold and on energy.
pub const CAP: i32 = 100;
/// Income per mine per tick: 0.5 per second.
pub const INCOME: Num = Num::lit("0.05");
/// Every Conquest attack multiplies the attacker's energy by 0.95.
pub const ENERGY_KEEP: Num = Num::lit("0.95");

const NONE: u16 = u16::MAX;

/// The two rule sets of the practice rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Variant {
    /// Practice round 2: mines, energy, bases, respawn.
    #[default]
    Conquest,
    /// Practice round 1: attacks only.
    Skirmish,
}

impl Variant {
    /// The name on the command line: `conquest` or `skirmish`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Conquest => "conquest",
            Variant::Skirmish => "skirmish",
        }
    }
    /// The variant named `name` ([`Variant::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Variant> {
        match name {
            "conquest" => Some(Variant::Conquest),
            "skirmish" => Some(Variant::Skirmish),
            _ => None,
        }
    }
}

/// How a defeated player comes back (Conquest, during the first 5 minutes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Respawn {
    /// By itself, at the next tick (the rules).
    #[default]
    Auto,
    /// When its client joins again ([`Action::Join`]), as on the original server (rules,
    /// decision 4): the server-compatible mode.
    OnJoin,
}

impl Respawn {
    /// The name on the command line: `auto` or `join`.
    pub const fn name(self) -> &'static str {
        match self {
            Respawn::Auto => "auto",
            Respawn::OnJoin => "join",
        }
    }
    /// The respawn mode named `name` ([`Respawn::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Respawn> {
        match name {
            "auto" => Some(Respawn::Auto),
            "join" => Some(Respawn::OnJoin),
            _ => None,
        }
    }
}

/// Variant, grid size, players, length and how defeated players come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Which rule set.
    pub variant: Variant,
    /// Columns of the grid.
    pub width: u16,
    /// Rows of the grid.
    pub height: u16,
    /// Players.
    pub players: u8,
    /// Ticks in a game.
    pub ticks: u32,
    /// How defeated players come back (Conquest).
    pub respawn: Respawn,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: Variant::Conquest,
            width: 30,
            height: 30,
            players: 4,
            ticks: DEFAULT_TICKS,
            respawn: Respawn::Auto,
        }
    }
}

/// One seat's move for one tick: anything a bot could send. Coordinates are checked by the rules,
/// and `Malformed` (what a codec makes of unreadable input) is always refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    #[default]
    /// Do nothing this tick.
    Pass,
    /// Attack (or defend) the cell at column `x`, row `y`.
    Attack {
        /// Column, as sent.
        x: i32,
        /// Row, as sent.
        y: i32,
    },
    /// Build a base on the cell at column `x`, row `y` (Conquest).
    Build {
        /// Column, as sent.
        x: i32,
        /// Row, as sent.
        y: i32,
    },
    /// A defeated player's client joins again ([`Respawn::OnJoin`]).
    Join,
    /// What a codec makes of unreadable input: always refused.
    Malformed,
}

/// Why an action was refused: one per rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Refusal {
    /// The action was [`Action::Malformed`].
    Malformed,
    /// The player is defeated.
    Defeated,
    /// The cell is outside the grid.
    OutOfGrid,
    /// The player is already attacking a cell.
    Busy,
    /// The cell is already under attack.
    BeingTaken,
    /// The cell is neither the player's nor next to one of its cells.
    NotAdjacent,
    /// Skirmish has no bases.
    NoBuildInSkirmish,
    /// A base on a cell the player does not own.
    NotOwn,
    /// The cell already has a base.
    HasBase,
    /// Less gold than a base costs.
    TooPoor,
    /// The player already has the most bases allowed.
    BaseLimit,
    /// The player built a base too recently.
    CoolDown,
    /// `Join` from a player that is not defeated, or outside the server-compatible mode.
    CannotRejoin,
}

impl Refusal {
    /// The reason in a few words, for reports and traces.
    pub const fn reason(self) -> &'static str {
        match self {
            Refusal::Malformed => "malformed action",
            Refusal::Defeated => "player defeated",
            Refusal::OutOfGrid => "cell off the grid",
            Refusal::Busy => "busy attacking",
            Refusal::BeingTaken => "cell being taken",
            Refusal::NotAdjacent => "cell not next to own land",
            Refusal::NoBuildInSkirmish => "no bases in Skirmish",
            Refusal::NotOwn => "base on a cell not owned",
            Refusal::HasBase => "cell already a base",
            Refusal::TooPoor => "too little gold",
            Refusal::BaseLimit => "base limit reached",
            Refusal::CoolDown => "build cool-down",
            Refusal::CannotRejoin => "join while not defeated",
        }
    }
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

impl core::error::Error for Refusal {}

/// What an accepted action will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Nothing to do.
    Pass,
    /// Attack (or defend) cell `cell`, completing after `ticks`.
    Attack {
        /// The cell attacked, by index (row-major).
        cell: usize,
        /// Ticks until the attack completes.
        ticks: u32,
    },
    /// Build a base.
    Build {
        /// The cell built on, by index (row-major).
        cell: usize,
    },
}

/// A ColorFight game.
#[derive(Clone, Debug)]
pub struct ColorFight {
    params: Params,
    seed: u64,
    tick: u32,
    cells: [Cell; MAX_CELLS],
    players: [Player; MAX_PLAYERS],
    /// The order players act in, drawn each tick.
    order_rng: Rng,
    /// The order a retreating base tries its neighbours.
    retreat_rng: Rng,
    /// Where defeated players respawn.
    spawn_rng: Rng,
}

impl ColorFight {
    /// The params the game was set up with.
    pub const fn params(&self) -> &Params {
        &self.params
    }
    /// The rule set.
    pub const fn variant(&self) -> Variant {
        self.params.variant
    }
    /// Columns of the grid.
    pub const fn width(&self) -> usize {
        self.params.width as usize
    }
    /// Rows of the grid.
    pub const fn height(&self) -> usize {
        self.params.height as usize
    }
    /// Ticks played.
    pub const fn tick(&self) -> u32 {
        self.tick
    }
    /// The seed the game was set up with.
    pub const fn seed(&self) -> u64 {
        self.seed
    }
    fn len(&self) -> usize {
        self.width().saturating_mul(self.height())
    }
    /// The cells of the grid, row-major (`y * width + x`).
    pub fn cells(&self) -> &[Cell] {
        self.cells.get(..self.len()).unwrap_or(&[])
    }
    /// The cell at index `idx` (row-major), `None` off the grid.
    pub fn cell(&self, idx: usize) -> Option<&Cell> {
        self.cells().get(idx)
    }
    /// Every player, by seat.
    pub fn players(&self) -> &[Player] {
        self.players
            .get(..self.params.players as usize)
            .unwrap_or(&[])
    }
    /// The player at `seat`, `None` for no such seat.
    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players().get(seat)
    }

    /// The cell index of `(x, y)`, if it is on the grid.
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x as usize >= self.width() || y as usize >= self.height() {
            None
        } else {
            (y as usize)
                .checked_mul(self.width())?
                .checked_add(x as usize)
        }
    }

    /// The coordinates of a cell index.
    pub fn coords(&self, idx: usize) -> (i32, i32) {
        let w = self.width().max(1);
        let (x, y) = (idx.checked_rem(w), idx.checked_div(w));
        (x.unwrap_or(0) as i32, y.unwrap_or(0) as i32)
    }

    /// The 4 neighbours of a cell (up, right, down, left), `None` off the grid.
    pub fn neighbours(&self, idx: usize) -> [Option<usize>; 4] {
        let (x, y) = self.coords(idx);
        [
            self.index(x, y.saturating_sub(1)),
            self.index(x.saturating_add(1), y),
            self.index(x, y.saturating_add(1)),
            self.index(x.saturating_sub(1), y),
        ]
    }

    /// How many of `seat`'s cells touch cell `idx`.
    pub fn own_neighbours(&self, seat: Seat, idx: usize) -> u8 {
        let me = seat_tag(seat);
        self.neighbours(idx)
            .iter()
            .flatten()
            .filter(|&&n| self.cell(n).is_some_and(|c| c.owner == me))
            .count() as u8
    }

    /// The current score of `seat`'s attempt.
    pub fn score(&self, seat: Seat) -> u32 {
        self.player(seat).map_or(0, |p| p.score())
    }

    /// The score that counts: the best attempt (Conquest) or the cells held (Skirmish).
    pub fn final_score(&self, seat: Seat) -> u32 {
        match self.player(seat) {
            None => 0,
            Some(p) if p.defeated => p.best,
            Some(p) => p.best.max(p.score()),
        }
    }

    /// What `action` by `seat` would do now, or why the rules refuse it.
    pub fn plan(&self, seat: Seat, action: &Action) -> Result<Plan, Refusal> {
        let p = self.player(seat).ok_or(Refusal::Defeated)?;
        let (x, y, attack) = match *action {
            Action::Pass => return Ok(Plan::Pass),
            Action::Malformed => return Err(Refusal::Malformed),
            Action::Attack { x, y } => (x, y, true),
            Action::Build { x, y } => (x, y, false),
            // A Join that brings a player back is taken before any action (see `step`).
            Action::Join => return Err(Refusal::CannotRejoin),
        };
        if p.defeated {
            return Err(Refusal::Defeated);
        }
        if !attack && self.variant() == Variant::Skirmish {
            return Err(Refusal::NoBuildInSkirmish);
        }
        let idx = self.index(x, y).ok_or(Refusal::OutOfGrid)?;
        let cell = self.cell(idx).ok_or(Refusal::OutOfGrid)?;
        let me = seat_tag(seat);
        if attack {
            if !p.is_idle() {
                return Err(Refusal::Busy);
            }
            if cell.attacker != 0 {
                return Err(Refusal::BeingTaken);
            }
            let adjacent = self.own_neighbours(seat, idx);
            if cell.owner != me && adjacent == 0 {
                return Err(Refusal::NotAdjacent);
            }
            let age = self.tick.saturating_sub(cell.taken_at);
            let ticks =
                timing::attack_ticks(self.variant(), cell.owner != 0, age, adjacent, p.energy);
            Ok(Plan::Attack { cell: idx, ticks })
        } else {
            // The server's order: its first reason is the error code a client sees.
            if p.gold < Num::const_from_int(BASE_COST as i64) {
                return Err(Refusal::TooPoor);
            }
            if self.tick < p.next_build {
                return Err(Refusal::CoolDown);
            }
            if p.all_bases() >= MAX_BASES {
                return Err(Refusal::BaseLimit);
            }
            if cell.owner != me {
                return Err(Refusal::NotOwn);
            }
            if cell.attacker != 0 {
                return Err(Refusal::BeingTaken);
            }
            if cell.building != Building::None {
                return Err(Refusal::HasBase);
            }
            Ok(Plan::Build { cell: idx })
        }
    }

    /// Whether `seat` could build a base now (on some cell): asked even while busy attacking,
    /// since attacking and building are independent (rules, decision 9).
    pub fn may_build(&self, seat: Seat) -> bool {
        let Some(p) = self.player(seat) else {
            return false;
        };
        let me = seat_tag(seat);
        self.variant() == Variant::Conquest
            && !p.defeated
            && p.gold >= Num::const_from_int(BASE_COST as i64)
            && p.all_bases() < MAX_BASES
            && self.tick >= p.next_build
            && self
                .cells()
                .iter()
                .any(|c| c.owner == me && c.attacker == 0 && c.building == Building::None)
    }

    /// Sets this game up as a protocol described it: `params`, the tick, every cell (row-major)
    /// and every player, in place. The seed is 0 and the random streams are seed 0's (no
    /// protocol sends them): a step of the rebuilt game draws the players' order and the
    /// respawn cells from other numbers than the engine's. Refused (nothing changed) when the
    /// cells are not `width * height` or over [`MAX_CELLS`], or the players not `params.players`
    /// (2 to [`MAX_PLAYERS`]).
    pub fn rebuild(
        &mut self,
        params: &Params,
        tick: u32,
        cells: &[Cell],
        players: &[Player],
    ) -> Result<(), SetupError> {
        let (w, h) = (params.width as usize, params.height as usize);
        if w < 2 || h < 2 || cells.len() != w.saturating_mul(h) {
            return Err(SetupError::Invalid(
                "cells are not width x height, both at least 2",
            ));
        }
        if cells.len() > MAX_CELLS {
            return Err(SetupError::Capacity("more than MAX_CELLS cells"));
        }
        if params.players < 2
            || params.players as usize > MAX_PLAYERS
            || players.len() != params.players as usize
        {
            return Err(SetupError::Invalid(
                "2 to 8 players, as many as params.players",
            ));
        }
        self.params = *params;
        self.seed = 0;
        self.tick = tick;
        self.cells.fill(Cell::default());
        for (slot, cell) in self.cells.iter_mut().zip(cells) {
            *slot = *cell;
        }
        self.players.fill(Player::start(0));
        for (slot, player) in self.players.iter_mut().zip(players) {
            *slot = *player;
        }
        self.order_rng = Rng::stream(0, b"colorfight/order");
        self.retreat_rng = Rng::stream(0, b"colorfight/retreat");
        self.spawn_rng = Rng::stream(0, b"colorfight/map");
        Ok(())
    }

    /// [`Game::step`], telling why each refused action was refused (`why[seat]`, `None` for an
    /// action taken, a pass, or a seat that does not move).
    pub fn step_explained(
        &mut self,
        actions: &[Action],
        why: &mut [Option<Refusal>; MAX_PLAYERS],
    ) -> StepReport {
        let mut report = StepReport::default();
        *why = [None; MAX_PLAYERS];
        if self.is_over() {
            return report;
        }
        let joined = self.respawn_all(actions);
        self.act_all(actions, joined, &mut report, why);
        self.tick = self.tick.saturating_add(1);
        self.complete_attacks();
        if self.variant() == Variant::Conquest {
            self.finish_builds();
        }
        self.defeat_all();
        if self.variant() == Variant::Conquest {
            self.income();
        }
        report
    }
}

/// A state with no game in it (see [`Game::blank`]).
const BLANK: ColorFight = ColorFight {
    params: Params {
        variant: Variant::Skirmish,
        width: 0,
        height: 0,
        players: 0,
        ticks: 0,
        respawn: Respawn::Auto,
    },
    seed: 0,
    tick: 0,
    cells: [Cell::EMPTY; MAX_CELLS],
    players: [Player::start(0); MAX_PLAYERS],
    order_rng: Rng::stream(0, b"colorfight/blank"),
    retreat_rng: Rng::stream(0, b"colorfight/blank"),
    spawn_rng: Rng::stream(0, b"colorfight/blank"),
};

impl Game for ColorFight {
    const NAME: &'static str = "colorfight";
    type Params = Params;
    type Action = Action;
    type View<'a> = crate::view::Open<'a, Self>;

    fn view(&self, seat: crate::seat::Seat) -> Self::View<'_> {
        crate::view::Open::new(self, seat)
    }

    /// Copied from a constant, straight into place (built field by field, the 12 KB of cells
    /// went through a temporary on the stack).
    fn blank() -> Self {
        BLANK
    }

    /// Field by field, in place (the cells are 12 KB: built in a local and moved, they were held
    /// twice or three times on a board's stack).
    fn init(&mut self, params: &Params, seed: u64) -> Result<(), SetupError> {
        let (w, h) = (params.width as usize, params.height as usize);
        if w < 2 || h < 2 {
            return Err(SetupError::Invalid("width and height must be at least 2"));
        }
        let cells = w.saturating_mul(h);
        if cells > MAX_CELLS {
            return Err(SetupError::Capacity("more than MAX_CELLS cells"));
        }
        if params.players < 2 || params.players as usize > MAX_PLAYERS {
            return Err(SetupError::Invalid("2 to 8 players"));
        }
        let mines = match params.variant {
            Variant::Conquest => cells.saturating_mul(2) / 100,
            Variant::Skirmish => 0,
        };
        if mines
            .saturating_mul(2)
            .saturating_add(params.players as usize)
            > cells
        {
            return Err(SetupError::Invalid("grid too small for mines and players"));
        }
        let game = self;
        game.params = *params;
        game.seed = seed;
        game.tick = 0;
        game.cells.fill(Cell::default());
        game.players.fill(Player::start(0));
        game.order_rng = Rng::stream(seed, b"colorfight/order");
        game.retreat_rng = Rng::stream(seed, b"colorfight/retreat");
        // The map stream places mines and starts, then goes on as the respawn stream.
        game.spawn_rng = Rng::stream(seed, b"colorfight/map");
        for kind in [Kind::Gold, Kind::Energy] {
            for _ in 0..mines {
                let Some(idx) = game.pick_map_cell() else {
                    return Err(SetupError::Invalid("no room for a mine"));
                };
                if let Some(c) = game.cells.get_mut(idx) {
                    c.kind = kind;
                }
            }
        }
        for seat in 0..params.players as usize {
            if !game.spawn(seat, Self::pick_start_cell) {
                return Err(SetupError::Invalid("no room for a player"));
            }
        }
        Ok(())
    }

    fn seats(&self) -> usize {
        self.players().len()
    }

    fn turn(&self) -> u32 {
        self.tick
    }

    fn to_move(&self) -> SeatSet {
        if self.is_over() {
            return SeatSet::EMPTY;
        }
        let mut set = SeatSet::EMPTY;
        for seat in 0..self.seats().min(MAX_SEATS) {
            if self.acts(seat) {
                set = set.with(seat);
            }
        }
        set
    }

    fn step(&mut self, actions: &[Action]) -> StepReport {
        self.step_explained(actions, &mut [None; MAX_PLAYERS])
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.tick < self.params.ticks {
            return None;
        }
        let n = self.seats();
        let mut out = Outcome {
            seats: n as u8,
            rank: [0; MAX_SEATS],
            score: [0; MAX_SEATS],
            reason: "time is up",
        };
        for (pos, &seat) in self.ranking().iter().enumerate().take(n) {
            let seat = seat as usize;
            if let Some(r) = out.rank.get_mut(seat) {
                *r = pos as u8;
            }
            if let Some(s) = out.score.get_mut(seat) {
                *s = match self.variant() {
                    Variant::Conquest => self.final_score(seat) as i64,
                    Variant::Skirmish => self.player(seat).map_or(0, |p| p.cells as i64),
                };
            }
        }
        Some(out)
    }

    fn decision(&self) -> Option<Decision> {
        let outcome = self.outcome()?;
        // What `ranking` compares, in its order.
        let keys = match self.variant() {
            Variant::Conquest => ["score", ""],
            Variant::Skirmish => ["cells", "held to turn"],
        };
        let mut why = Decision::of(&outcome, keys);
        why.survivors_first = true;
        why.tiebreak = "a seeded lot";
        for (seat, p) in self.players().iter().enumerate() {
            let defeated = p.defeated.then_some(p.defeated_at);
            let values = match self.variant() {
                Variant::Conquest => [self.final_score(seat).into(), 0],
                Variant::Skirmish => [p.cells.into(), defeated.unwrap_or(self.tick).into()],
            };
            why.set(seat, values, defeated);
        }
        Some(why)
    }

    fn hash_into(&self, d: &mut Digest) {
        d.u8(self.params.variant as u8)
            .u16(self.params.width)
            .u16(self.params.height)
            .u8(self.params.players)
            .u32(self.params.ticks)
            .u8(self.params.respawn as u8)
            .u64(self.seed)
            .u32(self.tick);
        for c in self.cells() {
            c.hash_into(d);
        }
        for p in self.players() {
            p.hash_into(d);
        }
        // The generators' state is private to `Rng`: one draw from a copy stands for it.
        for rng in [&self.order_rng, &self.retreat_rng, &self.spawn_rng] {
            let mut copy = rng.clone();
            d.u64(copy.next_u64());
        }
    }
}

impl Roster for ColorFight {
    type Bot = ColorFightBot;
    const BOTS: &'static [&'static str] = &["strategist", "expander", "random"];
    fn bot(name: &str, seed: u64) -> Option<ColorFightBot> {
        ColorFightBot::new(name, seed)
    }
}
