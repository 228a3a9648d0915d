//! Tower Defense in the generic suite: both variants, any action a bot could send.

use crate::Suite;
use arena_core::games::tower_defense::{Action, Params, Stat, TowerDefense, TowerKind, Variant};
use arena_core::{Game, Seat};
use proptest::prelude::*;

/// Mostly on the path, sometimes just off it, sometimes anything at all.
fn position() -> impl Strategy<Value = i64> {
    prop_oneof![8 => 0i64..100, 1 => -5i64..105, 1 => any::<i64>()]
}

/// Mostly affordable boosts, sometimes negative or absurd.
fn boost() -> impl Strategy<Value = i64> {
    prop_oneof![8 => 0i64..8, 1 => -10i64..0, 1 => any::<i64>()]
}

impl Suite for TowerDefense {
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

    fn arb_action(_seat: Seat) -> BoxedStrategy<Action> {
        let kind = prop_oneof![
            4 => prop::sample::select(TowerKind::ALL.to_vec()).prop_map(Some),
            1 => Just(None),
        ];
        let stat = prop_oneof![
            2 => Just(Some(Stat::Power)),
            2 => Just(Some(Stat::Range)),
            1 => Just(None),
        ];
        prop_oneof![
            3 => Just(Action::Pass),
            4 => (boost(), boost(), boost()).prop_map(|(hp, defense, stun_res)| Action::Spawn {
                hp,
                defense,
                stun_res
            }),
            3 => (kind, position()).prop_map(|(kind, pos)| Action::Build { kind, pos }),
            2 => (position(), stat).prop_map(|(pos, stat)| Action::Upgrade { pos, stat }),
            1 => position().prop_map(|pos| Action::Destroy { pos }),
            1 => Just(Action::Unknown),
        ]
        .boxed()
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
