//! Tower Defense on the desktop: canonical JSON (rules file, "Canonical JSON"), and the golden trace
//! format of the reference controller (`golden/tower-defense/README.md`): read, replay, compare.
//!
//! Reading an action never fails: whatever a bot sent becomes an [`Action`], and what the rules do not
//! allow is refused by the engine (and counted), exactly as the controller ignored it.

use arena_core::games::tower_defense::{
    Action, InvaderView, Params, Stat, TowerDefense, TowerKind, TowerView, Variant,
};
use arena_core::Game;
use serde_json::{json, Map, Value};
use std::fmt;

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
fn state_fields(g: &TowerDefense, out: &mut Map<String, Value>) {
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

/// The header line of a trace.
pub fn trace_header(variant: Variant, bots: &[String], seed: u64) -> Value {
    json!({"header": {
        "game": "tower-defense",
        "variant": variant.name(),
        "source": "pocket-arena",
        "bots": bots,
        "seed": seed,
    }})
}

/// One trace line: the actions that led to this state (`None` for the turn-0 line), then the state.
pub fn trace_line(actions: Option<&[Action; 2]>, g: &TowerDefense) -> Value {
    let mut m = Map::new();
    let actions = match actions {
        Some(a) => Value::Array(a.iter().map(action_json).collect()),
        None => Value::Null,
    };
    m.insert("actions".into(), actions);
    m.insert("turn".into(), json!(g.turn()));
    state_fields(g, &mut m);
    Value::Object(m)
}

/// What a verified trace held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Turns replayed.
    pub turns: u32,
    /// Recorded states compared (and equal).
    pub states_checked: u32,
}

/// Why a trace did not verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The file is not a trace: 1-based line and what was wrong.
    Malformed { line: usize, why: String },
    /// A recorded state differs from the replay: the first differing field.
    State {
        line: usize,
        turn: u32,
        /// e.g. `boards[1].towers[0].cooldown`.
        path: String,
        expected: String,
        got: String,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Malformed { line, why } => write!(f, "line {line}: malformed trace: {why}"),
            Mismatch::State {
                line,
                turn,
                path,
                expected,
                got,
            } => write!(
                f,
                "line {line}, turn {turn}: {path}: expected {expected}, got {got}"
            ),
        }
    }
}

impl std::error::Error for Mismatch {}

const INVADER_FIELDS: [&str; 6] = ["pos", "hp", "maxhp", "defense", "stunRes", "stunTime"];
const TOWER_FIELDS: [&str; 6] = ["pos", "type", "level", "power", "range", "cooldown"];

/// The first difference between `expected` and `got`, as `(path, expected, got)`.
fn diff(expected: &Value, got: &Value, path: &str) -> Option<(String, String, String)> {
    let short = |v: &Value| {
        let s = v.to_string();
        if s.len() > 80 {
            format!("{}...", s.chars().take(77).collect::<String>())
        } else {
            s
        }
    };
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            for (k, ev) in e {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match g.get(k) {
                    Some(gv) => {
                        if let Some(d) = diff(ev, gv, &p) {
                            return Some(d);
                        }
                    }
                    None => return Some((p, short(ev), "nothing".into())),
                }
            }
            None
        }
        (Value::Array(e), Value::Array(g)) => {
            let names: Option<&[&str; 6]> = if path.ends_with("invaders") {
                Some(&INVADER_FIELDS)
            } else if path.ends_with("towers") {
                Some(&TOWER_FIELDS)
            } else {
                None
            };
            for (i, (ev, gv)) in e.iter().zip(g).enumerate() {
                if let (Some(names), Value::Array(ea), Value::Array(ga)) = (names, ev, gv) {
                    for (j, (a, b)) in ea.iter().zip(ga).enumerate() {
                        if a != b {
                            let field = names.get(j).copied().unwrap_or("?");
                            return Some((format!("{path}[{i}].{field}"), short(a), short(b)));
                        }
                    }
                    if ea.len() != ga.len() {
                        return Some((format!("{path}[{i}]"), short(ev), short(gv)));
                    }
                } else if let Some(d) = diff(ev, gv, &format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            if e.len() != g.len() {
                let i = e.len().min(g.len());
                let show = |v: &Vec<Value>| v.get(i).map_or("nothing".into(), short);
                return Some((format!("{path}[{i}]"), show(e), show(g)));
            }
            None
        }
        _ if expected == got => None,
        _ => Some((path.to_string(), short(expected), short(got))),
    }
}

const STATE_KEYS: [&str; 5] = ["players", "boards", "invader", "defender", "board"];

/// Compares the state fields a trace line records (if any) with the game; `Ok(true)` if it had some.
fn check_line(line_no: usize, line: &Value, g: &TowerDefense) -> Result<bool, Mismatch> {
    let Some(obj) = line.as_object() else {
        return Err(Mismatch::Malformed {
            line: line_no,
            why: "not a JSON object".into(),
        });
    };
    let mut recorded = Map::new();
    if let Some(t) = obj.get("turn") {
        recorded.insert("turn".into(), t.clone());
    }
    let mut has_state = false;
    for k in STATE_KEYS {
        if let Some(v) = obj.get(k) {
            recorded.insert(k.into(), v.clone());
            has_state = true;
        }
    }
    let ours = state_json(g);
    if let Some((path, expected, got)) = diff(&Value::Object(recorded), &ours, "") {
        return Err(Mismatch::State {
            line: line_no,
            turn: g.turn(),
            path,
            expected,
            got,
        });
    }
    Ok(has_state)
}

/// Replays a golden trace and compares every recorded state.
pub fn verify_trace(text: &str) -> Result<VerifyReport, Mismatch> {
    replay_trace(text, |_| {})
}

/// [`verify_trace`], handing `each` the turn-0 state and the state after every turn (`arena render`).
pub fn replay_trace(
    text: &str,
    mut each: impl FnMut(&TowerDefense),
) -> Result<VerifyReport, Mismatch> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let malformed = |line: usize, why: &str| Mismatch::Malformed {
        line,
        why: why.to_string(),
    };
    let parse = |n: usize, l: &str| -> Result<Value, Mismatch> {
        serde_json::from_str(l).map_err(|e| malformed(n, &format!("not JSON: {e}")))
    };
    let (n, header) = lines.next().ok_or_else(|| malformed(1, "empty file"))?;
    let header = parse(n + 1, header)?;
    let h = header
        .get("header")
        .ok_or_else(|| malformed(n + 1, "no header"))?;
    if h.get("game").and_then(Value::as_str) != Some("tower-defense") {
        return Err(malformed(n + 1, "not a tower-defense trace"));
    }
    let variant = h
        .get("variant")
        .and_then(Value::as_str)
        .and_then(Variant::from_name)
        .ok_or_else(|| malformed(n + 1, "unknown variant"))?;
    let mut game =
        TowerDefense::new(&Params { variant }, 0).map_err(|e| malformed(n + 1, &e.to_string()))?;
    let (n, first) = lines
        .next()
        .ok_or_else(|| malformed(n + 2, "no turn-0 state"))?;
    let first = parse(n + 1, first)?;
    if !first.get("actions").is_some_and(Value::is_null) {
        return Err(malformed(
            n + 1,
            "the turn-0 line must have \"actions\":null",
        ));
    }
    let mut report = VerifyReport {
        turns: 0,
        states_checked: 0,
    };
    if check_line(n + 1, &first, &game)? {
        report.states_checked += 1;
    }
    each(&game);
    for (n, text) in lines {
        let line = parse(n + 1, text)?;
        let actions = match line.get("actions") {
            Some(Value::Array(a)) if a.len() == 2 => {
                [action_from_json(&a[0]), action_from_json(&a[1])]
            }
            _ => return Err(malformed(n + 1, "\"actions\" must be a list of two")),
        };
        if game.is_over() {
            return Err(malformed(n + 1, "the game was already over"));
        }
        game.step(&actions);
        report.turns += 1;
        if check_line(n + 1, &line, &game)? {
            report.states_checked += 1;
        }
        each(&game);
    }
    Ok(report)
}
