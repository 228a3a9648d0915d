//! Tower Defense: the cost of one Duel turn on crowded boards, and of a whole 100,000-turn game.
//!
//! The controller's own figure, measured beside this one, is in docs/performance.md.

use arena_core::games::tower_defense::{Action, Params, TowerDefense};
use arena_core::Game;
use arena_host::games::tower_defense::json::action_from_json;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;

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
    let crowded = arena_benches::crowded_tower_defense();
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
