//! A fixed amount of a bench's work, for profilers that count instead of time (callgrind, perf
//! record): `cargo build --profile bench -p arena-benches --example profile`, then
//! `valgrind --tool=callgrind target/release/examples/profile WORK [REPEAT]` with WORK one of
//! `td-golden` (the golden game builder-army-full), `td-crowded` (100,000 turns on the crowded
//! boards of benches/tower_defense.rs, each from the same state), `ants-golden`
//! (re-simulating rw04p_mixed_s5), `ballroom-golden` (the rules re-simulating seed1's 400
//! phases, the actions read first). Setup is done once,
//! before the work; the work is repeated REPEAT times (default 1). Not a benchmark: criterion
//! measures time (`cargo bench`).

use arena_core::games::ants::Ants;
use arena_core::games::tower_defense::{Action, Params, TowerDefense};
use arena_core::Game;
use std::hint::black_box;

fn td_golden() -> Vec<[Action; 2]> {
    let path = arena_tests::golden("tower-defense").join("builder-army-full.jsonl");
    let text = std::fs::read_to_string(path).expect("golden trace");
    text.lines()
        .skip(2)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            let a = v["actions"].as_array().expect("actions");
            [
                arena_host::games::tower_defense::json::action_from_json(&a[0]),
                arena_host::games::tower_defense::json::action_from_json(&a[1]),
            ]
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let work = args.get(1).map(String::as_str).unwrap_or("td-golden");
    let repeat: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(1);
    match work {
        "td-golden" => {
            let actions = td_golden();
            for _ in 0..repeat {
                let mut g = TowerDefense::new(&Params::default(), 1).expect("setup");
                for a in &actions {
                    g.step(black_box(a));
                }
                black_box(g.digest());
            }
        }
        "td-crowded" => {
            let crowded = arena_benches::crowded_tower_defense();
            let mut g = crowded;
            for _ in 0..repeat.saturating_mul(100_000) {
                g.clone_from(&crowded);
                black_box(g.step(black_box(&[Action::Pass, Action::Pass])));
            }
        }
        "ants-golden" => {
            let dir = arena_tests::golden("ants").join("rw04p_mixed_s5");
            let replay: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.join("replay.json")).expect("replay"),
            )
            .expect("JSON");
            let map = std::fs::read_to_string(dir.join("map.map")).expect("map");
            let (params, seed) =
                arena_host::games::ants::params_from_replay(&replay, &map).expect("params");
            let orders = arena_host::games::ants::orders_from_replay(
                &replay,
                params.map.rows as i32,
                params.map.cols as i32,
            )
            .expect("orders");
            let mut game = Box::new(Ants::blank());
            for _ in 0..repeat {
                game.init(&params, seed).expect("setup");
                arena_benches::replay_ants_orders(&mut game, &orders);
                black_box(game.current_turn());
            }
        }
        "ballroom-golden" => {
            use arena_core::games::ballroom::{self as bb, Ballroom};
            let path = arena_tests::golden("ballroom").join("seed1.json");
            let log: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).expect("log")).expect("JSON");
            let turns = log["turns"].as_array().expect("turns");
            let class = |s: usize| {
                bb::Class::from_name(turns[0]["player_states"][s]["class"].as_str().unwrap())
                    .unwrap()
            };
            let params = bb::Params {
                ruleset: bb::Ruleset::Engine,
                classes: Some(std::array::from_fn(class)),
            };
            let int = |v: &serde_json::Value, k: &str| v[k].as_i64().unwrap() as i32;
            let mut phases: Vec<[bb::Action; 4]> = Vec::new();
            for t in &turns[1..] {
                phases.push(std::array::from_fn(|s| {
                    bb::Action::Use(t["use_actions"][s]["use"].as_bool().unwrap_or(false))
                }));
                phases.push(std::array::from_fn(|s| {
                    let d = &t["move_actions"][s]["destination"];
                    bb::Action::Move {
                        x: int(d, "x"),
                        y: int(d, "y"),
                    }
                }));
                phases.push(std::array::from_fn(|s| bb::Action::Attack {
                    target: int(&t["attack_actions"][s], "target"),
                }));
                phases.push(std::array::from_fn(|s| {
                    bb::Action::Buy(
                        bb::Item::from_name(t["buy_actions"][s]["item"].as_str().unwrap()).unwrap(),
                    )
                }));
            }
            for _ in 0..repeat {
                let mut g = Ballroom::new(&params, 0).expect("setup");
                for a in &phases {
                    g.step(black_box(a));
                }
                black_box(g.digest());
            }
        }
        other => panic!("unknown work {other:?}"),
    }
}
