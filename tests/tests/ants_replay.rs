//! Our replays: written in the official format, and read back by our verifier.

use arena_core::games::ants::{AntsMap, AntsParams};
use arena_host::games::ants::{play_builtin, verify_replay};

fn golden_map(name: &str) -> String {
    std::fs::read_to_string(arena_tests::golden("ants").join(name)).unwrap()
}

#[test]
fn our_replays_verify_against_our_engine() {
    let map = golden_map("maps/tutorial1.map");
    let params = AntsParams::new(AntsMap::parse(&map).unwrap(), 300);
    let (game, replay) = play_builtin(&params, 42, &["hunter", "strong"]).unwrap();
    assert!(game.is_finished());
    let d = &replay["replaydata"];
    assert_eq!(d["revision"], 3);
    assert_eq!(replay["challenge"], "ants");
    assert_eq!(
        d["map"]["data"].as_array().unwrap().len(),
        game.rows() as usize
    );
    let text = serde_json::to_string(&replay).unwrap();
    let report = verify_replay(&text, &map).unwrap();
    assert_eq!(report.turns, game.current_turn() as u32);
    assert!(d["ants"].as_array().unwrap().len() >= 2);
    assert!(report.checks >= 2);
}

#[test]
fn a_tampered_replay_is_caught_at_the_right_turn() {
    let dir = arena_tests::golden("ants").join("tut_hunter_greedy_s7");
    let text = std::fs::read_to_string(dir.join("replay.json")).unwrap();
    let map = std::fs::read_to_string(dir.join("map.map")).unwrap();
    let mut replay: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Ant 0 (spawned turn 0): drop its 10th move (turn 10) to a '-'.
    let ant = &mut replay["replaydata"]["ants"][0];
    let moves = ant[5].as_str().unwrap().to_string();
    let mut changed: Vec<u8> = moves.into_bytes();
    changed[9] = b'-';
    ant[5] = serde_json::Value::String(String::from_utf8(changed).unwrap());
    let err = verify_replay(&replay.to_string(), &map).unwrap_err();
    assert!(err.turn.is_some_and(|t| t >= 10), "{err}");
    assert!(err.to_string().starts_with("turn "), "{err}");
    // A changed score is caught too.
    let mut replay: serde_json::Value = serde_json::from_str(&text).unwrap();
    replay["score"][0] = serde_json::json!(99);
    let err = verify_replay(&replay.to_string(), &map).unwrap_err();
    assert_eq!(err.path, "score");
}
