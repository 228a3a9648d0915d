//! The built-in bots: `strong` must beat `holder` and `random` over 100 seeded games with the
//! seats rotated.

use arena_core::games::ballroom::{Ballroom, Params};
use arena_core::{step_with_bots, Game, Roster};

/// Plays `games` games of `lineup` (seat s of game i gets `lineup[(s + i) % 4]`); returns the
/// wins of each lineup entry and its total points.
fn tournament(lineup: [&str; 4], games: u64) -> ([u32; 4], [u64; 4]) {
    let mut wins = [0u32; 4];
    let mut points = [0u64; 4];
    for i in 0..games {
        let entry = |seat: usize| (seat + i as usize) % 4;
        let mut bots: Vec<_> = (0..4)
            .map(|s| Ballroom::bot(lineup[entry(s)], i * 4 + s as u64).unwrap())
            .collect();
        let mut game = Ballroom::new(&Params::default(), i).unwrap();
        while !game.is_over() {
            step_with_bots(&mut game, &mut bots);
        }
        let outcome = game.outcome().unwrap();
        wins[entry(outcome.winner().unwrap())] += 1;
        for s in 0..4 {
            points[entry(s)] += outcome.score[s] as u64;
        }
    }
    (wins, points)
}

#[test]
fn strong_beats_holder_and_random() {
    // One of each, plus a second random: strong must win most games.
    let (wins, _) = tournament(["strong", "holder", "random", "random"], 100);
    println!("strong, holder, random, random: wins {wins:?}");
    assert!(wins[0] > 50, "{wins:?}");
    // Against two holders, strong still wins more often than either.
    let (wins, _) = tournament(["strong", "holder", "holder", "random"], 100);
    println!("strong, holder, holder, random: wins {wins:?}");
    assert!(wins[0] > wins[1] && wins[0] > wins[2], "{wins:?}");
    // Against three holders it wins most games.
    let (wins, _) = tournament(["strong", "holder", "holder", "holder"], 100);
    println!("strong, holder x3: wins {wins:?}");
    assert!(wins[0] > 50, "{wins:?}");
    // Against three randoms it always wins; holder (the weaker strategy) must win most too.
    let (wins, _) = tournament(["strong", "random", "random", "random"], 100);
    println!("strong, random x3: wins {wins:?}");
    assert!(wins[0] > 90, "{wins:?}");
    let (wins, _) = tournament(["holder", "random", "random", "random"], 100);
    println!("holder, random x3: wins {wins:?}");
    assert!(wins[0] > 50, "{wins:?}");
}

#[test]
fn the_same_seeds_give_the_pinned_tournament() {
    // The wins and points of 8 seeded games, as the code gives them today: compared with values
    // fixed here, not with a second run of the same code. A change must be explained in the
    // commit that makes it (a rule or a bot changed).
    let got = tournament(["strong", "holder", "random", "random"], 8);
    assert_eq!(got, ([7, 1, 0, 0], [934, 734, 133, 127]));
}
