//! Every game the desktop knows, one folder each (a plain `pub mod` line a game, equal to the
//! registry: host/tests/all/game_folders.rs), and from the one list ([`arena_core::with_games!`]):
//! replay detection and verification, `arena merge`'s formats, the long runs and the fuzz targets
//! follow from it. The command line keeps its own list from the same macro
//! (`commands::GAMES`, in the command layer): this layer does not know it.

use crate::error::Error;
use crate::format::Format;
use crate::host_game::HostGame;
use crate::replay::{Head, ReplayContext};
use crate::verify::{Difference, Verified};
use std::io::BufRead;

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;

macro_rules! registry {
    ($($folder:ident: $game:ty),* $(,)?) => {
        /// Every game, in the order `arena` lists them.
        pub static GAMES: &[Entry] = &[$(Entry::of::<$game>()),*];
    };
}

arena_core::with_games!(registry);

/// One game, as the generic code reaches it.
pub struct Entry {
    /// The game's name, as on the command line.
    pub name: &'static str,
    /// The built-in bots' names, the default opponent first.
    pub bots: &'static [&'static str],
    /// Whether its replays can be re-played on a map given beside them.
    pub map_beside: bool,
    /// The rulesets its replays may have been played under, when the files do not say.
    pub rulesets: &'static [&'static str],
    /// Re-plays a replay of the game and checks everything it records ([`check`]).
    pub verify: fn(&mut dyn BufRead, &ReplayContext) -> Result<Verified, Difference>,
    /// Whether a file starting with this head is one of the game's replays.
    pub detect: fn(&Head) -> bool,
    /// The format of a results file whose `game` is this name, if it is one of the game's
    /// ([`crate::GameFormat::format_of`]).
    pub format_of: fn(&str) -> Option<Box<dyn Format>>,
}

impl Entry {
    /// The entry of game `G`.
    pub const fn of<G: HostGame>() -> Entry {
        Entry {
            name: G::NAME,
            bots: G::BOTS,
            map_beside: G::MAP_BESIDE,
            rulesets: G::RULESETS,
            verify: check::<G>,
            detect: G::detect,
            format_of: G::format_of,
        }
    }
}

/// Re-plays `input` as a `G` replay without looking at its states.
pub fn check<G: HostGame>(
    input: &mut dyn BufRead,
    ctx: &ReplayContext,
) -> Result<Verified, Difference> {
    G::replay(input, ctx, &mut |_: &G| {})
}

/// The game called `name` (as on the command line).
pub fn by_name(name: &str) -> Option<&'static Entry> {
    GAMES.iter().find(|g| g.name == name)
}

/// The game whose replay starts with `head`.
pub fn detect(head: &Head) -> Result<&'static Entry, Error> {
    if let Some(g) = GAMES.iter().find(|g| (g.detect)(head)) {
        return Ok(g);
    }
    let named = head
        .get("header")
        .and_then(|h| h.get("game"))
        .or_else(|| head.get("game"))
        .or_else(|| head.get("challenge"));
    Err(match named {
        Some(g) => Error::UnknownGame {
            named: g.to_string(),
            games: names(),
        },
        None => Error::NoGame { games: names() },
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
