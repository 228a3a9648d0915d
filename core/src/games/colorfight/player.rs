//! A player's purse, its counts, its attack in progress, its base under construction and its defeat.

use super::timing::Num;
use super::{NONE, START_GOLD};
use crate::Digest;

/// One player: its purse, its counts (kept up to date, checked against the grid by the tests), its
/// attack in progress, its base under construction and its defeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Gold, capped at [`super::CAP`].
    pub gold: Num,
    /// Energy, capped at [`super::CAP`] (Conquest).
    pub energy: Num,
    /// Cells owned.
    pub cells: u16,
    /// Gold mines owned.
    pub gold_mines: u16,
    /// Energy mines owned.
    pub energy_mines: u16,
    /// Finished bases.
    pub bases: u8,
    /// The cell it attacks (`u16::MAX` when idle) and the tick that attack completes (0 when idle).
    pub target: u16,
    /// The tick the attack on `target` completes (0 when idle).
    pub busy_until: u32,
    /// Its unfinished base (`u16::MAX` when none), the tick it finishes, and the first tick it may
    /// start another.
    pub build_cell: u16,
    /// The tick its unfinished base is done.
    pub build_done: u32,
    /// The first tick it may start another base.
    pub next_build: u32,
    /// Whether it is defeated (it lost its last cell).
    pub defeated: bool,
    /// The tick it was defeated.
    pub defeated_at: u32,
    /// The best score of its finished attempts (Conquest respawns).
    pub best: u32,
}

impl Player {
    pub(super) const fn start(tick: u32) -> Player {
        Player {
            gold: Num::const_from_int(START_GOLD as i64),
            energy: Num::ZERO,
            cells: 0,
            gold_mines: 0,
            energy_mines: 0,
            bases: 0,
            target: NONE,
            busy_until: 0,
            build_cell: NONE,
            build_done: 0,
            next_build: tick,
            defeated: false,
            defeated_at: 0,
            best: 0,
        }
    }

    /// No attack of its own in progress.
    pub const fn is_idle(&self) -> bool {
        self.target == NONE
    }

    /// Its attack in progress, if any.
    pub const fn attacking(&self) -> Option<usize> {
        if self.target == NONE {
            None
        } else {
            Some(self.target as usize)
        }
    }

    /// Finished and unfinished bases: what the limit of 3 counts.
    pub const fn all_bases(&self) -> u8 {
        self.bases.saturating_add((self.build_cell != NONE) as u8)
    }

    /// 1 per cell, 10 per gold mine (a gold mine cell counts 10, not 11).
    pub const fn score(&self) -> u32 {
        (self.cells as u32).saturating_add((self.gold_mines as u32).saturating_mul(9))
    }

    pub(super) fn hash_into(&self, d: &mut Digest) {
        d.i64(self.gold.to_bits())
            .i64(self.energy.to_bits())
            .u16(self.cells)
            .u16(self.gold_mines)
            .u16(self.energy_mines)
            .u8(self.bases)
            .u16(self.target)
            .u32(self.busy_until)
            .u16(self.build_cell)
            .u32(self.build_done)
            .u32(self.next_build)
            .bool(self.defeated)
            .u32(self.defeated_at)
            .u32(self.best);
    }
}
