//! Ballroom Blitz on the desktop: the reference's JSON (player states, actions, phase messages,
//! game logs), the reply parser, and the log verifier.
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
//! - The bot answers one line; [`parse_action_line`]`(phase, line)` reads it as the reference's
//!   Jackson would. `Ok` is the action to step with. `Err(fault)` says what went wrong and
//!   [`Fault::action`] is what the engine plays instead (the reference's drop for unparsable
//!   input, our default action where the reference would crash). A timeout or EOF is
//!   [`Action::Null`].
//!
//! ## Logs
//! [`LogWriter`] writes a game we play in the reference's log shape
//! (`{"names":[...], "turns":[T0..T100]}`); [`verify_log`] replays a reference log through our
//! engine and compares every action flag and every player state.

use arena_core::games::ballroom::{
    Action, Ballroom, Class, Item, Params, Phase, Player, Ruleset, TurnRecord, PLAYERS,
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

fn states_json(game: &Ballroom) -> String {
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

/// A Java `boolean` as Jackson reads it: true/false, 0/1 (any integer: non-zero is true),
/// "true"/"false"; `null` or absent is false.
fn java_bool(v: Option<&Value>) -> Result<bool, Fault> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Ok(n.as_i64() != Some(0)),
        Some(Value::String(s)) if s == "true" || s == "True" => Ok(true),
        Some(Value::String(s)) if matches!(s.as_str(), "false" | "False" | "" | "null") => {
            Ok(false)
        }
        Some(other) => Err(Fault::Malformed(format!("{other} is not a boolean"))),
    }
}

/// Reads one reply line for `phase` as the reference does (see the module docs).
pub fn parse_action_line(phase: Phase, line: &str) -> Result<Action, Fault> {
    let value: Value = serde_json::from_str(line.trim())
        .map_err(|e| Fault::Malformed(format!("not JSON: {e}")))?;
    if value.is_null() {
        return Ok(Action::Null);
    }
    if phase == Phase::Class {
        // Jackson also reads an enum from its ordinal.
        let class = match &value {
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

/// One log entry `T` for the game's current state: the record of the turn just completed (null
/// actions for turn 0) and the player states.
pub fn turn_json(game: &Ballroom) -> String {
    let t = game.turn();
    let actions = |p: Phase| {
        if t == 0 {
            "[null,null,null,null]".to_string()
        } else {
            actions_json(game.record(), p)
        }
    };
    format!(
        "{{\"turn\":{t},\"use_actions\":{},\"move_actions\":{},\"attack_actions\":{},\"buy_actions\":{},\"player_states\":{}}}",
        actions(Phase::Use),
        actions(Phase::Move),
        actions(Phase::Attack),
        actions(Phase::Buy),
        states_json(game)
    )
}

/// Writes a game we play as a reference log. Call [`LogWriter::observe`] after `Ballroom::new`
/// and after every step; it appends an entry whenever a turn (or the start) has completed.
#[derive(Clone, Debug, Default)]
pub struct LogWriter {
    names: Vec<String>,
    turns: Vec<String>,
}

impl LogWriter {
    pub fn new(names: &[&str]) -> LogWriter {
        LogWriter {
            names: names.iter().map(|s| s.to_string()).collect(),
            turns: Vec::new(),
        }
    }

    pub fn observe(&mut self, game: &Ballroom) {
        if game.started() && self.turns.len() as u32 == game.turn() {
            self.turns.push(turn_json(game));
        }
    }

    /// The log, one line (no trailing newline), with the reference's `", "` before `"turns"`.
    pub fn render(&self) -> String {
        let names: Vec<String> = self
            .names
            .iter()
            .map(|n| serde_json::to_string(n).unwrap_or_else(|_| "\"\"".to_string()))
            .collect();
        format!(
            "{{\"names\":[{}], \"turns\":[{}]}}",
            names.join(","),
            self.turns.join(",")
        )
    }
}

/// What [`verify_log`] checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    pub names: Vec<String>,
    pub classes: [Class; PLAYERS],
    /// Turns replayed (T1..Tn).
    pub turns: u32,
    /// Action flags and player-state fields compared.
    pub checks: u64,
    /// Final points, per seat.
    pub scores: [u16; PLAYERS],
    /// Seats from best to worst under our winner rule (seed 0 for the coin flip).
    pub ranking: [usize; PLAYERS],
}

/// Where a log and our engine disagree (or where the log cannot be read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The log turn (0 = the start state).
    pub turn: u32,
    /// `USE`, `MOVE`, `ATTACK`, `BUY` (action flags), `STATE` (end-of-turn states) or `LOG`.
    pub phase: &'static str,
    pub seat: Option<usize>,
    pub field: String,
    pub expected: String,
    pub found: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "turn {}, {}", self.turn, self.phase)?;
        if let Some(s) = self.seat {
            write!(f, ", player {s}")?;
        }
        write!(
            f,
            ": {}: log has {}, engine has {}",
            self.field, self.expected, self.found
        )
    }
}

impl std::error::Error for Mismatch {}

fn log_error(turn: u32, what: impl Into<String>) -> Mismatch {
    Mismatch {
        turn,
        phase: "LOG",
        seat: None,
        field: what.into(),
        expected: "a reference log".into(),
        found: "something else".into(),
    }
}

/// Compares one expected JSON value against what we produce (as JSON).
struct Checker {
    turn: u32,
    phase: &'static str,
    checks: u64,
}

impl Checker {
    fn same(
        &mut self,
        seat: usize,
        field: &str,
        expected: Option<&Value>,
        found: Value,
    ) -> Result<(), Mismatch> {
        self.checks += 1;
        match expected {
            Some(e) if *e == found => Ok(()),
            e => Err(Mismatch {
                turn: self.turn,
                phase: self.phase,
                seat: Some(seat),
                field: field.to_string(),
                expected: e.map_or("nothing".to_string(), |v| v.to_string()),
                found: found.to_string(),
            }),
        }
    }
}

fn int_field(a: &Value, key: &str, turn: u32, seat: usize) -> Result<i32, Mismatch> {
    a.get(key)
        .and_then(Value::as_i64)
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| log_error(turn, format!("player {seat}: {key} is not an int")))
}

/// The recorded action of `seat` in `phase`, as an action to replay.
fn recorded_action(phase: Phase, a: &Value, turn: u32, seat: usize) -> Result<Action, Mismatch> {
    let executor = int_field(a, "executor", turn, seat)?;
    if executor != seat as i32 {
        return Err(Mismatch {
            turn,
            phase: phase.name(),
            seat: Some(seat),
            field: "executor".into(),
            expected: executor.to_string(),
            found: format!("{seat} (a bot only acts for its own seat)"),
        });
    }
    Ok(match phase {
        Phase::Class => Action::Pass,
        Phase::Use => Action::Use(a.get("use").and_then(Value::as_bool).unwrap_or(false)),
        Phase::Move => {
            let d = a
                .get("destination")
                .ok_or_else(|| log_error(turn, "move without destination"))?;
            Action::Move {
                x: int_field(d, "x", turn, seat)?,
                y: int_field(d, "y", turn, seat)?,
            }
        }
        Phase::Attack => Action::Attack {
            target: int_field(a, "target", turn, seat)?,
        },
        Phase::Buy => {
            let name = a.get("item").and_then(Value::as_str).unwrap_or("");
            Action::Buy(
                Item::from_name(name)
                    .ok_or_else(|| log_error(turn, format!("unknown item {name:?}")))?,
            )
        }
    })
}

fn parse_json(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or(Value::Null)
}

/// Compares our executed actions of `phase` (fields and flags) with the log's.
fn check_actions(
    c: &mut Checker,
    game: &Ballroom,
    phase: Phase,
    logged: &[Value],
) -> Result<(), Mismatch> {
    let ours = parse_json(&actions_json(game.record(), phase));
    let ours = ours.as_array().cloned().unwrap_or_default();
    for seat in 0..PLAYERS {
        let (Some(l), Some(o)) = (logged.get(seat), ours.get(seat)) else {
            continue;
        };
        let keys: &[&str] = match phase {
            Phase::Use => &["use", "isValid"],
            Phase::Move => &["destination", "isValid"],
            Phase::Attack => &["target", "isValid", "damage", "nullified"],
            Phase::Buy => &["item", "isValid"],
            Phase::Class => &[],
        };
        for k in keys {
            c.same(
                seat,
                k,
                l.get(*k),
                o.get(*k).cloned().unwrap_or(Value::Null),
            )?;
        }
    }
    Ok(())
}

const STATE_KEYS: [&str; 11] = [
    "class",
    "position",
    "isActive",
    "item",
    "gold",
    "score",
    "effect_timer",
    "health",
    "shielded",
    "item_in_use",
    "stat_set",
];

fn check_states(c: &mut Checker, game: &Ballroom, logged: &Value) -> Result<(), Mismatch> {
    let logged = logged
        .as_array()
        .ok_or_else(|| log_error(c.turn, "player_states is not a list"))?;
    for (seat, p) in game.players().iter().enumerate() {
        let ours = parse_json(&player_state_json(p));
        let l = logged
            .get(seat)
            .ok_or_else(|| log_error(c.turn, "fewer than 4 player states"))?;
        for k in STATE_KEYS {
            c.same(
                seat,
                k,
                l.get(k),
                ours.get(k).cloned().unwrap_or(Value::Null),
            )?;
        }
    }
    Ok(())
}

/// Replays a reference log through our engine (`engine` ruleset, classes from T0) and compares
/// every action's fields and flags and every end-of-turn player state. A seat whose recorded
/// state turns inactive is dropped (as by a `null` reply) during that turn's BUY phase, which is
/// indistinguishable in the end-of-turn states from any earlier phase of the same turn.
pub fn verify_log(text: &str) -> Result<VerifyReport, Mismatch> {
    replay_log(text, |_| {})
}

/// [`verify_log`], handing `each` the start state and the state after every phase (`arena render`).
pub fn replay_log(text: &str, mut each: impl FnMut(&Ballroom)) -> Result<VerifyReport, Mismatch> {
    let root: Value =
        serde_json::from_str(text.trim()).map_err(|e| log_error(0, format!("not JSON: {e}")))?;
    let names: Vec<String> = root
        .get("names")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|n| n.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    let turns = root
        .get("turns")
        .and_then(Value::as_array)
        .ok_or_else(|| log_error(0, "no turns list"))?;
    let t0 = turns.first().ok_or_else(|| log_error(0, "no turn 0"))?;
    let mut classes = [Class::Knight; PLAYERS];
    for (seat, c) in classes.iter_mut().enumerate() {
        let name = t0
            .pointer(&format!("/player_states/{seat}/class"))
            .and_then(Value::as_str)
            .unwrap_or("");
        *c = Class::from_name(name)
            .ok_or_else(|| log_error(0, format!("player {seat}: unknown class {name:?}")))?;
    }
    let params = Params {
        ruleset: Ruleset::Engine,
        classes: Some(classes),
    };
    let mut game = Ballroom::new(&params, 0).map_err(|e| log_error(0, e.to_string()))?;
    let mut c = Checker {
        turn: 0,
        phase: "STATE",
        checks: 0,
    };
    check_states(
        &mut c,
        &game,
        t0.get("player_states").unwrap_or(&Value::Null),
    )?;
    each(&game);
    for (t, entry) in turns.iter().enumerate().skip(1) {
        let turn = t as u32;
        if entry.get("turn").and_then(Value::as_u64) != Some(t as u64) {
            return Err(log_error(turn, "turns out of order"));
        }
        if game.phase().is_none() {
            return Err(log_error(turn, "more than 100 turns"));
        }
        let states = entry.get("player_states").unwrap_or(&Value::Null);
        for (phase, key) in [
            (Phase::Use, "use_actions"),
            (Phase::Move, "move_actions"),
            (Phase::Attack, "attack_actions"),
            (Phase::Buy, "buy_actions"),
        ] {
            let logged = entry
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| log_error(turn, format!("no {key}")))?;
            let mut actions = [Action::Pass; PLAYERS];
            for (seat, a) in actions.iter_mut().enumerate() {
                let l = logged
                    .get(seat)
                    .ok_or_else(|| log_error(turn, format!("{key}: fewer than 4")))?;
                *a = recorded_action(phase, l, turn, seat)?;
                let quits =
                    states.pointer(&format!("/{seat}/isActive")) == Some(&Value::Bool(false));
                let was_active = game.player(seat).is_some_and(|p| p.active);
                if phase == Phase::Buy && quits && was_active {
                    *a = Action::Null;
                }
            }
            c.turn = turn;
            c.phase = phase.name();
            game.step(&actions);
            check_actions(&mut c, &game, phase, logged)?;
            each(&game);
        }
        c.phase = "STATE";
        check_states(&mut c, &game, states)?;
    }
    let scores = core::array::from_fn(|s| game.players()[s].score);
    Ok(VerifyReport {
        names,
        classes,
        turns: turns.len().saturating_sub(1) as u32,
        checks: c.checks,
        scores,
        ranking: game.ranking(),
    })
}
