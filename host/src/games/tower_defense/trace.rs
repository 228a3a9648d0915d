//! The golden trace format of the reference controller (`golden/tower-defense/README.md`): a
//! header, the turn-0 state, then one line per turn with both actions and, on the turns it keeps,
//! the state after them. Written as a match is played, read back line by line to re-play it.

use super::json::{
    action_json, seat_action, state_fields, state_json, state_texts, taken_but_refused,
};
use super::line::{scan, Scanned, STATE_KEYS};
use crate::game::Plan;
use crate::record::{Every, LineWriter, Recorder, Step};
use crate::replay::{strings, Meta, Visit};
use crate::verify::{json_diff, Difference, Verified};
use arena_core::games::tower_defense::{Action, Params, TowerDefense, Variant};
use arena_core::Game;
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
pub struct Trace(Every);

impl Recorder<TowerDefense> for Trace {
    fn new(plan: &Plan<TowerDefense>) -> Self {
        Trace(Every::of(plan))
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
        let state = self.0.due(g);
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

/// Whether the state a line records is, to the byte, the one `g` writes (the controller and
/// [`line`] write the same text for the same state): its fields are ours and each one's text is
/// ours (`ours` is a buffer for our text).
fn same_text(recorded: &Scanned<'_>, g: &TowerDefense, ours: &mut String) -> bool {
    let fields = state_texts(g, ours);
    let present = recorded.state.iter().filter(|v| v.is_some()).count();
    present == fields.len()
        && fields.into_iter().all(|(key, range)| {
            let k = STATE_KEYS.iter().position(|k| *k == key);
            let theirs = k.and_then(|k| recorded.state[k]);
            theirs.is_some() && theirs == ours.get(range)
        })
}

/// The actions of one seat of a trace, read from their JSON text. Lines repeat the same actions
/// (a bot's few answers, or the same answer turn after turn), so each text read is kept, in a
/// table of fixed size allocated once: a text's slot is given by its hash, and a new text takes
/// the slot from the one there (the action is a pure function of the text; the memory does not
/// grow with the file).
struct Actions {
    slots: Box<[Slot]>,
}

/// A text of at most [`Slot::TEXT`] bytes and its action (`len` 0: empty).
#[derive(Clone, Copy)]
struct Slot {
    len: u8,
    text: [u8; Slot::TEXT],
    action: Action,
}

impl Slot {
    /// The longest text kept (a canonical Siege spawn is 52 bytes); longer ones are read each time.
    const TEXT: usize = 64;
}

impl Actions {
    const SLOTS: usize = 256;

    fn new() -> Self {
        let empty = Slot {
            len: 0,
            text: [0; Slot::TEXT],
            action: Action::Pass,
        };
        Actions {
            slots: vec![empty; Self::SLOTS].into_boxed_slice(),
        }
    }

    /// The action `text` is from seat `seat` of a `variant` game (one table per seat: the Siege
    /// invader's answers are read differently, [`seat_action`]); `None` if `text` is not JSON.
    fn of(&mut self, text: &str, variant: Variant, seat: usize) -> Option<Action> {
        if text == "null" {
            return Some(Action::Pass);
        }
        let bytes = text.as_bytes();
        // FNV-1a.
        let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
        });
        let slot = &mut self.slots[(hash % Self::SLOTS as u64) as usize];
        if !bytes.is_empty()
            && usize::from(slot.len) == bytes.len()
            && slot.text.get(..bytes.len()) == Some(bytes)
        {
            return Some(slot.action);
        }
        let v: Value = serde_json::from_str(text).ok()?;
        let action = seat_action(variant, seat, &v);
        if let (Ok(len), Some(to)) = (u8::try_from(bytes.len()), slot.text.get_mut(..bytes.len())) {
            to.copy_from_slice(bytes);
            slot.len = len;
            slot.action = action;
        }
        Some(action)
    }
}

/// The non-blank lines of a file, one at a time in one buffer (the memory is the longest line's),
/// with their 1-based numbers.
struct Lines<'a> {
    input: &'a mut dyn BufRead,
    buf: String,
    n: usize,
}

impl Lines<'_> {
    fn next(&mut self) -> Result<Option<(usize, &str)>, Difference> {
        loop {
            self.buf.clear();
            self.n += 1;
            let read = self
                .input
                .read_line(&mut self.buf)
                .map_err(|e| Difference::unreadable("a line of text", e).at_line(self.n))?;
            if read == 0 {
                return Ok(None);
            }
            // As `BufRead::lines`: without its "\n" or "\r\n".
            if self.buf.ends_with('\n') {
                self.buf.pop();
                if self.buf.ends_with('\r') {
                    self.buf.pop();
                }
            }
            if self.buf.starts_with('{') || !self.buf.trim().is_empty() {
                return Ok(Some((self.n, &self.buf)));
            }
        }
    }

    /// The next line as a JSON object (`what` names it in an error).
    fn object(&mut self, what: &str) -> Result<Option<Numbered>, Difference> {
        let Some((n, text)) = self.next()? else {
            return Ok(None);
        };
        serde_json::from_str(text)
            .map(|m| Some((n, m)))
            .map_err(|e| Difference::unreadable(what, format!("not a JSON object: {e}")).at_line(n))
    }
}

/// Re-plays a trace, comparing every recorded state; `each` gets the turn-0 state and the state
/// after every turn.
///
/// The file is read a line at a time. The lines of the usual shape ([`scan`]) are read as text:
/// each action's text once (`Actions`), the turn as a number, and a recorded state compared
/// with the text ours would have, so the line that records no state (most lines of a long
/// trace) costs no JSON, and ours is written only where a line records one. Any other line, and
/// any line that differs from the re-play, is read whole as JSON and compared field by field
/// (`check`), which words the difference.
pub fn replay(
    input: &mut dyn BufRead,
    each: &mut dyn Visit<TowerDefense>,
) -> Result<Verified, Difference> {
    let mut lines = Lines {
        input,
        buf: String::new(),
        n: 0,
    };
    let (n, variant, meta) = read_header(&mut lines)?;
    each.meta(&meta);
    let mut game = TowerDefense::new(&Params { variant }, 0)
        .map_err(|e| Difference::unreadable("a playable variant", e).at_line(n))?;
    let mut report = Verified {
        meta,
        ..Verified::default()
    };
    report.checks += u64::from(turn_zero(&mut lines, n, &game)?);
    each.start(&(Params { variant }, 0));
    each.state(&game);
    let mut actions = [Actions::new(), Actions::new()];
    let mut ours = String::new();
    while let Some((n, text)) = lines.next()? {
        let scanned = scan(text);
        let (fed, line) = line_actions(&mut actions, scanned.as_ref(), variant, text, n)?;
        if game.is_over() {
            return Err(Difference::unreadable(
                "the end of the file",
                "a turn after the game was over",
            )
            .at_line(n));
        }
        decision_7(&fed, scanned.as_ref(), line.as_ref(), variant, &game)
            .map_err(|d| d.at_line(n).at_turn(game.turn().saturating_add(1)))?;
        each.fed(&fed);
        game.step(&fed);
        report.steps += 1;
        let same = scanned
            .as_ref()
            .filter(|_| line.is_none())
            .is_some_and(|s| {
                s.turn == u64::from(game.turn())
                    && (!s.has_state() || same_text(s, &game, &mut ours))
            });
        let recorded = if same {
            scanned.as_ref().is_some_and(Scanned::has_state)
        } else {
            let line = match line {
                Some(line) => line,
                None => whole(text, n)?,
            };
            check(&line, &game).map_err(|d| d.at_line(n).at_turn(game.turn()))?
        };
        report.checks += u64::from(recorded);
        each.state(&game);
    }
    report.turns = game.turn();
    report.over = game.is_over();
    Ok(report)
}

/// The header line: its line number, the variant, and what it says of the match.
fn read_header(lines: &mut Lines<'_>) -> Result<(usize, Variant, Meta), Difference> {
    let (n, head) = lines
        .object("a trace header")?
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
    Ok((n, variant, meta))
}

/// The turn-0 line after the header at line `n`: no actions, the state `game` starts in.
/// Whether it records a state.
fn turn_zero(lines: &mut Lines<'_>, n: usize, game: &TowerDefense) -> Result<bool, Difference> {
    let (n, first) = lines.object("the turn-0 state")?.ok_or_else(|| {
        Difference::unreadable("the turn-0 state", "the end of the file").at_line(n + 1)
    })?;
    if !first.get("actions").is_some_and(Value::is_null) {
        return Err(
            Difference::field("actions", "null on the turn-0 line", "something else").at_line(n),
        );
    }
    check(&first, game).map_err(|d| d.at_line(n).at_turn(0))
}

/// The slow way: line `n` as a JSON object (the same actions, the same checks, worded).
fn whole(text: &str, n: usize) -> Result<Map<String, Value>, Difference> {
    serde_json::from_str(text).map_err(|e| {
        Difference::unreadable("a trace line", format!("not a JSON object: {e}")).at_line(n)
    })
}

/// A line's two actions, and the line read whole when it had to be.
type LineActions = ([Action; 2], Option<Map<String, Value>>);

/// The two actions of line `n`: read off its text when it has the usual shape, else from the
/// line read whole (returned too, for its checks).
fn line_actions(
    actions: &mut [Actions; 2],
    scanned: Option<&Scanned<'_>>,
    variant: Variant,
    text: &str,
    n: usize,
) -> Result<LineActions, Difference> {
    let fed = scanned.and_then(|s| {
        match (
            actions[0].of(s.actions[0], variant, 0),
            actions[1].of(s.actions[1], variant, 1),
        ) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        }
    });
    if let Some(fed) = fed {
        return Ok((fed, None));
    }
    let line = whole(text, n)?;
    let Some([a, b]) = line
        .get("actions")
        .and_then(Value::as_array)
        .and_then(|a| <&[Value; 2]>::try_from(a.as_slice()).ok())
    else {
        return Err(Difference::field("actions", "a list of two", "something else").at_line(n));
    };
    let fed = [seat_action(variant, 0, a), seat_action(variant, 1, b)];
    Ok((fed, Some(line)))
}

/// Rules Decision 7: a line whose answer the rules refuse ([`Action::Malformed`]) where the
/// controller acted on it (took gold, built, spawned) is refused, naming the answer and the
/// decision, before the turn is played: the re-play would differ from there on, on purpose.
/// `scanned` or `line` (whichever the actions were read from) holds the answers' text.
fn decision_7(
    fed: &[Action; 2],
    scanned: Option<&Scanned<'_>>,
    line: Option<&Map<String, Value>>,
    variant: Variant,
    game: &TowerDefense,
) -> Result<(), Difference> {
    if !fed.iter().any(|a| matches!(a, Action::Malformed(_))) {
        return Ok(());
    }
    // The controller judged the answers after the boards moved and the income was paid: the
    // state that passes give, as the answers touch disjoint parts of it.
    let mut before_actions = *game;
    before_actions.step(&[Action::Pass, Action::Pass]);
    for (seat, action) in fed.iter().enumerate() {
        if !matches!(action, Action::Malformed(_)) {
            continue;
        }
        let answer: Option<Value> = match line {
            Some(line) => line.get("actions").and_then(|a| a.get(seat)).cloned(),
            None => scanned
                .and_then(|s| s.actions.get(seat))
                .and_then(|text| serde_json::from_str(text).ok()),
        };
        if let Some(why) =
            answer.and_then(|v| taken_but_refused(variant, seat, &v, &before_actions))
        {
            return Err(Difference::refused(why));
        }
    }
    Ok(())
}
