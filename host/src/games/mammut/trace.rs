//! A Mammut match as JSON lines: a header with the seed, the bots and the first state, then one line
//! per step: the seat that moved, its action, whether it was refused, the canonical state after it
//! and the state digest, so a re-play can say at which line and in which field it parts ways.

use super::json::{action_from_json, action_json, state_json};
use crate::game::Plan;
use crate::record::{LineWriter, Recorder, Step};
use crate::replay::{strings, Meta, Visit};
use crate::verify::{json_diff, json_trace, no_names, Difference, Verified};
use arena_core::games::mammut::{Action, Mammut, Params, PLAYERS};
use arena_core::{Bot, Game, Seat, SetupError};
use serde_json::{json, Value};
use std::io::BufRead;

fn digest_json(g: &Mammut) -> Value {
    json!(format!("{:016x}", g.digest()))
}

/// The first line of a trace: the game, the seed, the bots' names and the first state.
pub fn header(g: &Mammut, seed: u64, bots: &[&str]) -> String {
    json!({
        "game": Mammut::NAME,
        "seed": seed,
        "bots": bots,
        "state": state_json(g, 0),
        "digest": digest_json(g),
    })
    .to_string()
}

/// One trace line: the step's number (turns played before it), the seat that moved, its action,
/// whether it was refused, and the state after it.
pub fn line(turn: u32, seat: Seat, action: &Action, refused: bool, after: &Mammut) -> String {
    explained(turn, seat, action, refused, None, after)
}

/// [`line`](fn@line), with why the action was refused (`why`, kept on refused lines).
pub fn explained(
    turn: u32,
    seat: Seat,
    action: &Action,
    refused: bool,
    why: Option<&str>,
    after: &Mammut,
) -> String {
    let mut line = json!({
        "turn": turn,
        "seat": seat,
        "action": action_json(action),
        "refused": refused,
        "state": state_json(after, seat),
        "digest": digest_json(after),
    });
    if let (true, Some(why), Some(m)) = (refused, why, line.as_object_mut()) {
        m.insert("why".into(), why.into());
    }
    line.to_string()
}

/// Why the rules refuse `seat`'s `action` now, if they do.
fn refusal(g: &Mammut, seat: Seat, action: &Action) -> Option<&'static str> {
    g.legal(seat, action).err().map(|r| r.reason())
}

/// Plays a whole game with `bots` (one per seat) and returns it with its trace (one line per step,
/// newline-terminated). `names` are written in the header.
pub fn play_traced<B: Bot<Mammut>>(
    seed: u64,
    names: &[&str],
    bots: &mut [B],
) -> Result<(Mammut, String), SetupError> {
    let mut trace = String::new();
    let mut g = Mammut::new(&Params, seed)?;
    trace.push_str(&header(&g, seed, names));
    trace.push('\n');
    while let Some(seat) = g.mover() {
        let turn = g.turn();
        let action = match bots.get_mut(seat) {
            Some(bot) => bot.act(&g.view(seat)),
            None => Action::Nothing,
        };
        let mut actions = [Action::Nothing; PLAYERS];
        if let Some(a) = actions.get_mut(seat) {
            *a = action;
        }
        let why = refusal(&g, seat, &action);
        let refused = g.step(&actions).total_refused() > 0;
        trace.push_str(&explained(turn, seat, &action, refused, why, &g));
        trace.push('\n');
    }
    Ok((g, trace))
}

/// Writes the trace: a line per action.
pub struct Trace;

impl Recorder<Mammut> for Trace {
    fn new(_plan: &Plan<Mammut>) -> Self {
        Trace
    }

    fn begin(&mut self, game: &Mammut, plan: &Plan<Mammut>, out: &mut LineWriter) {
        let names: Vec<&str> = plan.names.iter().map(String::as_str).collect();
        out.text(&header(game, plan.seed, &names));
    }

    fn step(&mut self, g: &Mammut, step: &Step<'_, Mammut>, out: &mut LineWriter) {
        for seat in step.movers.iter() {
            let action = step.moves.get(seat).copied().unwrap_or_default();
            let refused = step.report.refused.get(seat).copied().unwrap_or(0) > 0;
            let why = step.why.iter().find(|(s, _)| *s == seat).map(|&(_, w)| w);
            out.text(&explained(step.turn, seat, &action, refused, why, g));
        }
    }
}

/// Compares a recorded state and digest with the game.
fn check(v: &Value, g: &Mammut, seat: Seat) -> Result<(), Difference> {
    let state = v.get("state").unwrap_or(&Value::Null);
    if let Some(d) = json_diff(state, &state_json(g, seat), &no_names) {
        return Err(d.under("state"));
    }
    let digest = v.get("digest").unwrap_or(&Value::Null);
    match json_diff(digest, &digest_json(g), &no_names) {
        Some(d) => Err(d.under("digest")),
        None => Ok(()),
    }
}

/// Re-plays a trace written by [`header`] and [`line`](fn@line) and checks every line; `each` gets
/// the first state and the state after every step.
pub fn replay(
    input: &mut dyn BufRead,
    each: &mut dyn Visit<Mammut>,
) -> Result<Verified, Difference> {
    let (n, header, lines) = json_trace(input)?;
    let game = header.get("game").unwrap_or(&Value::Null);
    if game != Mammut::NAME {
        return Err(Difference::field("game", game, Mammut::NAME).at_line(n));
    }
    let seed_v = header.get("seed").unwrap_or(&Value::Null);
    let Some(seed) = seed_v.as_u64() else {
        return Err(Difference::field("seed", seed_v, "an unsigned integer").at_line(n));
    };
    let mut g =
        Mammut::new(&Params, seed).map_err(|e| Difference::field("seed", seed_v, e).at_line(n))?;
    check(&header, &g, 0).map_err(|d| d.at_line(n))?;
    let meta = Meta {
        config: String::new(),
        seed,
        bots: strings(header.get("bots")),
    };
    let mut report = Verified::begin(meta, each, &(Params, seed), &g);
    let mut refused_total = 0u32;
    for item in lines {
        let (n, v) = item?;
        let turn = g.turn();
        let at = |d: Difference| d.at_line(n).at_turn(turn);
        let rec_turn = v.get("turn").unwrap_or(&Value::Null);
        if rec_turn.as_u64() != Some(u64::from(turn)) {
            return Err(at(Difference::field("turn", rec_turn, turn)));
        }
        let Some(seat) = g.mover() else {
            return Err(at(Difference::field("turn", rec_turn, "the game is over")));
        };
        let rec_seat = v.get("seat").unwrap_or(&Value::Null);
        if rec_seat.as_u64() != Some(seat as u64) {
            return Err(at(Difference::field("seat", rec_seat, seat)));
        }
        let action = action_from_json(v.get("action").unwrap_or(&Value::Null));
        let mut actions = [Action::Nothing; PLAYERS];
        if let Some(a) = actions.get_mut(seat) {
            *a = action;
        }
        each.fed(&actions);
        let why = refusal(&g, seat, &action);
        let refused = g.step(&actions).total_refused() > 0;
        refused_total += u32::from(refused);
        let rec_refused = v.get("refused").unwrap_or(&Value::Null);
        if rec_refused.as_bool() != Some(refused) {
            return Err(at(Difference::field("refused", rec_refused, refused)));
        }
        // Traces written before the reasons were kept have none.
        if let Some(said) = v.get("why") {
            if said.as_str() != why {
                let ours = why.unwrap_or("no refusal");
                return Err(at(Difference::field("why", said, ours)));
            }
        }
        check(&v, &g, seat).map_err(at)?;
        report.checks += 1;
        report.steps += 1;
        each.state(&g);
    }
    report.turns = g.turn();
    report.over = g.is_over();
    report.detail = format!("{refused_total} actions refused");
    Ok(report)
}
