//! Arbitrary Ballroom Blitz params and replies (see [`crate::arbitrary`]): both rulesets, with or
//! without the handshake. Replies mostly fit the phase (moves mostly within reach, attacks mostly
//! on a player in range); some are of another phase, a few are passes, and drops (`Null`,
//! `Malformed`) are rare, so that most matches run long with live bots.

use super::{Action, Ballroom, Class, Item, Params, Phase, Ruleset, BOARD, PLAYERS};
use crate::arbitrary::{mostly_in_i32, pick, ArbitraryGame, Result, Unstructured};
use crate::seat::Seat;

/// A reply of the kind `phase` asks for.
fn reply(u: &mut Unstructured<'_>, game: &Ballroom, seat: Seat, phase: Phase) -> Result<Action> {
    Ok(match phase {
        Phase::Class => Action::Class(*u.choose(&Class::ALL)?),
        Phase::Use => Action::Use(u.arbitrary()?),
        Phase::Move => match game.player(seat) {
            // Within reach of where the seat stands.
            Some(p) if u.ratio(1, 2)? => {
                let reach = p.stats().speed.clamp(0, BOARD);
                let step =
                    |u: &mut Unstructured<'_>| u.int_in_range(reach.saturating_neg()..=reach);
                Action::Move {
                    x: i32::from(p.pos.x).saturating_add(step(u)?),
                    y: i32::from(p.pos.y).saturating_add(step(u)?),
                }
            }
            _ => Action::Move {
                x: mostly_in_i32(u, -2, BOARD + 1)?,
                y: mostly_in_i32(u, -2, BOARD + 1)?,
            },
        },
        Phase::Attack => {
            let in_range = (0..PLAYERS).filter(|&t| game.in_range(seat, t));
            match pick(u, in_range.clone().count(), in_range)? {
                Some(t) if u.ratio(3, 4)? => Action::Attack { target: t as i32 },
                _ => Action::Attack {
                    target: mostly_in_i32(u, -1, PLAYERS as i32)?,
                },
            }
        }
        Phase::Buy => Action::Buy(*u.choose(&Item::ALL)?),
    })
}

impl ArbitraryGame for Ballroom {
    fn arbitrary_params(u: &mut Unstructured<'_>) -> Result<Params> {
        let ruleset = *u.choose(&[Ruleset::Engine, Ruleset::AsWritten])?;
        let fixed = u.arbitrary()?;
        Params::with_classes(ruleset, fixed, || u.choose(&Class::ALL).copied())
    }

    fn arbitrary_action(u: &mut Unstructured<'_>, game: &Ballroom, seat: Seat) -> Result<Action> {
        match u.int_in_range(0..=255u8)? {
            0 => Ok(Action::Null),
            1 => Ok(Action::Malformed),
            2..=9 => Ok(Action::Pass),
            10..=29 => {
                let phase = *u.choose(&[
                    Phase::Class,
                    Phase::Use,
                    Phase::Move,
                    Phase::Attack,
                    Phase::Buy,
                ])?;
                reply(u, game, seat, phase)
            }
            _ => reply(u, game, seat, game.phase().unwrap_or(Phase::Use)),
        }
    }
}
