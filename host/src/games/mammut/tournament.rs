//! The format the seed text asked for: 5-player tables where everyone meets everyone, everyone
//! plays as often, and no table repeats.

use crate::tournament::{by_points, points_by_place, Format, MatchResult, Row};

/// 5-player matches such that every bot shares at least one match with every other, every
/// bot plays the same number of matches, and no set of five plays twice within the schedule.
/// Placement points 5/3/2/1/0 with split ties. `--games N` plays the whole schedule N times (its
/// tables again, with new match seeds and the seats turned).
///
/// The schedule is a cyclic design: each base block `B` (five points of Z_n) gives the `n`
/// tables `B + i (mod n)`; as few base blocks as the search finds to cover every difference
/// `1..n` (so every pair of bots meets). The design depends on `n` alone (its search has a fixed
/// seed); the tournament seed only draws which bot stands for which point, so the number of
/// matches never depends on the seed.
pub struct FiveTables;

/// Placement points for a finished game (5/3/2/1/0, ties split).
pub const POINTS: [u32; 5] = [5, 3, 2, 1, 0];

/// The seed of the design search: fixed, so that the schedule's size depends on `n` alone.
const DESIGN_SEED: u64 = 0x6d61_6d6d_7574;

/// Why there is no schedule for a number of bots.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoSchedule {
    /// Fewer bots than a table's five seats.
    #[error("Mammut needs at least 5 bots (got {0})")]
    TooFew(usize),
    /// The search found no design.
    #[error("no Mammut schedule found for {0} bots")]
    NotFound(usize),
}

/// The base blocks of the design for `n` bots: the fewest the search finds (it tries one block
/// more when a number of blocks cannot be found), each a set of five points containing 0.
pub fn design(n: usize) -> Result<Vec<[usize; 5]>, NoSchedule> {
    if n < 5 {
        return Err(NoSchedule::TooFew(n));
    }
    if n == 5 {
        return Ok(vec![[0, 1, 2, 3, 4]]);
    }
    // A block covers at most 20 differences, each difference d coming with n - d.
    let least = (n - 1).div_ceil(20).max(1);
    for k in least..least + 8 {
        if let Some(blocks) = search(n, k) {
            return Ok(blocks);
        }
    }
    Err(NoSchedule::NotFound(n))
}

/// Exactly `k` base blocks covering every difference of Z_n, whose translates are all distinct
/// sets of five: a seeded greedy search, restarted a few times.
fn search(n: usize, k: usize) -> Option<Vec<[usize; 5]>> {
    let mut rng = arena_core::Rng::new(DESIGN_SEED ^ (n as u64) << 8 ^ k as u64);
    'restart: for _ in 0..200 {
        let mut blocks: Vec<[usize; 5]> = Vec::new();
        let mut seen: std::collections::BTreeSet<[usize; 5]> = std::collections::BTreeSet::new();
        let mut covered = vec![false; n];
        let mut attempts = 0;
        while blocks.len() < k {
            attempts += 1;
            if attempts > 2_000 {
                continue 'restart;
            }
            // A candidate block containing 0, chosen to cover new differences first.
            let mut best: Option<([usize; 5], usize)> = None;
            for _ in 0..64 {
                let mut b = [0usize; 5];
                let mut i = 1;
                while i < 5 {
                    let x = 1 + rng.below((n - 1) as u32) as usize;
                    if !b[..i].contains(&x) {
                        b[i] = x;
                        i += 1;
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
        if covered.iter().skip(1).all(|&c| c) {
            return Some(blocks);
        }
    }
    None
}

/// The tables of one schedule for `n` bots: the design's tables, the bots drawn onto its points
/// by `seed`, the seats of successive tables turned so that nobody always sits first.
pub fn schedule(n: usize, seed: u64) -> Result<Vec<Vec<usize>>, NoSchedule> {
    let blocks = design(n)?;
    let mut bot_of: Vec<usize> = (0..n).collect();
    arena_core::Rng::stream(seed, b"mammut-tables").shuffle(&mut bot_of);
    let mut out = Vec::new();
    // With five bots the one block is the one table; otherwise its translates are distinct.
    let shifts = if n == 5 { 1 } else { n };
    for b in &blocks {
        for i in 0..shifts {
            let set = normal(b, i, n);
            let rot = out.len() % 5;
            out.push((0..5).map(|k| bot_of[set[(k + rot) % 5]]).collect());
        }
    }
    Ok(out)
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

    fn schedule(&self, bots: usize, games: usize, seed: u64) -> Option<Vec<Vec<usize>>> {
        let tables = schedule(bots, seed).ok()?;
        let mut out = Vec::new();
        for g in 0..games.max(1) {
            // Each repetition turns the seats one further.
            out.extend(
                tables
                    .iter()
                    .map(|t| (0..5).map(|k| t[(k + g) % 5]).collect()),
            );
        }
        Some(out)
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        by_points(bots, results, |rank| points_by_place(rank, &POINTS))
    }
}
