//! The final order of the seats. Ties are broken by a seeded draw (the original used
//! rock-paper-scissors), so every seat gets its own rank.

use super::{ColorFight, Variant, MAX_PLAYERS};
use crate::rng::Rng;

impl ColorFight {
    /// The final ranking: an order of seats, best first.
    pub fn ranking(&self) -> [u8; MAX_PLAYERS] {
        let n = self.players().len();
        // Ties are broken by a seeded draw (the original used rock-paper-scissors).
        let mut draw = [0u8; MAX_PLAYERS];
        for (i, d) in draw.iter_mut().enumerate() {
            *d = i as u8;
        }
        let mut tiebreak = Rng::stream(self.seed, b"colorfight/tiebreak");
        tiebreak.shuffle(draw.get_mut(..n).unwrap_or(&mut []));
        let mut lot = [0u8; MAX_PLAYERS];
        for (pos, &seat) in draw.iter().enumerate().take(n) {
            if let Some(l) = lot.get_mut(seat as usize) {
                *l = pos as u8;
            }
        }
        let key = |seat: usize| -> (bool, u32, u32, u8) {
            let p = self.player(seat);
            let alive = p.is_some_and(|p| !p.defeated);
            let lot = lot.get(seat).copied().unwrap_or(0);
            match self.variant() {
                Variant::Conquest => (
                    alive,
                    self.final_score(seat),
                    0,
                    u8::MAX.saturating_sub(lot),
                ),
                Variant::Skirmish => {
                    let cells = p.map_or(0, |p| p.cells as u32);
                    let when = p.map_or(0, |p| if p.defeated { p.defeated_at } else { 0 });
                    (alive, cells, when, u8::MAX.saturating_sub(lot))
                }
            }
        };
        let mut order = [0u8; MAX_PLAYERS];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        if let Some(seats) = order.get_mut(..n) {
            seats.sort_unstable_by_key(|&s| core::cmp::Reverse(key(s as usize)));
        }
        order
    }
}
