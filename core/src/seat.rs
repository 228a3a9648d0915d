//! Seats: who sits at the table, and sets of them.
//!
//! A seat is a plain index (`0..seats`). Sets of seats are a bitmask so that "who moves now" costs
//! nothing to pass around and is the same on every target.

/// A seat at the table, `0..Game::seats()`.
pub type Seat = usize;

/// The largest table any game has (official maps go up to 10 players).
pub const MAX_SEATS: usize = 10;

/// The membership operations of a set kept as a bitmask in its field `.0`, one bit per member:
/// `EMPTY`, `only`, `contains`, `with`, `without`, `len`, `is_empty`. `$member => $index` names
/// a member and its bit (`tile => tile as usize`); members at `$cap` and above are in no set.
macro_rules! bit_set_ops {
    ($Set:ident, $Item:ty, $member:ident => $index:expr, $cap:expr) => {
        /// The empty set.
        pub const EMPTY: $Set = $Set(0);

        /// Only this member; the empty set for one out of range.
        pub const fn only($member: $Item) -> $Set {
            if $index < $cap {
                $Set(1 << $member)
            } else {
                $Set::EMPTY
            }
        }

        /// Whether the member is in the set.
        pub const fn contains(self, $member: $Item) -> bool {
            $index < $cap && self.0 & (1 << $member) != 0
        }

        #[must_use]
        /// The set with this member added (unchanged for one out of range).
        pub const fn with(self, $member: $Item) -> $Set {
            $Set(self.0 | $Set::only($member).0)
        }

        #[must_use]
        /// The set without this member.
        pub const fn without(self, $member: $Item) -> $Set {
            $Set(self.0 & !$Set::only($member).0)
        }

        /// How many members.
        pub const fn len(self) -> usize {
            self.0.count_ones() as usize
        }

        /// Whether the set has no member.
        pub const fn is_empty(self) -> bool {
            self.0 == 0
        }
    };
}
pub(crate) use bit_set_ops;

/// A set of seats, as a bitmask: every seat of a simultaneous game, or only the mover of a
/// sequential one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SeatSet(u16);

impl SeatSet {
    bit_set_ops!(SeatSet, Seat, seat => seat, MAX_SEATS);

    /// Every seat of a table of `n` (simultaneous games). `n` is capped at [`MAX_SEATS`].
    pub const fn all(n: usize) -> SeatSet {
        let n = if n > MAX_SEATS { MAX_SEATS } else { n };
        // n <= MAX_SEATS: the shift fits and the subtraction cannot wrap.
        SeatSet((1u32 << n).wrapping_sub(1) as u16)
    }

    /// The bitmask: bit `s` for seat `s`.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The seats in increasing order, a set bit at a time (testing each of the ten seats was
    /// about 150 instructions a step of a Python vector's match).
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        let mut bits = self.0 & SeatSet::all(MAX_SEATS).0;
        core::iter::from_fn(move || {
            let seat = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            (seat < MAX_SEATS).then_some(seat)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_only_and_iteration() {
        let s = SeatSet::all(4);
        assert_eq!(s.len(), 4);
        assert!(s.contains(3) && !s.contains(4));
        assert_eq!(SeatSet::only(2).iter().next(), Some(2));
        assert!(SeatSet::only(MAX_SEATS).is_empty());
        assert_eq!(SeatSet::all(99).len(), MAX_SEATS);
        assert_eq!(s.without(1).with(7).bits(), 0b1000_1101);
        let mut seen = [usize::MAX; MAX_SEATS + 1];
        let mut n = 0;
        for seat in SeatSet::EMPTY
            .with(9)
            .with(0)
            .with(5)
            .with(MAX_SEATS)
            .iter()
        {
            seen[n] = seat;
            n += 1;
        }
        assert_eq!(seen[..n], [0, 5, 9]);
        assert_eq!(SeatSet::EMPTY.iter().next(), None);
        assert_eq!(SeatSet::all(MAX_SEATS).iter().count(), MAX_SEATS);
        assert_eq!(SeatSet::all(MAX_SEATS).iter().last(), Some(MAX_SEATS - 1));
    }
}
