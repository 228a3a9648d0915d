//! Seats: who sits at the table, and sets of them.
//!
//! A seat is a plain index (`0..seats`). Sets of seats are a bitmask so that "who moves now" costs
//! nothing to pass around and is the same on every target.

/// A seat at the table, `0..Game::seats()`.
pub type Seat = usize;

/// The largest table any game has (official maps go up to 10 players).
pub const MAX_SEATS: usize = 10;

/// A set of seats, as a bitmask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SeatSet(u16);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Every seat of a table of `n` (simultaneous games). `n` is capped at [`MAX_SEATS`].
    pub const fn all(n: usize) -> SeatSet {
        let n = if n > MAX_SEATS { MAX_SEATS } else { n };
        // n <= MAX_SEATS: the shift fits and the subtraction cannot wrap.
        SeatSet((1u32 << n).wrapping_sub(1) as u16)
    }

    /// Only `seat` (sequential games). A seat out of range gives the empty set.
    pub const fn only(seat: Seat) -> SeatSet {
        if seat < MAX_SEATS {
            SeatSet(1 << seat)
        } else {
            SeatSet::EMPTY
        }
    }

    pub const fn contains(self, seat: Seat) -> bool {
        seat < MAX_SEATS && self.0 & (1 << seat) != 0
    }

    #[must_use]
    pub const fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | SeatSet::only(seat).0)
    }

    #[must_use]
    pub const fn without(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 & !SeatSet::only(seat).0)
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..MAX_SEATS).filter(move |&s| self.contains(s))
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
    }
}
