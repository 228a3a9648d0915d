//! Our replays: written in the official format, and read back by our verifier.

use arena_core::games::ants::{Ants, AntsMap, AntsParams};
use arena_core::SeatSet;
use arena_host::game::Setup;
use arena_host::games::ants::{
    orders_from_replay, play_recorded, verify_replay, Extra, Recorder, ReplayMeta,
};
use serde_json::Value;

/// The last turn an order can be for: a game's length is a u16.
const LAST_TURN: usize = u16::MAX as usize + 1;

fn golden_map(name: &str) -> String {
    std::fs::read_to_string(arena_tests::golden("ants").join(name)).unwrap()
}

#[test]
fn our_replays_verify_against_our_engine() {
    let map = golden_map("maps/tutorial1.map");
    let params = AntsParams::new(AntsMap::parse(&map).unwrap(), 300);
    let extra = Extra { engine_seed: 42 };
    let (game, text) = arena_tests::play_builtin::<Ants>(
        Setup::new(params, 2, "tutorial1"),
        42,
        &["hunter", "strong"],
        extra,
    )
    .unwrap();
    let replay: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(game.is_finished());
    let d = &replay["replaydata"];
    assert_eq!(d["revision"], 3);
    assert_eq!(replay["challenge"], "ants");
    assert_eq!(
        d["map"]["data"].as_array().unwrap().len(),
        game.rows() as usize
    );
    let report = verify_replay(&text, &map).unwrap();
    assert_eq!(report.turns, game.current_turn() as u32);
    assert!(d["ants"].as_array().unwrap().len() >= 2);
    assert!(report.checks >= 2);
}

#[test]
fn a_tampered_replay_is_caught_at_the_right_turn() {
    let dir = arena_tests::golden("ants").join("tut_hunter_greedy_s7");
    let text = std::fs::read_to_string(dir.join("replay.json")).unwrap();
    let map = std::fs::read_to_string(dir.join("map.map")).unwrap();
    let mut replay: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Ant 0 (spawned turn 0): drop its 10th move (turn 10) to a '-'.
    let ant = &mut replay["replaydata"]["ants"][0];
    let moves = ant[5].as_str().unwrap().to_string();
    let mut changed: Vec<u8> = moves.into_bytes();
    changed[9] = b'-';
    ant[5] = serde_json::Value::String(String::from_utf8(changed).unwrap());
    let err = verify_replay(&replay.to_string(), &map).unwrap_err();
    assert!(err.turn.is_some_and(|t| t >= 10), "{err}");
    assert!(err.to_string().starts_with("turn "), "{err}");
    // A changed score is caught too.
    let mut replay: serde_json::Value = serde_json::from_str(&text).unwrap();
    replay["score"][0] = serde_json::json!(99);
    let err = verify_replay(&replay.to_string(), &map).unwrap_err();
    assert_eq!(err.path, "score");
}

/// Four players on an all-land 8 x 8 torus: a kill does not end the game.
const MAP: &str = "rows 8\ncols 8\nplayers 4\nm 0...1...\nm ........\nm ........\nm ........\nm 2...3...\nm ........\nm ........\nm ........\n";

/// A 10-turn game without orders in which the engine kills `kills` (`(player, turn, status)`).
fn game_with_kills(kills: &[(usize, u32, &str)]) -> Value {
    let map = AntsMap::parse(MAP).unwrap();
    let params = AntsParams::new(map, 10);
    let mut game: Box<Ants> = Box::new(Ants::blank());
    game.init(&params, 12).unwrap();
    let mut rec = Recorder::new(&game);
    let at = |game: &Ants, rec: &mut Recorder, turn: u32| {
        let mut set = SeatSet::EMPTY;
        for &(p, t, status) in kills {
            if t == turn && game.is_alive(p) {
                rec.set_status(p, status, turn);
                set = set.with(p);
            }
        }
        set
    };
    let start = at(&game, &mut rec, 0);
    game.kill_at_start(start);
    while !game.is_finished() {
        let turn = game.current_turn() as u32 + 1;
        let set = at(&game, &mut rec, turn);
        play_recorded(&mut game, &mut rec, &[&[][..]; 4], set);
    }
    let meta = ReplayMeta {
        engine_seed: 12,
        ..ReplayMeta::default()
    };
    rec.replay(&game, &meta)
}

#[test]
fn kills_are_replayed_from_status_and_playerturns() {
    let replay = game_with_kills(&[(2, 4, "timeout"), (0, 0, "crashed")]);
    assert_eq!(
        replay["status"],
        serde_json::json!(["crashed", "survived", "timeout", "survived"])
    );
    assert_eq!(replay["playerturns"], serde_json::json!([0, 10, 4, 10]));
    let report = verify_replay(&replay.to_string(), MAP).unwrap();
    assert_eq!(report.turns, 10);
    // Without the kills the game differs: the killed players keep their hill point.
    let plain = game_with_kills(&[]);
    assert_ne!(plain["score"], replay["score"]);
}

/// Regression (fuzz target `verify_ants`: a golden replay with one ant's spawn turn made -164
/// panicked with "capacity overflow"): spawn turns and owners are checked before they size
/// anything, and moves past the longest game are dropped.
#[test]
fn ant_records_out_of_range_are_refused_not_a_crash() {
    let replay = game_with_kills(&[]);
    let with_ant = |record: Value| {
        let mut r = replay.clone();
        let data = if r.get("replaydata").is_some() {
            &mut r["replaydata"]
        } else {
            &mut r
        };
        data["ants"]
            .as_array_mut()
            .expect("a replay has ants")
            .push(record);
        r
    };
    for (record, why) in [
        (
            serde_json::json!([0, 0, -164, 5, 0, "nnnn"]),
            "spawn turn out of range",
        ),
        (
            serde_json::json!([0, 0, 70_000, 5, 0, "nnnn"]),
            "spawn turn out of range",
        ),
        (
            serde_json::json!([0, 0, 1, 5, 99, "nnnn"]),
            "owner out of range",
        ),
        (
            serde_json::json!([0, 0, 1, 5, -1, "nnnn"]),
            "owner out of range",
        ),
    ] {
        let m = verify_replay(&with_ant(record).to_string(), MAP).unwrap_err();
        assert_eq!(m.got, why, "{m}");
    }
    // Far-off positions wrap, and moves past turn 65,536 are not kept.
    let r = with_ant(serde_json::json!([
        i64::MAX,
        i64::MIN,
        65_530,
        5,
        0,
        "n".repeat(20)
    ]));
    let orders = orders_from_replay(&r, 8, 8).unwrap();
    assert_eq!(orders.len(), LAST_TURN + 1);
    assert!(orders[65_531][0].iter().all(|o| (0..8).contains(&o.row)));
}

#[test]
fn a_kill_at_another_turn_is_a_mismatch() {
    let mut replay = game_with_kills(&[(2, 4, "timeout")]);
    replay["playerturns"][2] = 6.into();
    let m = verify_replay(&replay.to_string(), MAP).unwrap_err();
    assert!(m.turn.is_some_and(|t| t <= 6), "{m}");
}

#[test]
fn strict_mode_and_bots_that_never_started_are_refused() {
    for status in ["invalid", "crashed 0"] {
        let mut replay = game_with_kills(&[]);
        replay["status"][1] = status.into();
        let m = verify_replay(&replay.to_string(), MAP).unwrap_err();
        assert_eq!(m.path, "status", "{m}");
        assert!(m.got.contains("unsupported"), "{m}");
    }
}
