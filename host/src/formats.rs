//! The tournament formats the original challenges announced (see ../shared/seeds/).

use crate::tournament::{Fixture, Format, MatchResult, Row};

/// Tower Defense Duel: round robin, seats swapped; ranked by wins, then the smallest total of turns
/// to victory, then the largest total of turns to defeat.
pub struct RoundRobin;

impl Format for RoundRobin {
    fn name(&self) -> &'static str {
        "round robin, seats swapped"
    }

    fn round(
        &self,
        round: usize,
        bots: usize,
        games: usize,
        _seed: u64,
        _results: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round > 0 {
            return None;
        }
        let mut out = Vec::new();
        for _ in 0..games.max(1) {
            for a in 0..bots {
                for b in (a + 1)..bots {
                    for seats in [vec![a, b], vec![b, a]] {
                        out.push(Fixture {
                            index: out.len(),
                            round: 0,
                            seats,
                        });
                    }
                }
            }
        }
        Some(out)
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
        let mut order: Vec<usize> = (0..bots.len()).collect();
        order.sort_by(|&a, &b| {
            s[b].wins
                .cmp(&s[a].wins)
                .then(s[a].to_victory.cmp(&s[b].to_victory))
                .then(s[b].to_defeat.cmp(&s[a].to_defeat))
                .then(a.cmp(&b))
        });
        order
            .into_iter()
            .map(|i| Row {
                bot: bots[i].clone(),
                columns: vec![
                    ("wins".into(), s[i].wins.to_string()),
                    ("draws".into(), s[i].draws.to_string()),
                    ("losses".into(), s[i].losses.to_string()),
                    ("turns to win".into(), s[i].to_victory.to_string()),
                    ("turns to lose".into(), s[i].to_defeat.to_string()),
                ],
            })
            .collect()
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

    fn round(
        &self,
        round: usize,
        bots: usize,
        games: usize,
        _seed: u64,
        _results: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round > 0 {
            return None;
        }
        let mut out = Vec::new();
        for _ in 0..games.max(1) {
            for invader in 0..bots {
                for defender in 0..bots {
                    if invader != defender {
                        out.push(Fixture {
                            index: out.len(),
                            round: 0,
                            seats: vec![invader, defender],
                        });
                    }
                }
            }
        }
        Some(out)
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
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            avg(def[b], def_n[b])
                .total_cmp(&avg(def[a], def_n[a]))
                .then(avg(inv[a], inv_n[a]).total_cmp(&avg(inv[b], inv_n[b])))
                .then(a.cmp(&b))
        });
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
        order
            .into_iter()
            .map(|i| Row {
                bot: bots[i].clone(),
                columns: vec![
                    (
                        "defender avg".into(),
                        format!("{:.1}", avg(def[i], def_n[i])),
                    ),
                    (
                        "invader avg".into(),
                        format!("{:.1}", avg(inv[i], inv_n[i])),
                    ),
                    ("invader rank".into(), inv_rank[i].to_string()),
                ],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, seats: Vec<usize>, rank: Vec<u8>, turns: u32) -> MatchResult {
        MatchResult {
            index,
            round: 0,
            faults: vec![Default::default(); seats.len()],
            score: vec![0; seats.len()],
            seats,
            seed: 0,
            turns,
            rank,
            reason: String::new(),
            replay: None,
        }
    }

    #[test]
    fn round_robin_swaps_seats_and_ranks_by_wins_then_turns() {
        let f = RoundRobin.round(0, 3, 1, 0, &[]).unwrap();
        assert_eq!(f.len(), 6);
        assert!(f.iter().any(|x| x.seats == vec![0, 1]) && f.iter().any(|x| x.seats == vec![1, 0]));
        assert!(RoundRobin.round(1, 3, 1, 0, &[]).is_none());
        let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        // a and b both win once; a wins faster, so it ranks first.
        let results = vec![
            result(0, vec![0, 2], vec![0, 1], 100),
            result(1, vec![1, 2], vec![0, 1], 500),
            result(2, vec![0, 1], vec![0, 0], 50),
        ];
        let rows = RoundRobin.standings(&bots, &results);
        assert_eq!(rows[0].bot, "a");
        assert_eq!(rows[1].bot, "b");
        assert_eq!(rows[2].bot, "c");
        assert_eq!(rows[0].columns[1], ("draws".to_string(), "1".to_string()));
    }

    #[test]
    fn siege_scores_defenders_by_average_turns_lasted() {
        let f = DefenderVsInvader.round(0, 3, 2, 0, &[]).unwrap();
        assert_eq!(f.len(), 12);
        assert!(f.iter().all(|x| x.seats[0] != x.seats[1]));
        let bots: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let results = vec![
            result(0, vec![0, 1], vec![1, 0], 3000),
            result(1, vec![1, 0], vec![0, 1], 1000),
        ];
        let rows = DefenderVsInvader.standings(&bots, &results);
        assert_eq!(rows[0].bot, "b");
        assert_eq!(rows[0].columns[0].1, "3000.0");
    }
}

/// Placement points in one match: a seat gets one point for every seat ranked below it and half a
/// point for every other seat sharing its rank (so ties split the points of the places they share).
/// Returned doubled, to stay in integers.
pub fn placement_points_x2(rank: &[u8]) -> Vec<u32> {
    rank.iter()
        .map(|&r| {
            rank.iter()
                .map(|&o| match o.cmp(&r) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum::<u32>()
                - 1
        })
        .collect()
}

/// Standings by total placement points (with matches played), best first.
fn by_points(
    bots: &[String],
    results: &[MatchResult],
    points: impl Fn(&[u8]) -> Vec<f64>,
) -> Vec<Row> {
    let n = bots.len();
    let mut total = vec![0f64; n];
    let mut played = vec![0u32; n];
    let mut wins = vec![0u32; n];
    for m in results {
        let p = points(&m.rank);
        let firsts = m.rank.iter().filter(|&&r| r == 0).count();
        for (seat, &b) in m.seats.iter().enumerate() {
            if b < n {
                total[b] += p.get(seat).copied().unwrap_or(0.0);
                played[b] += 1;
                if m.rank.get(seat) == Some(&0) && firsts == 1 {
                    wins[b] += 1;
                }
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        total[b]
            .total_cmp(&total[a])
            .then(wins[b].cmp(&wins[a]))
            .then(a.cmp(&b))
    });
    order
        .into_iter()
        .map(|i| Row {
            bot: bots[i].clone(),
            columns: vec![
                ("points".into(), format!("{:.1}", total[i])),
                ("matches".into(), played[i].to_string()),
                ("wins".into(), wins[i].to_string()),
                (
                    "points/match".into(),
                    format!(
                        "{:.2}",
                        if played[i] == 0 {
                            0.0
                        } else {
                            total[i] / played[i] as f64
                        }
                    ),
                ),
            ],
        })
        .collect()
}

/// ColorFight: free-for-all games of every entrant (at most `seats` at a table; seats rotate from one
/// game to the next), ranked per game as the rules say, points by placement (one per player ranked
/// below, ties split).
pub struct FreeForAll {
    pub max_seats: usize,
}

impl Format for FreeForAll {
    fn name(&self) -> &'static str {
        "free for all, points by placement"
    }

    fn round(
        &self,
        round: usize,
        bots: usize,
        games: usize,
        _seed: u64,
        _r: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round > 0 || bots == 0 {
            return None;
        }
        let table = bots.min(self.max_seats);
        let mut out = Vec::new();
        for g in 0..games.max(1) {
            // Every game seats `table` consecutive entrants (cyclically), rotated by the game number,
            // so that over `bots` games everybody plays every seat and everybody else.
            let seats: Vec<usize> = (0..table).map(|k| (g + k) % bots).collect();
            out.push(Fixture {
                index: out.len(),
                round: 0,
                seats,
            });
        }
        Some(out)
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

/// Mammut: 5-player matches such that every bot shares at least one match with every other, every
/// bot plays the same number of matches (5 per `--games`), and no set of five plays twice. Placement
/// points 5/3/2/1/0 with split ties.
///
/// The schedule is a cyclic design: each base block `B` (five offsets) gives the `n` matches
/// `B + i (mod n)`; base blocks are added until every difference `1..n` occurs in some block (so
/// every pair of bots meets) and there are `games` of them. Blocks are found by a seeded search.
pub struct FiveTables;

/// Mammut's placement points for a finished game (5/3/2/1/0, ties split), times 60 to stay whole.
const MAMMUT_POINTS: [u32; 5] = [5, 3, 2, 1, 0];

pub fn mammut_points(rank: &[u8]) -> Vec<f64> {
    rank.iter()
        .map(|&r| {
            let tied = rank.iter().filter(|&&o| o == r).count();
            let start = r as usize;
            let sum: u32 = (start..start + tied)
                .map(|p| MAMMUT_POINTS.get(p).copied().unwrap_or(0))
                .sum();
            sum as f64 / tied as f64
        })
        .collect()
}

/// The base blocks of the Mammut design for `n` bots.
pub fn mammut_blocks(n: usize, games: usize, seed: u64) -> Result<Vec<[usize; 5]>, String> {
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
        let blocks = mammut_blocks(bots, games, seed).ok()?;
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
        by_points(bots, results, mammut_points)
    }
}

/// Ballroom Blitz: a Swiss-system tournament of 4-player games (MechMania 28's format). Round 1
/// seats the bots in a seeded random order; every later round sorts them by points so far (3/2/1/0
/// per game, ties split; earlier order breaks ties) and seats them four by four. When the number of
/// bots is not a multiple of four, the last table is filled with the bots just above it, who play
/// an extra game that round.
pub struct Swiss {
    pub rounds: usize,
}

const SWISS_POINTS: [u32; 4] = [3, 2, 1, 0];

fn swiss_points(rank: &[u8]) -> Vec<f64> {
    rank.iter()
        .map(|&r| {
            let tied = rank.iter().filter(|&&o| o == r).count();
            let start = r as usize;
            let sum: u32 = (start..start + tied)
                .map(|p| SWISS_POINTS.get(p).copied().unwrap_or(0))
                .sum();
            sum as f64 / tied as f64
        })
        .collect()
}

impl Format for Swiss {
    fn name(&self) -> &'static str {
        "Swiss system, 4-player games"
    }

    fn adaptive(&self) -> bool {
        true
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

#[cfg(test)]
mod more_tests {
    use super::*;

    #[test]
    fn placement_points_split_ties() {
        assert_eq!(placement_points_x2(&[0, 1, 2, 3]), vec![6, 4, 2, 0]);
        assert_eq!(placement_points_x2(&[0, 0, 2]), vec![3, 3, 0]);
        assert_eq!(
            mammut_points(&[1, 0, 1, 1, 4]),
            vec![2.0, 5.0, 2.0, 2.0, 0.0]
        );
    }

    #[test]
    fn mammut_design_meets_every_pair_with_equal_matches_and_no_repeated_table() {
        for n in [5, 6, 7, 9, 12, 16, 23, 30] {
            for games in [1, 2] {
                if n == 5 && games == 2 {
                    assert!(mammut_blocks(5, 2, 1).is_err());
                    continue;
                }
                if n == 6 && games == 2 {
                    // Six bots have only six sets of five: one design's worth.
                    assert!(mammut_blocks(6, 2, 1).is_err());
                    continue;
                }
                let f = FiveTables
                    .round(0, n, games, 7, &[])
                    .unwrap_or_else(|| panic!("no design for n={n}, games={games}"));
                let mut played = vec![0; n];
                let mut met = vec![vec![false; n]; n];
                let mut sets = std::collections::BTreeSet::new();
                for m in &f {
                    assert_eq!(m.seats.len(), 5);
                    let mut s = m.seats.clone();
                    s.sort();
                    assert!(sets.insert(s), "a table played twice (n={n})");
                    for &a in &m.seats {
                        played[a] += 1;
                        for &b in &m.seats {
                            met[a][b] = true;
                        }
                    }
                }
                assert!(
                    played.iter().all(|&p| p == played[0]),
                    "unequal matches (n={n})"
                );
                assert_eq!(played[0], if n == 5 { 1 } else { 5 * f.len() / n });
                assert!(n == 5 || played[0] >= 5 * games);
                assert!(
                    met.iter().all(|row| row.iter().all(|&x| x)),
                    "a pair never met (n={n})"
                );
            }
        }
    }

    #[test]
    fn swiss_pairs_by_points_after_the_first_round() {
        let s = Swiss { rounds: 2 };
        let r0 = s.round(0, 8, 1, 3, &[]).unwrap();
        assert_eq!(r0.len(), 2);
        // Seat 0 of each table wins: the winners meet in round 2.
        let results: Vec<MatchResult> = r0
            .iter()
            .map(|f| MatchResult {
                index: f.index,
                round: 0,
                seats: f.seats.clone(),
                seed: 0,
                turns: 100,
                rank: vec![0, 1, 2, 3],
                score: vec![0; 4],
                reason: String::new(),
                faults: vec![Default::default(); 4],
                replay: None,
            })
            .collect();
        let r1 = s.round(1, 8, 1, 3, &results).unwrap();
        let winners = [r0[0].seats[0], r0[1].seats[0]];
        assert!(winners.iter().all(|w| r1[0].seats.contains(w)));
        assert_eq!(r1[0].index, 2);
        assert!(s.round(2, 8, 1, 3, &results).is_none());
        // Ten bots: three tables, the last one filled from above.
        assert_eq!(s.round(0, 10, 1, 3, &[]).unwrap().len(), 3);
    }
}

/// Ants: many-player matches, ranked by TrueSkill as the AI Challenge was (by mu - 3 sigma). Match
/// `i` is played on map `i mod maps` with as many bots as the map has players, drawn in a seeded
/// order so that every bot plays about as often (bots repeat only when a map has more players than
/// there are bots).
pub struct TrueSkillMatches {
    pub map_players: Vec<usize>,
}

impl Format for TrueSkillMatches {
    fn name(&self) -> &'static str {
        "many-player matches, TrueSkill"
    }

    fn round(
        &self,
        round: usize,
        bots: usize,
        games: usize,
        seed: u64,
        _r: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round > 0 || bots == 0 || self.map_players.is_empty() {
            return None;
        }
        let mut rng = arena_core::Rng::stream(seed, b"ants-seats");
        let mut deck: Vec<usize> = Vec::new();
        let mut out = Vec::new();
        for i in 0..games.max(1) * self.map_players.len() {
            let k = self.map_players[i % self.map_players.len()];
            let mut seats = Vec::with_capacity(k);
            while seats.len() < k {
                // Deal from a shuffled deck of every bot; a fresh deck when it runs out.
                if deck.is_empty() {
                    deck = (0..bots).collect();
                    rng.shuffle(&mut deck);
                }
                let b = deck.pop().unwrap_or(0);
                if !seats.contains(&b) || bots < k {
                    seats.push(b);
                } else {
                    deck.insert(0, b);
                }
            }
            out.push(Fixture {
                index: i,
                round: 0,
                seats,
            });
        }
        Some(out)
    }

    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row> {
        let mut ratings = crate::tournament::ratings(bots, results);
        ratings.sort_by(|a, b| b.conservative.total_cmp(&a.conservative));
        let wins = |name: &str| {
            results
                .iter()
                .filter(|m| {
                    m.rank.iter().filter(|&&r| r == 0).count() == 1
                        && m.seats
                            .iter()
                            .zip(&m.rank)
                            .any(|(&b, &r)| r == 0 && bots.get(b).map(String::as_str) == Some(name))
                })
                .count()
        };
        ratings
            .into_iter()
            .map(|r| Row {
                columns: vec![
                    ("mu-3sigma".into(), format!("{:.2}", r.conservative)),
                    ("matches".into(), r.matches.to_string()),
                    ("wins".into(), wins(&r.bot).to_string()),
                ],
                bot: r.bot,
            })
            .collect()
    }
}
