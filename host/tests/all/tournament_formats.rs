//! The tournament formats of the challenges: who meets whom, and the tables.

use arena_host::games::ballroom::tournament::Swiss;
use arena_host::games::mammut::tournament::{design, FiveTables, POINTS};
use arena_host::games::tower_defense::tournament::{DefenderVsInvader, RoundRobin};
use arena_host::tournament::{points_by_place, Format, MatchResult};

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
        times: Vec::new(),
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

#[test]
fn points_split_ties() {
    assert_eq!(
        points_by_place(&[1, 0, 1, 1, 4], &POINTS),
        vec![2.0, 5.0, 2.0, 2.0, 0.0]
    );
}

#[test]
fn mammut_design_meets_every_pair_with_equal_matches_and_no_repeated_table() {
    for n in [5, 6, 7, 9, 12, 13, 16, 23, 30] {
        let f = FiveTables
            .round(0, n, 1, 7, &[])
            .unwrap_or_else(|| panic!("no design for n={n}"));
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
        assert!(
            met.iter().all(|row| row.iter().all(|&x| x)),
            "a pair never met (n={n})"
        );
    }
}

#[test]
fn mammut_schedule_size_does_not_depend_on_the_seed_and_games_repeats_it() {
    // 13 bots once gave 26 matches with seed 1 and 13 with seed 2: the seed only draws the tables.
    for n in [5, 6, 9, 13, 16, 23] {
        let size = FiveTables.round(0, n, 1, 1, &[]).unwrap().len();
        assert_eq!(size, design(n).unwrap().len() * if n == 5 { 1 } else { n });
        let mut tables = std::collections::BTreeSet::new();
        for seed in 1..=12 {
            let f = FiveTables.round(0, n, 1, seed, &[]).unwrap();
            assert_eq!(f.len(), size, "n={n}, seed {seed}");
            let mut first = f[0].seats.clone();
            first.sort();
            tables.insert(first);
        }
        if n > 6 {
            assert!(
                tables.len() > 1,
                "the seed draws which tables are played (n={n})"
            );
        }
        // --games N plays the whole schedule N times: the same tables, seats turned.
        let once = FiveTables.round(0, n, 1, 4, &[]).unwrap();
        let thrice = FiveTables.round(0, n, 3, 4, &[]).unwrap();
        assert_eq!(thrice.len(), 3 * once.len());
        for (i, m) in thrice.iter().enumerate() {
            assert_eq!(m.index, i);
            let mut a = m.seats.clone();
            let mut b = once[i % once.len()].seats.clone();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
    }
    assert_eq!(
        FiveTables.round(0, 13, 1, 1, &[]).unwrap().len(),
        FiveTables.round(0, 13, 1, 2, &[]).unwrap().len()
    );
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
            times: Vec::new(),
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
