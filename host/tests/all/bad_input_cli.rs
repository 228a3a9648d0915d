//! Bad input a new user types gets a clear error before anything is played, never a run that
//! cannot end or a match played without its bot.

use crate::common::*;

/// Runs `arena args`: it must fail, saying `says`. What it said.
fn refused(args: &[&str], says: &str) -> String {
    let out = arena(args);
    let said = text(&out);
    assert!(!out.status.success(), "{args:?} succeeded: {said}");
    assert!(said.contains(says), "{args:?}: {said}");
    said
}

const TOURNAMENT: [&str; 6] = [
    "tournament",
    "tower-defense",
    "--bot",
    "random",
    "--bot",
    "random",
];

#[test]
fn zero_games_and_zero_jobs_are_refused() {
    for flag in ["--games", "--jobs"] {
        refused(
            &[&TOURNAMENT[..], &[flag, "0"]].concat(),
            "must be at least 1",
        );
    }
}

#[test]
fn a_tournament_too_big_to_run_is_refused_before_its_schedule_is_made() {
    // Building the schedule first took gigabytes (and minutes). Under a 2 GB cap on its address
    // space the run must still be refused with its reason, not die of the cap: a measure of what
    // it allocates, which a loaded machine does not change (a time limit would).
    let inner = Arena::new(&[&TOURNAMENT[..], &["--games", "1000000000"]].concat()).command();
    let out = std::process::Command::new("sh")
        .args(["-c", "ulimit -v 2097152 && exec \"$0\" \"$@\""])
        .arg(inner.get_program())
        .args(inner.get_args())
        .current_dir(workspace())
        .output()
        .expect("run sh");
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("a run plays at most 1000000: give fewer --games"),
        "{said}"
    );
}

#[test]
fn a_negative_seed_is_told_what_a_seed_is() {
    for cmd in [
        &["play", "tower-defense", "--seed", "-1"][..],
        &["tournament", "mammut", "--bot", "random", "--seed", "-1"][..],
    ] {
        let t = Arena::new(cmd).exits(2);
        assert!(
            t.contains("`-1` is not a seed: a seed is a whole number from 0"),
            "{t}"
        );
        assert!(!t.contains("-- -1"), "the hint that gets no further: {t}");
    }
}

#[test]
fn a_program_that_does_not_exist_stops_before_the_match() {
    let t = refused(
        &["play", "tower-defense", "--bot", "cmd:nosuchprogram"],
        "cannot start bot 0 (cmd:nosuchprogram): not found",
    );
    assert!(!t.contains("turns:"), "a match was played: {t}");
    refused(
        &[
            &TOURNAMENT[..2],
            &["--bot", "random", "--bot", "cmd:./no/such/bot --fast"],
        ]
        .concat(),
        "cannot start bot 1 (cmd:./no/such/bot --fast)",
    );
}

/// The timeouts of seat 0 in the report of `arena play ARGS --turn-ms MS --json`.
fn timeouts(args: &[&str], ms: &str) -> Vec<serde_json::Value> {
    let report = Arena::new(args)
        .args(&["--turn-ms", ms, "--seed", "3"])
        .report();
    faults_of_kind(&report, 0, "timeout")
        .into_iter()
        .cloned()
        .collect()
}

#[test]
fn turn_ms_is_taken_by_every_game() {
    let map = golden("ants").join("maps/tutorial1.map");
    let map = map.to_str().unwrap();
    // Each answer takes 0.4 s: over a limit of 50 ms per answer (or, for Tower Defense, whose
    // limit is an average over 100 turns, 2 ms a turn), well within 2 s (200 s).
    let slow = "cmd:while read l; do sleep 0.4; echo null; done";
    let slow_ants = "cmd:while read l; do case $l in ready|go) sleep 0.4; echo go;; esac; done";
    // A Ballroom bot answering `null` would be dropped at once (the reference's rule): this one
    // names its class, then takes 0.4 s over its first phase answer.
    let slow_ballroom = test_bot("ballroom_phase_bot.py", "--sleep 1 0.4");
    for (args, tight, loose) in [
        (
            &["play", "tower-defense", "--bot", slow, "--max-turns", "3"][..],
            "2",
            "2000",
        ),
        (
            &["play", "colorfight", "--bot", slow, "--ticks", "3"][..],
            "50",
            "2000",
        ),
        (
            &["play", "mammut", "--bot", slow, "--max-turns", "10"][..],
            "50",
            "2000",
        ),
        (
            &[
                "play",
                "ballroom",
                "--bot",
                &slow_ballroom,
                "--max-turns",
                "1",
            ][..],
            "50",
            "2000",
        ),
        (
            &[
                "play", "ants", "--map", map, "--bot", slow_ants, "--bot", "hold", "--turns", "3",
            ][..],
            "50",
            "2000",
        ),
    ] {
        let over = timeouts(args, tight);
        assert!(!over.is_empty(), "{args:?} --turn-ms {tight}: no timeout");
        let limit = format!("{tight} ms");
        assert!(
            over.iter().all(|f| f.to_string().contains(&limit)),
            "{args:?}: a timeout not over the {limit} given: {over:?}"
        );
        let within = timeouts(args, loose);
        assert!(within.is_empty(), "{args:?} --turn-ms {loose}: {within:?}");
    }
}
