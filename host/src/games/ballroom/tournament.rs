//! MechMania 28's format: a Swiss system of 4-player games.

use crate::tournament::{by_points, points_by_place, Fixture, Format, MatchResult, Row};

/// A Swiss-system tournament of 4-player games (MechMania 28's format). Round 1
/// seats the bots in a seeded random order; every later round sorts them by points so far (3/2/1/0
/// per game, ties split; earlier order breaks ties) and seats them four by four. When the number of
/// bots is not a multiple of four, the last table is filled with the bots just above it, who play
/// an extra game that round.
pub struct Swiss {
    /// The rounds to play (each entrant plays one game a round, or two to fill the last table).
    pub rounds: usize,
}

const SWISS_POINTS: [u32; 4] = [3, 2, 1, 0];

fn swiss_points(rank: &[u8]) -> Vec<f64> {
    points_by_place(rank, &SWISS_POINTS)
}

impl Format for Swiss {
    fn name(&self) -> &'static str {
        "Swiss system, 4-player games"
    }

    fn adaptive(&self) -> bool {
        true
    }

    /// None: a Swiss tournament is drawn a round at a time, from the standings ([`Format::round`]).
    fn schedule(&self, _bots: usize, _games: usize, _seed: u64) -> Option<Vec<Vec<usize>>> {
        None
    }

    fn round(
        &self,
        round: usize,
        bots: usize,
        _games: usize,
        seed: u64,
        results: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round >= self.rounds || bots < 4 {
            return None;
        }
        let mut order: Vec<usize> = (0..bots).collect();
        arena_core::Rng::stream(seed, b"swiss").shuffle(&mut order);
        if round > 0 {
            let mut points = vec![0f64; bots];
            for m in results {
                for (seat, p) in swiss_points(&m.rank).into_iter().enumerate() {
                    if let Some(&b) = m.seats.get(seat) {
                        if b < bots {
                            points[b] += p;
                        }
                    }
                }
            }
            // Stable: the seeded order breaks ties.
            order.sort_by(|&a, &b| points[b].total_cmp(&points[a]));
        }
        let start = results.iter().map(|r| r.index + 1).max().unwrap_or(0);
        let mut out = Vec::new();
        let mut i = 0;
        while i < bots {
            let table: Vec<usize> = if i + 4 <= bots {
                order[i..i + 4].to_vec()
            } else {
                order[bots - 4..].to_vec()
            };
            out.push(Fixture {
                index: start + out.len(),
                round,
                seats: table,
            });
            i += 4;
        }
        Some(out)
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        by_points(bots, results, swiss_points)
    }
}
