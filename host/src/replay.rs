//! What a replay file is, read off its start: [`Head`] holds its first top-level fields, which is
//! how each game recognises its own files ([`crate::Record::detect`]) without reading a long
//! file whole.

use arena_viewer::Viewed;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// The longest line a replay or trace file may hold, in bytes: 64 MB. A line is a turn of a trace,
/// or a whole file for the formats written as one JSON document on one line (Ants, Ballroom
/// Blitz), so the bound is far above any match's (the largest replay of the golden data is under
/// 5 MB) and far below what would exhaust memory: a longer line is refused with a clear error as
/// soon as its first 64 MB have been read, never read whole.
pub const MAX_LINE: usize = 64 << 20;

/// A reader that refuses a line over [`MAX_LINE`] bytes: reading past it is an error
/// (`InvalidData`, "line N is longer than 64 MB"), so no reader above it ever holds more.
pub struct LineCap<R> {
    inner: R,
    max: usize,
    line: usize,
    run: usize,
}

impl<R: Read> LineCap<R> {
    /// `inner`, with lines of at most `max` bytes.
    pub fn new(inner: R, max: usize) -> Self {
        LineCap {
            inner,
            max,
            line: 1,
            run: 0,
        }
    }
}

impl<R: Read> Read for LineCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.line += 1;
                self.run = 0;
            } else {
                self.run += 1;
                if self.run > self.max {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "line {} is longer than {} MB, the most a replay line may be",
                            self.line,
                            self.max >> 20
                        ),
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// Opens a replay or trace file for reading, its lines capped at [`MAX_LINE`].
pub fn open(path: &Path) -> std::io::Result<std::io::BufReader<LineCap<std::fs::File>>> {
    Ok(std::io::BufReader::new(LineCap::new(
        std::fs::File::open(path)?,
        MAX_LINE,
    )))
}

/// At most this many fields are read.
const MOST: usize = 16;

/// The first top-level fields of a JSON file: the first field, then the fields up to the first
/// list or object after it (where the long data of a file is), every key seen and the values
/// read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Head {
    /// Every top-level key seen, in file order, whether its value was read or not.
    pub keys: Vec<String>,
    /// The values read: those before the first list or object after the first field, long ones left
    /// out.
    pub values: serde_json::Map<String, Value>,
}

impl Head {
    /// The value of a top-level field read (`None` when absent or long).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.values.get(key)
    }

    /// Whether a top-level field was seen, read or not.
    pub fn has(&self, key: &str) -> bool {
        self.keys.iter().any(|k| k == key)
    }

    /// A string field (`"game": "<name>"`).
    pub fn str(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    /// Reads the start of a file. The error says what the file is instead (`line 3: not JSON`).
    pub fn read(input: impl Read) -> Result<Head, Unreadable> {
        let mut counted = Counter {
            inner: input,
            seen: Vec::new(),
        };
        let mut head = Head::default();
        let result = serde_json::Deserializer::from_reader(&mut counted)
            .deserialize_map(HeadVisitor { head: &mut head });
        if !head.keys.is_empty() {
            return Ok(head);
        }
        let line = counted.line_of_first_text();
        match result {
            _ if counted.seen.iter().all(u8::is_ascii_whitespace) => Err(Unreadable {
                line,
                why: "empty file: not a replay".into(),
            }),
            Err(e) if e.is_syntax() || e.is_eof() => Err(Unreadable {
                line,
                why: format!("not JSON ({e}): not a replay"),
            }),
            _ => Err(Unreadable {
                line,
                why: "not a replay: expected a JSON object naming its game".into(),
            }),
        }
    }
}

/// A file that is no replay: the line where it stops being one, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct Unreadable {
    /// The line, counted from 1, where the file's text starts.
    pub line: usize,
    /// Why, saying what the file is instead (`empty file: not a replay`).
    pub why: String,
}

/// Keeps the bytes read, to say on which line the text starts.
struct Counter<R> {
    inner: R,
    seen: Vec<u8>,
}

impl<R> Counter<R> {
    fn line_of_first_text(&self) -> usize {
        let first = self
            .seen
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(self.seen.len());
        1 + self.seen[..first].iter().filter(|&&b| b == b'\n').count()
    }
}

impl<R: Read> Read for Counter<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.seen.len() < 1 << 16 {
            self.seen.extend_from_slice(&buf[..n]);
        }
        Ok(n)
    }
}

struct HeadVisitor<'a> {
    head: &'a mut Head,
}

impl<'de> Visitor<'de> for HeadVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            self.head.keys.push(key.clone());
            if self.head.keys.len() > MOST {
                return Ok(());
            }
            let value = map.next_value_seed(ValueSeed {
                first: self.head.keys.len() == 1,
            })?;
            // Stopping at a list or an object leaves the rest of the file unread (the parser then
            // reports the unfinished object, which the caller ignores).
            let Some(value) = value else {
                return Ok(());
            };
            self.head.values.insert(key, value);
        }
        Ok(())
    }
}

/// Reads a field's value: any value for the first field, otherwise scalars only (`None` for a
/// list or an object, which is not read).
struct ValueSeed {
    first: bool,
}

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Option<Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Value>, D::Error> {
        if self.first {
            return serde::Deserialize::deserialize(d).map(Some);
        }
        d.deserialize_any(Scalar)
    }
}

/// A scalar as a [`Value`]; a list or an object is not read (`None`).
struct Scalar;

impl<'de> Visitor<'de> for Scalar {
    type Value = Option<Value>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.into()))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Some(Value::Null))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Ok(None)
    }
}

/// What a re-play hands out as it goes: who played what (once the file has said it), then the
/// first state and the state after every step. A closure of the state is one.
///
/// The viewer's page re-plays the match itself, so it is also told how the reader set the
/// match up ([`Visit::start`], before the first state) and what it fed each step
/// ([`Visit::fed`], before the state after it): the very values the reader gave the rules.
pub trait Visit<G> {
    /// Who played what, once the file has said it (before the first state).
    fn meta(&mut self, _meta: &Meta) {}
    /// How the reader set the match up, before the first state: for the viewer's own re-play.
    fn start(&mut self, _start: &G::Start)
    where
        G: Viewed,
    {
    }
    /// What the reader fed the rules for a step, before the state after it.
    fn fed(&mut self, _parts: &[G::Part])
    where
        G: Viewed,
    {
    }
    /// The first state, then the state after every step.
    fn state(&mut self, game: &G);
}

impl<G, F: FnMut(&G)> Visit<G> for F {
    fn state(&mut self, game: &G) {
        self(game)
    }
}

/// What a replay may need beside it.
#[derive(Clone, Debug, Default)]
pub struct ReplayContext {
    /// The text of the map the match was played on (for formats that do not hold it).
    pub map: Option<String>,
    /// The ruleset the match was played under, for formats that do not record it (one of
    /// [`crate::Record::RULESETS`]; the first when not given).
    pub ruleset: Option<String>,
}

/// Who played what, as the file records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    /// The configuration as labels show it (`duel`, a map's name); empty when the file does not
    /// say.
    pub config: String,
    /// The match's seed, as the file records it (0 when it records none).
    pub seed: u64,
    /// What the file calls each seat's bot, in seat order.
    pub bots: Vec<String>,
}

/// A list of strings from a JSON array (`"?"` for an item that is not a string).
pub fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Result<Head, String> {
        Head::read(text.as_bytes()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_head_stops_at_the_first_long_field() {
        let h = head(r#"{"names":["a","b"], "turns":[{"turn":0}, oops"#).unwrap();
        assert_eq!(h.keys, ["names", "turns"]);
        assert_eq!(crate::replay::strings(h.get("names")), ["a", "b"]);
        assert!(h.has("turns") && h.get("turns").is_none());
        let h = head("\n{\"header\":{\"game\":\"g\"}}\n{\"actions\":null}\n").unwrap();
        assert_eq!(
            h.get("header").and_then(|v| v.get("game")),
            Some(&"g".into())
        );
        let h = head("{\"names\":[\"a\"],\n\"turns\":[]}").unwrap();
        assert!(h.has("turns"));
    }

    #[test]
    fn what_is_not_a_replay_is_named() {
        assert!(head("").unwrap_err().contains("empty"));
        let e = head("\n\nhello\n").unwrap_err();
        assert!(e.starts_with("line 3: not JSON"), "{e}");
        assert!(head("[1,2]")
            .unwrap_err()
            .starts_with("line 1: not a replay"));
        assert!(head("7").unwrap_err().starts_with("line 1: not a replay"));
    }
}
