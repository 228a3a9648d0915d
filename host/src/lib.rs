//! # arena-host: Pocket Arena on the desktop
//!
//! The `arena` command and everything that needs an operating system: JSON codecs, bot processes
//! and their protocols, time limits, replays and traces.

pub mod commands;
pub mod formats;
pub mod games;
pub mod play;
pub mod process;
pub mod render;
pub mod replay;
pub mod tournament;
