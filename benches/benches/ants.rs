//! Ants: one turn on a mid-size map with hundreds of ants, and full re-simulations of the official
//! engine's golden games (the official engine takes about 0.95 s for rw04p_mixed_s5's 278 turns).

use arena_core::games::ants::bots::AntsBot;
use arena_core::games::ants::{Ants, AntsMap, AntsParams, Draw, Order};
use arena_core::{Bot, Game, Roster, SeatSet};
use arena_host::games::ants::{orders_from_replay, params_from_replay};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use std::path::PathBuf;

fn golden() -> PathBuf {
    arena_tests::golden("ants")
}

/// The 4-player multi-hill maze (120 x 120), with a rich food rate, after `turns` turns of `strong` bots, and the orders they give next.
fn midgame(turns: u32) -> (Box<Ants>, Vec<Vec<Order>>) {
    let text = std::fs::read_to_string(golden().join("maps/multi_hill_maze_04p_02.map")).unwrap();
    let mut params = AntsParams::new(AntsMap::parse(&text).unwrap(), 1000);
    // A rich food rate (about 6 food a turn instead of 1) to reach hundreds of ants.
    params.food_rate = Draw::Fixed(30);
    params.food_turn = Draw::Fixed(19);
    let mut game = Box::new(Ants::blank());
    game.init(&params, 1).unwrap();
    let n = game.players();
    let mut bots: Vec<AntsBot> = (0..n)
        .map(|p| <Ants as Roster>::bot("strong", p as u64).unwrap())
        .collect();
    let act = |game: &Ants, bots: &mut Vec<AntsBot>| -> Vec<Vec<Order>> {
        bots.iter_mut()
            .enumerate()
            .map(|(p, b)| b.act(&game.view(p)).to_vec())
            .collect()
    };
    for _ in 0..turns {
        let orders = act(&game, &mut bots);
        let slices: Vec<&[Order]> = orders.iter().map(Vec::as_slice).collect();
        game.play_turn(&slices, SeatSet::EMPTY, |_, _, _| {});
    }
    let orders = act(&game, &mut bots);
    (game, orders)
}

fn bench_turn(c: &mut Criterion) {
    let (game, orders) = midgame(200);
    eprintln!(
        "ants midgame: {}x{} map, {} ants, {} food, turn {}",
        game.rows(),
        game.cols(),
        game.ants().len(),
        game.food().len(),
        game.current_turn()
    );
    let slices: Vec<&[Order]> = orders.iter().map(Vec::as_slice).collect();
    c.bench_function("ants/turn_multi_hill_maze_04p", |b| {
        b.iter_batched_ref(
            || game.clone(),
            |g| black_box(g.play_turn(&slices, SeatSet::EMPTY, |_, _, _| {})),
            BatchSize::LargeInput,
        )
    });
}

fn bench_golden(c: &mut Criterion) {
    for name in [
        "rw04p_mixed_s5",
        "tut_hunter_greedy_s7",
        "cm06_lefty_hunter_s3",
        "maze03p_s9",
    ] {
        let dir = golden().join(name);
        let replay: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("replay.json")).unwrap())
                .unwrap();
        let map = std::fs::read_to_string(dir.join("map.map")).unwrap();
        let (params, seed) = params_from_replay(&replay, &map).unwrap();
        let orders =
            orders_from_replay(&replay, params.map.rows as i32, params.map.cols as i32).unwrap();
        let mut game = Box::new(Ants::blank());
        c.bench_function(&format!("ants/setup_{name}"), |b| {
            b.iter(|| {
                game.init(&params, seed).unwrap();
                black_box(game.food().len())
            })
        });
        c.bench_function(&format!("ants/resimulate_{name}"), |b| {
            b.iter(|| {
                game.init(&params, seed).unwrap();
                arena_benches::replay_ants_orders(&mut game, &orders);
                black_box(game.current_turn())
            })
        });
        if game.current_turn() > 0 {
            eprintln!("{name}: {} turns", game.current_turn());
        }
    }
}

criterion_group!(benches, bench_turn, bench_golden);
criterion_main!(benches);
