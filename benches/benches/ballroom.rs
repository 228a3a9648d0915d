//! Ballroom Blitz: a full game (handshake + 400 phases) with the built-in bots, and the rules alone
//! re-simulating golden logs of the official engine.
//!
//! The re-simulation is what the official `GameState` does in `../shared/ref/ballroom/ReplayCheck.java
//! --repeat N` ("rules only"): start from the logged classes, then every turn's USE, MOVE, ATTACK and
//! BUY actions. The log is read into per-phase actions before the timing (here, with serde_json; no
//! host code), and the setup replays it once and checks every end-of-turn player state against the
//! log, so the timed loop is known to play the logged game.

use arena_core::games::ballroom::{Action, Ballroom, Class, Item, Params, Ruleset, PLAYERS};
use arena_core::{step_with_bots, Game, Roster};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
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

/// A golden log as the rules replay it: the starting classes and one action per seat per phase.
struct Recorded {
    params: Params,
    phases: Vec<[Action; PLAYERS]>,
}

fn int(v: &Value, key: &str) -> i32 {
    v[key].as_i64().expect("an integer field") as i32
}

/// One logged action of `seat` for the phase whose log key is `key`.
fn action(key: &str, a: &Value, seat: usize) -> Action {
    assert_eq!(
        int(a, "executor"),
        seat as i32,
        "a bot acts for its own seat"
    );
    match key {
        "use_actions" => Action::Use(a["use"].as_bool().unwrap_or(false)),
        "move_actions" => Action::Move {
            x: int(&a["destination"], "x"),
            y: int(&a["destination"], "y"),
        },
        "attack_actions" => Action::Attack {
            target: int(a, "target"),
        },
        _ => Action::Buy(Item::from_name(a["item"].as_str().expect("item")).expect("an item")),
    }
}

/// Reads a golden log into per-phase actions and checks, by replaying it once, that the rules
/// reach every logged end-of-turn state (position, health, gold, score, item).
fn recorded(name: &str) -> Recorded {
    let path = arena_tests::golden("ballroom").join(format!("{name}.json"));
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("golden log")).expect("JSON");
    let turns = log["turns"].as_array().expect("turns");
    let class = |seat: usize| {
        Class::from_name(turns[0]["player_states"][seat]["class"].as_str().unwrap()).unwrap()
    };
    let params = Params {
        ruleset: Ruleset::Engine,
        classes: Some(std::array::from_fn(class)),
    };
    let mut game = Ballroom::new(&params, 0).expect("setup");
    let mut phases = Vec::new();
    for entry in &turns[1..] {
        let states = &entry["player_states"];
        for key in [
            "use_actions",
            "move_actions",
            "attack_actions",
            "buy_actions",
        ] {
            let mut acts: [Action; PLAYERS] =
                std::array::from_fn(|seat| action(key, &entry[key][seat], seat));
            // A bot the engine dropped this turn: a `null` reply in BUY (as `arena verify` does).
            for (seat, a) in acts.iter_mut().enumerate() {
                let quits = states[seat]["isActive"] == Value::Bool(false);
                if key == "buy_actions" && quits && game.players()[seat].active {
                    *a = Action::Null;
                }
            }
            game.step(&acts);
            phases.push(acts);
        }
        for (seat, p) in game.players().iter().enumerate() {
            let s = &states[seat];
            let got = (
                p.pos.x as i64,
                p.pos.y as i64,
                p.health as i64,
                p.gold,
                p.score,
            );
            let want = (
                s["position"]["x"].as_i64().unwrap(),
                s["position"]["y"].as_i64().unwrap(),
                s["health"].as_i64().unwrap(),
                s["gold"].as_u64().unwrap() as u16,
                s["score"].as_u64().unwrap() as u16,
            );
            assert_eq!(got, want, "{name}, turn {}, player {seat}", entry["turn"]);
            assert_eq!(p.item.name(), s["item"].as_str().unwrap());
        }
    }
    assert!(game.is_over(), "{name}: the log is a whole game");
    Recorded { params, phases }
}

/// The rules alone: set up from the logged classes, then the 400 logged phases.
fn resimulate(r: &Recorded) -> u64 {
    let mut game = Ballroom::new(&r.params, 0).expect("setup");
    for acts in &r.phases {
        game.step(black_box(acts));
    }
    game.digest()
}

fn golden_logs(c: &mut Criterion) {
    let mut g = c.benchmark_group("ballroom");
    for name in ["seed1", "pystarter"] {
        let r = recorded(name);
        g.throughput(Throughput::Elements(1));
        g.bench_function(format!("resimulate_{name}"), |b| {
            b.iter(|| black_box(resimulate(&r)))
        });
    }
    // Every golden log, one after the other: the figure is per game.
    let all: Vec<Recorded> = (1..=15)
        .map(|s| format!("seed{s}"))
        .chain(["pystarter".to_string(), "scen_camper_quit".to_string()])
        .map(|n| recorded(&n))
        .collect();
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("resimulate_all_17_logs", |b| {
        b.iter(|| all.iter().map(resimulate).fold(0u64, |a, d| a ^ d))
    });
    g.finish();
}

criterion_group!(benches, full_game, golden_logs);
criterion_main!(benches);
