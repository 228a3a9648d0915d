//! Mammut in the generic suite: the invariants of the rules.

use crate::Suite;
use arena_core::games::mammut::{Mammut, Params, TileSet, ACTION_CAP, PLAYERS};
use arena_core::{Game, Seat};

impl Suite for Mammut {
    const TURNS: std::ops::Range<usize> = 0..400;
    const SOAK_SHARE: u64 = 30;
    // The pinned match's digests (see `Suite::PINNED`): a change must be explained in the commit.
    const PINNED: &'static [(u32, u64)] = &[
        (0, 0x2a3a304c2804da35),
        (1, 0x9d70c6f169185e84),
        (10, 0x97af0d44c1c55c69),
        (100, 0xb3f12f095a39351b),
        (113, 0xd9f03cf064580ebe),
    ];

    fn params() -> Vec<Params> {
        vec![Params]
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
