//! Setting a game up and playing a turn, in the official engine's order.

// Parallel arrays (ants and their per-turn marks) are walked by index.
#![allow(clippy::needless_range_loop)]

use super::map::{FOOD, LAND, MAX_PLAYERS, WATER};
use super::orders::{Dir, Order, OrderError};
use super::pyrandom::PyRandom;
use super::state::{
    wrap, Ant, AntsGame, Attack, Cutoff, DeadAnt, Draw, FoodGone, Hill, Params, CUTOFF_FOOD,
    CUTOFF_LAND, HILL_POINTS, NONE16, NONE8, RAZE_POINTS,
};
use crate::game::{SetupError, StepReport};
use crate::seat::SeatSet;

/// Largest radius2 accepted for attack and spawn (the official code caches square roots to 100).
pub const MAX_RADIUS2: u16 = 100;

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

fn isqrt(n: u16) -> i32 {
    let mut r = 0i32;
    while (r + 1) * (r + 1) <= n as i32 {
        r += 1;
    }
    r
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsGame<SQ, A, F, H, O>
{
    /// An empty game (no map); [`AntsGame::init`] sets one up in place. Large builds should be
    /// boxed once and re-initialised, rather than moved around.
    pub const fn blank() -> Self {
        AntsGame {
            rows: 0,
            cols: 0,
            players: 0,
            turns: 0,
            loadtime: 0,
            turntime: 0,
            view2: 0,
            attack2: 0,
            spawn2: 0,
            attack: Attack::Focus,
            player_seed: 0,
            cutoff_turn: 0,
            cutoff_percent: (17, 20),
            food_rate: 0,
            food_turn: 0,
            food_start: 0,
            food_visible: 0,
            land_area: 0,
            map: [WATER; SQ],
            ant_at: [NONE16; SQ],
            hill_at: [NONE8; SQ],
            pending: [0; SQ],
            pending_order: heapless::Vec::new(),
            ring: [NONE16; SQ],
            ring_head: 0,
            ring_len: 0,
            scratch: [0; SQ],
            sym: [(0, 0); MAX_PLAYERS],
            ants: heapless::Vec::new(),
            killed: heapless::Vec::new(),
            food: heapless::Vec::new(),
            food_gone: heapless::Vec::new(),
            hills: heapless::Vec::new(),
            next_ant: 0,
            next_food: 0,
            ant_count: [0; MAX_PLAYERS],
            rng: PyRandom::blank(),
            turn: 0,
            food_extra: 0,
            score: [0; MAX_PLAYERS],
            bonus: [0; MAX_PLAYERS],
            hive: [0; MAX_PLAYERS],
            dead: [false; MAX_PLAYERS],
            cutoff_bot: CUTOFF_LAND,
            cutoff_turns: 0,
            hill_kill: false,
            ranking: None,
            ranking_turn: 0,
            winning: None,
            winning_turn: 0,
            cutoff: None,
            over: false,
            capacity_waits: 0,
        }
    }

    /// `Ants.__init__` then `start_game()` then the engine's turn-0 shuffle of the bot list.
    pub fn setup(params: &Params<SQ, H>, engine_seed: u64) -> Result<Self, SetupError> {
        let mut g = Self::blank();
        g.init(params, engine_seed)?;
        Ok(g)
    }

    /// Sets the game up in place (see [`AntsGame::setup`]).
    pub fn init(&mut self, params: &Params<SQ, H>, engine_seed: u64) -> Result<(), SetupError> {
        let m = &params.map;
        if params.attackradius2 > MAX_RADIUS2 || params.spawnradius2 > MAX_RADIUS2 {
            return Err(SetupError::Invalid(
                "attack and spawn radius2 must be at most 100",
            ));
        }
        if params.cutoff_percent.1 == 0 {
            return Err(SetupError::Invalid("cutoff_percent denominator is 0"));
        }
        if m.hills.len() > A {
            return Err(SetupError::Capacity(
                "more hills than this build holds ants",
            ));
        }
        let squares = m.squares();
        if squares > SQ || squares == 0 || squares > NONE16 as usize {
            return Err(SetupError::Capacity("map larger than this build holds"));
        }
        let mut rng = PyRandom::new(engine_seed);
        let mut draw = |d: Draw| -> Result<u16, SetupError> {
            match d {
                Draw::Fixed(v) => Ok(v),
                Draw::Range(lo, hi) if lo <= hi => {
                    Ok(rng.randrange(lo as i64, hi as i64 + 1) as u16)
                }
                Draw::Range(..) => Err(SetupError::Invalid("empty food parameter range")),
            }
        };
        let food_rate = draw(params.food_rate)?;
        let food_turn = draw(params.food_turn)?;
        let food_start = draw(params.food_start)?;
        let food_visible = draw(params.food_visible)?;
        if food_turn == 0 {
            return Err(SetupError::Invalid("food_turn must be positive"));
        }
        let water = m.terrain[..squares].iter().filter(|&&t| t == WATER).count() as u32;
        let g = self;
        g.rows = m.rows;
        g.cols = m.cols;
        g.players = m.players;
        g.turns = params.turns;
        g.loadtime = params.loadtime;
        g.turntime = params.turntime;
        g.view2 = params.viewradius2;
        g.attack2 = params.attackradius2;
        g.spawn2 = params.spawnradius2;
        g.attack = params.attack;
        g.player_seed = params.player_seed;
        g.cutoff_turn = params.cutoff_turn;
        g.cutoff_percent = params.cutoff_percent;
        g.food_rate = food_rate;
        g.food_turn = food_turn;
        g.food_start = food_start;
        g.food_visible = food_visible;
        g.land_area = squares as u32 - water;
        g.map.copy_from_slice(&m.terrain);
        g.ant_at.fill(NONE16);
        g.hill_at.fill(NONE8);
        g.pending.fill(0);
        g.pending_order.clear();
        g.ring.fill(NONE16);
        g.ring_head = 0;
        g.ring_len = 0;
        g.scratch.fill(0);
        g.sym = [(0, 0); MAX_PLAYERS];
        g.ants.clear();
        g.killed.clear();
        g.food.clear();
        g.food_gone.clear();
        g.hills.clear();
        g.next_ant = 0;
        g.next_food = 0;
        g.ant_count = [0; MAX_PLAYERS];
        g.rng = rng;
        g.turn = 0;
        g.food_extra = 0;
        g.score = [0; MAX_PLAYERS];
        g.bonus = [0; MAX_PLAYERS];
        g.hive = [0; MAX_PLAYERS];
        g.dead = [false; MAX_PLAYERS];
        g.cutoff_bot = CUTOFF_LAND;
        g.cutoff_turns = 0;
        g.hill_kill = false;
        g.ranking = None;
        g.ranking_turn = 0;
        g.winning = None;
        g.winning_turn = 0;
        g.cutoff = None;
        g.over = false;
        g.capacity_waits = 0;
        for s in g.map[squares..].iter_mut() {
            *s = WATER;
        }
        for (i, &(sq, owner)) in m.hills.iter().enumerate() {
            let hill = Hill {
                sq,
                owner,
                last_touched: 0,
                end_turn: None,
                killed_by: None,
                raze_points: false,
            };
            if g.hills.push(hill).is_err() {
                return Err(SetupError::Capacity("too many hills"));
            }
            if let Some(h) = g.hill_at.get_mut(sq as usize) {
                *h = i as u8;
            }
            g.add_ant(i);
        }
        let hills0 = g.hills.iter().filter(|h| h.owner == 0).count() as i32;
        for s in g.score.iter_mut().take(g.players as usize) {
            *s = hills0;
        }
        // start_game: visible food first, then the rest (the symmetry is drawn on first use).
        g.choose_symmetry()?;
        if food_visible > 0 {
            g.build_food_sets(true);
            g.run_food_deque(food_visible as i64 * g.players as i64);
        }
        let starting = if food_start > 0 {
            (g.land_area / food_start as u32) as i64 - food_visible as i64 * g.players as i64
        } else {
            0
        };
        g.build_food_sets(false);
        g.run_food_deque(starting);
        // The engine shuffles the alive bots on turn 0 too.
        g.shuffle_bots();
        if g.game_over() || g.turns == 0 {
            g.finish_game();
        }
        Ok(())
    }

    fn shuffle_bots(&mut self) {
        let alive = (0..self.players as usize)
            .filter(|&p| self.is_alive(p))
            .count();
        self.rng.shuffle_with(alive, |_, _| {});
    }

    /// `add_ant(hill)`; false when the ant list is full (the spawn waits).
    fn add_ant(&mut self, hill: usize) -> bool {
        let Some(&Hill { sq, owner, .. }) = self.hills.get(hill) else {
            return false;
        };
        let ant = Ant {
            id: self.next_ant,
            sq,
            owner,
            spawn_turn: self.turn,
            order: 0,
        };
        let index = self.ants.len();
        if self.ants.push(ant).is_err() {
            self.capacity_waits = self.capacity_waits.saturating_add(1);
            return false;
        }
        self.next_ant = self.next_ant.saturating_add(1);
        self.set_cell(sq as usize, owner);
        if let Some(a) = self.ant_at.get_mut(sq as usize) {
            *a = index as u16;
        }
        if let Some(c) = self.ant_count.get_mut(owner as usize) {
            *c += 1;
        }
        if let Some(h) = self.hills.get_mut(hill) {
            h.last_touched = self.turn;
        }
        true
    }

    /// Bots the engine kills on turn 0 (failed to start, load timeout): killed after the turn-0
    /// shuffle, then the engine's turn-0 `game_over()` check.
    pub fn kill_at_start(&mut self, kills: SeatSet) {
        if self.turn != 0 || self.over {
            return;
        }
        for p in kills.iter() {
            self.kill_player(p);
        }
        if self.game_over() {
            self.finish_game();
        }
    }

    /// `kill_player`: the engine removes a bot (crash, timeout); its hills cost it a point each.
    pub fn kill_player(&mut self, player: usize) {
        if let Some(d) = self.dead.get_mut(player) {
            *d = true;
        } else {
            return;
        }
        for h in self.hills.iter_mut() {
            if h.owner as usize == player && !h.raze_points {
                h.raze_points = true;
                self.score[player] += RAZE_POINTS;
            }
        }
    }

    /// One turn: the engine's loop body for `turn > 0`. `orders[p]` are player `p`'s orders in the
    /// order sent; `kills` are the bots the engine kills this turn (timeouts, crashes), after the
    /// shuffle and before orders, as the official engine does. Refused orders are counted, and
    /// `on_refused(player, index, why)` is told about each (official reasons).
    pub fn play_turn(
        &mut self,
        orders: &[&[Order]],
        kills: SeatSet,
        mut on_refused: impl FnMut(usize, usize, OrderError),
    ) -> StepReport {
        let mut report = StepReport::default();
        if self.over {
            return report;
        }
        // start_turn
        self.turn = self.turn.saturating_add(1);
        self.killed.clear();
        self.food_gone.clear();
        self.hill_kill = false;
        for ant in self.ants.iter_mut() {
            ant.order = b'-';
        }
        self.shuffle_bots();
        for p in kills.iter() {
            if p < self.players as usize {
                self.kill_player(p);
            }
        }
        if !self.game_over() {
            for p in 0..self.players as usize {
                if !self.is_alive(p) {
                    continue;
                }
                let Some(list) = orders.get(p) else { continue };
                for (i, order) in list.iter().enumerate() {
                    match self.check_order(p, order) {
                        Ok(index) => {
                            if let Some(ant) = self.ants.get_mut(index) {
                                ant.order = order.dir.letter();
                            }
                        }
                        Err(why) => {
                            report.refuse(p);
                            on_refused(p, i, why);
                        }
                    }
                }
            }
        }
        self.finish_turn();
        if self.game_over() || self.turn >= self.turns {
            self.finish_game();
        }
        report
    }

    fn kill_ant(&mut self, index: usize) {
        let Some(ant) = self.ants.get(index).copied() else {
            return;
        };
        let sq = ant.sq as usize;
        self.set_cell(sq, LAND);
        if let Some(h) = self.hill_on(sq) {
            if h.owner as i8 != self.cutoff_bot && h.killed_by.is_none() {
                self.hill_kill = true;
            }
        }
        let _ = self.killed.push(DeadAnt {
            id: ant.id,
            sq: ant.sq,
            owner: ant.owner,
            order: ant.order,
        });
        if let Some(c) = self.ant_count.get_mut(ant.owner as usize) {
            *c = c.saturating_sub(1);
        }
    }

    /// Removes the ants marked in `doomed` (by index), keeping `ant_at` right.
    fn remove_ants(&mut self, doomed: &[bool]) {
        let mut keep = 0usize;
        for i in 0..self.ants.len() {
            if doomed.get(i).copied().unwrap_or(false) {
                let sq = self.ants[i].sq as usize;
                if let Some(a) = self.ant_at.get_mut(sq) {
                    if *a as usize == i {
                        *a = NONE16;
                    }
                }
                continue;
            }
            let ant = self.ants[i];
            self.ants[keep] = ant;
            if let Some(a) = self.ant_at.get_mut(ant.sq as usize) {
                *a = keep as u16;
            }
            keep += 1;
        }
        self.ants.truncate(keep);
    }

    fn finish_turn(&mut self) {
        self.do_orders();
        self.do_attack();
        self.do_raze_hills();
        self.do_spawn();
        self.do_gather();
        let n = self.players as i64;
        self.food_extra += self.food_rate as i64 * n;
        let food_now = self.food_extra / self.food_turn.max(1) as i64;
        let left_over = self.run_food_deque(food_now);
        self.food_extra -= (food_now - left_over) * self.food_turn.max(1) as i64;
        self.update_cutoff();
        self.calc_significant_turns();
    }

    /// `do_orders`: everyone moves at once; squares ending with 2+ ants kill them all.
    fn do_orders(&mut self) {
        for i in 0..self.ants.len() {
            let sq = self.ants[i].sq as usize;
            self.set_cell(sq, LAND);
            if let Some(a) = self.ant_at.get_mut(sq) {
                *a = NONE16;
            }
        }
        let mut doomed = [false; A];
        for i in 0..self.ants.len() {
            let ant = self.ants[i];
            let dest = match Dir::from_letter(ant.order) {
                Some(d) => {
                    let (dr, dc) = d.offset();
                    self.offset(ant.sq as usize, dr, dc)
                }
                None => ant.sq as usize,
            };
            self.ants[i].sq = dest as u16;
            let here = self.ant_at.get(dest).copied().unwrap_or(NONE16);
            if here == NONE16 {
                if let Some(a) = self.ant_at.get_mut(dest) {
                    *a = i as u16;
                }
            } else {
                doomed[i] = true;
                if let Some(d) = doomed.get_mut(here as usize) {
                    *d = true;
                }
            }
        }
        for i in 0..self.ants.len() {
            if doomed[i] {
                self.kill_ant(i);
            }
        }
        self.remove_ants(&doomed);
        for i in 0..self.ants.len() {
            let ant = self.ants[i];
            self.set_cell(ant.sq as usize, ant.owner);
        }
    }

    /// The raw offsets of `neighbourhood_offsets(radius2)` in the official order (duplicates on
    /// tiny maps included, as there).
    fn for_offsets(radius2: u16, mut f: impl FnMut(i32, i32)) {
        let mx = isqrt(radius2);
        for dr in -mx..=mx {
            for dc in -mx..=mx {
                let d = dr * dr + dc * dc;
                if d > 0 && d <= radius2 as i32 {
                    f(dr, dc);
                }
            }
        }
    }

    /// Enemies of the ant on `sq` (owner `owner`) within attack range, counted as
    /// `nearby_ants` lists them (raw offsets, duplicates on tiny maps included).
    fn enemies(
        &self,
        offsets: &[(i8, i8)],
        sq: usize,
        owner: u8,
        mut each: impl FnMut(usize),
    ) -> u32 {
        let mut n = 0;
        let (r, c) = self.row_col(sq);
        let (h, w) = (self.rows as i32, self.cols as i32);
        for &(dr, dc) in offsets {
            let s = (wrap(r + dr as i32, h) * w + wrap(c + dc as i32, w)) as usize;
            let v = self.cell(s);
            if v < LAND && v != owner {
                n += 1;
                each(s);
            }
        }
        n
    }

    /// `neighbourhood_offsets(radius2)` in the official order.
    fn offsets(radius2: u16) -> heapless::Vec<(i8, i8), 441> {
        let mut out = heapless::Vec::new();
        Self::for_offsets(radius2.min(MAX_RADIUS2), |dr, dc| {
            let _ = out.push((dr as i8, dc as i8));
        });
        out
    }

    fn do_attack(&mut self) {
        match self.attack {
            Attack::Focus => self.do_attack_focus(),
            Attack::Damage => self.do_attack_damage(),
        }
    }

    /// `do_attack_damage`: each ant deals `1 / len(its enemies)` to each enemy; an ant that takes
    /// 1 or more dies. Sums are exact fractions (u128, reduced); a sum too large to hold exactly
    /// is certainly at least 1.
    fn do_attack_damage(&mut self) {
        let offsets = Self::offsets(self.attack2);
        let mut weakness = [0u16; A];
        for i in 0..self.ants.len() {
            let ant = self.ants[i];
            weakness[i] = self.enemies(&offsets, ant.sq as usize, ant.owner, |_| {}) as u16;
        }
        let mut doomed = [false; A];
        let mut any = false;
        for i in 0..self.ants.len() {
            if weakness[i] == 0 {
                continue;
            }
            let ant = self.ants[i];
            // damage[i] = sum over enemies e (as listed, duplicates included) of 1 / weakness[e]
            let (mut num, mut den) = (0u128, 1u128);
            let mut overflow = false;
            self.enemies(&offsets, ant.sq as usize, ant.owner, |s| {
                let j = self.ant_at.get(s).copied().unwrap_or(NONE16) as usize;
                let w = weakness.get(j).copied().unwrap_or(1).max(1) as u128;
                match (num.checked_mul(w), den.checked_mul(w)) {
                    (Some(a), Some(d)) => {
                        num = a + den;
                        den = d;
                        let g = gcd(num, den);
                        num /= g;
                        den /= g;
                    }
                    _ => overflow = true,
                }
            });
            if overflow || num >= den {
                doomed[i] = true;
                any = true;
            }
        }
        if any {
            for i in 0..self.ants.len() {
                if doomed[i] {
                    self.kill_ant(i);
                }
            }
            self.remove_ants(&doomed);
        }
    }

    /// `do_attack_focus`: an ant dies if some enemy in range has no more enemies than it has.
    fn do_attack_focus(&mut self) {
        let offsets = Self::offsets(self.attack2);
        let mut weakness = [0u16; A];
        for i in 0..self.ants.len() {
            let ant = self.ants[i];
            weakness[i] = self.enemies(&offsets, ant.sq as usize, ant.owner, |_| {}) as u16;
        }
        let mut doomed = [false; A];
        let mut any = false;
        for i in 0..self.ants.len() {
            let w = weakness[i];
            if w == 0 {
                continue;
            }
            let ant = self.ants[i];
            let mut min = u16::MAX;
            self.enemies(&offsets, ant.sq as usize, ant.owner, |s| {
                let j = self.ant_at.get(s).copied().unwrap_or(NONE16) as usize;
                if let Some(&ew) = weakness.get(j) {
                    min = min.min(ew);
                }
            });
            if min <= w {
                doomed[i] = true;
                any = true;
            }
        }
        if any {
            for i in 0..self.ants.len() {
                if doomed[i] {
                    self.kill_ant(i);
                }
            }
            self.remove_ants(&doomed);
        }
    }

    fn do_raze_hills(&mut self) {
        for h in 0..self.hills.len() {
            let hill = self.hills[h];
            let Some(ant) = self.ant_on(hill.sq as usize).copied() else {
                continue;
            };
            if ant.owner == hill.owner {
                self.hills[h].last_touched = self.turn;
            } else if hill.killed_by.is_none() {
                self.hills[h].end_turn = Some(self.turn);
                self.hills[h].killed_by = Some(ant.owner);
                if let Some(s) = self.score.get_mut(ant.owner as usize) {
                    *s += HILL_POINTS;
                }
                if !hill.raze_points {
                    self.hills[h].raze_points = true;
                    if let Some(s) = self.score.get_mut(hill.owner as usize) {
                        *s += RAZE_POINTS;
                    }
                }
                self.cutoff_turns = 0;
            }
        }
    }

    /// `do_spawn`: per player, unrazed hills by (last_touched, random()); one `random()` per hill.
    fn do_spawn(&mut self) {
        for player in 0..self.players {
            let mut order: heapless::Vec<(u16, u64, u8), H> = heapless::Vec::new();
            for h in 0..self.hills.len() {
                let hill = self.hills[h];
                if hill.owner != player || hill.killed_by.is_some() {
                    continue;
                }
                let key = (hill.last_touched, self.rng.random53(), h as u8);
                // Stable insertion by key (Python's sort is stable; keys are distinct anyway).
                let pos = order
                    .iter()
                    .position(|&(t, r, _)| (t, r) > (key.0, key.1))
                    .unwrap_or(order.len());
                let _ = order.insert(pos, key);
            }
            for &(_, _, h) in &order {
                let p = player as usize;
                let sq = self.hills[h as usize].sq as usize;
                if self.hive[p] > 0 && self.ant_on(sq).is_none() && self.add_ant(h as usize) {
                    self.hive[p] -= 1;
                }
            }
        }
    }

    /// `do_gather`: food next to one player's ants goes to its hive; contested food disappears.
    fn do_gather(&mut self) {
        let mut k = 0;
        while k < self.food.len() {
            let f = self.food[k];
            let mut owners: u16 = 0;
            Self::for_offsets(self.spawn2, |dr, dc| {
                let v = self.cell(self.offset(f.sq as usize, dr, dc));
                if v < LAND {
                    owners |= 1 << v;
                }
            });
            if owners == 0 {
                k += 1;
                continue;
            }
            self.food.remove(k);
            self.set_cell(f.sq as usize, LAND);
            let owner = if owners.count_ones() == 1 {
                let o = owners.trailing_zeros() as u8;
                self.hive[o as usize] += 1;
                Some(o)
            } else {
                None
            };
            let _ = self.food_gone.push(FoodGone {
                id: f.id,
                sq: f.sq,
                owner,
            });
        }
    }

    fn update_cutoff(&mut self) {
        let n = self.players as usize;
        // pop_count keys in insertion order: ant owners, owners of unrazed hills, FOOD.
        let mut count = [0u64; MAX_PLAYERS];
        for p in 0..n {
            count[p] = self.ant_count[p] as u64;
        }
        let mut hill_owner_first: Option<usize> = None;
        for h in self.hills.iter().filter(|h| h.killed_by.is_none()) {
            count[h.owner as usize] += self.hive[h.owner as usize] as u64;
            hill_owner_first.get_or_insert(h.owner as usize);
        }
        let food = self.food.len() as u64;
        let total: u64 = count.iter().sum::<u64>() + food;
        let (num, den) = (self.cutoff_percent.0 as u64, self.cutoff_percent.1 as u64);
        let reaches = |c: u64| c * den >= total * num;
        let key: Option<i8> = if total == 0 {
            // Every key qualifies; the first inserted wins (no ants exist here).
            Some(hill_owner_first.map_or(CUTOFF_FOOD, |p| p as i8))
        } else {
            (0..n)
                .find(|&p| count[p] > 0 && reaches(count[p]))
                .map(|p| p as i8)
                .or(if reaches(food) {
                    Some(CUTOFF_FOOD)
                } else {
                    None
                })
        };
        match key {
            Some(k) if k == self.cutoff_bot => {
                if !self.hill_kill {
                    self.cutoff_turns = self.cutoff_turns.saturating_add(1);
                }
            }
            Some(k) => {
                self.cutoff_bot = k;
                self.cutoff_turns = 1;
            }
            None => {
                self.cutoff_bot = CUTOFF_LAND;
                self.cutoff_turns = 0;
            }
        }
    }

    fn calc_significant_turns(&mut self) {
        let ranks = self.ranks();
        if self.ranking != Some(ranks) {
            self.ranking_turn = self.turn;
        }
        self.ranking = Some(ranks);
        let n = self.players as usize;
        let max = self.score[..n].iter().copied().max().unwrap_or(0);
        let mut winners = 0u16;
        for p in 0..n {
            if self.score[p] == max {
                winners |= 1 << p;
            }
        }
        if self.winning != Some(winners) {
            self.winning_turn = self.turn;
        }
        self.winning = Some(winners);
    }

    fn remaining_players(&self) -> usize {
        (0..self.players as usize)
            .filter(|&p| self.is_alive(p))
            .count()
    }

    fn is_rank_stabilized(&self) -> bool {
        let n = self.players as usize;
        let unrazed = |p: usize| {
            self.hills
                .iter()
                .filter(|h| h.killed_by.is_none() && h.owner as usize == p)
                .count() as i32
        };
        let total_unrazed = self.hills.iter().filter(|h| h.killed_by.is_none()).count() as i32;
        for p in 0..n {
            let own = unrazed(p);
            if !self.is_alive(p) || own == 0 {
                continue;
            }
            let max_score = HILL_POINTS * (total_unrazed - own) + self.score[p];
            for o in 0..n {
                if o == p {
                    continue;
                }
                let min_score = RAZE_POINTS * unrazed(o) + self.score[o];
                let (sp, so) = (self.score[p], self.score[o]);
                if (sp < so && max_score >= min_score) || (sp == so && max_score > min_score) {
                    return false;
                }
            }
        }
        true
    }

    /// `game_over()`, which also records the cutoff reason.
    fn game_over(&mut self) -> bool {
        let alive = self.remaining_players();
        let reason = if alive == 0 {
            Some(Cutoff::Extermination)
        } else if alive == 1 {
            Some(Cutoff::LoneSurvivor)
        } else if self.cutoff_turns >= self.cutoff_turn {
            Some(if self.cutoff_bot == CUTOFF_FOOD {
                Cutoff::FoodNotGathered
            } else {
                Cutoff::NotRazingHills
            })
        } else if self.is_rank_stabilized() {
            Some(Cutoff::RankStabilized)
        } else {
            None
        };
        if reason.is_some() {
            self.cutoff = reason;
        }
        reason.is_some()
    }

    /// `finish_game`: the lone survivor's bonus, the last significant turns, the reason.
    fn finish_game(&mut self) {
        let n = self.players as usize;
        if let Some(winner) = (0..n)
            .find(|&p| self.is_alive(p))
            .filter(|_| self.remaining_players() == 1)
        {
            for h in self.hills.iter_mut() {
                if h.owner as usize == winner {
                    continue;
                }
                if h.killed_by.is_none() {
                    self.bonus[winner] += HILL_POINTS;
                    h.killed_by = Some(winner as u8);
                }
                if !h.raze_points {
                    self.bonus[h.owner as usize] += RAZE_POINTS;
                    h.raze_points = true;
                }
            }
            for p in 0..n {
                self.score[p] += self.bonus[p];
            }
        }
        self.calc_significant_turns();
        if self.cutoff.is_none() {
            self.cutoff = Some(Cutoff::TurnLimit);
        }
        self.over = true;
    }
}

/// Re-exported for the map and bots.
pub(crate) const _USED: [u8; 2] = [FOOD, LAND];
