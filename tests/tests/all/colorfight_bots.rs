//! The built-in bots against each other: win rates over 100 seeded 4-player Conquest games.
//!
//! Every game seats strategist, expander and two randoms, rotated by the game's number so that no
//! bot keeps the same seat. The strategist must win clearly more often than a random bot, and more
//! often than the expander.

use arena_core::games::colorfight::{ColorFight, ColorFightBot, Params};
use arena_core::{step_with_bots, Game, Roster};

const LINEUP: [&str; 4] = ["strategist", "expander", "random", "random"];

fn play(game_no: u64) -> (usize, [u32; 4], u32) {
    let mut game = ColorFight::new(&Params::default(), game_no).unwrap();
    let names: Vec<&str> = (0..4).map(|s| LINEUP[(s + game_no as usize) % 4]).collect();
    let mut bots: Vec<ColorFightBot> = names
        .iter()
        .enumerate()
        .map(|(s, n)| ColorFight::bot(n, game_no * 8 + s as u64).unwrap())
        .collect();
    let mut refused = 0;
    while !game.is_over() {
        refused += step_with_bots(&mut game, &mut bots).total_refused();
    }
    let o = game.outcome().unwrap();
    let winner = o.winner().unwrap();
    let lineup_index = |s: usize| (s + game_no as usize) % 4;
    let mut scores = [0; 4];
    for s in 0..4 {
        scores[lineup_index(s)] = o.score[s] as u32;
    }
    (lineup_index(winner), scores, refused)
}

#[test]
fn strategist_beats_random_over_100_seeded_games() {
    let mut wins = [0u32; 4];
    let mut score_sum = [0u64; 4];
    let mut races = 0;
    for g in 0..100 {
        // Refusals happen only when two bots go for the same cell in the same tick.
        let (w, scores, refused) = play(g);
        races += refused;
        wins[w] += 1;
        for s in 0..4 {
            score_sum[s] += scores[s] as u64;
        }
    }
    let random_wins = wins[2] + wins[3];
    eprintln!(
        "colorfight win rates over 100 games: strategist {}%, expander {}%, random {}% (two seats; {}% each on average); mean scores {:?}; {races} actions lost to races",
        wins[0],
        wins[1],
        random_wins,
        random_wins as f64 / 2.0,
        score_sum.map(|s| s / 100)
    );
    assert_eq!(wins.iter().sum::<u32>(), 100);
    assert!(
        wins[0] * 2 > random_wins,
        "strategist {} vs randoms {}",
        wins[0],
        random_wins
    );
    assert!(wins[0] >= 40, "strategist won only {} of 100", wins[0]);
    assert!(
        wins[0] > wins[1],
        "strategist {} vs expander {}",
        wins[0],
        wins[1]
    );
}
