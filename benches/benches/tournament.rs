//! Tournament throughput: whole Tower Defense Duel matches between built-in bots, round robin with
//! seats swapped, on 1 and 2 threads (criterion's "elements" are matches, so it reports matches
//! per second).
//!
//! The bots are picked so that every pairing ends in a few thousand turns at most: army against
//! builder is left out, as it lasts the full 100,000 turns and would be the whole measurement.
//!
//! Each measured tournament plays 600 matches (100 rounds of the 6 pairings), so that both
//! threads stay busy for almost all of it: with a dozen matches the last long match on one thread
//! leaves the other idle, and the 2-thread figure says more about that tail than about throughput.

use arena_core::games::tower_defense::{TowerDefense, Variant};
use arena_host::games::tower_defense::tournament::RoundRobin;
use arena_host::games::tower_defense::TournamentOptions;
use arena_host::tournament::{run, Contest, Format, Options, Timing};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use std::hint::black_box;
use std::time::Duration;

const BOTS: [&str; 3] = ["strong", "random", "army"];
/// Rounds of the round robin per measured tournament (6 matches a round).
const GAMES: usize = 100;

fn tournament(c: &mut Criterion) {
    let contest = Contest::<TowerDefense> {
        name: "tower-defense".into(),
        args: TournamentOptions {
            variant: Variant::Duel,
        },
        timing: Timing::default(),
    };
    let bots: Vec<String> = BOTS.iter().map(|b| b.to_string()).collect();
    let matches = RoundRobin
        .round(0, bots.len(), GAMES, 0, &[])
        .map_or(0, |f| f.len());
    assert!(
        matches >= 500,
        "{matches} matches: too few to compare 1 and 2 threads"
    );
    let mut group = c.benchmark_group("tournament/tower-defense-duel");
    group.throughput(Throughput::Elements(matches as u64));
    // Half a second a tournament: ten of them, the same size each (flat sampling).
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(10));
    for jobs in [1, 2] {
        let options = Options {
            games: GAMES,
            names: Vec::new(),
            jobs,
            seed: 1,
            shard: None,
            replays: None,
            progress: false,
            after: Vec::new(),
        };
        group.bench_function(format!("{jobs}-threads"), |b| {
            b.iter(|| {
                let results = run(&contest, &RoundRobin, &bots, &options).expect("tournament");
                assert_eq!(results.results.len(), matches);
                black_box(results)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, tournament);
criterion_main!(benches);
