//! Arbitrary Mammut actions (see [`crate::arbitrary`]): takes are mostly a few tiles of the
//! middle and steals mostly from a seat that holds tiles, putting back one of them; the rest are
//! any tile set, any victim, any tile.

use super::{Action, Mammut, Params, TileSet, PLAYERS};
use crate::arbitrary::{pick, ArbitraryGame, Result, Unstructured};
use crate::seat::Seat;

impl ArbitraryGame for Mammut {
    fn arbitrary_params(_u: &mut Unstructured<'_>) -> Result<Params> {
        Ok(Params)
    }

    fn arbitrary_action(u: &mut Unstructured<'_>, game: &Mammut, seat: Seat) -> Result<Action> {
        Ok(match u.int_in_range(0..=15u8)? {
            0 => Action::Nothing,
            1 => Action::Take(TileSet(u.arbitrary()?)),
            // A few tiles of the middle: a legal take when it is this seat's turn.
            2..=8 => {
                let middle = game.middle();
                let mut take = TileSet::EMPTY;
                for _ in 0..u.int_in_range(1..=3u8)? {
                    if let Some(tile) = pick(u, middle.len(), middle.iter())? {
                        take = take.with(tile);
                    }
                }
                Action::Take(take)
            }
            9 | 10 => Action::Take(TileSet(game.middle().0 & u.arbitrary::<u32>()?)),
            // From a seat holding tiles, putting one of them back: legal on this seat's turn.
            11..=13 => {
                let holders = (0..PLAYERS).filter(|&s| s != seat && !game.hand(s).is_empty());
                match pick(u, holders.clone().count(), holders)? {
                    Some(victim) => {
                        let loot = game.hand(victim);
                        Action::Steal {
                            victim: victim as u8,
                            put_back: pick(u, loot.len(), loot.iter())?.unwrap_or(0),
                        }
                    }
                    None => Action::Nothing,
                }
            }
            // Seats that do not exist, tiles that were not stolen or do not exist.
            _ => Action::Steal {
                victim: if u.ratio(1, 8)? {
                    u.arbitrary()?
                } else {
                    u.int_in_range(0..=PLAYERS as u8)?
                },
                put_back: if u.ratio(1, 8)? {
                    u.arbitrary()?
                } else {
                    u.int_in_range(0..=33)?
                },
            },
        })
    }
}
