//! # arena-firmware: what every board runs
//!
//! The board-independent half of the firmware. A board brings three things as a [`board::Parts`]:
//! a display that is an embedded-graphics `DrawTarget`, a turn clock, and a [`board::Listener`]
//! (its way to show a finished frame, and its own figures); this crate brings the rest:
//!
//! - [`play`]: the match loop: a rotation ([`lineup::Lineup`]) of bot-vs-bot matches, each entry's
//!   seeds its own, the game's screen after every turn and a result screen between matches;
//! - [`mod@lineup`]: the seam between a board and this crate: a board's (or a user's own) binary names
//!   the lineup it plays, [`lineup!`] writes one, seat by seat a built-in bot (its name checked at
//!   build time) or a user's bot;
//! - [`games`]: one [`screen::Screen`] per game and [`games::Arcade`], the rotation the boards play;
//! - [`screen`]: the [`screen::Screen`] trait, drawn on any display through a [`palette::Palette`]
//!   (1-bit, 4-bit gray, RGB565) and a [`screen::Layout`] that adapts to the display's size;
//! - [`cost`]: per-turn cost (cycles on real boards, instructions under QEMU `-icount`) and its
//!   min/median/max;
//! - [`diff`]: frames drawn in memory and sent as their changes only (the F411's LCD, the Pico's OLED,
//!   the QEMU board's OLED);
//! - [`frame`]: the 128x64 4-bit framebuffer the SSD0323 boards flush, also used by the host to render
//!   exactly what such a board shows;
//! - with the `defmt` feature, the match log: start (game, seed, bots), a state digest every N turns,
//!   the result, and the per-turn cost.
//!
//! It builds for the host too, so the desktop draws the same pixels and computes the same digests as
//! a board: the cross-platform checks compare the two.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]

pub mod board;
pub mod cost;
pub mod diff;
pub mod frame;
pub mod games;
pub mod lineup;
pub mod palette;
pub mod play;
pub mod screen;

#[doc(hidden)]
pub use arena_core as __core;
pub use board::{Board, Event, Listener, Parts};
pub use cost::{CostStats, TurnClock};
pub use frame::Gray4Frame;
pub use games::{Arcade, F411Arcade, PicoArcade};
pub use lineup::{Entry, Lineup, Visit};
pub use palette::Palette;
pub use play::{play_match, run, MatchSummary, RunConfig};
pub use screen::{Layout, Screen, SidePanel};
