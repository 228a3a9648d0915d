//! Attack durations, exactly.
//!
//! The reference server computed `3 + 30 * 2^(-x/30)`, the surround factor and the energy factor in
//! double precision and compared wall-clock times. We need the same whole number of 100 ms ticks on
//! every target, without floats: `ceil(10 t)` of the real-valued formula (rules, decision 8),
//! including cells taken long ago, where `2^(-x/30)` is far below any fixed-point resolution, and
//! energies that make `10 t` a whole number plus a tiny amount.
//!
//! ## How
//! With `d = 2^(-age/300)`, every duration is `10 t = (3 + 30 d) * num / den` for integers `num`
//! and `den` (Conquest: `num = 500 q 2^32`, `den = (200 + energy) 2^32`, `q` the surround factor
//! in quarters, energy an exact `I32F32`; Skirmish: `num = 10`, `den = 1`), or `2 * num / den` for
//! an empty cell. Write `age = 300 k + r`, so `d = 2^-k * 2^(-r/300)`.
//! - `r = 0`: `d = 2^-k` is exact, and so is the whole computation (integers up to 2^117).
//! - `k >= 48`: `30 d num < 1` for every `num` above, so `(3 num + 30 d num) / den` lies strictly
//!   between `3 num / den` and `(3 num + 1) / den`, and its ceiling is `floor(3 num / den) + 1`.
//! - otherwise `2^(-r/300)` is computed to 64 bits (square-and-multiply of a 64-bit constant,
//!   rounded down, proven within `ERR64` units of the last place) and `10 t` is bracketed; when
//!   the bracket holds a whole number `m` (the value is within about 10^-14 of `m`; no input of
//!   the rules' test grid comes this close), the question "is `10 t <= m`?" becomes "is
//!   `2^(-r/300) <= a / b`?" for integers `a`, `b` (`decide`), answered to 128 bits; only a
//!   value within 2^-110 of `m` would still be undecided, and it is rounded up: never a tick short.
//!
//! The tests compare this with an exact evaluation (integer n-th roots, in the test crate) for
//! every age up to 12,000 ticks, every neighbour count and energies 0, 0.5, ..., 100.

use super::Variant;
use fixed::types::I32F32;

/// Every fractional quantity of the game (gold, energy, factors): 32 integer and 32 fraction bits.
pub type Num = I32F32;

/// Ticks per halving of the decay term: 30 s.
const HALF_LIFE_TICKS: u32 = 300;
/// `2^(-1/300)`, rounded down, to 64 and to 128 fraction bits.
const C64: u64 = 0xff68_c125_a89b_955b;
const C128: u128 = 0xff68_c125_a89b_955b_2cec_5e89_7ba6_41e0;
/// How far below `2^(-r/300)` [`pow64`] may be, in units of 2^-64 (a bound of about 340 by the
/// error analysis in `pow64`, with room to spare); [`pow128`] likewise in units of 2^-128.
const ERR64: u64 = 1 << 10;
const ERR128: u128 = 1 << 10;
/// From this many halvings on, `30 d num < 1` (see the module docs).
const TINY_HALVINGS: u32 = 48;
/// Energies above this count as this: the duration is a single tick either way.
const MAX_ENERGY_BITS: i64 = 1 << 52;

/// `a * b` for fractions of 2^64 (both below 1), rounded down.
fn mul64(a: u64, b: u64) -> u64 {
    // Below 2^128: cannot overflow.
    (u128::from(a).wrapping_mul(u128::from(b)) >> 64) as u64
}

/// `a * b` for fractions of 2^128 (both below 1), rounded down: the high half of the 256-bit
/// product, from four 64-bit products.
fn mul128(a: u128, b: u128) -> u128 {
    const LO: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & LO);
    let (b1, b0) = (b >> 64, b & LO);
    // Each product of two halves is below 2^128; the sums below stay under 2^128 because the
    // full product is below 2^256.
    let low = a0.wrapping_mul(b0);
    let mid1 = a1.wrapping_mul(b0);
    let mid2 = a0.wrapping_mul(b1);
    let carry = (low >> 64).wrapping_add(mid1 & LO).wrapping_add(mid2 & LO);
    a1.wrapping_mul(b1)
        .wrapping_add(mid1 >> 64)
        .wrapping_add(mid2 >> 64)
        .wrapping_add(carry >> 64)
}

/// `2^(-r/300)` for `r` in `1..300`, as a fraction of 2^64 rounded down, at most [`ERR64`] below.
///
/// Every step rounds down, so the result is a lower bound. The 64-bit constant is at most 1 unit
/// (relative 2^-64) low, so its `r`-th power is at most `r * 2^-64 <= 300 * 2^-64` low, relatively;
/// the at most 18 products each lose at most one unit of values above 1/2 (relative `2^-63`).
/// Together below `2^-55.6`: 340 units.
fn pow64(r: u32) -> u64 {
    power(C64, r, mul64).unwrap_or(u64::MAX)
}

/// [`pow64`] to 128 bits: at most [`ERR128`] units of 2^-128 below `2^(-r/300)`.
fn pow128(r: u32) -> u128 {
    power(C128, r, mul128).unwrap_or(u128::MAX)
}

/// `base` to the `r`-th power by squaring with the fixed-point `mul` (`None` for `r = 0`: the
/// caller's 1 is its type's maximum, just under 1).
#[inline]
fn power<T: Copy>(mut base: T, r: u32, mul: fn(T, T) -> T) -> Option<T> {
    let mut acc: Option<T> = None;
    let mut e = r;
    while e > 0 {
        if e & 1 == 1 {
            acc = Some(acc.map_or(base, |a| mul(a, base)));
        }
        e >>= 1;
        if e > 0 {
            base = mul(base, base);
        }
    }
    acc
}

/// `floor(n / d)` and `ceil(n / d)` (0 for `d = 0`, which no caller passes).
fn div_floor(n: u128, d: u128) -> u128 {
    n.checked_div(d).unwrap_or(0)
}
fn div_ceil(n: u128, d: u128) -> u128 {
    let q = div_floor(n, d);
    if n.checked_rem(d).unwrap_or(0) == 0 {
        q
    } else {
        q.saturating_add(1)
    }
}

/// Whether `2^(-r/300) <= a / b` (`r` in `1..300`, `0 < a < b`, `b < 2^126`): `a / b` to 128
/// bits by long division against [`pow128`]. `None` when the two are within 2^-118 (undecided).
fn decide(r: u32, a: u128, b: u128) -> Option<bool> {
    let mut rem = a;
    let mut q: u128 = 0;
    for _ in 0..128 {
        // rem < b < 2^126: doubling cannot overflow.
        rem <<= 1;
        q <<= 1;
        if rem >= b {
            rem = rem.wrapping_sub(b);
            q |= 1;
        }
    }
    // a / b is in [q, q + 1) units of 2^-128; 2^(-r/300) in [low, low + ERR128].
    let low = pow128(r);
    if low.saturating_add(ERR128) <= q {
        Some(true)
    } else if low > q {
        Some(false)
    } else {
        None
    }
}

/// `ceil((3 + 30 * 2^(-age/300)) * num / den)` exactly (see the module docs).
/// `num <= 2^43`, `1 <= den <= 2^53`.
fn owned_ceil(age: u32, num: u128, den: u128) -> u128 {
    let k = age / HALF_LIFE_TICKS;
    let r = age % HALF_LIFE_TICKS;
    let three = num.wrapping_mul(3);
    if k >= TINY_HALVINGS {
        return div_floor(three, den).saturating_add(1);
    }
    // 10 t = S * num / (den * 2^64), S = (3 + 30 d) 2^64, bracketed by [s_lo, s_hi].
    let big_den = den << 64;
    let (d_lo, d_hi) = if r == 0 {
        let d = (1u128 << 64) >> k;
        (d, d)
    } else {
        let low = u128::from(pow64(r));
        (
            low >> k,
            (low.wrapping_add(u128::from(ERR64)) >> k).wrapping_add(1),
        )
    };
    // S < 2^70 and num <= 2^43: the products stay below 2^113.
    let s = |d: u128| (3u128 << 64).wrapping_add(d.wrapping_mul(30));
    let m_lo = div_ceil(s(d_lo).wrapping_mul(num), big_den);
    let m_hi = div_ceil(s(d_hi).wrapping_mul(num), big_den);
    if m_lo == m_hi || r == 0 {
        return m_hi;
    }
    // Is 10 t <= m_lo, that is 30 num d <= m_lo den - 3 num, that is 2^(-r/300) <= a / b?
    let a = m_lo.saturating_mul(den).checked_sub(three);
    match a {
        // 10 t > 3 num / den >= m_lo.
        None | Some(0) => m_lo.saturating_add(1),
        Some(a) => {
            // a <= m_lo den <= 33 num + den < 2^54 and k < 48: a 2^k < 2^102; b = 30 num < 2^48.
            let a = a << k;
            let b = num.wrapping_mul(30);
            if a >= b {
                // a / b >= 1 > 2^(-r/300).
                return m_lo;
            }
            match decide(r, a, b) {
                Some(true) => m_lo,
                // Beyond m_lo, and below m_hi <= m_lo + 1: the bracket is narrower than a tick.
                Some(false) | None => m_lo.saturating_add(1),
            }
        }
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

/// The duration of an attack in ticks: `ceil(10 * t)` of the real-valued formula, exactly, at least 1.
///
/// Conquest: `t = base * surround / (1 + energy / 200)`; Skirmish: `t = base`. Negative energy
/// counts as 0; energy above 2^20 as 2^20 (the rules cap it at 100; from 2^20 on the duration is
/// one tick either way).
pub fn attack_ticks(variant: Variant, owned: bool, age: u32, adjacent: u8, energy: Num) -> u32 {
    let (num, den): (u128, u128) = match variant {
        Variant::Skirmish => (10, 1),
        Variant::Conquest => {
            let e = energy.to_bits().clamp(0, MAX_ENERGY_BITS) as u128;
            let q = surround_quarters(adjacent) as u128;
            (q.wrapping_mul(500) << 32, (200u128 << 32).wrapping_add(e))
        }
    };
    let tenths = if owned {
        owned_ceil(age, num, den)
    } else {
        div_ceil(num.wrapping_mul(2), den)
    };
    u32::try_from(tenths).unwrap_or(u32::MAX).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constant_is_the_300th_root_of_one_half() {
        // c^300 = 1/2 to within the proven error.
        let half_64 = 1u64 << 63;
        let p = pow64(299);
        let c300 = mul64(p, C64);
        assert!(c300 <= half_64 && half_64 - c300 <= 2 * ERR64, "{c300:x}");
        let p = pow128(299);
        let c300 = mul128(p, C128);
        let half_128 = 1u128 << 127;
        assert!(
            c300 <= half_128 && half_128 - c300 <= 2 * ERR128,
            "{c300:x}"
        );
        // The 64-bit powers are the top of the 128-bit ones.
        for r in 1..300 {
            let hi = (pow128(r) >> 64) as u64;
            let lo = pow64(r);
            assert!(
                lo <= hi.saturating_add(1) && hi.saturating_sub(lo) <= ERR64,
                "r = {r}"
            );
        }
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
    fn old_cells_take_one_tick_more_than_the_bare_three_seconds() {
        // Issue #17: a cell 9,601 ticks old took 30 ticks (the decay term had vanished); the exact
        // value is 30.00000007, so 31.
        assert_eq!(
            attack_ticks(Variant::Skirmish, true, 9_600, 1, Num::ZERO),
            31
        );
        assert_eq!(
            attack_ticks(Variant::Skirmish, true, 9_601, 1, Num::ZERO),
            31
        );
        assert_eq!(
            attack_ticks(Variant::Skirmish, true, u32::MAX, 1, Num::ZERO),
            31
        );
        // Conquest at energy 100 with 4 neighbours: 3 s * 1/4 / 1.5 = 0.5 s plus a little: 6.
        let full = Num::const_from_int(100);
        assert_eq!(attack_ticks(Variant::Conquest, true, 11_999, 4, full), 6);
        assert_eq!(attack_ticks(Variant::Conquest, true, 12_000, 4, full), 6);
        // Energy 0, 1 neighbour: 30 ticks plus a little.
        assert_eq!(
            attack_ticks(Variant::Conquest, true, 20_000, 1, Num::ZERO),
            31
        );
    }

    #[test]
    fn exact_multiples_of_the_half_life_are_exact() {
        // Age 30 s: base 3 + 15 = 18 s exactly; with 2 neighbours 13.5 s = 135 ticks, not 136.
        assert_eq!(
            attack_ticks(Variant::Conquest, true, 300, 2, Num::ZERO),
            135
        );
        // Age 60 s, energy 100, 1 neighbour: 10.5 / 1.5 = 7 s exactly = 70 ticks.
        let full = Num::const_from_int(100);
        assert_eq!(attack_ticks(Variant::Conquest, true, 600, 1, full), 70);
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
        // Out-of-range energies: negative counts as 0, huge as one tick.
        assert_eq!(attack_ticks(Variant::Conquest, false, 0, 1, -full), 20);
        assert_eq!(attack_ticks(Variant::Conquest, true, 0, 1, Num::MAX), 1);
    }

    /// `owned_ceil`'s first bracket, `[m_lo, m_hi]` from the 64-bit power (as in `owned_ceil`).
    fn first_bracket(age: u32, num: u128, den: u128) -> (u128, u128) {
        let (k, r) = (age / HALF_LIFE_TICKS, age % HALF_LIFE_TICKS);
        let low = u128::from(pow64(r));
        let s = |d: u128| ((3u128 << 64) + 30 * d) * num;
        let (d_lo, d_hi) = (low >> k, ((low + u128::from(ERR64)) >> k) + 1);
        (div_ceil(s(d_lo), den << 64), div_ceil(s(d_hi), den << 64))
    }

    #[test]
    fn durations_a_hair_from_a_whole_tick_are_decided_exactly() {
        // Conquest inputs whose `10 t` lies within about 10^-14 of a whole number, so close that
        // the 64-bit bracket holds it (`m_lo != m_hi`) and the 128-bit comparison decides. Found
        // by a search over ages 1..3,000, every surround factor and the energies either side of
        // each whole `10 t` up to 40; the ticks are `ceil(10 t)` from the integer 300th root of
        // `2^(300 * 240 - r)` (`2^(-r/300)` to 240 bits, Python's exact integers), the method of
        // `host/tests/all/colorfight_rounding.rs`. Of the 42 found, 40 land just below the whole
        // number (the answer is `m_lo`) and 2 just above (`m_lo + 1`).
        // (age, surround quarters, energy bits, ticks)
        let cases: [(u32, u8, i64, u32); 7] = [
            // First half-life (k = 0), just below 2, 5 and 10.
            (212, 1, 22_099_782_823_835, 2),
            (212, 1, 8_324_517_054_014, 5),
            (212, 2, 45_058_559_106_870, 2),
            // Second half-life (k = 1): the comparison scales `a` by 2^k.
            (512, 2, 25_321_008_295_835, 2),
            (512, 4, 20_085_007_944_828, 5),
            // Just above 2 and 13: one tick more.
            (258, 4, 83_015_604_968_577, 3),
            (558, 4, 6_584_045_026_629, 14),
        ];
        for (age, quarters, e, ticks) in cases {
            let (num, den) = (
                (u128::from(quarters) * 500) << 32,
                (200u128 << 32) + e as u128,
            );
            let (m_lo, m_hi) = first_bracket(age, num, den);
            assert_eq!(
                m_hi,
                m_lo + 1,
                "age {age}: the bracket holds no whole number"
            );
            let adjacent = 5 - quarters;
            assert_eq!(surround_quarters(adjacent), i64::from(quarters));
            assert_eq!(
                attack_ticks(Variant::Conquest, true, age, adjacent, Num::from_bits(e)),
                ticks,
                "age {age}, {quarters}/4, energy bits {e}"
            );
        }
    }

    #[test]
    fn the_long_division_decides_both_ways() {
        // 2^(-150/300) = 0.7071067811865475244...; 7071067811865475 / 10^16 is just below it,
        // 7071067811865476 / 10^16 just above.
        let b = 10_000_000_000_000_000u128;
        assert_eq!(decide(150, 7_071_067_811_865_475, b), Some(false));
        assert_eq!(decide(150, 7_071_067_811_865_476, b), Some(true));
    }
}
