//! What a turn costs on the board, and the min/median/max over a match.
//!
//! The unit is the board's: cycles from DWT CYCCNT on a real Cortex-M, instructions under QEMU
//! `-icount shift=0` (where SysTick counts instructions and CYCCNT reads 0). Only the game's step and
//! the bots' decisions are inside the measurement, never drawing or logging.

/// A board's turn clock: a free-running counter read before and after each turn.
pub trait TurnClock {
    /// The counter now, in the board's unit; it may wrap (differences use wrapping arithmetic).
    fn now(&mut self) -> u32;
    /// The cost between two readings (a down-counter or a narrow counter overrides this).
    fn elapsed(&self, start: u32, end: u32) -> u32 {
        end.wrapping_sub(start)
    }
}

/// A clock that costs nothing and measures nothing (the host, when only digests matter).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl TurnClock for NoClock {
    fn now(&mut self) -> u32 {
        0
    }
}

/// How many turn costs a match keeps for its median. When the buffer is full, every other sample
/// is dropped and from then on only every other turn is kept (then every fourth...): the median is
/// over a sample spread evenly across the whole match, in bounded memory (min, max and total
/// still see every turn).
pub const KEPT_TURNS: usize = 256;

/// Per-turn costs of one match.
#[derive(Clone, Debug)]
pub struct CostStats {
    kept: heapless::Vec<u32, KEPT_TURNS>,
    /// Keep the turns whose index is a multiple of `stride` (a power of two).
    stride: u32,
    turns: u32,
    min: u32,
    max: u32,
    total: u64,
}

impl Default for CostStats {
    fn default() -> Self {
        Self::new()
    }
}

/// The figures a match reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CostSummary {
    /// Turns counted.
    pub turns: u32,
    /// The cheapest turn.
    pub min: u32,
    /// The median turn (of the samples kept).
    pub median: u32,
    /// The 99th percentile (nearest rank, of the samples kept).
    pub p99: u32,
    /// The dearest turn.
    pub max: u32,
    /// All turns together.
    pub total: u64,
}

impl CostStats {
    /// No turn counted yet.
    pub const fn new() -> Self {
        CostStats {
            kept: heapless::Vec::new(),
            stride: 1,
            turns: 0,
            min: u32::MAX,
            max: 0,
            total: 0,
        }
    }

    /// Counts one turn's cost.
    pub fn record(&mut self, cost: u32) {
        if self.turns.is_multiple_of(self.stride) {
            if self.kept.is_full() {
                // Keep samples 0, 2, 4...: the turns that are multiples of the doubled stride.
                let mut w = 0;
                for r in (0..self.kept.len()).step_by(2) {
                    if let (Some(&v), true) = (self.kept.get(r), w < self.kept.len()) {
                        if let Some(slot) = self.kept.get_mut(w) {
                            *slot = v;
                        }
                        w = w.saturating_add(1);
                    }
                }
                self.kept.truncate(w);
                self.stride = self.stride.saturating_mul(2);
            }
            if self.turns.is_multiple_of(self.stride) {
                let _ = self.kept.push(cost);
            }
        }
        self.turns = self.turns.saturating_add(1);
        self.min = self.min.min(cost);
        self.max = self.max.max(cost);
        self.total = self.total.saturating_add(cost as u64);
    }

    /// Min, median (lower median for an even count) and max; all zero when no turn was played.
    pub fn summary(&mut self) -> CostSummary {
        if self.turns == 0 {
            return CostSummary::default();
        }
        let kept = self.kept.as_mut_slice();
        kept.sort_unstable();
        let median = kept
            .get(kept.len().saturating_sub(1) / 2)
            .copied()
            .unwrap_or(0);
        // Nearest rank: the ceil(0.99 n)-th smallest.
        let rank = kept.len().saturating_mul(99).div_ceil(100).max(1);
        let p99 = kept.get(rank.saturating_sub(1)).copied().unwrap_or(0);
        CostSummary {
            turns: self.turns,
            min: self.min,
            median,
            p99,
            max: self.max,
            total: self.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_median_max_over_a_match() {
        let mut s = CostStats::new();
        assert_eq!(s.summary(), CostSummary::default());
        for c in [50, 10, 40, 20, 30] {
            s.record(c);
        }
        let r = s.summary();
        assert_eq!(
            (r.min, r.median, r.max, r.turns, r.total),
            (10, 30, 50, 5, 150)
        );
        s.record(60);
        assert_eq!(s.summary().median, 30, "lower median for an even count");
    }

    #[test]
    fn p99_is_the_nearest_rank() {
        let mut s = CostStats::new();
        for c in 1..=200 {
            s.record(c);
        }
        let r = s.summary();
        assert_eq!((r.median, r.p99, r.max), (100, 198, 200));
        let mut one = CostStats::new();
        one.record(7);
        assert_eq!(one.summary().p99, 7);
    }

    #[test]
    fn a_long_match_keeps_extremes_past_the_buffer() {
        let mut s = CostStats::new();
        for _ in 0..KEPT_TURNS {
            s.record(5);
        }
        s.record(1);
        s.record(900);
        let r = s.summary();
        assert_eq!((r.min, r.median, r.max), (1, 5, 900));
        assert_eq!(r.turns as usize, KEPT_TURNS + 2);
    }

    #[test]
    fn the_median_sample_spreads_over_the_whole_match() {
        // Costs rise with the turn: the median of all turns is the middle turn's cost. A buffer
        // that kept only the first turns would report a cost from the start of the match.
        let n = 10 * KEPT_TURNS as u32;
        let mut s = CostStats::new();
        for t in 0..n {
            s.record(t);
        }
        let r = s.summary();
        assert_eq!((r.min, r.max, r.turns), (0, n - 1, n));
        let mid = n / 2;
        assert!(
            r.median.abs_diff(mid) <= n / 50,
            "median {} for {mid}",
            r.median
        );
        assert!(s.kept.len() <= KEPT_TURNS && s.kept.len() >= KEPT_TURNS / 2);
    }

    #[test]
    fn default_clock_difference_wraps() {
        assert_eq!(NoClock.elapsed(u32::MAX - 1, 3), 5);
    }
}
