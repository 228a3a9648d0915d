//! The rules that move a game on by one tick, in the order of the rules file: completions (1),
//! builds (2), defeats (3), income (4), then respawns and actions (5). Every count a player keeps
//! (cells, mines, bases) is updated here, where the grid changes, and nowhere else.

use super::grid::seat_tag;
use super::timing::Num;
use super::{
    Action, Building, Cell, ColorFight, Kind, Plan, Player, Refusal, Respawn, Variant, BASE_COST,
    BUILD_TICKS, CAP, ENERGY_KEEP, INCOME, MAX_PLAYERS, NONE, RESPAWN_TICKS,
};
use crate::game::StepReport;
use crate::seat::{Seat, SeatSet};

/// Where a mine may go: a normal cell nobody owns or attacks.
fn mine_site(c: &Cell) -> bool {
    c.owner == 0 && c.kind == Kind::Normal && c.attacker == 0
}

/// Where a start may go: a cell nobody owns or attacks, mines included (as the server drew it).
fn start_site(c: &Cell) -> bool {
    c.owner == 0 && c.attacker == 0
}

/// Where a start goes when no cell is free: any cell nobody attacks.
fn any_site(c: &Cell) -> bool {
    c.attacker == 0
}

impl ColorFight {
    /// Whether `seat` will act at this step: alive, or about to respawn.
    pub(super) fn acts(&self, seat: Seat) -> bool {
        self.player(seat)
            .is_some_and(|p| !p.defeated || self.may_respawn(p))
    }

    pub(super) fn may_respawn(&self, p: &Player) -> bool {
        p.defeated
            && self.variant() == Variant::Conquest
            && self.tick < RESPAWN_TICKS
            && p.defeated_at < self.tick
    }

    /// A cell drawn at random (from the map stream) among those `site` accepts.
    fn draw_cell(&mut self, site: fn(&Cell) -> bool) -> Option<usize> {
        let n = self.cells().iter().filter(|c| site(c)).count();
        let k = self.spawn_rng.index(n)?;
        self.cells()
            .iter()
            .enumerate()
            .filter(|(_, c)| site(c))
            .nth(k)
            .map(|(i, _)| i)
    }

    /// A new start for `seat` on a cell drawn by `pick`: the cell (with a base in Conquest), 30
    /// gold, 0 energy. A cell drawn from another player is lost to it, base and all. Returns false
    /// when there is no cell to start on.
    pub(super) fn spawn(&mut self, seat: Seat, pick: fn(&mut Self) -> Option<usize>) -> bool {
        let Some(idx) = pick(self) else {
            return false;
        };
        if let Some(c) = self.cell(idx).copied() {
            if let Some(prev) = c.owner_seat().filter(|&prev| prev != seat) {
                self.count(prev, c.kind, false);
                if let Some(p) = self.players.get_mut(prev) {
                    match c.building {
                        Building::Base => p.bases = p.bases.saturating_sub(1),
                        Building::Building => {
                            p.build_cell = NONE;
                            p.build_done = 0;
                        }
                        Building::None => {}
                    }
                }
            }
        }
        let tick = self.tick;
        let conquest = self.variant() == Variant::Conquest;
        let best = self.player(seat).map_or(0, |p| p.best);
        let Some(p) = self.players.get_mut(seat) else {
            return false;
        };
        *p = Player::start(tick);
        p.best = best;
        if conquest {
            p.bases = 1;
        }
        let kind = self.cell(idx).map_or(Kind::Normal, |c| c.kind);
        self.count(seat, kind, true);
        if let Some(c) = self.cells.get_mut(idx) {
            c.owner = seat_tag(seat);
            c.taken_at = tick;
            c.building = if conquest {
                Building::Base
            } else {
                Building::None
            };
        }
        true
    }

    /// A mine's cell (setup, before any start).
    pub(super) fn pick_map_cell(&mut self) -> Option<usize> {
        self.draw_cell(mine_site)
    }

    /// A start's cell: a free one, else any cell nobody attacks.
    pub(super) fn pick_start_cell(&mut self) -> Option<usize> {
        match self.draw_cell(start_site) {
            Some(i) => Some(i),
            None => self.draw_cell(any_site),
        }
    }

    /// Step 5, first half: defeated players respawn (Conquest, first 5 minutes, the tick after;
    /// in the server-compatible mode only with a `Join`). Returns the seats whose `Join` it was.
    pub(super) fn respawn_all(&mut self, actions: &[Action]) -> SeatSet {
        let mut joined = SeatSet::EMPTY;
        for seat in 0..self.players().len() {
            let join = actions.get(seat) == Some(&Action::Join);
            let due = self.player(seat).is_some_and(|p| self.may_respawn(p))
                && (self.params.respawn == Respawn::Auto || join);
            if due && self.spawn(seat, Self::pick_start_cell) && join {
                joined = joined.with(seat);
            }
        }
        joined
    }

    /// Step 5, second half: each seat's action, in a seeded order (a `Join` that brought its seat
    /// back was its action). `why` gets the reason of each refusal.
    pub(super) fn act_all(
        &mut self,
        actions: &[Action],
        joined: SeatSet,
        report: &mut StepReport,
        why: &mut [Option<Refusal>; MAX_PLAYERS],
    ) {
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
            if self.player(seat).is_none_or(|p| p.defeated) || joined.contains(seat) {
                continue;
            }
            match self.plan(seat, &action) {
                Ok(plan) => self.apply(seat, plan),
                Err(r) => {
                    report.refuse(seat);
                    if let Some(w) = why.get_mut(seat) {
                        *w = Some(r);
                    }
                }
            }
        }
    }

    pub(super) fn apply(&mut self, seat: Seat, plan: Plan) {
        let tick = self.tick;
        let conquest = self.variant() == Variant::Conquest;
        match plan {
            Plan::Pass => {}
            Plan::Attack { cell, ticks } => {
                let done = tick.saturating_add(ticks);
                if let Some(c) = self.cells.get_mut(cell) {
                    c.attacker = seat_tag(seat);
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

    pub(super) fn count(&mut self, seat: Seat, kind: Kind, add: bool) {
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
    pub(super) fn complete_attacks(&mut self) {
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
            let me = seat.saturating_add(1);
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
    pub(super) fn retreat(&mut self, idx: usize, prev: Seat) {
        let mut dirs = self.neighbours(idx);
        self.retreat_rng.shuffle(&mut dirs);
        let owner = seat_tag(prev);
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
    pub(super) fn finish_builds(&mut self) {
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
    pub(super) fn defeat_all(&mut self) {
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
    pub(super) fn defeat(&mut self, seat: Seat) {
        let tick = self.tick;
        let me = seat_tag(seat);
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
    pub(super) fn income(&mut self) {
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
}
