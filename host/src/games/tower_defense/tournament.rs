//! The tournaments the challenge announced: Duel a round robin with seats swapped, Siege every
//! defender against every invader.

use crate::tournament::{table, Format, MatchResult, Row};

/// The two-seat matches `pairs` (in seat order), all of them played `games` times (at least once).
fn repeated(pairs: impl Iterator<Item = [usize; 2]>, games: usize) -> Vec<Vec<usize>> {
    let once: Vec<Vec<usize>> = pairs.map(Vec::from).collect();
    vec![once; games.max(1)].concat()
}

/// Tower Defense Duel: round robin, seats swapped; ranked by wins, then the smallest total of turns
/// to victory, then the largest total of turns to defeat.
pub struct RoundRobin;

impl Format for RoundRobin {
    fn name(&self) -> &'static str {
        "round robin, seats swapped"
    }

    fn schedule(&self, bots: usize, games: usize, _seed: u64) -> Option<Vec<Vec<usize>>> {
        let pairs = (0..bots).flat_map(|a| ((a + 1)..bots).flat_map(move |b| [[a, b], [b, a]]));
        Some(repeated(pairs, games))
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        #[derive(Default, Clone)]
        struct S {
            wins: u32,
            draws: u32,
            losses: u32,
            to_victory: u64,
            to_defeat: u64,
        }
        let mut s = vec![S::default(); bots.len()];
        for m in results {
            let firsts = m.rank.iter().filter(|&&r| r == 0).count();
            for (seat, &b) in m.seats.iter().enumerate() {
                let Some(e) = s.get_mut(b) else { continue };
                match (m.rank.get(seat), firsts) {
                    (Some(0), 1) => {
                        e.wins += 1;
                        e.to_victory += m.turns as u64;
                    }
                    (Some(0), _) => e.draws += 1,
                    _ => {
                        e.losses += 1;
                        e.to_defeat += m.turns as u64;
                    }
                }
            }
        }
        let better = |a: usize, b: usize| {
            s[b].wins
                .cmp(&s[a].wins)
                .then(s[a].to_victory.cmp(&s[b].to_victory))
                .then(s[b].to_defeat.cmp(&s[a].to_defeat))
        };
        table(bots, better, |i| {
            vec![
                ("wins", s[i].wins.to_string()),
                ("draws", s[i].draws.to_string()),
                ("losses", s[i].losses.to_string()),
                ("turns to win", s[i].to_victory.to_string()),
                ("turns to lose", s[i].to_defeat.to_string()),
            ]
        })
    }
}

/// Tower Defense Siege: every bot defends against every other bot's invasion. A defender scores the
/// average number of turns it lasted (higher is better); an invader the average it needed (lower is
/// better). Seat 0 invades, seat 1 defends.
pub struct DefenderVsInvader;

impl Format for DefenderVsInvader {
    fn name(&self) -> &'static str {
        "every defender against every invader"
    }

    fn schedule(&self, bots: usize, games: usize, _seed: u64) -> Option<Vec<Vec<usize>>> {
        let pairs = (0..bots).flat_map(|invader| {
            let defenders = (0..bots).filter(move |&defender| defender != invader);
            defenders.map(move |defender| [invader, defender])
        });
        Some(repeated(pairs, games))
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        let n = bots.len();
        let (mut def, mut def_n, mut inv, mut inv_n) =
            (vec![0u64; n], vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        for m in results {
            if let (Some(&i), Some(&d)) = (m.seats.first(), m.seats.get(1)) {
                if i < n && d < n {
                    inv[i] += m.turns as u64;
                    inv_n[i] += 1;
                    def[d] += m.turns as u64;
                    def_n[d] += 1;
                }
            }
        }
        let avg = |t: u64, c: u64| if c == 0 { 0.0 } else { t as f64 / c as f64 };
        let inv_rank = {
            let mut o: Vec<usize> = (0..n).collect();
            o.sort_by(|&a, &b| {
                avg(inv[a], inv_n[a])
                    .total_cmp(&avg(inv[b], inv_n[b]))
                    .then(a.cmp(&b))
            });
            let mut rank = vec![0; n];
            for (r, i) in o.into_iter().enumerate() {
                rank[i] = r + 1;
            }
            rank
        };
        let better = |a: usize, b: usize| {
            avg(def[b], def_n[b])
                .total_cmp(&avg(def[a], def_n[a]))
                .then(avg(inv[a], inv_n[a]).total_cmp(&avg(inv[b], inv_n[b])))
        };
        table(bots, better, |i| {
            vec![
                ("defender avg", format!("{:.1}", avg(def[i], def_n[i]))),
                ("invader avg", format!("{:.1}", avg(inv[i], inv_n[i]))),
                ("invader rank", inv_rank[i].to_string()),
            ]
        })
    }
}
