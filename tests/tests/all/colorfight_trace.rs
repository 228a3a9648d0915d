//! ColorFight's canonical JSON and traces: a played trace verifies; a corrupted one fails at the
//! right line, tick and field.

use arena_core::games::colorfight::{Action, ColorFight, Params};
use arena_core::Game;
use arena_host::games::colorfight::json::{
    action_from_json, action_from_str, action_json, state_json, state_value,
};
use arena_host::games::colorfight::trace::replay;
use arena_host::verify::{Difference, Verified};
use serde_json::{json, Value};

fn verify_trace(text: &str) -> Result<Verified, Difference> {
    replay(&mut text.as_bytes(), &mut |_: &ColorFight| {})
}

/// A 10 x 10 match of `ticks` ticks with every state recorded, seat 3 attacking off the grid (refused,
/// recorded).
fn played(ticks: u32) -> String {
    let off_grid = |actions: &mut [Action]| actions[3] = Action::Attack { x: 99, y: 0 };
    arena_tests::games::colorfight::bots_trace(ticks, 11, off_grid, |_| true)
}

#[test]
fn a_played_trace_verifies() {
    let text = played(300);
    let report = verify_trace(&text).unwrap();
    assert_eq!(report.steps, 300);
    assert!(report.over);
}

#[test]
fn a_corrupted_trace_fails_at_the_right_tick_and_field() {
    let text = played(120);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 51 holds the step taken at tick 49; change seat 2's gold in its state.
    let mut v: Value = serde_json::from_str(&lines[50]).unwrap();
    v["state"]["players"][2]["gold"] = json!(77.5);
    lines[50] = v.to_string();
    let err = verify_trace(&lines.join("\n")).unwrap_err();
    assert_eq!((err.line, err.turn), (Some(51), Some(49)));
    assert_eq!(err.path, "state.players[2].gold");
    assert_eq!(err.expected, "77.5");
    assert!(err.to_string().contains("turn 49"), "{err}");
    // A changed action replays differently: the state (or refusal) of that line differs.
    let mut v: Value = serde_json::from_str(&lines[80]).unwrap();
    v["actions"][3] = Value::Null;
    lines[50] = text.lines().nth(50).unwrap().to_string();
    lines[80] = v.to_string();
    let err = verify_trace(&lines.join("\n")).unwrap_err();
    assert_eq!((err.line, err.turn), (Some(81), Some(79)));
    assert_eq!(err.path, "refused[3]");
    // A changed cell.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut v: Value = serde_json::from_str(&lines[100]).unwrap();
    v["state"]["cells"][37][0] = json!(4);
    lines[100] = v.to_string();
    let err = verify_trace(&lines.join("\n")).unwrap_err();
    assert_eq!(err.path, "state.cells[37][0]");
    assert_eq!(err.turn, Some(99));
    // Not JSON.
    lines[100] = "{oops".into();
    let err = verify_trace(&lines.join("\n")).unwrap_err();
    assert!(
        err.path.is_empty() && err.got.starts_with("not JSON"),
        "{err}"
    );
}

#[test]
fn state_json_is_canonical() {
    let g = ColorFight::new(&Params::default(), 1).unwrap();
    let s = state_json(&g);
    assert!(s.starts_with("{\"tick\":0,\"width\":30,\"height\":30,\"players\":[{\"gold\":30.0,\"energy\":0.0,\"cells\":1,\"bases\":1,\"defeated\":false,\"busyUntil\":0}"), "{s}");
    let v: Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v["cells"].as_array().unwrap().len(), 900);
    let kinds: Vec<&str> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[1].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|&&k| k == "gold").count(), 18);
    assert_eq!(v, state_value(&g));
}

#[test]
fn actions_round_trip_and_anything_else_is_malformed() {
    for a in [
        Action::Pass,
        Action::Attack { x: 3, y: -1 },
        Action::Build { x: 0, y: 29 },
        Action::Malformed,
    ] {
        assert_eq!(action_from_json(&action_json(&a)), a);
    }
    assert_eq!(
        action_from_str("{\"attack\":[1,2]}"),
        Action::Attack { x: 1, y: 2 }
    );
    for bad in [
        "",
        "{",
        "7",
        "[1,2]",
        "{\"attack\":[1]}",
        "{\"attack\":[1,2,3]}",
        "{\"attack\":[1.5,2]}",
        "{\"attack\":[99999999999,2]}",
        "{\"attack\":[1,2],\"build\":[1,2]}",
        "{\"fly\":[1,2]}",
    ] {
        assert_eq!(action_from_str(bad), Action::Malformed, "{bad}");
    }
}
