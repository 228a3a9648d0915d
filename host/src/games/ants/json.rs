//! What the desktop shows of an Ants state as JSON: scores, ants (row, column, owner) and food
//! (also compiled into the replay viewer, so it depends on arena-core and serde_json only).

use arena_core::games::ants::Ants;
use serde_json::{json, Value};

/// What the replay says of a turn: scores, ants (row, column, owner) and food.
pub fn state_json(g: &Ants) -> Value {
    let cols = g.cols();
    json!({
        "turn": g.current_turn(),
        "scores": g.scores(),
        "ants": g.ants().iter().map(|a| json!([a.sq / cols, a.sq % cols, a.owner])).collect::<Vec<_>>(),
        "food": g.food().iter().map(|f| json!([f.sq / cols, f.sq % cols])).collect::<Vec<_>>(),
    })
}
