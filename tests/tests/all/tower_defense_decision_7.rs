//! Rules Decision 7, case by case: what a bot's answer outside the documented shapes does, as
//! the controller's JavaScript read it. Each case is one of the probes run on the controller
//! (`docs/bots.md`, "Tower Defense answers outside the documented shapes"), named after it, with
//! what the controller did; the test plays the answer and checks that arena does the same
//! (`Like`: what the canonical answer does; `Refused`: refused with that reason, as the controller
//! refused it too), or refuses it on purpose where the controller acted (`Decision7`: refused with
//! that reason, and `verify` names the answer on a controller trace holding it).

use arena_core::games::tower_defense::{Action, Params, TowerDefense, TowerKind, Variant};
use arena_core::{Game, SeatSet};
use arena_host::game::Playable;
use arena_host::games::tower_defense::json::{seat_action, taken_but_refused};
use serde_json::{json, Value};

/// The state a case's answer is played in.
#[derive(Clone, Copy)]
enum At {
    /// Turn 1 of a new game.
    Start,
    /// Turn 2, after the seat built a turret at 30 on turn 1.
    Tower30,
    /// Turn `n`, after passes (Duel turn 100: boost limit 5, 600 gold; Siege turn 10: the
    /// invader's first 10 gold, turn 100: boost limit 2).
    Turn(u32),
    /// Turn 7, after the seat built six turrets (at 10 to 15): 50 gold left, a build costs 110.
    Spent,
}

enum Expect {
    /// Does what this canonical answer does.
    Like(Value),
    /// Refused with this reason; the controller refused it too.
    Refused(&'static str),
    /// Refused with this reason where the controller acted on the answer: `verify` names this
    /// field of it.
    Decision7(&'static str, &'static str),
}
use Expect::*;

fn before(variant: Variant, at: At, seat: usize) -> TowerDefense {
    let mut g = TowerDefense::new(&Params { variant }, 0).expect("setup");
    let by_seat = |g: &mut TowerDefense, a: Action| {
        let mut actions = [Action::Pass, Action::Pass];
        actions[seat] = a;
        g.step(&actions);
    };
    let turret = |pos| Action::Build {
        kind: Some(TowerKind::Turret),
        pos,
    };
    match at {
        At::Start => {}
        At::Tower30 => by_seat(&mut g, turret(30)),
        At::Turn(n) => (1..n).for_each(|_| by_seat(&mut g, Action::Pass)),
        At::Spent => (10..16).for_each(|pos| by_seat(&mut g, turret(pos))),
    }
    g
}

/// Plays `answer` from `seat` (the other seat passes): the game after, and the seat's refusals
/// with their reasons.
fn play(variant: Variant, at: At, seat: usize, answer: &Value) -> (TowerDefense, u16, Vec<&str>) {
    let mut g = before(variant, at, seat);
    let mut actions = [Action::Pass, Action::Pass];
    actions[seat] = seat_action(variant, seat, answer);
    let stepped = g.play_step(&actions, SeatSet::EMPTY);
    let why = stepped.why.iter().filter(|(s, _)| *s == seat);
    (g, stepped.report.refused[seat], why.map(|w| w.1).collect())
}

fn check(variant: Variant, at: At, seat: usize, answer: Value, expect: Expect) {
    let (g, refused, why) = play(variant, at, seat, &answer);
    // What `verify` says of a controller trace holding the answer: judged in the state the
    // answer is applied to.
    let mut applied_to = before(variant, at, seat);
    applied_to.step(&[Action::Pass, Action::Pass]);
    let verify = taken_but_refused(variant, seat, &answer, &applied_to);
    let (reason, took) = match expect {
        Like(canonical) => {
            let (like, like_refused, _) = play(variant, at, seat, &canonical);
            assert_eq!(g, like, "{answer} plays as {canonical}");
            assert_eq!(refused, like_refused, "{answer}");
            assert_eq!(verify, None, "{answer}");
            return;
        }
        Refused(reason) => (reason, None),
        Decision7(reason, field) => (
            reason,
            Some(format!(
                "the controller took `{field}`, refused by Decision 7: {reason}"
            )),
        ),
    };
    let (passed, _, _) = play(variant, at, seat, &Value::Null);
    assert_eq!(g, passed, "{answer}: refused, as a pass");
    assert_eq!((refused, why), (1, vec![reason]), "{answer}");
    assert_eq!(verify, took, "{answer}");
}

macro_rules! cases {
    ($($(#[$doc:meta])* $name:ident: $variant:ident, $at:expr, $seat:expr, $answer:expr => $expect:expr;)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                check(Variant::$variant, $at, $seat, $answer, $expect);
            }
        )*
    };
}

cases! {
    /// The controller: turret at 30.
    decision_7_build_pos_30: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": 30}) => Like(json!({"action": "build", "type": "turret", "pos": 30}));
    /// The controller: turret at 30 reaching to the end of the path ("30" + 1 is "301"), 50 gold.
    decision_7_build_pos_string_30: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "30"}) => Decision7("position is not a number", r#""pos":"30""#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_string_space_30: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": " 30 "}) => Decision7("position is not a number", r#""pos":" 30 ""#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_string_030: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "030"}) => Decision7("position is not a number", r#""pos":"030""#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_string_30_0: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "30.0"}) => Decision7("position is not a number", r#""pos":"30.0""#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_string_3e1: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "3e1"}) => Decision7("position is not a number", r#""pos":"3e1""#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_string_0x1e: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "0x1e"}) => Decision7("position is not a number", r#""pos":"0x1e""#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_true: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": true}) => Decision7("position is not a number", r#""pos":true"#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_false: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": false}) => Decision7("position is not a number", r#""pos":false"#);
    /// The controller: turret at 30 reaching to the end of the path, 50 gold.
    decision_7_build_pos_array_30: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": [30]}) => Decision7("position is not a number", r#""pos":[30]"#);
    /// The controller: turret at 30 reaching to the end of the path, 50 gold.
    decision_7_build_pos_array_string_30: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": ["30"]}) => Decision7("position is not a number", r#""pos":["30"]"#);
    /// The controller: refused.
    decision_7_build_pos_null: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": null}) => Refused("position is not a number");
    /// The controller: refused.
    decision_7_build_pos_missing: Duel, At::Start, 0, json!({"action": "build", "type": "turret"}) => Refused("position is not a number");
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_empty_string: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": ""}) => Decision7("position is not a number", r#""pos":"""#);
    /// The controller: refused (NaN).
    decision_7_build_pos_string_abc: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "abc"}) => Refused("position is not a number");
    /// The controller: refused (NaN).
    decision_7_build_pos_object: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": {}}) => Refused("position is not a number");
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_empty_array: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": []}) => Decision7("position is not a number", r#""pos":[]"#);
    /// The controller: refused (NaN).
    decision_7_build_pos_two_element_array: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": [30, 31]}) => Refused("position is not a number");
    /// The controller: 50 gold taken, a tower between two spaces that never fires.
    decision_7_build_pos_30_5: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": 30.5}) => Decision7("not a whole number", r#""pos":30.5"#);
    /// The controller: 50 gold taken (and 10 inflation), no tower.
    decision_7_build_pos_string_30_5: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "30.5"}) => Decision7("position is not a number", r#""pos":"30.5""#);
    /// The controller: turret at 30.
    decision_7_build_pos_30_0_number: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": 30.0}) => Like(json!({"action": "build", "type": "turret", "pos": 30}));
    /// The controller: turret at 0.
    decision_7_build_pos_minus_0: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": -0.0}) => Like(json!({"action": "build", "type": "turret", "pos": 0}));
    /// The controller: refused (NaN).
    decision_7_build_pos_string_minus_0x1e: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "-0x1e"}) => Refused("position is not a number");
    /// The controller: refused.
    decision_7_build_pos_100: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": 100}) => Refused("build refused (bad type or position, too little gold, or a tower there)");
    /// The controller: refused.
    decision_7_build_pos_string_100: Duel, At::Start, 0, json!({"action": "build", "type": "turret", "pos": "100"}) => Refused("position is not a number");
    /// The controller: refused (too little gold).
    decision_7_build_pos_string_30_without_gold: Duel, At::Spent, 0, json!({"action": "build", "type": "turret", "pos": "30"}) => Refused("position is not a number");
    /// The controller: refused (a tower under the key "30").
    decision_7_build_pos_string_30_on_a_tower: Duel, At::Tower30, 0, json!({"action": "build", "type": "turret", "pos": "30"}) => Refused("position is not a number");
    /// The controller: turret at 30.
    decision_7_build_type_array_turret: Duel, At::Start, 0, json!({"action": "build", "type": ["turret"], "pos": 30}) => Like(json!({"action": "build", "type": "turret", "pos": 30}));
    /// The controller: bomb at 30.
    decision_7_build_type_nested_array_bomb: Duel, At::Start, 0, json!({"action": "build", "type": [["bomb"]], "pos": 30}) => Like(json!({"action": "build", "type": "bomb", "pos": 30}));
    /// The controller: refused.
    decision_7_build_type_capital_turret: Duel, At::Start, 0, json!({"action": "build", "type": "Turret", "pos": 30}) => Refused("build refused (bad type or position, too little gold, or a tower there)");
    /// The controller: refused.
    decision_7_build_type_two_element_array: Duel, At::Start, 0, json!({"action": "build", "type": ["turret", "bomb"], "pos": 30}) => Refused("build refused (bad type or position, too little gold, or a tower there)");
    /// The controller: takes 50 gold for an object that is no tower, then throws on the next turn (TypeError).
    decision_7_build_type_constructor: Duel, At::Start, 0, json!({"action": "build", "type": "constructor", "pos": 30}) => Refused("build refused (bad type or position, too little gold, or a tower there)");
    /// The controller: throws (TypeError: not a constructor).
    decision_7_build_type_tostring: Duel, At::Start, 0, json!({"action": "build", "type": "toString", "pos": 30}) => Refused("build refused (bad type or position, too little gold, or a tower there)");
    /// The controller: ignored (`switch` compares strictly).
    decision_7_action_array_build: Duel, At::Start, 0, json!({"action": ["build"], "type": "turret", "pos": 30}) => Refused("unknown action");
    /// The controller: ignored (`switch` compares strictly).
    decision_7_action_array_spawn: Duel, At::Turn(100), 0, json!({"action": ["spawn"]}) => Refused("unknown action");
    /// The controller: refused (`===`).
    decision_7_upgrade_stat_array_power: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": 30, "stat": ["power"]}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: tower 30 upgraded.
    decision_7_upgrade_pos_30: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": 30, "stat": "power"}) => Like(json!({"action": "upgrade", "pos": 30, "stat": "power"}));
    /// The controller: tower 30 upgraded.
    decision_7_upgrade_pos_string_30: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": "30", "stat": "power"}) => Like(json!({"action": "upgrade", "pos": 30, "stat": "power"}));
    /// The controller: tower 30 upgraded.
    decision_7_upgrade_pos_array_30: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": [30], "stat": "range"}) => Like(json!({"action": "upgrade", "pos": 30, "stat": "range"}));
    /// The controller: tower 30 upgraded.
    decision_7_upgrade_pos_30_0_number: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": 30.0, "stat": "power"}) => Like(json!({"action": "upgrade", "pos": 30, "stat": "power"}));
    /// The controller: no tower found, nothing charged.
    decision_7_upgrade_pos_string_space_30: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": " 30 ", "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: no tower found, nothing charged.
    decision_7_upgrade_pos_string_030: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": "030", "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: no tower found, nothing charged.
    decision_7_upgrade_pos_string_30_0: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": "30.0", "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: no tower found, nothing charged.
    decision_7_upgrade_pos_string_3e1: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": "3e1", "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: no tower found, nothing charged.
    decision_7_upgrade_pos_true: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": true, "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: no tower found, nothing charged.
    decision_7_upgrade_pos_30_5: Duel, At::Tower30, 0, json!({"action": "upgrade", "pos": 30.5, "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: tower 30 destroyed.
    decision_7_destroy_pos_30: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": 30}) => Like(json!({"action": "destroy", "pos": 30}));
    /// The controller: tower 30 destroyed.
    decision_7_destroy_pos_string_30: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": "30"}) => Like(json!({"action": "destroy", "pos": 30}));
    /// The controller: tower 30 destroyed.
    decision_7_destroy_pos_array_30: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": [30]}) => Like(json!({"action": "destroy", "pos": 30}));
    /// The controller: tower 30 destroyed.
    decision_7_destroy_pos_nested_array_30: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": [["30"]]}) => Like(json!({"action": "destroy", "pos": 30}));
    /// The controller: no tower found.
    decision_7_destroy_pos_string_space_30: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": " 30 "}) => Refused("destroy refused (no tower there)");
    /// The controller: no tower found.
    decision_7_destroy_pos_string_030: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": "030"}) => Refused("destroy refused (no tower there)");
    /// The controller: no tower found.
    decision_7_destroy_pos_string_30_0: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": "30.0"}) => Refused("destroy refused (no tower there)");
    /// The controller: no tower found.
    decision_7_destroy_pos_true: Duel, At::Tower30, 0, json!({"action": "destroy", "pos": true}) => Refused("destroy refused (no tower there)");
    /// The controller: hp 12.
    decision_7_spawn_hp_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": 2}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 11.
    decision_7_spawn_hp_true: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": true}) => Like(json!({"action": "spawn", "hp": 1}));
    /// The controller: hp 10.
    decision_7_spawn_hp_false: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": false}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: hp 10.
    decision_7_spawn_hp_null: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": null}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: hp 10.
    decision_7_spawn_hp_empty_string: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": ""}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: hp 13.
    decision_7_spawn_hp_array_3: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": [3]}) => Like(json!({"action": "spawn", "hp": 3}));
    /// The controller: hp 12.
    decision_7_spawn_hp_nested_array_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": [["2"]]}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 10.
    decision_7_spawn_hp_empty_array: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": []}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: hp 10.
    decision_7_spawn_hp_array_null: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": [null]}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: refused (NaN).
    decision_7_spawn_hp_array_true: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": [true]}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: refused (NaN).
    decision_7_spawn_hp_two_element_array: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": [1, 2]}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: hp 10.
    decision_7_spawn_hp_string_minus_infinity: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "-Infinity"}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: refused (over the limit).
    decision_7_spawn_hp_string_infinity: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "Infinity"}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: refused (Infinity, over the limit).
    decision_7_spawn_hp_string_1e400: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "1e400"}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: hp 12.
    decision_7_spawn_hp_string_space_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": " 2 "}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 12.
    decision_7_spawn_hp_string_tab_nbsp_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "\t\u{a0}2\n\u{2028}"}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 12.
    decision_7_spawn_hp_string_bom_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "\u{feff}2"}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: refused (NaN: U+0085 is no white space to JavaScript).
    decision_7_spawn_hp_string_nel_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "\u{85}2"}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: hp 12.
    decision_7_spawn_hp_string_02: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "02"}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 12.
    decision_7_spawn_hp_string_0x2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "0x2"}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 13.
    decision_7_spawn_hp_string_0o3: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "0o3"}) => Like(json!({"action": "spawn", "hp": 3}));
    /// The controller: hp 13.
    decision_7_spawn_hp_string_0b11: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "0b11"}) => Like(json!({"action": "spawn", "hp": 3}));
    /// The controller: hp 12.
    decision_7_spawn_hp_string_2e0: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "2e0"}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 12.
    decision_7_spawn_hp_string_plus_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "+2"}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 12.
    decision_7_spawn_hp_string_2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "2."}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 10.
    decision_7_spawn_hp_string_minus_0: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "-0"}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: refused (NaN).
    decision_7_spawn_hp_string_minus_0x2: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "-0x2"}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: refused (NaN).
    decision_7_spawn_hp_string_abc: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "abc"}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: refused (NaN).
    decision_7_spawn_hp_object: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": {}}) => Refused("spawn refused (bad terms, too little gold, or the entrance taken)");
    /// The controller: maxhp 12.5, gold 587.5.
    decision_7_spawn_hp_2_5: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": 2.5}) => Decision7("not a whole number", r#""hp":2.5"#);
    /// The controller: maxhp 12.5, gold 587.5.
    decision_7_spawn_hp_string_2_5: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "2.5"}) => Decision7("not a whole number", r#""hp":"2.5""#);
    /// The controller: refused (boostMax 0).
    decision_7_spawn_hp_string_2_5_over_the_limit: Duel, At::Start, 0, json!({"action": "spawn", "hp": "2.5"}) => Refused("not a whole number");
    /// The controller: hp 10 (clamped).
    decision_7_spawn_hp_minus_2_5: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": -2.5}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: hp 10 (clamped).
    decision_7_spawn_hp_string_minus_3: Duel, At::Turn(100), 0, json!({"action": "spawn", "hp": "-3"}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: defense 1.
    decision_7_spawn_defense_string_1: Duel, At::Turn(100), 0, json!({"action": "spawn", "defense": "1"}) => Like(json!({"action": "spawn", "defense": 1}));
    /// The controller: defense 1.
    decision_7_spawn_defense_array_1: Duel, At::Turn(100), 0, json!({"action": "spawn", "defense": [1]}) => Like(json!({"action": "spawn", "defense": 1}));
    /// The controller: defense 0.5, gold 585.
    decision_7_spawn_defense_0_5: Duel, At::Turn(100), 0, json!({"action": "spawn", "defense": 0.5}) => Decision7("not a whole number", r#""defense":0.5"#);
    /// The controller: stunRes 1.
    decision_7_spawn_stunres_true: Duel, At::Turn(100), 0, json!({"action": "spawn", "stunRes": true}) => Like(json!({"action": "spawn", "stunRes": 1}));
    /// The controller: ignored.
    decision_7_duel_answer_number_7: Duel, At::Turn(100), 0, json!(7) => Refused("unknown action");
    /// The controller: ignored.
    decision_7_duel_answer_string_spawn: Duel, At::Turn(100), 0, json!("spawn") => Refused("unknown action");
    /// The controller: base invader.
    decision_7_siege_invader_empty_object: Siege, At::Turn(10), 0, json!({}) => Like(json!({"action": "spawn"}));
    /// The controller: base invader.
    decision_7_siege_invader_number_7: Siege, At::Turn(10), 0, json!(7) => Like(json!({"action": "spawn"}));
    /// The controller: base invader.
    decision_7_siege_invader_string_x: Siege, At::Turn(10), 0, json!("x") => Like(json!({"action": "spawn"}));
    /// The controller: base invader.
    decision_7_siege_invader_true: Siege, At::Turn(10), 0, json!(true) => Like(json!({"action": "spawn"}));
    /// The controller: base invader.
    decision_7_siege_invader_array: Siege, At::Turn(10), 0, json!([1, 2]) => Like(json!({"action": "spawn"}));
    /// The controller: base invader.
    decision_7_siege_invader_build: Siege, At::Turn(10), 0, json!({"action": "build", "type": "turret", "pos": 3}) => Like(json!({"action": "spawn"}));
    /// The controller: base invader.
    decision_7_siege_invader_0_5: Siege, At::Turn(10), 0, json!(0.5) => Like(json!({"action": "spawn"}));
    /// The controller: pass.
    decision_7_siege_invader_zero: Siege, At::Turn(10), 0, json!(0) => Like(json!(null));
    /// The controller: pass.
    decision_7_siege_invader_empty_string: Siege, At::Turn(10), 0, json!("") => Like(json!(null));
    /// The controller: pass.
    decision_7_siege_invader_false: Siege, At::Turn(10), 0, json!(false) => Like(json!(null));
    /// The controller: hp 11.
    decision_7_siege_invader_hp_true: Siege, At::Turn(100), 0, json!({"hp": true}) => Like(json!({"action": "spawn", "hp": 1}));
    /// The controller: hp 12.
    decision_7_siege_invader_hp_array_2: Siege, At::Turn(100), 0, json!({"action": "spawn", "hp": [2]}) => Like(json!({"action": "spawn", "hp": 2}));
    /// The controller: hp 10.
    decision_7_siege_invader_hp_string_minus_infinity: Siege, At::Turn(100), 0, json!({"hp": "-Infinity"}) => Like(json!({"action": "spawn", "hp": 0}));
    /// The controller: cost 11.5 (fractional gold); the harness stops: its exact HP takes integers.
    decision_7_siege_invader_hp_1_5: Siege, At::Turn(100), 0, json!({"hp": 1.5}) => Decision7("not a whole number", r#""hp":1.5"#);
    /// The controller: turret at 30.
    decision_7_siege_build_pos_30: Siege, At::Start, 1, json!({"action": "build", "type": "turret", "pos": 30}) => Like(json!({"action": "build", "type": "turret", "pos": 30}));
    /// The controller: turret at 30 reaching to the end of the path, 10 gold.
    decision_7_siege_build_pos_string_30: Siege, At::Start, 1, json!({"action": "build", "type": "turret", "pos": "30"}) => Decision7("position is not a number", r#""pos":"30""#);
    /// The controller: 10 gold taken, no tower.
    decision_7_siege_build_pos_string_space_30: Siege, At::Start, 1, json!({"action": "build", "type": "turret", "pos": " 30 "}) => Decision7("position is not a number", r#""pos":" 30 ""#);
    /// The controller: turret at 30 reaching to the end of the path, 10 gold.
    decision_7_siege_build_pos_array_30: Siege, At::Start, 1, json!({"action": "build", "type": "turret", "pos": [30]}) => Decision7("position is not a number", r#""pos":[30]"#);
    /// The controller: refused (`includes` compares strictly).
    decision_7_siege_build_type_array_turret: Siege, At::Start, 1, json!({"action": "build", "type": ["turret"], "pos": 30}) => Refused("build refused (bad type or position, too little gold, or a tower there)");
    /// The controller: tower 30 upgraded.
    decision_7_siege_upgrade_pos_string_30: Siege, At::Tower30, 1, json!({"action": "upgrade", "pos": "30", "stat": "power"}) => Like(json!({"action": "upgrade", "pos": 30, "stat": "power"}));
    /// The controller: no tower found.
    decision_7_siege_upgrade_pos_string_030: Siege, At::Tower30, 1, json!({"action": "upgrade", "pos": "030", "stat": "power"}) => Refused("upgrade refused (bad stat or position, too little gold, or no tower)");
    /// The controller: tower 30 destroyed.
    decision_7_siege_destroy_pos_array_30: Siege, At::Tower30, 1, json!({"action": "destroy", "pos": [30]}) => Like(json!({"action": "destroy", "pos": 30}));
    /// The controller: no tower found.
    decision_7_siege_destroy_pos_string_space_30: Siege, At::Tower30, 1, json!({"action": "destroy", "pos": " 30 "}) => Refused("destroy refused (no tower there)");
}
