//! Every game the desktop knows, from the one list ([`arena_core::with_games!`]). Everything that
//! lists games (the subcommands of `arena play`, `verify` and `tournament` and their help, `arena
//! bots`, replay detection, render dispatch, `arena merge`, the long runs and the fuzz targets)
//! follows from it.

use crate::commands;
use crate::game::{HostGame, Server};
use crate::replay::{Head, ReplayContext};
use crate::tournament::Format;
use crate::verify::{Difference, Verified};
use std::io::BufRead;

macro_rules! registry {
    ($($folder:ident: $game:ty),* $(,)?) => {
        $(pub mod $folder;)*
        /// Every game, in the order `arena` lists them.
        pub static GAMES: &[Entry] = &[$(Entry::of::<$game>()),*];
    };
}

arena_core::with_games!(registry);

/// One game, as the generic commands reach it.
pub struct Entry {
    pub name: &'static str,
    pub about: &'static str,
    pub bots: &'static [&'static str],
    pub bot_notes: &'static [&'static str],
    pub replay_about: &'static str,
    pub map_beside: bool,
    pub play: fn() -> clap::Command,
    pub run_play: fn(&clap::ArgMatches) -> anyhow::Result<()>,
    pub tournament: fn() -> clap::Command,
    pub run_tournament: fn(&clap::ArgMatches) -> anyhow::Result<()>,
    pub verify: fn(&mut dyn BufRead, &ReplayContext) -> Result<Verified, Difference>,
    pub detect: fn(&Head) -> bool,
    pub render: fn(&commands::render::Job<'_>) -> anyhow::Result<String>,
    pub format_of: fn(&str) -> Option<Box<dyn Format>>,
    /// `arena serve <game>`, if the game has a server.
    pub server: Option<Server>,
}

impl Entry {
    pub const fn of<G: HostGame>() -> Entry {
        Entry {
            name: G::NAME,
            about: G::ABOUT,
            bots: G::BOTS,
            bot_notes: G::BOT_NOTES,
            replay_about: G::REPLAY_ABOUT,
            map_beside: G::MAP_BESIDE,
            play: commands::play::command::<G>,
            run_play: commands::play::run::<G>,
            tournament: commands::tournament::command::<G>,
            run_tournament: commands::tournament::run::<G>,
            verify: commands::verify::check::<G>,
            detect: G::detect,
            render: commands::render::render::<G>,
            format_of: G::format_of,
            server: G::SERVER,
        }
    }
}

/// The game called `name` (as on the command line).
pub fn by_name(name: &str) -> Option<&'static Entry> {
    GAMES.iter().find(|g| g.name == name)
}

/// The game whose replay starts with `head`.
pub fn detect(head: &Head) -> Result<&'static Entry, String> {
    if let Some(g) = GAMES.iter().find(|g| (g.detect)(head)) {
        return Ok(g);
    }
    let named = head
        .get("header")
        .and_then(|h| h.get("game"))
        .or_else(|| head.get("game"))
        .or_else(|| head.get("challenge"));
    Err(match named {
        Some(g) => format!("unknown game {g}: not one of {}", names().join(", ")),
        None => format!(
            "not a replay of any game here ({}): expected a trace header naming its game, an \
             official log or an official replay",
            names().join(", ")
        ),
    })
}

/// Every game's name.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// The tournament format of a results file's `game` (for `arena merge`).
pub fn format_of(name: &str) -> Option<Box<dyn Format>> {
    GAMES.iter().find_map(|g| (g.format_of)(name))
}
