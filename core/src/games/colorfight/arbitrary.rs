//! Arbitrary ColorFight params and actions (see [`crate::arbitrary`]): grids of any size up to a
//! little more than the largest (`new` refuses what it cannot hold) and short matches; attacks
//! mostly on a cell next to one of the seat's own, builds mostly on its own cells, the rest
//! anywhere on or just off the grid, sometimes anything; a seat busy attacking mostly passes.

use super::{Action, ColorFight, Params, Respawn, Variant};
use crate::arbitrary::{mostly_in_i32, pick, ArbitraryGame, Result, Unstructured};
use crate::seat::Seat;

/// One of `seat`'s cells.
fn own_cell(u: &mut Unstructured<'_>, game: &ColorFight, seat: Seat) -> Result<Option<usize>> {
    let me = (seat as u8).wrapping_add(1);
    let mine = game
        .cells()
        .iter()
        .enumerate()
        .filter(move |(_, c)| c.owner == me);
    Ok(pick(u, mine.clone().count(), mine)?.map(|(i, _)| i))
}

/// A cell on the grid or one row or column off it; sometimes anything.
fn anywhere(u: &mut Unstructured<'_>, game: &ColorFight) -> Result<(i32, i32)> {
    let (w, h) = (game.width() as i32, game.height() as i32);
    Ok((mostly_in_i32(u, -1, w)?, mostly_in_i32(u, -1, h)?))
}

impl ArbitraryGame for ColorFight {
    fn arbitrary_params(u: &mut Unstructured<'_>) -> Result<Params> {
        Ok(Params {
            variant: *u.choose(&[Variant::Conquest, Variant::Skirmish])?,
            width: mostly_in_i32(u, 0, 34)? as u16,
            height: mostly_in_i32(u, 0, 34)? as u16,
            players: mostly_in_i32(u, 0, 9)? as u8,
            ticks: u.int_in_range(0..=600)?,
            respawn: *u.choose(&[Respawn::Auto, Respawn::OnJoin])?,
        })
    }

    fn arbitrary_action(u: &mut Unstructured<'_>, game: &ColorFight, seat: Seat) -> Result<Action> {
        // A seat that is attacking may only build: it mostly waits, as a bot would.
        let busy = game.player(seat).is_some_and(|p| !p.is_idle());
        if busy && u.ratio(3, 4)? {
            return Ok(Action::Pass);
        }
        let (x, y) = match u.int_in_range(0..=15u8)? {
            0 => return Ok(Action::Pass),
            // A defeated client asking back in (the server's rejoin; refused otherwise).
            1 => return Ok(Action::Join),
            2 => return Ok(Action::Malformed),
            // Next to one of the seat's cells: the attacks the rules may allow.
            3..=9 => {
                let (x, y) = match own_cell(u, game, seat)? {
                    Some(cell) => game.coords(cell),
                    None => anywhere(u, game)?,
                };
                let (dx, dy) = *u.choose(&[(0, -1), (1, 0), (0, 1), (-1, 0)])?;
                return Ok(Action::Attack {
                    x: x.saturating_add(dx),
                    y: y.saturating_add(dy),
                });
            }
            // On one of the seat's cells: where a base is built.
            10 | 11 => match own_cell(u, game, seat)? {
                Some(cell) => {
                    let (x, y) = game.coords(cell);
                    return Ok(Action::Build { x, y });
                }
                None => anywhere(u, game)?,
            },
            _ => anywhere(u, game)?,
        };
        Ok(if u.ratio(1, 3)? {
            Action::Build { x, y }
        } else {
            Action::Attack { x, y }
        })
    }
}
