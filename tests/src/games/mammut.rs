//! Mammut in the generic suite: any action a bot could send, and the invariants of the rules.

use crate::Suite;
use arena_core::games::mammut::{Action, Mammut, Params, TileSet, ACTION_CAP, PLAYERS};
use arena_core::{Game, Seat};
use proptest::prelude::*;

impl Suite for Mammut {
    fn params() -> Vec<Params> {
        vec![Params]
    }

    fn arb_action(_seat: Seat) -> BoxedStrategy<Action> {
        prop_oneof![
            1 => Just(Action::Nothing),
            // Small takes, most of them legal early in a round.
            6 => proptest::collection::vec(0u8..32, 0..4)
                .prop_map(|ids| Action::Take(ids.into_iter().fold(TileSet::EMPTY, TileSet::with))),
            1 => any::<u32>().prop_map(|m| Action::Take(TileSet(m))),
            // Steals, including from seats that do not exist and of tiles that were not stolen.
            4 => (0u8..7, 0u8..34).prop_map(|(victim, put_back)| Action::Steal { victim, put_back }),
            1 => (any::<u8>(), any::<u8>()).prop_map(|(victim, put_back)| Action::Steal { victim, put_back }),
        ]
        .boxed()
    }

    fn check(&self, before: &Self) -> Result<(), String> {
        // Tiles conserved: every tile in exactly one hand or the middle.
        let mut seen = self.middle().0;
        for (s, h) in self.hands().iter().enumerate() {
            if seen & h.0 != 0 {
                return Err(format!(
                    "seat {s}'s hand overlaps another hand or the middle"
                ));
            }
            seen |= h.0;
        }
        if seen != TileSet::ALL.0 {
            return Err(format!("tiles lost: {:032b}", !seen));
        }
        if let Some(s) = self.points().iter().position(|&p| p < 0) {
            return Err(format!("seat {s} has negative points {}", self.points()[s]));
        }
        if self.actions() > ACTION_CAP {
            return Err(format!("{} actions in a round", self.actions()));
        }
        if self.turn() != before.turn() + u32::from(!before.is_over()) {
            return Err("turn count".into());
        }
        if self.round() < before.round() || self.round() > before.round() + 1 {
            return Err(format!(
                "round went from {} to {}",
                before.round(),
                self.round()
            ));
        }
        for s in 0..PLAYERS {
            if self.furs()[s] < before.furs()[s] {
                return Err(format!("seat {s} lost fur points"));
            }
            if self.animals()[s] & before.animals()[s] != before.animals()[s] {
                return Err(format!("seat {s} lost an animal"));
            }
            if self.is_removed(s) && !self.hand(s).is_empty() {
                return Err(format!("removed seat {s} holds tiles"));
            }
        }
        match self.mover() {
            Some(m) if !self.waits(m) => Err(format!("seat {m} moves but holds tiles or is out")),
            Some(_) if self.round() > before.round() && self.middle() != TileSet::ALL => {
                Err("a new round starts with every tile in the middle".into())
            }
            Some(m) if self.round() == before.round() => {
                // Within a round only the mover's hand changes, and a victim's, which is emptied.
                let b = before.mover().unwrap_or(m);
                let changed: Vec<Seat> = (0..PLAYERS)
                    .filter(|&s| s != b && self.hand(s) != before.hand(s))
                    .collect();
                match changed.as_slice() {
                    [] => Ok(()),
                    [v] if self.hand(*v).is_empty() => Ok(()),
                    _ => Err(format!("hands {changed:?} changed, mover was {b}")),
                }
            }
            None if !self.is_over() => Err("nobody to move before the end".into()),
            _ => Ok(()),
        }
    }
}
