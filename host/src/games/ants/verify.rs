//! Conformance: re-run an official replay from its seeds and moves and compare.

use super::replay::{play_recorded, Recorder, ReplayMeta};
use crate::replay::{strings, Meta, Visit};
use crate::verify::{Difference, Verified};
use arena_core::games::ants::map::MAX_PLAYERS;
use arena_core::games::ants::{Ants, AntsMap, AntsParams, Dir, Order};
use arena_core::SeatSet;
use arena_viewer::games::ants::{Part, Start as ViewStart};
use serde_json::Value;
use std::fmt;

/// The first difference between the official replay and ours.
type Mismatch = Difference;

fn bad(item: &str, what: impl fmt::Display) -> Difference {
    Difference {
        line: None,
        turn: None,
        path: item.to_string(),
        expected: "a valid replay".to_string(),
        got: what.to_string(),
    }
}

fn num(v: &Value, key: &str) -> Result<i64, Mismatch> {
    v.get(key)
        .and_then(Value::as_i64)
        .ok_or_else(|| bad(key, "missing or not an integer"))
}

/// The game parameters of an official replay (defaults for the food ranges, as playgame.py).
pub fn params_from_replay(replay: &Value, map: &str) -> Result<(AntsParams, u64), Mismatch> {
    let data = replay.get("replaydata").unwrap_or(replay);
    let map = AntsMap::parse(map).map_err(|e| bad("map", e))?;
    let turns = u16::try_from(num(data, "turns")?).map_err(|_| bad("turns", "out of range"))?;
    let mut p = AntsParams::new(map, turns);
    p.loadtime = num(data, "loadtime")? as u32;
    p.turntime = num(data, "turntime")? as u32;
    p.viewradius2 = num(data, "viewradius2")? as u16;
    p.attackradius2 = num(data, "attackradius2")? as u16;
    p.spawnradius2 = num(data, "spawnradius2")? as u16;
    p.player_seed = num(data, "player_seed")?;
    let seed = num(data, "engine_seed")?.unsigned_abs();
    Ok((p, seed))
}

/// The last turn an order can be for: a game's length is a u16 (`turns`).
const LAST_ORDER_TURN: usize = u16::MAX as usize + 1;

/// Orders per turn per player implied by the replay's move strings: `orders[t][p]`.
///
/// A record's spawn turn and owner are checked before they size anything (a replay is outside
/// input: `verify_ants` once made a spawn of -1 ask for a vector of 2^64 turns); moves past the
/// longest possible game are never played and are not kept.
pub fn orders_from_replay(
    replay: &Value,
    rows: i32,
    cols: i32,
) -> Result<Vec<Vec<Vec<Order>>>, Mismatch> {
    let data = replay.get("replaydata").unwrap_or(replay);
    let ants = data
        .get("ants")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("ants", "missing"))?;
    let mut turns: Vec<Vec<Vec<Order>>> = Vec::new();
    for (i, a) in ants.iter().enumerate() {
        let item = format!("ants[{i}]");
        let get = |k: usize| {
            a.get(k)
                .and_then(Value::as_i64)
                .ok_or_else(|| bad(&item, "malformed"))
        };
        let (rows, cols) = (i64::from(rows.max(1)), i64::from(cols.max(1)));
        let (mut r, mut c) = (get(0)?.rem_euclid(rows), get(1)?.rem_euclid(cols));
        let spawn = usize::try_from(get(2)?)
            .ok()
            .filter(|&s| s <= LAST_ORDER_TURN)
            .ok_or_else(|| bad(&item, "spawn turn out of range"))?;
        let owner = usize::try_from(get(4)?)
            .ok()
            .filter(|&o| o < MAX_PLAYERS)
            .ok_or_else(|| bad(&item, "owner out of range"))?;
        let moves = a
            .get(5)
            .and_then(Value::as_str)
            .ok_or_else(|| bad(&item, "malformed"))?;
        for (k, ch) in moves.bytes().enumerate() {
            let Some(dir) = Dir::from_letter(ch) else {
                continue;
            };
            let t = spawn + k + 1;
            if t > LAST_ORDER_TURN {
                break;
            }
            if turns.len() <= t {
                turns.resize(t + 1, Vec::new());
            }
            if turns[t].len() <= owner {
                turns[t].resize(owner + 1, Vec::new());
            }
            turns[t][owner].push(Order {
                row: r as i16,
                col: c as i16,
                dir,
            });
            let (dr, dc) = dir.offset();
            r = (r + i64::from(dr)).rem_euclid(rows);
            c = (c + i64::from(dc)).rem_euclid(cols);
        }
    }
    Ok(turns)
}

/// A bot the engine killed: `(player, turn, status)`.
pub type Kill = (usize, u32, String);

/// The bots the engine killed (status `timeout` or `crashed`), at the turn their `playerturns`
/// names: the official engine sets both when it kills a bot. Strict mode (`invalid`) and bots that
/// never started (`crashed 0`: killed before the turn-0 shuffle) are refused.
pub fn kills_from_replay(replay: &Value) -> Result<Vec<Kill>, Mismatch> {
    let Some(status) = replay.get("status").and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    let turns = replay.get("playerturns").and_then(Value::as_array);
    let mut kills = Vec::new();
    for (p, s) in status.iter().enumerate() {
        let s = s.as_str().ok_or_else(|| bad("status", "not a string"))?;
        match s {
            "survived" | "eliminated" => {}
            "timeout" | "crashed" => {
                let t = turns
                    .and_then(|t| t.get(p))
                    .and_then(Value::as_u64)
                    .and_then(|t| u32::try_from(t).ok())
                    .ok_or_else(|| bad("playerturns", "missing for a killed bot"))?;
                kills.push((p, t, s.to_string()));
            }
            other => return Err(bad("status", format!("unsupported status {other:?}"))),
        }
    }
    Ok(kills)
}

/// The alive players killed at `turn`, marked in the recorder as the engine marks them.
fn kill_set(game: &Ants, rec: &mut Recorder, kills: &[Kill], turn: u32) -> SeatSet {
    let mut set = SeatSet::EMPTY;
    for (p, t, status) in kills {
        if *t == turn && game.is_alive(*p) {
            rec.set_status(*p, status, turn);
            set = set.with(*p);
        }
    }
    set
}

/// What a turn fed the rules, seat by seat, for the viewer: the orders, and the status of a bot
/// the engine killed this turn.
fn fed_parts(orders: &[&[Order]], killed: SeatSet, kills: &[Kill], turn: u32) -> Vec<Part> {
    (0..orders.len())
        .map(|p| Part {
            killed: kills
                .iter()
                .find(|(s, t, _)| killed.contains(p) && *s == p && *t == turn)
                .map(|(_, _, status)| status.clone()),
            orders: orders.get(p).map_or_else(Vec::new, |o| o.to_vec()),
        })
        .collect()
}

/// Re-plays an official replay with our engine and returns our replay.
pub fn rerun(replay: &Value, map: &str) -> Result<Value, Mismatch> {
    rerun_with(replay, map, &mut |_: &Ants| {})
}

/// [`rerun`], handing `each` the first state and the state after every turn (for pictures).
pub fn rerun_with(
    replay: &Value,
    map: &str,
    each: &mut dyn Visit<Ants>,
) -> Result<Value, Mismatch> {
    let (params, seed) = params_from_replay(replay, map)?;
    let rows = params.map.rows as i32;
    let cols = params.map.cols as i32;
    let orders = orders_from_replay(replay, rows, cols)?;
    let kills = kills_from_replay(replay)?;
    let mut game: Box<Ants> = Box::new(Ants::blank());
    game.init(&params, seed).map_err(|e| bad("setup", e))?;
    let mut rec = Recorder::new(&game);
    // Bots the engine killed while loading (turn 0).
    let at_start = kill_set(&game, &mut rec, &kills, 0);
    each.start(&ViewStart {
        params: params.clone(),
        seed,
        killed: at_start,
    });
    game.kill_at_start(at_start);
    each.state(&game);
    let empty: Vec<Vec<Order>> = Vec::new();
    // A match stopped before its end (`--max-turns`, a signal ending arena) is re-played as far
    // as it went: the replay's `game_length`.
    let length = replay.get("game_length").and_then(Value::as_u64);
    while !game.is_finished() && length.is_none_or(|n| (game.current_turn() as u64) < n) {
        let t = game.current_turn() as usize + 1;
        let these = orders.get(t).unwrap_or(&empty);
        let slices: Vec<&[Order]> = (0..game.players())
            .map(|p| these.get(p).map_or(&[][..], |v| v.as_slice()))
            .collect();
        let killed = kill_set(&game, &mut rec, &kills, t as u32);
        each.fed(&fed_parts(&slices, killed, &kills, t as u32));
        play_recorded(&mut game, &mut rec, &slices, killed);
        each.state(&game);
    }
    let meta = ReplayMeta {
        engine_seed: seed as i64,
        ..ReplayMeta::default()
    };
    Ok(rec.replay(&game, &meta))
}

/// The turn at which two ant records first differ.
fn ant_turn(a: &Value, b: &Value) -> Option<u32> {
    let spawn = a.get(2)?.as_u64()? as u32;
    let (ma, mb) = (a.get(5)?.as_str()?, b.get(5)?.as_str()?);
    let k = ma
        .bytes()
        .zip(mb.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(ma.len().min(mb.len()));
    let end_a = a.get(3)?.as_u64()? as u32;
    let end_b = b.get(3)?.as_u64()? as u32;
    Some((spawn + k as u32 + 1).min(end_a.min(end_b)))
}

fn list_mismatch(
    name: &str,
    exp: &Value,
    got: &Value,
    turn_of: impl Fn(&Value, &Value) -> Option<u32>,
) -> Option<Mismatch> {
    let (e, g) = (exp.as_array()?, got.as_array()?);
    let mut first: Option<Mismatch> = None;
    for i in 0..e.len().max(g.len()) {
        let (x, y) = (e.get(i), g.get(i));
        if x == y {
            continue;
        }
        let turn = match (x, y) {
            (Some(x), Some(y)) => turn_of(x, y),
            (Some(x), None) | (None, Some(x)) => x.get(2).and_then(Value::as_u64).map(|t| t as u32),
            _ => None,
        };
        let m = Difference {
            line: None,
            turn,
            path: format!("{name}[{i}]"),
            expected: x.map_or("nothing".into(), |v| v.to_string()),
            got: y.map_or("nothing".into(), |v| v.to_string()),
        };
        let better = match (&first, turn) {
            (None, _) => true,
            (Some(f), Some(t)) => f.turn.is_none_or(|ft| t < ft),
            _ => false,
        };
        if better {
            first = Some(m);
        }
    }
    first
}

fn history_mismatch(name: &str, exp: &Value, got: &Value) -> Option<Mismatch> {
    let (e, g) = (exp.as_array()?, got.as_array()?);
    let mut first: Option<Mismatch> = None;
    for p in 0..e.len().max(g.len()) {
        let (x, y) = (
            e.get(p).and_then(Value::as_array),
            g.get(p).and_then(Value::as_array),
        );
        let (x, y) = match (x, y) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Some(Difference {
                    line: None,
                    turn: None,
                    path: format!("{name}[{p}]"),
                    expected: format!("{:?}", x),
                    got: format!("{:?}", y),
                })
            }
        };
        if x == y {
            continue;
        }
        let t = x
            .iter()
            .zip(y.iter())
            .position(|(a, b)| a != b)
            .unwrap_or(x.len().min(y.len()));
        if first
            .as_ref()
            .is_none_or(|f| f.turn.is_some_and(|ft| (t as u32) < ft))
        {
            first = Some(Difference {
                line: None,
                turn: Some(t as u32),
                path: format!("{name}[{p}]"),
                expected: x.get(t).map_or("end".into(), |v| v.to_string()),
                got: y.get(t).map_or("end".into(), |v| v.to_string()),
            });
        }
    }
    first
}

/// Compares the fields listed in golden/ants/README.md; the first differing turn wins.
pub fn compare(expected: &Value, got: &Value) -> Result<(), Mismatch> {
    let ed = expected.get("replaydata").unwrap_or(&Value::Null);
    let gd = got.get("replaydata").unwrap_or(&Value::Null);
    let mut found: Vec<Mismatch> = Vec::new();
    first_differing(
        ["food_rate", "food_turn", "food_start"].map(|k| (ed, gd, k)),
        None,
    )?;
    found.extend(list_mismatch("ants", &ed["ants"], &gd["ants"], ant_turn));
    found.extend(list_mismatch("food", &ed["food"], &gd["food"], |a, b| {
        let s = a.get(2)?.as_u64()?.min(b.get(2)?.as_u64()?);
        if a.get(2) != b.get(2) {
            return Some(s as u32);
        }
        Some(a.get(3)?.as_u64()?.min(b.get(3)?.as_u64()?) as u32)
    }));
    found.extend(list_mismatch(
        "hills",
        &ed["hills"],
        &gd["hills"],
        |a, b| Some(a.get(3)?.as_u64()?.min(b.get(3)?.as_u64()?) as u32),
    ));
    found.extend(history_mismatch("scores", &ed["scores"], &gd["scores"]));
    found.extend(history_mismatch(
        "hive_history",
        &ed["hive_history"],
        &gd["hive_history"],
    ));
    if let Some(m) = found.into_iter().min_by_key(|m| m.turn.unwrap_or(u32::MAX)) {
        return Err(m);
    }
    let end = expected
        .get("game_length")
        .and_then(Value::as_u64)
        .map(|t| t as u32);
    let in_data = ["bonus", "cutoff", "winning_turn", "ranking_turn", "map"].map(|k| (ed, gd, k));
    let at_top = ["game_length", "score", "rank", "status", "playerturns"];
    first_differing(
        in_data
            .into_iter()
            .chain(at_top.map(|k| (expected, got, k))),
        end,
    )
}

/// The first key (each with the expected and the re-played object it is read in) whose values
/// differ, as a mismatch at `turn`.
fn first_differing<'a>(
    keys: impl IntoIterator<Item = (&'a Value, &'a Value, &'a str)>,
    turn: Option<u32>,
) -> Result<(), Mismatch> {
    for (e, g, key) in keys {
        if e.get(key) != g.get(key) {
            return Err(Difference {
                line: None,
                turn,
                path: key.into(),
                expected: format!("{:?}", e.get(key)),
                got: format!("{:?}", g.get(key)),
            });
        }
    }
    Ok(())
}

/// The header fields playgame.py writes for a game on `map`: `challenge` "ants", `replayformat`
/// "json", `replaydata.revision` 3, `replaydata.players` the map's number of players, and one
/// player name per player. A replay that says otherwise is not the official engine's record of a
/// game on this map.
pub fn check_header(replay: &Value, map: &str) -> Result<(), Difference> {
    let map = AntsMap::parse(map).map_err(|e| bad("map", e))?;
    let players = u64::from(map.players);
    let want = |path: &str, expected: Value, what: &str| -> Result<(), Difference> {
        let found = replay.pointer(path).cloned().unwrap_or(Value::Null);
        if found == expected {
            return Ok(());
        }
        Err(Difference {
            line: None,
            turn: None,
            path: path.trim_start_matches('/').replace('/', "."),
            expected: format!("{expected} ({what})"),
            got: found.to_string(),
        })
    };
    want(
        "/challenge",
        Value::from("ants"),
        "the game playgame.py writes",
    )?;
    want(
        "/replayformat",
        Value::from("json"),
        "the format playgame.py writes",
    )?;
    want(
        "/replaydata/revision",
        Value::from(3),
        "the replay revision of the official engine",
    )?;
    want(
        "/replaydata/players",
        Value::from(players),
        "the players of the map it is re-played on",
    )?;
    if let Some(names) = replay.get("playernames").and_then(Value::as_array) {
        if names.len() as u64 != players {
            return Err(Difference {
                line: None,
                turn: None,
                path: "playernames".into(),
                expected: format!("{players} names (one per player of the map)"),
                got: format!("{} names", names.len()),
            });
        }
    }
    Ok(())
}

/// The map a replay's game was played on, from what the replay holds, in the official map format:
/// its `map` draws the squares at the end of the game, where water is as it always was, and its
/// `hills` give every hill with its owner (a hill is drawn by what stands on it, so not from the
/// drawing). Food and ants on a map file are not part of the game's start, so none are written.
pub fn map_of_replay(replay: &Value) -> Result<String, Difference> {
    let data = replay.get("replaydata").unwrap_or(replay);
    let m = data
        .get("map")
        .ok_or_else(|| bad("replaydata.map", "missing"))?;
    let size = |key: &str| {
        u16::try_from(num(m, key)?)
            .map_err(|_| bad(&format!("replaydata.map.{key}"), "out of range"))
    };
    let (rows, cols) = (usize::from(size("rows")?), usize::from(size("cols")?));
    let players = num(data, "players")?;
    let lines = m
        .get("data")
        .and_then(Value::as_array)
        .filter(|l| l.len() == rows)
        .ok_or_else(|| bad("replaydata.map.data", "not one string per row"))?;
    let mut grid = Vec::with_capacity(rows);
    for line in lines {
        let line = line
            .as_str()
            .filter(|l| l.len() == cols)
            .ok_or_else(|| bad("replaydata.map.data", "not a string of cols squares"))?;
        grid.push(
            line.bytes()
                .map(|b| if b == b'%' { b'%' } else { b'.' })
                .collect::<Vec<u8>>(),
        );
    }
    let hills = data
        .get("hills")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (i, h) in hills.iter().enumerate() {
        let at = |k: usize| {
            h.get(k)
                .and_then(Value::as_u64)
                .and_then(|v| usize::try_from(v).ok())
        };
        let square = match (at(0), at(1), at(2)) {
            (Some(r), Some(c), Some(owner)) if owner < MAX_PLAYERS => grid
                .get_mut(r)
                .and_then(|row| row.get_mut(c))
                .map(|sq| *sq = b'0' + owner as u8),
            _ => None,
        };
        square.ok_or_else(|| bad(&format!("hills[{i}]"), "not a hill on the map"))?;
    }
    // A header that contradicts its own hills is not a map to compare with (the header check
    // names it instead).
    let mut owners: Vec<u64> = hills.iter().filter_map(|h| h.get(2)?.as_u64()).collect();
    owners.sort_unstable();
    owners.dedup();
    if i64::try_from(owners.len()).ok() != Some(players) {
        return Err(bad(
            "replaydata.players",
            "not the number of players its hills have",
        ));
    }
    let mut text = format!("rows {rows}\ncols {cols}\nplayers {players}\n");
    for row in grid {
        text.push_str("m ");
        text.push_str(&String::from_utf8_lossy(&row));
        text.push('\n');
    }
    Ok(text)
}

/// Why `given` is not the map of the replay whose own map is `own`, if it is not.
fn maps_differ(given: &str, own: &str) -> Result<Option<String>, Difference> {
    let given = AntsMap::parse(given).map_err(|e| bad("map", e))?;
    let own = AntsMap::parse(own).map_err(|e| bad("replaydata.map", e))?;
    let shape = |m: &AntsMap| format!("{}x{} for {} players", m.rows, m.cols, m.players);
    if (given.rows, given.cols, given.players) != (own.rows, own.cols, own.players) {
        return Ok(Some(format!(
            "the replay's is {}, this one {}",
            shape(&own),
            shape(&given)
        )));
    }
    let cols = usize::from(own.cols.max(1));
    let square = |sq: usize| format!("row {}, col {}", sq / cols, sq % cols);
    if let Some(sq) = (0..own.squares()).find(|&i| given.terrain.get(i) != own.terrain.get(i)) {
        return Ok(Some(format!(
            "both are {}, but the water differs at {}",
            shape(&own),
            square(sq)
        )));
    }
    if given.hills != own.hills {
        let hill = |m: &AntsMap| {
            m.hills
                .iter()
                .map(|&(sq, o)| format!("{o} at {}", square(usize::from(sq))))
                .collect::<Vec<_>>()
                .join("; ")
        };
        return Ok(Some(format!(
            "both are {}, but the hills differ: the replay's are {}, this one's {}",
            shape(&own),
            hill(&own),
            hill(&given)
        )));
    }
    Ok(None)
}

/// The map to re-play `replay` on: `given` (`--map`) if it is the replay's own, else the
/// replay's own when none is given. A replay whose own map cannot be read is re-played on
/// `given` as it is (the comparison then names what differs).
pub fn map_for(replay: &Value, given: Option<&str>) -> Result<String, Difference> {
    let own = map_of_replay(replay);
    match (given, own) {
        (None, own) => own,
        (Some(given), Err(_)) => Ok(given.to_string()),
        (Some(given), Ok(own)) => match maps_differ(given, &own)? {
            None => Ok(given.to_string()),
            // Whole, not cut as field values are: the sizes are at the end.
            Some(why) => Err(Difference {
                line: None,
                turn: None,
                path: "map".into(),
                expected: "the map the replay was played on (leave --map out: the replay holds it)"
                    .into(),
                got: format!("another map: the maps differ: {why}"),
            }),
        },
    }
}

/// Re-runs an official replay (revision 3) on `map` and checks every compared field.
pub fn verify_replay(replay: &str, map: &str) -> Result<Verified, Difference> {
    let expected: Value = serde_json::from_str(replay).map_err(|e| bad("replay", e))?;
    replay_value(&expected, Some(map), &mut |_: &Ants| {})
}

/// [`verify_replay`] of a replay already read, on `map` or (`None`) the map the replay holds,
/// handing `each` the first state and the state after every turn.
pub fn replay_value(
    expected: &Value,
    map: Option<&str>,
    each: &mut dyn Visit<Ants>,
) -> Result<Verified, Difference> {
    let map = &map_for(expected, map)?;
    let meta = Meta {
        config: String::new(),
        seed: expected
            .pointer("/replaydata/engine_seed")
            .and_then(Value::as_i64)
            .map_or(0, i64::unsigned_abs),
        bots: strings(expected.get("playernames")),
    };
    each.meta(&meta);
    check_header(expected, map)?;
    let got = rerun_with(expected, map, each)?;
    compare(expected, &got)?;
    let d = &got["replaydata"];
    let turns = got["game_length"].as_u64().unwrap_or(0) as u32;
    let ants = d["ants"].as_array().map_or(0, Vec::len);
    let cutoff = d["cutoff"].as_str().unwrap_or("");
    Ok(Verified {
        steps: u64::from(turns),
        turns,
        checks: (ants + d["food"].as_array().map_or(0, Vec::len)) as u64,
        over: game_over(&got),
        detail: format!(
            "{} players, {ants} ants, {} food, end: {}",
            d["players"].as_u64().unwrap_or(0),
            d["food"].as_array().map_or(0, Vec::len),
            if cutoff.is_empty() { "-" } else { cutoff }
        ),
        meta,
    })
}

/// Whether a re-played replay reached the game's end: a cut-off, or the last turn.
fn game_over(got: &Value) -> bool {
    let d = &got["replaydata"];
    let cutoff = d["cutoff"].as_str().unwrap_or("");
    let length = got["game_length"].as_u64().unwrap_or(0);
    !cutoff.is_empty() || d["turns"].as_u64().is_some_and(|t| length >= t)
}
