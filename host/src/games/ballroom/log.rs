//! The official engine's game log (`{"names":[...], "turns":[T0..T100]}`, written once at the
//! end): written for a game we play, and re-played through our engine with every action flag and
//! every player state compared.

use super::json::{actions_json, states_json};
use crate::game::Plan;
use crate::record::{LineWriter, Recorder, Step};
use crate::replay::{strings, Meta, Visit};
use crate::verify::{Difference, Verified};
use arena_core::games::ballroom::{
    Action, Ballroom, Class, Flags, Item, Params, Phase, Player, Reply, Ruleset, BOARD, PLAYERS,
};
use arena_core::Game;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{json, Value};
use std::fmt;
use std::io::BufRead;

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
    /// A writer for a game whose players are called `names`, in seat order.
    pub fn new(names: &[&str]) -> LogWriter {
        LogWriter {
            names: names.iter().map(|s| s.to_string()).collect(),
            turns: Vec::new(),
        }
    }

    /// Appends the entry of the turn (or the start) `game` has just completed, if it has not been
    /// appended yet: call it after `Ballroom::new` and after every step.
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

// ---- verify: re-playing a log

/// The log cannot be read at turn `turn`: `what` is wrong.
fn unreadable(turn: u32, what: impl Into<String>) -> Difference {
    Difference::unreadable("a reference log", what.into()).at_turn(turn)
}

/// The log's field at `path` is not what a log holds there: `wanted` was expected.
fn malformed(turn: u32, path: String, wanted: &str, found: Option<&Value>) -> Difference {
    let found = found.map_or("nothing".to_string(), Value::to_string);
    Difference::field(
        path,
        format!("{wanted} in the log"),
        format!("{found} there"),
    )
    .at_turn(turn)
}

const PHASES: [Phase; 4] = [Phase::Use, Phase::Move, Phase::Attack, Phase::Buy];

fn key_of(phase: Phase) -> &'static str {
    match phase {
        Phase::Class => "classes",
        Phase::Use => "use_actions",
        Phase::Move => "move_actions",
        Phase::Attack => "attack_actions",
        Phase::Buy => "buy_actions",
    }
}

/// One entry `T` of the log as read. The log is read one entry at a time and never held whole.
#[derive(Deserialize)]
struct LogTurn {
    turn: Option<Value>,
    use_actions: Option<Vec<Value>>,
    move_actions: Option<Vec<Value>>,
    attack_actions: Option<Vec<Value>>,
    buy_actions: Option<Vec<Value>>,
    player_states: Option<Vec<Value>>,
}

impl LogTurn {
    fn actions(&self, phase: Phase) -> Option<&Vec<Value>> {
        match phase {
            Phase::Use => self.use_actions.as_ref(),
            Phase::Move => self.move_actions.as_ref(),
            Phase::Attack => self.attack_actions.as_ref(),
            Phase::Buy => self.buy_actions.as_ref(),
            Phase::Class => None,
        }
    }
}

/// A value of ours, compared with the log's without building any JSON (only a difference is
/// shown as JSON).
enum Ours {
    Bool(bool),
    Int(i64),
    Name(&'static str),
    Pos(i64, i64),
    Stats([i64; 4]),
}

const STAT_KEYS: [&str; 4] = ["damage", "speed", "range", "maxHealth"];

/// An integer of the log: a JSON integer (not `3.0`) of that value.
fn int_is(v: Option<&Value>, i: i64) -> bool {
    v.is_some_and(|v| (v.is_i64() || v.is_u64()) && v.as_i64() == Some(i))
}

/// A JSON object with exactly these keys holding these integers.
fn object_is(v: &Value, keys: &[&str], values: &[i64]) -> bool {
    v.as_object().is_some_and(|o| {
        o.len() == keys.len() && keys.iter().zip(values).all(|(k, &i)| int_is(o.get(*k), i))
    })
}

impl Ours {
    fn matches(&self, v: &Value) -> bool {
        match *self {
            Ours::Bool(b) => v.as_bool() == Some(b),
            Ours::Int(i) => int_is(Some(v), i),
            Ours::Name(n) => v.as_str() == Some(n),
            Ours::Pos(x, y) => object_is(v, &["x", "y"], &[x, y]),
            Ours::Stats(s) => object_is(v, &STAT_KEYS, &s),
        }
    }

    fn to_value(&self) -> Value {
        match *self {
            Ours::Bool(b) => Value::Bool(b),
            Ours::Int(i) => Value::from(i),
            Ours::Name(n) => Value::from(n),
            Ours::Pos(x, y) => json!({"x": x, "y": y}),
            Ours::Stats([d, s, r, m]) => {
                json!({"damage": d, "speed": s, "range": r, "maxHealth": m})
            }
        }
    }
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
        ours: Ours,
    ) -> Result<(), Difference> {
        self.checks += 1;
        match expected {
            Some(e) if ours.matches(e) => Ok(()),
            e => Err(Difference::field(
                format!("{key}[{seat}].{field}"),
                e.map_or("nothing".to_string(), Value::to_string),
                ours.to_value(),
            )
            .at_turn(self.turn)),
        }
    }
}

fn int_field(a: &Value, key: &str, turn: u32, path: &str) -> Result<i32, Difference> {
    let v = a.get(key);
    v.and_then(Value::as_i64)
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| malformed(turn, format!("{path}.{key}"), "an int", v))
}

/// The recorded action of player `seat` in `phase`, as an action to replay with the result flags
/// its bot may have sent: `None` when the log holds none for that player (`null`: no reply was
/// executed for it, because its bot's reply named another executor).
///
/// The official engine files every executed reply under the player its `executor` names
/// (`uses.set(executor, action)`), and that is the player it acted on; so an entry's executor is
/// its index in a log the official engine wrote.
///
/// The flags are taken as the bot's: the engine only ever invalidates, nullifies, or sets the
/// damage of an attack it judges, so re-played with the logged flags as sent, an entry comes out
/// as logged exactly when the engine's judgement allows it (a logged `isValid: true` on an action
/// the engine invalidates, or a damage that is not the attacker's where the engine sets it, still
/// differs).
fn recorded_action(
    phase: Phase,
    a: &Value,
    turn: u32,
    seat: usize,
) -> Result<Option<(Action, Flags)>, Difference> {
    if a.is_null() {
        return Ok(None);
    }
    let path = format!("{}[{seat}]", key_of(phase));
    let executor = a.get("executor");
    match executor.and_then(Value::as_i64) {
        Some(e) if e == seat as i64 => {}
        Some(e) => {
            return Err(Difference::field(
                format!("{path}.executor"),
                e,
                format!(
                "{seat}: the official engine files each action under the player it executed it for"
            ),
            )
            .at_turn(turn))
        }
        None => {
            return Err(malformed(
                turn,
                format!("{path}.executor"),
                "the index of the player the action was executed for",
                executor,
            ))
        }
    }
    let flags = Flags {
        valid: a.get("isValid").and_then(Value::as_bool).unwrap_or(true),
        damage: a
            .get("damage")
            .and_then(Value::as_i64)
            .and_then(|d| i32::try_from(d).ok())
            .unwrap_or(0),
        nullified: a.get("nullified").and_then(Value::as_bool).unwrap_or(false),
    };
    let action = match phase {
        Phase::Class => Action::Pass,
        Phase::Use => Action::Use(a.get("use").and_then(Value::as_bool).unwrap_or(false)),
        Phase::Move => {
            let d = a.get("destination").ok_or_else(|| {
                malformed(turn, format!("{path}.destination"), "a destination", None)
            })?;
            let at = format!("{path}.destination");
            Action::Move {
                x: int_field(d, "x", turn, &at)?,
                y: int_field(d, "y", turn, &at)?,
            }
        }
        Phase::Attack => Action::Attack {
            target: int_field(a, "target", turn, &path)?,
        },
        Phase::Buy => {
            let item = a.get("item");
            Action::Buy(
                item.and_then(Value::as_str)
                    .and_then(Item::from_name)
                    .ok_or_else(|| malformed(turn, format!("{path}.item"), "an item", item))?,
            )
        }
    };
    Ok(Some((action, flags)))
}

/// Compares our executed actions of `phase` (fields and flags) with the log's. A `null` entry
/// (nothing executed for that player) has nothing to compare.
fn check_actions(
    c: &mut Checker,
    game: &Ballroom,
    phase: Phase,
    logged: &[Value],
) -> Result<(), Difference> {
    let rec = game.record();
    let key = key_of(phase);
    for (seat, l) in logged.iter().enumerate().take(PLAYERS) {
        if l.is_null() {
            continue;
        }
        match phase {
            Phase::Use => {
                let u = rec.uses.get(seat).copied().unwrap_or_default();
                c.same(key, seat, "use", l.get("use"), Ours::Bool(u.used))?;
                c.same(key, seat, "isValid", l.get("isValid"), Ours::Bool(u.valid))?;
            }
            Phase::Move => {
                let m = rec.moves.get(seat).copied().unwrap_or_default();
                let dest = Ours::Pos(m.x.into(), m.y.into());
                c.same(key, seat, "destination", l.get("destination"), dest)?;
                c.same(key, seat, "isValid", l.get("isValid"), Ours::Bool(m.valid))?;
            }
            Phase::Attack => {
                let a = rec.attacks.get(seat).copied().unwrap_or_default();
                c.same(
                    key,
                    seat,
                    "target",
                    l.get("target"),
                    Ours::Int(a.target.into()),
                )?;
                c.same(key, seat, "isValid", l.get("isValid"), Ours::Bool(a.valid))?;
                c.same(
                    key,
                    seat,
                    "damage",
                    l.get("damage"),
                    Ours::Int(a.damage.into()),
                )?;
                let n = Ours::Bool(a.nullified);
                c.same(key, seat, "nullified", l.get("nullified"), n)?;
            }
            Phase::Buy => {
                let b = rec.buys.get(seat).copied().unwrap_or_default();
                c.same(key, seat, "item", l.get("item"), Ours::Name(b.item.name()))?;
                c.same(key, seat, "isValid", l.get("isValid"), Ours::Bool(b.valid))?;
            }
            Phase::Class => {}
        }
    }
    Ok(())
}

/// Every field of a player state, in the log's key order, as we hold it.
fn state_fields(p: &Player) -> [(&'static str, Ours); 11] {
    let s = p.stats();
    [
        ("class", Ours::Name(p.class.name())),
        ("position", Ours::Pos(p.pos.x.into(), p.pos.y.into())),
        ("isActive", Ours::Bool(p.active)),
        ("item", Ours::Name(p.item.name())),
        ("gold", Ours::Int(p.gold.into())),
        ("score", Ours::Int(p.score.into())),
        ("effect_timer", Ours::Int(p.effect_timer.into())),
        ("health", Ours::Int(p.health.into())),
        ("shielded", Ours::Bool(p.shielded)),
        ("item_in_use", Ours::Name(p.in_effect.name())),
        (
            "stat_set",
            Ours::Stats([
                s.damage.into(),
                s.speed.into(),
                s.range.into(),
                s.max_health.into(),
            ]),
        ),
    ]
}

fn check_states(c: &mut Checker, game: &Ballroom, logged: &[Value]) -> Result<(), Difference> {
    for (seat, p) in game.players().iter().enumerate() {
        let l = logged
            .get(seat)
            .ok_or_else(|| unreadable(c.turn, "fewer than 4 player states"))?;
        for (k, ours) in state_fields(p) {
            c.same("player_states", seat, k, l.get(k), ours)?;
        }
    }
    Ok(())
}

/// One turn's replies, per phase (USE, MOVE, ATTACK, BUY), in the order the engine read them.
#[derive(Clone, Copy, Debug, Default)]
struct TurnPlan {
    replies: [[Reply; PLAYERS]; 4],
    counts: [usize; 4],
}

impl TurnPlan {
    fn phase(&self, i: usize) -> &[Reply] {
        match (self.replies.get(i), self.counts.get(i)) {
            (Some(r), Some(&n)) => r.get(..n).unwrap_or(&[]),
            _ => &[],
        }
    }

    fn set(&mut self, i: usize, replies: &[Reply]) {
        if let (Some(r), Some(n)) = (self.replies.get_mut(i), self.counts.get_mut(i)) {
            *n = replies.len().min(PLAYERS);
            for (slot, reply) in r.iter_mut().zip(replies) {
                *slot = *reply;
            }
        }
    }
}

/// A turn of the log, read.
struct LoggedTurn<'a> {
    number: u32,
    /// Per phase, the four entries.
    entries: [&'a [Value]; 4],
    states: &'a [Value],
}

/// Plays one turn with `plan` from `game` and compares every logged action and state; the four
/// states after the phases, and the logged flags that only the bots' flags explain (the
/// engine's judgement alone would have logged another value), as `key[seat].field`.
fn run_turn(
    game: &Ballroom,
    turn: &LoggedTurn<'_>,
    plan: &TurnPlan,
    c: &mut Checker,
) -> Result<(Vec<Ballroom>, Vec<String>), Difference> {
    let mut g = game.clone();
    let mut after = Vec::with_capacity(4);
    let mut sent = Vec::new();
    for (i, (&phase, logged)) in PHASES.iter().zip(turn.entries).enumerate() {
        // The same phase without the flags: they change nothing but the record.
        let mut judged = g.clone();
        let mut bare: Vec<Reply> = plan.phase(i).to_vec();
        for r in &mut bare {
            r.flags = Flags::NONE;
        }
        judged.step_replies(&bare);
        g.step_replies(plan.phase(i));
        check_actions(c, &g, phase, logged)?;
        let seats = logged.iter().enumerate().take(PLAYERS);
        for (seat, _) in seats.filter(|(_, l)| !l.is_null()) {
            for field in flags_differ(&g, &judged, phase, seat) {
                sent.push(format!("{}[{seat}].{field}", key_of(phase)));
            }
        }
        after.push(g.clone());
    }
    check_states(c, &g, turn.states)?;
    Ok((after, sent))
}

/// The flags of `seat`'s record of `phase` that differ between `a` and `b`.
fn flags_differ(a: &Ballroom, b: &Ballroom, phase: Phase, seat: usize) -> Vec<&'static str> {
    let (x, y) = (a.record(), b.record());
    let mut out = Vec::new();
    let mut differ = |field, d: bool| {
        if d {
            out.push(field);
        }
    };
    match phase {
        Phase::Use => differ("isValid", x.uses.get(seat) != y.uses.get(seat)),
        Phase::Move => differ("isValid", x.moves.get(seat) != y.moves.get(seat)),
        Phase::Buy => differ("isValid", x.buys.get(seat) != y.buys.get(seat)),
        Phase::Attack => {
            if let (Some(p), Some(q)) = (x.attacks.get(seat), y.attacks.get(seat)) {
                differ("isValid", p.valid != q.valid);
                differ("damage", p.damage != q.damage);
                differ("nullified", p.nullified != q.nullified);
            }
        }
        Phase::Class => {}
    }
    out
}

/// The most phases the search for replies the log does not show may play in one turn.
const SEARCH_BUDGET: usize = 2_000_000;

/// Why a search found nothing.
enum NotFound {
    /// No replies reproduce the log.
    None,
    /// Too many possibilities to try.
    TooMany,
}

/// Finds replies that make the official engine write this turn of the log, where the log does not
/// show them all: a player whose entry is `null` had no reply executed for it, because its bot's
/// reply named another player as executor; that reply was executed (before the one the log files
/// for that player, which is the last) and is in no entry. Each such hidden reply is tried as
/// every action of the phase for every player the log shows an action for, and ATTACK's queue in
/// every read order the log allows (the queue's order decides ties of damage). Branches that give
/// the same players are kept once; a MOVE branch must leave everyone where the turn's states say,
/// since nothing after MOVE moves a player.
fn search(game: &Ballroom, turn: &LoggedTurn<'_>, fast: &TurnPlan) -> Result<TurnPlan, NotFound> {
    let mut branches: Vec<(Ballroom, TurnPlan)> = vec![(game.clone(), *fast)];
    let mut budget = SEARCH_BUDGET;
    let mut scratch = Checker {
        turn: turn.number,
        checks: 0,
    };
    for (i, (&phase, logged)) in PHASES.iter().zip(turn.entries).enumerate() {
        let fresh = fast.phase(i);
        let hidden = PLAYERS.saturating_sub(fresh.len());
        let executors: Vec<u8> = fresh.iter().map(|r| r.executor).collect();
        let actions: Vec<Action> = match phase {
            Phase::Use => vec![Action::Use(false), Action::Use(true)],
            Phase::Move => (0..BOARD)
                .flat_map(|x| (0..BOARD).map(move |y| Action::Move { x, y }))
                .collect(),
            Phase::Attack => (0..PLAYERS as i32)
                .map(|target| Action::Attack { target })
                .collect(),
            Phase::Buy => Item::ALL.iter().map(|&i| Action::Buy(i)).collect(),
            Phase::Class => vec![],
        };
        let choices: Vec<Reply> = executors
            .iter()
            .flat_map(|&executor| {
                actions.iter().map(move |&action| Reply {
                    executor,
                    action,
                    flags: Flags::NONE,
                })
            })
            .collect();
        // Every sequence of `hidden` hidden replies.
        let mut sequences: Vec<Vec<Reply>> = vec![vec![]];
        for _ in 0..hidden {
            if sequences.len().saturating_mul(choices.len()) > budget {
                return Err(NotFound::TooMany);
            }
            sequences = sequences
                .iter()
                .flat_map(|s| {
                    choices.iter().map(move |c| {
                        let mut s = s.clone();
                        s.push(*c);
                        s
                    })
                })
                .collect();
        }
        let mut next: Vec<(Ballroom, TurnPlan)> = Vec::new();
        for (g, plan) in &branches {
            for seq in &sequences {
                let mut all: Vec<Reply> = seq.clone();
                all.extend_from_slice(fresh);
                let orders = if phase == Phase::Attack {
                    read_orders(&all, hidden)
                } else {
                    // Replies for different players commute outside ATTACK: the hidden ones
                    // first, each player's logged one last, is every order that counts.
                    vec![all.clone()]
                };
                for order in orders {
                    budget = budget.checked_sub(1).ok_or(NotFound::TooMany)?;
                    let mut g = g.clone();
                    g.step_replies(&order);
                    if check_actions(&mut scratch, &g, phase, logged).is_err() {
                        continue;
                    }
                    if phase == Phase::Move && !positions_match(&g, turn.states) {
                        continue;
                    }
                    if next.iter().any(|(o, _)| o.players() == g.players()) {
                        continue;
                    }
                    let mut plan = *plan;
                    plan.set(i, &order);
                    next.push((g, plan));
                }
            }
        }
        branches = next;
        if branches.is_empty() {
            return Err(NotFound::None);
        }
    }
    branches
        .into_iter()
        .find(|(g, _)| check_states(&mut scratch, g, turn.states).is_ok())
        .map(|(_, plan)| plan)
        .ok_or(NotFound::None)
}

/// The read orders of `all` (the first `hidden` are hidden replies, the rest the logged ones, one
/// per executor) in which each player's logged reply comes after every hidden reply for it.
fn read_orders(all: &[Reply], hidden: usize) -> Vec<Vec<Reply>> {
    let mut out = Vec::new();
    let mut order: Vec<usize> = Vec::with_capacity(all.len());
    let mut used = vec![false; all.len()];
    permute(all, hidden, &mut order, &mut used, &mut out);
    out
}

fn permute(
    all: &[Reply],
    hidden: usize,
    order: &mut Vec<usize>,
    used: &mut Vec<bool>,
    out: &mut Vec<Vec<Reply>>,
) {
    if order.len() == all.len() {
        out.push(order.iter().filter_map(|&i| all.get(i).copied()).collect());
        return;
    }
    for i in 0..all.len() {
        if used.get(i) != Some(&false) {
            continue;
        }
        if i >= hidden {
            // A logged reply: every hidden reply for its executor must be placed already.
            let executor = all.get(i).map(|r| r.executor);
            let waiting = (0..hidden)
                .any(|h| used.get(h) == Some(&false) && all.get(h).map(|r| r.executor) == executor);
            if waiting {
                continue;
            }
        }
        if let Some(u) = used.get_mut(i) {
            *u = true;
        }
        order.push(i);
        permute(all, hidden, order, used, out);
        order.pop();
        if let Some(u) = used.get_mut(i) {
            *u = false;
        }
    }
}

/// Every player stands where the log's states put it.
fn positions_match(game: &Ballroom, states: &[Value]) -> bool {
    game.players().iter().zip(states).all(|(p, s)| {
        s.get("position")
            .is_some_and(|v| Ours::Pos(p.pos.x.into(), p.pos.y.into()).matches(v))
    })
}

/// The re-play as the log is read, one entry at a time.
struct Replayer<'e> {
    each: &'e mut dyn Visit<Ballroom>,
    /// The ruleset the log was played under (the log does not say).
    ruleset: Ruleset,
    names: Vec<String>,
    meta: Meta,
    game: Option<Ballroom>,
    checker: Checker,
    steps: u64,
    /// Entries read.
    seen: u32,
    /// Logged flags that only the bots' flags explain: how many, and the first few (with turns).
    bot_flags: u64,
    first_bot_flags: Vec<String>,
    /// The difference that stopped the reading.
    failure: Option<Difference>,
}

impl Replayer<'_> {
    fn entry(&mut self, t: LogTurn) -> Result<(), Difference> {
        let number = self.seen;
        self.seen += 1;
        match self.game.take() {
            None => self.start(&t),
            Some(game) => self.turn(game, number, &t),
        }
    }

    /// T0: the classes, the game set up, its states compared.
    fn start(&mut self, t0: &LogTurn) -> Result<(), Difference> {
        let states = t0.player_states.as_deref().unwrap_or(&[]);
        let mut classes = [Class::Knight; PLAYERS];
        for (seat, c) in classes.iter_mut().enumerate() {
            let name = states.get(seat).and_then(|s| s.get("class"));
            *c = name
                .and_then(Value::as_str)
                .and_then(Class::from_name)
                .ok_or_else(|| {
                    malformed(0, format!("player_states[{seat}].class"), "a class", name)
                })?;
        }
        self.meta = Meta {
            config: self.ruleset.name().into(),
            seed: 0,
            bots: std::mem::take(&mut self.names),
        };
        self.each.meta(&self.meta);
        let params = Params {
            ruleset: self.ruleset,
            classes: Some(classes),
        };
        let game = Ballroom::new(&params, 0).map_err(|e| unreadable(0, e.to_string()))?;
        self.checker.turn = 0;
        check_states(&mut self.checker, &game, states)?;
        self.each.start(&(params, 0));
        self.each.state(&game);
        self.game = Some(game);
        Ok(())
    }

    fn turn(&mut self, game: Ballroom, number: u32, t: &LogTurn) -> Result<(), Difference> {
        if t.turn.as_ref().and_then(Value::as_u64) != Some(u64::from(number)) {
            return Err(unreadable(number, "turns out of order"));
        }
        if game.phase().is_none() {
            return Err(unreadable(number, "more than 100 turns"));
        }
        let states = t
            .player_states
            .as_deref()
            .ok_or_else(|| unreadable(number, "no player_states"))?;
        let mut entries: [&[Value]; 4] = [&[]; 4];
        let mut fast = TurnPlan::default();
        // Entries that hold no action: what was executed there is not in the log.
        let mut missing: Vec<String> = Vec::new();
        for (i, (&phase, slot)) in PHASES.iter().zip(entries.iter_mut()).enumerate() {
            let key = key_of(phase);
            let logged = t
                .actions(phase)
                .ok_or_else(|| unreadable(number, format!("no {key}")))?;
            if logged.len() < PLAYERS {
                return Err(unreadable(number, format!("{key}: fewer than 4")));
            }
            *slot = logged;
            let mut replies = Vec::with_capacity(PLAYERS);
            for (seat, l) in logged.iter().enumerate().take(PLAYERS) {
                let Some((mut action, flags)) = recorded_action(phase, l, number, seat)? else {
                    missing.push(format!("{key}[{seat}]"));
                    continue;
                };
                // A seat whose state turns inactive is dropped (as by a `null` reply) in BUY,
                // which the end-of-turn states cannot tell from any earlier phase of the turn.
                let quits =
                    states.get(seat).and_then(|s| s.get("isActive")) == Some(&Value::Bool(false));
                let was_active = game.player(seat).is_some_and(|p| p.active);
                if phase == Phase::Buy && quits && was_active {
                    action = Action::Null;
                }
                replies.push(Reply {
                    executor: seat as u8,
                    action,
                    flags,
                });
            }
            fast.set(i, &replies);
        }
        let turn = LoggedTurn {
            number,
            entries,
            states,
        };
        self.checker.turn = number;
        let counted = self.checker.checks;
        let after = match run_turn(&game, &turn, &fast, &mut self.checker) {
            Ok(after) => (after, fast),
            Err(d) => {
                let plan =
                    search(&game, &turn, &fast).map_err(|why| incomplete(d, &missing, why))?;
                // The values are counted once, as compared with the replies found.
                self.checker.checks = counted;
                (run_turn(&game, &turn, &plan, &mut self.checker)?, plan)
            }
        };
        let ((states_after, sent), plan) = after;
        self.bot_flags += sent.len() as u64;
        for field in sent {
            if self.first_bot_flags.len() < 3 {
                self.first_bot_flags.push(format!("turn {number} {field}"));
            }
        }
        for (i, g) in states_after.iter().enumerate() {
            self.each.fed(plan.phase(i));
            self.each.state(g);
            self.steps += 1;
        }
        self.game = states_after.into_iter().last();
        Ok(())
    }
}

/// A difference in a turn whose log is missing actions says so: the official engine keeps one
/// entry per executor, so when a bot acted for another seat the reply executed before the one
/// the log files for that player is in no entry.
fn incomplete(mut d: Difference, missing: &[String], why: NotFound) -> Difference {
    if !missing.is_empty() {
        let tried = match why {
            NotFound::None => "and no replies for them reproduce this turn of the log either",
            NotFound::TooMany => "and there are too many possible replies to try them all",
        };
        d.got.push_str(&format!(
            " (this turn's log holds no action for {}: the bots' replies named other players as \
             executor, and the official engine files only the last reply executed for each \
             player; {tried})",
            missing.join(", ")
        ));
    }
    d
}

/// The log's root object: `names`, then `turns` read entry by entry into the re-play.
struct Root<'r, 'e>(&'r mut Replayer<'e>);

impl<'de> Visitor<'de> for Root<'_, '_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a game log object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut turns = false;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "names" => {
                    let names: Value = map.next_value()?;
                    self.0.names = strings(Some(&names));
                }
                "turns" => {
                    map.next_value_seed(Turns(&mut *self.0))?;
                    turns = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(turns)
    }
}

struct Turns<'r, 'e>(&'r mut Replayer<'e>);

impl<'de> DeserializeSeed<'de> for Turns<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Turns<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of turns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(t) = seq.next_element::<LogTurn>()? {
            if let Err(d) = self.0.entry(t) {
                self.0.failure = Some(d);
                return Err(de::Error::custom("the re-play differs"));
            }
        }
        Ok(())
    }
}

/// Replays a reference log through our engine (`engine` ruleset; see [`replay_under`]; classes from T0) and compares
/// every action's fields and flags and every end-of-turn player state; `each` gets the start state
/// and the state after every phase, with the replies that phase executed. The log is read as a
/// stream, one entry at a time, so memory does not grow with its length.
///
/// A turn is first re-played as the log files it (each entry executed for its own player, in
/// player order); only where that differs are the replies the log does not show searched for
/// (`search`: an official log of a game where a bot acted for another seat). A seat whose
/// recorded state turns inactive is dropped (as by a `null` reply) during that turn's BUY phase,
/// which is indistinguishable in the end-of-turn states from any earlier phase of the same turn.
pub fn replay(
    input: &mut dyn BufRead,
    each: &mut dyn Visit<Ballroom>,
) -> Result<Verified, Difference> {
    replay_under(Ruleset::Engine, input, each)
}

/// [`replay`] under `ruleset`: a log does not say which ruleset its match was played under
/// (`arena play ballroom --ruleset as-written` writes the official format too).
pub fn replay_under(
    ruleset: Ruleset,
    input: &mut dyn BufRead,
    each: &mut dyn Visit<Ballroom>,
) -> Result<Verified, Difference> {
    let mut r = Replayer {
        each,
        ruleset,
        names: Vec::new(),
        meta: Meta::default(),
        game: None,
        checker: Checker { turn: 0, checks: 0 },
        steps: 0,
        seen: 0,
        bot_flags: 0,
        first_bot_flags: Vec::new(),
        failure: None,
    };
    let mut de = serde_json::Deserializer::from_reader(input);
    let read = de
        .deserialize_map(Root(&mut r))
        .and_then(|turns| de.end().map(|()| turns));
    if let Some(d) = r.failure.take() {
        return Err(d);
    }
    let at = r.seen;
    match read {
        Err(e) => return Err(unreadable(at, format!("not a game log: {e}"))),
        Ok(false) => return Err(unreadable(0, "no turns list")),
        Ok(true) => {}
    }
    let game = r.game.ok_or_else(|| unreadable(0, "no turn 0"))?;
    let scores: Vec<String> = game.players().iter().map(|p| p.score.to_string()).collect();
    let mut detail = format!("scores {}", scores.join(" "));
    if r.bot_flags > 0 {
        // Not the engine's judgement: values only a bot's own flags explain (rules, Protocol).
        detail.push_str(&format!(
            "; {} logged flags stand as bots sent them, where the engine's judgement does not set them ({}{})",
            r.bot_flags,
            r.first_bot_flags.join(", "),
            if r.bot_flags > r.first_bot_flags.len() as u64 { ", ..." } else { "" }
        ));
    }
    Ok(Verified {
        steps: r.steps,
        turns: r.seen.saturating_sub(1),
        checks: r.checker.checks,
        over: game.is_over(),
        detail,
        meta: r.meta,
    })
}

/// How many entries the log's `turns` holds, read as a stream without keeping them.
pub fn count_turns(input: &mut dyn BufRead) -> u64 {
    struct Count;
    impl<'de> Visitor<'de> for Count {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a game log")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
            let mut n = 0;
            while let Some(key) = map.next_key::<String>()? {
                if key == "turns" {
                    n = map.next_value::<Vec<IgnoredAny>>()?.len() as u64;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(n)
        }
    }
    serde_json::Deserializer::from_reader(input)
        .deserialize_map(Count)
        .unwrap_or(0)
}
