//! ColorFight: the trace's params and seed, and each seat's action per tick.

host_json!("../../../src/games/colorfight/json.rs");

use super::prelude::*;
use arena_core::games::colorfight::{Action, ColorFight, Params, Respawn, Variant};

impl Viewed for ColorFight {
    type Start = (Params, u64);
    type Part = Action;

    fn put_start((p, seed): &Self::Start, w: &mut Writer) {
        w.str(p.variant.name());
        w.u64(u64::from(p.width));
        w.u64(u64::from(p.height));
        w.u64(u64::from(p.players));
        w.u64(u64::from(p.ticks));
        w.str(p.respawn.name());
        w.u64(*seed);
    }

    fn get_start(r: &mut Reader<'_>) -> Result<Self::Start, Error> {
        let variant = named(r, "variant", Variant::from_name)?;
        let small = |r: &mut Reader<'_>| {
            r.u64()
                .and_then(|v| u16::try_from(v).map_err(|_| error("too big")))
        };
        let width = small(r)?;
        let height = small(r)?;
        let players = u8::try_from(r.u64()?).map_err(|_| error("too many players"))?;
        let ticks = u32::try_from(r.u64()?).map_err(|_| error("too many ticks"))?;
        let respawn = named(r, "respawn", Respawn::from_name)?;
        let params = Params {
            variant,
            width,
            height,
            players,
            ticks,
            respawn,
        };
        Ok((params, r.u64()?))
    }

    fn put_part(a: &Action, w: &mut Writer) {
        match *a {
            Action::Pass => w.byte(0),
            Action::Attack { x, y } => {
                w.byte(1);
                w.i64(i64::from(x));
                w.i64(i64::from(y));
            }
            Action::Build { x, y } => {
                w.byte(2);
                w.i64(i64::from(x));
                w.i64(i64::from(y));
            }
            Action::Malformed => w.byte(3),
            Action::Join => w.byte(4),
        }
    }

    fn get_part(r: &mut Reader<'_>) -> Result<Action, Error> {
        Ok(match r.byte()? {
            0 => Action::Pass,
            1 => Action::Attack {
                x: r.int()?,
                y: r.int()?,
            },
            2 => Action::Build {
                x: r.int()?,
                y: r.int()?,
            },
            3 => Action::Malformed,
            4 => Action::Join,
            b => return Err(error(format!("no ColorFight action {b}"))),
        })
    }

    begin_from_params_and_seed!();
    play_one_action_a_seat!();

    fn shown_json(&self) -> String {
        json::state_json(self)
    }

    fn part_json(a: &Action) -> String {
        json::action_json(a).to_string()
    }
}
