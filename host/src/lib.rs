//! # arena-host: Pocket Arena on the desktop
//!
//! The `arena` command and everything that needs an operating system: the canonical JSON of every
//! game, bot processes and their protocols, time limits, replays and their verification,
//! tournaments, pictures. The rules are arena-core's and the pictures arena-firmware's screens: the
//! desktop adds what a board does not need, and adds it once for all games.
//!
//! ## A game is a folder
//! Everything the desktop knows about one game is in `games/<game>/`, behind one trait,
//! [`HostGame`]: its canonical state and action JSON, how an external bot is spoken to (a
//! [`protocol::Protocol`]; most games use [`protocol::JsonLines`] as it is), how a match is written
//! down as it is played (a [`record::Recorder`]) and read back and checked (`replay`, with the
//! kit in [`verify`]), the options of its `play` and `tournament` subcommands, and its tournament
//! format ([`tournament::Format`]). The registry ([`games`], one line per game) is the only list
//! of games; every subcommand, `arena bots`, replay detection and rendering follow from it.
//!
//! ## Written once
//! - [`play::play`]: the match loop. Every external bot that is to move is asked, then every
//!   answer is read in seat order under its protocol's deadline ([`protocol::Clock`]: from its own
//!   request, from the moment all were asked, or from the previous seat's answer), so bots think
//!   at the same time as in the originals. A fault plays what the protocol says instead; enough of
//!   them, or a crash, and the engine drops the bot (games whose rules say what a dropped bot does
//!   are told which seats were dropped in each step). Seats the rules put out hear the end at
//!   once, the others when the match is over.
//! - [`seats`]: who sits where: a built-in bot seeded with the one formula
//!   ([`arena_core::rng::bot_seed`]), a program ([`process::BotProcess`], in its own process group,
//!   killed and reaped whatever happens), or a TCP peer.
//! - [`verify`]: one [`verify::Difference`] (line, turn, field path, expected, got), one JSON diff,
//!   one report; [`replay::Head`] recognises a file from its first fields.
//! - [`tournament`]: schedules in rounds, matches in parallel (rayon) seeded by index, tables and
//!   TrueSkill ratings, shards and their merge.
//! - [`render`]: the boards' screens on a desktop canvas, as PNG, GIF or terminal frames.
//!
//! ## Adding a game
//! A folder `games/<game>/` implementing [`HostGame`], and one line in the core's registry,
//! [`arena_core::with_games!`]; the core's checklist says the rest.

pub mod cli;
pub mod commands;
pub mod game;
pub mod games;
pub mod out;
pub mod play;
pub mod process;
pub mod protocol;
pub mod record;
pub mod render;
pub mod replay;
pub mod seats;
pub mod tournament;
pub mod verify;
pub mod viewer;

pub use game::HostGame;
