//! Symmetric food: the map's symmetry, the food sets, the deque that cycles them, placement.
//!
//! Everything here copies `get_map_symmetry`, `get_symmetric_food_sets`, `do_food_symmetric`,
//! `do_food_visible` and `place_food` of the official engine, draw for draw. Food sets are kept as
//! their base square only (the set is recomputed from it, in CPython's set order, when it is
//! used), so the deque costs two bytes a set. Food scheduled on a square that never becomes free
//! land (water, say) stays pending for ever, as in the official engine.

// Parallel arrays (options per player, squares) are walked by index.
#![allow(clippy::needless_range_loop)]

use super::map::{FOOD, LAND, MAX_PLAYERS, WATER};
use super::pyset::set_order;
use super::state::{wrap, AntsGame, NONE16};
use crate::game::SetupError;

/// Largest number of symmetry combinations examined (each is checked against the whole map).
pub const MAX_SYMMETRIES: usize = 4096;
/// Orientations considered per player (hills x 8 aims).
const MAX_OPTIONS: usize = 64;

const VISITED: u8 = 1;
const IN_VIEW: u8 = 2;

/// `offset_aim`: the eight orientations.
pub(crate) fn offset_aim(o: (i32, i32), aim: u8) -> (i32, i32) {
    let (r, c) = o;
    match aim {
        1 => (r.saturating_neg(), c),
        2 => (r, c.saturating_neg()),
        3 => (r.saturating_neg(), c.saturating_neg()),
        4 => (c, r),
        5 => (c.saturating_neg(), r),
        6 => (c, r.saturating_neg()),
        7 => (c.saturating_neg(), r.saturating_neg()),
        _ => (r, c),
    }
}

/// Slot `k` after `head` in a ring of `cap` slots (`k <= cap`, `head < cap`).
fn ring_slot(head: usize, cap: usize, k: usize) -> usize {
    let i = head.saturating_add(k);
    if i >= cap {
        i.saturating_sub(cap)
    } else {
        i
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsGame<SQ, A, F, H, O>
{
    /// The ring's slots: one per square of the map (it never holds more than the food sets, at
    /// most one per square that is not a hill, plus the sentinel), so it only ever writes the
    /// map's part of the array.
    fn ring_cap(&self) -> usize {
        (self.rows as usize)
            .saturating_mul(self.cols as usize)
            .clamp(1, SQ)
    }
    /// Slot `k` after the head (`k <= ring_cap`, the head below it).
    fn ring_index(&self, k: usize) -> usize {
        ring_slot(self.ring_head, self.ring_cap(), k)
    }
    pub(crate) fn ring_get(&self, k: usize) -> u16 {
        self.ring.get(self.ring_index(k)).copied().unwrap_or(NONE16)
    }
    fn ring_set(&mut self, k: usize, v: u16) {
        let i = self.ring_index(k);
        if let Some(slot) = self.ring.get_mut(i) {
            *slot = v;
        }
    }
    fn ring_push_back(&mut self, v: u16) {
        if self.ring_len < self.ring_cap() {
            self.ring_set(self.ring_len, v);
            self.ring_len = self.ring_len.saturating_add(1);
        }
    }
    fn ring_push_front(&mut self, v: u16) {
        if self.ring_len < self.ring_cap() {
            // `ring_head < ring_cap`: one step back around the ring.
            self.ring_head = match self.ring_head.checked_sub(1) {
                Some(h) => h,
                None => self.ring_cap().saturating_sub(1),
            };
            self.ring_len = self.ring_len.saturating_add(1);
            self.ring_set(0, v);
        }
    }
    fn ring_pop_back(&mut self) -> Option<u16> {
        if self.ring_len == 0 {
            return None;
        }
        self.ring_len = self.ring_len.saturating_sub(1);
        let v = self.ring_get(self.ring_len);
        Some(v)
    }

    /// `map_similar(loc1, loc2, aim, player)`: is the map the same seen from `loc2` turned by
    /// `aim` as from `loc1`, with player 0's ants mapped to `player`'s?
    ///
    /// Every square is compared (the answer does not depend on the order): row by row of the
    /// first view, each row cut into runs where neither walk wraps around the torus, so that a
    /// run is one slice of the first view and a fixed index step in the second.
    fn map_similar(&self, loc1: usize, loc2: usize, aim: u8, player: u8) -> bool {
        let (h, w) = (self.rows as i32, self.cols as i32);
        let Some(map) = self.map.get(..(h as usize).saturating_mul(w as usize)) else {
            return false;
        };
        let (r1, c1) = self.row_col(loc1);
        let (r2, c2) = self.row_col(loc2);
        // One step along a row of the first view, and one row down, as seen in the second.
        let (step_r, step_c) = offset_aim((0, 1), aim);
        let (down_r, down_c) = offset_aim((1, 0), aim);
        // Board sides are u16: no index below comes near i32 or isize limits.
        let step = step_r.wrapping_mul(w).wrapping_add(step_c) as isize;
        // `v` moved by `d` squares (`|d| <= n`) on a side of `n`, `v` already in `0..n`.
        let moved = |v: i32, d: i32, n: i32| {
            let m = v.wrapping_add(d);
            if m < 0 {
                m.wrapping_add(n)
            } else if m >= n {
                m.wrapping_sub(n)
            } else {
                m
            }
        };
        let (mut row1, mut row2r, mut row2c) = (r1, r2, c2);
        for _ in 0..h {
            let (mut a, mut br, mut bc) = (c1, row2r, row2c);
            let mut left = w;
            while left > 0 {
                // Squares before either walk wraps: the first along its row, the second along
                // its step.
                let run2 = match (step_r, step_c) {
                    (0, 1) => w.wrapping_sub(bc),
                    (0, _) => bc.wrapping_add(1),
                    (1, _) => h.wrapping_sub(br),
                    _ => br.wrapping_add(1),
                };
                let run = left.min(w.wrapping_sub(a)).min(run2).max(1);
                let i1 = row1.wrapping_mul(w).wrapping_add(a) as usize;
                let Some(seg) = map.get(i1..i1.wrapping_add(run as usize)) else {
                    return false;
                };
                let mut j = br.wrapping_mul(w).wrapping_add(bc) as isize;
                for &ilk0 in seg {
                    let ilk1 = map.get(j as usize).copied().unwrap_or(WATER);
                    j = j.wrapping_add(step);
                    if ilk0 == ilk1 && ilk0 >= LAND {
                        continue;
                    }
                    let differs = if ilk0 == 0 {
                        // Player 0's ant must be `player`'s.
                        ilk1 != player
                    } else if ilk0 < LAND {
                        // Another ant must be an ant of someone other than `player`.
                        ilk1 >= LAND || ilk1 == player
                    } else {
                        // Land, water and food must match.
                        ilk1 != ilk0
                    };
                    if differs {
                        return false;
                    }
                }
                left = left.wrapping_sub(run);
                a = moved(a, run, w);
                br = moved(br, step_r.wrapping_mul(run), h);
                bc = moved(bc, step_c.wrapping_mul(run), w);
            }
            row1 = moved(row1, 1, h);
            row2r = moved(row2r, down_r, h);
            row2c = moved(row2c, down_c, w);
        }
        true
    }

    /// `get_map_symmetry` then `choice`: fills `self.sym_sq` and `self.sym_aim`. The candidate list is never built: its
    /// order is a mixed radix over each player's options (player 1 fastest), so the valid ones are
    /// counted, one is drawn, and it is found again.
    pub(crate) fn choose_symmetry(&mut self) -> Result<(), SetupError> {
        let n = self.players as usize;
        let Some(hill0) = self
            .hills
            .iter()
            .find(|h| h.owner == 0)
            .map(|h| h.sq as usize)
        else {
            return Err(SetupError::Invalid("player 0 has no hill"));
        };
        let hills0 = self.hills.iter().filter(|h| h.owner == 0).count();
        // Built where it lives: `array::from_fn` built it aside and moved it in, 2.6 KB twice
        // on a board's stack while a match is set up.
        let mut options: [heapless::Vec<(u16, u8), MAX_OPTIONS>; MAX_PLAYERS] =
            [const { heapless::Vec::new() }; MAX_PLAYERS];
        let mut combos: usize = 1;
        for (player, opts) in options.iter_mut().enumerate().take(n).skip(1) {
            let mut count = 0usize;
            for h in self.hills.iter() {
                if h.owner as usize != player {
                    continue;
                }
                count = count.saturating_add(1);
                for aim in 0..8u8 {
                    if self.map_similar(hill0, h.sq as usize, aim, player as u8) {
                        opts.push((h.sq, aim))
                            .map_err(|_| SetupError::Capacity("too many map symmetries"))?;
                    }
                }
            }
            if count != hills0 {
                return Err(SetupError::Invalid(
                    "map is not symmetric: hill counts differ",
                ));
            }
            combos = combos.saturating_mul(opts.len());
            if combos == 0 {
                return Err(SetupError::Invalid("map is not symmetric"));
            }
            if combos > MAX_SYMMETRIES {
                return Err(SetupError::Capacity("too many map symmetries"));
            }
        }
        let combo = |mut index: usize, sym: &mut [(u16, u8); MAX_PLAYERS]| {
            if let Some(first) = sym.first_mut() {
                *first = (hill0 as u16, 0);
            }
            for (s, opts) in sym.iter_mut().zip(options.iter()).take(n).skip(1) {
                // `len >= 1`, so the divisions cannot fail.
                let len = opts.len().max(1);
                *s = opts
                    .get(index.checked_rem(len).unwrap_or(0))
                    .copied()
                    .unwrap_or((0, 0));
                index = index.checked_div(len).unwrap_or(0);
            }
        };
        let mut valid = 0usize;
        let mut sym = [(0u16, 0u8); MAX_PLAYERS];
        for index in 0..combos {
            combo(index, &mut sym);
            if self.symmetry_holds(&sym) {
                valid = valid.saturating_add(1);
            }
        }
        let Some(pick) = self.rng.choice(valid) else {
            return Err(SetupError::Invalid(
                "map is not symmetric: no valid orientation set",
            ));
        };
        let mut seen = 0usize;
        for index in 0..combos {
            combo(index, &mut sym);
            if self.symmetry_holds(&sym) {
                if seen == pick {
                    self.sym_sq = sym.map(|(sq, _)| sq);
                    self.sym_aim = sym.map(|(_, aim)| aim);
                    return Ok(());
                }
                seen = seen.saturating_add(1);
            }
        }
        Err(SetupError::Invalid("map is not symmetric"))
    }

    /// The official double check: food at offset (1, 2) of every hill, then each orientation must
    /// still see the same map.
    fn symmetry_holds(&mut self, sym: &[(u16, u8); MAX_PLAYERS]) -> bool {
        let n = self.players as usize;
        let mut fix = [(0usize, 0u8); MAX_PLAYERS];
        for (f, &(loc, aim)) in fix.iter_mut().zip(sym.iter()).take(n) {
            let (r, c) = offset_aim((1, 2), aim);
            let sq = self.offset(loc as usize, r, c);
            *f = (sq, self.cell(sq));
            self.set_cell(sq, FOOD);
        }
        let loc0 = sym.first().map_or(0, |s| s.0 as usize);
        let ok = sym
            .iter()
            .enumerate()
            .take(n)
            // Player 0's view is the first view itself (`sym[0]` is `(loc0, 0)`): the same.
            .all(|(p, &(loc, aim))| {
                (p == 0 && aim == 0 && loc as usize == loc0)
                    || self.map_similar(loc0, loc as usize, aim, p as u8)
            });
        for &(sq, ilk) in fix.iter().take(n).rev() {
            self.set_cell(sq, ilk);
        }
        ok
    }

    /// The locations of the food set based at `base`, in CPython's `list(set(...))` order.
    pub(crate) fn food_set(&self, base: usize, out: &mut [(u32, u32); MAX_PLAYERS]) -> usize {
        let (br, bc) = self.row_col(base);
        self.food_set_at(br, bc, &self.sym_rows_cols(), out)
    }

    /// Row and column of each player's symmetry square.
    fn sym_rows_cols(&self) -> [(i32, i32); MAX_PLAYERS] {
        let mut rc = [(0i32, 0i32); MAX_PLAYERS];
        for (out, &loc) in rc.iter_mut().zip(self.sym_sq.iter()) {
            *out = self.row_col(loc as usize);
        }
        rc
    }

    /// [`Self::food_set`] of the base at row `br`, column `bc`, given [`Self::sym_rows_cols`].
    fn food_set_at(
        &self,
        br: i32,
        bc: i32,
        sym_rc: &[(i32, i32); MAX_PLAYERS],
        out: &mut [(u32, u32); MAX_PLAYERS],
    ) -> usize {
        let n = self.players as usize;
        let (h, w) = (self.rows as i32, self.cols as i32);
        let (a0r, a0c) = sym_rc.first().copied().unwrap_or((0, 0));
        let o = (br.saturating_sub(a0r), bc.saturating_sub(a0c));
        let mut items = [(0u32, 0u32); MAX_PLAYERS];
        for (item, (&aim, &(lr, lc))) in items
            .iter_mut()
            .zip(self.sym_aim.iter().zip(sym_rc))
            .take(n)
        {
            let (dr, dc) = offset_aim(o, aim);
            let r = wrap(lr.saturating_add(dr), h);
            let c = wrap(lc.saturating_add(dc), w);
            *item = (r as u32, c as u32);
        }
        set_order(items.get(..n).unwrap_or(&items), out)
    }

    /// Squared distance on the torus between two (row, column) squares.
    fn distance2_rc(&self, a: (u32, u32), b: (u32, u32)) -> u32 {
        let (h, w) = (self.rows as u32, self.cols as u32);
        let dr = a.0.abs_diff(b.0);
        let dr = dr.min(h.saturating_sub(dr));
        let dc = a.1.abs_diff(b.1);
        let dc = dc.min(w.saturating_sub(dc));
        // Each under 2^15 (u16 boards): the squares and their sum fit a u32.
        dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc))
    }

    /// `get_initial_vision_squares`: flood fill over non-water from every hill, within
    /// viewradius2 of that hill, marking `IN_VIEW` in `scratch`. As in the official code, a square
    /// reached from an earlier hill is not expanded again from a later one. The ring (empty while
    /// sets are built) is the queue.
    fn mark_initial_vision(&mut self) {
        for h in 0..self.hills.len() {
            let Some(hill) = self.hills.get(h).map(|h| h.sq as usize) else {
                continue;
            };
            self.ring_head = 0;
            self.ring_len = 0;
            self.mark(hill, IN_VIEW);
            self.ring_push_back(hill as u16);
            while let Some(cur) = self.ring_pop_front() {
                for (dr, dc) in [(-1, 0), (0, 1), (1, 0), (0, -1)] {
                    let next = self.offset(cur as usize, dr, dc);
                    let marks = self.scratch.get(next).copied().unwrap_or(0);
                    if marks & IN_VIEW == 0
                        && self.cell(next) != WATER
                        && self.distance2(hill, next) <= self.view2 as u32
                    {
                        self.mark(next, IN_VIEW);
                        self.ring_push_back(next as u16);
                    }
                }
            }
        }
        self.ring_head = 0;
        self.ring_len = 0;
    }

    fn ring_pop_front(&mut self) -> Option<u16> {
        if self.ring_len == 0 {
            return None;
        }
        let v = self.ring_get(0);
        // `ring_head < ring_cap`: one step on around the ring.
        let next = self.ring_head.saturating_add(1);
        self.ring_head = if next >= self.ring_cap() { 0 } else { next };
        self.ring_len = self.ring_len.saturating_sub(1);
        Some(v)
    }

    fn mark(&mut self, sq: usize, bits: u8) {
        if let Some(s) = self.scratch.get_mut(sq) {
            *s |= bits;
        }
    }

    /// `get_symmetric_food_sets(starting)` into the ring, then the sentinel.
    pub(crate) fn build_food_sets(&mut self, starting: bool) {
        let n = self.players as usize;
        let squares = (self.rows as usize).saturating_mul(self.cols as usize);
        // `scratch` is zero between uses, and only the map's squares are ever marked.
        if starting {
            self.mark_initial_vision();
        }
        self.ring_head = 0;
        self.ring_len = 0;
        let (h, w) = (self.rows as i32, self.cols as i32);
        let sym_rc = self.sym_rows_cols();
        let mut locs = [(0u32, 0u32); MAX_PLAYERS];
        let mut base = 0usize;
        // Bases in square order, row by row (no division to find a base's row and column).
        for br in 0..h {
            for bc in 0..w {
                let this = base;
                base = base.saturating_add(1);
                let marks = self.scratch.get(this).copied().unwrap_or(0);
                if marks & VISITED != 0 || self.hill_on(this).is_some() {
                    continue;
                }
                if starting && marks & IN_VIEW == 0 {
                    continue;
                }
                let len = self.food_set_at(br, bc, &sym_rc, &mut locs);
                // A food set holds one item at least (`len >= 1`).
                let first = locs.first().copied().unwrap_or_default();
                let too_close = locs
                    .get(1..len)
                    .unwrap_or(&[])
                    .iter()
                    .any(|&rc| self.distance2_rc(first, rc) == 1);
                if too_close {
                    continue;
                }
                if !starting || len == n {
                    for &(r, c) in locs.iter().take(len) {
                        // Both wrapped onto the board: the square is below rows * cols.
                        let sq = (r as usize)
                            .saturating_mul(w as usize)
                            .saturating_add(c as usize);
                        self.mark(sq, VISITED);
                    }
                    self.ring_push_back(this as u16);
                }
            }
        }
        for s in self.scratch.iter_mut().take(squares) {
            *s = 0;
        }
        self.ring_push_back(NONE16);
    }

    /// `do_food_symmetric(amount)` / `do_food_visible(amount)` over the ring: the left-over amount.
    pub(crate) fn run_food_deque(&mut self, mut amount: i64) -> i64 {
        let mut locs = [(0u32, 0u32); MAX_PLAYERS];
        loop {
            let Some(mut base) = self.ring_pop_back() else {
                return amount;
            };
            if base == NONE16 {
                let len = self.ring_len;
                // The generator and the ring are borrowed apart (no 2.5 KB generator moved out
                // and back in).
                let (head, cap) = (self.ring_head, self.ring_cap());
                let ring = &mut self.ring;
                self.rng.shuffle_with(len, |i, j| {
                    let (a, b) = (ring_slot(head, cap, i), ring_slot(head, cap, j));
                    if a < ring.len() && b < ring.len() {
                        ring.swap(a, b);
                    }
                });
                self.ring_push_front(NONE16);
                match self.ring_pop_back() {
                    Some(b) if b != NONE16 => base = b,
                    // Only the sentinel: no food set at all (the official engine crashes here).
                    other => {
                        if let Some(b) = other {
                            self.ring_push_back(b);
                        }
                        self.place_food();
                        return amount;
                    }
                }
            }
            let len = self.food_set(base as usize, &mut locs) as i64;
            if len > amount {
                self.ring_push_back(base);
                self.place_food();
                return amount;
            }
            amount = amount.saturating_sub(len);
            self.ring_push_front(base);
            for &(r, c) in locs.iter().take(len as usize) {
                let sq = self.sq_of(r as i32, c as i32);
                self.schedule(sq);
            }
        }
    }

    fn schedule(&mut self, sq: usize) {
        if let Some(p) = self.pending.get_mut(sq) {
            if *p == 0 {
                let _ = self.pending_order.push(sq as u16);
            }
            *p = p.saturating_add(1);
        }
    }

    /// `place_food`: one food on every scheduled square that is free land, in scheduling order.
    pub(crate) fn place_food(&mut self) {
        let mut keep = 0usize;
        for k in 0..self.pending_order.len() {
            let Some(&sq) = self.pending_order.get(k) else {
                break;
            };
            let sq = sq as usize;
            let mut count = self.pending.get(sq).copied().unwrap_or(0);
            if self.is_free_land(sq) && self.add_food(sq) {
                count = count.saturating_sub(1);
                if let Some(p) = self.pending.get_mut(sq) {
                    *p = count;
                }
            }
            if count > 0 {
                // `keep <= k`: always a slot already read.
                if let Some(slot) = self.pending_order.get_mut(keep) {
                    *slot = sq as u16;
                }
                keep = keep.saturating_add(1);
            }
        }
        self.pending_order.truncate(keep);
    }

    /// `add_food`; false (the food stays scheduled) when this build's food list is full.
    fn add_food(&mut self, sq: usize) -> bool {
        let food = super::state::Food {
            id: self.next_food,
            sq: sq as u16,
            start_turn: self.turn,
        };
        if self.food.push(food).is_err() {
            self.capacity_waits = self.capacity_waits.saturating_add(1);
            return false;
        }
        self.next_food = self.next_food.saturating_add(1);
        self.set_cell(sq, FOOD);
        true
    }
}

#[cfg(test)]
mod tests;
