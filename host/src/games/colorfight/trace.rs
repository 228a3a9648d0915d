//! A ColorFight match as JSON lines: a header with the params, the seed and the tick-0 state, then
//! one line per tick with every seat's action, what was refused and (every few ticks, and at the
//! end) the state after it. Re-played line by line, it names the first tick and field that differ.

use super::json::{action_from_json, action_json, params_from_json, params_json, state_value};
use crate::game::Plan;
use crate::record::{Every, LineWriter, Recorder, Step};
use crate::replay::{Meta, Visit};
use crate::verify::{json_diff, json_trace, no_names, Difference, Verified};
use arena_core::games::colorfight::{Action, ColorFight, Refusal, MAX_PLAYERS};
use arena_core::{Game, StepReport};
use serde_json::{json, Value};
use std::io::BufRead;

/// The configuration as labels and traces show it: the variant and the grid (`conquest-30x30`).
pub(crate) fn config(p: &arena_core::games::colorfight::Params) -> String {
    format!("{}-{}x{}", p.variant.name(), p.width, p.height)
}

/// The first line of a trace: game, params, seed and the state at tick 0.
pub fn header(game: &ColorFight) -> String {
    let mut h = params_json(game.params());
    if let Value::Object(m) = &mut h {
        m.insert("game".into(), json!(ColorFight::NAME));
        m.insert("seed".into(), json!(game.seed()));
        m.insert("state".into(), state_value(game));
    }
    h.to_string()
}

/// One line per step: the tick the actions were taken at, the actions, what was refused, and
/// (with `state`) the state after the step. Call it with the game as it is *after*
/// `step(actions)` returned `report`.
pub fn line(game: &ColorFight, actions: &[Action], report: &StepReport, state: bool) -> String {
    explained(game, actions, report, &[], state)
}

/// [`line`], with why each refused action was refused (`why`, one reason or `null` per seat,
/// kept on the lines with a refusal).
pub fn explained(
    game: &ColorFight,
    actions: &[Action],
    report: &StepReport,
    why: &[Option<&'static str>],
    state: bool,
) -> String {
    let seats = game.seats();
    let acts: Vec<Value> = (0..seats)
        .map(|s| action_json(&actions.get(s).copied().unwrap_or_default()))
        .collect();
    let mut line = json!({
        "tick": game.tick().saturating_sub(1),
        "actions": acts,
        "refused": &report.refused[..seats],
    });
    let told = why.iter().any(Option::is_some);
    if let (true, true, Some(m)) = (told, report.total_refused() > 0, line.as_object_mut()) {
        m.insert("why".into(), json!(&why[..seats.min(why.len())]));
    }
    if let (true, Some(m)) = (state, line.as_object_mut()) {
        m.insert("state".into(), state_value(game));
    }
    line.to_string()
}

/// Writes the trace: the state every `plan.record_every` ticks and at the end.
pub struct Trace(Every);

impl Recorder<ColorFight> for Trace {
    fn new(plan: &Plan<ColorFight>) -> Self {
        Trace(Every::of(plan))
    }

    fn begin(&mut self, game: &ColorFight, _plan: &Plan<ColorFight>, out: &mut LineWriter) {
        out.text(&header(game));
    }

    fn step(&mut self, g: &ColorFight, step: &Step<'_, ColorFight>, out: &mut LineWriter) {
        let state = self.0.due(g);
        let mut why = vec![None; g.seats()];
        for &(seat, reason) in step.why {
            if let Some(w) = why.get_mut(seat) {
                *w = Some(reason);
            }
        }
        out.text(&explained(g, step.moves, step.report, &why, state));
    }
}

/// Re-plays a trace and checks every recorded field; `each` gets the tick-0 state and the state
/// after every step.
pub fn replay(
    input: &mut dyn BufRead,
    each: &mut dyn Visit<ColorFight>,
) -> Result<Verified, Difference> {
    let (n, header, lines) = json_trace(input)?;
    let bad_header = |what: String| Difference::unreadable("a colorfight header", what).at_line(n);
    if header.get("game").and_then(Value::as_str) != Some(ColorFight::NAME) {
        return Err(bad_header(format!(
            "game {}",
            header.get("game").unwrap_or(&Value::Null)
        )));
    }
    let params = params_from_json(&header).map_err(|e| bad_header(e.to_string()))?;
    let seed = header
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad_header("no seed".into()))?;
    let mut game = ColorFight::new(&params, seed).map_err(|e| bad_header(e.to_string()))?;
    let initial = header.get("state").unwrap_or(&Value::Null);
    if let Some(d) = json_diff(initial, &state_value(&game), &no_names) {
        return Err(d.under("state").at_line(n).at_turn(0));
    }
    let meta = Meta {
        config: config(&params),
        seed,
        // ColorFight traces do not name their bots: seats instead.
        bots: (0..params.players).map(|s| format!("seat {s}")).collect(),
    };
    let mut report = Verified::begin(meta, each, &(params, seed), &game);
    for item in lines {
        let (n, line) = item?;
        let tick = game.tick();
        let at = |d: Difference| d.at_line(n).at_turn(tick);
        let said = line.get("tick").cloned().unwrap_or(Value::Null);
        if said != json!(tick) {
            return Err(at(Difference::field("tick", said, tick)));
        }
        let actions: Vec<Action> = match line.get("actions").and_then(Value::as_array) {
            Some(a) => a.iter().map(action_from_json).collect(),
            None => return Err(at(Difference::field("actions", "a list", "missing"))),
        };
        each.fed(&actions);
        let mut why = [None; MAX_PLAYERS];
        let stepped = game.step_explained(&actions, &mut why);
        let seats = game.seats();
        let refused = line.get("refused").cloned().unwrap_or(Value::Null);
        if let Some(d) = json_diff(&refused, &json!(&stepped.refused[..seats]), &no_names) {
            return Err(at(d.under("refused")));
        }
        // Traces written before the reasons were kept have none: there is nothing to compare.
        if let Some(said) = line.get("why") {
            let why: Vec<Option<&str>> = why[..seats]
                .iter()
                .map(|w| w.map(Refusal::reason))
                .collect();
            if let Some(d) = json_diff(said, &json!(why), &no_names) {
                return Err(at(d.under("why")));
            }
        }
        // Long games record the state only every few ticks.
        if let Some(state) = line.get("state") {
            if let Some(d) = json_diff(state, &state_value(&game), &no_names) {
                return Err(at(d.under("state")));
            }
            report.checks += 1;
        }
        each.state(&game);
        report.steps += 1;
    }
    report.turns = game.tick();
    report.over = game.is_over();
    Ok(report)
}
