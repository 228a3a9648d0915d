//! Attack durations in fixed point.
//!
//! The reference server computed `3 + 30 * 2^(-x/30)`, the surround factor and the energy factor in
//! double precision and compared wall-clock times. We need the same whole number of 100 ms ticks on
//! every target, without floats, so the decay is a short power series in `I32F32` (error far below
//! the 1 ms the golden attack times require) and the duration is rounded up once, at the end.

use super::Variant;
use fixed::types::I32F32;

/// Every fractional quantity of the game (gold, energy, factors): 32 integer and 32 fraction bits.
pub type Num = I32F32;

/// ln 2, to the precision of [`Num`].
const LN2: Num = Num::lit("0.693147180559945309417232121458176568");
/// Ticks per halving of the decay term: 30 s.
const HALF_LIFE_TICKS: u32 = 300;

/// `2^(-age / 300)`: the decay of a cell's defence, `age` in ticks since it was last taken.
///
/// Split as `2^(-q) * 2^(-r/300)`: the whole halvings are a shift, the rest is `exp(-r ln2 / 300)`,
/// whose argument stays below ln 2 so sixteen terms of the series are more than enough.
pub fn decay(age: u32) -> Num {
    let q = age / HALF_LIFE_TICKS;
    let r = age % HALF_LIFE_TICKS;
    if q >= 40 {
        return Num::ZERO;
    }
    let x = LN2
        .saturating_mul_int(r as i64)
        .saturating_div_int(HALF_LIFE_TICKS as i64);
    let mut term = Num::ONE;
    let mut sum = Num::ONE;
    for n in 1..=16i64 {
        // n >= 1: the same as saturating_div_int, without a division-by-zero panic path.
        term = term
            .saturating_mul(x)
            .checked_div_int(n)
            .unwrap_or(Num::ZERO);
        sum = if n % 2 == 1 {
            sum.saturating_sub(term)
        } else {
            sum.saturating_add(term)
        };
    }
    // q < 40 here, below the type's width.
    sum.wrapping_shr(q)
}

/// Base duration in seconds: 2 for an empty cell, `3 + 30 * 2^(-x/30)` for an owned one.
pub fn base_seconds(owned: bool, age: u32) -> Num {
    if owned {
        Num::const_from_int(3).saturating_add(decay(age).saturating_mul_int(30))
    } else {
        Num::const_from_int(2)
    }
}

/// The surround factor in quarters: 1 or 0 own neighbours -> 4/4, 2 -> 3/4, 3 -> 2/4, 4 -> 1/4.
pub fn surround_quarters(adjacent: u8) -> i64 {
    match adjacent {
        0 | 1 => 4,
        2 => 3,
        3 => 2,
        _ => 1,
    }
}

/// The duration of an attack in ticks: `ceil(10 * t)`, at least 1.
///
/// Conquest: `t = base * surround / (1 + energy / 200)`, computed as
/// `base * 500 * quarters / (200 + energy)` so that only one division rounds.
pub fn attack_ticks(variant: Variant, owned: bool, age: u32, adjacent: u8, energy: Num) -> u32 {
    let base = base_seconds(owned, age);
    let tenths = match variant {
        Variant::Skirmish => base.saturating_mul_int(10),
        Variant::Conquest => {
            let num = base.saturating_mul_int(surround_quarters(adjacent).saturating_mul(500));
            let den = Num::const_from_int(200).saturating_add(energy.max(Num::ZERO));
            num.checked_div(den).unwrap_or(Num::MAX)
        }
    };
    tenths.saturating_ceil().saturating_to_num::<u32>().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_halves_every_thirty_seconds() {
        assert_eq!(decay(0), Num::ONE);
        assert_eq!(decay(300), Num::ONE >> 1);
        assert_eq!(decay(600), Num::ONE >> 2);
        // 2^(-1/2) = 0.70710678...
        let half = decay(150);
        assert!((half - Num::lit("0.7071067811865476")).abs() < Num::lit("0.00000001"));
        assert_eq!(decay(12_000), Num::ZERO);
    }

    #[test]
    fn seed_text_examples_33_20_and_10_seconds() {
        // "刚被占领时 33 秒; 占领 25 秒后 20 秒; 占领 60 秒后 10 秒" (Skirmish: no factors).
        assert_eq!(attack_ticks(Variant::Skirmish, true, 0, 1, Num::ZERO), 330);
        // 3 + 30 * 2^(-25/30) = 19.84 s -> 199 ticks
        assert_eq!(
            attack_ticks(Variant::Skirmish, true, 250, 1, Num::ZERO),
            199
        );
        // 3 + 30 / 4 = 10.5 s -> 105 ticks
        assert_eq!(
            attack_ticks(Variant::Skirmish, true, 600, 1, Num::ZERO),
            105
        );
        assert_eq!(attack_ticks(Variant::Skirmish, false, 0, 1, Num::ZERO), 20);
    }

    #[test]
    fn surround_factor_quarters() {
        let e = Num::ZERO;
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 0, e), 20);
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 1, e), 20);
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 2, e), 15);
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 3, e), 10);
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 4, e), 5);
    }

    #[test]
    fn energy_factor_divides_by_one_plus_energy_over_200() {
        // 2 s / 1.5 = 1.333 s -> 14 ticks
        let full = Num::const_from_int(100);
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 1, full), 14);
        // Skirmish ignores energy.
        assert_eq!(attack_ticks(Variant::Skirmish, false, 0, 4, full), 20);
    }
}
