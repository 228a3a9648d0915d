//! Ballroom Blitz in the generic suite: both rulesets, with and without the handshake, and the
//! invariants of the rules.

use crate::Suite;
use arena_core::games::ballroom::{Ballroom, Class, Params, Phase, Ruleset, BOARD};
use arena_core::Game;

impl Suite for Ballroom {
    const TURNS: std::ops::Range<usize> = 0..450;
    const SOAK_SHARE: u64 = 25;
    // The pinned match's digests (see `Suite::PINNED`): a change must be explained in the commit.
    const PINNED: &'static [(u32, u64)] = &[
        (0, 0xc33c51654c2fa615),
        (1, 0xd1406f3e2fba3e88),
        (10, 0x3e7cc057afcab601),
        (100, 0x8488c3b4f209190c),
        (300, 0xe370e2145abf75c7),
    ];

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
