//! The `strong` bot: defend in proportion to the threat, attack with every coin left over.
//!
//! Defence sits at the end of the path the opponent's invaders walk (spaces 90 to 99): every invader
//! must pass it, and it is the last place they reach, so towers have time to be built after the
//! threat shows. A stunner in the middle holds invaders in the turrets' reach. The bot builds or
//! upgrades only while the opponent's invaders on the path (and its gold, which becomes invaders)
//! outweigh the firepower already standing.
//!
//! Attack: each invader gets the stun resistance that makes the strongest stunner on its path
//! harmless and the defence that cuts the strongest turret or bomb to 1 damage a hit, when the boost
//! limit allows; the rest of the boost goes to hit points, the cheapest stat (1 gold a point).
//! In Siege the bot only plays its seat's half. One attack turn in sixteen (drawn from its seeded stream)
//! it waits, so that its games differ from seed to seed.

use super::{Action, Stat, TowerDefense, TowerKind, SPACES};
use crate::rng::Rng;
use crate::seat::Seat;

/// Where the defence goes, in build order.
const LAYOUT: [(u8, TowerKind); 10] = [
    (97, TowerKind::Turret),
    (98, TowerKind::Stunner),
    (99, TowerKind::Turret),
    (96, TowerKind::Turret),
    (95, TowerKind::Stunner),
    (94, TowerKind::Turret),
    (93, TowerKind::Turret),
    (92, TowerKind::Stunner),
    (91, TowerKind::Turret),
    (90, TowerKind::Turret),
];

pub fn act(rng: &mut Rng, game: &TowerDefense, seat: Seat) -> Action {
    let defend = game
        .defended_board(seat)
        .and_then(|b| defence(game, seat, b));
    if let Some(a) = defend {
        return a;
    }
    // Now and then it lets a turn go by, so that its games differ from seed to seed.
    if rng.chance(1, 16) {
        return Action::Pass;
    }
    match game.attacked_board(seat) {
        Some(b) => attack(game, seat, b),
        None => Action::Pass,
    }
}

/// Total hit points of the invaders on `board`, weighted up the closer they are to the end.
fn threat(game: &TowerDefense, board: usize) -> u64 {
    game.invaders(board)
        .map(|v| {
            (v.hp as u64)
                .saturating_mul((v.defense as u64).saturating_add(1))
                .saturating_mul((v.pos as u64).saturating_add(100))
                / 100
        })
        .fold(0, u64::saturating_add)
}

/// Damage the towers on `board` can deal to a passing invader, roughly.
fn firepower(game: &TowerDefense, board: usize) -> u64 {
    game.towers(board)
        .map(|t| match t.kind {
            TowerKind::Turret => (t.power as u64)
                .saturating_mul((t.range as u64).saturating_mul(2).saturating_add(1)),
            TowerKind::Bomb => (t.power as u64).saturating_mul(2),
            TowerKind::Stunner => (t.power as u64).saturating_mul(3),
        })
        .fold(0, u64::saturating_add)
}

fn defence(game: &TowerDefense, seat: Seat, board: usize) -> Option<Action> {
    let gold = game.gold(seat);
    let enemy = usize::from(seat == 0);
    let enemy_gold = if game.attacked_board(enemy).is_some() {
        game.gold(enemy)
    } else {
        0
    };
    let need = threat(game, board).saturating_add(enemy_gold / 4);
    let have = firepower(game, board);
    // In u128 both products are exact.
    if need == 0 || (have as u128).saturating_mul(3) >= (need as u128).saturating_mul(2) {
        return None;
    }
    // Build the next tower of the layout, else upgrade the weakest turret.
    let free = LAYOUT
        .iter()
        .find(|(p, _)| game.tower(board, *p as usize).is_none());
    let upgrade_target = game
        .towers(board)
        .filter(|t| t.kind == TowerKind::Turret)
        .min_by_key(|t| (t.power, SPACES.saturating_sub(t.pos as usize)));
    let build_cost = game.build_cost(seat);
    let upgrade_cost = game.upgrade_cost(seat);
    match (free, upgrade_target) {
        (Some(&(p, kind)), _)
            if build_cost <= upgrade_cost.saturating_mul(2) || upgrade_target.is_none() =>
        {
            (gold >= build_cost).then_some(Action::Build {
                kind: Some(kind),
                pos: p as i64,
            })
        }
        (_, Some(t)) => (gold >= upgrade_cost).then_some(Action::Upgrade {
            pos: t.pos as i64,
            stat: Some(Stat::Power),
        }),
        _ => None,
    }
}

fn attack(game: &TowerDefense, seat: Seat, board: usize) -> Action {
    if game.invader(board, 0).is_some() {
        return Action::Pass;
    }
    let boost = game.boost_max(seat) as u64;
    let mut hit = 0u64;
    let mut stun = 0u64;
    for t in game.towers(board) {
        match t.kind {
            TowerKind::Stunner => stun = stun.max(t.power as u64),
            _ => hit = hit.max(t.power as u64),
        }
    }
    let mut left = boost;
    let res = if stun <= left / 2 { stun } else { 0 };
    left = left.saturating_sub(res);
    let def = hit.saturating_sub(1);
    let def = if def <= left / 2 { def } else { 0 };
    left = left.saturating_sub(def);
    let cost = res
        .saturating_add(def)
        .saturating_mul(10)
        .saturating_add(left)
        .saturating_add(10);
    if game.gold(seat) < cost {
        return Action::Pass;
    }
    Action::Spawn {
        hp: left as i64,
        defense: def as i64,
        stun_res: res as i64,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::games::tower_defense::{duel, InvaderView, TowerView, Variant};

    /// A Duel at its start where seat 0 (defending board 1) has `gold` and seat 1 none.
    fn duel_with_gold(gold: u32) -> TowerDefense {
        let mut g = TowerDefense::rebuilt(Variant::Duel, 0);
        let mut players = *g.players().unwrap();
        players[0].gold = gold;
        players[1].gold = 0;
        assert!(g.set_players(players));
        g
    }

    #[test]
    fn defence_builds_only_while_the_threat_outweighs_the_firepower() {
        let mut g = duel_with_gold(1000);
        assert!(g.build_cost(0) <= 1000);
        // No invader and no enemy gold: no threat, nothing to build.
        assert_eq!(defence(&g, 0, 1), None);
        // A 1-hp invader on space 0: threat 1 * 1 * 100 / 100 = 1, no firepower: it builds the
        // layout's first tower.
        let weak = InvaderView {
            pos: 0,
            hp: 1,
            maxhp: 1,
            defense: 0,
            stun_res: 0,
            stun_time: 0,
        };
        assert!(g.put_invader(1, &weak));
        assert_eq!(threat(&g, 1), 1);
        assert_eq!(
            defence(&g, 0, 1),
            Some(Action::Build {
                kind: Some(TowerKind::Turret),
                pos: 97,
            })
        );
        // A turret on 97 outweighs it (3 * firepower >= 2 * threat): nothing more, although
        // gold and free layout spaces are left.
        let (power, range) = duel::RULES.base(TowerKind::Turret);
        let turret = TowerView {
            pos: 97,
            kind: TowerKind::Turret,
            level: duel::RULES.base_level,
            power,
            range,
            cooldown: 0,
            invested: 50,
        };
        assert!(g.put_tower(1, &turret));
        assert!(firepower(&g, 1) >= 1);
        assert_eq!(defence(&g, 0, 1), None);
    }

    /// A Duel tower of `kind` on `pos` with `power` (its range the kind's first), ready.
    fn standing(pos: u8, kind: TowerKind, power: u16) -> TowerView {
        let (base_power, range) = duel::RULES.base(kind);
        TowerView {
            pos,
            kind,
            level: duel::RULES.base_level + u32::from(power - base_power),
            power,
            range,
            cooldown: 0,
            invested: 50,
        }
    }

    #[test]
    fn defence_counts_a_quarter_of_the_enemys_gold_as_threat() {
        // No invader on the path, but the enemy holds 400 gold, invaders to come: a need of
        // 100, which nothing standing meets: it builds the layout's first tower.
        let mut g = duel_with_gold(1000);
        let mut players = *g.players().unwrap();
        players[1].gold = 400;
        assert!(g.set_players(players));
        assert_eq!(
            defence(&g, 0, 1),
            Some(Action::Build {
                kind: Some(TowerKind::Turret),
                pos: 97,
            })
        );
        // A turret of power 34 (firepower 34 * 3 = 102; 3 * 102 >= 2 * 100) meets it.
        assert!(g.put_tower(1, &standing(97, TowerKind::Turret, 34)));
        assert_eq!(firepower(&g, 1), 102);
        assert_eq!(defence(&g, 0, 1), None);
    }

    #[test]
    fn with_the_layout_built_defence_upgrades_the_weakest_turret_nearest_the_end() {
        // Every space of the layout holds its tower; the turrets on 96 and 91 have power 1,
        // the others 2, the stunners 3. A strong invader comes: the bot upgrades the power of
        // the weakest turret, the one nearer the end of the path of the two (96), if it can
        // pay for it (75 gold), else it does nothing.
        let mut g = duel_with_gold(1000);
        for (pos, kind) in LAYOUT {
            let power = match (pos, kind) {
                (_, TowerKind::Stunner) => 3,
                (96 | 91, _) => 1,
                _ => 2,
            };
            assert!(g.put_tower(1, &standing(pos, kind, power)));
        }
        let strong = InvaderView {
            pos: 0,
            hp: 1000,
            maxhp: 1000,
            defense: 0,
            stun_res: 0,
            stun_time: 0,
        };
        assert!(g.put_invader(1, &strong));
        assert_eq!(g.upgrade_cost(0), 75);
        assert_eq!(
            defence(&g, 0, 1),
            Some(Action::Upgrade {
                pos: 96,
                stat: Some(Stat::Power),
            })
        );
        let mut players = *g.players().unwrap();
        players[0].gold = 75;
        assert!(g.set_players(players));
        assert!(defence(&g, 0, 1).is_some(), "exactly the cost");
        players[0].gold = 74;
        assert!(g.set_players(players));
        assert_eq!(defence(&g, 0, 1), None);
    }

    #[test]
    fn attack_buys_the_resistance_and_defence_that_blunt_the_strongest_towers_then_hit_points() {
        // The module's docs: stun resistance equal to the strongest stunner's power and defence
        // one below the strongest turret's or bomb's, each only if it takes at most half of
        // the boost left; the rest in hit points; paid `10 * (res + def) + hp + 10`, else pass.
        let spawn = |hp, defense, stun_res| Action::Spawn {
            hp,
            defense,
            stun_res,
        };
        // (boost, stunner power, turret power) -> the spawn.
        for (boost, stun, hit, want) in [
            (20, 8, 5, spawn(8, 4, 8)),
            (20, 10, 5, spawn(6, 4, 10)),
            (20, 11, 5, spawn(16, 4, 0)),
            (20, 15, 5, spawn(16, 4, 0)),
            (20, 0, 11, spawn(10, 10, 0)),
            (20, 0, 12, spawn(20, 0, 0)),
            (20, 0, 15, spawn(20, 0, 0)),
            (21, 0, 11, spawn(11, 10, 0)),
            (21, 10, 0, spawn(11, 0, 10)),
            (21, 11, 0, spawn(21, 0, 0)),
        ] {
            let mut g = duel_with_gold(1_000_000);
            let mut players = *g.players().unwrap();
            players[0].boost_max = boost;
            assert!(g.set_players(players));
            if stun > 0 {
                assert!(g.put_tower(0, &standing(40, TowerKind::Stunner, stun)));
            }
            if hit > 0 {
                assert!(g.put_tower(0, &standing(41, TowerKind::Turret, hit)));
            }
            assert_eq!(
                attack(&g, 0, 0),
                want,
                "boost {boost}, stunner {stun}, turret {hit}"
            );
        }
        // Paid only with enough gold: 10 * (8 + 4) + 8 + 10 = 138.
        for (gold, want) in [(138, spawn(8, 4, 8)), (137, Action::Pass)] {
            let mut g = duel_with_gold(gold);
            let mut players = *g.players().unwrap();
            players[0].boost_max = 20;
            assert!(g.set_players(players));
            assert!(g.put_tower(0, &standing(40, TowerKind::Stunner, 8)));
            assert!(g.put_tower(0, &standing(41, TowerKind::Turret, 5)));
            assert_eq!(attack(&g, 0, 0), want, "gold {gold}");
        }
    }
}
