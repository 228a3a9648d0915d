//! Any game's replay file, re-played into the states it went through.
//!
//! Each game records in its own format (Tower Defense's golden trace, ColorFight's and Mammut's
//! JSON-lines traces, Ballroom's official log); a file says which it is in its first line (or, for
//! a Ballroom log, its shape). Re-playing goes through each codec's verifier, so a file that does
//! not re-play to what it recorded is refused with the codec's own message, naming the line.

use crate::games;
use arena_core::games::ballroom::Ballroom;
use arena_core::games::colorfight::ColorFight;
use arena_core::games::mammut::Mammut;
use arena_core::games::tower_defense::TowerDefense;
use arena_core::Game;
use serde_json::Value;

/// The games a replay file can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    TowerDefense,
    ColorFight,
    Mammut,
    Ballroom,
    Ants,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::TowerDefense => TowerDefense::NAME,
            Kind::ColorFight => ColorFight::NAME,
            Kind::Mammut => Mammut::NAME,
            Kind::Ballroom => Ballroom::NAME,
            Kind::Ants => arena_core::games::ants::Ants::NAME,
        }
    }
}

/// Which game's replay `text` is, from its first line (a Ballroom log may span lines: it is one
/// JSON object with `names` and `turns`).
pub fn detect(text: &str) -> Result<Kind, String> {
    let Some((n, first)) = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .find(|(_, l)| !l.trim().is_empty())
    else {
        return Err("line 1: empty file: not a replay".into());
    };
    let value: Value = match serde_json::from_str(first) {
        Ok(v) => v,
        Err(e) => match serde_json::from_str::<Value>(text) {
            Ok(v) if is_ballroom_log(&v) => return Ok(Kind::Ballroom),
            Ok(v) if v.get("challenge").and_then(Value::as_str) == Some("ants") => {
                return Ok(Kind::Ants)
            }
            _ => return Err(format!("line {n}: not JSON ({e}): not a replay")),
        },
    };
    if is_ballroom_log(&value) {
        return Ok(Kind::Ballroom);
    }
    if value.get("challenge").and_then(Value::as_str) == Some("ants") {
        return Ok(Kind::Ants);
    }
    let game = value
        .pointer("/header/game")
        .or_else(|| value.get("game"))
        .and_then(Value::as_str);
    match game {
        Some(g) if g == TowerDefense::NAME && value.get("header").is_some() => {
            Ok(Kind::TowerDefense)
        }
        Some(g) if g == ColorFight::NAME => Ok(Kind::ColorFight),
        Some(g) if g == Mammut::NAME => Ok(Kind::Mammut),
        Some(g) => Err(format!("line {n}: unknown game {g:?}")),
        None => Err(format!(
            "line {n}: not a replay: expected a trace header naming its game \
             (Tower Defense, ColorFight, Mammut) or a Ballroom log"
        )),
    }
}

fn is_ballroom_log(v: &Value) -> bool {
    v.get("names").is_some() && v.get("turns").is_some_and(Value::is_array)
}

/// Who played what, as the file records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub config: String,
    pub seed: u64,
    pub bots: Vec<String>,
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn first_line(text: &str) -> Value {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(Value::Null)
}

/// A game whose replays can be re-played.
pub trait Replayable: Game {
    const KIND: Kind;
    /// Re-plays `text`, handing `each` the first state and the state after every step; the error
    /// names the line (or turn) where the file stops making sense.
    fn replay(text: &str, each: &mut dyn FnMut(&Self)) -> Result<(), String>;
    /// Who played what, as far as the file says (blank where it does not).
    fn meta(text: &str) -> Meta;
    /// Re-plays a replay that needs its map beside it (Ants); the others ignore `map`.
    fn replay_with_map(
        text: &str,
        _map: Option<&str>,
        each: &mut dyn FnMut(&Self),
    ) -> Result<(), String> {
        Self::replay(text, each)
    }
    /// About how many states [`Replayable::replay`] hands out, without re-playing (to space the
    /// frames of a picture): one a line for the line-based traces.
    fn states(text: &str) -> u64 {
        text.lines().filter(|l| !l.trim().is_empty()).count() as u64
    }
}

impl Replayable for TowerDefense {
    const KIND: Kind = Kind::TowerDefense;
    fn replay(text: &str, each: &mut dyn FnMut(&Self)) -> Result<(), String> {
        games::tower_defense::replay_trace(text, each)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn meta(text: &str) -> Meta {
        let h = first_line(text);
        Meta {
            config: h
                .pointer("/header/variant")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            seed: h
                .pointer("/header/seed")
                .and_then(Value::as_u64)
                .unwrap_or(0),
            bots: strings(h.pointer("/header/bots")),
        }
    }
}

impl Replayable for ColorFight {
    const KIND: Kind = Kind::ColorFight;
    fn replay(text: &str, each: &mut dyn FnMut(&Self)) -> Result<(), String> {
        games::colorfight::replay_trace(text, each)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn meta(text: &str) -> Meta {
        let h = first_line(text);
        let config = match games::colorfight::params_from_json(&h) {
            Ok(p) => format!("{}-{}x{}", p.variant.name(), p.width, p.height),
            Err(_) => String::new(),
        };
        let players = h.get("players").and_then(Value::as_u64).unwrap_or(0);
        Meta {
            config,
            seed: h.get("seed").and_then(Value::as_u64).unwrap_or(0),
            // ColorFight traces do not name their bots: seats instead.
            bots: (0..players).map(|s| format!("seat {s}")).collect(),
        }
    }
}

impl Replayable for Mammut {
    const KIND: Kind = Kind::Mammut;
    fn replay(text: &str, each: &mut dyn FnMut(&Self)) -> Result<(), String> {
        games::mammut::replay_trace(text, each)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn meta(text: &str) -> Meta {
        let h = first_line(text);
        Meta {
            config: String::new(),
            seed: h.get("seed").and_then(Value::as_u64).unwrap_or(0),
            bots: strings(h.get("bots")),
        }
    }
}

impl Replayable for Ballroom {
    const KIND: Kind = Kind::Ballroom;
    fn replay(text: &str, each: &mut dyn FnMut(&Self)) -> Result<(), String> {
        games::ballroom::replay_log(text, each)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    /// The start, then four phases a turn.
    fn states(text: &str) -> u64 {
        let root: Value = serde_json::from_str(text.trim()).unwrap_or(Value::Null);
        let turns = root
            .get("turns")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        (turns as u64).saturating_sub(1) * 4 + 1
    }
    fn meta(text: &str) -> Meta {
        let root: Value = serde_json::from_str(text.trim()).unwrap_or(Value::Null);
        Meta {
            config: "engine".into(),
            seed: 0,
            bots: strings(root.get("names")),
        }
    }
}

impl Replayable for arena_core::games::ants::Ants {
    const KIND: Kind = Kind::Ants;
    fn replay(_text: &str, _each: &mut dyn FnMut(&Self)) -> Result<(), String> {
        Err(
            "an Ants replay is re-played on its map: give --map MAP (as to arena verify ants)"
                .into(),
        )
    }
    fn replay_with_map(
        text: &str,
        map: Option<&str>,
        each: &mut dyn FnMut(&Self),
    ) -> Result<(), String> {
        let Some(map) = map else {
            return Self::replay(text, each);
        };
        let replay: Value =
            serde_json::from_str(text.trim()).map_err(|e| format!("not JSON: {e}"))?;
        games::ants::rerun_with(&replay, map, each)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    /// The start, then one state a turn.
    fn states(text: &str) -> u64 {
        let root: Value = serde_json::from_str(text.trim()).unwrap_or(Value::Null);
        root.get("game_length").and_then(Value::as_u64).unwrap_or(0) + 1
    }
    fn meta(text: &str) -> Meta {
        let root: Value = serde_json::from_str(text.trim()).unwrap_or(Value::Null);
        Meta {
            config: String::new(),
            seed: root
                .pointer("/replaydata/engine_seed")
                .and_then(Value::as_i64)
                .map_or(0, i64::unsigned_abs),
            bots: strings(root.get("playernames")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detect_reads_the_first_line_and_names_it_when_it_cannot() {
        let td = r#"{"header":{"game":"tower-defense","variant":"duel"}}"#;
        assert_eq!(detect(&format!("\n{td}\n")), Ok(Kind::TowerDefense));
        assert_eq!(
            detect(r#"{"game":"colorfight","seed":1}"#),
            Ok(Kind::ColorFight)
        );
        assert_eq!(detect(r#"{"game":"mammut","seed":1}"#), Ok(Kind::Mammut));
        assert_eq!(
            detect("{\"names\":[\"a\"],\n\"turns\":[]}"),
            Ok(Kind::Ballroom)
        );
        assert!(detect("").unwrap_err().contains("empty"));
        let e = detect("\n\nhello\n").unwrap_err();
        assert!(e.starts_with("line 3: not JSON"), "{e}");
        let e = detect(r#"{"game":"chess"}"#).unwrap_err();
        assert!(e.contains("unknown game \"chess\""), "{e}");
        assert!(detect("[1,2]")
            .unwrap_err()
            .starts_with("line 1: not a replay"));
    }
}
