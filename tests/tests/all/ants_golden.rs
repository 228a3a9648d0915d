//! Conformance: the official engine's Ants games, re-run by ours.

use std::path::Path;

/// What a verified replay held: its turns and how it ended.
struct Report {
    turns: u32,
    cutoff: String,
}

fn verify(game: &str) -> Result<Report, String> {
    let dir = arena_tests::golden("ants").join(game);
    let read =
        |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let replay = read(&dir.join("replay.json"));
    let map = read(&dir.join("map.map"));
    let (v, cutoff) =
        arena_tests::replay_last::<arena_core::games::ants::Ants, _>(&replay, Some(&map), |g| {
            g.cutoff().map_or("", |c| c.as_str())
        })
        .map_err(|m| format!("{game}: {m}"))?;
    let cutoff = cutoff.unwrap_or_default();
    Ok(Report {
        turns: v.turns,
        cutoff: cutoff.to_string(),
    })
}

/// The official games, with the turns they last and how they end (as their replays say).
const GAMES: [(&str, u32, &str); 5] = [
    ("tut_hunter_greedy_s7", 128, "lone survivor"),
    ("rw32_greedy_hold_s11", 191, "lone survivor"),
    ("cm06_lefty_hunter_s3", 500, "turn limit reached"),
    ("rw04p_mixed_s5", 278, "rank stabilized"),
    ("maze03p_s9", 400, "turn limit reached"),
];

#[test]
fn every_official_game_verifies_with_its_length_and_end() {
    let got: Vec<(&str, u32, String)> = GAMES
        .iter()
        .map(|&(game, ..)| {
            let r = verify(game).unwrap();
            (game, r.turns, r.cutoff)
        })
        .collect();
    let expected: Vec<(&str, u32, String)> = GAMES
        .iter()
        .map(|&(game, turns, cutoff)| (game, turns, cutoff.to_string()))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn bot_inputs_are_reproduced_byte_for_byte() {
    let dir = arena_tests::golden("ants").join("tut_hunter_greedy_s7");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let logs = arena_host::games::ants::bot_input(&read("replay.json"), &read("map.map")).unwrap();
    // One log per player, as many as the official engine wrote.
    let official = (0..)
        .take_while(|p| dir.join(format!("bot{p}.input")).exists())
        .count();
    assert_eq!((logs.len(), official), (2, 2));
    for (p, log) in logs.iter().enumerate() {
        let expected = read(&format!("bot{p}.input"));
        if *log != expected {
            let line = log
                .lines()
                .zip(expected.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(log.lines().count().min(expected.lines().count()));
            panic!(
                "bot{p}.input differs at line {}: expected {:?}, got {:?}",
                line + 1,
                expected.lines().nth(line),
                log.lines().nth(line)
            );
        }
    }
}

#[test]
fn bot_inputs_of_multiplayer_games_follow_the_replay() {
    for game in ["rw04p_mixed_s5", "maze03p_s9", "cm06_lefty_hunter_s3"] {
        let dir = arena_tests::golden("ants").join(game);
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let replay: serde_json::Value = serde_json::from_str(&read("replay.json")).unwrap();
        let logs =
            arena_host::games::ants::bot_input(&read("replay.json"), &read("map.map")).unwrap();
        // One log per player of the replay.
        let players = replay["replaydata"]["players"].as_u64().unwrap() as usize;
        assert_eq!(logs.len(), players, "{game}");
        assert_eq!(players, replay["playerturns"].as_array().unwrap().len());
        for (p, log) in logs.iter().enumerate() {
            let turns = log
                .lines()
                .filter(|l| l.starts_with("turn ") && *l != "turn 0")
                .count();
            assert_eq!(
                turns as u64,
                replay["playerturns"][p].as_u64().unwrap(),
                "{game} bot {p}"
            );
            assert!(log.starts_with("turn 0\n") && log.ends_with("go\n"));
            let end = log.rfind("end\n").expect("an end message");
            let score_line = log[end..].lines().nth(2).unwrap();
            // The bot is 0 in its own numbering: its score comes first.
            let own = score_line.split(' ').nth(1).unwrap();
            // Survivors hear the final score; the eliminated hear the score of their last turn.
            let expected = if replay["status"][p] == "survived" {
                replay["score"][p].to_string()
            } else {
                let t = replay["playerturns"][p].as_u64().unwrap() as usize;
                let history = replay["replaydata"]["scores"][p].as_array().unwrap();
                history[..history.len().min(t + 1)]
                    .last()
                    .unwrap()
                    .to_string()
            };
            assert_eq!(own, expected, "{game} bot {p}: {score_line}");
            // Its own ants are always listed as owner 0.
            let first_ant = log.lines().find(|l| l.starts_with("a ")).unwrap();
            assert!(first_ant.ends_with(" 0"), "{game} bot {p}: {first_ant}");
        }
    }
}

#[test]
fn rerun_writes_the_official_replay_field_for_field() {
    for (game, ..) in GAMES {
        let dir = arena_tests::golden("ants").join(game);
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        let official: serde_json::Value = serde_json::from_str(&read("replay.json")).unwrap();
        let mut ours = arena_host::games::ants::rerun(&official, &read("map.map")).unwrap();
        // Names are not in the replay's game data; copy them over, then compare everything.
        ours["playernames"] = official["playernames"].clone();
        assert_eq!(ours, official, "{game}");
    }
}
