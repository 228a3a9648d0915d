//! The verification kit every game's replay reader uses: one first-difference type, one JSON diff,
//! one report.
//!
//! A reader re-plays a file with the rules and compares what the file records with what the
//! re-play gives; the first disagreement is a [`Difference`]: where (line, turn), which field (a
//! path like `boards[1].towers[0].cooldown`), what the file has and what the re-play has. A file
//! that cannot be read at all is a difference too, with an empty path.

use crate::replay::Meta;
use serde_json::Value;
use std::fmt;

/// Where a file and its re-play part ways, or where the file stops making sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// 1-based line of the file, when the format has lines.
    pub line: Option<usize>,
    /// The turn (step) the difference is at, when known.
    pub turn: Option<u32>,
    /// The field that differs; empty when the file cannot be read there.
    pub path: String,
    /// What the file holds (or, for an unreadable file, what was expected).
    pub expected: String,
    /// What the re-play gives (or what was found).
    pub got: String,
}

impl Difference {
    /// A field of the file (`expected`) that the re-play does not reproduce (`got`).
    pub fn field(
        path: impl Into<String>,
        expected: impl fmt::Display,
        got: impl fmt::Display,
    ) -> Self {
        Difference {
            line: None,
            turn: None,
            path: path.into(),
            expected: short(&expected.to_string()),
            got: short(&got.to_string()),
        }
    }

    /// The file is not what it should be here: `expected` was wanted, `found` is there.
    pub fn unreadable(expected: impl fmt::Display, found: impl fmt::Display) -> Self {
        Difference {
            path: String::new(),
            ..Difference::field("", expected, found)
        }
    }

    /// The file holds what the rules refuse on purpose, where the original acted (a documented
    /// decision): `why` says it whole, and is shown as it is, without "expected ..., got ...".
    pub fn refused(why: impl Into<String>) -> Self {
        Difference {
            line: None,
            turn: None,
            path: String::new(),
            expected: String::new(),
            got: why.into(),
        }
    }

    /// The same difference, found at line `line` (counted from 1).
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }

    /// The same difference, found at turn `turn` (the step it is at).
    pub fn at_turn(mut self, turn: u32) -> Self {
        self.turn = Some(turn);
        self
    }

    /// Puts `prefix` before the path (`state` + `players[2].gold`).
    pub fn under(mut self, prefix: &str) -> Self {
        self.path = join(prefix, &self.path);
        self
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.turn) {
            (Some(l), Some(t)) => write!(f, "line {l}, turn {t}: ")?,
            (Some(l), None) => write!(f, "line {l}: ")?,
            (None, Some(t)) => write!(f, "turn {t}: ")?,
            (None, None) => {}
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        if self.expected.is_empty() && self.path.is_empty() {
            // [`Difference::refused`].
            return write!(f, "{}", self.got);
        }
        write!(f, "expected {}, got {}", self.expected, self.got)
    }
}

impl std::error::Error for Difference {}

/// A value for a message: long values are cut.
fn short(s: &str) -> String {
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(77).collect::<String>())
    } else {
        s.to_string()
    }
}

fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) if path.starts_with('[') => format!("{prefix}{path}"),
        (false, false) => format!("{prefix}.{path}"),
    }
}

/// Names for the positions of tuple-like arrays: given the path of a list whose items are tuples
/// (`boards[0].towers`), the name of each position (`["pos", "type", ...]`).
pub type TupleNames<'a> = &'a dyn Fn(&str) -> Option<&'static [&'static str]>;

/// No tuple names: positions are shown as indices.
pub fn no_names(_: &str) -> Option<&'static [&'static str]> {
    None
}

/// The first difference between what a file records (`expected`) and what the re-play gives
/// (`got`): objects key by key in the file's order (then keys only the re-play has), arrays item
/// by item then by length, numbers by value (`30` and `30.0` are the same number).
pub fn json_diff(expected: &Value, got: &Value, names: TupleNames<'_>) -> Option<Difference> {
    diff_at("", expected, got, names)
}

fn diff_at(path: &str, expected: &Value, got: &Value, names: TupleNames<'_>) -> Option<Difference> {
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            for (k, ev) in e {
                let p = join(path, k);
                match g.get(k) {
                    Some(gv) => {
                        if let Some(d) = diff_at(&p, ev, gv, names) {
                            return Some(d);
                        }
                    }
                    None => return Some(Difference::field(p, ev, "nothing")),
                }
            }
            g.iter()
                .find(|(k, _)| !e.contains_key(*k))
                .map(|(k, gv)| Difference::field(join(path, k), "nothing", gv))
        }
        (Value::Array(e), Value::Array(g)) => {
            let fields = names(path);
            for (i, (ev, gv)) in e.iter().zip(g).enumerate() {
                let item = format!("{path}[{i}]");
                let d = match (fields, ev, gv) {
                    (Some(fields), Value::Array(ea), Value::Array(ga)) => ea
                        .iter()
                        .zip(ga)
                        .enumerate()
                        .find(|(_, (a, b))| !same(a, b))
                        .map(|(j, (a, b))| {
                            let field = fields.get(j).copied().unwrap_or("?");
                            Difference::field(format!("{item}.{field}"), a, b)
                        })
                        .or_else(|| {
                            (ea.len() != ga.len()).then(|| Difference::field(&item, ev, gv))
                        }),
                    _ => diff_at(&item, ev, gv, names),
                };
                if d.is_some() {
                    return d;
                }
            }
            (e.len() != g.len()).then(|| {
                let i = e.len().min(g.len());
                let show =
                    |v: &Vec<Value>| v.get(i).map_or("nothing".to_string(), Value::to_string);
                Difference::field(format!("{path}[{i}]"), show(e), show(g))
            })
        }
        _ if same(expected, got) => None,
        _ => Some(Difference::field(path, expected, got)),
    }
}

/// Equal values, numbers compared by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || (x.as_f64().is_some() && x.as_f64() == y.as_f64())
        }
        (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_)) => {
            diff_at("", a, b, &no_names).is_none()
        }
        _ => a == b,
    }
}

/// The non-blank lines of a JSON-lines file, each parsed, with its 1-based line number; a line
/// that cannot be read or is not JSON is a difference at that line.
pub fn json_lines(input: &mut dyn std::io::BufRead) -> impl Iterator<Item = JsonLine> + '_ {
    <&mut dyn std::io::BufRead as std::io::BufRead>::lines(input)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| l.as_ref().map_or(true, |l| !l.trim().is_empty()))
        .map(|(n, l)| {
            let text = l.map_err(|e| Difference::unreadable("a line of text", e).at_line(n))?;
            serde_json::from_str(&text).map(|v| (n, v)).map_err(|e| {
                Difference::unreadable("a JSON line", format!("not JSON: {e}")).at_line(n)
            })
        })
}

/// A trace of [`json_lines`]: the first, its header (an empty file is a difference), and the rest.
pub fn json_trace(
    input: &mut dyn std::io::BufRead,
) -> Result<(usize, Value, impl Iterator<Item = JsonLine> + '_), Difference> {
    let mut lines = json_lines(input);
    let (n, header) = (lines.next().transpose()?)
        .ok_or_else(|| Difference::unreadable("a header line", "nothing").at_line(1))?;
    Ok((n, header, lines))
}

/// A line of [`json_lines`]: its number and its JSON.
pub type JsonLine = Result<(usize, Value), Difference>;

/// What a file that re-plays without a difference held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Steps re-played.
    pub steps: u64,
    /// Turns the game counts at the end of the file.
    pub turns: u32,
    /// Recorded states (or fields) compared.
    pub checks: u64,
    /// Whether the file reaches the end of the match.
    pub over: bool,
    /// What else the game tells (players, counts, how it ended).
    pub detail: String,
    /// Who played what, as the file says.
    pub meta: Meta,
}

impl Verified {
    /// The report of a re-play whose first state (the header's) was checked: `each` is told
    /// `meta`, the start and the first state.
    pub fn begin<G: arena_viewer::Viewed>(
        meta: Meta,
        each: &mut dyn crate::replay::Visit<G>,
        start: &G::Start,
        game: &G,
    ) -> Verified {
        each.meta(&meta);
        each.start(start);
        each.state(game);
        Verified {
            checks: 1,
            meta,
            ..Verified::default()
        }
    }
}

impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ok: {} turns re-played, {} recorded values match",
            self.turns, self.checks
        )?;
        if !self.detail.is_empty() {
            write!(f, "; {}", self.detail)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_difference_names_its_path() {
        let e = json!({"players": [{"gold": 10, "life": 3}], "turn": 4});
        let g = json!({"players": [{"gold": 10.0, "life": 2}], "turn": 4});
        let d = json_diff(&e, &g, &no_names).unwrap();
        assert_eq!(d.path, "players[0].life");
        assert_eq!((d.expected.as_str(), d.got.as_str()), ("3", "2"));
        assert!(json_diff(&e, &e, &no_names).is_none());
        let d = json_diff(&json!({"a": 1}), &json!({"a": 1, "b": 2}), &no_names).unwrap();
        assert_eq!((d.path.as_str(), d.expected.as_str()), ("b", "nothing"));
        let d = json_diff(&json!([1, 2]), &json!([1]), &no_names).unwrap();
        assert_eq!((d.path.as_str(), d.got.as_str()), ("[1]", "nothing"));
    }

    #[test]
    fn tuple_positions_are_named() {
        let names = |p: &str| p.ends_with("towers").then_some(&["pos", "level"][..]);
        let d = json_diff(
            &json!({"towers": [[3, 1], [5, 2]]}),
            &json!({"towers": [[3, 1], [5, 3]]}),
            &names,
        )
        .unwrap();
        assert_eq!(d.path, "towers[1].level");
    }

    #[test]
    fn a_difference_says_where_and_what() {
        let d = Difference::field("gold", 10, 20)
            .under("state")
            .at_line(3)
            .at_turn(2);
        assert_eq!(
            d.to_string(),
            "line 3, turn 2: state.gold: expected 10, got 20"
        );
        let d = Difference::unreadable("a JSON object", "7").at_line(1);
        assert_eq!(d.to_string(), "line 1: expected a JSON object, got 7");
        assert_eq!(
            Difference::field("x", "a".repeat(200), 1).expected.len(),
            80
        );
    }
}
