//! The format the seed text asked for: 5-player tables where everyone meets everyone, everyone
//! plays as often, and no table repeats.

use crate::tournament::{by_points, points_by_place, Fixture, Format, MatchResult, Row};

/// 5-player matches such that every bot shares at least one match with every other, every
/// bot plays the same number of matches (5 per `--games`), and no set of five plays twice. Placement
/// points 5/3/2/1/0 with split ties.
///
/// The schedule is a cyclic design: each base block `B` (five offsets) gives the `n` matches
/// `B + i (mod n)`; base blocks are added until every difference `1..n` occurs in some block (so
/// every pair of bots meets) and there are `games` of them. Blocks are found by a seeded search.
pub struct FiveTables;

/// Placement points for a finished game (5/3/2/1/0, ties split).
pub const POINTS: [u32; 5] = [5, 3, 2, 1, 0];

/// The base blocks of the design for `n` bots.
pub fn blocks(n: usize, games: usize, seed: u64) -> Result<Vec<[usize; 5]>, String> {
    if n < 5 {
        return Err(format!("Mammut needs at least 5 bots (got {n})"));
    }
    if n == 5 {
        if games > 1 {
            return Err("with 5 bots there is one set of five: --games must be 1".into());
        }
        return Ok(vec![[0, 1, 2, 3, 4]]);
    }
    let mut rng = arena_core::Rng::new(seed);
    let mut blocks: Vec<[usize; 5]> = Vec::new();
    let mut seen: std::collections::BTreeSet<[usize; 5]> = std::collections::BTreeSet::new();
    let mut covered = vec![false; n];
    let covers_all = |c: &[bool]| c.iter().skip(1).all(|&x| x);
    let mut attempts = 0;
    while (blocks.len() < games.max(1) || !covers_all(&covered)) && attempts < 100_000 {
        attempts += 1;
        // A candidate block containing 0, chosen to cover new differences first.
        let mut best: Option<([usize; 5], usize)> = None;
        for _ in 0..64 {
            let mut b = [0usize; 5];
            let mut k = 1;
            while k < 5 {
                let x = 1 + rng.below((n - 1) as u32) as usize;
                if !b[..k].contains(&x) {
                    b[k] = x;
                    k += 1;
                }
            }
            b.sort();
            let new = diffs(&b, n).iter().filter(|&&d| !covered[d]).count();
            if best.is_none_or(|(_, s)| new > s) {
                best = Some((b, new));
            }
        }
        let Some((b, _)) = best else { continue };
        // Its n translates must be new sets of five, and distinct from each other.
        let translates: Vec<[usize; 5]> = (0..n).map(|i| normal(&b, i, n)).collect();
        let distinct: std::collections::BTreeSet<_> = translates.iter().copied().collect();
        if distinct.len() != n || translates.iter().any(|t| seen.contains(t)) {
            continue;
        }
        seen.extend(translates);
        for d in diffs(&b, n) {
            covered[d] = true;
        }
        blocks.push(b);
    }
    if !covers_all(&covered) || blocks.len() < games.max(1) {
        return Err(format!(
            "no Mammut schedule found for {n} bots and {games} games"
        ));
    }
    Ok(blocks)
}

fn diffs(b: &[usize; 5], n: usize) -> Vec<usize> {
    let mut d = Vec::new();
    for &x in b {
        for &y in b {
            if x != y {
                d.push((x + n - y) % n);
            }
        }
    }
    d
}

fn normal(b: &[usize; 5], shift: usize, n: usize) -> [usize; 5] {
    let mut t = b.map(|x| (x + shift) % n);
    t.sort();
    t
}

impl Format for FiveTables {
    fn name(&self) -> &'static str {
        "5-player tables: everyone meets everyone, equal matches, no table twice"
    }

    fn round(
        &self,
        round: usize,
        bots: usize,
        games: usize,
        seed: u64,
        _r: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round > 0 {
            return None;
        }
        let blocks = blocks(bots, games, seed).ok()?;
        let mut out = Vec::new();
        // With five bots the one block is the one table; otherwise its translates are distinct.
        let shifts = if bots == 5 { 1 } else { bots };
        for b in &blocks {
            for i in 0..shifts {
                let set = normal(b, i, bots);
                // Rotate the seats so that nobody always sits first.
                let rot = out.len() % 5;
                let seats: Vec<usize> = (0..5).map(|k| set[(k + rot) % 5]).collect();
                out.push(Fixture {
                    index: out.len(),
                    round: 0,
                    seats,
                });
            }
        }
        Some(out)
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        by_points(bots, results, |rank| points_by_place(rank, &POINTS))
    }
}
