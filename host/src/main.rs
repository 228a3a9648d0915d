//! `arena`: play Pocket Arena's games on the desktop.

use arena_host::commands::{self, ants, ballroom, colorfight, mammut, tower_defense};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arena",
    version,
    about = "Pocket Arena: king-of-the-hill bot games, the same rules on a microcontroller and here.",
    long_about = "Pocket Arena: king-of-the-hill bot games, the same rules on a microcontroller and here.\n\n\
Bots are built-in names (see `arena bots`) or `cmd:<command line>`: any program speaking the game's \
protocol over stdin/stdout (see host/examples/)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play one match and print the result, the seed and why the game ended.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Re-play a trace or replay and check every recorded state; exit 1 at the first difference.
    Verify {
        #[command(subcommand)]
        game: VerifyGame,
    },
    /// Play a tournament in the format the original challenge announced, with ratings and faults.
    Tournament(commands::tournament::TournamentArgs),
    /// Draw a replay through the boards' screens: a GIF of the match, or a PNG of one turn.
    Render(commands::render::RenderArgs),
    /// Combine the results of tournament shards (--shard) into one table, as a single run would give.
    Merge(commands::tournament::MergeArgs),
    /// List the games and their built-in bots.
    Bots,
}

#[derive(Subcommand)]
enum PlayGame {
    /// Tower Defense (Duel: two players; Siege: invader against defender).
    TowerDefense(tower_defense::PlayArgs),
    /// ColorFight (Conquest or Skirmish), 2 to 8 players on a grid, one step per 100 ms tick.
    Colorfight(colorfight::PlayArgs),
    /// Mammut: five players take and steal tiles over five rounds (give five bots).
    Mammut(mammut::PlayArgs),
    /// Ballroom Blitz (MechMania 28): four players on a 10x10 grid, 100 turns of four phases.
    Ballroom(ballroom::PlayArgs),
    /// Ants (Google AI Challenge 2011) on an official map, official protocol and replay.
    Ants(ants::PlayArgs),
}

#[derive(Subcommand)]
enum VerifyGame {
    /// A Tower Defense trace (JSON lines: header, turn-0 state, one line per turn).
    TowerDefense {
        /// The trace file.
        file: PathBuf,
    },
    /// A ColorFight trace (JSON lines: header, then one line per tick).
    Colorfight {
        /// The trace file.
        file: PathBuf,
    },
    /// A Mammut trace (JSON lines: header, then one line per action).
    Mammut {
        /// The trace file.
        file: PathBuf,
    },
    /// A Ballroom Blitz game log in the official engine's format ({"names":[...],"turns":[...]}).
    Ballroom {
        /// The log file.
        file: PathBuf,
    },
    /// An Ants replay (official format, revision 3), re-played on its map.
    Ants {
        /// The replay file.
        file: PathBuf,
        /// The map the game was played on (replays do not hold it).
        #[arg(long, value_name = "MAP")]
        map: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play { game } => match game {
            PlayGame::TowerDefense(args) => tower_defense::play(&args),
            PlayGame::Colorfight(args) => colorfight::play(&args),
            PlayGame::Mammut(args) => mammut::play(&args),
            PlayGame::Ballroom(args) => ballroom::play(&args),
            PlayGame::Ants(args) => ants::play(&args),
        },
        Command::Verify { game } => {
            let (file, check): (PathBuf, Check) = match game {
                VerifyGame::TowerDefense { file } => (file, tower_defense::verify),
                VerifyGame::Colorfight { file } => (file, colorfight::verify),
                VerifyGame::Mammut { file } => (file, mammut::verify),
                VerifyGame::Ballroom { file } => (file, ballroom::verify),
                VerifyGame::Ants { file, map } => {
                    let map_text = match std::fs::read_to_string(&map) {
                        Ok(t) => t,
                        Err(e) => {
                            eprintln!("arena: cannot read map {}: {e}", map.display());
                            return ExitCode::from(1);
                        }
                    };
                    return verify(&file, |text| ants::verify(text, &map_text));
                }
            };
            return verify(&file, check);
        }
        Command::Tournament(args) => commands::tournament::tournament(&args),
        Command::Merge(args) => commands::tournament::merge(&args),
        Command::Render(args) => commands::render::render(&args),
        Command::Bots => {
            commands::list_bots();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A game's verifier: a summary when everything matches, else the first difference.
type Check = fn(&str) -> Result<String, String>;

fn verify(file: &PathBuf, check: impl Fn(&str) -> Result<String, String>) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("arena: cannot read {}: {e}", file.display());
            return ExitCode::from(1);
        }
    };
    match check(&text) {
        Ok(summary) => {
            println!("{}: {summary}", file.display());
            ExitCode::SUCCESS
        }
        Err(diff) => {
            println!("{}: {diff}", file.display());
            ExitCode::from(1)
        }
    }
}
