//! Ants in the generic suite, for every build's capacities (the host's and the board's): random
//! symmetric maps of 2 to 4 players and up to 40 x 40 squares, 120 turns.

use arena_core::games::ants::arbitrary::symmetric_map;
use arena_core::games::ants::{AntsGame, Map, Params};
use arena_core::{Game, Rng, SetupError};

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> crate::Suite
    for AntsGame<SQ, A, F, H, O>
{
    const TURNS: std::ops::Range<usize> = 0..120;
    const SOAK_SHARE: u64 = 10;
    // The pinned match's digests (see `Suite::PINNED`): a change must be explained in the commit.
    const PINNED: &'static [(u32, u64)] = &[
        (0, 0xe1233d573e2d75df),
        (1, 0x0313963dcbab5be6),
        (10, 0x28a33295847fdc59),
        (100, 0x92615dc4c48cc7c7),
        (120, 0x020b172da38076a5),
    ];
    // Up to 16 orders for each of up to 4 seats.
    const STEP_BYTES: usize = 512;

    fn params() -> Vec<Params<SQ, H>> {
        let mut out = Vec::new();
        let mut seed = 0u64;
        while out.len() < 8 {
            let mut rng = Rng::new(seed);
            seed += 1;
            let players = 2 + rng.below(3) as u8;
            let cell = 5 + rng.below(6) as usize;
            let Some(text) = symmetric_map(players, cell, 12, rng.next_u64()) else {
                continue;
            };
            let Ok(map) = Map::parse(&text) else {
                continue;
            };
            let params = Params::new(map, 120);
            // Keep the maps the engine accepts (all symmetric; some have no food set at all).
            if Self::boxed(&params, 1).is_ok() {
                out.push(params);
            }
        }
        out
    }

    /// Built in place: the host build is about 415 KB.
    fn boxed(params: &Params<SQ, H>, seed: u64) -> Result<Box<Self>, SetupError> {
        let mut game = Box::new(Self::blank());
        game.init(params, seed)?;
        Ok(game)
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
