//! ColorFight and Mammut with external JSON-lines bots as real subprocesses: matches complete,
//! faults are named, traces verify.

use crate::common::*;

#[test]
fn colorfight_python_bot_plays_and_its_trace_verifies() {
    let (r, trace) = Arena::play("colorfight")
        .bots(&[
            "cmd:python3 host/examples/colorfight_bot.py",
            "expander",
            "random",
        ])
        .args(&[
            "--size",
            "12x12",
            "--ticks",
            "600",
            "--seed",
            "3",
            "--turn-ms",
            "500",
        ])
        .played("cf.jsonl");
    assert_eq!(r["turns"], 600);
    assert_eq!(r["seats"][0]["faults"].as_array().unwrap().len(), 0, "{r}");
    // The python bot took cells: its score is more than its start.
    assert!(r["seats"][0]["score"].as_i64().unwrap() > 5, "{r}");
    verifies("colorfight", &trace, &[]);
}

#[test]
fn colorfight_garbage_and_silence_are_faults_and_the_match_goes_on() {
    let r = Arena::play("colorfight")
        .bots(&[
            "cmd:while read l; do echo '{attack'; done",
            "cmd:sleep 60",
            "strategist",
        ])
        .args(&["--size", "10x10", "--ticks", "300", "--turn-ms", "20"])
        .report();
    assert_eq!(r["turns"], 300);
    let g = r["seats"][0]["faults"].as_array().unwrap();
    assert!(g[0]["what"].as_str().unwrap().contains("unreadable"), "{r}");
    assert!(!r["seats"][0]["disqualified_at"].is_null(), "{r}");
    let s = r["seats"][1]["faults"].as_array().unwrap();
    assert_eq!(s[0]["kind"], "timeout", "{r}");
}

#[test]
fn mammut_python_bot_plays_a_whole_game_and_its_trace_verifies() {
    let (r, trace) = mammut_against_builtins("cmd:python3 host/examples/mammut_bot.py")
        .args(&["--seed", "3"])
        .played("m.jsonl");
    assert_eq!(r["reason"], "five rounds played");
    assert_eq!(r["seats"][0]["faults"].as_array().unwrap().len(), 0, "{r}");
    assert_eq!(r["seats"][0]["refused"], 0, "{r}");
    verifies("mammut", &trace, &[]);
}

#[test]
fn mammut_illegal_answers_get_a_second_chance_then_sit_out() {
    // Always asks for a tile that does not exist: refused twice per round, then sits the round out.
    let r = mammut_against_builtins("cmd:while read l; do echo '{\"take\":[99]}'; done")
        .args(&["--seed", "4"])
        .report();
    assert_eq!(r["reason"], "five rounds played");
    assert_eq!(
        r["seats"][0]["refused"], 10,
        "two refusals in each of five rounds: {r}"
    );
    assert_eq!(r["seats"][0]["score"], 0, "{r}");
}

/// The trace's lines for `seat`: (round of the state before the action, refused).
fn mammut_moves(trace: &std::path::Path, seat: u64) -> Vec<(u64, bool)> {
    let text = std::fs::read_to_string(trace).unwrap();
    let mut round = 1;
    let mut out = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["seat"] == seat {
            out.push((round, v["refused"].as_bool().unwrap()));
        }
        round = v["state"]["round"].as_u64().unwrap();
    }
    out
}

#[test]
fn mammut_a_bot_that_crashes_is_out_for_that_round_only() {
    // It exits when asked in round 2; the seed removes a player "during this round" only, so its
    // program is started again for round 3 and plays rounds 3, 4 and 5.
    let (r, trace) = mammut_against_builtins(&test_bot("mammut_bot_for_tests.py", "--crash-in 2"))
        .args(&["--seed", "3"])
        .played("m.jsonl");
    assert_eq!(r["reason"], "five rounds played");
    let seat = &r["seats"][0];
    assert_eq!(seat["disqualified_at"], serde_json::Value::Null, "{r}");
    assert_eq!(faults_of_kind(&r, 0, "crash").len(), 1, "{r}");
    let moves = mammut_moves(&trace, 0);
    for round in [3, 4, 5] {
        assert!(
            moves.iter().any(|&(r, refused)| r == round && !refused),
            "no accepted action in round {round}: {moves:?}"
        );
    }
    // In round 2 it was asked, refused (the crash), asked once more (no one there): out.
    assert_eq!(
        moves.iter().filter(|&&(r, _)| r == 2).collect::<Vec<_>>(),
        vec![&(2, true), &(2, true)]
    );
    verifies("mammut", &trace, &[]);
}

#[test]
fn mammut_faults_never_disqualify() {
    // Garbage to every request: two faults a round (the second chance, then out for the round),
    // ten in the match, and it is asked again every round: no match-level disqualification.
    let (r, trace) = mammut_against_builtins("cmd:while read l; do echo 'not json'; done")
        .args(&["--seed", "6"])
        .played("m.jsonl");
    let seat = &r["seats"][0];
    assert_eq!(seat["faults"].as_array().unwrap().len(), 10, "{r}");
    assert_eq!(seat["disqualified_at"], serde_json::Value::Null, "{r}");
    let moves = mammut_moves(&trace, 0);
    for round in 1..=5 {
        assert_eq!(
            moves.iter().filter(|&&(r, _)| r == round).count(),
            2,
            "round {round}: {moves:?}"
        );
    }
}

#[test]
fn mammut_a_late_answer_is_reported_and_thrown_away() {
    // 1 s an action: the bot takes 1.4 s over its second request, then answers at once. The late
    // answer comes while its second chance is awaited: thrown away, and the second chance answered.
    let r = mammut_against_builtins(&test_bot("mammut_bot_for_tests.py", "--late 2 1.4"))
        .args(&["--turn-ms", "1000", "--seed", "5"])
        .report();
    let faults = r["seats"][0]["faults"].as_array().unwrap();
    let kinds: Vec<&str> = faults.iter().map(|f| f["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["timeout", "late"], "{r}");
    assert_eq!(
        r["seats"][0]["refused"], 1,
        "only the time-out is refused: {r}"
    );
}
