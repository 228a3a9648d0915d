//! The `strong` bot.

use super::{Action, TowerDefense};
use crate::rng::Rng;
use crate::seat::Seat;

pub fn act(_rng: &mut Rng, _game: &TowerDefense, _seat: Seat) -> Action {
    Action::Pass
}
