//! Match reports say what decided the ranking: the rule, the numbers compared and who was
//! defeated when, in the text report and in `--json`, for every game.

use crate::common::*;

/// Plays `args` twice (text and `--json`); returns both.
fn play(args: &[&str]) -> (String, serde_json::Value) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let out = arena(&all);
    assert!(out.status.success(), "{}", text(&out));
    all.push("--json");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        report(&arena(&all)),
    )
}

#[test]
fn every_game_report_says_what_decided_the_ranking() {
    let games: &[&[&str]] = &[
        &[
            "tower-defense",
            "--bot",
            "strong",
            "--bot",
            "random",
            "--seed",
            "7",
        ],
        &[
            "mammut", "--bot", "cautious", "--bot", "greedy", "--bot", "random", "--bot", "greedy",
            "--bot", "cautious", "--seed", "3",
        ],
        &[
            "colorfight",
            "--size",
            "10x10",
            "--ticks",
            "300",
            "--bot",
            "strategist",
            "--bot",
            "expander",
            "--bot",
            "random",
            "--seed",
            "2",
        ],
        &[
            "ballroom", "--bot", "strong", "--bot", "holder", "--bot", "random", "--bot", "random",
            "--seed", "1",
        ],
    ];
    for args in games {
        let (text, json) = play(args);
        let why = json["decided_by"]
            .as_str()
            .unwrap_or_else(|| panic!("{json}"));
        let rule = json["rule"].as_str().unwrap_or_else(|| panic!("{json}"));
        assert!(text.contains(&format!("why:    {why}")), "{text}");
        assert!(text.contains(&format!("rule:   {rule}")), "{text}");
        match json["winner"].as_u64() {
            Some(w) => assert!(why.starts_with(&format!("seat {w} wins")), "{json}"),
            None => assert!(why.starts_with("draw: seats "), "{json}"),
        }
        for seat in json["seats"].as_array().unwrap() {
            let compared = seat["compared"].as_str().unwrap();
            assert!(!compared.is_empty(), "{args:?}: {seat}");
            assert!(text.contains(compared), "{text}");
        }
    }
}

/// Ants names each player that went out and the turn, as the official replay's `status` and
/// `playerturns` do: in the seat's line of the text report and in `defeated_at`.
#[test]
fn ants_reports_say_who_went_out_and_when() {
    let map = golden("ants").join("maps/tutorial1.map");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let (map, file) = (map.to_str().unwrap(), file.to_str().unwrap());
    let (text, json) = play(&[
        "ants",
        "--map",
        map,
        "--bot",
        "hold",
        "--bot",
        "hunter",
        "--turns",
        "200",
        "--engine-seed",
        "3",
        "--replay",
        file,
    ]);
    let replay: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(replay["status"][0], "eliminated", "{replay}");
    let mut out = 0;
    for (seat, s) in json["seats"].as_array().unwrap().iter().enumerate() {
        let turn = &replay["playerturns"][seat];
        match replay["status"][seat].as_str().unwrap() {
            "survived" => assert!(s["defeated_at"].is_null(), "{json}"),
            _ => {
                out += 1;
                assert_eq!(&s["defeated_at"], turn, "{json}");
                let line = text
                    .lines()
                    .find(|l| l.starts_with(&format!("seat {seat}: ")))
                    .unwrap();
                assert!(line.ends_with(&format!("defeated t{turn}")), "{text}");
            }
        }
    }
    assert_eq!(out, 1, "{json}");
}
