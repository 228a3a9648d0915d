//! The iteration order of a small CPython `set` of `(row, col)` tuples.
//!
//! The official engine builds each food set as `list(set([...]))`: which location comes first
//! decides the "too close" test and the order food is scheduled, so a bit-exact engine needs the
//! order CPython (3.8+, 64-bit) gives. Integers hash to themselves, tuples with the xxHash-style
//! `tuplehash`, and the set is an open-addressing table (8 slots, 9 linear probes, perturbed
//! re-probing, grown 4x when 3/5 full); iteration walks the slots. Only insertion happens here, so
//! that is all this models.

const XXPRIME_1: u64 = 11_400_714_785_074_694_791;
const XXPRIME_2: u64 = 14_029_467_366_897_019_727;
const XXPRIME_5: u64 = 2_870_177_450_012_600_261;
const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;
/// The largest table a set of up to 10 items reaches.
const MAX_TABLE: usize = 32;

/// `hash((row, col))` for non-negative ints below 2^61 - 1 (which hash to themselves).
pub fn tuple_hash(row: u64, col: u64) -> u64 {
    let mut acc = XXPRIME_5;
    for lane in [row, col] {
        acc = acc.wrapping_add(lane.wrapping_mul(XXPRIME_2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(XXPRIME_1);
    }
    acc = acc.wrapping_add(2 ^ (XXPRIME_5 ^ 3_527_539));
    if acc == u64::MAX {
        1_546_275_796
    } else {
        acc
    }
}

/// No item in a slot.
const EMPTY: u8 = u8::MAX;
/// Items a set holds at most (one location per player).
const MAX_ITEMS: usize = 10;

/// The table's slots hold indices into `items` (one byte a slot, so that setting a table up and
/// growing it move 32 bytes, not 32 entries).
struct Table {
    slots: [u8; MAX_TABLE],
    mask: usize,
    fill: usize,
    /// The distinct items added, with their hashes, in insertion order.
    items: [(u32, u32, u64); MAX_ITEMS],
}

impl Table {
    fn hash(&self, index: u8) -> u64 {
        self.items.get(index as usize).map_or(0, |i| i.2)
    }

    /// Puts an item known to be absent into the first free slot of its probe sequence.
    fn insert_clean(&mut self, index: u8) {
        let e = self.probe(self.hash(index), |slot| slot == EMPTY);
        if let Some(slot) = self.slots.get_mut(e) {
            *slot = index;
        }
    }

    /// `set_add_entry`: nothing happens when the item is already there.
    fn add(&mut self, row: u32, col: u32) {
        let hash = tuple_hash(row as u64, col as u64);
        let e = self.probe(hash, |index| {
            index == EMPTY
                || self
                    .items
                    .get(index as usize)
                    .is_some_and(|&(r, c, _)| r == row && c == col)
        });
        if self.slots.get(e) != Some(&EMPTY) {
            return;
        }
        // `fill` counts the items, at most MAX_ITEMS (the caller adds at most that).
        let new = self.fill as u8;
        if let Some(item) = self.items.get_mut(self.fill) {
            *item = (row, col, hash);
        }
        if let Some(slot) = self.slots.get_mut(e) {
            *slot = new;
        }
        self.fill = self.fill.saturating_add(1);
        if self.fill.saturating_mul(5) >= self.mask.saturating_mul(3) {
            self.resize(self.fill.saturating_mul(4));
        }
    }

    /// The first slot of `hash`'s probe sequence (CPython's: a few linear probes, then the
    /// perturbed jump) whose entry satisfies `stop`. The table always has an empty slot.
    #[inline]
    fn probe(&self, hash: u64, stop: impl Fn(u8) -> bool) -> usize {
        let mut perturb = hash;
        let mut i = (hash as usize) & self.mask;
        loop {
            // Indices stay below MAX_TABLE, so the saturating ops never saturate.
            let probes = if i.saturating_add(LINEAR_PROBES) <= self.mask {
                LINEAR_PROBES
            } else {
                0
            };
            for e in i..=i.saturating_add(probes) {
                if self.slots.get(e).is_some_and(|&slot| stop(slot)) {
                    return e;
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & self.mask;
        }
    }

    fn resize(&mut self, minused: usize) {
        let mut size = 8usize;
        while size <= minused {
            size <<= 1;
        }
        let size = size.min(MAX_TABLE);
        let old = self.slots;
        let old_len = self.mask.saturating_add(1);
        self.slots = [EMPTY; MAX_TABLE];
        self.mask = size.saturating_sub(1);
        for &index in old.iter().take(old_len) {
            if index != EMPTY {
                self.insert_clean(index);
            }
        }
    }
}

/// Writes into `out` the distinct items of `items` in the order `list(set(items))` gives in CPython.
/// Returns how many were written. At most 10 items are considered (a food set has one location per
/// player), and `out` should hold 10.
pub fn set_order(items: &[(u32, u32)], out: &mut [(u32, u32)]) -> usize {
    let mut t = Table {
        slots: [EMPTY; MAX_TABLE],
        mask: 7,
        fill: 0,
        items: [(0, 0, 0); MAX_ITEMS],
    };
    for &(r, c) in items.iter().take(MAX_ITEMS) {
        t.add(r, c);
    }
    let mut n = 0;
    for &index in t.slots.iter().take(t.mask.saturating_add(1)) {
        let Some(&(r, c, _)) = t.items.get(index as usize) else {
            continue;
        };
        if let Some(o) = out.get_mut(n) {
            *o = (r, c);
            n = n.saturating_add(1);
        }
    }
    n
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    const HASH_0_0: i64 = -8458139203682520985;
    const HASH_3_4: i64 = 1079245023883434373;
    const HASH_100_7: i64 = -2694504176585774457;
    // Produced by python3.11: random.seed(1); for n in 2..=10 (x3): items of random (r, c) in 0..200,
    // a duplicate in some; expected = list(set(items)).
    #[allow(clippy::type_complexity)]
    const CASES: &[(&[(u32, u32)], &[(u32, u32)])] = &[
        (&[(34, 145), (195, 16)], &[(34, 145), (195, 16)]),
        (&[(65, 30), (126, 194)], &[(65, 30), (126, 194)]),
        (
            &[(115, 120), (166, 97), (115, 120)],
            &[(166, 97), (115, 120)],
        ),
        (
            &[(53, 24), (124, 7), (99, 110)],
            &[(53, 24), (124, 7), (99, 110)],
        ),
        (
            &[(155, 195), (196, 0), (178, 114)],
            &[(196, 0), (155, 195), (178, 114)],
        ),
        (
            &[(68, 184), (58, 151), (26, 81), (68, 184)],
            &[(58, 151), (68, 184), (26, 81)],
        ),
        (
            &[(7, 5), (6, 166), (138, 2), (97, 175)],
            &[(138, 2), (7, 5), (6, 166), (97, 175)],
        ),
        (
            &[(55, 108), (185, 7), (135, 56), (195, 112)],
            &[(135, 56), (55, 108), (185, 7), (195, 112)],
        ),
        (
            &[(126, 141), (59, 88), (59, 173), (56, 194), (126, 141)],
            &[(126, 141), (59, 88), (59, 173), (56, 194)],
        ),
        (
            &[(117, 74), (5, 106), (142, 164), (25, 47), (161, 185)],
            &[(142, 164), (117, 74), (25, 47), (5, 106), (161, 185)],
        ),
        (
            &[(75, 30), (190, 85), (184, 182), (128, 108), (129, 171)],
            &[(129, 171), (184, 182), (75, 30), (128, 108), (190, 85)],
        ),
        (
            &[
                (48, 77),
                (72, 150),
                (127, 129),
                (100, 150),
                (8, 122),
                (48, 77),
            ],
            &[(127, 129), (48, 77), (8, 122), (100, 150), (72, 150)],
        ),
        (
            &[
                (62, 190),
                (103, 106),
                (170, 44),
                (93, 140),
                (179, 198),
                (172, 188),
            ],
            &[
                (93, 140),
                (62, 190),
                (179, 198),
                (170, 44),
                (103, 106),
                (172, 188),
            ],
        ),
        (
            &[
                (95, 22),
                (112, 169),
                (130, 27),
                (199, 41),
                (133, 100),
                (94, 125),
            ],
            &[
                (133, 100),
                (94, 125),
                (95, 22),
                (199, 41),
                (130, 27),
                (112, 169),
            ],
        ),
        (
            &[
                (187, 7),
                (120, 11),
                (78, 180),
                (157, 151),
                (148, 100),
                (165, 43),
                (187, 7),
            ],
            &[
                (187, 7),
                (78, 180),
                (148, 100),
                (157, 151),
                (120, 11),
                (165, 43),
            ],
        ),
        (
            &[
                (43, 128),
                (58, 3),
                (197, 51),
                (138, 140),
                (59, 103),
                (131, 88),
                (147, 90),
            ],
            &[
                (131, 88),
                (59, 103),
                (147, 90),
                (58, 3),
                (43, 128),
                (197, 51),
                (138, 140),
            ],
        ),
        (
            &[
                (117, 68),
                (168, 140),
                (155, 186),
                (1, 98),
                (189, 131),
                (33, 132),
                (199, 143),
            ],
            &[
                (33, 132),
                (117, 68),
                (1, 98),
                (155, 186),
                (189, 131),
                (168, 140),
                (199, 143),
            ],
        ),
        (
            &[
                (52, 109),
                (14, 123),
                (93, 145),
                (141, 51),
                (129, 105),
                (124, 91),
                (106, 88),
                (52, 109),
            ],
            &[
                (106, 88),
                (124, 91),
                (14, 123),
                (93, 145),
                (52, 109),
                (141, 51),
                (129, 105),
            ],
        ),
        (
            &[
                (0, 137),
                (138, 159),
                (156, 84),
                (117, 153),
                (7, 58),
                (162, 45),
                (140, 149),
                (46, 23),
            ],
            &[
                (140, 149),
                (46, 23),
                (156, 84),
                (162, 45),
                (7, 58),
                (0, 137),
                (117, 153),
                (138, 159),
            ],
        ),
        (
            &[
                (141, 65),
                (8, 172),
                (18, 21),
                (4, 115),
                (3, 193),
                (193, 71),
                (63, 68),
                (28, 159),
            ],
            &[
                (141, 65),
                (4, 115),
                (3, 193),
                (193, 71),
                (28, 159),
                (18, 21),
                (63, 68),
                (8, 172),
            ],
        ),
        (
            &[
                (47, 88),
                (74, 17),
                (42, 40),
                (65, 135),
                (43, 168),
                (69, 165),
                (182, 75),
                (116, 179),
                (47, 88),
            ],
            &[
                (182, 75),
                (69, 165),
                (47, 88),
                (74, 17),
                (43, 168),
                (116, 179),
                (42, 40),
                (65, 135),
            ],
        ),
        (
            &[
                (82, 127),
                (121, 29),
                (6, 79),
                (98, 87),
                (107, 48),
                (66, 27),
                (64, 186),
                (130, 53),
                (155, 110),
            ],
            &[
                (155, 110),
                (6, 79),
                (121, 29),
                (107, 48),
                (98, 87),
                (64, 186),
                (130, 53),
                (82, 127),
                (66, 27),
            ],
        ),
        (
            &[
                (5, 57),
                (4, 101),
                (37, 9),
                (184, 41),
                (114, 180),
                (129, 173),
                (109, 139),
                (56, 161),
                (177, 132),
            ],
            &[
                (184, 41),
                (37, 9),
                (56, 161),
                (177, 132),
                (114, 180),
                (129, 173),
                (4, 101),
                (5, 57),
                (109, 139),
            ],
        ),
        (
            &[
                (115, 57),
                (134, 166),
                (7, 101),
                (172, 147),
                (82, 168),
                (161, 109),
                (15, 188),
                (76, 32),
                (54, 12),
                (115, 57),
            ],
            &[
                (15, 188),
                (134, 166),
                (54, 12),
                (172, 147),
                (115, 57),
                (161, 109),
                (76, 32),
                (7, 101),
                (82, 168),
            ],
        ),
        (
            &[
                (78, 18),
                (19, 79),
                (76, 190),
                (40, 106),
                (144, 64),
                (33, 2),
                (143, 9),
                (151, 55),
                (145, 117),
                (43, 199),
            ],
            &[
                (145, 117),
                (151, 55),
                (40, 106),
                (76, 190),
                (144, 64),
                (33, 2),
                (78, 18),
                (43, 199),
                (19, 79),
                (143, 9),
            ],
        ),
        (
            &[
                (180, 159),
                (130, 9),
                (96, 51),
                (88, 25),
                (52, 146),
                (172, 110),
                (151, 49),
                (126, 26),
                (170, 99),
                (75, 129),
            ],
            &[
                (75, 129),
                (172, 110),
                (151, 49),
                (130, 9),
                (88, 25),
                (170, 99),
                (96, 51),
                (180, 159),
                (126, 26),
                (52, 146),
            ],
        ),
        (
            &[
                (127, 4),
                (83, 156),
                (102, 72),
                (4, 40),
                (51, 83),
                (144, 34),
                (86, 109),
                (54, 68),
                (172, 24),
                (97, 140),
                (127, 4),
            ],
            &[
                (51, 83),
                (127, 4),
                (102, 72),
                (97, 140),
                (4, 40),
                (86, 109),
                (144, 34),
                (83, 156),
                (172, 24),
                (54, 68),
            ],
        ),
    ];

    fn order(items: &[(u32, u32)]) -> heapless::Vec<(u32, u32), 10> {
        let mut out = [(0, 0); 10];
        let n = set_order(items, &mut out);
        out[..n].iter().copied().collect()
    }

    #[test]
    fn tuple_hash_matches_cpython() {
        // python3.11 -c "print(hash((0,0)), hash((3,4)), hash((100,7)))" (as unsigned 64-bit)
        assert_eq!(tuple_hash(0, 0) as i64, HASH_0_0);
        assert_eq!(tuple_hash(3, 4) as i64, HASH_3_4);
        assert_eq!(tuple_hash(100, 7) as i64, HASH_100_7);
    }

    #[test]
    fn set_order_matches_cpython() {
        for (items, expected) in CASES {
            assert_eq!(order(items).as_slice(), *expected, "list(set({items:?}))");
        }
    }
}
