//! # arena-tests: the tests every game goes through
//!
//! [`Suite`] is written once and run over every game (as OpenSpiel's generic tests are): arbitrary
//! action sequences never panic, the game's invariants hold after every turn, the same seed and
//! actions give the same digests, and a clone re-plays to the same digests. A game joins by
//! implementing [`Suite`] (in `games.rs`) and adding one line to `tests/suite.rs`.
//!
//! [`golden`] finds the data written by the original engines (`../shared/golden`, or `ARENA_GOLDEN`).

use arena_core::{Game, Seat};
use proptest::prelude::*;
use std::path::PathBuf;

pub mod games;

use arena_host::replay::ReplayContext;
use arena_host::verify::{Difference, Verified};
use arena_host::HostGame;

/// Re-plays `text` as a replay of `G` (on `map`, for games that need one) and checks it.
pub fn verify_on<G: HostGame>(text: &str, map: Option<&str>) -> Result<Verified, Difference> {
    replay_last::<G, ()>(text, map, |_| ()).map(|(v, _)| v)
}

/// [`verify_on`] without a map.
pub fn verify<G: HostGame>(text: &str) -> Result<Verified, Difference> {
    verify_on::<G>(text, None)
}

/// [`verify_on`], with what `look` makes of the last state the re-play reached (a projection,
/// not a copy: some states are large).
pub fn replay_last<G: HostGame, T>(
    text: &str,
    map: Option<&str>,
    mut look: impl FnMut(&G) -> T,
) -> Result<(Verified, Option<T>), Difference> {
    let ctx = ReplayContext {
        map: map.map(str::to_string),
    };
    let mut last = None;
    let v = G::replay(&mut text.as_bytes(), &ctx, &mut |g: &G| {
        last = Some(look(g))
    })?;
    Ok((v, last))
}

/// Plays `setup`'s match with built-in bots through the desktop's match loop, seeded `seed` (for
/// games with an engine seed of their own, the plan's `extra` is set by `extra`): the state at the
/// end and the replay as the game writes it.
pub fn play_builtin<G: HostGame>(
    setup: arena_host::game::Setup<G>,
    seed: u64,
    bots: &[&str],
    extra: G::Extra,
) -> Result<(Box<G>, String), String> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let specs = bots
        .iter()
        .map(|b| arena_host::seats::BotSpec::parse::<G>(b))
        .collect::<Result<Vec<_>, _>>()?;
    let mut plan = arena_host::game::Plan::new(setup, seed, specs, Default::default());
    plan.extra = extra;
    let path = std::env::temp_dir().join(format!(
        "arena-tests-{}-{}.{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        G::REPLAY_EXT
    ));
    let played = arena_host::play::play(&plan, Some(&path), None).map_err(|e| e.to_string())?;
    let replay = std::fs::read_to_string(&path).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&path);
    Ok((played.game, replay?))
}

/// What the generic suite needs to know about a game beyond the [`Game`] API.
pub trait Suite: Game + core::fmt::Debug {
    /// The params the suite plays with (several, to cover variants and sizes).
    fn params() -> Vec<Self::Params>;
    /// Any action a bot could send for `seat`, legal or not.
    fn arb_action(seat: Seat) -> BoxedStrategy<Self::Action>;
    /// The invariants that must hold after every step, given the state before it.
    fn check(&self, before: &Self) -> Result<(), String>;
}

/// A strategy for `turns` turns of actions for `seats` seats.
pub fn arb_turns<G: Suite>(
    seats: usize,
    turns: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Vec<G::Action>>> {
    let per_turn: Vec<BoxedStrategy<G::Action>> = (0..seats).map(G::arb_action).collect();
    proptest::collection::vec(per_turn, turns)
}

/// Plays `turns` from a fresh game, checking the invariants after every step. Returns the digests.
pub fn play_checked<G: Suite>(
    params: &G::Params,
    seed: u64,
    turns: &[Vec<G::Action>],
) -> Result<Vec<u64>, TestCaseError> {
    let mut game = match G::new(params, seed) {
        Ok(g) => g,
        Err(e) => return Err(TestCaseError::fail(format!("setup failed: {e}"))),
    };
    let mut digests = vec![game.digest()];
    for (t, actions) in turns.iter().enumerate() {
        if game.is_over() {
            break;
        }
        let before = game.clone();
        game.step(actions);
        if let Err(why) = game.check(&before) {
            return Err(TestCaseError::fail(format!(
                "invariant broken at step {t} (seed {seed}): {why}"
            )));
        }
        digests.push(game.digest());
    }
    Ok(digests)
}

/// The generic properties, for one game.
pub fn check_suite_case<G: Suite>(
    which: usize,
    seed: u64,
    turns: &[Vec<G::Action>],
) -> Result<(), TestCaseError> {
    let all = G::params();
    let params = &all[which % all.len()];
    // No panic, invariants after every turn.
    let first = play_checked::<G>(params, seed, turns)?;
    // Determinism: the same seed and actions give the same digest after every turn.
    let second = play_checked::<G>(params, seed, turns)?;
    prop_assert_eq!(&first, &second, "same seed and actions, different digests");
    // A clone taken mid-game re-plays to the same digests (no hidden shared state).
    let mut game = G::new(params, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let half = turns.len() / 2;
    for a in &turns[..half] {
        game.step(a);
    }
    let mut copy = game.clone();
    for a in &turns[half..] {
        game.step(a);
        copy.step(a);
        prop_assert_eq!(game.digest(), copy.digest(), "a clone diverged");
    }
    Ok(())
}

/// Declares the generic suite's tests for one game: `suite!(td, TowerDefense, seats = 2, turns = 0..400);`
#[macro_export]
macro_rules! suite {
    ($name:ident, $game:ty, seats = $seats:expr, turns = $turns:expr) => {
        mod $name {
            use super::*;
            use proptest::prelude::*;
            proptest! {
                #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
                #[test]
                fn generic_suite(
                    which in 0usize..8,
                    seed in any::<u64>(),
                    turns in $crate::arb_turns::<$game>($seats, $turns),
                ) {
                    $crate::check_suite_case::<$game>(which, seed, &turns)?;
                }
            }
        }
    };
}

/// The folder of golden data for `game` (`tower-defense`, `ants`...): `$ARENA_GOLDEN/<game>` if set,
/// else `../shared/golden/<game>` beside the project. Missing data is a test failure with a clear
/// message, never a skip.
pub fn golden(game: &str) -> PathBuf {
    let root = match std::env::var_os("ARENA_GOLDEN") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden"),
    };
    let dir = root.join(game);
    assert!(
        dir.is_dir(),
        "golden data for {game} not found at {}: put ../shared beside the project or set ARENA_GOLDEN",
        dir.display()
    );
    dir
}

/// Every file in a golden folder with the given extension, sorted by name.
pub fn golden_files(game: &str, ext: &str) -> Vec<PathBuf> {
    let dir = golden(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} files in {}", dir.display());
    files
}
