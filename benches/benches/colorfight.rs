//! ColorFight: ticks per second of an 8-player 30 x 30 Conquest game played by the built-in bots
//! (seats cycle through strategist, expander, random), and of the rules alone with every seat
//! passing, to separate the cost of the rules from the cost of the bots.

use arena_core::games::colorfight::{Action, ColorFight, ColorFightBot, Params};
use arena_core::{step_with_bots, Game, Roster};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;

const TICKS: u64 = 1000;

fn params() -> Params {
    Params {
        players: 8,
        ..Params::default()
    }
}

fn setup(seed: u64) -> (ColorFight, Vec<ColorFightBot>) {
    let game = ColorFight::new(&params(), seed).expect("default params are valid");
    let bots = (0..8)
        .map(|s| {
            let name = ColorFight::BOTS[s % ColorFight::BOTS.len()];
            ColorFight::bot(name, seed + s as u64).expect("roster names are valid")
        })
        .collect();
    (game, bots)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("colorfight");
    group.throughput(Throughput::Elements(TICKS));
    group.sample_size(10);
    group.bench_function("conquest_30x30_8p_bots_1000_ticks", |b| {
        b.iter_batched(
            || setup(1),
            |(mut game, mut bots)| {
                for _ in 0..TICKS {
                    step_with_bots(&mut game, &mut bots);
                }
                black_box(game.digest())
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("conquest_30x30_8p_rules_only_1000_ticks", |b| {
        b.iter_batched(
            || setup(1).0,
            |mut game| {
                let pass = [Action::Pass; 8];
                for _ in 0..TICKS {
                    game.step(&pass);
                }
                black_box(game.digest())
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
