//! Mammut traces: a played game's trace verifies; a corrupted one fails at the right line and field.

use arena_core::games::mammut::{Action, Mammut, MammutBot, Params, PLAYERS};
use arena_core::games::mammut::{Side, TileSet};
use arena_core::{Game, Roster};
use arena_host::games::mammut::json::{action_from_json, action_json, state_json};
use arena_host::games::mammut::trace::{header as trace_header, line as trace_line, play_traced};
use arena_host::verify::{Difference, Verified};
use serde_json::json;

fn verify_trace(text: &str) -> Result<Verified, Difference> {
    arena_tests::verify::<Mammut>(text)
}
use serde_json::Value;

fn played(seed: u64) -> (Mammut, String) {
    let names = ["cautious", "greedy", "random", "greedy", "random"];
    let mut bots: Vec<MammutBot> = names
        .iter()
        .enumerate()
        .map(|(s, n)| Mammut::bot(n, seed + s as u64).unwrap())
        .collect();
    play_traced(seed, &names, &mut bots).unwrap()
}

/// The trace with line `n` (1-based) changed by `edit`.
fn edit_line(trace: &str, n: usize, edit: impl FnOnce(&mut Value)) -> String {
    let mut lines: Vec<String> = trace.lines().map(str::to_string).collect();
    let mut v: Value = serde_json::from_str(&lines[n - 1]).unwrap();
    edit(&mut v);
    lines[n - 1] = v.to_string();
    lines.join("\n")
}

#[test]
fn a_played_trace_verifies() {
    for seed in [1, 2, 3] {
        let (g, trace) = played(seed);
        assert!(g.is_over());
        let (report, last) = arena_tests::replay_last::<Mammut, _>(&trace, None, Mammut::clone)
            .unwrap_or_else(|m| panic!("seed {seed}: {m}"));
        let last = last.unwrap();
        assert!(report.over);
        assert_eq!(report.steps, u64::from(g.turn()));
        assert_eq!(last.points(), g.points());
        assert_eq!(last.placement(), g.placement());
        assert_eq!(trace.lines().count() as u32, g.turn() + 1);
    }
}

#[test]
fn a_trace_with_refusals_verifies() {
    let seed = 12;
    let mut g = Mammut::new(&Params, seed).unwrap();
    let mut trace = trace_header(&g, seed, &["x"; PLAYERS]);
    // Every seat answers nothing, twice: all five are removed and the round ends unplayed.
    for _ in 0..2 * PLAYERS {
        let seat = g.mover().unwrap();
        let turn = g.turn();
        let refused = g.step(&[Action::Nothing; PLAYERS]).total_refused() > 0;
        assert!(refused);
        trace.push('\n');
        trace.push_str(&trace_line(turn, seat, &Action::Nothing, refused, &g));
    }
    assert_eq!(g.round(), 2);
    let report = verify_trace(&trace).unwrap();
    assert_eq!(report.detail, format!("{} actions refused", 2 * PLAYERS));
    assert!(!report.over);
}

#[test]
fn a_corrupted_state_fails_at_its_line_and_field() {
    let (_, trace) = played(4);
    let bad = edit_line(&trace, 20, |v| v["state"]["points"][2] = Value::from(99));
    let m = verify_trace(&bad).unwrap_err();
    assert_eq!(
        (m.line, m.turn, m.path.as_str()),
        (Some(20), Some(18), "state.points[2]")
    );
    assert!(
        m.to_string()
            .starts_with("line 20, turn 18: state.points[2]"),
        "{m}"
    );
}

#[test]
fn a_changed_action_fails_at_its_line() {
    let (_, trace) = played(5);
    // Line 3 records the second step; replace its action by a take of one tile: the last in the
    // middle, or, when the first player took the whole middle, one it holds (refused).
    let lines: Vec<&str> = trace.lines().collect();
    let before: Value = serde_json::from_str(lines[1]).unwrap();
    let state = &before["state"];
    let middle = state["middle"].as_array().unwrap();
    let held = state["hands"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|h| h.as_array().unwrap());
    let tile = middle.last().or(held.last()).unwrap()["id"]
        .as_u64()
        .unwrap() as u8;
    let action = action_json(&Action::Take(arena_core::games::mammut::TileSet::only(
        tile,
    )));
    let bad = edit_line(&trace, 3, |v| v["action"] = action);
    let m = verify_trace(&bad).unwrap_err();
    assert_eq!(m.line, Some(3), "{m}");
    assert!(m.path.starts_with("state.") || m.path == "refused", "{m}");
}

#[test]
fn an_unreadable_or_foreign_trace_is_refused() {
    let (_, trace) = played(6);
    let mut lines: Vec<&str> = trace.lines().collect();
    lines[5] = "{not json";
    let m = verify_trace(&lines.join("\n")).unwrap_err();
    assert_eq!((m.line, m.path.as_str()), (Some(6), ""));
    assert!(m.got.starts_with("not JSON"), "{m}");
    let m = verify_trace(&edit_line(&trace, 1, |v| v["game"] = "ants".into())).unwrap_err();
    assert_eq!((m.line, m.path.as_str()), (Some(1), "game"));
    let m = verify_trace(&edit_line(&trace, 1, |v| v["seed"] = 7.into())).unwrap_err();
    assert_eq!(m.line, Some(1));
    let m = verify_trace(&edit_line(&trace, 9, |v| v["digest"] = "0".into())).unwrap_err();
    assert_eq!((m.line, m.path.as_str()), (Some(9), "digest"));
    // A line after the end of the game.
    let (g, trace) = played(7);
    let extra = format!(
        "{trace}{}",
        trace_line(g.turn(), 0, &Action::Nothing, true, &g)
    );
    let m = verify_trace(&extra).unwrap_err();
    assert_eq!(m.line, Some(g.turn() as usize + 2));
    assert_eq!(state_json(&g, 0)["toMove"], Value::Null);
}

#[test]
fn actions_round_trip_and_unknown_is_nothing() {
    let take = Action::Take(TileSet::only(3).with(17));
    for a in [
        Action::Nothing,
        take,
        Action::Steal {
            victim: 2,
            put_back: 9,
        },
    ] {
        assert_eq!(action_from_json(&action_json(&a)), a);
    }
    assert_eq!(action_from_json(&json!({"take":[17,3]})), take);
    assert_eq!(
        action_from_json(&json!({"take":[]})),
        Action::Take(TileSet::EMPTY)
    );
    for bad in [
        json!({"take":[3,3]}),
        json!({"take":[32]}),
        json!({"take":[-1]}),
        json!({"take":"3"}),
        json!({"take":[1],"steal":2,"putBack":1}),
        json!({"steal":2}),
        json!({"steal":"x","putBack":1}),
        json!([1, 2]),
        json!("take"),
        Value::Null,
    ] {
        assert_eq!(action_from_json(&bad), Action::Nothing, "{bad}");
    }
    assert_eq!(
        action_from_json(&json!({"steal":-4,"putBack":1e9})),
        Action::Steal {
            victim: 255,
            put_back: 255
        }
    );
}

#[test]
fn state_json_follows_the_rules_file() {
    let g = Mammut::new(&Params, 8).unwrap();
    let s = state_json(&g, 0);
    let keys: Vec<&str> = s.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut want = vec![
        "round", "actions", "toMove", "ids", "points", "furs", "animals", "hands", "middle",
    ];
    want.sort();
    let mut got = keys.clone();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(s["middle"].as_array().unwrap().len(), 32);
    assert_eq!(s["hands"].as_array().unwrap().len(), PLAYERS);
    let mover = g.mover().unwrap();
    assert_eq!(s["toMove"], json!(g.ids()[mover]));
    let mystery = s["middle"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["side"] == "Mystery")
        .count();
    assert_eq!(
        mystery,
        (0..32)
            .filter(|&t| g.visible(t) == Some(Side::Mystery))
            .count()
    );
}
