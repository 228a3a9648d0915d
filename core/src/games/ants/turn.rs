//! Setting a game up and playing a turn, in the official engine's order.

// Parallel arrays (ants and their per-turn marks) are walked by index.
#![allow(clippy::needless_range_loop)]

use super::map::{Map, FOOD, LAND, MAX_PLAYERS, WATER};
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

/// The most rows in a neighbourhood: `isqrt(MAX_RADIUS2)` either side of the centre.
const HOOD_ROWS: usize = 21;

/// A neighbourhood on one board: `neighbourhood_offsets(radius2)`, whose official order is row
/// by row (`dr` from `-reach` to `reach`), each row the contiguous run `dc` in `-k..=k` with
/// `k = isqrt(radius2 - dr^2)` (the centre left out). So it is kept as those half-widths: 21
/// bytes on a board's stack during each battle, rather than a list of offsets.
struct Hood {
    /// `half[dr + reach]` is `k` for that row.
    half: [u8; HOOD_ROWS],
    reach: i32,
}

/// A byte in every lane of a u64.
const LANES: u64 = 0x0101_0101_0101_0101;

/// Enemies of `owner` (squares holding another player's ant: below `LAND`, not `owner`) among
/// `len` squares of `map` from `start`, eight at a time: square values are at most `WATER` (12),
/// so adding up to 0x7f to a lane never carries into the next, and each test leaves its answer
/// in the lane's top bit. Past the end of the map, a square at a time.
#[inline(always)]
fn enemies_in_run(map: &[u8], start: usize, len: usize, owner: u8) -> u32 {
    let mut n = 0u32;
    let mut off = 0usize;
    let owners = LANES.wrapping_mul(owner as u64);
    while off < len {
        let take = len.wrapping_sub(off).min(8);
        let at = start.wrapping_add(off);
        off = off.wrapping_add(take);
        let Some(word) = map
            .get(at..at.wrapping_add(8))
            .and_then(|b| <[u8; 8]>::try_from(b).ok())
            .map(u64::from_le_bytes)
        else {
            let run = map.get(at..at.wrapping_add(take)).unwrap_or(&[]);
            let found = run.iter().filter(|&&v| v < LAND && v != owner).count();
            n = n.wrapping_add(found as u32);
            continue;
        };
        // Top bit set where the square is below LAND, and where it differs from `owner`.
        let below_land = !word.wrapping_add(LANES.wrapping_mul(0x80u64.wrapping_sub(LAND as u64)));
        let other = (word ^ owners).wrapping_add(LANES.wrapping_mul(0x7f));
        // The first `take` lanes (little-endian: the low bytes), their top bits.
        let keep = (LANES << 7) >> (8usize.wrapping_sub(take).wrapping_mul(8));
        // Each lane now 0 or 1: the multiplication sums the lanes into the top byte.
        let flags = ((below_land & other & keep) >> 7).wrapping_mul(LANES) >> 56;
        n = n.wrapping_add(flags as u32);
    }
    n
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a.checked_rem(b).unwrap_or(0));
    }
    a.max(1)
}

fn isqrt(n: u16) -> i32 {
    let mut r = 0i32;
    // `n` is a u16: `r` stays under 257.
    while r.saturating_add(1).saturating_mul(r.saturating_add(1)) <= n as i32 {
        r = r.saturating_add(1);
    }
    r
}

/// The food parameters of one game, drawn once at set-up (each `Draw` of the params).
struct FoodDraws {
    rate: u16,
    turn: u16,
    start: u16,
    visible: u16,
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
            sym_sq: [0; MAX_PLAYERS],
            sym_aim: [0; MAX_PLAYERS],
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
            dead: SeatSet::EMPTY,
            out_at: [NONE16; MAX_PLAYERS],
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
        let squares = Self::check(params)?;
        // Seeded in place: `rng` is the state's own generator.
        self.rng.seed(engine_seed);
        let food = self.draw_food(params)?;
        self.reset(params, squares, &food);
        self.place_hills(&params.map)?;
        self.start_game(&food)
    }

    /// What `init` refuses before touching the state: the map's squares.
    fn check(params: &Params<SQ, H>) -> Result<usize, SetupError> {
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
        Ok(squares)
    }

    /// The four food parameters, drawn in the official order from the seeded generator.
    fn draw_food(&mut self, params: &Params<SQ, H>) -> Result<FoodDraws, SetupError> {
        let rng = &mut self.rng;
        let mut draw = |d: Draw| -> Result<u16, SetupError> {
            match d {
                Draw::Fixed(v) => Ok(v),
                Draw::Range(lo, hi) if lo <= hi => {
                    Ok(rng.randrange(lo as i64, (hi as i64).saturating_add(1)) as u16)
                }
                Draw::Range(..) => Err(SetupError::Invalid("empty food parameter range")),
            }
        };
        let food = FoodDraws {
            rate: draw(params.food_rate)?,
            turn: draw(params.food_turn)?,
            start: draw(params.food_start)?,
            visible: draw(params.food_visible)?,
        };
        if food.turn == 0 {
            return Err(SetupError::Invalid("food_turn must be positive"));
        }
        Ok(food)
    }

    /// The params copied in and every other field as `blank` left it, over this map's squares
    /// and what the last game used beyond them (turns only ever touch their map's squares, so
    /// past both the arrays still hold `blank`'s values).
    fn reset(&mut self, params: &Params<SQ, H>, squares: usize, food: &FoodDraws) {
        let m = &params.map;
        let water = m.terrain[..squares].iter().filter(|&&t| t == WATER).count() as u32;
        let g = self;
        let used = (g.rows as usize)
            .saturating_mul(g.cols as usize)
            .max(squares)
            .min(SQ);
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
        g.food_rate = food.rate;
        g.food_turn = food.turn;
        g.food_start = food.start;
        g.food_visible = food.visible;
        g.land_area = (squares as u32).saturating_sub(water);
        for (dst, &src) in g.map.iter_mut().zip(m.terrain.iter()).take(squares) {
            *dst = src;
        }
        for s in g.map.iter_mut().take(used).skip(squares) {
            *s = WATER;
        }
        g.ant_at.iter_mut().take(used).for_each(|a| *a = NONE16);
        g.hill_at.iter_mut().take(used).for_each(|h| *h = NONE8);
        g.pending.iter_mut().take(used).for_each(|p| *p = 0);
        g.pending_order.clear();
        g.ring.iter_mut().take(used).for_each(|r| *r = NONE16);
        g.ring_head = 0;
        g.ring_len = 0;
        g.scratch.iter_mut().take(used).for_each(|s| *s = 0);
        g.sym_sq = [0; MAX_PLAYERS];
        g.sym_aim = [0; MAX_PLAYERS];
        g.ants.clear();
        g.killed.clear();
        g.food.clear();
        g.food_gone.clear();
        g.hills.clear();
        g.next_ant = 0;
        g.next_food = 0;
        g.ant_count = [0; MAX_PLAYERS];
        g.turn = 0;
        g.food_extra = 0;
        g.score = [0; MAX_PLAYERS];
        g.bonus = [0; MAX_PLAYERS];
        g.hive = [0; MAX_PLAYERS];
        g.dead = SeatSet::EMPTY;
        g.out_at = [NONE16; MAX_PLAYERS];
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
    }

    /// The map's hills, an ant on each, and every player's starting score (the number of hills
    /// of player 0).
    fn place_hills(&mut self, m: &Map<SQ, H>) -> Result<(), SetupError> {
        let g = self;
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
        Ok(())
    }

    /// `start_game`: visible food first, then the rest (the symmetry is drawn on first use); the
    /// engine's turn-0 shuffle of the alive bots; and the end, for a game over before it starts.
    fn start_game(&mut self, food: &FoodDraws) -> Result<(), SetupError> {
        let g = self;
        g.choose_symmetry()?;
        if food.visible > 0 {
            g.build_food_sets(true);
            g.run_food_deque((food.visible as i64).saturating_mul(g.players as i64));
        }
        // u32 and u16 operands in i64 (Python ints): nothing saturates.
        let starting = match g.land_area.checked_div(food.start as u32) {
            Some(per) => {
                (per as i64).saturating_sub((food.visible as i64).saturating_mul(g.players as i64))
            }
            None => 0,
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
            *c = c.saturating_add(1);
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
        let were_in = self.seats_in();
        for p in kills.iter() {
            self.kill_player(p);
        }
        self.note_out(were_in);
        if self.game_over() {
            self.finish_game();
        }
    }

    /// `kill_player`: the engine removes a bot (crash, timeout); its hills cost it a point each.
    pub fn kill_player(&mut self, player: usize) {
        if player >= MAX_PLAYERS {
            return;
        }
        self.dead = self.dead.with(player);
        for h in self.hills.iter_mut() {
            if h.owner as usize == player && !h.raze_points {
                h.raze_points = true;
                if let Some(s) = self.score.get_mut(player) {
                    *s = s.saturating_add(RAZE_POINTS);
                }
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
        let were_in = self.seats_in();
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
        self.note_out(were_in);
        if self.game_over() || self.turn >= self.turns {
            self.finish_game();
        }
        report
    }

    /// The players alive now.
    pub(crate) fn seats_in(&self) -> SeatSet {
        (0..self.players as usize)
            .filter(|&p| self.is_alive(p))
            .fold(SeatSet::EMPTY, |s, p| s.with(p))
    }

    /// Notes this turn as the turn out of each of `were_in` that is no longer alive.
    fn note_out(&mut self, were_in: SeatSet) {
        for p in were_in.iter() {
            if !self.is_alive(p) {
                if let Some(t) = self.out_at.get_mut(p) {
                    *t = self.turn;
                }
            }
        }
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
            let Some(ant) = self.ants.get(i).copied() else {
                break;
            };
            if doomed.get(i).copied().unwrap_or(false) {
                if let Some(a) = self.ant_at.get_mut(ant.sq as usize) {
                    if *a as usize == i {
                        *a = NONE16;
                    }
                }
                continue;
            }
            // `keep <= i`: a slot already read.
            if let Some(slot) = self.ants.get_mut(keep) {
                *slot = ant;
            }
            if let Some(a) = self.ant_at.get_mut(ant.sq as usize) {
                *a = keep as u16;
            }
            keep = keep.saturating_add(1);
        }
        self.ants.truncate(keep);
    }

    fn finish_turn(&mut self) {
        self.do_orders();
        self.do_attack();
        self.do_raze_hills();
        self.do_spawn();
        self.do_gather();
        // Python ints: i64 holds every value a game reaches, saturating never bites.
        let n = self.players as i64;
        let food_turn = self.food_turn.max(1) as i64;
        self.food_extra = self
            .food_extra
            .saturating_add((self.food_rate as i64).saturating_mul(n));
        let food_now = self.food_extra.checked_div(food_turn).unwrap_or(0);
        let left_over = self.run_food_deque(food_now);
        let used = food_now.saturating_sub(left_over).saturating_mul(food_turn);
        self.food_extra = self.food_extra.saturating_sub(used);
        self.update_cutoff();
        self.calc_significant_turns();
    }

    /// `do_orders`: everyone moves at once; squares ending with 2+ ants kill them all.
    fn do_orders(&mut self) {
        for ant in self.ants.iter() {
            let sq = ant.sq as usize;
            if let Some(c) = self.map.get_mut(sq) {
                *c = LAND;
            }
            if let Some(a) = self.ant_at.get_mut(sq) {
                *a = NONE16;
            }
        }
        let mut doomed: heapless::Vec<bool, A> = heapless::Vec::new();
        let _ = doomed.resize(self.ants.len(), false);
        for i in 0..self.ants.len() {
            let Some(ant) = self.ants.get(i).copied() else {
                break;
            };
            let dest = match Dir::from_letter(ant.order) {
                Some(d) => {
                    let (dr, dc) = d.offset();
                    self.offset(ant.sq as usize, dr, dc)
                }
                None => ant.sq as usize,
            };
            if let Some(a) = self.ants.get_mut(i) {
                a.sq = dest as u16;
            }
            let here = self.ant_at.get(dest).copied().unwrap_or(NONE16);
            if here == NONE16 {
                if let Some(a) = self.ant_at.get_mut(dest) {
                    *a = i as u16;
                }
            } else {
                if let Some(d) = doomed.get_mut(i) {
                    *d = true;
                }
                if let Some(d) = doomed.get_mut(here as usize) {
                    *d = true;
                }
            }
        }
        self.kill_doomed(&doomed);
        self.remove_ants(&doomed);
        for ant in self.ants.iter() {
            if let Some(c) = self.map.get_mut(ant.sq as usize) {
                *c = ant.owner;
            }
        }
    }

    /// `kill_ant` for each ant marked in `doomed`, in list order.
    fn kill_doomed(&mut self, doomed: &[bool]) {
        for (i, &d) in doomed.iter().enumerate().take(self.ants.len()) {
            if d {
                self.kill_ant(i);
            }
        }
    }

    /// The squares around `sq` at the offsets of `hood`, in the official order (duplicates on
    /// tiny maps included): a row's run of squares without wrapping around the torus when `sq`
    /// is far enough from the edges.
    #[inline(always)]
    fn around(&self, hood: &Hood, sq: usize, mut each: impl FnMut(usize)) {
        let (r, c) = self.row_col(sq);
        let (h, w) = (self.rows as i32, self.cols as i32);
        let m = hood.reach;
        // Board sides are u16 and offsets at most 10: nothing comes near i32 limits, so
        // wrapping arithmetic never wraps (and, unlike saturating, costs nothing here).
        let rows = hood
            .half
            .iter()
            .take(m.wrapping_mul(2).wrapping_add(1) as usize);
        if r >= m && r.wrapping_add(m) < h && c >= m && c.wrapping_add(m) < w {
            for (dr, &k) in (m.wrapping_neg()..).zip(rows) {
                let mid = sq.wrapping_add_signed(dr.wrapping_mul(w) as isize);
                let k = k as usize;
                // An exclusive range: an inclusive one costs a flag and a test a step.
                for s in mid.wrapping_sub(k)..mid.wrapping_add(k).wrapping_add(1) {
                    if s != sq {
                        each(s);
                    }
                }
            }
        } else {
            for (dr, &k) in (m.wrapping_neg()..).zip(rows) {
                let row = wrap(r.wrapping_add(dr), h).wrapping_mul(w);
                let k = k as i32;
                for dc in k.wrapping_neg()..k.wrapping_add(1) {
                    if dr != 0 || dc != 0 {
                        let col = wrap(c.wrapping_add(dc), w);
                        each(row.wrapping_add(col) as usize);
                    }
                }
            }
        }
    }

    /// Enemies of the ant on `sq` (owner `owner`) within attack range, counted as
    /// `nearby_ants` lists them (raw offsets, duplicates on tiny maps included).
    #[inline(always)]
    fn enemies(&self, hood: &Hood, sq: usize, owner: u8, mut each: impl FnMut(usize)) -> u32 {
        let mut n = 0u32;
        self.around(hood, sq, |s| {
            let v = self.cell(s);
            if v < LAND && v != owner {
                n = n.saturating_add(1);
                each(s);
            }
        });
        n
    }

    /// How many enemies [`Self::enemies`] finds: away from the edges, each row of the
    /// neighbourhood is one run of the map, counted eight squares at a time (the centre holds the
    /// ant itself, which is no enemy).
    fn enemy_count(&self, hood: &Hood, sq: usize, owner: u8) -> u32 {
        let (r, c) = self.row_col(sq);
        let (h, w) = (self.rows as i32, self.cols as i32);
        let m = hood.reach;
        if !(r >= m && r.wrapping_add(m) < h && c >= m && c.wrapping_add(m) < w) {
            return self.enemies(hood, sq, owner, |_| {});
        }
        let mut n = 0u32;
        let rows = hood
            .half
            .iter()
            .take(m.wrapping_mul(2).wrapping_add(1) as usize);
        for (dr, &k) in (m.wrapping_neg()..).zip(rows) {
            let mid = sq.wrapping_add_signed(dr.wrapping_mul(w) as isize);
            let k = k as usize;
            n = n.wrapping_add(enemies_in_run(
                &self.map,
                mid.wrapping_sub(k),
                k.wrapping_mul(2).wrapping_add(1),
                owner,
            ));
        }
        n
    }

    /// `neighbourhood_offsets(radius2)` for this board, as its rows' half-widths.
    fn hood(&self, radius2: u16) -> Hood {
        let r2 = radius2.min(MAX_RADIUS2) as i32;
        let reach = isqrt(r2 as u16);
        let mut half = [0u8; HOOD_ROWS];
        for (dr, k) in (reach.wrapping_neg()..=reach).zip(half.iter_mut()) {
            // `dr^2 <= r2 <= 100`: the difference is in 0..=100.
            *k = isqrt(r2.wrapping_sub(dr.wrapping_mul(dr)) as u16) as u8;
        }
        Hood { half, reach }
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
        self.attack_by(|g, hood, ant, _, weakness| {
            // damage[i] = sum over enemies e (as listed, duplicates included) of 1 / weakness[e]
            let (mut num, mut den) = (0u128, 1u128);
            let mut overflow = false;
            g.enemies(hood, ant.sq as usize, ant.owner, |s| {
                let j = g.ant_at.get(s).copied().unwrap_or(NONE16) as usize;
                let w = weakness.get(j).copied().unwrap_or(1).max(1) as u128;
                match (num.checked_mul(w), den.checked_mul(w)) {
                    // `num * w + den` past u128 while `den * w` fits: the sum exceeds 1.
                    (Some(a), Some(d)) => match a.checked_add(den) {
                        Some(sum) => {
                            // `gcd` is at least 1.
                            let common = gcd(sum, d);
                            num = sum.checked_div(common).unwrap_or(sum);
                            den = d.checked_div(common).unwrap_or(d);
                        }
                        None => overflow = true,
                    },
                    _ => overflow = true,
                }
            });
            overflow || num >= den
        });
    }

    /// `do_attack_focus`: an ant dies if some enemy in range has no more enemies than it has.
    fn do_attack_focus(&mut self) {
        self.attack_by(|g, hood, ant, w, weakness| {
            let mut min = u16::MAX;
            g.enemies(hood, ant.sq as usize, ant.owner, |s| {
                let j = g.ant_at.get(s).copied().unwrap_or(NONE16) as usize;
                if let Some(&ew) = weakness.get(j) {
                    min = min.min(ew);
                }
            });
            min <= w
        });
    }

    /// The attack step both rules share: every ant's weakness (its enemies within `attack2`),
    /// then `dies(game, hood, ant, its weakness, all weaknesses)` for each ant with an enemy; the
    /// doomed are killed and removed together.
    #[inline]
    fn attack_by(&mut self, dies: impl Fn(&Self, &Hood, &Ant, u16, &[u16]) -> bool) {
        let hood = self.hood(self.attack2);
        // Sized to the ants, not to the capacity (at most `A` pushes: they cannot fail).
        let mut weakness: heapless::Vec<u16, A> = heapless::Vec::new();
        for ant in self.ants.iter() {
            let w = self.enemy_count(&hood, ant.sq as usize, ant.owner) as u16;
            let _ = weakness.push(w);
        }
        let mut doomed: heapless::Vec<bool, A> = heapless::Vec::new();
        let _ = doomed.resize(self.ants.len(), false);
        let mut any = false;
        for ((ant, &w), doom) in self.ants.iter().zip(weakness.iter()).zip(doomed.iter_mut()) {
            if w == 0 {
                continue;
            }
            if dies(self, &hood, ant, w, &weakness) {
                *doom = true;
                any = true;
            }
        }
        if any {
            self.kill_doomed(&doomed);
            self.remove_ants(&doomed);
        }
    }

    fn do_raze_hills(&mut self) {
        for h in 0..self.hills.len() {
            let Some(hill) = self.hills.get(h).copied() else {
                break;
            };
            let Some(ant) = self.ant_on(hill.sq as usize).copied() else {
                continue;
            };
            let turn = self.turn;
            if ant.owner == hill.owner {
                if let Some(hm) = self.hills.get_mut(h) {
                    hm.last_touched = turn;
                }
            } else if hill.killed_by.is_none() {
                if let Some(hm) = self.hills.get_mut(h) {
                    hm.end_turn = Some(turn);
                    hm.killed_by = Some(ant.owner);
                }
                if let Some(s) = self.score.get_mut(ant.owner as usize) {
                    *s = s.saturating_add(HILL_POINTS);
                }
                if !hill.raze_points {
                    if let Some(hm) = self.hills.get_mut(h) {
                        hm.raze_points = true;
                    }
                    if let Some(s) = self.score.get_mut(hill.owner as usize) {
                        *s = s.saturating_add(RAZE_POINTS);
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
                let Some(hill) = self.hills.get(h).copied() else {
                    break;
                };
                if hill.owner != player || hill.killed_by.is_some() {
                    continue;
                }
                let key = (hill.last_touched, self.rng.random53(), h as u8);
                // Insertion by key, as Python's stable sort by `(last_touched, random())`:
                // ties of both (never seen) keep the hills' order, which the index, last in
                // the key, gives; so no two keys are equal.
                let pos = order.iter().position(|&k| k > key).unwrap_or(order.len());
                let _ = order.insert(pos, key);
            }
            for &(_, _, h) in &order {
                let p = player as usize;
                let Some(sq) = self.hills.get(h as usize).map(|hill| hill.sq as usize) else {
                    continue;
                };
                let food = self.hive.get(p).copied().unwrap_or(0);
                if food > 0 && self.ant_on(sq).is_none() && self.add_ant(h as usize) {
                    if let Some(hive) = self.hive.get_mut(p) {
                        *hive = hive.saturating_sub(1);
                    }
                }
            }
        }
    }

    /// `do_gather`: food next to one player's ants goes to its hive; contested food disappears.
    fn do_gather(&mut self) {
        let hood = self.hood(self.spawn2);
        let mut k = 0;
        while k < self.food.len() {
            let Some(f) = self.food.get(k).copied() else {
                break;
            };
            let mut owners: u16 = 0;
            self.around(&hood, f.sq as usize, |s| {
                let v = self.cell(s);
                if v < LAND {
                    owners |= 1 << v;
                }
            });
            if owners == 0 {
                k = k.saturating_add(1);
                continue;
            }
            // k < len still (the loop's test); checked again next to the call so that the
            // firmware has no out-of-bounds panic path here.
            if k < self.food.len() {
                self.food.remove(k);
            }
            self.set_cell(f.sq as usize, LAND);
            let owner = if owners.count_ones() == 1 {
                let o = owners.trailing_zeros() as u8;
                if let Some(hive) = self.hive.get_mut(o as usize) {
                    *hive = hive.saturating_add(1);
                }
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
        for (c, &ants) in count.iter_mut().zip(self.ant_count.iter()).take(n) {
            *c = ants as u64;
        }
        let mut hill_owner_first: Option<usize> = None;
        for h in self.hills.iter().filter(|h| h.killed_by.is_none()) {
            let hive = self.hive.get(h.owner as usize).copied().unwrap_or(0);
            if let Some(c) = count.get_mut(h.owner as usize) {
                *c = c.saturating_add(hive as u64);
            }
            hill_owner_first.get_or_insert(h.owner as usize);
        }
        let food = self.food.len() as u64;
        let total: u64 = count.iter().sum::<u64>().saturating_add(food);
        let (num, den) = (self.cutoff_percent.0 as u128, self.cutoff_percent.1 as u128);
        // u64 times u32 in u128 (Python ints): exact.
        let reaches =
            |c: u64| (c as u128).saturating_mul(den) >= (total as u128).saturating_mul(num);
        let key: Option<i8> = if total == 0 {
            // Every key qualifies; the first inserted wins (no ants exist here).
            Some(hill_owner_first.map_or(CUTOFF_FOOD, |p| p as i8))
        } else {
            count
                .iter()
                .take(n)
                .position(|&c| c > 0 && reaches(c))
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
        let scores = self.scores();
        let max = scores.iter().copied().max().unwrap_or(0);
        let mut winners = 0u16;
        for (p, &s) in scores.iter().enumerate() {
            if s == max {
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
        let score = |p: usize| self.score.get(p).copied().unwrap_or(0);
        for p in 0..n {
            let own = unrazed(p);
            if !self.is_alive(p) || own == 0 {
                continue;
            }
            // Hill counts and scores are small: nothing saturates (Python ints).
            let max_score = HILL_POINTS
                .saturating_mul(total_unrazed.saturating_sub(own))
                .saturating_add(score(p));
            for o in 0..n {
                if o == p {
                    continue;
                }
                let min_score = RAZE_POINTS
                    .saturating_mul(unrazed(o))
                    .saturating_add(score(o));
                let (sp, so) = (score(p), score(o));
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
                    if let Some(b) = self.bonus.get_mut(winner) {
                        *b = b.saturating_add(HILL_POINTS);
                    }
                    h.killed_by = Some(winner as u8);
                }
                if !h.raze_points {
                    if let Some(b) = self.bonus.get_mut(h.owner as usize) {
                        *b = b.saturating_add(RAZE_POINTS);
                    }
                    h.raze_points = true;
                }
            }
            for (s, &b) in self.score.iter_mut().zip(self.bonus.iter()).take(n) {
                *s = s.saturating_add(b);
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{enemies_in_run, LAND, WATER};

    /// `enemies_in_run` counts what its definition says (squares below `LAND`, not `owner`'s) on
    /// every run of maps of 1 to 40 squares, runs that end within eight squares of the map's end
    /// included: there it reads a square at a time, which only a run near the end of the map's
    /// storage reaches in a game (a battle at the bottom right of a map as large as the build
    /// allows). Squares: every player's ant (0..=9), land, food and water.
    #[test]
    fn enemies_in_run_counts_as_its_definition_up_to_the_end_of_the_map() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut storage = [0u8; 40];
        for _ in 0..40 {
            let squares = 1 + (next() % 40) as usize;
            for v in storage.iter_mut() {
                *v = (next() % (u64::from(WATER) + 1)) as u8;
            }
            let map = &storage[..squares];
            for start in 0..squares {
                for len in 0..=squares - start {
                    for owner in [0u8, 1, 9] {
                        let plain = map[start..start + len]
                            .iter()
                            .filter(|&&v| v < LAND && v != owner)
                            .count() as u32;
                        assert_eq!(
                            enemies_in_run(map, start, len, owner),
                            plain,
                            "{map:?}, from {start}, {len} squares, owner {owner}"
                        );
                    }
                }
            }
        }
    }

    /// `is_rank_stabilized` answers as the official one (`ants.py`), written plainly: for each
    /// alive player with a hill left, its best score (+2 a hill of the others left) against
    /// each opponent's worst (-1 a hill of its own left); not stabilized when a player behind
    /// could catch up (`>=`) or one level could get ahead (`>`). On random states of a map of
    /// four players with two hills each: hills razed or not, scores, ants, engine kills.
    #[test]
    fn rank_stabilized_answers_as_the_official_check() {
        use super::super::{AntsMcu, AntsMcuMap, AntsMcuParams};
        const QUAD: &str = "rows 4\ncols 4\nplayers 4\nm 0.1.\nm .2.3\nm 1.0.\nm .3.2\n";
        let params = AntsMcuParams::new(AntsMcuMap::parse(QUAD).unwrap(), 10);
        let mut g = AntsMcu::setup(&params, 1).unwrap();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let plain = |g: &AntsMcu| {
            let n = g.players as usize;
            let left = |h: &&super::Hill| h.killed_by.is_none();
            for p in 0..n {
                if !(g.is_alive(p) && g.hills.iter().filter(left).any(|h| h.owner as usize == p)) {
                    continue;
                }
                let others = g
                    .hills
                    .iter()
                    .filter(left)
                    .filter(|h| h.owner as usize != p);
                let max_score = 2 * others.count() as i32 + g.score[p];
                for o in (0..n).filter(|&o| o != p) {
                    let own = g
                        .hills
                        .iter()
                        .filter(left)
                        .filter(|h| h.owner as usize == o);
                    let min_score = -(own.count() as i32) + g.score[o];
                    let (sp, so) = (g.score[p], g.score[o]);
                    if (sp < so && max_score >= min_score) || (sp == so && max_score > min_score) {
                        return false;
                    }
                }
            }
            true
        };
        let (mut stable, mut not) = (0, 0);
        for _ in 0..20_000 {
            for h in g.hills.iter_mut() {
                h.killed_by = (next(3) == 0).then_some(next(4) as u8);
            }
            for p in 0..4 {
                g.score[p] = next(9) as i32 - 3;
                g.ant_count[p] = next(3) as u16;
            }
            g.dead = crate::SeatSet::EMPTY;
            for p in 0..4 {
                if next(6) == 0 {
                    g.dead = g.dead.with(p);
                }
            }
            let want = plain(&g);
            assert_eq!(
                g.is_rank_stabilized(),
                want,
                "{:?} {:?}",
                &g.score[..4],
                g.hills
            );
            if want {
                stable += 1;
            } else {
                not += 1;
            }
        }
        assert!(stable > 1000 && not > 1000, "{stable} stable, {not} not");
    }
}
