//! The canonical JSON of `rules/colorfight.md`: states, actions and params.
//!
//! The state is written from structs so its key order is the rules file's; traces compare it as
//! parsed values, so a trace written by another tool with other key order or spacing verifies.

use arena_core::games::colorfight::{Action, ColorFight, Num, Params, Respawn, Variant};
use serde::Serialize;
use serde_json::{json, Value};

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

/// What the rules read that the canonical state leaves out, sent to JSON-lines bots beside it
/// (`"extra"`; the canonical state, the traces and `arena serve`'s API are unchanged): the game's
/// length and respawn mode, and per player the first tick it may build again, the tick its
/// unfinished base is done (0: none), the tick it was defeated and its best attempt's score.
/// With the state it is the whole game but the seed and the random streams.
/// `{"ticks":600,"respawn":"auto","players":[{"nextBuild":0,"buildDone":0,"defeatedAt":0,"best":0},...]}`
pub fn extra_json(g: &ColorFight) -> String {
    let players: Vec<Value> = (g.players().iter())
        .map(|p| {
            json!({
                "nextBuild": p.next_build,
                "buildDone": p.build_done,
                "defeatedAt": p.defeated_at,
                "best": p.best,
            })
        })
        .collect();
    json!({
        "ticks": g.params().ticks,
        "respawn": g.params().respawn.name(),
        "players": players,
    })
    .to_string()
}

/// `{"attack":[x,y]}`, `{"build":[x,y]}`, `{"join":true}` (a defeated client joining again, in
/// the server-compatible mode), or `null` for a pass. A malformed action (which no bot can mean)
/// is written as the string `"malformed"`, which reads back as malformed.
pub fn action_json(a: &Action) -> Value {
    match *a {
        Action::Pass => Value::Null,
        Action::Attack { x, y } => json!({ "attack": [x, y] }),
        Action::Build { x, y } => json!({ "build": [x, y] }),
        Action::Join => json!({ "join": true }),
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

/// Whatever a bot sent, as an action: anything that is not one of the four forms is
/// [`Action::Malformed`], which the rules refuse and count.
pub fn action_from_json(v: &Value) -> Action {
    match v {
        Value::Null => Action::Pass,
        Value::Object(m) if m.len() == 1 => {
            if let Some(c) = m.get("attack") {
                coords(c).map_or(Action::Malformed, |(x, y)| Action::Attack { x, y })
            } else if let Some(c) = m.get("build") {
                coords(c).map_or(Action::Malformed, |(x, y)| Action::Build { x, y })
            } else if m.get("join") == Some(&Value::Bool(true)) {
                Action::Join
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

/// The params as JSON: `{"variant":"conquest","width":30,"height":30,"players":4,"ticks":12000}`,
/// plus `"respawn":"join"` in the server-compatible mode (absent: the rules' automatic respawn).
pub fn params_json(p: &Params) -> Value {
    let mut v = json!({
        "variant": p.variant.name(),
        "width": p.width,
        "height": p.height,
        "players": p.players,
        "ticks": p.ticks,
    });
    if let (Respawn::OnJoin, Some(m)) = (p.respawn, v.as_object_mut()) {
        m.insert("respawn".into(), json!(p.respawn.name()));
    }
    v
}

/// The value `key` names (one of `choices`), `default` when it is missing.
fn named<T>(
    v: &Value,
    key: &str,
    default: T,
    from_name: fn(&str) -> Option<T>,
    choices: &str,
) -> Result<T, BadParam> {
    match v.get(key) {
        None => Ok(default),
        Some(x) => {
            (x.as_str().and_then(from_name)).ok_or(BadParam::new(key, format!("must be {choices}")))
        }
    }
}

/// A param of the header that is not one: its key and what is wrong with it. (Written without
/// thiserror: the viewer, which has only std, reads this file too.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadParam {
    /// The header's key.
    pub key: String,
    /// What is wrong with its value.
    pub why: String,
}

impl std::fmt::Display for BadParam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.key, self.why)
    }
}

impl std::error::Error for BadParam {}

impl BadParam {
    fn new(key: &str, why: impl Into<String>) -> Self {
        BadParam {
            key: key.into(),
            why: why.into(),
        }
    }
}

/// Params from JSON; missing keys take the defaults.
pub fn params_from_json(v: &Value) -> Result<Params, BadParam> {
    let d = Params::default();
    let int = |key: &str, default: u64| -> Result<u64, BadParam> {
        match v.get(key) {
            None => Ok(default),
            Some(x) => x
                .as_u64()
                .ok_or(BadParam::new(key, "must be a whole number")),
        }
    };
    let variant = named(
        v,
        "variant",
        d.variant,
        Variant::from_name,
        "\"conquest\" or \"skirmish\"",
    )?;
    let respawn = named(
        v,
        "respawn",
        d.respawn,
        Respawn::from_name,
        "\"auto\" or \"join\"",
    )?;
    let small = |key: &str, default: u64, max: u64| -> Result<u64, BadParam> {
        let n = int(key, default)?;
        if n > max {
            Err(BadParam::new(key, "is too large"))
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
        respawn,
    })
}
