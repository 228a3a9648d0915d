//! Mammut: the trace's seed, and the mover's action per step (the others pass).

host_json!("../../../src/games/mammut/json.rs");

use super::prelude::*;
use arena_core::games::mammut::{Action, Mammut, Params, TileSet};

impl Viewed for Mammut {
    type Start = (Params, u64);
    type Part = Action;

    fn put_start((_, seed): &Self::Start, w: &mut Writer) {
        w.u64(*seed);
    }

    fn get_start(r: &mut Reader<'_>) -> Result<Self::Start, Error> {
        Ok((Params, r.u64()?))
    }

    fn put_part(a: &Action, w: &mut Writer) {
        match *a {
            Action::Nothing => w.byte(0),
            Action::Take(tiles) => {
                w.byte(1);
                w.u64(u64::from(tiles.0));
            }
            Action::Steal { victim, put_back } => {
                w.byte(2);
                w.byte(victim);
                w.byte(put_back);
            }
        }
    }

    fn get_part(r: &mut Reader<'_>) -> Result<Action, Error> {
        Ok(match r.byte()? {
            0 => Action::Nothing,
            1 => Action::Take(TileSet(
                u32::try_from(r.u64()?).map_err(|_| error("not a tile set"))?,
            )),
            2 => Action::Steal {
                victim: r.byte()?,
                put_back: r.byte()?,
            },
            b => return Err(error(format!("no Mammut action {b}"))),
        })
    }

    begin_from_params_and_seed!();
    play_one_action_a_seat!();

    fn shown_json(&self) -> String {
        json::state_json(self, 0).to_string()
    }

    fn part_json(a: &Action) -> String {
        json::action_json(a).to_string()
    }
}
