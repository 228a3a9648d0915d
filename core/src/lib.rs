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
//!   engine's generator carry it (Ants: CPython's MT19937).
//! - **One API for every game** ([`game::Game`]), in the spirit of OpenSpiel: the description
//!   (`Params`) is separate from the state; the same questions (who moves, step, outcome, digest) are
//!   answered by every game, so one generic test suite, one match loop and one tournament runner serve
//!   them all. Simultaneous games name every seat in `to_move`; sequential ones (Mammut) name one.
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
//! by [`game::Roster`], and are as deterministic as the rules: their randomness is seeded too.
//!
//! ## Adding a game: the checklist
//! 1. **Module**: `core/src/games/<game>/` with `mod.rs` (module docs: rules summary, capacities,
//!    state size), the state and rules, and `Game` implemented. Cite `rules/<game>.md` decisions.
//! 2. **Rules tests**: a unit test per numbered rule and decision of `rules/<game>.md`, named after it.
//! 3. **Generic suite**: its arbitrary params and actions in `games/<game>/arbitrary.rs`
//!    (`arbitrary::ArbitraryGame`, behind the `arbitrary` feature), and `arena_tests::Suite` (its
//!    invariants) in `tests/src/games/<game>.rs`. The suite, the soak and the fuzz targets play that
//!    one generator and follow from the host registry (no panics, invariants after every turn,
//!    determinism, replay); add the game's `action_`, `verify_` and `game_` fuzz targets.
//! 4. **Conformance**: `arena verify <game> FILE` in arena-host, and an integration test that verifies
//!    every file of `../shared/golden/<game>/` (where an original engine exists).
//! 5. **Bots**: built-in bots in `games/<game>/bots.rs` (random-legal and at least one real strategy),
//!    registered through `Roster`; the codec and `cmd:` protocol in `host/src/games/<game>.rs`.
//! 6. **Screen**: a screen in arena-firmware for every display, in the demo rotation and the
//!    host-vs-QEMU digest check.
//! 7. **Bench**: a criterion bench in `benches/` and `size_of` of the state checked against its budget.

#![no_std]
#![forbid(unsafe_code)]
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

pub use digest::Digest;
pub use game::{step_with_bots, Bot, Game, Roster, SetupError, StepReport};
pub use outcome::Outcome;
pub use rng::Rng;
pub use seat::{Seat, SeatSet, MAX_SEATS};
