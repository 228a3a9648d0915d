//! Ballroom Blitz in the generic suite: any reply a bot could send, in any phase.

use crate::Suite;
use arena_core::games::ballroom::{Action, Ballroom, Class, Item, Params, Phase, Ruleset, BOARD};
use arena_core::{Game, Seat};
use proptest::prelude::*;

impl Suite for Ballroom {
    fn params() -> Vec<Params> {
        let mut all = Vec::new();
        for ruleset in [Ruleset::Engine, Ruleset::AsWritten] {
            all.push(Params {
                ruleset,
                classes: None,
            });
            all.push(Params {
                ruleset,
                classes: Some([Class::Knight, Class::Wizard, Class::Archer, Class::Knight]),
            });
        }
        all
    }

    fn arb_action(_seat: Seat) -> BoxedStrategy<Action> {
        let class = prop_oneof![
            Just(Class::Knight),
            Just(Class::Wizard),
            Just(Class::Archer)
        ];
        let item = proptest::sample::select(Item::ALL.to_vec());
        let coord = prop_oneof![8 => -2i32..12, 1 => any::<i32>()];
        let target = prop_oneof![8 => -1i32..5, 1 => any::<i32>()];
        // Drops (Null, Malformed) are rare so that most games run long with live bots.
        prop_oneof![
            20 => Just(Action::Pass),
            1 => Just(Action::Null),
            1 => Just(Action::Malformed),
            20 => class.prop_map(Action::Class),
            160 => any::<bool>().prop_map(Action::Use),
            300 => (coord.clone(), coord).prop_map(|(x, y)| Action::Move { x, y }),
            300 => target.prop_map(|target| Action::Attack { target }),
            160 => item.prop_map(Action::Buy),
        ]
        .boxed()
    }

    fn check(&self, before: &Self) -> Result<(), String> {
        if self.turn() < before.turn() || self.turn() > 100 {
            return Err(format!("turn {} after {}", self.turn(), before.turn()));
        }
        let settled = self.phase() != Some(Phase::Class)
            && !matches!(self.phase(), Some(Phase::Move | Phase::Attack | Phase::Buy));
        for (s, (p, b)) in self.players().iter().zip(before.players()).enumerate() {
            if !(0..BOARD as i8).contains(&p.pos.x) || !(0..BOARD as i8).contains(&p.pos.y) {
                return Err(format!("player {s} off the board at {:?}", p.pos));
            }
            // A class change keeps health above the new max until the next clamp (a hit or the
            // end of the turn): 9 is the largest max of any class.
            let max = p.stats().max_health;
            if p.health < 0 || p.health > 9 || (settled && p.health as i32 > max) {
                return Err(format!("player {s} health {} (max {max})", p.health));
            }
            if p.score < b.score {
                return Err(format!("player {s} score fell {} -> {}", b.score, p.score));
            }
            let expected = if self.started() {
                (self.turn() + 1).checked_sub(p.spent as u32)
            } else {
                Some(0)
            };
            if Some(p.gold as u32) != expected {
                return Err(format!(
                    "player {s} gold {} at turn {} having spent {}",
                    p.gold,
                    self.turn(),
                    p.spent
                ));
            }
            if !b.connected && p.connected {
                return Err(format!("player {s} reconnected"));
            }
        }
        Ok(())
    }
}
