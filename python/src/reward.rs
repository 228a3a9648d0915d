//! The rewards the environments give (docs/python.md, "Rewards"): each step, the change of a
//! measure of how the seat stands, plus the ranking term when the match ends (added by the
//! environments: `1 - 2 rank / (seats - 1)`).
//!
//! Two measures, chosen per environment (`reward=` in Python):
//! - [`Kind::Teach`] (the default): the seat's own [`Teach::measure`] minus the mean of the other
//!   seats', so that what the others gain counts against it: in Tower Defense Duel the damage dealt
//!   (the opponent's lives lost) and taken (one's own), in ColorFight the territory (and energy in
//!   Conquest) won and lost.
//! - [`Kind::Score`]: the seat's own score in the game's measure (`info["score"]`), as the
//!   environments gave before: in Tower Defense Duel one's own life alone, which a learner
//!   cannot raise (nothing rewards damaging the opponent).

use crate::games::Observe;
use arena_core::games::ants::Ants;
use arena_core::games::ballroom::Ballroom;
use arena_core::games::colorfight::{ColorFight, Variant};
use arena_core::games::mammut::Mammut;
use arena_core::games::tower_defense::TowerDefense;
use arena_core::Seat;

/// Which measure the rewards follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    Teach,
    Score,
}

impl Kind {
    /// `"teach"` or `"score"`.
    pub fn from_name(name: &str) -> Result<Self, String> {
        match name {
            "teach" => Ok(Kind::Teach),
            "score" => Ok(Kind::Score),
            _ => Err(format!("reward `{name}`: `teach` or `score`")),
        }
    }
}

/// What a seat has that a learner should want more of, in the game's own units (the default: the
/// game's score).
pub trait Teach: Observe {
    fn measure(game: &Self, seat: Seat) -> f64 {
        Self::score(game, seat) as f64
    }
    /// Every seat's [`Teach::measure`] into `out` (a seat each), for games that find them
    /// together for less.
    fn measure_all(game: &Self, out: &mut [f64]) {
        each_measure(game, out);
    }
}

/// [`Teach::measure`] a seat at a time into `out`.
fn each_measure<G: Teach>(game: &G, out: &mut [f64]) {
    for (s, m) in out.iter_mut().enumerate() {
        *m = G::measure(game, s);
    }
}

/// Tower Defense: the seat's lives, less the invaders on the path it defends, each counted as
/// the part of a life it has walked (`(pos + 1) / 100`: the whole life as it leaves space 99, when
/// the life is lost). Against the others' (`measures`): the opponent's lives lost are damage
/// dealt, one's own damage taken, and on the way an invader killed by one's towers gives back
/// what its walk had cost, one's own invaders walking on earn as they go. In Siege the invader
/// has neither lives nor a path to defend, so the defender's measure counts against it.
impl Teach for TowerDefense {
    fn measure(game: &Self, seat: Seat) -> f64 {
        let walked = game
            .defended_board(seat)
            .map_or(0, |b| walked(game.masks(b).0));
        f64::from(game.life(seat)) - walked as f64 / crate::obs::PATH as f64
    }
    /// Duel: both players' measures at once (the state asked for its variant once).
    fn measure_all(game: &Self, out: &mut [f64]) {
        let lost = |board: usize| walked(game.masks(board).0) as f64 / crate::obs::PATH as f64;
        match (game.players(), out) {
            // Each defends the path the other's invaders walk.
            (Some([p0, p1]), [m0, m1]) => {
                *m0 = f64::from(p0.life) - lost(1);
                *m1 = f64::from(p1.life) - lost(0);
            }
            (_, out) => each_measure(game, out),
        }
    }
}

/// The sum of `pos + 1` over the spaces `pos` of the path (below [`crate::obs::PATH`]) set in
/// `mask`, a set bit at a time, a word at a time (a path holds a handful of invaders). Counting
/// bits instead cost more: the processor's popcount is not in the baseline x86-64 the wheel is
/// built for, and seven planes counted in software were about 500 instructions a step.
fn walked(mask: u128) -> u32 {
    let mut sum = 0;
    crate::obs::each_bit(mask, |pos| sum += pos as u32 + 1);
    sum
}

impl Teach for ColorFight {
    fn measure(game: &Self, seat: Seat) -> f64 {
        let Some(p) = game.player(seat) else {
            return 0.0;
        };
        match game.variant() {
            Variant::Skirmish => p.cells.into(),
            Variant::Conquest => {
                f64::from(p.cells)
                    + 10.0 * f64::from(p.gold_mines)
                    + (p.energy.to_num::<i64>() / 10) as f64
            }
        }
    }
}

/// Ballroom Blitz, Mammut, Ants: the game's score (points scored, furs and animals, hills and
/// ants), against the others'.
impl Teach for Ballroom {}
impl Teach for Mammut {}
impl Teach for Ants {}

/// Each seat's measure now, into `out` (a seat each; at most `arena_core::MAX_SEATS`, kept by the
/// match in a fixed array so that a step's rewards allocate nothing): under [`Kind::Teach`] its
/// own minus the mean of the others' (its own alone with one seat); under [`Kind::Score`]
/// `scores()` (the game's score, the outcome's once over; not asked under [`Kind::Teach`]).
pub fn measures<G: Teach>(
    game: &G,
    kind: Kind,
    out: &mut [f64],
    scores: impl FnOnce() -> Vec<i64>,
) {
    match kind {
        Kind::Score => {
            out.fill(0.0);
            for (o, s) in out.iter_mut().zip(scores()) {
                *o = s as f64;
            }
        }
        Kind::Teach => {
            G::measure_all(game, out);
            let all: f64 = out.iter().sum();
            let seats = out.len();
            let others = seats.saturating_sub(1).max(1) as f64;
            if seats > 1 {
                for m in out.iter_mut() {
                    *m -= (all - *m) / others;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// [`super::walked`] is the plain sum of `pos + 1` over the set spaces below 100, for masks
    /// from empty to full, single spaces, the spaces past the path and a spread of patterns.
    #[test]
    fn walked_is_the_sum_of_positions_plus_one() {
        let plain = |m: u128| -> u32 {
            (0..100u32)
                .filter(|&p| m >> p & 1 == 1)
                .map(|p| p + 1)
                .sum()
        };
        let mut masks = vec![0u128, u128::MAX, (1 << 100) - 1, !((1u128 << 100) - 1)];
        masks.extend((0..128).map(|p| 1u128 << p));
        let mut x = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834u128;
        for _ in 0..1000 {
            // A xorshift over 128 bits: masks of every density.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            masks.push(x);
            masks.push(x & x.rotate_left(29));
        }
        for m in masks {
            assert_eq!(super::walked(m), plain(m), "mask {m:#x}");
        }
        assert_eq!(super::walked((1 << 100) - 1), 5050);
    }
}
