//! `arena play ants` and `arena tournament ants`: the flags and help.

use crate::games::ants::{PlayOptions, TournamentOptions};
use arena_core::games::ants::Ants;
use clap::Args;
use std::path::PathBuf;

/// `arena play ants`'s own flags: playgame.py's.
#[derive(Args, Clone, Debug)]
pub struct PlayFlags {
    /// The map (official format); its `players` line says how many bots the match takes.
    #[arg(long, value_name = "MAP", required = true)]
    pub map: PathBuf,
    /// Turn limit (playgame.py's default: 1000).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u16).range(1..))]
    pub turns: u16,
    /// The engine seed: food, symmetry and the bot shuffle (default: --seed, else from the clock;
    /// printed and recorded in the replay either way).
    #[arg(long, alias = "engine_seed", value_name = "S")]
    #[arg(allow_negative_numbers = true)]
    pub engine_seed: Option<i64>,
    /// The seed sent to the bots (`player_seed` line; default: derived from the engine seed).
    #[arg(long, alias = "player_seed", value_name = "S")]
    #[arg(allow_negative_numbers = true)]
    pub player_seed: Option<i64>,
    /// Time for a bot to start and answer `ready`, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub loadtime: u32,
    /// Time per turn, in milliseconds, all bots thinking at the same time (default: --turn-ms,
    /// else 1000).
    #[arg(long, value_name = "MS")]
    pub turntime: Option<u32>,
}

/// `arena tournament ants`'s own flags.
#[derive(Args, Clone, Debug)]
pub struct TournamentFlags {
    /// A map (official format); give several to rotate, match i is played on map i mod maps.
    #[arg(long = "map", value_name = "MAP", required = true)]
    pub maps: Vec<PathBuf>,
    /// Turn limit of every match.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub turns: u16,
}

game_cli! {
    Ants {
        play: |f: &PlayFlags| PlayOptions {
            map: f.map.clone(),
            turns: f.turns,
            seeds: (f.engine_seed, f.player_seed),
            loadtime: f.loadtime,
            turntime: f.turntime,
        },
        tournament: |f: &TournamentFlags| TournamentOptions {
            maps: f.maps.clone(),
            turns: f.turns,
        },
        about: "Ants (Google AI Challenge 2011) on an official map, official protocol and replay.",
        replay: "An Ants replay (official format, revision 3), re-played on the map it holds (--map: checked to be that map).",
        time_limit: "1,000 ms an answer, or --turntime",
        bots: [
            "strong: one ant per food, the others march on enemy hills, never into a fight it would lose",
            "hunter: every ant walks to the nearest food, else enemy hill, else enemy ant",
            "hold: never moves (the official HoldBot)",
        ],
    }
}
