//! Match reports say what decided the ranking: the rule, the numbers compared and who was
//! defeated when, in the text report and in `--json`, for every game.

use crate::common::*;

/// Plays `match_` twice (text and `--json`); returns both.
fn play(match_: &Arena) -> (String, serde_json::Value) {
    let out = match_.ok();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        match_.report(),
    )
}

#[test]
fn every_game_report_says_what_decided_the_ranking() {
    let games = [
        Arena::play("tower-defense")
            .bots(&["strong", "random"])
            .args(&["--seed", "7"]),
        Arena::play("mammut")
            .bots(&["cautious", "greedy", "random", "greedy", "cautious"])
            .args(&["--seed", "3"]),
        Arena::play("colorfight")
            .args(&["--size", "10x10", "--ticks", "300"])
            .bots(&["strategist", "expander", "random"])
            .args(&["--seed", "2"]),
        Arena::play("ballroom")
            .bots(&["strong", "holder", "random", "random"])
            .args(&["--seed", "1"]),
    ];
    for game in &games {
        let (text, json) = play(game);
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
            assert!(!compared.is_empty(), "{game}: {seat}");
            assert!(text.contains(compared), "{text}");
        }
    }
}

/// Ants names each player that went out and the turn, as the official replay's `status` and
/// `playerturns` do: in the seat's line of the text report and in `defeated_at`.
#[test]
fn ants_reports_say_who_went_out_and_when() {
    let map = golden("ants").join("maps/tutorial1.map");
    let (_dir, file) = scratch("game.json");
    let (text, json) = play(
        &ants_on(&map, &["hold", "hunter"])
            .args(&["--turns", "200", "--engine-seed", "3"])
            .replay(&file),
    );
    let replay = read_json(&file);
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
