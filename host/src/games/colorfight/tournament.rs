//! The format of the challenge: free-for-all games, points by placement.

use crate::tournament::{by_points, placement_points_x2, Format, MatchResult, Row};

/// Free-for-all games of every entrant (at most `seats` at a table; seats rotate from one
/// game to the next), ranked per game as the rules say, points by placement (one per player ranked
/// below, ties split).
pub struct FreeForAll {
    /// The most seats at a table: a field larger than this plays in tables of at most this many.
    pub max_seats: usize,
}

impl Format for FreeForAll {
    fn name(&self) -> &'static str {
        "free for all, points by placement"
    }

    fn schedule(&self, bots: usize, games: usize, _seed: u64) -> Option<Vec<Vec<usize>>> {
        if bots == 0 {
            return None;
        }
        let table = bots.min(self.max_seats);
        // One schedule is one game of every entrant, or, when they do not fit at one table, one
        // game per entrant (over which everybody meets everybody); `--games` plays it that often.
        let schedule = if bots > table { bots } else { 1 };
        // Every game seats `table` consecutive entrants (cyclically), rotated by the game number,
        // so that over `bots` games everybody plays every seat and everybody else.
        let games = 0..games.max(1) * schedule;
        Some(
            games
                .map(|g| (0..table).map(|k| (g + k) % bots).collect())
                .collect(),
        )
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        by_points(bots, results, |rank| {
            placement_points_x2(rank)
                .into_iter()
                .map(|p| p as f64 / 2.0)
                .collect()
        })
    }
}
