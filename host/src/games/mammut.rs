//! Mammut on the desktop: the canonical JSON of `rules/mammut.md`, and JSON-lines traces that can be
//! re-played and checked.
//!
//! Reading an action never fails: whatever a bot sends becomes an [`Action`], and anything that names
//! no action (unknown or repeated tile ids, both `take` and `steal`, not an object) becomes
//! [`Action::Nothing`], which the rules refuse and count. A trace holds, after a header with the
//! seed, one line per step: the action as played, whether it was refused, the canonical state after
//! it and the state digest, so [`verify_trace`] can say at which line and in which field a trace and
//! a re-play part ways.

use arena_core::games::mammut::{Action, Mammut, Params, Side, TileSet, PLAYERS};
use arena_core::{Bot, Game, Seat, SetupError};
use serde_json::{json, Map, Value};
use std::fmt;

/// One tile as JSON: `{"id":N,"side":"Meat"}`, showing its visible side.
pub fn tile_json(g: &Mammut, tile: u8) -> Value {
    let side = g.visible(tile).map_or("Unknown", Side::name);
    json!({ "id": tile, "side": side })
}

fn tiles_json(g: &Mammut, set: TileSet) -> Value {
    Value::Array(set.iter().map(|t| tile_json(g, t)).collect())
}

fn animals_json(animals: u8) -> Value {
    Value::Array(
        Side::ALL
            .iter()
            .filter(|s| s.is_animal() && animals & s.animal_bit() != 0)
            .map(|s| Value::from(s.name()))
            .collect(),
    )
}

/// The canonical state: what a bot sees. Everything in Mammut is public, so every seat sees the same
/// (Mystery tiles show "Mystery" until scoring); `seat` is taken for symmetry with other games.
pub fn state_json(g: &Mammut, _seat: Seat) -> Value {
    let to_move = g
        .mover()
        .and_then(|s| g.ids().get(s).copied())
        .map_or(Value::Null, Value::from);
    json!({
        "round": g.round(),
        "actions": g.actions(),
        "toMove": to_move,
        "ids": g.ids().to_vec(),
        "points": g.points().to_vec(),
        "furs": g.furs().to_vec(),
        "animals": g.animals().iter().map(|&a| animals_json(a)).collect::<Vec<_>>(),
        "hands": (0..PLAYERS).map(|s| tiles_json(g, g.hand(s))).collect::<Vec<_>>(),
        "middle": tiles_json(g, g.middle()),
    })
}

/// The canonical action: `{"take":[N,...]}`, `{"steal":SEAT,"putBack":N}`, or `null` for no action.
pub fn action_json(a: &Action) -> Value {
    match *a {
        Action::Nothing => Value::Null,
        Action::Take(tiles) => json!({ "take": tiles.iter().collect::<Vec<u8>>() }),
        Action::Steal { victim, put_back } => json!({ "steal": victim, "putBack": put_back }),
    }
}

/// A number as sent, kept as a `u8` when it fits; anything else (negative, too big, not an integer)
/// becomes 255, which names no seat and no tile.
fn small(v: &Value) -> Option<u8> {
    if !v.is_number() {
        return None;
    }
    Some(
        v.as_u64()
            .and_then(|n| u8::try_from(n).ok())
            .unwrap_or(u8::MAX),
    )
}

/// Reads what a bot sent. Never fails: anything that names no action is [`Action::Nothing`].
pub fn action_from_json(v: &Value) -> Action {
    let Some(obj) = v.as_object() else {
        return Action::Nothing;
    };
    match (obj.get("take"), obj.get("steal"), obj.get("putBack")) {
        (Some(Value::Array(ids)), None, None) => {
            let mut tiles = TileSet::EMPTY;
            for id in ids {
                match id.as_u64().and_then(|n| u8::try_from(n).ok()) {
                    Some(t) if TileSet::ALL.contains(t) && !tiles.contains(t) => {
                        tiles = tiles.with(t)
                    }
                    _ => return Action::Nothing,
                }
            }
            Action::Take(tiles)
        }
        (None, Some(victim), Some(put_back)) => match (small(victim), small(put_back)) {
            (Some(victim), Some(put_back)) => Action::Steal { victim, put_back },
            _ => Action::Nothing,
        },
        _ => Action::Nothing,
    }
}

/// The first line of a trace: the game, the seed, the bots' names and the first state.
pub fn trace_header(g: &Mammut, seed: u64, bots: &[&str]) -> String {
    json!({
        "game": Mammut::NAME,
        "seed": seed,
        "bots": bots,
        "state": state_json(g, 0),
        "digest": format!("{:016x}", g.digest()),
    })
    .to_string()
}

/// One trace line: the step's number (turns played before it), the seat that moved, its action,
/// whether it was refused, and the state after it.
pub fn trace_line(turn: u32, seat: Seat, action: &Action, refused: bool, after: &Mammut) -> String {
    json!({
        "turn": turn,
        "seat": seat,
        "action": action_json(action),
        "refused": refused,
        "state": state_json(after, seat),
        "digest": format!("{:016x}", after.digest()),
    })
    .to_string()
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
    trace.push_str(&trace_header(&g, seed, names));
    trace.push('\n');
    while let Some(seat) = g.mover() {
        let turn = g.turn();
        let action = match bots.get_mut(seat) {
            Some(bot) => bot.act(&g, seat),
            None => Action::Nothing,
        };
        let mut actions = [Action::Nothing; PLAYERS];
        if let Some(a) = actions.get_mut(seat) {
            *a = action;
        }
        let refused = g.step(&actions).total_refused() > 0;
        trace.push_str(&trace_line(turn, seat, &action, refused, &g));
        trace.push('\n');
    }
    Ok((g, trace))
}

/// What a verified trace held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Steps re-played.
    pub steps: u32,
    /// Actions refused.
    pub refused: u32,
    /// Whether the trace reaches the end of the game.
    pub over: bool,
    /// Points at the end of the trace.
    pub points: [i32; PLAYERS],
    /// Placement points at the end, in 1/60.
    pub placement: [u16; PLAYERS],
}

/// Where a trace and its re-play part ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based line of the trace.
    pub line: usize,
    /// The step that line records, when known.
    pub turn: Option<u32>,
    /// The field that differs (`state.points`, `digest`, `seat`...), or what could not be read.
    pub field: String,
    /// What the trace holds.
    pub recorded: String,
    /// What the re-play gives.
    pub replayed: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if let Some(turn) = self.turn {
            write!(f, " (turn {turn})")?;
        }
        write!(
            f,
            ": {}: trace has {}, re-play gives {}",
            self.field, self.recorded, self.replayed
        )
    }
}

impl std::error::Error for Mismatch {}

fn mismatch(
    line: usize,
    turn: Option<u32>,
    field: &str,
    recorded: &Value,
    replayed: &Value,
) -> Mismatch {
    Mismatch {
        line,
        turn,
        field: field.to_string(),
        recorded: recorded.to_string(),
        replayed: replayed.to_string(),
    }
}

/// Compares a recorded state with the re-played one, field by field, then as a whole.
fn compare_state(
    line: usize,
    turn: Option<u32>,
    recorded: &Value,
    replayed: &Value,
) -> Result<(), Mismatch> {
    let empty = Map::new();
    let rec = recorded.as_object().unwrap_or(&empty);
    if let Some(rep) = replayed.as_object() {
        for (key, want) in rep {
            let got = rec.get(key).unwrap_or(&Value::Null);
            if got != want {
                return Err(mismatch(line, turn, &format!("state.{key}"), got, want));
            }
        }
    }
    if recorded != replayed {
        return Err(mismatch(line, turn, "state", recorded, replayed));
    }
    Ok(())
}

/// Re-plays a trace written by [`trace_header`] and [`trace_line`] and checks every line.
pub fn verify_trace(text: &str) -> Result<VerifyReport, Mismatch> {
    replay_trace(text, |_| {})
}

/// [`verify_trace`], handing `each` the first state and the state after every step (`arena render`).
pub fn replay_trace(text: &str, mut each: impl FnMut(&Mammut)) -> Result<VerifyReport, Mismatch> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((n, first)) = lines.next() else {
        return Err(mismatch(
            1,
            None,
            "header",
            &Value::Null,
            &json!("a header line"),
        ));
    };
    let parse = |n: usize, l: &str| -> Result<Value, Mismatch> {
        serde_json::from_str(l).map_err(|e| Mismatch {
            line: n,
            turn: None,
            field: "json".to_string(),
            recorded: l.chars().take(80).collect(),
            replayed: e.to_string(),
        })
    };
    let header = parse(n, first)?;
    let game = header.get("game").unwrap_or(&Value::Null);
    if game != Mammut::NAME {
        return Err(mismatch(n, None, "game", game, &json!(Mammut::NAME)));
    }
    let seed_v = header.get("seed").unwrap_or(&Value::Null);
    let Some(seed) = seed_v.as_u64() else {
        return Err(mismatch(
            n,
            None,
            "seed",
            seed_v,
            &json!("an unsigned integer"),
        ));
    };
    let mut g = Mammut::new(&Params, seed)
        .map_err(|e| mismatch(n, None, "seed", seed_v, &json!(e.to_string())))?;
    compare_state(
        n,
        None,
        header.get("state").unwrap_or(&Value::Null),
        &state_json(&g, 0),
    )?;
    check_digest(n, None, &header, &g)?;
    each(&g);

    let mut refused_total = 0u32;
    for (n, l) in lines {
        let v = parse(n, l)?;
        let turn = g.turn();
        let at = Some(turn);
        let rec_turn = v.get("turn").unwrap_or(&Value::Null);
        if rec_turn.as_u64() != Some(u64::from(turn)) {
            return Err(mismatch(n, at, "turn", rec_turn, &json!(turn)));
        }
        let Some(seat) = g.mover() else {
            return Err(mismatch(
                n,
                at,
                "turn",
                rec_turn,
                &json!("the game is over"),
            ));
        };
        let rec_seat = v.get("seat").unwrap_or(&Value::Null);
        if rec_seat.as_u64() != Some(seat as u64) {
            return Err(mismatch(n, at, "seat", rec_seat, &json!(seat)));
        }
        let rec_action = v.get("action").unwrap_or(&Value::Null);
        let action = action_from_json(rec_action);
        let mut actions = [Action::Nothing; PLAYERS];
        if let Some(a) = actions.get_mut(seat) {
            *a = action;
        }
        let refused = g.step(&actions).total_refused() > 0;
        refused_total += u32::from(refused);
        let rec_refused = v.get("refused").unwrap_or(&Value::Null);
        if rec_refused.as_bool() != Some(refused) {
            return Err(mismatch(n, at, "refused", rec_refused, &json!(refused)));
        }
        let state = state_json(&g, seat);
        compare_state(n, at, v.get("state").unwrap_or(&Value::Null), &state)?;
        check_digest(n, at, &v, &g)?;
        each(&g);
    }
    Ok(VerifyReport {
        steps: g.turn(),
        refused: refused_total,
        over: g.is_over(),
        points: *g.points(),
        placement: g.placement(),
    })
}

fn check_digest(line: usize, turn: Option<u32>, v: &Value, g: &Mammut) -> Result<(), Mismatch> {
    let want = json!(format!("{:016x}", g.digest()));
    let got = v.get("digest").unwrap_or(&Value::Null);
    if *got != want {
        return Err(mismatch(line, turn, "digest", got, &want));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_and_unknown_is_nothing() {
        let take = Action::Take(TileSet::only(3).with(17));
        for a in [
            Action::Nothing,
            take,
            Action::Steal {
                victim: 2,
                put_back: 9,
            },
        ] {
            assert_eq!(action_from_json(&action_json(&a)), a);
        }
        assert_eq!(action_from_json(&json!({"take":[17,3]})), take);
        assert_eq!(
            action_from_json(&json!({"take":[]})),
            Action::Take(TileSet::EMPTY)
        );
        for bad in [
            json!({"take":[3,3]}),
            json!({"take":[32]}),
            json!({"take":[-1]}),
            json!({"take":"3"}),
            json!({"take":[1],"steal":2,"putBack":1}),
            json!({"steal":2}),
            json!({"steal":"x","putBack":1}),
            json!([1, 2]),
            json!("take"),
            Value::Null,
        ] {
            assert_eq!(action_from_json(&bad), Action::Nothing, "{bad}");
        }
        assert_eq!(
            action_from_json(&json!({"steal":-4,"putBack":1e9})),
            Action::Steal {
                victim: 255,
                put_back: 255
            }
        );
    }

    #[test]
    fn state_json_follows_the_rules_file() {
        let g = Mammut::new(&Params, 8).unwrap();
        let s = state_json(&g, 0);
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let mut want = vec![
            "round", "actions", "toMove", "ids", "points", "furs", "animals", "hands", "middle",
        ];
        want.sort();
        let mut got = keys.clone();
        got.sort();
        assert_eq!(got, want);
        assert_eq!(s["middle"].as_array().unwrap().len(), 32);
        assert_eq!(s["hands"].as_array().unwrap().len(), PLAYERS);
        let mover = g.mover().unwrap();
        assert_eq!(s["toMove"], json!(g.ids()[mover]));
        let mystery = s["middle"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["side"] == "Mystery")
            .count();
        assert_eq!(
            mystery,
            (8..14)
                .filter(|&t| g.visible(t) == Some(Side::Mystery))
                .count()
        );
    }
}
