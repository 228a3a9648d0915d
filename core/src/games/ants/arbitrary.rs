//! Arbitrary Ants params and orders (see [`crate::arbitrary`]), for every build's capacities.
//!
//! Maps are small (the food steps cost time in proportion to the map and the amounts drawn):
//! half of them symmetric under a translation (so the engine accepts them and food is placed),
//! the others any squares with one or two hills per player (mostly refused as not symmetric,
//! which is worth trying too). Half the params keep the official defaults, the others draw the
//! radii, the attack rule, the food draws (below 300: a rate of 65,000 on a 3 x 2 map took 55 s
//! for 53 turns under the sanitizer) and the cutoff. Most of the seat's ants get one order each;
//! a few orders name any square, on the map or off it.

use core::fmt::Write;

use super::{AntsGame, Attack, Dir, Draw, Map, Order, Params};
use crate::arbitrary::{mostly_in, ArbitraryGame, Error, Result, Unstructured};
use crate::rng::splitmix64;
use crate::seat::Seat;

/// The free maps' largest side.
const FREE_SIDE: usize = 14;

/// A map's text, as made here (up to about 40 x 40 squares).
pub type MapText = heapless::String<2048>;

/// Any squares, `players` players with one or two hills each (written last, so they win).
fn free_map(u: &mut Unstructured<'_>, text: &mut MapText) -> Result<()> {
    let rows = u.int_in_range(2..=FREE_SIDE)?;
    let cols = u.int_in_range(2..=FREE_SIDE)?;
    let players = u.int_in_range(2..=4u8)?;
    let mut grid = [b'.'; FREE_SIDE * FREE_SIDE];
    let squares = rows.saturating_mul(cols);
    for sq in grid.iter_mut().take(squares) {
        *sq = match u.int_in_range(0..=15u8)? {
            0 | 1 => b'%',
            2 => b'*',
            3 => b'a',
            _ => b'.',
        };
    }
    for p in 0..players {
        for _ in 0..u.int_in_range(1..=2u8)? {
            let sq = u.int_in_range(0..=squares.saturating_sub(1))?;
            if let Some(s) = grid.get_mut(sq) {
                *s = b'0'.saturating_add(p);
            }
        }
    }
    let bad = |_| Error::IncorrectFormat;
    header(text, rows, cols, players).map_err(bad)?;
    for row in grid.get(..squares).unwrap_or(&[]).chunks(cols) {
        line(text, row.iter().copied()).map_err(bad)?;
    }
    Ok(())
}

/// A symmetric map of up to 4 players and 24 x 24 squares (see [`symmetric_map`]).
fn some_symmetric_map(u: &mut Unstructured<'_>, text: &mut MapText) -> Result<()> {
    let players = u.int_in_range(2..=4u8)?;
    let cell = u.int_in_range(3..=6usize)?;
    let water = u.int_in_range(0..=25u64)?;
    write_symmetric(text, players, cell, water, u.arbitrary()?).map_err(|_| Error::IncorrectFormat)
}

/// The text of a map that is the same under a translation by (`cell`, `cell`), `cell` x
/// `players` squares a side: symmetric in the official sense, whatever its water (about
/// `water_percent` of the squares, placed by `salt`). Player `p`'s hill is at
/// (1 + p * cell, 1 + p * cell). `None` if the text is longer than [`MapText`] holds (beyond
/// about 40 x 40 squares).
pub fn symmetric_map(players: u8, cell: usize, water_percent: u64, salt: u64) -> Option<MapText> {
    let mut text = MapText::new();
    write_symmetric(&mut text, players, cell, water_percent, salt).ok()?;
    Some(text)
}

fn write_symmetric(
    text: &mut MapText,
    players: u8,
    cell: usize,
    water_percent: u64,
    salt: u64,
) -> core::fmt::Result {
    let side = cell.saturating_mul(players as usize);
    header(text, side, side, players)?;
    for r in 0..side {
        // The orbit's representative: shifted back by k blocks into the first block of rows.
        let k = r.checked_div(cell).unwrap_or(0);
        let shift = k.saturating_mul(cell);
        let r0 = r.saturating_sub(shift);
        let squares = (0..side).map(|c| {
            let c0 = c
                .wrapping_add(side)
                .wrapping_sub(shift)
                .checked_rem(side)
                .unwrap_or(0);
            let mut h = salt ^ ((r0 as u64) << 32) ^ c0 as u64;
            if r0 == 1 && c0 == 1 {
                // (1 + k * cell, 1 + k * cell): player k's hill.
                b'0'.saturating_add(k as u8)
            } else if splitmix64(&mut h).checked_rem(100).unwrap_or(0) < water_percent {
                b'%'
            } else {
                b'.'
            }
        });
        line(text, squares)?;
    }
    Ok(())
}

fn header(text: &mut MapText, rows: usize, cols: usize, players: u8) -> core::fmt::Result {
    write!(text, "rows {rows}\ncols {cols}\nplayers {players}\n")
}

fn line(text: &mut MapText, squares: impl Iterator<Item = u8>) -> core::fmt::Result {
    text.push_str("m ").map_err(|_| core::fmt::Error)?;
    for s in squares {
        text.push(char::from(s)).map_err(|_| core::fmt::Error)?;
    }
    text.push('\n').map_err(|_| core::fmt::Error)
}

/// A food draw: fixed or a range, amounts below 300.
fn draw(u: &mut Unstructured<'_>) -> Result<Draw> {
    Ok(if u.ratio(1, 4)? {
        Draw::Fixed(u.int_in_range(0..=299)?)
    } else {
        Draw::Range(u.int_in_range(0..=299)?, u.int_in_range(0..=299)?)
    })
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> ArbitraryGame
    for AntsGame<SQ, A, F, H, O>
{
    fn arbitrary_params(u: &mut Unstructured<'_>) -> Result<Params<SQ, H>> {
        let mut text = MapText::new();
        if u.arbitrary()? {
            some_symmetric_map(u, &mut text)?;
        } else {
            free_map(u, &mut text)?;
        }
        let map = Map::parse(&text).map_err(|_| Error::IncorrectFormat)?;
        let mut p = Params::new(map, u.int_in_range(1..=60)?);
        if u.arbitrary()? {
            p.viewradius2 = mostly_in(u, 0, 100)? as u16;
            p.attackradius2 = mostly_in(u, 0, 100)? as u16;
            p.spawnradius2 = mostly_in(u, 0, 100)? as u16;
            p.attack = *u.choose(&[Attack::Focus, Attack::Damage])?;
            p.food_rate = draw(u)?;
            p.food_turn = draw(u)?;
            p.food_start = draw(u)?;
            p.food_visible = draw(u)?;
            p.cutoff_turn = mostly_in(u, 0, 60)? as u16;
            p.cutoff_percent = (mostly_in(u, 0, 20)? as u32, mostly_in(u, 0, 20)? as u32);
        }
        Ok(p)
    }

    fn arbitrary_action(
        u: &mut Unstructured<'_>,
        game: &Self,
        seat: Seat,
    ) -> Result<heapless::Vec<Order, O>> {
        let cols = game.cols().max(1);
        let rows = i64::from(game.rows());
        let mut orders = heapless::Vec::new();
        // A full list is the capacity's rule case: the order is not sent.
        let mut send = |row: i64, col: i64, dir: Dir| {
            let _ = orders.push(Order {
                row: row as i16,
                col: col as i16,
                dir,
            });
        };
        // Most of the seat's ants get one order each, as a bot sends them.
        for ant in game.ants().iter().filter(|a| a.owner as usize == seat) {
            if u.ratio(3, 4)? {
                let (r, c) = (ant.sq.checked_div(cols), ant.sq.checked_rem(cols));
                send(
                    i64::from(r.unwrap_or(0)),
                    i64::from(c.unwrap_or(0)),
                    *u.choose(&Dir::ALL)?,
                );
            }
        }
        // A few name any square, on the map or off it (or an ant already ordered).
        for _ in 0..u.int_in_range(0..=2u8)? {
            let (row, col) = (mostly_in(u, -1, rows)?, mostly_in(u, -1, i64::from(cols))?);
            send(row, col, *u.choose(&Dir::ALL)?);
        }
        Ok(orders)
    }
}
