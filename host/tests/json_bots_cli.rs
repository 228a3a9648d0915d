//! ColorFight and Mammut with external JSON-lines bots as real subprocesses: matches complete,
//! faults are named, traces verify.

mod common;
use common::*;

#[test]
fn colorfight_python_bot_plays_and_its_trace_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("cf.jsonl");
    let r = report(&arena(&[
        "play",
        "colorfight",
        "--bot",
        "cmd:python3 host/examples/colorfight_bot.py",
        "--bot",
        "expander",
        "--bot",
        "random",
        "--size",
        "12x12",
        "--ticks",
        "600",
        "--seed",
        "3",
        "--turn-ms",
        "500",
        "--replay",
        trace.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(r["turns"], 600);
    assert_eq!(r["seats"][0]["faults"].as_array().unwrap().len(), 0, "{r}");
    // The python bot took cells: its score is more than its start.
    assert!(r["seats"][0]["score"].as_i64().unwrap() > 5, "{r}");
    let v = arena(&["verify", "colorfight", trace.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v));
}

#[test]
fn colorfight_garbage_and_silence_are_faults_and_the_match_goes_on() {
    let r = report(&arena(&[
        "play",
        "colorfight",
        "--bot",
        "cmd:while read l; do echo '{attack'; done",
        "--bot",
        "cmd:sleep 60",
        "--bot",
        "strategist",
        "--size",
        "10x10",
        "--ticks",
        "300",
        "--turn-ms",
        "20",
        "--json",
    ]));
    assert_eq!(r["turns"], 300);
    let g = r["seats"][0]["faults"].as_array().unwrap();
    assert!(g[0]["what"].as_str().unwrap().contains("unreadable"), "{r}");
    assert!(!r["seats"][0]["disqualified_at"].is_null(), "{r}");
    let s = r["seats"][1]["faults"].as_array().unwrap();
    assert_eq!(s[0]["kind"], "timeout", "{r}");
}

#[test]
fn mammut_python_bot_plays_a_whole_game_and_its_trace_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("m.jsonl");
    let r = report(&arena(&[
        "play",
        "mammut",
        "--bot",
        "cmd:python3 host/examples/mammut_bot.py",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--bot",
        "cautious",
        "--bot",
        "greedy",
        "--seed",
        "3",
        "--replay",
        trace.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(r["reason"], "five rounds played");
    assert_eq!(r["seats"][0]["faults"].as_array().unwrap().len(), 0, "{r}");
    assert_eq!(r["seats"][0]["refused"], 0, "{r}");
    let v = arena(&["verify", "mammut", trace.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v));
}

#[test]
fn mammut_illegal_answers_get_a_second_chance_then_sit_out() {
    // Always asks for a tile that does not exist: refused twice per round, then sits the round out.
    let r = report(&arena(&[
        "play",
        "mammut",
        "--bot",
        "cmd:while read l; do echo '{\"take\":[99]}'; done",
        "--bot",
        "greedy",
        "--bot",
        "random",
        "--bot",
        "cautious",
        "--bot",
        "greedy",
        "--seed",
        "4",
        "--json",
    ]));
    assert_eq!(r["reason"], "five rounds played");
    assert_eq!(
        r["seats"][0]["refused"], 10,
        "two refusals in each of five rounds: {r}"
    );
    assert_eq!(r["seats"][0]["score"], 0, "{r}");
}
