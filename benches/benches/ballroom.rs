//! Ballroom Blitz: a full game (handshake + 400 phases) with the built-in bots, and one phase.

use arena_core::games::ballroom::{Ballroom, Params};
use arena_core::{step_with_bots, Game, Roster};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn play(lineup: [&str; 4], seed: u64) -> u64 {
    let mut bots: Vec<_> = (0..4)
        .map(|s| Ballroom::bot(lineup[s], seed * 4 + s as u64).expect("built-in bot"))
        .collect();
    let mut game = Ballroom::new(&Params::default(), seed).expect("default params");
    while !game.is_over() {
        step_with_bots(&mut game, &mut bots);
    }
    game.digest()
}

fn full_game(c: &mut Criterion) {
    let mut g = c.benchmark_group("ballroom");
    g.bench_function("full_game/strong-holder-random-random", |b| {
        b.iter(|| {
            play(
                black_box(["strong", "holder", "random", "random"]),
                black_box(1),
            )
        })
    });
    g.bench_function("full_game/random-x4", |b| {
        b.iter(|| play(black_box(["random"; 4]), black_box(1)))
    });
    g.finish();
}

criterion_group!(benches, full_game);
criterion_main!(benches);
