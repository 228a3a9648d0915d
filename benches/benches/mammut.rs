//! Mammut: a full 5-round game, with the built-in bots deciding, and the rules alone re-playing a
//! recorded game.

use arena_core::games::mammut::{Action, Mammut, MammutBot, Params, PLAYERS};
use arena_core::{step_with_bots, Game, Roster};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;

const SEED: u64 = 2026;

fn bots(names: [&str; PLAYERS]) -> Vec<MammutBot> {
    names
        .iter()
        .enumerate()
        .map(|(s, n)| Mammut::bot(n, SEED + s as u64).expect("bot"))
        .collect()
}

fn play(names: [&str; PLAYERS]) -> Mammut {
    let mut g = Mammut::new(&Params, SEED).expect("setup");
    let mut b = bots(names);
    while !g.is_over() {
        step_with_bots(&mut g, &mut b);
    }
    g
}

/// The actions of a recorded game, as the step function receives them.
fn record(names: [&str; PLAYERS]) -> Vec<[Action; PLAYERS]> {
    let mut g = Mammut::new(&Params, SEED).expect("setup");
    let mut b = bots(names);
    let mut out = Vec::new();
    while let Some(seat) = g.mover() {
        let mut actions = [Action::Nothing; PLAYERS];
        actions[seat] = arena_core::Bot::act(&mut b[seat], &g.view(seat));
        g.step(&actions);
        out.push(actions);
    }
    out
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("mammut/game");
    for (name, table) in [
        ("random", ["random"; PLAYERS]),
        ("greedy", ["greedy"; PLAYERS]),
        ("cautious", ["cautious"; PLAYERS]),
        (
            "mixed",
            ["cautious", "greedy", "random", "cautious", "greedy"],
        ),
    ] {
        group.bench_function(name, |b| b.iter(|| black_box(play(black_box(table)))));
    }
    group.finish();

    let mixed = ["cautious", "greedy", "random", "cautious", "greedy"];
    let actions = record(mixed);
    let fresh = Mammut::new(&Params, SEED).expect("setup");
    c.bench_function("mammut/replay-rules-only", |b| {
        b.iter_batched(
            || fresh.clone(),
            |mut g| {
                for a in &actions {
                    g.step(black_box(a));
                }
                g
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, games);
criterion_main!(benches);
