//! # arena-core: the rules of Pocket Arena's games
//!
//! The rules of every game are written once, here, and run unchanged on a Cortex-M0 with 264 KB of
//! RAM and on the desktop. That one requirement shapes everything in this crate:
//!
//! - **`no_std`, no allocation, no `unsafe`.** Every container has its capacity in its type (a
//!   `heapless::Vec`, a const-sized array); capacities are named consts documented in each game's
//!   module. A full container is a *rule case* (the order is refused, the spawn waits), never a panic.
//! - **Deterministic.** A match is a pure function of (params, seed, actions). No floats (fractions are
//!   integers or `fixed`), no hash maps, no iteration order left to chance. Every random draw comes from
//!   an explicitly seeded [`rng::Rng`] stream for one purpose; games that must copy an original
//!   engine's generator carry it in their folder.
//! - **One API for every game** ([`game::Game`]), in the spirit of OpenSpiel: the description
//!   (`Params`) is separate from the state; the same questions (who moves, step, outcome, digest) are
//!   answered by every game, so one generic test suite, one match loop and one tournament runner serve
//!   them all. Simultaneous games name every seat in `to_move`; sequential ones name one.
//! - **Bad input is a refusal, not a crash.** `step` accepts any action value; what the rules do not
//!   allow is refused and counted in the [`game::StepReport`], and the seat passes.
//!   Outside tests, clippy denies `unwrap`, `expect`, `panic!`, unchecked indexing and arithmetic
//!   that could overflow (the crate-level lints below): every index is a `get`, every sum is
//!   checked, saturating or, where the original algorithm wraps (MT19937, xoshiro, FNV), wrapping.
//! - **Small errors.** Errors are small `Copy` enums ([`game::SetupError`]). With the `defmt` feature,
//!   the types that cross to the firmware derive `defmt::Format`.
//! - **A stable digest.** [`game::Game::digest`] hashes the state field by field ([`digest::Digest`]),
//!   so the same match gives the same digest after every turn on x86-64 and on the Cortex-M in QEMU.
//!
//! Built-in bots live beside their game (`games/<game>/bots.rs`), implement [`game::Bot`], are listed
//! by [`game::Roster`], and are as deterministic as the rules: their randomness is seeded too. A bot
//! is given its seat's view ([`Game::View`]: the whole state in an open game, [`view::Open`]; the
//! fog of war in Ants; the public table in Mammut), never more; a user's bot is a `Bot<G>` the same
//! way, and `&mut dyn Bot<G>` is one, so built-in and user bots play in one match.
//!
//! ## A match in a few lines
//! Two built-in bots play a short ColorFight; the loop is what every match loop does (the boards',
//! the host's), and the result is the same on every target for the same seeds.
//! ```
//! use arena_core::games::colorfight::{ColorFight, Params};
//! use arena_core::{step_with_bots, Game, Roster};
//!
//! let params = Params { players: 2, width: 10, height: 10, ticks: 600, ..Params::default() };
//! let mut game = ColorFight::new(&params, 42)?;
//! let mut bots = [ColorFight::bot("strategist", 1).unwrap(), ColorFight::bot("random", 2).unwrap()];
//! while !game.is_over() {
//!     step_with_bots(&mut game, &mut bots);
//! }
//! let outcome = game.outcome().unwrap();
//! assert_eq!((game.tick(), outcome.ranks()), (600, &[0, 1][..]), "the strategist wins");
//! println!("{}: scores {:?}, digest {:#x}", outcome.reason, outcome.scores(), game.digest());
//! # Ok::<(), arena_core::SetupError>(())
//! ```
//!
//! ## Adding a game: the checklist
//! A game is a folder on every layer, and on each layer it implements that layer's traits side by
//! side: none of them is a supertrait of what plays a match, so the desktop plays a game before its
//! viewer, command line or Python environment exists (docs/architecture.md has the table).
//! 1. **A folder in core**, `core/src/games/<game>/`: the rules ([`game::Game`], citing the
//!    decisions of `rules/<game>.md`), the built-in bots ([`game::Roster`]), its generator of
//!    params and actions (`arbitrary.rs`, behind the `arbitrary` feature), a unit test per rule
//!    and decision, capacities and state size in the module docs.
//! 2. **A screen in firmware**, `firmware/src/games/<game>.rs`: `arena_firmware::Screen` and
//!    `arena_firmware::SidePanel` (every method has a default: `impl SidePanel for G {}` is whole;
//!    the `desktop` feature's panel methods are worth writing for the desktop's pictures).
//! 3. **A folder in host**, `host/src/games/<game>/`: `arena_host::Playable` (canonical JSON),
//!    `arena_host::GameProtocol` (the bots' protocol) and `arena_host::Record` (the replay writer
//!    and reader): with these a match plays (`arena_host::play::play`); then
//!    `arena_host::GameSetup` (the match its options ask for) and `arena_host::GameFormat` (the
//!    tournament format), which make it an `arena_host::HostGame`.
//! 4. **The impls beside it**, each in its own layer's folder: the command line,
//!    `host/src/cli/<game>.rs` (`arena_host::cli::GameCli`: flags and help; and, only for a game
//!    whose original was a server, `arena_host::cli::Serve` there with a line in
//!    `arena_host::cli::SERVERS`); the browser viewer,
//!    `host/viewer/src/games/<game>.rs` (`arena_viewer::Viewed`); Python, the game's
//!    `impl Observe` and `impl Teach` in `python/src/games.rs` and `python/src/reward.rs` (its
//!    observation in `python/src/obs.rs`) and its module `python/pocket_arena/<game>.py`.
//! 5. **One line in each registry**: [`with_games!`] in `core/src/games/mod.rs` (every layer's
//!    list of games follows from it: the host's commands, the viewer, Python's environments, the
//!    suite, the soak and the fuzz targets), and the boards' lineup (`firmware/src/games/mod.rs`).
//!    **And one plain `pub mod <game>;` line in each layer's module list**, in
//!    `core/src/games/mod.rs`, `host/src/games/mod.rs`, `host/src/cli/mod.rs`,
//!    `host/viewer/src/games/mod.rs` and `firmware/src/games/mod.rs`. No module is declared inside
//!    a macro, so rustfmt, grep and cargo-mutants reach every file. What fails when a part is
//!    missing: `host/tests/all/game_folders.rs` when a layer's module list, or the Python modules
//!    of `python/pocket_arena/`, differ from the registry; the build of the host (`arena`'s
//!    registry asks every game for `GameCli` and `Viewed`) when the command line or the viewer is
//!    missing; the Python step of `cargo xtask test` (`cd python && cargo clippy`,
//!    host/xtask/src/python.rs) when `Observe` or `Teach` is, since Python's registry asks every
//!    game for them.
//! 6. **The tests and benches that come with the folder**: its `arena_tests::Suite` invariants
//!    (the generic suite, the soak and the fuzz targets follow from the registry and play the
//!    folder's generator), its `action_`, `verify_` and `game_` fuzz targets, a conformance test
//!    over `../shared/golden/<game>/` where an original engine exists, and a criterion bench in
//!    `benches/`.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects
    )
)]

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod digest;
pub mod game;
pub mod games;
pub mod outcome;
pub mod rng;
pub mod seat;
pub mod view;

pub use digest::Digest;
pub use game::{step_with_bots, Bot, Game, Moment, Roster, SetupError, StepReport};
pub use outcome::{Decision, Outcome, DECISION_KEYS};
pub use rng::Rng;
pub use seat::{Seat, SeatSet, MAX_SEATS};
pub use view::Open;
