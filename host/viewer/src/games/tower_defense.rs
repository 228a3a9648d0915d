//! Tower Defense: the trace's variant and seed, and each seat's action per turn.

host_json!("../../../src/games/tower_defense/json.rs");

use super::prelude::*;
use arena_core::games::tower_defense::{
    Action, Malformed, Params, Stat, TowerDefense, TowerKind, Variant,
};

impl Viewed for TowerDefense {
    type Start = (Params, u64);
    type Part = Action;

    fn put_start((params, seed): &Self::Start, w: &mut Writer) {
        w.str(params.variant.name());
        w.u64(*seed);
    }

    fn get_start(r: &mut Reader<'_>) -> Result<Self::Start, Error> {
        let variant = named(r, "variant", Variant::from_name)?;
        Ok((Params { variant }, r.u64()?))
    }

    fn put_part(a: &Action, w: &mut Writer) {
        match *a {
            Action::Pass => w.byte(0),
            Action::Spawn {
                hp,
                defense,
                stun_res,
            } => {
                w.byte(1);
                w.i64(hp);
                w.i64(defense);
                w.i64(stun_res);
            }
            Action::Build { kind, pos } => {
                w.byte(2);
                w.byte(kind.map_or(0, |k| 1 + k as u8));
                w.i64(pos);
            }
            Action::Upgrade { pos, stat } => {
                w.byte(3);
                w.i64(pos);
                w.byte(match stat {
                    None => 0,
                    Some(Stat::Power) => 1,
                    Some(Stat::Range) => 2,
                });
            }
            Action::Destroy { pos } => {
                w.byte(4);
                w.i64(pos);
            }
            Action::Unknown => w.byte(5),
            Action::Malformed(Malformed::PositionNotANumber) => w.byte(6),
            Action::Malformed(Malformed::NotWhole) => w.byte(7),
        }
    }

    fn get_part(r: &mut Reader<'_>) -> Result<Action, Error> {
        Ok(match r.byte()? {
            0 => Action::Pass,
            1 => Action::Spawn {
                hp: r.i64()?,
                defense: r.i64()?,
                stun_res: r.i64()?,
            },
            2 => {
                let kind = match r.byte()? {
                    0 => None,
                    k => Some(
                        *TowerKind::ALL
                            .get(usize::from(k) - 1)
                            .ok_or_else(|| error("no such tower kind"))?,
                    ),
                };
                Action::Build {
                    kind,
                    pos: r.i64()?,
                }
            }
            3 => {
                let pos = r.i64()?;
                let stat = match r.byte()? {
                    0 => None,
                    1 => Some(Stat::Power),
                    2 => Some(Stat::Range),
                    _ => return Err(error("no such stat")),
                };
                Action::Upgrade { pos, stat }
            }
            4 => Action::Destroy { pos: r.i64()? },
            5 => Action::Unknown,
            6 => Action::Malformed(Malformed::PositionNotANumber),
            7 => Action::Malformed(Malformed::NotWhole),
            b => return Err(error(format!("no Tower Defense action {b}"))),
        })
    }

    begin_from_params_and_seed!();
    play_one_action_a_seat!();

    fn shown_json(&self) -> String {
        json::state_json(self).to_string()
    }

    fn part_json(a: &Action) -> String {
        json::action_json(a).to_string()
    }
}
