//! The canonical JSON of `rules/tower-defense.md` ("Canonical JSON"): the state a bot sees and the
//! actions of the controller's bot API.
//!
//! Reading an action never fails: whatever a bot sent becomes an [`Action`], and what the rules do not
//! allow is refused by the engine (and counted), exactly as the controller ignored it.

use arena_core::games::tower_defense::{Action, InvaderView, Stat, TowerDefense, TowerKind, TowerView};
use arena_core::Game;
use serde_json::{json, Map, Value};

fn invader_json(v: &InvaderView) -> Value {
    json!([v.pos, v.hp, v.maxhp, v.defense, v.stun_res, v.stun_time])
}

fn tower_json(t: &TowerView) -> Value {
    json!([t.pos, t.kind.name(), t.level, t.power, t.range, t.cooldown])
}

fn board_json(g: &TowerDefense, board: usize) -> Value {
    let invaders: Vec<Value> = g.invaders(board).map(|v| invader_json(&v)).collect();
    let towers: Vec<Value> = g.towers(board).map(|t| tower_json(&t)).collect();
    json!({ "invaders": invaders, "towers": towers })
}

/// The state fields in canonical order (without `turn`), appended to `out`.
pub fn state_fields(g: &TowerDefense, out: &mut Map<String, Value>) {
    if let Some(players) = g.players() {
        let players: Vec<Value> = players
            .iter()
            .map(|p| {
                json!({
                    "gold": p.gold,
                    "life": p.life,
                    "income": p.income,
                    "boostMax": p.boost_max,
                    "inflation": p.inflation,
                })
            })
            .collect();
        out.insert("players".into(), Value::Array(players));
        let boards: Vec<Value> = (0..g.boards()).map(|b| board_json(g, b)).collect();
        out.insert("boards".into(), Value::Array(boards));
    } else if let Some((inv, def)) = g.siege() {
        out.insert(
            "invader".into(),
            json!({ "gold": inv.gold, "income": inv.income, "boostMax": inv.boost_max }),
        );
        out.insert(
            "defender".into(),
            json!({ "gold": def.gold, "life": def.life }),
        );
        out.insert("board".into(), board_json(g, 0));
    }
}

/// The canonical state JSON: Duel `{"turn","players","boards"}`, Siege
/// `{"turn","invader","defender","board"}`.
pub fn state_json(g: &TowerDefense) -> Value {
    let mut m = Map::new();
    m.insert("turn".into(), json!(g.turn()));
    state_fields(g, &mut m);
    Value::Object(m)
}

/// The canonical action JSON, as the original bot API returned it (`null` for a pass).
pub fn action_json(a: &Action) -> Value {
    match *a {
        Action::Pass => Value::Null,
        Action::Spawn {
            hp,
            defense,
            stun_res,
        } => json!({"action": "spawn", "hp": hp, "defense": defense, "stunRes": stun_res}),
        Action::Build { kind, pos } => {
            json!({"action": "build", "type": kind.map(|k| k.name()), "pos": pos})
        }
        Action::Upgrade { pos, stat } => {
            json!({"action": "upgrade", "pos": pos, "stat": stat.map(|s| s.name())})
        }
        Action::Destroy { pos } => json!({"action": "destroy", "pos": pos}),
        Action::Unknown => json!({"action": "unknown"}),
    }
}

/// An integer as the controller's JavaScript would use it for a position or a boost: integral
/// numbers (`5`, `5.0`); anything else (fractions, strings, objects) is `None`.
fn integer(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    if v.as_u64().is_some() {
        return Some(i64::MAX);
    }
    let f = v.as_f64()?;
    if f.fract() != 0.0 {
        return None;
    }
    if f >= i64::MAX as f64 {
        Some(i64::MAX)
    } else if f <= i64::MIN as f64 {
        Some(i64::MIN)
    } else {
        Some(f as i64)
    }
}

/// A spawn boost: missing, `null` or `false` is 0, a negative number is 0 (the engine clamps),
/// anything unusable is `i64::MAX` (over any limit, so refused).
fn boost(v: Option<&Value>) -> i64 {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => 0,
        Some(v) => match v.as_f64() {
            Some(f) if f < 0.0 => 0,
            _ => integer(v).unwrap_or(i64::MAX),
        },
    }
}

/// A position: off the path (`-1`) when missing or not an integer.
fn position(v: Option<&Value>) -> i64 {
    v.and_then(integer).unwrap_or(-1)
}

/// Reads a bot's action. Never fails: unknown shapes become [`Action::Unknown`] (refused).
pub fn action_from_json(v: &Value) -> Action {
    let Value::Object(m) = v else {
        return if v.is_null() {
            Action::Pass
        } else {
            Action::Unknown
        };
    };
    match m.get("action").and_then(Value::as_str) {
        Some("spawn") => Action::Spawn {
            hp: boost(m.get("hp")),
            defense: boost(m.get("defense")),
            stun_res: boost(m.get("stunRes")),
        },
        Some("build") => Action::Build {
            kind: m
                .get("type")
                .and_then(Value::as_str)
                .and_then(TowerKind::from_name),
            pos: position(m.get("pos")),
        },
        Some("upgrade") => Action::Upgrade {
            pos: position(m.get("pos")),
            stat: m
                .get("stat")
                .and_then(Value::as_str)
                .and_then(Stat::from_name),
        },
        Some("destroy") => Action::Destroy {
            pos: position(m.get("pos")),
        },
        _ => Action::Unknown,
    }
}

