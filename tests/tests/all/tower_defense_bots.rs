//! The built-in bots: the sample-bot ports replay the reference controller's choices, every bot
//! plays both variants, and `strong` wins at least 80% of Duel games against each other bot.

use arena_core::games::tower_defense::{Params, TowerDefense, Variant};
use arena_core::{step_with_bots, Game, Outcome, Roster};
use arena_host::games::tower_defense::json::action_from_json;

fn play(variant: Variant, names: [&str; 2], seed: u64) -> (Outcome, u32) {
    let mut game = TowerDefense::new(&Params { variant }, seed).expect("setup");
    let mut bots = names.map(|n| TowerDefense::bot(n, seed).expect("known bot"));
    while !game.is_over() {
        step_with_bots(&mut game, &mut bots);
    }
    (game.outcome().expect("over"), game.turn())
}

#[test]
fn strong_wins_80_percent_of_duel_games_against_each_other_bot() {
    let start = std::time::Instant::now();
    for opponent in ["random", "builder", "army"] {
        let mut wins = 0;
        let mut turns = 0u64;
        for seed in 0..100u64 {
            for strong_seat in 0..2 {
                let names = if strong_seat == 0 {
                    ["strong", opponent]
                } else {
                    [opponent, "strong"]
                };
                let (outcome, t) = play(Variant::Duel, names, seed);
                turns += t as u64;
                if outcome.winner() == Some(strong_seat) {
                    wins += 1;
                }
            }
        }
        println!(
            "strong vs {opponent}: {wins}/200 wins, {} turns a game on average",
            turns / 200
        );
        assert!(wins >= 160, "strong won only {wins}/200 against {opponent}");
    }
    println!("600 games in {:?}", start.elapsed());
}

#[test]
fn builder_and_army_ports_make_the_reference_controllers_choices() {
    let path = arena_tests::golden("tower-defense").join("builder-army-full.jsonl");
    let text = std::fs::read_to_string(&path).expect("golden trace");
    let mut game = TowerDefense::new(&Params::default(), 1).expect("setup");
    let mut bots = ["builder", "army"].map(|n| TowerDefense::bot(n, 1).expect("known bot"));
    let mut turns = 0;
    for line in text.lines().skip(2) {
        let line: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let recorded = line["actions"].as_array().expect("two actions");
        let ours = [0, 1].map(|s| arena_core::Bot::act(&mut bots[s], &game.view(s)));
        for seat in 0..2 {
            assert_eq!(
                ours[seat],
                action_from_json(&recorded[seat]),
                "turn {}, seat {seat}",
                game.turn() + 1
            );
        }
        game.step(&ours);
        turns += 1;
    }
    assert_eq!(turns, 100_000);
}

#[test]
fn every_bot_plays_both_seats_of_siege() {
    for name in TowerDefense::BOTS {
        // As the invader against the builder, then as the defender against the army.
        for (names, seat) in [([*name, "builder"], 0), (["army", *name], 1)] {
            let mut game = TowerDefense::new(
                &Params {
                    variant: Variant::Siege,
                },
                3,
            )
            .expect("setup");
            let mut bots = names.map(|n| TowerDefense::bot(n, 3).expect("known bot"));
            let mut accepted = 0;
            for _ in 0..2_000 {
                if game.is_over() {
                    break;
                }
                let before = game;
                let report = step_with_bots(&mut game, &mut bots);
                let mut passed = before;
                passed.step(&[Default::default(), Default::default()]);
                if report.refused[seat] == 0 && game != passed {
                    accepted += 1;
                }
            }
            assert!(accepted > 0, "{name} did nothing in Siege seat {seat}");
        }
    }
}
