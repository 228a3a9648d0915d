//! The canonical JSON of `rules/tower-defense.md` ("Canonical JSON"): the state a bot sees and the
//! actions of the controller's bot API.
//!
//! Reading an action never fails: whatever a bot sent becomes an [`Action`], and what the rules do not
//! allow is refused by the engine (and counted), exactly as the controller ignored it.
//!
//! Input outside the documented shapes is read as the controller's JavaScript read it (rules
//! Decision 7): a number sent as a string is what JavaScript's `Number()` makes of it (`"30"` is
//! 30, `" 12 "` is 12, `""` is 0, `"x"` is NaN, which every comparison refuses); a number that is not
//! whole is refused; and in Siege any truthy invader answer is a spawn request, its boosts read from
//! whatever fields it has ([`siege_invader_action`]).

use arena_core::games::tower_defense::siege::INVADER_SEAT;
use arena_core::games::tower_defense::{
    Action, InvaderView, Stat, TowerDefense, TowerKind, TowerView, Variant,
};
use arena_core::Game;
use serde_json::{json, Map, Value};
use std::ops::Range;

fn invader_json(v: &InvaderView) -> Value {
    json!([v.pos, v.hp, v.maxhp, v.defense, v.stun_res, v.stun_time])
}

fn tower_json(t: &TowerView) -> Value {
    json!([t.pos, t.kind.name(), t.level, t.power, t.range, t.cooldown])
}

fn board_json(g: &TowerDefense, board: usize) -> Value {
    let invaders: Vec<Value> = g.invaders(board).map(|v| invader_json(&v)).collect();
    let towers: Vec<Value> = g.towers(board).map(|t| tower_json(&t)).collect();
    json!({ "invaders": invaders, "towers": towers })
}

/// The state fields in canonical order (without `turn`), appended to `out`.
pub fn state_fields(g: &TowerDefense, out: &mut Map<String, Value>) {
    if let Some(players) = g.players() {
        let players: Vec<Value> = players
            .iter()
            .map(|p| {
                json!({
                    "gold": p.gold,
                    "life": p.life,
                    "income": p.income,
                    "boostMax": p.boost_max,
                    "inflation": p.inflation,
                })
            })
            .collect();
        out.insert("players".into(), Value::Array(players));
        let boards: Vec<Value> = (0..g.boards()).map(|b| board_json(g, b)).collect();
        out.insert("boards".into(), Value::Array(boards));
    } else if let Some((inv, def)) = g.siege() {
        out.insert(
            "invader".into(),
            json!({ "gold": inv.gold, "income": inv.income, "boostMax": inv.boost_max }),
        );
        out.insert(
            "defender".into(),
            json!({ "gold": def.gold, "life": def.life }),
        );
        out.insert("board".into(), board_json(g, 0));
    }
}

/// The text serde_json writes for each field of [`state_fields`], written without building
/// them (what a trace's recorded state is compared with): `out` is cleared, then holds the
/// texts one after the other, and each field is given as its key and the range of `out` it
/// takes, in canonical order.
pub fn state_texts(g: &TowerDefense, out: &mut String) -> Vec<(&'static str, Range<usize>)> {
    out.clear();
    let mut fields = Vec::with_capacity(3);
    let mut field = |out: &mut String, key: &'static str, write: &dyn Fn(&mut String)| {
        let start = out.len();
        write(out);
        fields.push((key, start..out.len()));
    };
    if let Some(players) = g.players() {
        field(out, "players", &|out| {
            out.push('[');
            commas(out, players, |out, p| {
                object(
                    out,
                    &[
                        ("gold", p.gold.into()),
                        ("life", p.life.into()),
                        ("income", p.income.into()),
                        ("boostMax", p.boost_max.into()),
                        ("inflation", p.inflation.into()),
                    ],
                );
            });
            out.push(']');
        });
        field(out, "boards", &|out| {
            out.push('[');
            commas(out, 0..g.boards(), |out, b| board_text(g, b, out));
            out.push(']');
        });
    } else if let Some((inv, def)) = g.siege() {
        field(out, "invader", &|out| {
            let f = [
                ("gold", inv.gold),
                ("income", inv.income.into()),
                ("boostMax", inv.boost_max.into()),
            ];
            object(out, &f);
        });
        field(out, "defender", &|out| {
            object(out, &[("gold", def.gold), ("life", def.life.into())]);
        });
        field(out, "board", &|out| board_text(g, 0, out));
    }
    fields
}

/// A number as serde_json writes it.
fn number(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// The items of a JSON list or object, each written by `each`, with commas between them.
fn commas<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(&mut String, T),
) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
}

/// `{"key":n,...}`.
fn object(out: &mut String, fields: &[(&str, u64)]) {
    out.push('{');
    commas(out, fields, |out, (key, n)| {
        out.push('"');
        out.push_str(key);
        out.push_str("\":");
        number(out, *n);
    });
    out.push('}');
}

/// `[n,...]`, with the string `text.1` before the number in position `text.0`, if any.
fn tuple(out: &mut String, numbers: &[u64], text: Option<(usize, &str)>) {
    out.push('[');
    commas(out, numbers.iter().enumerate(), |out, (i, n)| {
        if let Some((_, s)) = text.filter(|&(at, _)| at == i) {
            out.push('"');
            out.push_str(s);
            out.push_str("\",");
        }
        number(out, *n);
    });
    out.push(']');
}

/// [`board_json`]'s text.
fn board_text(g: &TowerDefense, board: usize, out: &mut String) {
    out.push_str("{\"invaders\":[");
    commas(out, g.invaders(board), |out, v| {
        let v = [
            v.pos.into(),
            v.hp.into(),
            v.maxhp.into(),
            v.defense.into(),
            v.stun_res.into(),
            v.stun_time.into(),
        ];
        tuple(out, &v, None);
    });
    out.push_str("],\"towers\":[");
    commas(out, g.towers(board), |out, t| {
        let n = [
            t.pos.into(),
            t.level.into(),
            t.power.into(),
            t.range.into(),
            t.cooldown.into(),
        ];
        tuple(out, &n, Some((1, t.kind.name())));
    });
    out.push_str("]}");
}

/// The canonical state JSON: Duel `{"turn","players","boards"}`, Siege
/// `{"turn","invader","defender","board"}`.
pub fn state_json(g: &TowerDefense) -> Value {
    let mut m = Map::new();
    m.insert("turn".into(), json!(g.turn()));
    state_fields(g, &mut m);
    Value::Object(m)
}

/// The canonical action JSON, as the original bot API returned it (`null` for a pass).
pub fn action_json(a: &Action) -> Value {
    match *a {
        Action::Pass => Value::Null,
        Action::Spawn {
            hp,
            defense,
            stun_res,
        } => json!({"action": "spawn", "hp": hp, "defense": defense, "stunRes": stun_res}),
        Action::Build { kind, pos } => {
            json!({"action": "build", "type": kind.map(|k| k.name()), "pos": pos})
        }
        Action::Upgrade { pos, stat } => {
            json!({"action": "upgrade", "pos": pos, "stat": stat.map(|s| s.name())})
        }
        Action::Destroy { pos } => json!({"action": "destroy", "pos": pos}),
        Action::Unknown => json!({"action": "unknown"}),
    }
}

/// An integer as the controller's JavaScript would use it for a position or a boost: integral
/// numbers (`5`, `5.0`); anything else (fractions, strings, objects) is `None`.
fn integer(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    if v.as_u64().is_some() {
        return Some(i64::MAX);
    }
    let f = v.as_f64()?;
    if f.fract() != 0.0 {
        return None;
    }
    if f >= i64::MAX as f64 {
        Some(i64::MAX)
    } else if f <= i64::MIN as f64 {
        Some(i64::MIN)
    } else {
        Some(f as i64)
    }
}

/// What JavaScript's `Number()` makes of a string, `None` for `NaN`: surrounding white space is
/// ignored, the empty string is 0, decimal numbers with an optional sign, fraction and exponent,
/// `Infinity` with an optional sign, and unsigned `0x`, `0o`, `0b` integers.
pub fn js_number(text: &str) -> Option<f64> {
    let s = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if s.is_empty() {
        return Some(0.0);
    }
    let radix = match s.get(..2) {
        Some("0x" | "0X") => Some(16),
        Some("0o" | "0O") => Some(8),
        Some("0b" | "0B") => Some(2),
        _ => None,
    };
    if let Some(radix) = radix {
        let digits = s.get(2..).unwrap_or("");
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        return Some(digits.chars().fold(0.0, |acc, c| {
            acc * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
        }));
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if unsigned == "Infinity" {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    // A decimal literal: digits, at most one point, digits on one side of it at least, then an
    // optional exponent (Rust's parser alone would also take "inf" and "NaN").
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |p: &str| p.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = all_digits(int) && all_digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    if !(mantissa_ok && exponent_ok) {
        return None;
    }
    s.parse::<f64>().ok()
}

/// A number as the controller's arithmetic and comparisons saw it: a JSON number, or a string
/// through [`js_number`] (`None` for anything else, or NaN).
fn numeric(v: &Value) -> Option<Value> {
    match v {
        Value::Number(_) => Some(v.clone()),
        Value::String(s) => {
            let f = js_number(s)?;
            if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.007e15 {
                // Whole and exact: an integer.
                Some(Value::from(f as i64))
            } else {
                serde_json::Number::from_f64(f).map(Value::Number)
            }
        }
        _ => None,
    }
}

/// A spawn boost: missing, `null` or `false` is 0, a negative number is 0 (the engine clamps), a
/// string is coerced as `Number()` does; anything unusable (NaN, not a whole number, another
/// type) is `i64::MAX` (over any limit, so refused).
fn boost(v: Option<&Value>) -> i64 {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => 0,
        Some(v) => match numeric(v) {
            Some(n) => match n.as_f64() {
                Some(f) if f < 0.0 => 0,
                _ => integer(&n).unwrap_or(i64::MAX),
            },
            None => i64::MAX,
        },
    }
}

/// A position: off the path (`-1`) when missing or not a whole number (a string is coerced as
/// `Number()` does).
fn position(v: Option<&Value>) -> i64 {
    v.and_then(numeric).as_ref().and_then(integer).unwrap_or(-1)
}

/// Whether JavaScript takes `v` as true: everything but `null`, `false`, `0`, `""` (and NaN, which
/// JSON cannot hold).
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// A Siege invader's answer as the 2018-04-23 controller read it (rules Decision 7): any truthy
/// answer is a spawn request (`takeTurn` calls `spawnInvader(answer)` without looking at
/// `action`), its boosts being whatever `hp`, `defense` and `stunRes` fields it has (none: a base
/// invader); a falsy one passes.
pub fn siege_invader_action(v: &Value) -> Action {
    if !truthy(v) {
        return Action::Pass;
    }
    let field = |k: &str| v.as_object().and_then(|m| m.get(k));
    Action::Spawn {
        hp: boost(field("hp")),
        defense: boost(field("defense")),
        stun_res: boost(field("stunRes")),
    }
}

/// What seat `seat` of a `variant` game sent, as an action: [`siege_invader_action`] for the
/// Siege invader, [`action_from_json`] otherwise.
pub fn seat_action(variant: Variant, seat: usize, v: &Value) -> Action {
    if variant == Variant::Siege && seat == INVADER_SEAT {
        siege_invader_action(v)
    } else {
        action_from_json(v)
    }
}

/// Reads a bot's action. Never fails: unknown shapes become [`Action::Unknown`] (refused).
pub fn action_from_json(v: &Value) -> Action {
    let Value::Object(m) = v else {
        return if v.is_null() {
            Action::Pass
        } else {
            Action::Unknown
        };
    };
    match m.get("action").and_then(Value::as_str) {
        Some("spawn") => Action::Spawn {
            hp: boost(m.get("hp")),
            defense: boost(m.get("defense")),
            stun_res: boost(m.get("stunRes")),
        },
        Some("build") => Action::Build {
            kind: m
                .get("type")
                .and_then(Value::as_str)
                .and_then(TowerKind::from_name),
            pos: position(m.get("pos")),
        },
        Some("upgrade") => Action::Upgrade {
            pos: position(m.get("pos")),
            stat: m
                .get("stat")
                .and_then(Value::as_str)
                .and_then(Stat::from_name),
        },
        Some("destroy") => Action::Destroy {
            pos: position(m.get("pos")),
        },
        _ => Action::Unknown,
    }
}
