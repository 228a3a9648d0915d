//! The log writer: replaying a golden game through our engine and writing it back gives the
//! official engine's file byte for byte, and a game of built-in bots writes a log that verifies.

use arena_core::games::ballroom::{Action, Ballroom, Class, Item, Params, Phase};
use arena_core::{step_with_bots, Game, Roster};
use arena_host::games::ballroom::log::LogWriter;
use serde_json::Value;

fn recorded(turn: &Value, phase: Phase) -> [Action; 4] {
    core::array::from_fn(|s| match phase {
        Phase::Use => Action::Use(turn["use_actions"][s]["use"].as_bool().unwrap()),
        Phase::Move => {
            let d = &turn["move_actions"][s]["destination"];
            Action::Move {
                x: d["x"].as_i64().unwrap() as i32,
                y: d["y"].as_i64().unwrap() as i32,
            }
        }
        Phase::Attack => Action::Attack {
            target: turn["attack_actions"][s]["target"].as_i64().unwrap() as i32,
        },
        Phase::Buy => {
            Action::Buy(Item::from_name(turn["buy_actions"][s]["item"].as_str().unwrap()).unwrap())
        }
        Phase::Class => Action::Pass,
    })
}

#[test]
fn replayed_golden_games_are_written_back_byte_for_byte() {
    for name in ["seed1.json", "seed12.json", "pystarter.json"] {
        let path = arena_tests::golden("ballroom").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let log: Value = serde_json::from_str(&text).unwrap();
        let names: Vec<&str> = log["names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        let classes: [Class; 4] = core::array::from_fn(|s| {
            Class::from_name(
                log["turns"][0]["player_states"][s]["class"]
                    .as_str()
                    .unwrap(),
            )
            .unwrap()
        });
        let params = Params {
            classes: Some(classes),
            ..Params::default()
        };
        let mut game = Ballroom::new(&params, 0).unwrap();
        let mut writer = LogWriter::new(&names);
        writer.observe(&game);
        while let Some(phase) = game.phase() {
            let actions = recorded(&log["turns"][game.turn() as usize + 1], phase);
            game.step(&actions);
            writer.observe(&game);
        }
        // The reference writes the log with println.
        assert_eq!(writer.render() + "\n", text, "{name}");
    }
}

#[test]
fn a_game_of_built_in_bots_writes_a_log_that_verifies() {
    let lineup = ["strong", "holder", "random", "random"];
    let mut bots: Vec<_> = (0..4)
        .map(|s| Ballroom::bot(lineup[s], 40 + s as u64).unwrap())
        .collect();
    let mut game = Ballroom::new(&Params::default(), 40).unwrap();
    let mut writer = LogWriter::new(&lineup);
    writer.observe(&game);
    while !game.is_over() {
        step_with_bots(&mut game, &mut bots);
        writer.observe(&game);
    }
    let scores = |g: &Ballroom| -> Vec<u16> { g.players().iter().map(|p| p.score).collect() };
    let (report, last) = arena_tests::replay_last::<Ballroom, _>(&writer.render(), None, scores)
        .unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(report.turns, 100);
    assert_eq!(report.meta.bots, lineup);
    assert_eq!(last, Some(scores(&game)));
}
