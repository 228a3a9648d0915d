//! The `arena` binary end to end for Tower Defense: external bots as real subprocesses, faults,
//! replays that verify, and verify's exit codes.

use crate::common::*;

#[test]
fn python_example_bot_plays_a_builtin_and_its_replay_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("m.jsonl");
    let out = arena(&[
        "play",
        "tower-defense",
        "--bot",
        "cmd:python3 host/examples/tower_defense_bot.py",
        "--bot",
        "random",
        "--seed",
        "5",
        "--max-turns",
        "1500",
        "--turn-ms",
        "50",
        "--replay",
        replay.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("--json prints one JSON report");
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
    let v = arena(&[
        "verify",
        "tower-defense",
        replay.to_str().unwrap(),
        "--partial",
    ]);
    assert!(v.status.success(), "{}", text(&v));
}

#[test]
fn faulty_bots_lose_turns_are_disqualified_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("faults.jsonl");
    let logs = dir.path().join("logs");
    let garbage = "cmd:while read l; do echo 'this is not json'; echo oops >&2; done";
    let out = arena(&[
        "play",
        "tower-defense",
        "--bot",
        garbage,
        "--bot",
        "cmd:sleep 100",
        "--seed",
        "1",
        "--max-turns",
        "300",
        "--turn-ms",
        "2",
        "--replay",
        replay.to_str().unwrap(),
        "--bot-logs",
        logs.to_str().unwrap(),
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("unreadable answer"), "{t}");
    assert!(t.contains("time-out"), "{t}");
    assert!(t.contains("disqualified at turn"), "{t}");
    assert!(std::fs::read_to_string(logs.join("0.stderr"))
        .unwrap()
        .starts_with("oops"));
    // Nothing recorded is lost: every turn is in the replay, and it verifies.
    let lines = std::fs::read_to_string(&replay).unwrap().lines().count();
    assert_eq!(lines, 2 + 300);
    let v = arena(&[
        "verify",
        "tower-defense",
        replay.to_str().unwrap(),
        "--partial",
    ]);
    assert!(v.status.success(), "{}", text(&v));
}

#[test]
fn a_bot_that_exits_at_start_is_reported_and_reaped() {
    let out = arena(&[
        "play",
        "tower-defense",
        "--bot",
        "cmd:exit 0",
        "--bot",
        "random",
        "--seed",
        "2",
        "--max-turns",
        "50",
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("exited"), "{t}");
    assert!(t.contains("disqualified at turn 0"), "{t}");
}

#[test]
fn verify_reports_the_first_difference_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("m.jsonl");
    let out = arena(&[
        "play",
        "tower-defense",
        "--bot",
        "random",
        "--bot",
        "builder",
        "--seed",
        "9",
        "--max-turns",
        "40",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let trace = std::fs::read_to_string(&replay).unwrap();
    // Change the gold recorded at turn 30.
    let mut lines: Vec<String> = trace.lines().map(String::from).collect();
    let mut line: serde_json::Value = serde_json::from_str(&lines[31]).unwrap();
    assert_eq!(line["turn"], 30);
    let gold = line["players"][1]["gold"].as_i64().unwrap();
    line["players"][1]["gold"] = (gold + 1).into();
    lines[31] = line.to_string();
    std::fs::write(&replay, lines.join("\n") + "\n").unwrap();
    let v = arena(&["verify", "tower-defense", replay.to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(1), "{}", text(&v));
    let t = text(&v);
    assert!(t.contains("30") && t.contains("gold"), "{t}");
}

#[test]
fn unknown_bots_and_too_many_bots_are_clear_errors() {
    let out = arena(&["play", "tower-defense", "--bot", "nosuchbot"]);
    assert_eq!(out.status.code(), Some(2));
    let t = text(&out);
    assert!(
        t.contains("unknown bot `nosuchbot`") && t.contains("random"),
        "{t}"
    );
    let out = arena(&[
        "play",
        "tower-defense",
        "--bot",
        "random",
        "--bot",
        "random",
        "--bot",
        "random",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("takes 2 bots"));
}
