//! The canonical JSON of `rules/mammut.md`: the state every bot sees and the actions.
//!
//! Reading an action never fails: whatever a bot sends becomes an [`Action`], and anything that names
//! no action (unknown or repeated tile ids, both `take` and `steal`, not an object) becomes
//! [`Action::Nothing`], which the rules refuse and count.

use arena_core::games::mammut::{Action, Mammut, Side, TileSet, PLAYERS};
use arena_core::Seat;
use serde_json::{json, Value};

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
