//! # arena-tests: the tests every game goes through
//!
//! [`Suite`] is written once and run over every game (as OpenSpiel's generic tests are): arbitrary
//! action sequences never panic, the game's invariants hold after every turn, the same seed and
//! actions give the same digests, a clone re-plays to the same digests, and a fixed match of
//! built-in bots gives the digests pinned in the game's [`Suite::PINNED`]. The actions come from
//! the game's own generator ([`ArbitraryGame`], in arena-core behind its `arbitrary` feature), the
//! one the fuzz targets and the soak play too: proptest makes bytes, and at every step each seat's
//! action is drawn from them given the state, so the same bytes on the same states give the same
//! actions. `tests/all/suite.rs` runs it over every game of the host registry
//! ([`arena_core::with_games!`]) and the board build of Ants; a game joins by implementing
//! [`Suite`] (in `games/<game>.rs`).
//!
//! [`soak`] is the long run's engine (`cargo xtask soak`); [`golden`] finds the data written by the
//! original engines (`../shared/golden`, or `ARENA_GOLDEN`).

use arena_core::arbitrary::{ArbitraryGame, Unstructured};
use arena_core::{Roster, Seat, SetupError, MAX_SEATS};
use proptest::prelude::*;
use std::ops::Range;

pub mod games;
mod golden_data;
pub mod soak;

pub use golden_data::{golden, golden_files};

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
        ruleset: None,
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
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
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

/// What the generic suite needs to know about a game beyond the [`arena_core::Game`] API and its
/// generator.
pub trait Suite: ArbitraryGame + Roster + core::fmt::Debug {
    /// How many steps a case plays (fewer if the game ends first).
    const TURNS: Range<usize>;
    /// The most bytes a step's actions are drawn from (all seats together; the soak gives each
    /// arbitrary seat as many).
    const STEP_BYTES: usize = 96;
    /// The game's share of the soak's matches, in percent (slow games get fewer).
    const SOAK_SHARE: u64;
    /// The params the suite and the soak play with (several, to cover variants and sizes).
    fn params() -> Vec<Self::Params>;
    /// The invariants that must hold after every step, given the state before it.
    fn check(&self, before: &Self) -> Result<(), String>;
    /// The digests of the pinned match ([`pinned_digests`]), as the current code gives them:
    /// `(steps played, digest)`. A change to these values changes what every board reports, so
    /// the commit that changes them must say why (a rule fixed, a field added to the digest).
    const PINNED: &'static [(u32, u64)];
    /// The state, built where it will live.
    fn boxed(params: &Self::Params, seed: u64) -> Result<Box<Self>, SetupError> {
        Self::new(params, seed).map(Box::new)
    }
}

/// A seat's action drawn from `u` by the game's generator (the pass if the bytes cannot give one).
pub fn arbitrary_action<G: ArbitraryGame>(u: &mut Unstructured, game: &G, seat: Seat) -> G::Action {
    G::arbitrary_action(u, game, seat).unwrap_or_default()
}

/// Every seat's action for the next step of `game`, drawn from `bytes`: the seats to move play
/// the game's generator, the others pass.
pub fn arbitrary_actions<G: ArbitraryGame>(game: &G, bytes: &[u8]) -> Vec<G::Action> {
    let mut u = Unstructured::new(bytes);
    let movers = game.to_move();
    (0..game.seats())
        .map(|seat| {
            if movers.contains(seat) {
                arbitrary_action(&mut u, game, seat)
            } else {
                G::Action::default()
            }
        })
        .collect()
}

/// A strategy for the bytes of a case: one run of bytes per step, [`Suite::TURNS`] steps.
pub fn arb_steps<G: Suite>() -> impl Strategy<Value = Vec<Vec<u8>>> {
    proptest::collection::vec(
        proptest::collection::vec(any::<u8>(), 0..=G::STEP_BYTES),
        G::TURNS,
    )
}

/// A game played from bytes: the digest before and after every step, and the actions drawn.
#[derive(Debug, PartialEq)]
pub struct Played<A> {
    pub digests: Vec<u64>,
    pub actions: Vec<Vec<A>>,
}

/// Plays a fresh game, one step per run of bytes until it is over, checking the invariants after
/// every step.
pub fn play_checked<G: Suite>(
    params: &G::Params,
    seed: u64,
    steps: &[Vec<u8>],
) -> Result<Played<G::Action>, TestCaseError> {
    let mut game =
        G::boxed(params, seed).map_err(|e| TestCaseError::fail(format!("setup failed: {e}")))?;
    let mut played = Played {
        digests: vec![game.digest()],
        actions: Vec::new(),
    };
    for (t, bytes) in steps.iter().enumerate() {
        if game.is_over() {
            break;
        }
        let actions = arbitrary_actions(&*game, bytes);
        let before = game.clone();
        game.step(&actions);
        if let Err(why) = game.check(&before) {
            return Err(TestCaseError::fail(format!(
                "invariant broken at step {t} (seed {seed}, actions {actions:?}): {why}"
            )));
        }
        // Games answer `is_over` without building the outcome: the two must agree.
        if game.is_over() != game.outcome().is_some() {
            return Err(TestCaseError::fail(format!(
                "after step {t} (seed {seed}): is_over() is {} and outcome() {:?}",
                game.is_over(),
                game.outcome()
            )));
        }
        played.digests.push(game.digest());
        played.actions.push(actions);
    }
    Ok(played)
}

/// After how many steps the pinned match's digest is pinned (those it reaches; and its end).
pub const PIN_STEPS: [u32; 5] = [0, 1, 10, 100, 300];
/// The pinned match's seed.
pub const PIN_SEED: u64 = 42;

/// The pinned match of `G`: the first of [`Suite::params`], seeded [`PIN_SEED`], seat `s` played
/// by the built-in bot `Roster::BOTS[s % len]` seeded `s`, stepped as a board's match loop steps it
/// ([`Roster::step_bots`]) until it is over or [`PIN_STEPS`]' last step. The digest after each of
/// [`PIN_STEPS`] the match reaches, and at its end: `(steps played, digest)`. The same core code runs
/// on the boards, so these are the digests a board reports for the same match.
pub fn pinned_digests<G: Suite>() -> Result<Vec<(u32, u64)>, String> {
    let all = G::params();
    let params = all.first().ok_or("no params")?;
    let mut game = G::boxed(params, PIN_SEED).map_err(|e| e.to_string())?;
    let mut bots = (0..game.seats())
        .map(|s| {
            let name = G::BOTS[s % G::BOTS.len()];
            G::bot(name, s as u64).ok_or(format!("no bot {name}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let last = PIN_STEPS[PIN_STEPS.len() - 1];
    let mut out = Vec::new();
    let mut steps = 0;
    loop {
        if PIN_STEPS.contains(&steps) || game.is_over() {
            out.push((steps, game.digest()));
        }
        if game.is_over() || steps >= last {
            return Ok(out);
        }
        game.step_bots::<MAX_SEATS, _>(&mut bots, |_| ());
        steps += 1;
    }
}

/// The pinned match's digests are still [`Suite::PINNED`] (the message gives the new values in
/// the form to paste, for a change that is explained).
pub fn check_pinned<G: Suite>() -> Result<(), String> {
    let now = pinned_digests::<G>()?;
    if now == G::PINNED {
        return Ok(());
    }
    let listed: Vec<String> = now
        .iter()
        .map(|(k, d)| format!("({k}, 0x{d:016x})"))
        .collect();
    Err(format!(
        "{}: the pinned match's digests changed (explain why in the commit):\n    const PINNED: &'static [(u32, u64)] = &[{}];",
        G::NAME,
        listed.join(", ")
    ))
}

/// The generic properties, for one game.
pub fn check_suite_case<G: Suite>(
    which: usize,
    seed: u64,
    steps: &[Vec<u8>],
) -> Result<(), TestCaseError> {
    let all = G::params();
    let params = &all[which % all.len()];
    // No panic, invariants after every turn.
    let first = play_checked::<G>(params, seed, steps)?;
    // Determinism: the same seed and bytes give the same actions and digests after every turn.
    let second = play_checked::<G>(params, seed, steps)?;
    prop_assert_eq!(&first, &second, "same seed and bytes, different games");
    // A clone taken mid-game re-plays to the same digests (no hidden shared state), and draws the
    // same actions from the same bytes.
    let mut game = G::boxed(params, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let half = first.actions.len() / 2;
    for a in &first.actions[..half] {
        game.step(a);
    }
    let mut copy = game.clone();
    for (a, bytes) in first.actions[half..].iter().zip(&steps[half..]) {
        prop_assert_eq!(
            &arbitrary_actions(&*copy, bytes),
            a,
            "a clone drew other actions"
        );
        game.step(a);
        copy.step(a);
        prop_assert_eq!(game.digest(), copy.digest(), "a clone diverged");
    }
    Ok(())
}

/// Declares the generic suite's test for one game: `suite!(ants_mcu, AntsMcu);`
#[macro_export]
macro_rules! suite {
    ($name:ident, $game:ty) => {
        mod $name {
            use proptest::prelude::*;
            proptest! {
                #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
                #[test]
                fn generic_suite(
                    which in 0usize..8,
                    seed in any::<u64>(),
                    steps in $crate::arb_steps::<$game>(),
                ) {
                    $crate::check_suite_case::<$game>(which, seed, &steps)?;
                }
            }

            /// The digests of a fixed match of built-in bots are the pinned ones.
            #[test]
            fn pinned_digests() {
                if let Err(why) = $crate::check_pinned::<$game>() {
                    panic!("{why}");
                }
            }
        }
    };
}

/// The generic suite over a list of games as the registry gives it
/// (`arena_core::with_games!(suites)`), and `SUITE_GAMES`, the names of the games it covers.
#[macro_export]
macro_rules! suites {
    ($($folder:ident: $game:ty),* $(,)?) => {
        $($crate::suite!($folder, $game);)*
        /// The games the generic suite covers, by name.
        pub const SUITE_GAMES: &[&str] = &[$(<$game as arena_core::Game>::NAME),*];
    };
}
