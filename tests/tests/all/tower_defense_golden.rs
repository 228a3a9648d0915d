//! Conformance: every trace written by the reference controller replays to the same states.

use arena_core::games::tower_defense::TowerDefense;
use arena_host::verify::{Difference, Verified};

fn verify_trace(text: &str) -> Result<Verified, Difference> {
    arena_tests::verify::<TowerDefense>(text)
}

fn read(name: &str) -> String {
    let path = arena_tests::golden("tower-defense").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_golden_trace_verifies() {
    for path in arena_tests::golden_files("tower-defense", "jsonl") {
        let text = std::fs::read_to_string(&path).expect("readable golden file");
        match verify_trace(&text) {
            Ok(report) => {
                assert!(report.turns > 0, "{}: no turns", path.display());
                assert!(report.checks > 1, "{}: no states", path.display());
            }
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
}

#[test]
fn full_game_runs_all_100000_turns() {
    let report = verify_trace(&read("builder-army-full.jsonl")).expect("verifies");
    assert_eq!(report.turns, 100_000);
    // Turn 0, every 500 turns, and the end.
    assert_eq!(report.checks, 201);
}

#[test]
fn a_corrupted_number_is_reported_with_its_turn_and_field() {
    let text = read("random-random-1.jsonl");
    // Line 3 (turn 2) of this trace records player 1's tower at 48 with cooldown 10; bump it.
    let lines: Vec<&str> = text.lines().collect();
    let target = 3;
    let needle = "[48,\"turret\",1,1,1,10]";
    assert!(lines[target].contains(needle), "the golden file changed");
    let mut corrupted: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    corrupted[target] = lines[target].replace(needle, "[48,\"turret\",1,1,1,11]");
    match verify_trace(&corrupted.join("\n")) {
        Err(Difference {
            line,
            turn,
            path,
            expected,
            got,
        }) => {
            assert_eq!(line, Some(target + 1));
            assert_eq!(turn, Some(2));
            assert_eq!(path, "boards[1].towers[0].cooldown");
            assert_eq!((expected.as_str(), got.as_str()), ("11", "10"));
        }
        other => panic!("expected a state mismatch, got {other:?}"),
    }
}

#[test]
fn a_malformed_line_is_an_error_with_its_number() {
    let text = read("random-random-1.jsonl");
    let mut lines: Vec<String> = text.lines().take(10).map(String::from).collect();
    lines[5] = "{\"actions\":[null".into();
    match verify_trace(&lines.join("\n")) {
        Err(d) if d.path.is_empty() => assert_eq!(d.line, Some(6)),
        other => panic!("expected a malformed-line error, got {other:?}"),
    }
}
