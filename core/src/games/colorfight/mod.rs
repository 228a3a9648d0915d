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
//! - A respawn needs a free cell (no owner, no mine, no attack in progress); with none, it waits for
//!   the next tick, until the 5-minute window closes. A respawn resets gold, energy and the build
//!   cool-down.
//! - Gold and energy are `I32F32`; the income of 0.05 per tick rounds up by 2^-33, so 20 ticks give
//!   at least 1 whole unit and a player never misses a 60-gold base by a rounding error.
//! - The game lasts [`Params::ticks`] ticks (12,000 by default) and never ends early.
//!
//! ## Capacities
//! At most [`MAX_CELLS`] cells (32 x 32) and [`MAX_PLAYERS`] players. The state is a fixed array
//! of 12-byte cells: 12,792 bytes on x86-64 whatever the grid size (a test checks it against the
//! 24 KB budget).

pub mod bots;
pub mod grid;
pub mod timing;

#[cfg(test)]
mod tests;

use crate::game::{Game, Roster, SetupError, StepReport};
use crate::outcome::Outcome;
use crate::rng::Rng;
use crate::seat::{Seat, SeatSet, MAX_SEATS};
use crate::Digest;

pub use bots::ColorFightBot;
pub use grid::{Building, Cell, Kind};
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
pub const BUILD_TICKS: u32 = 300;
/// At most 3 bases per player, unfinished ones included.
pub const MAX_BASES: u8 = 3;
/// Start gold, and the cap on gold and energy.
pub const START_GOLD: i32 = 30;
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
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Conquest => "conquest",
            Variant::Skirmish => "skirmish",
        }
    }
    pub fn from_name(name: &str) -> Option<Variant> {
        match name {
            "conquest" => Some(Variant::Conquest),
            "skirmish" => Some(Variant::Skirmish),
            _ => None,
        }
    }
}

/// Variant, grid size, players and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub variant: Variant,
    pub width: u16,
    pub height: u16,
    pub players: u8,
    pub ticks: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: Variant::Conquest,
            width: 30,
            height: 30,
            players: 4,
            ticks: DEFAULT_TICKS,
        }
    }
}

/// One seat's move for one tick: anything a bot could send. Coordinates are checked by the rules,
/// and `Malformed` (what a codec makes of unreadable input) is always refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    #[default]
    Pass,
    Attack {
        x: i32,
        y: i32,
    },
    Build {
        x: i32,
        y: i32,
    },
    Malformed,
}

/// Why an action was refused: one per rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Refusal {
    Malformed,
    Defeated,
    OutOfGrid,
    Busy,
    BeingTaken,
    NotAdjacent,
    NoBuildInSkirmish,
    NotOwn,
    HasBase,
    TooPoor,
    BaseLimit,
    CoolDown,
}

/// What an accepted action will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Pass,
    /// Attack (or defend) cell `cell`, completing after `ticks`.
    Attack {
        cell: usize,
        ticks: u32,
    },
    Build {
        cell: usize,
    },
}

/// One player: its purse, its counts (kept up to date, checked against the grid by the tests), its
/// attack in progress, its base under construction and its defeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    pub gold: Num,
    pub energy: Num,
    pub cells: u16,
    pub gold_mines: u16,
    pub energy_mines: u16,
    /// Finished bases.
    pub bases: u8,
    /// The cell it attacks (`u16::MAX` when idle) and the tick that attack completes (0 when idle).
    pub target: u16,
    pub busy_until: u32,
    /// Its unfinished base (`u16::MAX` when none), the tick it finishes, and the first tick it may
    /// start another.
    pub build_cell: u16,
    pub build_done: u32,
    pub next_build: u32,
    pub defeated: bool,
    pub defeated_at: u32,
    /// The best score of its finished attempts (Conquest respawns).
    pub best: u32,
}

impl Player {
    fn start(tick: u32) -> Player {
        Player {
            gold: Num::const_from_int(START_GOLD as i64),
            energy: Num::ZERO,
            cells: 0,
            gold_mines: 0,
            energy_mines: 0,
            bases: 0,
            target: NONE,
            busy_until: 0,
            build_cell: NONE,
            build_done: 0,
            next_build: tick,
            defeated: false,
            defeated_at: 0,
            best: 0,
        }
    }

    /// No attack of its own in progress.
    pub const fn is_idle(&self) -> bool {
        self.target == NONE
    }

    /// Its attack in progress, if any.
    pub const fn attacking(&self) -> Option<usize> {
        if self.target == NONE {
            None
        } else {
            Some(self.target as usize)
        }
    }

    /// Finished and unfinished bases: what the limit of 3 counts.
    pub const fn all_bases(&self) -> u8 {
        self.bases.saturating_add((self.build_cell != NONE) as u8)
    }

    /// 1 per cell, 10 per gold mine (a gold mine cell counts 10, not 11).
    pub const fn score(&self) -> u32 {
        self.cells as u32 + 9 * self.gold_mines as u32
    }

    fn hash_into(&self, d: &mut Digest) {
        d.i64(self.gold.to_bits())
            .i64(self.energy.to_bits())
            .u16(self.cells)
            .u16(self.gold_mines)
            .u16(self.energy_mines)
            .u8(self.bases)
            .u16(self.target)
            .u32(self.busy_until)
            .u16(self.build_cell)
            .u32(self.build_done)
            .u32(self.next_build)
            .bool(self.defeated)
            .u32(self.defeated_at)
            .u32(self.best);
    }
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
    pub const fn params(&self) -> &Params {
        &self.params
    }
    pub const fn variant(&self) -> Variant {
        self.params.variant
    }
    pub const fn width(&self) -> usize {
        self.params.width as usize
    }
    pub const fn height(&self) -> usize {
        self.params.height as usize
    }
    pub const fn tick(&self) -> u32 {
        self.tick
    }
    pub const fn seed(&self) -> u64 {
        self.seed
    }
    fn len(&self) -> usize {
        self.width() * self.height()
    }
    /// The cells of the grid, row-major (`y * width + x`).
    pub fn cells(&self) -> &[Cell] {
        self.cells.get(..self.len()).unwrap_or(&[])
    }
    pub fn cell(&self, idx: usize) -> Option<&Cell> {
        self.cells().get(idx)
    }
    pub fn players(&self) -> &[Player] {
        self.players
            .get(..self.params.players as usize)
            .unwrap_or(&[])
    }
    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players().get(seat)
    }

    /// The cell index of `(x, y)`, if it is on the grid.
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x as usize >= self.width() || y as usize >= self.height() {
            None
        } else {
            Some(y as usize * self.width() + x as usize)
        }
    }

    /// The coordinates of a cell index.
    pub fn coords(&self, idx: usize) -> (i32, i32) {
        let w = self.width().max(1);
        ((idx % w) as i32, (idx / w) as i32)
    }

    /// The 4 neighbours of a cell (up, right, down, left), `None` off the grid.
    pub fn neighbours(&self, idx: usize) -> [Option<usize>; 4] {
        let (x, y) = self.coords(idx);
        [
            self.index(x, y - 1),
            self.index(x + 1, y),
            self.index(x, y + 1),
            self.index(x - 1, y),
        ]
    }

    /// How many of `seat`'s cells touch cell `idx`.
    pub fn own_neighbours(&self, seat: Seat, idx: usize) -> u8 {
        let me = seat as u8 + 1;
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
        };
        if p.defeated {
            return Err(Refusal::Defeated);
        }
        if !attack && self.variant() == Variant::Skirmish {
            return Err(Refusal::NoBuildInSkirmish);
        }
        let idx = self.index(x, y).ok_or(Refusal::OutOfGrid)?;
        let cell = self.cell(idx).ok_or(Refusal::OutOfGrid)?;
        let me = seat as u8 + 1;
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
            if cell.owner != me {
                return Err(Refusal::NotOwn);
            }
            if cell.attacker != 0 {
                return Err(Refusal::BeingTaken);
            }
            if cell.building != Building::None {
                return Err(Refusal::HasBase);
            }
            if p.gold < Num::const_from_int(BASE_COST as i64) {
                return Err(Refusal::TooPoor);
            }
            if p.all_bases() >= MAX_BASES {
                return Err(Refusal::BaseLimit);
            }
            if self.tick < p.next_build {
                return Err(Refusal::CoolDown);
            }
            Ok(Plan::Build { cell: idx })
        }
    }

    /// Whether `seat` will act at this step: alive, or about to respawn.
    fn acts(&self, seat: Seat) -> bool {
        self.player(seat)
            .is_some_and(|p| !p.defeated || self.may_respawn(p))
    }

    fn may_respawn(&self, p: &Player) -> bool {
        p.defeated
            && self.variant() == Variant::Conquest
            && self.tick < RESPAWN_TICKS
            && p.defeated_at < self.tick
    }

    /// The `k`-th cell (in index order) that has no owner, no mine and no attack in progress.
    fn free_cell(&self, mut k: usize) -> Option<usize> {
        for (i, c) in self.cells().iter().enumerate() {
            if c.owner == 0 && c.kind == Kind::Normal && c.attacker == 0 {
                if k == 0 {
                    return Some(i);
                }
                k -= 1;
            }
        }
        None
    }

    fn free_cells(&self) -> usize {
        self.cells()
            .iter()
            .filter(|c| c.owner == 0 && c.kind == Kind::Normal && c.attacker == 0)
            .count()
    }

    /// A new start for `seat` on a random free cell: the cell (with a base in Conquest), 30 gold,
    /// 0 energy. Returns false when there is no free cell.
    fn spawn(&mut self, seat: Seat, pick: fn(&mut Self) -> Option<usize>) -> bool {
        let Some(idx) = pick(self) else {
            return false;
        };
        let tick = self.tick;
        let conquest = self.variant() == Variant::Conquest;
        let best = self.player(seat).map_or(0, |p| p.best);
        let Some(p) = self.players.get_mut(seat) else {
            return false;
        };
        *p = Player::start(tick);
        p.best = best;
        p.cells = 1;
        if conquest {
            p.bases = 1;
        }
        if let Some(c) = self.cells.get_mut(idx) {
            c.owner = seat as u8 + 1;
            c.taken_at = tick;
            c.building = if conquest {
                Building::Base
            } else {
                Building::None
            };
        }
        true
    }

    fn pick_map_cell(&mut self) -> Option<usize> {
        // Only used at setup, where the map stream is the spawn stream's twin: see `new`.
        let n = self.free_cells();
        let k = self.spawn_rng.index(n)?;
        self.free_cell(k)
    }

    /// Step 5, first half: defeated players respawn (Conquest, first 5 minutes, the tick after).
    fn respawn_all(&mut self) {
        for seat in 0..self.players().len() {
            let due = self.player(seat).is_some_and(|p| self.may_respawn(p));
            if due {
                self.spawn(seat, Self::pick_map_cell);
            }
        }
    }

    /// Step 5, second half: each seat's action, in a seeded order.
    fn act_all(&mut self, actions: &[Action], report: &mut StepReport) {
        let n = self.players().len();
        let mut order = [0u8; MAX_PLAYERS];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        let order = order.get_mut(..n).unwrap_or(&mut []);
        self.order_rng.shuffle(order);
        for &seat in order.iter() {
            let seat = seat as usize;
            let action = actions.get(seat).copied().unwrap_or_default();
            if self.player(seat).is_none_or(|p| p.defeated) {
                continue;
            }
            match self.plan(seat, &action) {
                Ok(plan) => self.apply(seat, plan),
                Err(_) => report.refuse(seat),
            }
        }
    }

    fn apply(&mut self, seat: Seat, plan: Plan) {
        let tick = self.tick;
        let conquest = self.variant() == Variant::Conquest;
        match plan {
            Plan::Pass => {}
            Plan::Attack { cell, ticks } => {
                let done = tick.saturating_add(ticks);
                if let Some(c) = self.cells.get_mut(cell) {
                    c.attacker = seat as u8 + 1;
                    c.done_at = done;
                }
                if let Some(p) = self.players.get_mut(seat) {
                    p.target = cell as u16;
                    p.busy_until = done;
                    if conquest {
                        p.energy = p.energy.saturating_mul(ENERGY_KEEP);
                    }
                }
            }
            Plan::Build { cell } => {
                if let Some(c) = self.cells.get_mut(cell) {
                    c.building = Building::Building;
                }
                if let Some(p) = self.players.get_mut(seat) {
                    p.gold = p.gold.saturating_sub(Num::const_from_int(BASE_COST as i64));
                    p.build_cell = cell as u16;
                    p.build_done = tick.saturating_add(BUILD_TICKS);
                    p.next_build = tick.saturating_add(BUILD_TICKS);
                }
            }
        }
    }

    fn count(&mut self, seat: Seat, kind: Kind, add: bool) {
        let Some(p) = self.players.get_mut(seat) else {
            return;
        };
        let f = |v: u16| {
            if add {
                v.saturating_add(1)
            } else {
                v.saturating_sub(1)
            }
        };
        p.cells = f(p.cells);
        match kind {
            Kind::Normal => {}
            Kind::Gold => p.gold_mines = f(p.gold_mines),
            Kind::Energy => p.energy_mines = f(p.energy_mines),
        }
    }

    /// Rule 1: attacks due this tick complete in cell order; then bases retreat, in the same order.
    fn complete_attacks(&mut self) {
        let tick = self.tick;
        let mut due: heapless::Vec<(u16, u8), MAX_PLAYERS> = heapless::Vec::new();
        for (seat, p) in self.players().iter().enumerate() {
            if p.target != NONE && p.busy_until <= tick {
                // At most one per player: cannot overflow.
                let _ = due.push((p.target, seat as u8));
            }
        }
        due.sort_unstable();
        let mut retreats: heapless::Vec<(u16, u8), MAX_PLAYERS> = heapless::Vec::new();
        for &(idx, seat) in due.iter() {
            let i = idx as usize;
            let Some(&cell) = self.cell(i) else { continue };
            let me = seat + 1;
            if cell.owner != me {
                if let Some(prev) = cell.owner_seat() {
                    self.count(prev, cell.kind, false);
                    match cell.building {
                        Building::Base => {
                            if let Some(p) = self.players.get_mut(prev) {
                                p.bases = p.bases.saturating_sub(1);
                            }
                            let _ = retreats.push((idx, prev as u8));
                        }
                        Building::Building => {
                            if let Some(p) = self.players.get_mut(prev) {
                                p.build_cell = NONE;
                                p.build_done = 0;
                            }
                        }
                        Building::None => {}
                    }
                }
                self.count(seat as usize, cell.kind, true);
            }
            if let Some(c) = self.cells.get_mut(i) {
                if c.owner != me {
                    c.building = Building::None;
                }
                c.owner = me;
                c.taken_at = tick;
                c.attacker = 0;
                c.done_at = 0;
            }
            if let Some(p) = self.players.get_mut(seat as usize) {
                p.target = NONE;
                p.busy_until = 0;
            }
        }
        for &(idx, prev) in retreats.iter() {
            self.retreat(idx as usize, prev as usize);
        }
    }

    /// A base lost on `idx` moves to a neighbour `prev` owns that holds no base, tried in a seeded
    /// random order; with none, it is destroyed.
    fn retreat(&mut self, idx: usize, prev: Seat) {
        let mut dirs = self.neighbours(idx);
        self.retreat_rng.shuffle(&mut dirs);
        let owner = prev as u8 + 1;
        for n in dirs.into_iter().flatten() {
            if let Some(c) = self.cells.get_mut(n) {
                if c.owner == owner && c.building == Building::None {
                    c.building = Building::Base;
                    if let Some(p) = self.players.get_mut(prev) {
                        p.bases = p.bases.saturating_add(1);
                    }
                    return;
                }
            }
        }
    }

    /// Rule 2: bases whose 30 s have passed are finished.
    fn finish_builds(&mut self) {
        let tick = self.tick;
        for seat in 0..self.players().len() {
            let Some(p) = self.players.get(seat).copied() else {
                continue;
            };
            if p.build_cell == NONE || p.build_done > tick {
                continue;
            }
            let idx = p.build_cell as usize;
            let mine = self
                .cell(idx)
                .is_some_and(|c| c.owner_seat() == Some(seat) && c.building == Building::Building);
            if let Some(c) = self.cells.get_mut(idx) {
                if mine {
                    c.building = Building::Base;
                }
            }
            if let Some(p) = self.players.get_mut(seat) {
                if mine {
                    p.bases = p.bases.saturating_add(1);
                }
                p.build_cell = NONE;
                p.build_done = 0;
            }
        }
    }

    /// Rule 3: players with no cell, or (Conquest) no finished base, are defeated.
    fn defeat_all(&mut self) {
        let conquest = self.variant() == Variant::Conquest;
        for seat in 0..self.players().len() {
            let out = self
                .player(seat)
                .is_some_and(|p| !p.defeated && (p.cells == 0 || (conquest && p.bases == 0)));
            if out {
                self.defeat(seat);
            }
        }
    }

    /// Defeat: the attempt's score is kept, every cell becomes empty, the attack is cancelled.
    fn defeat(&mut self, seat: Seat) {
        let tick = self.tick;
        let me = seat as u8 + 1;
        let Some(p) = self.players.get(seat).copied() else {
            return;
        };
        if let Some(t) = p.attacking() {
            if let Some(c) = self.cells.get_mut(t) {
                c.attacker = 0;
                c.done_at = 0;
            }
        }
        let len = self.len();
        for c in self.cells.iter_mut().take(len) {
            if c.owner == me {
                c.owner = 0;
                c.building = Building::None;
            }
        }
        if let Some(q) = self.players.get_mut(seat) {
            q.best = q.best.max(p.score());
            q.cells = 0;
            q.gold_mines = 0;
            q.energy_mines = 0;
            q.bases = 0;
            q.target = NONE;
            q.busy_until = 0;
            q.build_cell = NONE;
            q.build_done = 0;
            q.defeated = true;
            q.defeated_at = tick;
        }
    }

    /// Rule 4: each mine gives its owner 0.05 gold or energy per tick, capped at 100.
    fn income(&mut self) {
        let cap = Num::const_from_int(CAP as i64);
        let n = self.players().len();
        for p in self.players.iter_mut().take(n) {
            if p.defeated {
                continue;
            }
            p.gold = p
                .gold
                .saturating_add(INCOME.saturating_mul_int(p.gold_mines as i64))
                .min(cap);
            p.energy = p
                .energy
                .saturating_add(INCOME.saturating_mul_int(p.energy_mines as i64))
                .min(cap);
        }
    }

    /// The final ranking: an order of seats, best first.
    pub fn ranking(&self) -> [u8; MAX_PLAYERS] {
        let n = self.players().len();
        // Ties are broken by a seeded draw (the original used rock-paper-scissors).
        let mut draw = [0u8; MAX_PLAYERS];
        for (i, d) in draw.iter_mut().enumerate() {
            *d = i as u8;
        }
        let mut tiebreak = Rng::stream(self.seed, b"colorfight/tiebreak");
        tiebreak.shuffle(draw.get_mut(..n).unwrap_or(&mut []));
        let mut lot = [0u8; MAX_PLAYERS];
        for (pos, &seat) in draw.iter().enumerate().take(n) {
            if let Some(l) = lot.get_mut(seat as usize) {
                *l = pos as u8;
            }
        }
        let key = |seat: usize| -> (bool, u32, u32, u8) {
            let p = self.player(seat);
            let alive = p.is_some_and(|p| !p.defeated);
            let lot = lot.get(seat).copied().unwrap_or(0);
            match self.variant() {
                Variant::Conquest => (alive, self.final_score(seat), 0, u8::MAX - lot),
                Variant::Skirmish => {
                    let cells = p.map_or(0, |p| p.cells as u32);
                    let when = p.map_or(0, |p| if p.defeated { p.defeated_at } else { 0 });
                    (alive, cells, when, u8::MAX - lot)
                }
            }
        };
        let mut order = [0u8; MAX_PLAYERS];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        if let Some(seats) = order.get_mut(..n) {
            seats.sort_unstable_by_key(|&s| core::cmp::Reverse(key(s as usize)));
        }
        order
    }
}

impl Game for ColorFight {
    const NAME: &'static str = "colorfight";
    type Params = Params;
    type Action = Action;

    fn new(params: &Params, seed: u64) -> Result<Self, SetupError> {
        let (w, h) = (params.width as usize, params.height as usize);
        if w < 2 || h < 2 {
            return Err(SetupError::Invalid("width and height must be at least 2"));
        }
        if w * h > MAX_CELLS {
            return Err(SetupError::Capacity("more than MAX_CELLS cells"));
        }
        if params.players < 2 || params.players as usize > MAX_PLAYERS {
            return Err(SetupError::Invalid("2 to 8 players"));
        }
        let mines = match params.variant {
            Variant::Conquest => w * h * 2 / 100,
            Variant::Skirmish => 0,
        };
        if 2 * mines + params.players as usize > w * h {
            return Err(SetupError::Invalid("grid too small for mines and players"));
        }
        let mut game = ColorFight {
            params: *params,
            seed,
            tick: 0,
            cells: [Cell::default(); MAX_CELLS],
            players: [Player::start(0); MAX_PLAYERS],
            order_rng: Rng::stream(seed, b"colorfight/order"),
            retreat_rng: Rng::stream(seed, b"colorfight/retreat"),
            // The map stream places mines and starts, then goes on as the respawn stream.
            spawn_rng: Rng::stream(seed, b"colorfight/map"),
        };
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
            if !game.spawn(seat, Self::pick_map_cell) {
                return Err(SetupError::Invalid("no room for a player"));
            }
        }
        Ok(game)
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
        let mut report = StepReport::default();
        if self.is_over() {
            return report;
        }
        self.respawn_all();
        self.act_all(actions, &mut report);
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

    fn hash_into(&self, d: &mut Digest) {
        d.u8(self.params.variant as u8)
            .u16(self.params.width)
            .u16(self.params.height)
            .u8(self.params.players)
            .u32(self.params.ticks)
            .u64(self.seed)
            .u32(self.tick);
        for c in self.cells() {
            c.hash_into(d);
        }
        for p in self.players() {
            p.hash_into(d);
        }
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
