//! The golden trace format of the reference controller (`golden/tower-defense/README.md`): a
//! header, the turn-0 state, then one line per turn with both actions and, on the turns it keeps,
//! the state after them. Written as a match is played, read back line by line to re-play it.

use super::json::{action_json, seat_action, state_fields, state_json};
use crate::game::Plan;
use crate::record::{LineWriter, Recorder, Step};
use crate::replay::{strings, Meta, Visit};
use crate::verify::{json_diff, Difference, Verified};
use arena_core::games::tower_defense::{Action, Params, TowerDefense, Variant};
use arena_core::Game;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::io::BufRead;

/// The header line of a trace.
pub fn header(variant: Variant, bots: &[String], seed: u64) -> Value {
    json!({"header": {
        "game": "tower-defense",
        "variant": variant.name(),
        "source": "pocket-arena",
        "bots": bots,
        "seed": seed,
    }})
}

/// One trace line: the actions that led to this state (`None` for the turn-0 line), then the
/// state (or, with `state` false, only its turn).
pub fn line(actions: Option<&[Action; 2]>, g: &TowerDefense, state: bool) -> Value {
    let mut m = Map::new();
    let actions = match actions {
        Some(a) => Value::Array(a.iter().map(action_json).collect()),
        None => Value::Null,
    };
    m.insert("actions".into(), actions);
    m.insert("turn".into(), json!(g.turn()));
    if state {
        state_fields(g, &mut m);
    }
    Value::Object(m)
}

/// Writes the trace: the state every `plan.record_every` turns and at the end.
pub struct Trace {
    every: u32,
}

impl Recorder<TowerDefense> for Trace {
    fn new(plan: &Plan<TowerDefense>) -> Self {
        Trace {
            every: plan.record_every.max(1),
        }
    }

    fn begin(&mut self, game: &TowerDefense, plan: &Plan<TowerDefense>, out: &mut LineWriter) {
        out.line(&header(plan.params.variant, &plan.names, plan.seed));
        out.line(&line(None, game, true));
    }

    fn step(&mut self, g: &TowerDefense, step: &Step<'_, TowerDefense>, out: &mut LineWriter) {
        let pair = [
            step.moves.first().cloned().unwrap_or_default(),
            step.moves.get(1).cloned().unwrap_or_default(),
        ];
        let state = g.turn().is_multiple_of(self.every) || g.is_over();
        out.line(&line(Some(&pair), g, state));
    }
}

const INVADER_FIELDS: [&str; 6] = ["pos", "hp", "maxhp", "defense", "stunRes", "stunTime"];
const TOWER_FIELDS: [&str; 6] = ["pos", "type", "level", "power", "range", "cooldown"];

/// Invaders and towers are tuples: their positions have names.
fn tuple_names(path: &str) -> Option<&'static [&'static str]> {
    if path.ends_with("invaders") {
        Some(&INVADER_FIELDS)
    } else if path.ends_with("towers") {
        Some(&TOWER_FIELDS)
    } else {
        None
    }
}

const STATE_KEYS: [&str; 5] = ["players", "boards", "invader", "defender", "board"];

/// Compares what a line records (its turn, and the state if it has one) with the game.
fn check(line: &Map<String, Value>, g: &TowerDefense) -> Result<bool, Difference> {
    let has_state = STATE_KEYS.iter().any(|k| line.contains_key(*k));
    let mut recorded = line.clone();
    recorded.remove("actions");
    let ours = if has_state {
        state_json(g)
    } else {
        json!({"turn": g.turn()})
    };
    match json_diff(&Value::Object(recorded), &ours, &tuple_names) {
        Some(d) => Err(d),
        None => Ok(has_state),
    }
}

/// A line's number and its JSON object.
type Numbered = (usize, Map<String, Value>);

/// A trace line as the fast path reads it.
#[derive(Deserialize)]
struct Fast<'a> {
    #[serde(borrow)]
    actions: Option<[&'a RawValue; 2]>,
    #[serde(default)]
    turn: Value,
    #[serde(borrow, default)]
    players: Option<&'a RawValue>,
    #[serde(borrow, default)]
    boards: Option<&'a RawValue>,
    #[serde(borrow, default)]
    invader: Option<&'a RawValue>,
    #[serde(borrow, default)]
    defender: Option<&'a RawValue>,
    #[serde(borrow, default)]
    board: Option<&'a RawValue>,
}

impl Fast<'_> {
    /// The state fields the line has, by name.
    fn state(&self) -> impl Iterator<Item = (&'static str, &RawValue)> + '_ {
        STATE_KEYS
            .iter()
            .zip([self.players, self.boards, self.invader, self.defender, self.board])
            .filter_map(|(k, v)| v.map(|v| (*k, v)))
    }

    /// Whether the recorded state is, to the byte, the one `g` writes (the controller and
    /// [`line`] write the same text for the same state).
    fn same_text(&self, g: &TowerDefense) -> bool {
        let mut ours = Map::new();
        state_fields(g, &mut ours);
        self.state().count() == ours.len()
            && self
                .state()
                .all(|(k, raw)| {
                    ours.get(k)
                        .and_then(|v| serde_json::to_string(v).ok())
                        .is_some_and(|text| text == raw.get())
                })
    }
}

/// The actions of one seat of a trace, read from their JSON text: many lines repeat the same few
/// actions, so each distinct text is read once (a pure function of the text; the memory is capped).
#[derive(Default)]
struct Actions(std::collections::HashMap<Box<str>, Action>);

impl Actions {
    const MOST: usize = 4096;

    /// The action `raw` is from seat `seat` of a `variant` game (one cache per seat: the Siege
    /// invader's answers are read differently, [`seat_action`]).
    fn of(&mut self, raw: &RawValue, variant: Variant, seat: usize) -> Action {
        let text = raw.get();
        if let Some(a) = self.0.get(text) {
            return *a;
        }
        let a = serde_json::from_str(text).map_or(Action::Unknown, |v| seat_action(variant, seat, &v));
        if self.0.len() >= Self::MOST {
            self.0.clear();
        }
        self.0.insert(text.into(), a);
        a
    }
}

/// Re-plays a trace, comparing every recorded state; `each` gets the turn-0 state and the state
/// after every turn.
pub fn replay(
    input: &mut dyn BufRead,
    each: &mut dyn Visit<TowerDefense>,
) -> Result<Verified, Difference> {
    let mut lines = <&mut dyn BufRead as BufRead>::lines(input)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| l.as_ref().map_or(true, |l| !l.trim().is_empty()))
        .map(|(n, l)| {
            l.map(|t| (n, t))
                .map_err(|e| Difference::unreadable("a line of text", e).at_line(n))
        });
    let mut object = |what: &str| -> Result<Option<Numbered>, Difference> {
        let Some((n, text)) = lines.next().transpose()? else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(|m| Some((n, m)))
            .map_err(|e| Difference::unreadable(what, format!("not a JSON object: {e}")).at_line(n))
    };
    let (n, head) = object("a trace header")?
        .ok_or_else(|| Difference::unreadable("a trace header", "an empty file").at_line(1))?;
    let h = head
        .get("header")
        .ok_or_else(|| Difference::unreadable("a trace header", "no header").at_line(n))?;
    if h.get("game").and_then(Value::as_str) != Some("tower-defense") {
        return Err(Difference::unreadable("a tower-defense trace", h).at_line(n));
    }
    let variant = h
        .get("variant")
        .and_then(Value::as_str)
        .and_then(Variant::from_name)
        .ok_or_else(|| Difference::field("header.variant", "duel or siege", h).at_line(n))?;
    let meta = Meta {
        config: variant.name().to_string(),
        seed: h.get("seed").and_then(Value::as_u64).unwrap_or(0),
        bots: strings(h.get("bots")),
    };
    each.meta(&meta);
    let mut game = TowerDefense::new(&Params { variant }, 0)
        .map_err(|e| Difference::unreadable("a playable variant", e).at_line(n))?;
    let (n, first) = object("the turn-0 state")?.ok_or_else(|| {
        Difference::unreadable("the turn-0 state", "the end of the file").at_line(n + 1)
    })?;
    if !first.get("actions").is_some_and(Value::is_null) {
        return Err(
            Difference::field("actions", "null on the turn-0 line", "something else").at_line(n),
        );
    }
    let mut report = Verified {
        meta,
        ..Verified::default()
    };
    report.checks += u64::from(check(&first, &game).map_err(|d| d.at_line(n).at_turn(0))?);
    each.start(&(Params { variant }, 0));
    each.state(&game);
    // The other lines are read as their actions, their turn and which state fields they have, so
    // a line that records no state (most lines of a long trace) costs no tree of JSON.
    let mut actions = [Actions::default(), Actions::default()];
    for item in lines {
        let (n, text) = item?;
        let fast: Fast<'_> = serde_json::from_str(&text).map_err(|e| {
            Difference::unreadable("a trace line", format!("not a JSON object: {e}")).at_line(n)
        })?;
        let Some([a, b]) = fast.actions else {
            return Err(Difference::field("actions", "a list of two", "something else").at_line(n));
        };
        if game.is_over() {
            return Err(Difference::unreadable(
                "the end of the file",
                "a turn after the game was over",
            )
            .at_line(n));
        }
        let fed = [actions[0].of(a, variant, 0), actions[1].of(b, variant, 1)];
        each.fed(&fed);
        game.step(&fed);
        report.steps += 1;
        let at = |d: Difference| d.at_line(n).at_turn(game.turn());
        if let Some(d) = json_diff(&fast.turn, &json!(game.turn()), &tuple_names) {
            return Err(at(d.under("turn")));
        }
        if fast.state().next().is_some() {
            if !fast.same_text(&game) {
                let line: Map<String, Value> = serde_json::from_str(&text)
                    .map_err(|e| at(Difference::unreadable("a trace line", e)))?;
                check(&line, &game).map_err(at)?;
            }
            report.checks += 1;
        }
        each.state(&game);
    }
    report.turns = game.turn();
    report.over = game.is_over();
    Ok(report)
}
