//! Tower Defense in the generic suite: both variants, and the invariants of the rules.

use crate::Suite;
use arena_core::games::tower_defense::{Params, TowerDefense, Variant};
use arena_core::Game;

impl Suite for TowerDefense {
    const TURNS: std::ops::Range<usize> = 0..400;
    const SOAK_SHARE: u64 = 20;
    // The pinned match's digests (see `Suite::PINNED`): a change must be explained in the commit.
    const PINNED: &'static [(u32, u64)] = &[
        (0, 0xaa1c22c077fcc979),
        (1, 0x65e9bcf45f70329d),
        (10, 0x45a7e88d981c4075),
        (100, 0xeea1b6edf2699b10),
        (300, 0x1a6eb7ea731e68b4),
    ];

    fn params() -> Vec<Params> {
        vec![
            Params {
                variant: Variant::Duel,
            },
            Params {
                variant: Variant::Siege,
            },
        ]
    }

    fn check(&self, before: &Self) -> Result<(), String> {
        if self.turn() != before.turn() + 1 {
            return Err(format!("turn {} after {}", self.turn(), before.turn()));
        }
        for b in 0..self.boards() {
            let mut count = 0;
            let mut last = None;
            for v in self.invaders(b) {
                count += 1;
                if last.is_some_and(|l| l >= v.pos) || v.pos as usize >= 100 {
                    return Err(format!("board {b}: invader order or position {}", v.pos));
                }
                last = Some(v.pos);
                if v.hp == 0 || v.hp > v.maxhp {
                    return Err(format!(
                        "board {b}: invader at {} has {}/{} hp",
                        v.pos, v.hp, v.maxhp
                    ));
                }
            }
            if count > before.invaders(b).count() + 1 {
                return Err(format!("board {b}: more than one invader appeared"));
            }
            let (inv, towers) = self.masks(b);
            if inv.count_ones() as usize != count
                || towers.count_ones() as usize != self.towers(b).count()
            {
                return Err(format!(
                    "board {b}: occupancy masks disagree with the spaces"
                ));
            }
        }
        // Gold is unsigned: a wrap-around would show as an absurd jump.
        for seat in 0..2 {
            if self.gold(seat) > before.gold(seat).saturating_add(1_000_000) {
                return Err(format!("seat {seat}: gold jumped to {}", self.gold(seat)));
            }
        }
        match (self.players(), before.players()) {
            (Some(now), Some(then)) => {
                for seat in 0..2 {
                    if now[seat].life > then[seat].life {
                        return Err(format!("seat {seat}: life rose"));
                    }
                    let standing: u32 = self.towers(1 - seat).map(|t| 10 + 5 * (t.level - 1)).sum();
                    if now[seat].inflation != standing {
                        return Err(format!(
                            "seat {seat}: inflation {} but towers add up to {standing}",
                            now[seat].inflation
                        ));
                    }
                }
            }
            _ => {
                let (Some((_, now)), Some((_, then))) = (self.siege(), before.siege()) else {
                    return Err("variant changed".into());
                };
                if now.life > then.life {
                    return Err("defender's life rose".into());
                }
            }
        }
        Ok(())
    }
}
