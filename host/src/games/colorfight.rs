//! ColorFight on the desktop: the canonical JSON of `rules/colorfight.md`, a JSON-lines trace of a
//! match, and a verifier that replays a trace and names the first tick and field that differ.
//!
//! The canonical JSON is written from structs so its key order is the rules file's; it is compared
//! as parsed values, so a trace written by another tool with other key order or spacing verifies.

use arena_core::games::colorfight::{Action, ColorFight, Num, Params, Variant};
use arena_core::{Game, StepReport};
use serde::Serialize;
use serde_json::{json, Value};
use std::fmt;

#[derive(Serialize)]
struct PlayerJson {
    gold: f64,
    energy: f64,
    cells: u16,
    bases: u8,
    defeated: bool,
    #[serde(rename = "busyUntil")]
    busy_until: u32,
}

#[derive(Serialize)]
struct StateJson<'a> {
    tick: u32,
    width: usize,
    height: usize,
    players: Vec<PlayerJson>,
    cells: Vec<(u8, &'a str, &'a str, u32, u8, u32)>,
}

/// A fixed-point quantity as a JSON number: `I32F32` values up to 100 are exact in an `f64`.
fn num(n: Num) -> f64 {
    n.to_num::<f64>()
}

fn state_struct(g: &ColorFight) -> StateJson<'static> {
    StateJson {
        tick: g.tick(),
        width: g.width(),
        height: g.height(),
        players: g
            .players()
            .iter()
            .map(|p| PlayerJson {
                gold: num(p.gold),
                energy: num(p.energy),
                cells: p.cells,
                bases: p.all_bases(),
                defeated: p.defeated,
                busy_until: p.busy_until,
            })
            .collect(),
        cells: g
            .cells()
            .iter()
            .map(|c| {
                (
                    c.owner,
                    c.kind.name(),
                    c.building.name(),
                    c.taken_at,
                    c.attacker,
                    c.done_at,
                )
            })
            .collect(),
    }
}

/// The canonical JSON of the state, keys in the rules file's order.
pub fn state_json(g: &ColorFight) -> String {
    serde_json::to_string(&state_struct(g)).unwrap_or_default()
}

/// The canonical state as a JSON value (for comparisons and embedding).
pub fn state_value(g: &ColorFight) -> Value {
    serde_json::to_value(state_struct(g)).unwrap_or(Value::Null)
}

/// `{"attack":[x,y]}`, `{"build":[x,y]}`, or `null` for a pass. A malformed action (which no
/// bot can mean) is written as the string `"malformed"`, which reads back as malformed.
pub fn action_json(a: &Action) -> Value {
    match *a {
        Action::Pass => Value::Null,
        Action::Attack { x, y } => json!({ "attack": [x, y] }),
        Action::Build { x, y } => json!({ "build": [x, y] }),
        Action::Malformed => json!("malformed"),
    }
}

fn coords(v: &Value) -> Option<(i32, i32)> {
    match v.as_array()?.as_slice() {
        [x, y] => Some((
            i32::try_from(x.as_i64()?).ok()?,
            i32::try_from(y.as_i64()?).ok()?,
        )),
        _ => None,
    }
}

/// Whatever a bot sent, as an action: anything that is not one of the three forms is
/// [`Action::Malformed`], which the rules refuse and count.
pub fn action_from_json(v: &Value) -> Action {
    match v {
        Value::Null => Action::Pass,
        Value::Object(m) if m.len() == 1 => {
            if let Some(c) = m.get("attack") {
                coords(c).map_or(Action::Malformed, |(x, y)| Action::Attack { x, y })
            } else if let Some(c) = m.get("build") {
                coords(c).map_or(Action::Malformed, |(x, y)| Action::Build { x, y })
            } else {
                Action::Malformed
            }
        }
        _ => Action::Malformed,
    }
}

/// One line of text from a bot, as an action (see [`action_from_json`]).
pub fn action_from_str(text: &str) -> Action {
    serde_json::from_str::<Value>(text).map_or(Action::Malformed, |v| action_from_json(&v))
}

/// The params as JSON: `{"variant":"conquest","width":30,"height":30,"players":4,"ticks":12000}`.
pub fn params_json(p: &Params) -> Value {
    json!({
        "variant": p.variant.name(),
        "width": p.width,
        "height": p.height,
        "players": p.players,
        "ticks": p.ticks,
    })
}

/// Params from JSON; missing keys take the defaults.
pub fn params_from_json(v: &Value) -> Result<Params, String> {
    let d = Params::default();
    let int = |key: &str, default: u64| -> Result<u64, String> {
        match v.get(key) {
            None => Ok(default),
            Some(x) => x.as_u64().ok_or(format!("{key} must be a whole number")),
        }
    };
    let variant = match v.get("variant") {
        None => d.variant,
        Some(x) => x
            .as_str()
            .and_then(Variant::from_name)
            .ok_or("variant must be \"conquest\" or \"skirmish\"")?,
    };
    let small = |key: &str, default: u64, max: u64| -> Result<u64, String> {
        let n = int(key, default)?;
        if n > max {
            Err(format!("{key} is too large"))
        } else {
            Ok(n)
        }
    };
    Ok(Params {
        variant,
        width: small("width", d.width.into(), u16::MAX.into())? as u16,
        height: small("height", d.height.into(), u16::MAX.into())? as u16,
        players: small("players", d.players.into(), u8::MAX.into())? as u8,
        ticks: small("ticks", d.ticks.into(), u32::MAX.into())? as u32,
    })
}

/// The first line of a trace: game, params, seed and the state at tick 0.
pub fn trace_header(game: &ColorFight) -> String {
    let mut h = params_json(game.params());
    if let Value::Object(m) = &mut h {
        m.insert("game".into(), json!(ColorFight::NAME));
        m.insert("seed".into(), json!(game.seed()));
        m.insert("state".into(), state_value(game));
    }
    h.to_string()
}

/// One line per step: the tick the actions were taken at, the actions, what was refused, and the
/// state after the step. Call it with the game as it is *after* `step(actions)` returned `report`.
pub fn trace_line(game: &ColorFight, actions: &[Action], report: &StepReport) -> String {
    let seats = game.seats();
    let acts: Vec<Value> = (0..seats)
        .map(|s| action_json(&actions.get(s).copied().unwrap_or_default()))
        .collect();
    json!({
        "tick": game.tick().saturating_sub(1),
        "actions": acts,
        "refused": &report.refused[..seats],
        "state": state_value(game),
    })
    .to_string()
}

/// A trace that replays to the end: how far it went and where it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    pub steps: u32,
    pub final_tick: u32,
    pub digest: u64,
    pub over: bool,
}

/// The first difference between a trace and its replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based line of the trace.
    pub line: usize,
    pub tick: u32,
    /// A path into the line: `state.players[2].gold`, `state.cells[37][0]`, `refused[1]`, `json`.
    pub field: String,
    /// What the trace says, and what the replay gives.
    pub trace: String,
    pub replay: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, tick {}: {} is {} in the trace but {} in the replay",
            self.line, self.tick, self.field, self.trace, self.replay
        )
    }
}

impl std::error::Error for Mismatch {}

/// The first path where `trace` and `replay` differ.
fn first_difference(path: &str, trace: &Value, replay: &Value) -> Option<(String, String, String)> {
    match (trace, replay) {
        (Value::Object(a), Value::Object(b)) => {
            // The replay's keys, in its (canonical) order, then any extra key of the trace.
            for (k, vb) in b {
                let sub = format!("{path}.{k}");
                match a.get(k) {
                    Some(va) => {
                        if let Some(d) = first_difference(&sub, va, vb) {
                            return Some(d);
                        }
                    }
                    None => return Some((sub, "missing".into(), vb.to_string())),
                }
            }
            a.keys()
                .find(|k| !b.contains_key(*k))
                .map(|k| (format!("{path}.{k}"), a[k].to_string(), "missing".into()))
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                if let Some(d) = first_difference(&format!("{path}[{i}]"), va, vb) {
                    return Some(d);
                }
            }
            (a.len() != b.len()).then(|| {
                (
                    format!("{path}.length"),
                    a.len().to_string(),
                    b.len().to_string(),
                )
            })
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => None,
        _ if trace == replay => None,
        _ => Some((path.into(), trace.to_string(), replay.to_string())),
    }
}

fn mismatch(line: usize, tick: u32, d: (String, String, String)) -> Mismatch {
    let field = d.0.trim_start_matches('.').to_string();
    Mismatch {
        line,
        tick,
        field,
        trace: d.1,
        replay: d.2,
    }
}

fn parse(line: usize, tick: u32, text: &str) -> Result<Value, Mismatch> {
    serde_json::from_str(text).map_err(|e| Mismatch {
        line,
        tick,
        field: "json".into(),
        trace: e.to_string(),
        replay: "a JSON object".into(),
    })
}

/// Replays a trace (header, then one line per step) and checks every recorded field.
pub fn verify_trace(text: &str) -> Result<VerifyReport, Mismatch> {
    replay_trace(text, |_| {})
}

/// [`verify_trace`], handing `each` the tick-0 state and the state after every step (`arena render`).
pub fn replay_trace(
    text: &str,
    mut each: impl FnMut(&ColorFight),
) -> Result<VerifyReport, Mismatch> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty());
    let (n, first) = lines.next().ok_or(Mismatch {
        line: 1,
        tick: 0,
        field: "header".into(),
        trace: "nothing".into(),
        replay: "a header line".into(),
    })?;
    let header = parse(n, 0, first)?;
    let bad_header = |what: String| Mismatch {
        line: n,
        tick: 0,
        field: "header".into(),
        trace: what,
        replay: "a colorfight header".into(),
    };
    if header.get("game").and_then(Value::as_str) != Some(ColorFight::NAME) {
        return Err(bad_header(format!(
            "game {}",
            header.get("game").unwrap_or(&Value::Null)
        )));
    }
    let params = params_from_json(&header).map_err(bad_header)?;
    let seed = header
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad_header("no seed".into()))?;
    let mut game = ColorFight::new(&params, seed).map_err(|e| bad_header(e.to_string()))?;
    let initial = header.get("state").unwrap_or(&Value::Null);
    if let Some(d) = first_difference(".state", initial, &state_value(&game)) {
        return Err(mismatch(n, 0, d));
    }
    each(&game);
    let mut steps = 0u32;
    for (n, text) in lines {
        let tick = game.tick();
        let line = parse(n, tick, text)?;
        let said = line.get("tick").cloned().unwrap_or(Value::Null);
        if said != json!(tick) {
            return Err(mismatch(
                n,
                tick,
                ("tick".into(), said.to_string(), tick.to_string()),
            ));
        }
        let actions: Vec<Action> = match line.get("actions").and_then(Value::as_array) {
            Some(a) => a.iter().map(action_from_json).collect(),
            None => {
                return Err(mismatch(
                    n,
                    tick,
                    ("actions".into(), "missing".into(), "a list".into()),
                ))
            }
        };
        let report = game.step(&actions);
        let seats = game.seats();
        // Long games record the state only every few ticks: lines without one check the refusals.
        let (replay, recorded) = match line.get("state") {
            Some(state) => (
                json!({"refused": &report.refused[..seats], "state": state_value(&game)}),
                json!({"refused": line.get("refused").cloned().unwrap_or(Value::Null), "state": state}),
            ),
            None => (
                json!({"refused": &report.refused[..seats]}),
                json!({"refused": line.get("refused").cloned().unwrap_or(Value::Null)}),
            ),
        };
        if let Some(d) = first_difference("", &recorded, &replay) {
            return Err(mismatch(n, tick, d));
        }
        each(&game);
        steps += 1;
    }
    Ok(VerifyReport {
        steps,
        final_tick: game.tick(),
        digest: game.digest(),
        over: game.is_over(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::games::colorfight::ColorFightBot;
    use arena_core::{Bot, Roster};

    fn played(ticks: u32) -> String {
        let params = Params {
            width: 10,
            height: 10,
            ticks,
            ..Params::default()
        };
        let mut game = ColorFight::new(&params, 11).unwrap();
        let mut bots: Vec<ColorFightBot> = (0..4)
            .map(|s| ColorFight::bot(ColorFight::BOTS[s % 3], s as u64).unwrap())
            .collect();
        let mut out = vec![trace_header(&game)];
        while !game.is_over() {
            let mut actions: Vec<Action> = (0..4).map(|s| bots[s].act(&game, s)).collect();
            actions[3] = Action::Attack { x: 99, y: 0 }; // refused, recorded
            let report = game.step(&actions);
            out.push(trace_line(&game, &actions, &report));
        }
        out.join("\n")
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
        assert_eq!((err.line, err.tick), (51, 49));
        assert_eq!(err.field, "state.players[2].gold");
        assert_eq!(err.trace, "77.5");
        assert!(err.to_string().contains("tick 49"), "{err}");
        // A changed action replays differently: the state (or refusal) of that line differs.
        let mut v: Value = serde_json::from_str(&lines[80]).unwrap();
        v["actions"][3] = Value::Null;
        lines[50] = text.lines().nth(50).unwrap().to_string();
        lines[80] = v.to_string();
        let err = verify_trace(&lines.join("\n")).unwrap_err();
        assert_eq!((err.line, err.tick), (81, 79));
        assert_eq!(err.field, "refused[3]");
        // A changed cell.
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut v: Value = serde_json::from_str(&lines[100]).unwrap();
        v["state"]["cells"][37][0] = json!(4);
        lines[100] = v.to_string();
        let err = verify_trace(&lines.join("\n")).unwrap_err();
        assert_eq!(err.field, "state.cells[37][0]");
        assert_eq!(err.tick, 99);
        // Not JSON.
        lines[100] = "{oops".into();
        assert_eq!(verify_trace(&lines.join("\n")).unwrap_err().field, "json");
    }
}
