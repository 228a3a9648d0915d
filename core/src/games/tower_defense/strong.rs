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
}
