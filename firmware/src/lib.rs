//! # arena-firmware: what every board runs
//!
//! The board-independent half of the firmware: the match loop, the screens that draw each game on
//! any embedded-graphics `DrawTarget`, and per-turn cost accounting. Builds for the host too, so the
//! desktop renders exactly what a board shows.

#![no_std]
#![forbid(unsafe_code)]
