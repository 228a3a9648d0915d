//! The generic suite's invariants, checked after every tick of games played by the built-in bots
//! on crowded grids, where captures, base retreats, defeats and respawns really happen (random
//! actions alone seldom get that far).

use arena_core::games::colorfight::{ColorFight, ColorFightBot, Params, Variant};
use arena_core::{step_with_bots, Game, Roster};
use arena_tests::Suite;
use proptest::prelude::*;

#[derive(Default, Debug)]
struct Seen {
    defeats: u32,
    respawns: u32,
    lost_bases: u32,
}

fn play(params: &Params, seed: u64, lineup: &[usize]) -> Result<Seen, String> {
    let mut game = ColorFight::new(params, seed).map_err(|e| e.to_string())?;
    let mut bots: Vec<ColorFightBot> = (0..game.seats())
        .map(|s| {
            let name = ColorFight::BOTS[lineup[s % lineup.len()] % ColorFight::BOTS.len()];
            ColorFight::bot(name, seed ^ s as u64).unwrap()
        })
        .collect();
    let mut seen = Seen::default();
    while !game.is_over() {
        let before = game.clone();
        step_with_bots(&mut game, &mut bots);
        game.check(&before)
            .map_err(|e| format!("tick {}: {e}", before.tick()))?;
        for (a, b) in before.players().iter().zip(game.players()) {
            seen.defeats += u32::from(!a.defeated && b.defeated);
            seen.respawns += u32::from(a.defeated && !b.defeated);
            seen.lost_bases += u32::from(b.bases < a.bases);
        }
    }
    Ok(seen)
}

fn crowded(variant: Variant, side: u16, players: u8, ticks: u32) -> Params {
    Params {
        variant,
        width: side,
        height: side,
        players,
        ticks,
        ..Params::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn invariants_hold_in_bot_games(
        seed in any::<u64>(),
        lineup in proptest::collection::vec(0usize..3, 1..8),
        which in 0usize..3,
    ) {
        let params = [
            crowded(Variant::Conquest, 8, 8, 3_600),
            crowded(Variant::Skirmish, 6, 4, 2_000),
            crowded(Variant::Conquest, 12, 5, 3_300),
        ][which];
        if let Err(e) = play(&params, seed, &lineup) {
            return Err(TestCaseError::fail(format!("seed {seed}, lineup {lineup:?}: {e}")));
        }
    }
}

#[test]
fn bot_games_on_crowded_grids_reach_defeats_respawns_and_lost_bases() {
    let mut all = Seen::default();
    for seed in 0..6 {
        let s = play(&crowded(Variant::Conquest, 8, 8, 3_600), seed, &[0, 1, 2]).unwrap();
        all.defeats += s.defeats;
        all.respawns += s.respawns;
        all.lost_bases += s.lost_bases;
    }
    eprintln!("{all:?}");
    assert!(
        all.defeats > 0 && all.respawns > 0 && all.lost_bases > 0,
        "{all:?}"
    );
}
