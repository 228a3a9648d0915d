//! The long run: thousands of seeded matches of every game with built-in bots, the generic suite's
//! invariants checked after every turn. `cargo xtask soak [--matches N] [--seed S]` runs it in
//! release mode (it is not part of the test command: it takes minutes).

use arena_core::games::ants::AntsMcu;
use arena_core::games::ballroom::Ballroom;
use arena_core::games::colorfight::ColorFight;
use arena_core::games::mammut::Mammut;
use arena_core::games::tower_defense::TowerDefense;
use arena_core::rng::splitmix64;
use arena_core::{step_with_bots, Rng, Roster};
use arena_tests::Suite;
use std::time::Instant;

/// Steps after which a match is cut short (Tower Defense Siege can last a million turns).
const MAX_STEPS: u64 = 200_000;

struct Tally {
    matches: u64,
    steps: u64,
    finished: u64,
}

fn soak<G: Suite + Roster>(matches: u64, seed: u64) -> Result<Tally, String> {
    let all = G::params();
    let mut tally = Tally {
        matches: 0,
        steps: 0,
        finished: 0,
    };
    let mut pick = Rng::stream(seed, G::NAME.as_bytes());
    for i in 0..matches {
        let params = &all[(i as usize) % all.len()];
        let mut s = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let match_seed = splitmix64(&mut s);
        let mut game = G::new(params, match_seed).map_err(|e| format!("{} setup: {e}", G::NAME))?;
        let mut names = Vec::new();
        let mut bots: Vec<G::Bot> = (0..game.seats())
            .filter_map(|seat| {
                let name = G::BOTS[pick.below(G::BOTS.len() as u32) as usize];
                names.push(name);
                G::bot(name, match_seed ^ seat as u64)
            })
            .collect();
        let mut steps = 0;
        while !game.is_over() && steps < MAX_STEPS {
            let before = game.clone();
            step_with_bots(&mut game, &mut bots);
            game.check(&before).map_err(|why| {
                format!(
                    "{} match {i} (seed {match_seed}, bots {names:?}), step {steps}: {why}",
                    G::NAME
                )
            })?;
            steps += 1;
        }
        tally.matches += 1;
        tally.steps += steps;
        tally.finished += game.is_over() as u64;
    }
    Ok(tally)
}

fn main() {
    let mut matches: u64 = 10_000;
    let mut seed: u64 = 1;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (a.as_str(), value) {
            ("--matches", Some(v)) => matches = v,
            ("--seed", Some(v)) => seed = v,
            _ => {
                eprintln!("usage: soak [--matches N] [--seed S]");
                std::process::exit(2);
            }
        }
    }
    // Shares of the total: the slow games get fewer matches.
    let per = |share: u64| (matches * share / 100).max(1);
    let start = Instant::now();
    let runs: Vec<(&str, Result<Tally, String>)> = vec![
        ("tower-defense", soak::<TowerDefense>(per(20), seed)),
        ("ballroom", soak::<Ballroom>(per(25), seed)),
        ("mammut", soak::<Mammut>(per(30), seed)),
        ("colorfight", soak::<ColorFight>(per(15), seed)),
        ("ants (MCU build)", soak::<AntsMcu>(per(10), seed)),
    ];
    let mut failed = false;
    let mut total = 0;
    println!(
        "{:<18} {:>8} {:>12} {:>9}",
        "game", "matches", "steps", "finished"
    );
    for (name, r) in runs {
        match r {
            Ok(t) => {
                total += t.matches;
                println!(
                    "{name:<18} {:>8} {:>12} {:>9}",
                    t.matches, t.steps, t.finished
                );
            }
            Err(e) => {
                failed = true;
                println!("{name:<18} FAILED: {e}");
            }
        }
    }
    println!(
        "{total} matches in {:.1} s, invariants checked after every step",
        start.elapsed().as_secs_f64()
    );
    if failed {
        std::process::exit(1);
    }
}
