//! The `arena` binary end to end for Tower Defense: external bots as real subprocesses, faults,
//! replays that verify, and verify's exit codes.

use crate::common::*;

#[test]
fn python_example_bot_plays_a_builtin_and_its_replay_verifies() {
    let (report, replay) = Arena::play("tower-defense")
        .bots(&["cmd:python3 host/examples/tower_defense_bot.py", "random"])
        .args(&["--seed", "5", "--max-turns", "1500", "--turn-ms", "50"])
        .played("m.jsonl");
    assert_eq!(report["seed"], 5);
    let seat0 = &report["seats"][0];
    assert_eq!(seat0["faults"].as_array().unwrap().len(), 0, "{report}");
    // Named as playgame.py names bots: the file the command line runs.
    assert_eq!(seat0["bot"], "tower_defense_bot.py");
    // The python bot really played: it built towers, which the replay shows.
    let trace = std::fs::read_to_string(&replay).unwrap();
    assert!(
        trace.contains("\"action\":\"build\""),
        "the example bot never built"
    );
    verifies("tower-defense", &replay, &["--partial"]);
}

#[test]
fn faulty_bots_lose_turns_are_disqualified_and_the_match_goes_on() {
    let (dir, replay) = scratch("faults.jsonl");
    let logs = dir.path().join("logs");
    let garbage = "cmd:while read l; do echo 'this is not json'; echo oops >&2; done";
    let out = Arena::play("tower-defense")
        .bots(&[garbage, "cmd:sleep 100"])
        .args(&["--seed", "1", "--max-turns", "300", "--turn-ms", "2"])
        .replay(&replay)
        .file("--bot-logs", &logs)
        .ok();
    let t = text(&out);
    assert!(t.contains("unreadable answer"), "{t}");
    assert!(t.contains("time-out"), "{t}");
    assert!(t.contains("disqualified at turn"), "{t}");
    assert!(std::fs::read_to_string(logs.join("0.stderr"))
        .unwrap()
        .starts_with("oops"));
    // Nothing recorded is lost: every turn is in the replay, and it verifies.
    let lines = std::fs::read_to_string(&replay).unwrap().lines().count();
    assert_eq!(lines, 2 + 300);
    verifies("tower-defense", &replay, &["--partial"]);
}

#[test]
fn a_bot_that_exits_at_start_is_reported_and_reaped() {
    let out = Arena::play("tower-defense")
        .bots(&["cmd:exit 0", "random"])
        .args(&["--seed", "2", "--max-turns", "50"])
        .ok();
    let t = text(&out);
    assert!(t.contains("exited"), "{t}");
    assert!(t.contains("disqualified at turn 0"), "{t}");
}

#[test]
fn verify_reports_the_first_difference_and_exits_1() {
    let (_dir, replay) = scratch("m.jsonl");
    Arena::play("tower-defense")
        .bots(&["random", "builder"])
        .args(&["--seed", "9", "--max-turns", "40"])
        .replay(&replay)
        .ok();
    let trace = std::fs::read_to_string(&replay).unwrap();
    // Change the gold recorded at turn 30.
    let mut lines: Vec<String> = trace.lines().map(String::from).collect();
    let mut line: serde_json::Value = serde_json::from_str(&lines[31]).unwrap();
    assert_eq!(line["turn"], 30);
    let gold = line["players"][1]["gold"].as_i64().unwrap();
    line["players"][1]["gold"] = (gold + 1).into();
    lines[31] = line.to_string();
    std::fs::write(&replay, lines.join("\n") + "\n").unwrap();
    let t = Arena::verify("tower-defense", &replay).exits(1);
    assert!(t.contains("30") && t.contains("gold"), "{t}");
}

#[test]
fn unknown_bots_and_too_many_bots_are_clear_errors() {
    let t = Arena::play("tower-defense").bots(&["nosuchbot"]).exits(2);
    assert!(
        t.contains("unknown bot `nosuchbot`") && t.contains("random"),
        "{t}"
    );
    let t = Arena::play("tower-defense")
        .bots(&["random", "random", "random"])
        .exits(2);
    assert!(t.contains("takes 2 bots"), "{t}");
}

/// Rules Decision 7 end to end: a bot's build at the position `"30"` (a string) is refused with
/// its reason in the report, and the replay verifies; a controller trace holding that answer
/// (the controller built a turret at 30 for it) fails `verify` at its turn, naming it.
#[test]
fn decision_7_a_build_at_a_string_position_is_refused_and_verify_names_it_at_its_turn() {
    let (_dir, replay) = scratch("d7.jsonl");
    let bot = |pos: &str| {
        format!(
            "cmd:read l; echo '{{\"action\":\"build\",\"type\":\"turret\",\"pos\":{pos}}}'; \
             while read l; do echo null; done"
        )
    };
    let out = Arena::play("tower-defense")
        .bots(&[&bot("\"30\""), "random"])
        .args(&["--seed", "3", "--max-turns", "20"])
        .replay(&replay)
        .ok();
    let t = text(&out);
    assert!(t.contains("position is not a number"), "{t}");
    verifies("tower-defense", &replay, &["--partial"]);
    // The same match with the answer the controller's effect matches: a turret at 30 for 50
    // gold. Its replay, with the answer written as the string, is the controller's trace.
    Arena::play("tower-defense")
        .bots(&[&bot("30"), "random"])
        .args(&["--seed", "3", "--max-turns", "20"])
        .replay(&replay)
        .ok();
    let trace = std::fs::read_to_string(&replay).unwrap();
    let mut lines: Vec<String> = trace.lines().map(String::from).collect();
    assert!(lines[2].contains("\"turn\":1,"), "{}", lines[2]);
    lines[2] = lines[2].replacen("\"pos\":30", "\"pos\":\"30\"", 1);
    std::fs::write(&replay, lines.join("\n") + "\n").unwrap();
    let t = Arena::verify("tower-defense", &replay).exits(1);
    assert!(
        t.contains(
            "line 3, turn 1: the controller took `\"pos\":\"30\"`, refused by Decision 7: \
             position is not a number"
        ),
        "{t}"
    );
}
