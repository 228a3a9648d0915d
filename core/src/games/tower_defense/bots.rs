//! Built-in bots: `strong`, `random`, and ports of the reference controller's two sample bots.
//!
//! The reference controller asked its bots for an action *after* the boards had moved and income
//! had been paid, while our bots see the state after the previous turn (rules, Decision 1). The
//! ports `builder` and `army` look at the controller's moment by stepping a copy with two passes,
//! so they make exactly the choices recorded in the golden trace `builder-army-full.jsonl`.
//!
//! Every bot works in both variants: in Siege the invader seat only spawns and the defender only
//! builds, so a bot plays the part of its seat (the sample bots of the earlier controller, which
//! builds turrets from space 10, for `builder` and `army`).

use super::{Action, Stat, TowerDefense, TowerKind, Variant, SPACES};
use crate::game::{Bot, Game};
use crate::rng::Rng;
use crate::seat::Seat;

/// The names `Roster::bot` accepts, the default opponent first.
pub const NAMES: &[&str] = &["strong", "random", "builder", "army"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Strong,
    Random,
    Builder,
    Army,
}

/// A built-in Tower Defense bot.
#[derive(Clone, Debug)]
pub struct TdBot {
    kind: Kind,
    rng: Rng,
    /// The sample builder's cursor and count.
    pos: u8,
    built: u32,
    started: bool,
}

impl TdBot {
    /// The bot named `name`, seeded with `seed`; `None` for a name not in the roster.
    pub fn new(name: &str, seed: u64) -> Option<TdBot> {
        let kind = match name {
            "strong" => Kind::Strong,
            "random" => Kind::Random,
            "builder" => Kind::Builder,
            "army" => Kind::Army,
            _ => return None,
        };
        Some(TdBot {
            kind,
            rng: Rng::stream(seed, b"tower-defense bot"),
            pos: 0,
            built: 0,
            started: false,
        })
    }
}

/// Turns a copy of the state into the state as the reference controller showed it to its bots:
/// boards moved, income paid. (The callers copy the state into their own frame, `*game`, and
/// step that copy in place: returned from here, it was held twice.)
fn controller_view(view: &mut TowerDefense) {
    view.step(&[Action::Pass, Action::Pass]);
}

impl Bot<TowerDefense> for TdBot {
    fn act(&mut self, view: &crate::view::Open<'_, TowerDefense>) -> Action {
        let (game, seat) = (view.state(), view.seat());
        let siege = game.variant() == Variant::Siege;
        if !self.started {
            self.started = true;
            self.pos = if siege { 10 } else { 30 };
        }
        let invader_role = siege && game.attacked_board(seat).is_some();
        let defender_role = siege && !invader_role;
        match self.kind {
            Kind::Random => self.random(game, seat),
            Kind::Builder if !invader_role => self.builder(game, seat),
            Kind::Army if !defender_role => army(game, seat),
            Kind::Builder => army(game, seat),
            Kind::Army => self.builder(game, seat),
            Kind::Strong => super::strong::act(&mut self.rng, game, seat),
        }
    }
}

impl TdBot {
    /// The controller's `simpleTurretBuilder`: build 100 towers in a row, then upgrade power round
    /// the path. Duel: from space 30, a bomb at 32 and stunners where `pos % 3 == 1` (not 31);
    /// Siege: turrets only, from space 10.
    fn builder(&mut self, game: &TowerDefense, seat: Seat) -> Action {
        let mut view = *game;
        controller_view(&mut view);
        let pos = self.pos;
        if self.built < 100 {
            if view.gold(seat) < view.build_cost(seat) {
                return Action::Pass;
            }
            let kind = if game.variant() == Variant::Siege {
                TowerKind::Turret
            } else if pos == 32 {
                TowerKind::Bomb
            } else if pos % 3 == 1 && pos != 31 {
                TowerKind::Stunner
            } else {
                TowerKind::Turret
            };
            self.pos = next_space(pos);
            self.built = self.built.saturating_add(1);
            if self.built == 100 {
                self.pos = 0;
            }
            Action::Build {
                kind: Some(kind),
                pos: pos as i64,
            }
        } else {
            if view.gold(seat) < view.upgrade_cost(seat) {
                return Action::Pass;
            }
            self.pos = next_space(pos);
            Action::Upgrade {
                pos: pos as i64,
                stat: Some(Stat::Power),
            }
        }
    }

    /// Random actions, a fair share of them invalid (off the path, unaffordable, over the limit).
    fn random(&mut self, game: &TowerDefense, seat: Seat) -> Action {
        let r = &mut self.rng;
        if r.chance(1, 3) {
            return Action::Pass;
        }
        let siege = game.variant() == Variant::Siege;
        let spawn = if siege {
            game.attacked_board(seat).is_some()
        } else {
            r.chance(1, 2)
        };
        let boost = game.boost_max(seat) as i32;
        if spawn {
            let hp = r.range(0, boost.saturating_add(2)) as i64;
            let rest = (boost as i64).saturating_sub(hp).max(0) as i32;
            let defense = r.range(0, rest / 2) as i64;
            let stun_res = r.range(0, rest / 3) as i64;
            return Action::Spawn {
                hp,
                defense,
                stun_res,
            };
        }
        let pos = r.range(0, 104) as i64;
        match r.below(10) {
            0..=5 => {
                let kind = TowerKind::ALL.get(r.below(3) as usize).copied();
                Action::Build { kind, pos }
            }
            6..=8 => {
                let stat = if r.chance(2, 3) {
                    Stat::Power
                } else {
                    Stat::Range
                };
                Action::Upgrade {
                    pos,
                    stat: Some(stat),
                }
            }
            _ => Action::Destroy { pos },
        }
    }
}

/// The controller's `simpleInvaderArmy`. Duel: three towers and two upgrades on turns 1 to 13, then
/// an invader with every boost in HP whenever it can pay for one. Siege: the spawning part only.
fn army(game: &TowerDefense, seat: Seat) -> Action {
    let mut view = *game;
    controller_view(&mut view);
    if game.variant() == Variant::Duel {
        let first = [
            Action::Build {
                kind: Some(TowerKind::Turret),
                pos: 30,
            },
            Action::Build {
                kind: Some(TowerKind::Turret),
                pos: 32,
            },
            Action::Build {
                kind: Some(TowerKind::Stunner),
                pos: 31,
            },
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Upgrade {
                pos: 30,
                stat: Some(Stat::Power),
            },
            Action::Upgrade {
                pos: 32,
                stat: Some(Stat::Power),
            },
        ];
        let t = view.turn() as usize;
        if let Some(&action) = t.checked_sub(1).and_then(|i| first.get(i)) {
            return action;
        }
    }
    let boost = view.boost_max(seat);
    if view.gold(seat) >= (boost as u64).saturating_add(10) {
        Action::Spawn {
            hp: boost as i64,
            defense: 0,
            stun_res: 0,
        }
    } else {
        Action::Pass
    }
}

/// The space after `pos`, back to 0 past the end of the path.
fn next_space(pos: u8) -> u8 {
    pos.checked_add(1)
        .filter(|&p| (p as usize) < SPACES)
        .unwrap_or(0)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A state of `variant` at its start where both seats have `gold`.
    fn with_gold(variant: Variant, gold: u32) -> TowerDefense {
        let mut g = TowerDefense::rebuilt(variant, 0);
        match variant {
            Variant::Duel => {
                let mut players = *g.players().unwrap();
                players.iter_mut().for_each(|p| p.gold = gold);
                assert!(g.set_players(players));
            }
            Variant::Siege => {
                let (mut a, mut d) = g.siege().map(|(a, d)| (*a, *d)).unwrap();
                a.gold = gold as u64;
                d.gold = gold as u64;
                assert!(g.set_siege(a, d));
            }
        }
        g
    }

    /// The builder's next `n` actions for `seat` on the unchanging state `g`.
    fn builder_acts(
        bot: &mut TdBot,
        g: &TowerDefense,
        seat: Seat,
        n: usize,
    ) -> heapless::Vec<Action, 256> {
        (0..n).map(|_| bot.act(&g.view(seat))).collect()
    }

    #[test]
    fn builder_builds_100_towers_round_the_path_then_upgrades_power_round_it() {
        // The reference controller's `simpleTurretBuilder` (a7bce42): build from space 30,
        // `pos = (pos + 1) % 100`, a bomb on 32, a stunner where `pos % 3 == 1` but not on 31,
        // else a turret; after the 100th build, upgrade power from space 0 round the path,
        // each only when the gold covers the cost (else nothing: a pass).
        let g = with_gold(Variant::Duel, 1_000_000);
        let mut bot = TdBot::new("builder", 3).unwrap();
        let acts = builder_acts(&mut bot, &g, 0, 250);
        for (i, a) in acts.iter().enumerate() {
            let want = if i < 100 {
                let pos = (30 + i) % 100;
                let kind = if pos == 32 {
                    TowerKind::Bomb
                } else if pos % 3 == 1 && pos != 31 {
                    TowerKind::Stunner
                } else {
                    TowerKind::Turret
                };
                Action::Build {
                    kind: Some(kind),
                    pos: pos as i64,
                }
            } else {
                Action::Upgrade {
                    pos: ((i - 100) % 100) as i64,
                    stat: Some(Stat::Power),
                }
            };
            assert_eq!(*a, want, "action {i}");
        }
        // Siege's defender (the earlier controller): turrets only, from space 10.
        let g = with_gold(Variant::Siege, 1_000_000);
        let mut bot = TdBot::new("builder", 3).unwrap();
        let acts = builder_acts(&mut bot, &g, 1, 102);
        for (i, a) in acts.iter().enumerate() {
            let want = if i < 100 {
                Action::Build {
                    kind: Some(TowerKind::Turret),
                    pos: ((10 + i) % 100) as i64,
                }
            } else {
                Action::Upgrade {
                    pos: (i - 100) as i64,
                    stat: Some(Stat::Power),
                }
            };
            assert_eq!(*a, want, "siege action {i}");
        }
    }

    #[test]
    fn builder_passes_while_it_cannot_pay_and_does_not_move_on() {
        // 49 gold: a Duel tower costs 50, so the builder passes and, once paid, builds on the
        // space it was waiting for; the same for an upgrade (75) after its 100 builds.
        let poor = with_gold(Variant::Duel, 49);
        let rich = with_gold(Variant::Duel, 1_000_000);
        assert_eq!(poor.build_cost(0), 50);
        let mut bot = TdBot::new("builder", 0).unwrap();
        assert_eq!(bot.act(&poor.view(0)), Action::Pass);
        assert_eq!(
            bot.act(&rich.view(0)),
            Action::Build {
                kind: Some(TowerKind::Turret),
                pos: 30
            }
        );
        assert_eq!(bot.act(&poor.view(0)), Action::Pass);
        // Exactly the cost is enough.
        assert_eq!(
            bot.act(&with_gold(Variant::Duel, 50).view(0)),
            Action::Build {
                kind: Some(TowerKind::Turret),
                pos: 31
            }
        );
        builder_acts(&mut bot, &rich, 0, 98);
        let short = with_gold(Variant::Duel, 74);
        assert_eq!(rich.upgrade_cost(0), 75);
        assert_eq!(bot.act(&short.view(0)), Action::Pass);
        for pos in [0, 1] {
            assert_eq!(
                bot.act(&with_gold(Variant::Duel, 75).view(0)),
                Action::Upgrade {
                    pos,
                    stat: Some(Stat::Power)
                }
            );
        }
        assert_eq!(bot.act(&short.view(0)), Action::Pass);
    }

    #[test]
    fn next_space_goes_round_the_path() {
        assert_eq!(next_space(0), 1);
        assert_eq!(next_space(98), 99);
        assert_eq!(next_space(99), 0);
        assert_eq!(next_space(u8::MAX), 0);
    }
}
