//! What goes wrong in the library, as values: [`Error`], one variant a kind, each with what a
//! caller needs to act on it (the bot, the seat, the file, the numbers). The words are those the
//! `arena` command prints; only the command line and the binary add context of their own.

use crate::replay::Unreadable;
use crate::seats::BadBot;
use crate::verify::Difference;
use arena_core::SetupError;
use std::path::PathBuf;

/// Why the library could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bot as given cannot play.
    #[error(transparent)]
    Bot(#[from] BadBot),
    /// A built-in bot the game does not have (asked for past the check of [`BadBot`]).
    #[error("unknown bot `{name}` for {game}")]
    NoSuchBot { game: &'static str, name: String },
    /// A name that is none of the game's built-in bots.
    #[error("unknown bot `{name}` for {game}: built-in bots are {}", bots.join(", "))]
    NotBuiltin {
        game: &'static str,
        name: String,
        bots: &'static [&'static str],
    },
    /// More bots than the match has seats.
    #[error("{game} takes {seats} bots, {given} were given")]
    TooManyBots {
        game: &'static str,
        seats: usize,
        given: usize,
    },
    /// A map for a number of players other than the bots given.
    #[error(
        "{} is a {players}-player map: give {players} bots (--bot), {given} were given",
        map.display()
    )]
    WrongBotCount {
        map: PathBuf,
        players: usize,
        given: usize,
    },
    /// More names than bots.
    #[error("{names} --name given for {bots} --bot: a name goes with each --bot, in order")]
    TooManyNames { names: usize, bots: usize },
    /// The rules refuse the match's params.
    #[error("cannot set up the game: {0}")]
    Setup(SetupError),
    /// A map file that is not a map.
    #[error("{}: {error}", path.display())]
    BadMap { path: PathBuf, error: SetupError },
    /// An option's value the game cannot use.
    #[error("{option} {value}: {why}")]
    BadOption {
        option: &'static str,
        value: String,
        why: String,
    },
    /// An option `what` needs and was not given.
    #[error("{what} needs at least one {option}")]
    Missing {
        what: &'static str,
        option: &'static str,
    },
    /// A field of entrants the tournament format cannot schedule.
    #[error("{why}")]
    Field { why: String },
    /// A file or folder that cannot be read, written or made (`doing`: "read map", "write"...).
    #[error("cannot {doing} {}: {error}", path.display())]
    File {
        doing: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    /// A seat whose bot is to connect over TCP, and cannot.
    #[error("seat {seat}: {what}: {error}")]
    Seat {
        seat: usize,
        what: String,
        error: std::io::Error,
    },
    /// A server's players: `clients` seats for HTTP clients and `bots` built-in bots, not
    /// `least` to `most`.
    #[error(
        "{game} takes {least} to {most} players: {clients} clients and {bots} bots were asked for"
    )]
    Players {
        game: &'static str,
        least: usize,
        most: usize,
        clients: usize,
        bots: usize,
    },
    /// A server's address that cannot be listened on.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        addr: std::net::SocketAddr,
        error: std::io::Error,
    },
    /// The system refused something else (a thread, a socket, a runtime).
    #[error(transparent)]
    System(#[from] std::io::Error),
    /// A file that is not a replay.
    #[error(transparent)]
    Unreadable(#[from] Unreadable),
    /// A replay that its re-play contradicts.
    #[error(transparent)]
    Replay(#[from] Difference),
    /// A file the viewer cannot show.
    #[error("{0}")]
    View(&'static str),
    /// A replay whose states the viewer cannot follow.
    #[error(
        "the replay handed out {states} states for {steps} steps: the viewer cannot follow it"
    )]
    StatesAndSteps { states: usize, steps: usize },
    /// A replay of no game here.
    #[error("unknown game {named}: not one of {}", games.join(", "))]
    UnknownGame {
        named: String,
        games: Vec<&'static str>,
    },
    /// A file that names no game.
    #[error(
        "not a replay of any game here ({}): expected a trace header naming its game, an official log or an official replay",
        games.join(", ")
    )]
    NoGame { games: Vec<&'static str> },
    /// Nothing to merge.
    #[error("no results to merge")]
    NoResults,
    /// Results of different tournaments.
    #[error("these results are not shards of one tournament (game, bots, seed or games differ)")]
    NotShards,
    /// The threads of a tournament.
    #[error(transparent)]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// What the library's functions return.
pub type Result<T, E = Error> = std::result::Result<T, E>;
