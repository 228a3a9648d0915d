//! The Tower Defense codec: canonical JSON byte for byte, and any JSON a bot sends read as an action.

use arena_core::games::tower_defense::{
    Action, Malformed, Params, Stat, TowerDefense, TowerKind, Variant,
};
use arena_core::Game;
use arena_host::games::tower_defense::json::{
    action_from_json, action_json, js_number, js_to_number, seat_action, state_json,
    taken_but_refused,
};
use arena_host::games::tower_defense::trace::{header as trace_header, line};
use serde_json::{json, Value};

/// Replays a golden trace, writing every line again: it must be the same text.
fn rewrite_matches(name: &str) {
    let path = arena_tests::golden("tower-defense").join(name);
    let text = std::fs::read_to_string(&path).expect("golden trace");
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("header")).expect("JSON");
    let variant = Variant::from_name(header["header"]["variant"].as_str().expect("variant"))
        .expect("known variant");
    let mut game = TowerDefense::new(&Params { variant }, 0).expect("setup");
    let first = lines.next().expect("turn 0");
    assert_eq!(line(None, &game, true).to_string(), first);
    for (n, text) in lines.enumerate() {
        let v: Value = serde_json::from_str(text).expect("JSON");
        let a = v["actions"].as_array().expect("actions");
        let actions = [action_from_json(&a[0]), action_from_json(&a[1])];
        game.step(&actions);
        let state = v.get("players").is_some() || v.get("board").is_some();
        assert_eq!(
            line(Some(&actions), &game, state).to_string(),
            text,
            "{name}, line {}",
            n + 3
        );
    }
}

#[test]
fn duel_trace_lines_are_written_byte_for_byte_as_the_reference() {
    rewrite_matches("random-random-1.jsonl");
}

#[test]
fn siege_trace_lines_are_written_byte_for_byte_as_the_reference() {
    rewrite_matches("siege-random-1.jsonl");
}

#[test]
fn state_json_has_the_canonical_shape() {
    let g = TowerDefense::new(&Params::default(), 0).expect("setup");
    assert_eq!(
        state_json(&g).to_string(),
        r#"{"turn":0,"players":[{"gold":500,"life":100,"income":10,"boostMax":0,"inflation":0},{"gold":500,"life":100,"income":10,"boostMax":0,"inflation":0}],"boards":[{"invaders":[],"towers":[]},{"invaders":[],"towers":[]}]}"#
    );
    let s = TowerDefense::new(
        &Params {
            variant: Variant::Siege,
        },
        0,
    )
    .expect("setup");
    assert_eq!(
        state_json(&s).to_string(),
        r#"{"turn":0,"invader":{"gold":0,"income":10,"boostMax":0},"defender":{"gold":50,"life":100},"board":{"invaders":[],"towers":[]}}"#
    );
    let h = trace_header(Variant::Siege, &["strong".into(), "army".into()], 9);
    assert_eq!(h["header"]["variant"], "siege");
    assert_eq!(h["header"]["seed"], 9);
}

#[test]
fn actions_round_trip_through_json() {
    let actions = [
        Action::Pass,
        Action::Spawn {
            hp: 3,
            defense: 1,
            stun_res: 2,
        },
        Action::Build {
            kind: Some(TowerKind::Stunner),
            pos: 102,
        },
        Action::Upgrade {
            pos: -5,
            stat: Some(Stat::Range),
        },
        Action::Destroy { pos: 7 },
        Action::Unknown,
    ];
    for a in actions {
        assert_eq!(action_from_json(&action_json(&a)), a, "{a:?}");
    }
    assert_eq!(action_json(&Action::Pass), Value::Null);
}

#[test]
fn anything_a_bot_sends_is_read_and_the_engine_refuses_what_is_wrong() {
    let refused = |v: Value| {
        let mut g = TowerDefense::new(&Params::default(), 0).expect("setup");
        g.step(&[action_from_json(&v), Action::Pass]).refused[0]
    };
    // Accepted, as the controller accepted them.
    assert_eq!(refused(Value::Null), 0);
    assert_eq!(
        refused(json!({"action": "spawn"})),
        0,
        "missing boosts are 0"
    );
    assert_eq!(
        refused(json!({"action": "spawn", "hp": -4, "defense": null})),
        0
    );
    assert_eq!(
        refused(json!({"action": "build", "type": "bomb", "pos": 5.0})),
        0
    );
    // Refused and counted.
    for bad in [
        json!({"action": "build", "type": "turret", "pos": 102}),
        json!({"action": "build", "type": "turret", "pos": -5}),
        json!({"action": "build", "type": "turret", "pos": 1e300}),
        json!({"action": "build", "type": "turret", "pos": 18446744073709551615u64}),
        json!({"action": "build", "type": "turret", "pos": 2.5}),
        json!({"action": "build", "type": "turret", "pos": "5.5"}),
        json!({"action": "build", "type": "turret", "pos": "five"}),
        json!({"action": "build", "type": "cannon", "pos": 5}),
        json!({"action": "build", "pos": 5}),
        json!({"action": "upgrade", "pos": 5, "stat": "speed"}),
        json!({"action": "destroy", "pos": 5}),
        json!({"action": "spawn", "hp": 1}),
        json!({"action": "spawn", "hp": 1e30}),
        json!({"action": "spawn", "hp": "lots"}),
        json!({"action": "fly"}),
        json!({"pos": 5}),
        json!([1, 2]),
        json!(42),
        json!("spawn"),
    ] {
        assert_eq!(refused(bad.clone()), 1, "{bad}");
    }
}

/// Plays `turns` passes, then `a0` and `a1`, in a fresh game of `variant`; the game and the
/// refusals of the last step.
fn after(variant: Variant, turns: u32, a0: &Value, a1: &Value) -> (TowerDefense, [u16; 2]) {
    let mut g = TowerDefense::new(&Params { variant }, 0).expect("setup");
    for _ in 0..turns {
        g.step(&[Action::Pass, Action::Pass]);
    }
    let r = g.step(&[seat_action(variant, 0, a0), seat_action(variant, 1, a1)]);
    (g, [r.refused[0], r.refused[1]])
}

#[test]
fn decision_7_siege_any_truthy_invader_answer_spawns_a_base_invader() {
    // The 04-23 controller calls spawnInvader(answer) for any truthy answer, without looking at
    // `action`. The invader has 10 gold at turn 10: a base invader costs 10.
    let base = Action::Spawn {
        hp: 0,
        defense: 0,
        stun_res: 0,
    };
    for answer in [
        json!({}),
        json!(7),
        json!("x"),
        json!({"action": "build", "type": "turret", "pos": 3}),
        json!({"action": "upgrade", "pos": 3, "stat": "power"}),
        json!({"action": "nuke"}),
        json!([1, 2]),
        json!(true),
    ] {
        assert_eq!(seat_action(Variant::Siege, 0, &answer), base, "{answer}");
        let (g, refused) = after(Variant::Siege, 9, &answer, &Value::Null);
        assert_eq!(refused, [0, 0], "{answer}");
        let (inv, _) = g.siege().expect("siege");
        assert_eq!(inv.gold, 0, "{answer}: spawned, paid 10");
        assert_eq!(g.invaders(0).count(), 1, "{answer}");
    }
    // Falsy answers pass: nothing is spawned and nothing is refused.
    for answer in [json!(null), json!(false), json!(0), json!("")] {
        assert_eq!(
            seat_action(Variant::Siege, 0, &answer),
            Action::Pass,
            "{answer}"
        );
        let (g, refused) = after(Variant::Siege, 9, &answer, &Value::Null);
        assert_eq!((refused, g.invaders(0).count()), ([0, 0], 0), "{answer}");
    }
    // Boost fields that are there are read, whatever the action says (boostMax is 0 here).
    let (_, refused) = after(
        Variant::Siege,
        9,
        &json!({"action": "build", "hp": 1}),
        &Value::Null,
    );
    assert_eq!(refused, [1, 0]);
    // The defender and Duel read answers by their shapes, as before.
    assert_eq!(seat_action(Variant::Siege, 1, &json!({})), Action::Unknown);
    assert_eq!(seat_action(Variant::Duel, 0, &json!({})), Action::Unknown);
}

#[test]
fn decision_7_strings_are_read_as_javascript_number_reads_them() {
    assert_eq!(js_number("30"), Some(30.0));
    assert_eq!(js_number(" 12 "), Some(12.0));
    assert_eq!(js_number("\u{feff}\u{2029}\u{3000}12\u{a0}"), Some(12.0));
    assert_eq!(js_number(""), Some(0.0));
    assert_eq!(js_number("  "), Some(0.0));
    assert_eq!(js_number("030"), Some(30.0));
    assert_eq!(js_number("0x1e"), Some(30.0));
    assert_eq!(js_number("0X1E"), Some(30.0));
    assert_eq!(js_number("0o36"), Some(30.0));
    assert_eq!(js_number("0b11110"), Some(30.0));
    assert_eq!(js_number("-4"), Some(-4.0));
    assert_eq!(js_number("+4"), Some(4.0));
    assert_eq!(js_number("1e1"), Some(10.0));
    assert_eq!(js_number("3E+1"), Some(30.0));
    assert_eq!(js_number(".5"), Some(0.5));
    assert_eq!(js_number("5."), Some(5.0));
    assert_eq!(js_number("Infinity"), Some(f64::INFINITY));
    assert_eq!(js_number("-Infinity"), Some(f64::NEG_INFINITY));
    assert_eq!(js_number("1e400"), Some(f64::INFINITY));
    for nan in [
        "x", "3x", "inf", "NaN", "infinity", "0x", "1e", "--1", "1 2", "+0x1", "-0x1e", ".", "1_0",
        "\u{85}2", "0x1g", "0b2",
    ] {
        assert_eq!(js_number(nan), None, "{nan}");
    }
}

#[test]
fn decision_7_any_value_is_read_as_javascript_number_reads_it() {
    for (v, n) in [
        (json!(null), Some(0.0)),
        (json!(true), Some(1.0)),
        (json!(false), Some(0.0)),
        (json!(" 3 "), Some(3.0)),
        (json!([]), Some(0.0)),
        (json!([null]), Some(0.0)),
        (json!([3]), Some(3.0)),
        (json!([["3"]]), Some(3.0)),
        (json!([true]), None),
        (json!([1, 2]), None),
        (json!({}), None),
        (json!(2.5), Some(2.5)),
    ] {
        assert_eq!(js_to_number(&v), n, "{v}");
    }
}

#[test]
fn decision_7_a_number_that_is_not_whole_is_refused() {
    for (a0, a1) in [
        (
            json!({"action": "build", "type": "turret", "pos": 30.5}),
            json!({"action": "spawn", "hp": 2.5}),
        ),
        (
            json!({"action": "build", "type": "turret", "pos": -1.5}),
            json!({"action": "spawn", "hp": "2.5"}),
        ),
    ] {
        assert_eq!(
            [action_from_json(&a0), action_from_json(&a1)],
            [Action::Malformed(Malformed::NotWhole); 2]
        );
        let (g, refused) = after(Variant::Duel, 99, &a0, &a1);
        assert_eq!(refused, [1, 1], "{a0} {a1}");
        assert_eq!(g.towers(1).count() + g.invaders(1).count(), 0);
    }
    // Whole numbers written with a fraction part are whole; a negative boost is 0 first.
    let (g, refused) = after(
        Variant::Duel,
        0,
        &json!({"action": "build", "type": "turret", "pos": 30.0}),
        &json!({"action": "spawn", "hp": -2.5}),
    );
    assert_eq!(refused, [0, 0]);
    assert_eq!(g.towers(1).map(|t| t.pos).collect::<Vec<_>>(), vec![30]);
}

#[test]
fn decision_7_malformed_actions_are_written_as_answers_read_back_the_same_and_refused_by_the_controller_too(
) {
    for why in [Malformed::PositionNotANumber, Malformed::NotWhole] {
        let a = Action::Malformed(why);
        let written = action_json(&a);
        assert_eq!(action_from_json(&written), a, "{written}");
        for variant in [Variant::Duel, Variant::Siege] {
            for seat in 0..2 {
                let read = seat_action(variant, seat, &written);
                let invader = variant == Variant::Siege && seat == 0;
                if !invader || why == Malformed::NotWhole {
                    assert_eq!(read, a, "{written}");
                }
                // The controller refused it too, whatever the state: verify passes our traces.
                let mut g = TowerDefense::new(&Params { variant }, 0).expect("setup");
                for _ in 0..200 {
                    assert_eq!(taken_but_refused(variant, seat, &written, &g), None);
                    g.step(&[Action::Pass, Action::Pass]);
                }
            }
        }
    }
}
