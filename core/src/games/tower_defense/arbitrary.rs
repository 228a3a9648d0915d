//! Arbitrary Tower Defense actions (see [`crate::arbitrary`]): both variants; mostly what the
//! seat's role does (Siege: the invader spawns, the defender builds), with spawns mostly within the
//! seat's boost allowance, builds mostly on the path, upgrades and destroys mostly of the seat's
//! own towers, and a seat that cannot pay mostly waiting; sometimes the other role's actions,
//! negative, absurd or unknown values, or malformed ones.

use super::{Action, Malformed, Params, Stat, TowerDefense, TowerKind, Variant, LAST};
use crate::arbitrary::{mostly_in, pick, ArbitraryGame, Result, Unstructured};
use crate::seat::Seat;

/// A space on the path, sometimes just off it, sometimes anything.
fn space(u: &mut Unstructured<'_>) -> Result<i64> {
    if u.ratio(1, 10)? {
        mostly_in(u, -5, (LAST as i64).saturating_add(6))
    } else {
        u.int_in_range(0..=LAST as i64)
    }
}

/// One of the seat's own towers most of the time, else any [`space`].
fn own_tower(u: &mut Unstructured<'_>, game: &TowerDefense, seat: Seat) -> Result<i64> {
    if let (Some(board), false) = (game.defended_board(seat), u.ratio(1, 4)?) {
        let towers = game.towers(board);
        if let Some(t) = pick(u, towers.count(), game.towers(board))? {
            return Ok(i64::from(t.pos));
        }
    }
    space(u)
}

/// A stat boost: mostly within `most` (what is left of the seat's allowance), sometimes
/// negative or absurd.
fn boost(u: &mut Unstructured<'_>, most: i64) -> Result<i64> {
    if u.ratio(1, 10)? {
        mostly_in(u, -10, -1)
    } else {
        mostly_in(u, 0, most.max(0))
    }
}

impl ArbitraryGame for TowerDefense {
    fn arbitrary_params(u: &mut Unstructured<'_>) -> Result<Params> {
        Ok(Params {
            variant: *u.choose(&[Variant::Duel, Variant::Siege])?,
        })
    }

    fn arbitrary_action(
        u: &mut Unstructured<'_>,
        game: &TowerDefense,
        seat: Seat,
    ) -> Result<Action> {
        // What the seat's role lets it do, weighted (Siege: the invader spawns, the defender builds);
        // the other role's actions are tried now and then.
        const PASS: u8 = 0;
        const SPAWN: u8 = 1;
        const BUILD: u8 = 2;
        const UPGRADE: u8 = 3;
        const DESTROY: u8 = 4;
        let spawns = game.attacked_board(seat).is_some();
        let builds = game.defended_board(seat).is_some();
        let kinds: &[u8] = match (spawns, builds) {
            (true, true) => &[0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5],
            (true, false) => &[0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 3, 5],
            (false, true) => &[0, 0, 0, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5],
            (false, false) => &[0, 5],
        };
        let kind = *u.choose(kinds)?;
        // A seat that cannot pay mostly waits, as a bot would (the cheapest invader costs 10).
        let price = match kind {
            SPAWN => 10,
            BUILD => game.build_cost(seat),
            UPGRADE => game.upgrade_cost(seat),
            _ => 0,
        };
        if game.gold(seat) < price && u.ratio(3, 4)? {
            return Ok(Action::Pass);
        }
        Ok(match kind {
            PASS => Action::Pass,
            // Boosts that mostly add up to at most the seat's allowance.
            SPAWN => {
                let most = i64::from(game.boost_max(seat));
                let hp = boost(u, most)?;
                let defense = boost(u, most.saturating_sub(hp.max(0)))?;
                let stun_res = boost(
                    u,
                    most.saturating_sub(hp.max(0))
                        .saturating_sub(defense.max(0)),
                )?;
                Action::Spawn {
                    hp,
                    defense,
                    stun_res,
                }
            }
            BUILD => Action::Build {
                kind: if u.ratio(1, 5)? {
                    None
                } else {
                    Some(*u.choose(&TowerKind::ALL)?)
                },
                pos: space(u)?,
            },
            UPGRADE => Action::Upgrade {
                pos: own_tower(u, game, seat)?,
                stat: *u.choose(&[
                    Some(Stat::Power),
                    Some(Stat::Power),
                    Some(Stat::Range),
                    Some(Stat::Range),
                    None,
                ])?,
            },
            DESTROY => Action::Destroy {
                pos: own_tower(u, game, seat)?,
            },
            // What a codec makes of values that are no integers (rules Decision 7), or of any
            // other shape.
            _ => *u.choose(&[
                Action::Unknown,
                Action::Unknown,
                Action::Malformed(Malformed::PositionNotANumber),
                Action::Malformed(Malformed::NotWhole),
            ])?,
        })
    }
}
