//! Ants in the generic suite: the microcontroller build (48 x 48, 256 ants) on random symmetric
//! maps, with random orders (mostly aimed at real squares, some far outside the map).

use arena_core::games::ants::{AntsMcu, AntsMcuMap, AntsMcuParams, Dir, Order, MCU_ORDERS};
use arena_core::{Game, Rng, Seat};
use proptest::prelude::*;

/// A map that is the same under a translation by (rows / players, cols / players): every such map
/// is symmetric in the official sense, whatever its water.
fn random_map(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let players = 2 + rng.below(3) as usize;
    let cell = 5 + rng.below(6) as usize;
    let (rows, cols) = (cell * players, cell * players);
    let (step_r, step_c) = (cell, cell);
    let mut grid = vec![vec!['.'; cols]; rows];
    // Water in the base block, copied along the translation.
    let base: Vec<Vec<bool>> = (0..rows)
        .map(|_| (0..cols).map(|_| rng.below(100) < 12).collect())
        .collect();
    for (r, line) in grid.iter_mut().enumerate() {
        for (c, square) in line.iter_mut().enumerate() {
            // The orbit's representative: shift back by k steps until k = 0.
            let k = (0..players)
                .find(|&k| (r + rows - k * step_r % rows) % rows < step_r)
                .unwrap_or(0);
            let (r0, c0) = (
                (r + rows - k * step_r) % rows,
                (c + cols - k * step_c % cols) % cols,
            );
            if base[r0][c0] {
                *square = '%';
            }
        }
    }
    for p in 0..players {
        let (r, c) = (1 + p * step_r, 1 + p * step_c);
        grid[r % rows][c % cols] = (b'0' + p as u8) as char;
    }
    let mut text = format!("rows {rows}\ncols {cols}\nplayers {players}\n");
    for row in grid {
        text.push_str("m ");
        text.extend(row);
        text.push('\n');
    }
    text
}

impl crate::Suite for AntsMcu {
    fn params() -> Vec<AntsMcuParams> {
        let mut out = Vec::new();
        let mut seed = 0u64;
        while out.len() < 8 {
            let text = random_map(seed);
            seed += 1;
            let Ok(map) = AntsMcuMap::parse(&text) else {
                continue;
            };
            let params = AntsMcuParams::new(map, 120);
            // Keep the maps the engine accepts (all symmetric; some have no food set at all).
            if AntsMcu::new(&params, 1).is_ok() {
                out.push(params);
            }
        }
        out
    }

    fn arb_action(_seat: Seat) -> BoxedStrategy<<AntsMcu as Game>::Action> {
        let coord = prop_oneof![8 => 0i16..30, 1 => any::<i16>(), 1 => -30i16..0];
        let dir = prop_oneof![Just(Dir::N), Just(Dir::E), Just(Dir::S), Just(Dir::W)];
        proptest::collection::vec((coord.clone(), coord, dir), 0..40)
            .prop_map(|v| {
                v.into_iter()
                    .map(|(row, col, dir)| Order { row, col, dir })
                    .take(MCU_ORDERS)
                    .collect()
            })
            .boxed()
    }

    fn check(&self, before: &Self) -> Result<(), String> {
        let squares = self.rows() as usize * self.cols() as usize;
        let mut seen = vec![false; squares];
        for a in self.ants() {
            let sq = a.sq as usize;
            if sq >= squares || self.is_water(sq) {
                return Err(format!("ant {} on water or off the map", a.id));
            }
            if std::mem::replace(&mut seen[sq], true) {
                return Err(format!("two ants share square {sq}"));
            }
            if self.ant_on(sq).map(|x| x.id) != Some(a.id) {
                return Err(format!("ant {} is not where the board says", a.id));
            }
        }
        for f in self.food() {
            if !self.is_food(f.sq as usize) {
                return Err(format!("food {} not marked on the board", f.id));
            }
        }
        if before.is_finished() {
            return if self.digest() == before.digest() {
                Ok(())
            } else {
                Err("changed after the end".into())
            };
        }
        if self.current_turn() != before.current_turn() + 1 {
            return Err("the turn did not advance by one".into());
        }
        // Food is conserved: what was there, plus what was placed, minus what left.
        let placed = (self.food_created() - before.food_created()) as usize;
        if self.food().len() != before.food().len() + placed - self.food_gone().len() {
            return Err("food not conserved".into());
        }
        // Hives: gathered food in, spawned ants out.
        for p in 0..self.players() {
            let gathered = self
                .food_gone()
                .iter()
                .filter(|f| f.owner == Some(p as u8))
                .count() as u32;
            let born = self
                .ants()
                .iter()
                .filter(|a| a.owner as usize == p && a.spawn_turn == self.current_turn())
                .count() as u32;
            if self.hive_food(p) + born != before.hive_food(p) + gathered {
                return Err(format!("hive of player {p} not conserved"));
            }
        }
        // Every ant is accounted for: survivors and births vs. before and deaths.
        let born = self
            .ants()
            .iter()
            .filter(|a| a.spawn_turn == self.current_turn())
            .count();
        if self.ants().len() + self.killed().len() != before.ants().len() + born {
            return Err("ants appeared or vanished".into());
        }
        Ok(())
    }
}
