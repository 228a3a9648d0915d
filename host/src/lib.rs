//! # arena-host: Pocket Arena on the desktop
//!
//! The `arena` command and everything that needs an operating system: the canonical JSON of every
//! game, bot processes and their protocols, time limits, replays and their verification,
//! tournaments, pictures. The rules are arena-core's and the pictures arena-firmware's screens: the
//! desktop adds what a board does not need, and adds it once for all games.
//!
//! ## A game is a folder
//! Everything the desktop knows about one game is in `games/<game>/`, behind a few traits, one
//! per concern and each named after its module, together [`HostGame`]: [`Playable`]
//! (`game.rs`), the match's steps and the canonical state and action JSON; [`GameProtocol`]
//! (`protocol.rs`), how an external bot is spoken to (a [`protocol::Protocol`]; most games use
//! [`protocol::JsonLines`] as it is); [`Record`] (`record.rs`), how a match is written down as it
//! is played (a [`record::Recorder`]) and read back and checked (with the kit in [`verify`]);
//! [`GameSetup`] (`setup.rs`), the match its options ask for; [`GameFormat`] (`format.rs`), its
//! tournament format ([`format::Format`]). A match plays with [`GameProtocol`] and [`Record`]
//! alone ([`play::play`]). None of them knows the command line, the viewer or Python: each game's
//! flags and help are in its file of the command layer, `cli/<game>.rs` ([`cli::GameCli`]), its
//! viewer in arena-viewer (`arena_viewer::Viewed`), which only the viewer page and `arena render`
//! ask for, and its Python environment in `python/`: impls beside these, never supertraits of
//! them. The registry ([`arena_core::with_games!`], one line per
//! game) is the only list of games; [`games::GAMES`] and the command line's [`commands::GAMES`]
//! are both written from it.
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
//! A folder `games/<game>/` implementing the traits above, a file `cli/<game>.rs` with its flags,
//! each declared by a plain `pub mod <game>;` line (in `games/mod.rs` and `cli/mod.rs`), and one
//! line in the core's registry, [`arena_core::with_games!`]; the core's checklist says the rest.

#![warn(missing_docs)]

// The layers, top to bottom: a module names only modules of its own layer or below, and the
// module graph has no cycle (host/tests/all/layers.rs checks both).
//
// The command line: the clap structs and each game's flags and help, the subcommands.
pub mod cli;
pub mod commands;
// The game folders, and the list of them.
pub mod games;
// The match machinery, written once for every game.
pub mod play;
pub mod render;
pub mod tournament;
pub mod viewer;
// The contracts a game implements, and what they name.
pub mod error;
pub mod format;
pub mod game;
pub mod host_game;
pub mod protocol;
pub mod record;
pub mod replay;
pub mod seats;
pub mod setup;
pub mod verify;
// Processes and output.
pub mod out;
pub mod process;
pub mod sandbox;
pub mod turn_time;

pub use error::Error;
pub use format::GameFormat;
pub use game::Playable;
pub use host_game::HostGame;
pub use protocol::GameProtocol;
pub use record::Record;
pub use setup::GameSetup;
