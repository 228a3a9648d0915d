//! Criterion benchmarks live in `benches/benches/`; this library holds the set-ups they share with
//! the profiling example (`examples/profile.rs`), so both measure the same work.

use arena_core::games::ants::{Ants, Order};
use arena_core::games::tower_defense::{Action, Params, TowerDefense, TowerKind, SPACES};
use arena_core::{Game, SeatSet};

/// Plays `game` (set up already) to its end with the recorded `orders`: by turn (`orders[t]` for
/// turn `t`, from 1), then by player. A player with none recorded gives none.
pub fn replay_ants_orders(game: &mut Ants, orders: &[Vec<Vec<Order>>]) {
    while !game.is_finished() {
        let t = game.current_turn() as usize + 1;
        let slices: Vec<&[Order]> = (0..game.players())
            .map(|p| {
                orders
                    .get(t)
                    .and_then(|o| o.get(p))
                    .map_or(&[][..], Vec::as_slice)
            })
            .collect();
        game.play_turn(&slices, SeatSet::EMPTY, |_, _, _| {});
    }
}

/// Both seats build a tower on every space, then pour invaders in as fast as gold allows (HP
/// only, so the towers kill them slowly). Returns the most crowded state seen: towers on every
/// space of both boards and invaders on most of them.
pub fn crowded_tower_defense() -> TowerDefense {
    let mut g = TowerDefense::new(&Params::default(), 0).expect("setup");
    let mut best = g;
    let mut best_count = 0;
    let kinds = [TowerKind::Turret, TowerKind::Stunner, TowerKind::Bomb];
    while !g.is_over() {
        let actions: [Action; 2] = [0, 1].map(|seat| {
            let defended = 1 - seat;
            let free = (0..SPACES).find(|&p| g.tower(defended, p).is_none());
            if let Some(p) = free {
                if g.gold(seat) >= g.build_cost(seat) {
                    return Action::Build {
                        kind: kinds.get(p % 3).copied(),
                        pos: p as i64,
                    };
                }
                return Action::Pass;
            }
            let hp = g.boost_max(seat).min(300) as u64;
            if g.gold(seat) >= 10 + hp {
                Action::Spawn {
                    hp: hp as i64,
                    defense: 0,
                    stun_res: 0,
                }
            } else {
                Action::Pass
            }
        });
        g.step(&actions);
        let crowd = g.invaders(0).count().min(g.invaders(1).count());
        if crowd > best_count {
            best_count = crowd;
            best = g;
        }
    }
    best
}
