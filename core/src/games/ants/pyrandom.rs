//! CPython's `random` module, draw for draw, without floats.
//!
//! The official Ants engine takes every random decision (food parameters, symmetry, food order,
//! spawn tie-breaks, the per-turn shuffle of the bot list) from CPython's global MT19937. Bit-exact
//! games need the same generator seeded the same way and the same *consumers* (`_randbelow`,
//! `shuffle`, `choice`, `randrange`, `random`) drawing the same words in the same order.
//! `random()` is a double in CPython; here it is the exact 53-bit integer it is built from
//! (`value / 2^53`), so comparisons stay in integers and give the same order.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// CPython's `random.Random`: MT19937 with CPython's seeding and consumers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl PyRandom {
    /// An unseeded generator (all zero state), only as a placeholder.
    pub const fn blank() -> PyRandom {
        PyRandom {
            mt: [0; N],
            index: N,
        }
    }

    /// `random.seed(seed)` for an integer seed. CPython seeds with `abs(seed)`, so a negative
    /// Python seed is given here as its absolute value.
    pub fn new(seed: u64) -> PyRandom {
        let mut rng = PyRandom::blank();
        rng.seed(seed);
        rng
    }

    /// [`PyRandom::new`] in place (the state is 2.5 KB: a board does not build it twice).
    pub fn seed(&mut self, seed: u64) {
        let lo = seed as u32;
        let hi = (seed >> 32) as u32;
        if hi == 0 {
            self.seed_key(&[lo]);
        } else {
            self.seed_key(&[lo, hi]);
        }
    }

    fn init_genrand(mt: &mut [u32; N], s: u32) {
        let mut prev = s;
        for (i, w) in mt.iter_mut().enumerate() {
            if i > 0 {
                prev = 1_812_433_253u32
                    .wrapping_mul(prev ^ (prev >> 30))
                    .wrapping_add(i as u32);
            }
            *w = prev;
        }
    }

    /// `init_by_array`: how CPython seeds from an integer's 32-bit words (least significant first).
    pub fn from_key(key: &[u32]) -> PyRandom {
        let mut rng = PyRandom::blank();
        rng.seed_key(key);
        rng
    }

    /// [`PyRandom::from_key`] in place.
    fn seed_key(&mut self, key: &[u32]) {
        let mt = &mut self.mt;
        PyRandom::init_genrand(mt, 19_650_218);
        let mut i = 1usize;
        let mut j = 0usize;
        let len = key.len().max(1);
        let mut k = N.max(len);
        // `mt[i - 1]` is always the word written last (`mt[0]` is a copy of `mt[N - 1]` after a
        // wrap), so it is carried in `prev`; `i` stays in `1..N`, so every `get_mut` hits.
        let mut prev = mt.first().copied().unwrap_or(0);
        while k > 0 {
            let word = key.get(j).copied().unwrap_or(0);
            if let Some(w) = mt.get_mut(i) {
                *w = (*w ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                    .wrapping_add(word)
                    .wrapping_add(j as u32);
                prev = *w;
            }
            i = i.saturating_add(1);
            j = j.saturating_add(1);
            if i >= N {
                if let Some(first) = mt.first_mut() {
                    *first = prev;
                }
                i = 1;
            }
            if j >= len {
                j = 0;
            }
            k = k.saturating_sub(1);
        }
        k = N - 1;
        while k > 0 {
            if let Some(w) = mt.get_mut(i) {
                *w =
                    (*w ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
                prev = *w;
            }
            i = i.saturating_add(1);
            if i >= N {
                if let Some(first) = mt.first_mut() {
                    *first = prev;
                }
                i = 1;
            }
            k = k.saturating_sub(1);
        }
        if let Some(first) = mt.first_mut() {
            *first = 0x8000_0000;
        }
        self.index = N;
    }

    fn twist(&mut self) {
        // `kk + 1` and `kk + M`, modulo N, as counters: no index arithmetic, every index < N.
        let next = (1..N).chain(0..1);
        let far = (M..N).chain(0..M);
        for ((kk, k1), km) in (0..N).zip(next).zip(far) {
            let word = |i: usize| self.mt.get(i).copied().unwrap_or(0);
            let y = (word(kk) & UPPER_MASK) | (word(k1) & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            let v = word(km) ^ (y >> 1) ^ mag;
            if let Some(w) = self.mt.get_mut(kk) {
                *w = v;
            }
        }
        self.index = 0;
    }

    /// The whole generator state, for digests.
    pub fn state_words(&self) -> impl Iterator<Item = u32> + '_ {
        self.mt
            .iter()
            .copied()
            .chain(core::iter::once(self.index as u32))
    }

    /// `genrand_uint32`: one tempered 32-bit word.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt.get(self.index).copied().unwrap_or(0);
        self.index = self.index.saturating_add(1);
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `getrandbits(k)` for `1 <= k <= 32` (one word, its top `k` bits); `0` draws nothing.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        if k == 0 {
            return 0;
        }
        self.next_u32() >> 32u32.saturating_sub(k)
    }

    /// `_randbelow(n)`: rejection sampling on `n.bit_length()` bits (one draw at least, even for
    /// `n == 1`). `n == 0` (an error in CPython) gives 0 without drawing.
    pub fn randbelow(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let k = u32::BITS.saturating_sub(n.leading_zeros());
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `randrange(lo, hi)` (half-open, step 1); `lo` for an empty range (CPython raises).
    pub fn randrange(&mut self, lo: i64, hi: i64) -> i64 {
        let width = hi.saturating_sub(lo);
        if width <= 0 {
            return lo;
        }
        let w = u32::try_from(width).unwrap_or(u32::MAX);
        lo.saturating_add(self.randbelow(w) as i64)
    }

    /// `random()` as the 53-bit integer `a * 2^26 + b`; the double is this over `2^53`.
    pub fn random53(&mut self) -> u64 {
        let a = (self.next_u32() >> 5) as u64;
        let b = (self.next_u32() >> 6) as u64;
        (a << 26) | b
    }

    /// `choice(seq)` as an index: `_randbelow(len)`. `None` for an empty sequence (CPython raises).
    pub fn choice(&mut self, len: usize) -> Option<usize> {
        if len == 0 {
            return None;
        }
        Some(self.randbelow(u32::try_from(len).unwrap_or(u32::MAX)) as usize)
    }

    /// `shuffle(x)` over `len` items: Fisher-Yates from the end, `swap(i, j)` for each
    /// `j = _randbelow(i + 1)`, `i = len-1 .. 1`.
    pub fn shuffle_with(&mut self, len: usize, mut swap: impl FnMut(usize, usize)) {
        let mut i = len;
        while i > 1 {
            let bound = u32::try_from(i).unwrap_or(u32::MAX);
            i = i.saturating_sub(1);
            let j = self.randbelow(bound) as usize;
            swap(i, j);
        }
    }

    /// `shuffle(x)` of a slice.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.shuffle_with(items.len(), |i, j| items.swap(i, j));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn seeded_words_match_cpython() {
        // python3.11 -c "import random; random.seed(7); print([random.getrandbits(32) for _ in range(3)])"
        let mut r = PyRandom::new(7);
        assert_eq!(
            [r.next_u32(), r.next_u32(), r.next_u32()],
            [1390851128, 4071050724, 647892279]
        );
        // ... for _ in range(700)][-3:]: crosses the first re-twist.
        let mut r = PyRandom::new(7);
        let words: [u32; 700] = core::array::from_fn(|_| r.next_u32());
        assert_eq!(words[697..], [1155017299, 4030181318, 72291700]);
    }

    #[test]
    fn seeds_use_abs_and_32_bit_words() {
        // random.seed(0), random.seed(2**40+5), random.seed(-11): two getrandbits(32) each.
        let mut r = PyRandom::new(0);
        assert_eq!([r.next_u32(), r.next_u32()], [3626764237, 1654615998]);
        let mut r = PyRandom::new((1 << 40) + 5);
        assert_eq!([r.next_u32(), r.next_u32()], [2166296868, 2220160828]);
        let mut r = PyRandom::new(11);
        assert_eq!([r.next_u32(), r.next_u32()], [1942955373, 3718334796]);
    }

    #[test]
    fn random_is_the_53_bit_integer() {
        // random.seed(7); print(int(random.random()*2**53), int(random.random()*2**53))
        let mut r = PyRandom::new(7);
        assert_eq!(r.random53(), 2916826238065975);
        assert_eq!(r.random53(), 1358728566951068);
    }

    #[test]
    fn randrange_draws_the_food_parameters() {
        // random.seed(7); [randrange(5,12), randrange(19,38), randrange(75,176), randrange(3,6)]
        let mut r = PyRandom::new(7);
        let got = [
            r.randrange(5, 12),
            r.randrange(19, 38),
            r.randrange(75, 176),
            r.randrange(3, 6),
        ];
        assert_eq!(got, [7, 23, 125, 5]);
        // random.seed(5); [randrange(0,1000) for _ in range(5)], [getrandbits(5) for _ in range(3)]
        let mut r = PyRandom::new(5);
        let got: [i64; 5] = core::array::from_fn(|_| r.randrange(0, 1000));
        assert_eq!(got, [637, 261, 759, 367, 814]);
        let bits: [u32; 3] = core::array::from_fn(|_| r.getrandbits(5));
        assert_eq!(bits, [22, 30, 26]);
    }

    #[test]
    fn choice_of_one_still_draws() {
        // random.seed(7); [choice([0]) for _ in range(3)], getrandbits(32) -> [0,0,0] 2795742288
        let mut r = PyRandom::new(7);
        for _ in 0..3 {
            assert_eq!(r.choice(1), Some(0));
        }
        assert_eq!(r.next_u32(), 2795742288);
        assert_eq!(r.choice(0), None);
    }

    #[test]
    fn shuffle_matches_cpython() {
        // l=list(range(10)); random.seed(3); random.shuffle(l); print(l)
        let mut r = PyRandom::new(3);
        let mut l = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        r.shuffle(&mut l);
        assert_eq!(l, [1, 5, 6, 0, 9, 4, 7, 2, 8, 3]);
    }
}
