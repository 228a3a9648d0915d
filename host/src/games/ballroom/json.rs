//! The reference's JSON (player states, actions, phase messages) and the reply parser.
//!
//! Everything here is a pure function of a [`Ballroom`] (or of text): the process and TCP
//! handling lives elsewhere. The JSON the engine writes is built by hand, because it must match
//! the reference's Jackson output byte for byte (key order, no spaces); what bots and logs send is
//! read with serde_json.
//!
//! ## The protocol, per step
//! - [`phase_message`]`(game, seat)` is the text the reference writes to `seat` before the step
//!   the game is about to play (`println`, so every line ends in `\n`): `wake\n<seat>\n` before the
//!   handshake, one GamePhase JSON line before every phase, `fin\n` once the game is over.
//! - The bot answers one line; [`parse_reply`]`(phase, line)` reads it as the reference's
//!   Jackson would: the first JSON value on the line (what follows it is ignored), and with the
//!   action the result flags the bot sent ([`Flags`]: `isValid`, and in ATTACK `damage` and
//!   `nullified`), which stand in the log where the engine's judgement does not set them. `Ok`
//!   is what to step with. `Err(fault)` says what went wrong and [`Fault::action`] is what the
//!   engine plays instead (the reference's drop for unparsable input, our default action where
//!   the reference would crash). A timeout or EOF is [`Action::Null`]. [`parse_action_line`] is
//!   the action alone.

use arena_core::games::ballroom::{
    Action, Ballroom, Class, Flags, Item, Phase, Player, Sent, TurnRecord, PLAYERS,
};
use arena_core::{Game, Seat};
use serde_json::Value;
use std::fmt::{self, Write as _};

/// One player state, exactly as Jackson writes `PlayerState`.
pub fn player_state_json(p: &Player) -> String {
    let s = p.stats();
    format!(
        concat!(
            r#"{{"class":"{}","position":{{"x":{},"y":{}}},"isActive":{},"item":"{}","gold":{},"#,
            r#""score":{},"effect_timer":{},"health":{},"shielded":{},"item_in_use":"{}","#,
            r#""stat_set":{{"damage":{},"speed":{},"range":{},"maxHealth":{}}}}}"#
        ),
        p.class.name(),
        p.pos.x,
        p.pos.y,
        p.active,
        p.item.name(),
        p.gold,
        p.score,
        p.effect_timer,
        p.health,
        p.shielded,
        p.in_effect.name(),
        s.damage,
        s.speed,
        s.range,
        s.max_health
    )
}

/// Every player state, in seat order, as a JSON array exactly as the reference writes it.
pub fn states_json(game: &Ballroom) -> String {
    let parts: Vec<String> = game.players().iter().map(player_state_json).collect();
    format!("[{}]", parts.join(","))
}

/// The four executed actions of `phase` from a turn record, as the reference writes them.
pub fn actions_json(record: &TurnRecord, phase: Phase) -> String {
    let mut out = String::from("[");
    for seat in 0..PLAYERS {
        if seat > 0 {
            out.push(',');
        }
        let _ = match phase {
            Phase::Class => write!(out, "null"),
            Phase::Use => {
                let u = record.uses[seat];
                write!(
                    out,
                    r#"{{"executor":{seat},"use":{},"isValid":{}}}"#,
                    u.used, u.valid
                )
            }
            Phase::Move => {
                let m = record.moves[seat];
                write!(
                    out,
                    r#"{{"executor":{seat},"destination":{{"x":{},"y":{}}},"isValid":{}}}"#,
                    m.x, m.y, m.valid
                )
            }
            Phase::Attack => {
                let a = record.attacks[seat];
                write!(
                    out,
                    r#"{{"executor":{seat},"target":{},"isValid":{},"damage":{},"nullified":{}}}"#,
                    a.target, a.valid, a.damage, a.nullified
                )
            }
            Phase::Buy => {
                let b = record.buys[seat];
                write!(
                    out,
                    r#"{{"executor":{seat},"item":"{}","isValid":{}}}"#,
                    b.item.name(),
                    b.valid
                )
            }
        };
    }
    out.push(']');
    out
}

/// The text the reference writes to `seat` before the step `game` is about to play (see the
/// module docs). Every line ends in `\n`.
pub fn phase_message(game: &Ballroom, seat: Seat) -> String {
    let Some(phase) = game.phase() else {
        return "fin\n".to_string();
    };
    if phase == Phase::Class {
        return format!("wake\n{seat}\n");
    }
    // Before USE the last phase is the previous turn's BUY (none before turn 1).
    let last = match phase {
        Phase::Use if game.turn() == 0 => None,
        Phase::Use => Some(Phase::Buy),
        other => other.previous(),
    };
    let (last_phase, last_actions) = match last {
        None => ("null".to_string(), "null".to_string()),
        Some(p) => (format!("\"{}\"", p.name()), actions_json(game.record(), p)),
    };
    format!(
        "{{\"turn\":{},\"last_phase\":{},\"next_phase\":\"{}\",\"last_actions\":{},\"player_states\":{}}}\n",
        game.engine_turn(),
        last_phase,
        phase.name(),
        last_actions,
        states_json(game)
    )
}

/// Why a bot's line could not be used as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Not what Jackson can read for this phase (bad JSON, wrong type, unknown name). The reference
    /// drops the bot: [`Action::Malformed`].
    Malformed(String),
    /// A field the reference dereferences without a check (`destination`, `item`), or an unquoted
    /// or unknown class name: the reference crashes; we play the default ([`Action::Pass`]).
    Crash(&'static str),
}

impl Fault {
    /// What the engine plays instead.
    pub fn action(&self) -> Action {
        match self {
            Fault::Malformed(_) => Action::Malformed,
            Fault::Crash(_) => Action::Pass,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Malformed(why) => write!(f, "malformed reply ({why}): the bot is dropped"),
            Fault::Crash(why) => write!(
                f,
                "{why} (the reference engine would crash): default action played"
            ),
        }
    }
}

impl std::error::Error for Fault {}

/// A Java `int` as Jackson reads it: integers in range, floats truncated, numeric strings; `null`
/// or absent is `None` (0 for a primitive).
fn java_int(v: Option<&Value>) -> Result<Option<i32>, Fault> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => {
            if let Some(i) = n.as_i64() {
                i32::try_from(i)
                    .map(Some)
                    .map_err(|_| Fault::Malformed(format!("{i} is not a Java int")))
            } else if let Some(f) = n.as_f64() {
                if f.is_finite() && f >= i32::MIN as f64 && f <= i32::MAX as f64 {
                    Ok(Some(f.trunc() as i32))
                } else {
                    Err(Fault::Malformed(format!("{f} is not a Java int")))
                }
            } else {
                Err(Fault::Malformed("not a Java int".into()))
            }
        }
        Some(Value::String(s)) if s.trim().is_empty() || s == "null" => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse::<i32>()
            .map(Some)
            .map_err(|_| Fault::Malformed(format!("{s:?} is not an int"))),
        Some(other) => Err(Fault::Malformed(format!("{other} is not an int"))),
    }
}

/// A Java `boolean` as Jackson (2.14, the reference harness's) reads it: true/false, any integer
/// (non-zero is true), a string that is `true`, `True` or `TRUE` (or the same for false) once
/// trimmed; a blank string, `"null"`, `null` or absent is false. Anything else (a float, an
/// array, another string) is a parse error.
fn java_bool(v: Option<&Value>) -> Result<bool, Fault> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.as_i64() != Some(0)),
        Some(Value::String(s)) => match s.trim_matches(|c: char| c <= ' ') {
            "true" | "True" | "TRUE" => Ok(true),
            "false" | "False" | "FALSE" | "" | "null" => Ok(false),
            _ => Err(Fault::Malformed(format!("{s:?} is not a boolean"))),
        },
        Some(other) => Err(Fault::Malformed(format!("{other} is not a boolean"))),
    }
}

/// Whether Jackson takes `c` for part of a `true`/`false`/`null` token that runs on
/// (`Character.isJavaIdentifierPart`, tested only from '0' up, brackets aside).
fn runs_on(c: char) -> bool {
    c >= '0' && c != ']' && c != '}' && (c.is_alphanumeric() || c == '_' || c.is_control())
}

/// The first JSON value of `line`, as Jackson's `readValue` reads it: leading whitespace
/// skipped, and what follows the value ignored (the engine's mapper does not fail on trailing
/// tokens), so `{"executor":0,"use":false}{"x":1}`, `{...} {...}` and `{...}]` are the first
/// object. Jackson's own checks at the end of a value at the root stay: a number must be followed
/// by whitespace or the end (`1,` is an error), and `true`, `false` or `null` by no letter, digit
/// or `_` (`nullx` is an error, `null}` is null).
pub fn first_value(line: &str) -> Result<Value, Fault> {
    let text = line.trim_start_matches([' ', '\t', '\r', '\n']);
    let bad = |e: &dyn fmt::Display| Fault::Malformed(format!("not JSON: {e}"));
    let Some(first) = text.chars().next() else {
        return Err(Fault::Malformed("not JSON: nothing on the line".into()));
    };
    if first == '-' || first.is_ascii_digit() {
        let end = text
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
            .unwrap_or(text.len());
        let (number, rest) = text.split_at(end);
        if rest.starts_with(|c: char| !matches!(c, ' ' | '\t' | '\r' | '\n')) {
            return Err(Fault::Malformed(format!(
                "not JSON: no space after the number {number}"
            )));
        }
        return serde_json::from_str(number).map_err(|e| bad(&e));
    }
    for (word, value) in [
        ("null", Value::Null),
        ("true", Value::Bool(true)),
        ("false", Value::Bool(false)),
    ] {
        if let Some(rest) = text.strip_prefix(word) {
            if rest.starts_with(runs_on) {
                return Err(Fault::Malformed(format!("not JSON: {}", preview(text))));
            }
            return Ok(value);
        }
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match values.next() {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(bad(&e)),
        None => Err(Fault::Malformed("not JSON: nothing on the line".into())),
    }
}

/// The start of `text`, for a message.
fn preview(text: &str) -> String {
    text.chars().take(12).collect()
}

/// The result flags a reply for `phase` carries (`obj` is the reply): the fields of the
/// reference's action class for the phase, read as Jackson reads them. `isValid` sent as `null`
/// is false, not the initial true.
fn flags_of(phase: Phase, obj: &serde_json::Map<String, Value>) -> Result<Flags, Fault> {
    let mut flags = Flags::NONE;
    if let Some(v) = obj.get("isValid") {
        flags.valid = java_bool(Some(v))?;
    }
    if phase == Phase::Attack {
        if let Some(v) = obj.get("damage") {
            flags.damage = java_int(Some(v))?.unwrap_or(0);
        }
        if let Some(v) = obj.get("nullified") {
            flags.nullified = java_bool(Some(v))?;
        }
    }
    Ok(flags)
}

/// Reads one reply line for `phase` as the reference does (see the module docs): the action.
pub fn parse_action_line(phase: Phase, line: &str) -> Result<Action, Fault> {
    parse_reply(phase, line).map(|s| s.action)
}

/// Reads one reply line for `phase` as the reference does (see the module docs): the action
/// and the result flags the bot sent with it.
pub fn parse_reply(phase: Phase, line: &str) -> Result<Sent, Fault> {
    let value = first_value(line)?;
    // Jackson reads every field before the engine looks at any: a flag it cannot read is a
    // parse error even where the action would crash the engine.
    let flags = match &value {
        Value::Object(obj) if phase != Phase::Class => flags_of(phase, obj)?,
        _ => Flags::NONE,
    };
    let action = parse_value(phase, &value)?;
    Ok(Sent { action, flags })
}

/// The action of a reply's first JSON value.
fn parse_value(phase: Phase, value: &Value) -> Result<Action, Fault> {
    if value.is_null() {
        return Ok(Action::Null);
    }
    if phase == Phase::Class {
        // Jackson also reads an enum from its ordinal.
        let class = match value {
            Value::String(name) => Class::from_name(name),
            Value::Number(n) => n
                .as_u64()
                .and_then(|i| Class::ALL.get(usize::try_from(i).ok()?).copied()),
            _ => None,
        };
        return class
            .map(Action::Class)
            .ok_or(Fault::Crash("not a class name"));
    }
    let Some(obj) = value.as_object() else {
        return Err(Fault::Malformed(format!("{value} is not an object")));
    };
    // The executor is read (and must be an int) but not trusted: the seat acts for itself.
    java_int(obj.get("executor"))?;
    match phase {
        Phase::Class => Ok(Action::Pass),
        Phase::Use => Ok(Action::Use(java_bool(obj.get("use"))?)),
        Phase::Move => match obj.get("destination") {
            None | Some(Value::Null) => Err(Fault::Crash("no destination")),
            Some(Value::Object(d)) => Ok(Action::Move {
                x: java_int(d.get("x"))?.unwrap_or(0),
                y: java_int(d.get("y"))?.unwrap_or(0),
            }),
            Some(other) => Err(Fault::Malformed(format!("{other} is not a position"))),
        },
        Phase::Attack => Ok(Action::Attack {
            target: java_int(obj.get("target"))?.unwrap_or(0),
        }),
        Phase::Buy => match obj.get("item") {
            None | Some(Value::Null) => Err(Fault::Crash("no item")),
            Some(Value::String(name)) => Item::from_name(name)
                .map(Action::Buy)
                .ok_or_else(|| Fault::Malformed(format!("unknown item {name:?}"))),
            // Jackson also reads an enum from its ordinal.
            Some(Value::Number(n)) => n
                .as_u64()
                .and_then(|i| Item::ALL.get(usize::try_from(i).ok()?).copied())
                .map(Action::Buy)
                .ok_or_else(|| Fault::Malformed(format!("no item number {n}"))),
            Some(other) => Err(Fault::Malformed(format!("{other} is not an item name"))),
        },
    }
}

/// The action line a bot would send for `action` (what the starter packs write).
pub fn action_line(seat: Seat, action: &Action) -> String {
    match *action {
        Action::Class(c) => format!("\"{}\"", c.name()),
        Action::Use(u) => format!(r#"{{"executor":{seat},"use":{u}}}"#),
        Action::Move { x, y } => {
            format!(r#"{{"executor":{seat},"destination":{{"x":{x},"y":{y}}}}}"#)
        }
        Action::Attack { target } => format!(r#"{{"executor":{seat},"target":{target}}}"#),
        Action::Buy(i) => format!(r#"{{"executor":{seat},"item":"{}"}}"#, i.name()),
        Action::Pass | Action::Null | Action::Malformed => "null".to_string(),
    }
}

/// An action as JSON, the shape a bot's reply has for its phase (without `executor`).
pub fn action_json(action: &Action) -> Value {
    match *action {
        Action::Class(c) => Value::from(c.name()),
        Action::Use(u) => serde_json::json!({ "use": u }),
        Action::Move { x, y } => serde_json::json!({ "destination": { "x": x, "y": y } }),
        Action::Attack { target } => serde_json::json!({ "target": target }),
        Action::Buy(i) => serde_json::json!({ "item": i.name() }),
        Action::Pass => serde_json::json!({}),
        Action::Null => Value::Null,
        Action::Malformed => serde_json::json!({ "malformed": true }),
    }
}

/// An action from JSON, read by its shape: the phase it answers is the one whose field it has
/// (a class name for the handshake). What has no such shape is [`Action::Malformed`].
pub fn action_from_json(value: &Value) -> Action {
    let phase = match value {
        Value::Null => return Action::Null,
        Value::String(_) | Value::Number(_) => Phase::Class,
        Value::Object(m) if m.is_empty() => return Action::Pass,
        Value::Object(m) if m.contains_key("use") => Phase::Use,
        Value::Object(m) if m.contains_key("destination") => Phase::Move,
        Value::Object(m) if m.contains_key("target") => Phase::Attack,
        Value::Object(m) if m.contains_key("item") => Phase::Buy,
        _ => return Action::Malformed,
    };
    parse_action_line(phase, &value.to_string()).unwrap_or_else(|f| f.action())
}
