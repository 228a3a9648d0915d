//! The built-in bots: `strong` must beat `hunter` on most 2-player golden maps.

use arena_core::games::ants::{Ants, AntsMap, AntsParams};
use arena_host::game::Setup;
use arena_host::games::ants::Extra;

const MAPS: [&str; 5] = [
    "maps/tutorial1.map",
    "maps/cell_maze_p02_08.map",
    "maps/random_walk_p02_54.map",
    "rw32_greedy_hold_s11/map.map",
    "cm06_lefty_hunter_s3/map.map",
];

/// (strong wins, hunter wins, draws) over every map, 4 seeds, both seats.
fn tally() -> (u32, u32, u32) {
    let (mut strong, mut hunter, mut draws) = (0, 0, 0);
    for m in MAPS {
        let text = std::fs::read_to_string(arena_tests::golden("ants").join(m)).unwrap();
        let params = AntsParams::new(AntsMap::parse(&text).unwrap(), 500);
        for seed in 0..4u64 {
            for strong_seat in 0..2 {
                let bots = if strong_seat == 0 {
                    ["strong", "hunter"]
                } else {
                    ["hunter", "strong"]
                };
                let setup = Setup::new(params.clone(), 2, m);
                let extra = Extra {
                    engine_seed: seed as i64,
                };
                let (game, _) =
                    arena_tests::play_builtin::<Ants>(setup, seed, &bots, extra).unwrap();
                let s = game.scores();
                let (me, them) = (s[strong_seat], s[1 - strong_seat]);
                eprintln!(
                    "{m} seed {seed} strong seat {strong_seat}: {s:?} {:?} turn {}",
                    game.cutoff(),
                    game.current_turn()
                );
                if me > them {
                    strong += 1;
                } else if me < them {
                    hunter += 1;
                } else {
                    draws += 1;
                }
            }
        }
    }
    (strong, hunter, draws)
}

#[test]
fn strong_beats_hunter_on_most_two_player_golden_maps() {
    let (strong, hunter, draws) = tally();
    eprintln!("strong {strong}, hunter {hunter}, draws {draws}");
    assert!(
        strong > 2 * hunter && strong * 2 > strong + hunter + draws,
        "strong {strong}, hunter {hunter}, draws {draws}"
    );
}
