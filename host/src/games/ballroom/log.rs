//! The official engine's game log (`{"names":[...], "turns":[T0..T100]}`, written once at the
//! end): written for a game we play, and re-played through our engine with every action flag and
//! every player state compared.

use super::json::{actions_json, player_state_json, states_json};
use crate::game::Plan;
use crate::record::{LineWriter, Recorder, Step};
use crate::replay::{strings, Meta, Visit};
use crate::verify::{Difference, Verified};
use arena_core::games::ballroom::{Action, Ballroom, Class, Item, Params, Phase, Ruleset, PLAYERS};
use arena_core::Game;
use serde_json::Value;

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

/// The recorder: the log is kept as the match goes and written whole at the end.
pub struct Log(Option<LogWriter>);

impl Recorder<Ballroom> for Log {
    fn new(_plan: &Plan<Ballroom>) -> Self {
        Log(None)
    }

    fn begin(&mut self, game: &Ballroom, plan: &Plan<Ballroom>, _out: &mut LineWriter) {
        let names: Vec<&str> = plan.names.iter().map(String::as_str).collect();
        let mut log = LogWriter::new(&names);
        log.observe(game);
        self.0 = Some(log);
    }

    fn step(&mut self, game: &Ballroom, _step: &Step<'_, Ballroom>, _out: &mut LineWriter) {
        if let Some(log) = &mut self.0 {
            log.observe(game);
        }
    }

    fn end(&mut self, _game: &Ballroom, _plan: &Plan<Ballroom>, out: &mut LineWriter) {
        if let Some(log) = &self.0 {
            out.text(&log.render());
        }
    }
}

/// The log cannot be read at turn `turn`: `what` is wrong.
fn unreadable(turn: u32, what: impl Into<String>) -> Difference {
    Difference::unreadable("a reference log", what.into()).at_turn(turn)
}

/// Counts the comparisons and makes the differences, at a turn.
struct Checker {
    turn: u32,
    checks: u64,
}

impl Checker {
    /// `expected` (the log's `key[seat].field`) against what we produce.
    fn same(
        &mut self,
        key: &str,
        seat: usize,
        field: &str,
        expected: Option<&Value>,
        found: Value,
    ) -> Result<(), Difference> {
        self.checks += 1;
        match expected {
            Some(e) if *e == found => Ok(()),
            e => Err(Difference::field(
                format!("{key}[{seat}].{field}"),
                e.map_or("nothing".to_string(), Value::to_string),
                found,
            )
            .at_turn(self.turn)),
        }
    }
}

fn int_field(a: &Value, key: &str, turn: u32, seat: usize) -> Result<i32, Difference> {
    a.get(key)
        .and_then(Value::as_i64)
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| unreadable(turn, format!("player {seat}: {key} is not an int")))
}

/// The recorded action of player `seat` in `phase`, as an action to replay: `None` when the log
/// holds none for that player (`null`: the official engine executed nothing for it, because its
/// bot's reply named another executor).
///
/// The official engine files every executed action under the player its `executor` names
/// (`uses.set(executor, action)`), and that is the player it acted on; so an entry's executor is
/// its index in a log the official engine wrote, and the action is re-played for that player.
fn recorded_action(
    phase: Phase,
    a: &Value,
    turn: u32,
    seat: usize,
) -> Result<Option<Action>, Difference> {
    if a.is_null() {
        return Ok(None);
    }
    let path = format!("{}[{seat}].executor", key_of(phase));
    let executor = match a.get("executor") {
        Some(Value::Number(n)) if n.as_i64().is_some() => n.as_i64().unwrap_or(-1),
        other => {
            return Err(Difference::field(
                path,
                other.map_or("nothing".to_string(), Value::to_string),
                "the index of the player the action was executed for",
            )
            .at_turn(turn))
        }
    };
    if executor != seat as i64 {
        return Err(Difference::field(
            path,
            executor,
            format!(
                "{seat}: the official engine files each action under the player it executed it for"
            ),
        )
        .at_turn(turn));
    }
    Ok(Some(match phase {
        Phase::Class => Action::Pass,
        Phase::Use => Action::Use(a.get("use").and_then(Value::as_bool).unwrap_or(false)),
        Phase::Move => {
            let d = a
                .get("destination")
                .ok_or_else(|| unreadable(turn, "move without destination"))?;
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
                    .ok_or_else(|| unreadable(turn, format!("unknown item {name:?}")))?,
            )
        }
    }))
}

fn key_of(phase: Phase) -> &'static str {
    match phase {
        Phase::Class => "classes",
        Phase::Use => "use_actions",
        Phase::Move => "move_actions",
        Phase::Attack => "attack_actions",
        Phase::Buy => "buy_actions",
    }
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
) -> Result<(), Difference> {
    let ours = parse_json(&actions_json(game.record(), phase));
    let ours = ours.as_array().cloned().unwrap_or_default();
    let keys: &[&str] = match phase {
        Phase::Use => &["use", "isValid"],
        Phase::Move => &["destination", "isValid"],
        Phase::Attack => &["target", "isValid", "damage", "nullified"],
        Phase::Buy => &["item", "isValid"],
        Phase::Class => &[],
    };
    for seat in 0..PLAYERS {
        let (Some(l), Some(o)) = (logged.get(seat), ours.get(seat)) else {
            continue;
        };
        if l.is_null() {
            // Nothing was executed for this player: there is nothing to compare.
            continue;
        }
        for k in keys {
            c.same(
                key_of(phase),
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

fn check_states(c: &mut Checker, game: &Ballroom, logged: &Value) -> Result<(), Difference> {
    let logged = logged
        .as_array()
        .ok_or_else(|| unreadable(c.turn, "player_states is not a list"))?;
    for (seat, p) in game.players().iter().enumerate() {
        let ours = parse_json(&player_state_json(p));
        let l = logged
            .get(seat)
            .ok_or_else(|| unreadable(c.turn, "fewer than 4 player states"))?;
        for k in STATE_KEYS {
            c.same(
                "player_states",
                seat,
                k,
                l.get(k),
                ours.get(k).cloned().unwrap_or(Value::Null),
            )?;
        }
    }
    Ok(())
}

/// A difference in a turn whose log is missing actions says so: the official engine keeps one
/// entry per executor, so when a bot acted for another seat the action it replaced is in no
/// entry, and the turn cannot be re-played exactly from the log.
fn incomplete(mut d: Difference, missing: &[String]) -> Difference {
    if !missing.is_empty() {
        d.got.push_str(&format!(
            " (this turn's log holds no action for {}: a bot's reply was executed for another \
             player, and the official engine keeps only the last action executed for each player, \
             so whatever that reply replaced is not in the log and the turn cannot be re-played \
             exactly)",
            missing.join(", ")
        ));
    }
    d
}

/// Replays a reference log through our engine (`engine` ruleset, classes from T0) and compares
/// every action's fields and flags and every end-of-turn player state; `each` gets the start state
/// and the state after every phase. A seat whose recorded state turns inactive is dropped (as by
/// a `null` reply) during that turn's BUY phase, which is indistinguishable in the end-of-turn
/// states from any earlier phase of the same turn.
pub fn replay(text: &str, each: &mut dyn Visit<Ballroom>) -> Result<Verified, Difference> {
    let root: Value =
        serde_json::from_str(text.trim()).map_err(|e| unreadable(0, format!("not JSON: {e}")))?;
    let turns = root
        .get("turns")
        .and_then(Value::as_array)
        .ok_or_else(|| unreadable(0, "no turns list"))?;
    let t0 = turns.first().ok_or_else(|| unreadable(0, "no turn 0"))?;
    let meta = Meta {
        config: "engine".into(),
        seed: 0,
        bots: strings(root.get("names")),
    };
    each.meta(&meta);
    let mut classes = [Class::Knight; PLAYERS];
    for (seat, c) in classes.iter_mut().enumerate() {
        let name = t0
            .pointer(&format!("/player_states/{seat}/class"))
            .and_then(Value::as_str)
            .unwrap_or("");
        *c = Class::from_name(name)
            .ok_or_else(|| unreadable(0, format!("player {seat}: unknown class {name:?}")))?;
    }
    let params = Params {
        ruleset: Ruleset::Engine,
        classes: Some(classes),
    };
    let mut game = Ballroom::new(&params, 0).map_err(|e| unreadable(0, e.to_string()))?;
    let mut c = Checker { turn: 0, checks: 0 };
    check_states(
        &mut c,
        &game,
        t0.get("player_states").unwrap_or(&Value::Null),
    )?;
    each.start(&(params, 0));
    each.state(&game);
    let mut steps = 0;
    for (t, entry) in turns.iter().enumerate().skip(1) {
        let turn = t as u32;
        if entry.get("turn").and_then(Value::as_u64) != Some(t as u64) {
            return Err(unreadable(turn, "turns out of order"));
        }
        if game.phase().is_none() {
            return Err(unreadable(turn, "more than 100 turns"));
        }
        let states = entry.get("player_states").unwrap_or(&Value::Null);
        // Players the log holds no action for in some phase of this turn.
        let mut missing: Vec<String> = Vec::new();
        for phase in [Phase::Use, Phase::Move, Phase::Attack, Phase::Buy] {
            let key = key_of(phase);
            let logged = entry
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| unreadable(turn, format!("no {key}")))?;
            let mut actions = [None; PLAYERS];
            for (seat, a) in actions.iter_mut().enumerate() {
                let l = logged
                    .get(seat)
                    .ok_or_else(|| unreadable(turn, format!("{key}: fewer than 4")))?;
                *a = recorded_action(phase, l, turn, seat)?;
                if a.is_none() {
                    missing.push(format!("{key}[{seat}]"));
                }
                let quits =
                    states.pointer(&format!("/{seat}/isActive")) == Some(&Value::Bool(false));
                let was_active = game.player(seat).is_some_and(|p| p.active);
                if phase == Phase::Buy && quits && was_active && a.is_some() {
                    *a = Some(Action::Null);
                }
            }
            c.turn = turn;
            each.fed(&actions);
            game.step_logged(&actions);
            steps += 1;
            check_actions(&mut c, &game, phase, logged).map_err(|d| incomplete(d, &missing))?;
            each.state(&game);
        }
        check_states(&mut c, &game, states).map_err(|d| incomplete(d, &missing))?;
    }
    let scores: Vec<String> = game.players().iter().map(|p| p.score.to_string()).collect();
    Ok(Verified {
        steps,
        turns: turns.len().saturating_sub(1) as u32,
        checks: c.checks,
        over: game.is_over(),
        detail: format!("scores {}", scores.join(" ")),
        meta,
    })
}
