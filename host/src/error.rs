//! What goes wrong in the library, as values: [`Error`], one variant a kind, each with what a
//! caller needs to act on it (the bot, the seat, the file, the numbers). The messages speak of
//! the library's own terms (bots, names, a map, a [`Setting`]), never of a command line's flags:
//! the command line says which flag a [`Setting`] is where it reports an error
//! (`crate::cli::flagged`); Python shows them as they are.

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
    NoSuchBot {
        /// The game's name, as on the command line.
        game: &'static str,
        /// The bot asked for, as given.
        name: String,
    },
    /// A name that is none of the game's built-in bots.
    #[error("unknown bot `{name}` for {game}: built-in bots are {}", bots.join(", "))]
    NotBuiltin {
        /// The game's name, as on the command line.
        game: &'static str,
        /// The bot asked for, as given.
        name: String,
        /// The game's built-in bots, listed in the message.
        bots: &'static [&'static str],
    },
    /// More bots than the match has seats.
    #[error("{game} takes {seats} bots, {given} were given")]
    TooManyBots {
        /// The game's name, as on the command line.
        game: &'static str,
        /// The seats the match has.
        seats: usize,
        /// The bots given.
        given: usize,
    },
    /// A map for a number of players other than the bots given.
    #[error(
        "{} is a {players}-player map: give {players} bots, {given} were given",
        map.display()
    )]
    WrongBotCount {
        /// The map file.
        map: PathBuf,
        /// The players the map is made for.
        players: usize,
        /// The bots given.
        given: usize,
    },
    /// More names than bots.
    #[error("{names} names given for {bots} bots: a name goes with each bot, in order")]
    TooManyNames {
        /// The names given.
        names: usize,
        /// The bots given.
        bots: usize,
    },
    /// More names than bots, in a match whose seats may also wait for a bot over TCP: names past
    /// the bots go to TCP seats only when every seat without a bot waits over TCP.
    #[error(
        "{names} names given for {bots} bots: a name goes with each bot, in order; to name seats \
         that wait for a bot over TCP, make every seat without a bot a TCP seat (they are named \
         in order) or give each of them the bot `tcp`"
    )]
    NamesPastBots {
        /// The names given.
        names: usize,
        /// The bots given.
        bots: usize,
    },
    /// The rules refuse the match's params.
    #[error("cannot set up the game: {0}")]
    Setup(SetupError),
    /// A map file that is not a map.
    #[error("{}: {error}", path.display())]
    BadMap {
        /// The map file.
        path: PathBuf,
        /// Why the rules refuse it.
        error: SetupError,
    },
    /// A setting's value the game cannot use.
    #[error("{option} {value}: {why}")]
    BadOption {
        /// The setting.
        option: Setting,
        /// Its value, as given.
        value: String,
        /// Why the game cannot use it.
        why: String,
    },
    /// A setting `what` needs and was not given.
    #[error("{what} needs at least one {option}")]
    Missing {
        /// What needs the setting ("an Ants tournament").
        what: &'static str,
        /// The setting.
        option: Setting,
    },
    /// A field of entrants the tournament format cannot schedule.
    #[error("{why}")]
    Field {
        /// Why, in the format's words (the message is this alone).
        why: String,
    },
    /// A file or folder that cannot be read, written or made (`doing`: "read map", "write"...).
    #[error("cannot {doing} {}: {error}", path.display())]
    File {
        /// What was being done ("read map", "write", "create").
        doing: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A seat whose bot is to connect over TCP, and cannot.
    #[error("seat {seat}: {what}: {error}")]
    Seat {
        /// The seat, counted from 0.
        seat: usize,
        /// What it was doing: the address listened on, or "no free port".
        what: String,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A server's players: `clients` seats for HTTP clients and `bots` built-in bots, not
    /// `least` to `most`.
    #[error(
        "{game} takes {least} to {most} players: {clients} clients and {bots} bots were asked for"
    )]
    Players {
        /// The game's name, as on the command line.
        game: &'static str,
        /// The fewest players a match can have.
        least: usize,
        /// The most players a match can have.
        most: usize,
        /// The seats asked for HTTP clients.
        clients: usize,
        /// The built-in bots asked for.
        bots: usize,
    },
    /// A server's address that cannot be listened on.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// The system's reason.
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
    StatesAndSteps {
        /// The states the replay handed out (one more than the steps, in a replay the viewer
        /// follows).
        states: usize,
        /// The steps the replay recorded.
        steps: usize,
    },
    /// A replay of no game here.
    #[error("unknown game {named}: not one of {}", games.join(", "))]
    UnknownGame {
        /// The game the file names (its header's `game`, or an official file's `game` or
        /// `challenge`), as written there.
        named: String,
        /// The games here, as on the command line.
        games: Vec<&'static str>,
    },
    /// A file that names no game.
    #[error(
        "not a replay of any game here ({}): expected a trace header naming its game, an official log or an official replay",
        games.join(", ")
    )]
    NoGame {
        /// The games here, as on the command line.
        games: Vec<&'static str>,
    },
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

/// A setting of a match or a tournament that an [`Error`] may be about, in the library's terms
/// (as its message writes it); each front end names it its own way (the command line by its flag,
/// `crate::cli::flag`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The bots, one a seat.
    Bots,
    /// The names given the bots.
    Names,
    /// A map file.
    Map,
    /// How long a TCP seat waits for its bot to connect, in seconds.
    TcpWait,
    /// The first of the ports the TCP seats listen on.
    PortBase,
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Setting::Bots => "bots",
            Setting::Names => "names",
            Setting::Map => "map",
            Setting::TcpWait => "TCP wait",
            Setting::PortBase => "base port",
        })
    }
}

/// What the library's functions return.
pub type Result<T, E = Error> = std::result::Result<T, E>;
