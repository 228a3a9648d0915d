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

/// The text the trace's states are compared with is, state after state, the text serde_json
/// writes for them (what the controller and our writer write), in Duel and Siege.
#[test]
fn our_state_text_is_the_canonical_json() {
    use arena_core::Game;
    use arena_host::games::tower_defense::json::{state_fields, state_texts};
    use arena_host::games::tower_defense::trace::replay;
    for path in arena_tests::golden_files("tower-defense", "jsonl") {
        let text = std::fs::read_to_string(&path).expect("readable golden file");
        // The long games every few hundred turns, the short ones every turn.
        let every = if text.len() > 2_000_000 { 293 } else { 1 };
        let (mut buf, mut seen) = (String::new(), 0);
        let mut look = |g: &TowerDefense| {
            if !(g.turn().is_multiple_of(every) || g.is_over()) {
                return;
            }
            let mut fields = serde_json::Map::new();
            state_fields(g, &mut fields);
            let texts = state_texts(g, &mut buf);
            let ours: Vec<(&str, &str)> =
                texts.iter().map(|(k, r)| (*k, &buf[r.clone()])).collect();
            let serde: Vec<(&str, String)> = fields
                .iter()
                .map(|(k, v)| (k.as_str(), v.to_string()))
                .collect();
            let serde: Vec<(&str, &str)> = serde.iter().map(|(k, v)| (*k, v.as_str())).collect();
            assert_eq!(ours, serde, "{}, turn {}", path.display(), g.turn());
            seen += 1;
        };
        replay(&mut text.as_bytes(), &mut look).expect("verifies");
        assert!(seen > 100, "{}: {seen} states", path.display());
    }
}

/// `text` with line `n` (1-based) changed by `edit`.
fn edit_line(text: &str, n: usize, edit: impl FnOnce(&str) -> String) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[n - 1] = edit(&lines[n - 1]);
    lines.join("\n")
}

/// Lines of another shape than the controller's (keys in another order, white space, a turn as
/// `4.0`, an escaped string) are read the slow way, with the same meaning.
#[test]
fn lines_of_other_shapes_mean_the_same() {
    let text = read("random-random-1.jsonl");
    let report = verify_trace(&text).expect("verifies");
    // Line 4 records turn 2 and its state: its keys backwards, spaced out.
    let text = edit_line(&text, 4, |l| {
        let v: serde_json::Map<String, serde_json::Value> = serde_json::from_str(l).unwrap();
        let back: serde_json::Map<String, serde_json::Value> = v.into_iter().rev().collect();
        serde_json::to_string(&back)
            .unwrap()
            .replace(':', " : ")
            .replace(',', " , ")
    });
    let text = edit_line(&text, 6, |l| l.replace("\"turn\":4,", "\"turn\":4.0,"));
    let line = text.lines().position(|l| l.contains("\"build\"")).unwrap() + 1;
    let text = edit_line(&text, line, |l| {
        l.replacen("\"build\"", "\"\\u0062uild\"", 1)
    });
    assert_eq!(verify_trace(&text), Ok(report));
}

/// On the long trace, whose lines mostly record no state, a tampered turn, a field the trace
/// should not have, a tampered state and a removed action are each refused at their line and turn,
/// naming the field.
#[test]
fn the_long_trace_tampered_is_refused_with_turn_and_field() {
    let text = read("builder-army-full.jsonl");
    let at = |t: &str| match verify_trace(t) {
        Err(d) => (d.line, d.turn, d.path, d.expected, d.got),
        Ok(r) => panic!("verified: {r}"),
    };
    // The difference refused at `line` and `turn`: `path`, expected and got.
    let want = |line, turn, path: &str, expected: &str, got: &str| {
        let text = str::to_string;
        (
            Some(line),
            Some(turn),
            text(path),
            text(expected),
            text(got),
        )
    };
    // Line n + 2 records turn n.
    let turn = edit_line(&text, 1236, |l| l.replace("\"turn\":1234", "\"turn\":1235"));
    assert_eq!(at(&turn), want(1236, 1234, "turn", "1235", "1234"));
    let extra = edit_line(&text, 1236, |l| l.replace("}", ",\"note\":1}"));
    assert_eq!(at(&extra), want(1236, 1234, "note", "1", "nothing"));
    let line = 50_002;
    assert!(text
        .lines()
        .nth(line - 1)
        .unwrap()
        .contains("\"players\":[{\"gold\":"));
    let gold = edit_line(&text, line, |l| {
        l.replacen("\"players\":[{\"gold\":", "\"players\":[{\"gold\":1", 1)
    });
    let (l, t, path, ..) = at(&gold);
    assert_eq!(
        (l, t, path.as_str()),
        (Some(line), Some(50_000), "players[0].gold")
    );
    // Turn 1's first build taken away: the state at turn 500 differs.
    let build = edit_line(&text, 3, |l| {
        l.replacen(
            "{\"action\":\"build\",\"pos\":30,\"type\":\"turret\"}",
            "null",
            1,
        )
    });
    let (l, t, path, ..) = at(&build);
    assert_eq!((l, t), (Some(502), Some(500)));
    assert!(
        path.starts_with("players[0].") || path.starts_with("boards["),
        "{path}"
    );
}

/// A value that is not JSON, in an action or in a recorded state, is refused at its line as
/// what it is (the line is not JSON), however the rest of the line looks.
#[test]
fn a_value_that_is_not_json_is_refused_at_its_line() {
    let text = read("builder-army-full.jsonl");
    let text: String = text.lines().take(3000).collect::<Vec<_>>().join("\n");
    for (n, from, to) in [
        (1236, "[null,null]", "[nul,null]"),
        (1236, "[null,null]", "[null,01]"),
        (3, "\"pos\":30,", "\"pos\":30,,"),
        (502, "\"players\":[{\"gold\":", "\"players\":[{\"gold\":0"),
        (502, "\"turret\"", "\"turret"),
    ] {
        let bad = edit_line(&text, n, |l| l.replacen(from, to, 1));
        match arena_tests::verify_on::<TowerDefense>(&bad, None) {
            Err(d) => {
                assert_eq!((d.line, d.path.as_str()), (Some(n), ""), "{to}: {d}");
                assert!(d.got.contains("not a JSON object"), "{to}: {d}");
            }
            Ok(r) => panic!("{to}: verified: {r}"),
        }
    }
}

/// Rules Decision 7: the controller's own first build (turn 1 of the long trace, a turret at
/// 30) sent with a position that is not a whole JSON number is what the controller took (its
/// turret at 30, or its gold taken), and what the rules refuse: `verify` fails at that line and
/// turn, naming the answer and the decision, not where a value first differs (turn 500, the
/// trace's next recorded state).
#[test]
fn decision_7_verify_names_the_answer_the_controller_took_at_its_turn() {
    let text = read("builder-army-full.jsonl");
    for (pos, why) in [
        (r#""pos":"30""#, "position is not a number"),
        (r#""pos":[30]"#, "position is not a number"),
        (r#""pos":" 30 ""#, "position is not a number"),
        (r#""pos":true"#, "position is not a number"),
        (r#""pos":30.5"#, "not a whole number"),
    ] {
        let took = edit_line(&text, 3, |l| {
            l.replacen("\"pos\":30,", &format!("{pos},"), 1)
        });
        match verify_trace(&took) {
            Err(d) => assert_eq!(
                d.to_string(),
                format!(
                    "line 3, turn 1: the controller took `{pos}`, refused by Decision 7: {why}"
                )
            ),
            Ok(r) => panic!("{pos}: verified: {r}"),
        }
    }
    // Upgrades and destroys find their tower as the controller's key lookup did: `"30"` and
    // `[30]` are the tower at 30, so the trace still verifies with every upgrade of it so sent.
    let upgrade = r#""action":"upgrade","pos":30,"#;
    assert!(text.matches(upgrade).count() > 10);
    for key in [r#""30""#, "[30]"] {
        let keyed = text.replace(upgrade, &upgrade.replace("30", key));
        assert_eq!(verify_trace(&keyed), verify_trace(&text), "{key}");
    }
}
