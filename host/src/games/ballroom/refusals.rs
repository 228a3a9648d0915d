//! What a Ballroom Blitz bot did: which replies were its pass (the phase's default action, which
//! the reference marks invalid when it is an explicit self-attack), and why the others were
//! refused, read off the phase's record.

use crate::game::Stepped;
use arena_core::games::ballroom::{Action, Ballroom, Item, Phase, Pos, Sent, PLAYERS};
use arena_core::Seat;

/// Whether `action` is the default action of `phase` for `seat`: what the engine plays for a
/// bot that does not move (`use=false`, a move home, an attack on oneself, buying NONE).
pub fn is_pass(phase: Option<Phase>, seat: Seat, action: &Action) -> bool {
    let home = Pos::spawn(seat);
    match (*action, phase) {
        (Action::Pass, _) => true,
        (Action::Use(false), Some(Phase::Use)) => true,
        (Action::Move { x, y }, Some(Phase::Move)) => {
            x == i32::from(home.x) && y == i32::from(home.y)
        }
        (Action::Attack { target }, Some(Phase::Attack)) => target == seat as i32,
        (Action::Buy(Item::None), Some(Phase::Buy)) => true,
        _ => false,
    }
}

/// Why `seat`'s `action`, played in `phase`, was refused, from the game after the phase.
fn reason(game: &Ballroom, phase: Option<Phase>, seat: Seat, action: &Action) -> &'static str {
    match (*action, phase) {
        (Action::Null, _) => "no reply (time-out or closed connection)",
        (Action::Malformed, _) => "unreadable reply",
        (Action::Class(_), Some(Phase::Class)) => "refused class",
        (Action::Use(_), Some(Phase::Use)) => "use of a passive item",
        (Action::Move { .. }, Some(Phase::Move)) => "move out of reach (snapped)",
        (Action::Attack { target }, Some(Phase::Attack)) => {
            match usize::try_from(target).is_ok_and(|t| t < PLAYERS) {
                true => "attack out of range",
                false => "attack on no player",
            }
        }
        (Action::Buy(_), Some(Phase::Buy)) => {
            match game.player(seat).is_some_and(|p| p.pos == Pos::spawn(seat)) {
                true => "buy too dear",
                false => "buy off the spawn",
            }
        }
        _ => "action for another phase",
    }
}

/// One phase, the flags the bots sent included, with the reason of every refusal.
pub fn play(game: &mut Ballroom, moves: &[Sent]) -> Stepped {
    let phase = game.phase();
    let mut stepped = Stepped::from(game.step_sent(moves));
    for (seat, sent) in moves.iter().enumerate() {
        if stepped.report.refused.get(seat).is_some_and(|&n| n > 0) {
            stepped
                .why
                .push((seat, reason(game, phase, seat, &sent.action)));
        }
    }
    stepped
}
