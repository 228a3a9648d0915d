//! Tower Defense: the cost of one Duel turn on crowded boards, and of a whole 100,000-turn game.
//!
//! The reference controller takes about 9.1 us a turn; the goal is 30 times less (303 ns).

use arena_core::games::tower_defense::{Action, Params, TowerDefense, TowerKind, SPACES};
use arena_core::Game;
use arena_host::games::tower_defense::json::action_from_json;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;

/// Both seats build a tower on every space, then pour invaders in as fast as gold allows (HP
/// only, so the towers kill them slowly). Returns the most crowded state seen: towers on every
/// space of both boards and invaders on most of them.
fn crowded_boards() -> TowerDefense {
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

fn golden_actions() -> Vec<[Action; 2]> {
    let path = arena_tests::golden("tower-defense").join("builder-army-full.jsonl");
    let text = std::fs::read_to_string(&path).expect("golden trace");
    text.lines()
        .skip(2)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            let a = v["actions"].as_array().expect("actions");
            [action_from_json(&a[0]), action_from_json(&a[1])]
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let crowded = crowded_boards();
    let counts: Vec<(usize, usize)> = (0..2)
        .map(|b| (crowded.towers(b).count(), crowded.invaders(b).count()))
        .collect();
    println!(
        "crowded boards at turn {}: (towers, invaders) per board {counts:?}",
        crowded.turn()
    );
    c.bench_function("tower_defense/duel_turn_crowded", |b| {
        b.iter_batched_ref(
            || crowded,
            |g| black_box(g.step(black_box(&[Action::Pass, Action::Pass]))),
            BatchSize::SmallInput,
        )
    });

    let actions = golden_actions();
    let mut group = c.benchmark_group("tower_defense");
    group.throughput(Throughput::Elements(actions.len() as u64));
    group.sample_size(10);
    group.bench_function("builder_army_full_game", |b| {
        b.iter(|| {
            let mut g = TowerDefense::new(&Params::default(), 1).expect("setup");
            for a in &actions {
                g.step(black_box(a));
            }
            black_box(g.digest())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
