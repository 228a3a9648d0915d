//! The Tower Defense codec: canonical JSON byte for byte, and any JSON a bot sends read as an action.

use arena_core::games::tower_defense::{Action, Params, Stat, TowerDefense, TowerKind, Variant};
use arena_core::Game;
use arena_host::games::tower_defense::json::{action_from_json, action_json, state_json};
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
        json!({"action": "build", "type": "turret", "pos": "5"}),
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
