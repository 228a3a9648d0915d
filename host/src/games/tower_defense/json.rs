//! The canonical JSON of `rules/tower-defense.md` ("Canonical JSON"): the state a bot sees and the
//! actions of the controller's bot API.
//!
//! Reading an action never fails: whatever a bot sent becomes an [`Action`], and what the rules do not
//! allow is refused by the engine (and counted), exactly as the controller ignored it.
//!
//! Input outside the documented shapes is read as the controller's JavaScript read it (rules
//! Decision 7, [`variant_action`]): the spawn boosts as `Number()` makes them ([`js_to_number`]:
//! `" 12 "` is 12, `true` 1, `[3]` 3, `"x"` NaN, refused); `action` and `stat` compared strictly,
//! the Duel tower `type` as a key (`["turret"]`); a build's position must be a whole JSON number
//! (else [`Action::Malformed`], refused); upgrade and destroy find their tower by the key
//! `String(pos)` ([`key_space`]: `"30"` and `[30]` are 30, `"030"` no space); and in Siege any
//! truthy invader answer is a spawn request ([`siege_invader_action`]). These are JavaScript's
//! and JSON's, so they are here: the core takes integers. [`taken_but_refused`] says where the
//! controller acted on an answer the rules refuse (what `verify` names).

use arena_core::games::tower_defense::siege::INVADER_SEAT;
use arena_core::games::tower_defense::{
    Action, InvaderView, Malformed, Stat, TowerDefense, TowerKind, TowerView, Variant,
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
        // Answers read back as the same refusal, which the controller refused too (`verify` of
        // a trace holding them passes): a build at `null`, a spawn over any boost limit.
        Action::Malformed(Malformed::PositionNotANumber) => json!({"action": "build", "pos": null}),
        Action::Malformed(Malformed::NotWhole) => {
            json!({"action": "spawn", "hp": NOT_WHOLE_BOOST})
        }
    }
}

/// The boost [`action_json`] writes for [`Malformed::NotWhole`]: not whole, and over every
/// boost limit (a `u32`), so the controller refused it too.
const NOT_WHOLE_BOOST: f64 = 1_000_000_000_000_000.5;

/// Whether `x` is a whole number (infinities and `NaN` are not).
fn is_whole(x: f64) -> bool {
    x.is_finite() && x.fract() == 0.0
}

/// A whole `f64` as an `i64`, saturating (`as` saturates, and infinities go to the ends).
fn saturating(x: f64) -> i64 {
    x as i64
}

/// A JSON number as an integer: `Err` if it is not a whole number. Numbers past the 64-bit range
/// saturate (they are off any path and over any limit either way).
fn whole_number(n: &serde_json::Number) -> Result<i64, Malformed> {
    if let Some(i) = n.as_i64() {
        return Ok(i);
    }
    if n.as_u64().is_some() {
        return Ok(i64::MAX);
    }
    match n.as_f64() {
        Some(f) if is_whole(f) => Ok(saturating(f)),
        _ => Err(Malformed::NotWhole),
    }
}

/// Whether `c` is white space to JavaScript's `Number()` (ECMAScript `StrWhiteSpaceChar`: the
/// `WhiteSpace` and `LineTerminator` code points). That is Unicode's `White_Space` without U+0085
/// (NEL, a control character to JavaScript), plus U+FEFF (the byte order mark).
fn js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// What JavaScript's `Number()` makes of a string, `None` for `NaN`: surrounding white space
/// (`js_space`) is ignored, the empty string is 0, decimal numbers with an optional sign,
/// leading zeros, fraction and exponent, `Infinity` with an optional sign, and unsigned `0x`,
/// `0o`, `0b` integers (`"-0x1e"` is `NaN`).
pub fn js_number(text: &str) -> Option<f64> {
    let s = text.trim_matches(js_space);
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

/// What JavaScript's `Number()` makes of any JSON value, `None` for `NaN`: `null` and `false` 0,
/// `true` 1, a string through [`js_number`], an array through the string it joins to (`[]` and
/// `[null]` are `""`, 0; `[x]` is `String(x)`; two items or more hold a comma, `NaN`), an object
/// `"[object Object]"`, `NaN`.
pub fn js_to_number(v: &Value) -> Option<f64> {
    match v {
        Value::Null => Some(0.0),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => n.as_f64(),
        Value::String(s) => js_number(s),
        Value::Array(items) => match items.as_slice() {
            [] => Some(0.0),
            // `String(x)` read back by `Number()`: a number is itself, `null` is "", 0;
            // `true` is "true", `NaN`; a string, an array or an object as above.
            [Value::Bool(_)] => None,
            [x] => js_to_number(x),
            _ => None,
        },
        Value::Object(_) => None,
    }
}

/// The name `String(v)` makes of a value used as a property key, when it is a string at all:
/// a string is itself, a one-item array the key of its item (`["turret"]` and `[["turret"]]` are
/// `"turret"`); other values make keys (`"null"`, `"5"`, `"[object Object]"`, `"a,b"`) that are
/// no name of the rules, so `None`.
fn key_name(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) => Some(s),
        Value::Array(items) => match items.as_slice() {
            [x] if !x.is_null() => key_name(x),
            _ => None,
        },
        _ => None,
    }
}

/// The space a value names as the key of the controller's towers (`towers[pos]`): `String(pos)`
/// must be the decimal form of an integer. `30`, `30.0`, `"30"`, `[30]`, `[["30"]]` are 30;
/// `" 30 "`, `"030"`, `"30.0"`, `"3e1"`, `true`, `30.5` name no space (-1, off the path). A
/// position too large for 64 bits saturates (off the path too).
pub fn key_space(v: Option<&Value>) -> i64 {
    match v {
        Some(Value::Number(n)) => whole_number(n).unwrap_or(-1),
        Some(Value::String(s)) => {
            let decimal = s == "0"
                || (!s.starts_with('0') && !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
            if decimal {
                s.parse::<i64>().unwrap_or(i64::MAX)
            } else {
                -1
            }
        }
        Some(Value::Array(items)) => match items.as_slice() {
            [x] if !x.is_null() => key_space(Some(x)),
            _ => -1,
        },
        _ => -1,
    }
}

/// A spawn boost as the controller computed it, `Math.max(b || 0, 0)`: missing or falsy is 0,
/// anything else through `Number()` ([`js_to_number`]), negative values (`-Infinity` too) 0.
/// `None` for `NaN`.
fn js_boost(v: Option<&Value>) -> Option<f64> {
    match v {
        Some(v) if truthy(v) => js_to_number(v).map(|n| n.max(0.0)),
        _ => Some(0.0),
    }
}

/// A spawn boost for the rules: [`js_boost`] as an integer. `NaN` and `Infinity` are `i64::MAX`
/// (over any limit: refused, as the controller's comparisons refused them); a number that is not
/// whole is [`Malformed::NotWhole`] (rules Decision 7).
fn boost(v: Option<&Value>) -> Result<i64, Malformed> {
    match js_boost(v) {
        None => Ok(i64::MAX),
        Some(n) if n.is_infinite() => Ok(i64::MAX),
        Some(n) if is_whole(n) => Ok(saturating(n)),
        Some(_) => Err(Malformed::NotWhole),
    }
}

const BOOSTS: [&str; 3] = ["hp", "defense", "stunRes"];

/// A spawn with the boosts `field` gives (rule "Actions": missing fields are 0, negative ones 0).
fn spawn<'a>(field: impl Fn(&str) -> Option<&'a Value>) -> Action {
    match BOOSTS.map(|k| boost(field(k))) {
        [Ok(hp), Ok(defense), Ok(stun_res)] => Action::Spawn {
            hp,
            defense,
            stun_res,
        },
        _ => Action::Malformed(Malformed::NotWhole),
    }
}

/// A build's position: a JSON number, and a whole one (rules Decision 7).
fn build_position(v: Option<&Value>) -> Result<i64, Malformed> {
    match v {
        Some(Value::Number(n)) => whole_number(n),
        _ => Err(Malformed::PositionNotANumber),
    }
}

/// A build's tower kind. Duel: the name `String(type)` makes as the key of the controller's
/// `TOWER_TYPES` (`["turret"]` is a turret). Siege: the 04-23 controller asked
/// `VALID_TOWER_TYPES.includes(type)`, a strict comparison: only the string itself.
fn tower_kind(variant: Variant, v: Option<&Value>) -> Option<TowerKind> {
    let name = match variant {
        Variant::Duel => v.and_then(key_name),
        Variant::Siege => v.and_then(Value::as_str),
    };
    name.and_then(TowerKind::from_name)
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
    spawn(|k| v.as_object().and_then(|m| m.get(k)))
}

/// What seat `seat` of a `variant` game sent, as an action: [`siege_invader_action`] for the
/// Siege invader, [`variant_action`] otherwise.
pub fn seat_action(variant: Variant, seat: usize, v: &Value) -> Action {
    if variant == Variant::Siege && seat == INVADER_SEAT {
        siege_invader_action(v)
    } else {
        variant_action(variant, v)
    }
}

/// Reads a bot's action as the Duel controller did ([`variant_action`]). Never fails: unknown
/// shapes become [`Action::Unknown`], values that are no integers [`Action::Malformed`] (both
/// refused).
pub fn action_from_json(v: &Value) -> Action {
    variant_action(Variant::Duel, v)
}

/// Reads an action (not the Siege invader's, [`siege_invader_action`]) as the `variant`'s
/// controller did, rules Decision 7:
/// - `action` and `stat` were compared strictly (`switch`, `===`): only the string itself;
/// - the tower `type` as `tower_kind` says;
/// - spawn boosts as `Math.max(b || 0, 0)` computed them (`boost`);
/// - a build's `pos` must be a whole JSON number (`build_position`);
/// - upgrade and destroy find their tower by the key `String(pos)` ([`key_space`]).
pub fn variant_action(variant: Variant, v: &Value) -> Action {
    let Value::Object(m) = v else {
        return if v.is_null() {
            Action::Pass
        } else {
            Action::Unknown
        };
    };
    match m.get("action").and_then(Value::as_str) {
        Some("spawn") => spawn(|k| m.get(k)),
        Some("build") => match build_position(m.get("pos")) {
            Ok(pos) => Action::Build {
                kind: tower_kind(variant, m.get("type")),
                pos,
            },
            Err(why) => Action::Malformed(why),
        },
        Some("upgrade") => Action::Upgrade {
            pos: key_space(m.get("pos")),
            stat: m
                .get("stat")
                .and_then(Value::as_str)
                .and_then(Stat::from_name),
        },
        Some("destroy") => Action::Destroy {
            pos: key_space(m.get("pos")),
        },
        _ => Action::Unknown,
    }
}

/// The field of an answer that Decision 7 refuses, as `"key":value`, if the controller would
/// have acted on the answer in state `g` (taken gold, built or spawned): the controller's
/// checks, made with its JavaScript coercions. `g` is the state the answer is applied to: after
/// the turn's boards moved and its income was paid (a step of passes). `None` when the
/// answer is read as the controller read it, or when the controller refused it too (a `NaN`
/// position, too little gold, a taken space...): then the re-play agrees with the controller.
///
/// A trace of the controller holding such an answer is one this project does not reproduce on
/// purpose; `verify` names it at its turn ([`super::trace::replay`]).
pub fn taken_but_refused(
    variant: Variant,
    seat: usize,
    v: &Value,
    g: &TowerDefense,
) -> Option<String> {
    let Action::Malformed(why) = seat_action(variant, seat, v) else {
        return None;
    };
    let m = v.as_object();
    let field = |k: &str| m.and_then(|m| m.get(k));
    let invader = variant == Variant::Siege && seat == INVADER_SEAT;
    let (key, took) = if invader || field("action").and_then(Value::as_str) == Some("spawn") {
        let key = BOOSTS.into_iter().find(|k| boost(field(k)).is_err())?;
        let spawns = invader || variant == Variant::Duel;
        (key, spawns && controller_spawns(seat, &field, g))
    } else {
        ("pos", controller_builds(variant, seat, &field, g))
    };
    let value = field(key).map_or_else(|| "undefined".to_string(), Value::to_string);
    took.then(|| {
        format!(
            "the controller took `{}:{value}`, refused by Decision 7: {}",
            Value::from(key),
            why.reason()
        )
    })
}

/// Whether the controller's `spawnInvader` spawned (and charged) for those boosts, in floats:
/// `cost = 10 + hp + 10 * defense + 10 * stunRes`, `gold >= cost`, `hp + defense + stunRes <=
/// boostMax`, space 0 free.
fn controller_spawns<'a>(
    seat: usize,
    field: &dyn Fn(&str) -> Option<&'a Value>,
    g: &TowerDefense,
) -> bool {
    let [Some(h), Some(d), Some(r)] = BOOSTS.map(|k| js_boost(field(k))) else {
        return false;
    };
    let cost = 10.0 + h + d * 10.0 + r * 10.0;
    let total = h + d + r;
    let free = g
        .attacked_board(seat)
        .is_some_and(|b| g.invader(b, 0).is_none());
    free && g.gold(seat) as f64 >= cost && total <= f64::from(g.boost_max(seat))
}

/// Whether the controller's `buildTower` built (and charged): `pos != null && pos >= 0 && pos <
/// 100` with `pos` as `Number()` reads it, no tower under the key `String(pos)`, a tower type
/// it knows, enough gold.
fn controller_builds<'a>(
    variant: Variant,
    seat: usize,
    field: &dyn Fn(&str) -> Option<&'a Value>,
    g: &TowerDefense,
) -> bool {
    let pos = field("pos").filter(|p| !p.is_null());
    let in_range = pos
        .and_then(js_to_number)
        .is_some_and(|n| (0.0..100.0).contains(&n));
    let Some(board) = g.defended_board(seat) else {
        return false;
    };
    // A key that is no index names no tower: the project never puts one there.
    let taken = usize::try_from(key_space(pos))
        .ok()
        .is_some_and(|p| g.tower(board, p).is_some());
    in_range
        && !taken
        && tower_kind(variant, field("type")).is_some()
        && g.gold(seat) >= g.build_cost(seat)
}
