//! The built-in Mammut bots against each other: placement points over 200 seeded 5-player games with
//! mixed tables. Run with `--nocapture` to see the figures.

use arena_core::games::mammut::{Mammut, MammutBot, Params, PLACEMENT_SCALE, PLAYERS};
use arena_core::{step_with_bots, Game, Roster};

const GAMES: u64 = 200;

/// Per bot: games played, placement points (in 1/PLACEMENT_SCALE), outright wins, refusals.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    seats: u64,
    placement: u64,
    wins: u64,
    refused: u64,
}

/// Per bot, and the steps played in all games.
fn tournament() -> (Vec<(&'static str, Tally)>, u64) {
    let names = Mammut::BOTS;
    let mut tally = vec![Tally::default(); names.len()];
    let mut steps = 0u64;
    for game in 0..GAMES {
        // Rotating tables: two of two bots and one of the third, in every combination.
        let table: [usize; PLAYERS] = core::array::from_fn(|s| (game as usize + s) % names.len());
        let seed = 0x6d61_6d6d ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut g = Mammut::new(&Params, seed).expect("setup");
        let mut bots: Vec<MammutBot> = table
            .iter()
            .enumerate()
            .map(|(s, &b)| Mammut::bot(names[b], seed ^ s as u64).expect("bot"))
            .collect();
        while !g.is_over() {
            let report = step_with_bots(&mut g, &mut bots);
            for (s, &b) in table.iter().enumerate() {
                tally[b].refused += report.refused[s] as u64;
            }
        }
        steps += u64::from(g.turn());
        let placement = g.placement();
        let outcome = g.outcome().expect("over");
        for (s, &b) in table.iter().enumerate() {
            tally[b].seats += 1;
            tally[b].placement += placement[s] as u64;
            tally[b].wins += u64::from(outcome.winner() == Some(s));
        }
    }
    (names.iter().copied().zip(tally).collect(), steps)
}

#[test]
fn greedy_and_cautious_beat_random_on_placement_points() {
    let (results, steps) = tournament();
    println!("{GAMES} games, {} steps per game on average", steps / GAMES);
    let mean = |name: &str| {
        let t = results.iter().find(|(n, _)| *n == name).expect("bot").1;
        // Mean placement points per game, in hundredths.
        t.placement * 100 / (t.seats * PLACEMENT_SCALE as u64)
    };
    for (name, t) in &results {
        println!(
            "{name:>8}: {} seats, mean placement {}.{:02}, outright wins {}, refused {}",
            t.seats,
            mean(name) / 100,
            mean(name) % 100,
            t.wins,
            t.refused
        );
        assert_eq!(t.refused, 0, "{name} played an illegal action");
    }
    // Placement points total 11 per game: the mean over all seats is 2.20.
    let total: u64 = results.iter().map(|(_, t)| t.placement).sum();
    assert_eq!(total, GAMES * 11 * PLACEMENT_SCALE as u64);
    // Both real strategies beat random by more than a placement point per game.
    assert!(
        mean("greedy") > mean("random") + 100,
        "greedy should beat random"
    );
    assert!(
        mean("cautious") > mean("random") + 100,
        "cautious should beat random"
    );
}
