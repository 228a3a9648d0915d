//! The command line's own pieces: the options every `arena play <game>` takes and what they make
//! of a [`MatchRequest`], the parsers of its values, and each game's flags and help
//! ([`GameCli`], one file a game: `cli/<game>.rs`). The top layer with [`crate::commands`]: no
//! module below names this one.

use crate::error::{Error, Setting};
use crate::game::{Plan, Playable, Timing};
use crate::host_game::HostGame;
use crate::sandbox::Caps;
use crate::setup::MatchRequest;
use clap::Args;
use std::path::PathBuf;

/// Options every `arena play <game>` takes.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// A bot per seat, in seat order: a built-in name (see `arena bots`) or `cmd:<command line>` for an
    /// external program. Missing seats get the game's default built-in bot.
    #[arg(long = "bot", value_name = "BOT")]
    pub bots: Vec<String>,
    /// A name for each --bot, in the same order, as reports, replays and tables show it (default:
    /// a built-in bot's name; for `cmd:`, the file name of the last word of the command line that
    /// names an existing file, as the AI Challenge's playgame.py names bots: `cmd:python3
    /// bots/HunterBot.py` is `HunterBot.py`).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Seed for everything random in the match, a whole number from 0 to 2^64-1 (default: from
    /// the clock; printed either way).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Write the match to FILE in the game's replay format as it is played.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Time per turn for external bots, in milliseconds (default: the game's own limit, which
    /// `arena play <game> --help` gives). A time-out is reported with the limit it went over.
    #[arg(long, value_name = "MS")]
    pub turn_ms: Option<u64>,
    /// No time limits at all (for debugging a bot).
    #[arg(long)]
    pub no_timeout: bool,
    /// Keep each external bot's stderr in `DIR/<seat>.stderr` and everything it was sent in
    /// `DIR/<seat>.input` (default: neither).
    #[arg(long, value_name = "DIR")]
    pub bot_logs: Option<PathBuf>,
    /// Stop after N turns even if the game is not over (a turn is the game's own, all its phases
    /// or moves, as its rules count it).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u64>,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// `--sandbox` and its caps.
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// `--watch` and its settings.
    #[command(flatten)]
    pub view: WatchArgs,
}

/// `--sandbox` and the caps on each sandboxed bot, for `arena play` and `arena tournament`.
#[derive(Args, Clone, Debug)]
pub struct SandboxArgs {
    /// Run each `cmd:` bot in a sandbox (bubblewrap, setpriv, seccomp, rlimits, cgroups where
    /// writable): a user of its own per seat (arena run by root), no capabilities, no terminal, no
    /// network; of the machine only /usr, a few /etc files and the folders of the paths its
    /// command line names, read-only (a path leading into an output, another entry's folder or
    /// a home folder is refused); its own scratch folder ($HOME); caps on memory, CPU,
    /// processes, file size and open files; a bot stopped by a cap is a crash naming the cap.
    /// Use it for any bot you did not write (a tournament's entries). Where the machine cannot
    /// sandbox, arena refuses to start and says why (docs/bots.md, "Sandbox").
    #[arg(long)]
    pub sandbox: bool,
    /// Memory of each sandboxed bot, all its processes and the files it writes to its tmpfs
    /// together, in MB (default: 1024). Held by the memory cgroup: where arena cannot write one
    /// (a normal user without a delegated cgroup folder), this option is refused.
    #[arg(long, value_name = "MB")]
    pub bot_memory: Option<u64>,
    /// CPU time of each process of a sandboxed bot, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = Caps::default().cpu_s)]
    pub bot_cpu: u64,
    /// Processes and threads of each sandboxed bot (default: 128). Held by the pids cgroup: where
    /// arena cannot write one (a normal user without a delegated cgroup folder), this option is
    /// refused.
    #[arg(long, value_name = "N")]
    pub bot_procs: Option<u64>,
    /// Largest file a sandboxed bot may write, and the size of all it may write (its scratch
    /// folder, /tmp and /dev/shm), in MB.
    #[arg(long, value_name = "MB", default_value_t = Caps::default().file_mb)]
    pub bot_disk: u64,
    /// Open files of each process of a sandboxed bot.
    #[arg(long, value_name = "N", default_value_t = Caps::default().open_files)]
    pub bot_files: u64,
}

impl SandboxArgs {
    /// The caps asked for, `None` without `--sandbox`; an error says why this machine cannot
    /// sandbox (bots never run unsandboxed when `--sandbox` was asked for), or which path a
    /// `cmd:` bot's command line names that no sandboxed bot may see: `outputs` (flag, path)
    /// are arena's outputs, `bots` every `--bot`.
    pub fn caps(
        &self,
        bots: &[String],
        outputs: &[(&str, Option<&std::path::Path>)],
    ) -> anyhow::Result<Option<Caps>> {
        if !self.sandbox {
            return Ok(None);
        }
        use crate::sandbox::CgroupCap;
        let given = [
            (CgroupCap::Memory, self.bot_memory.is_some()),
            (CgroupCap::Procs, self.bot_procs.is_some()),
        ];
        crate::sandbox::refuse_unheld(given.iter().filter(|(_, g)| *g).map(|(c, _)| *c)).map_err(
            |why| {
                let option = match why.cap {
                    CgroupCap::Memory => "--bot-memory",
                    CgroupCap::Procs => "--bot-procs",
                };
                anyhow::anyhow!("--sandbox: {}", why.naming(option))
            },
        )?;
        let defaults = Caps::default();
        let caps = Caps {
            memory_mb: self.bot_memory.unwrap_or(defaults.memory_mb),
            cpu_s: self.bot_cpu,
            procs: self.bot_procs.unwrap_or(defaults.procs),
            file_mb: self.bot_disk,
            disk_mb: self.bot_disk,
            open_files: self.bot_files,
            share_net: false,
            fence: None,
        };
        crate::sandbox::check(&caps)
            .map_err(|why| anyhow::anyhow!("--sandbox: cannot sandbox bots here: {why}"))?;
        if let Some(unheld) = crate::sandbox::unheld_note(&caps) {
            crate::errln!("--sandbox: {unheld}");
        }
        crate::setup::fenced(caps, bots, outputs)
            .map(Some)
            .map_err(|why| anyhow::anyhow!("--sandbox: {why}"))
    }
}

/// `--watch` and its settings, for every `arena play`.
#[derive(Args, Clone, Debug)]
pub struct WatchArgs {
    /// Show the match live in the terminal (the 16-gray 128x64 screen in half blocks, a column a
    /// pixel): `--watch` always, `--watch auto` only when stdout is a terminal (with --json,
    /// frames go to stderr). A terminal narrower than 128 columns gets the screen shrunk to its
    /// width (each character the average of the pixels it covers); the width is $COLUMNS, else
    /// the terminal's, else 80.
    #[arg(long, value_enum, value_name = "WHEN", num_args = 0..=1, default_value = "never", default_missing_value = "always")]
    pub watch: WatchWhen,
    /// Frames per second at most while watching (the match waits for each frame).
    #[arg(long, value_name = "FPS", default_value_t = 20)]
    pub watch_fps: u32,
    /// While watching, show a frame every N steps (larger N: a long match goes by faster).
    /// Default: for a game whose length is fixed in advance (in steps: --ticks, or fewer with
    /// --max-turns), the N that shows the whole match in about a minute at --watch-fps (12,000
    /// steps at 20 fps: every 10th step); every step for the other games.
    #[arg(long, value_name = "N")]
    pub watch_every: Option<u32>,
}

/// How long a watched match takes by default, in seconds.
pub const WATCH_SECONDS: u64 = 60;

/// When `arena play` shows the match live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WatchWhen {
    /// Never (the default without `--watch`).
    Never,
    /// Only when stdout is a terminal.
    Auto,
    /// Whatever stdout is (a bare `--watch`).
    Always,
}

impl WatchArgs {
    /// Steps per frame for `plan`: `--watch-every`, else the fewest that show the whole match,
    /// when its length is known, in [`WATCH_SECONDS`] at `--watch-fps`.
    pub fn every<G: Playable>(&self, plan: &Plan<G>) -> u32 {
        // --max-turns counts the game's turns, not steps: only games whose steps are turns have a
        // length to shorten.
        let steps = G::length(&plan.params).map(|n| plan.max_turns.map_or(n, |m| n.min(m)));
        let frames = WATCH_SECONDS.saturating_mul(u64::from(self.watch_fps.max(1)));
        self.watch_every
            .unwrap_or_else(|| {
                let n = steps.map_or(1, |s| s.div_ceil(frames));
                u32::try_from(n).unwrap_or(u32::MAX)
            })
            .max(1)
    }

    /// Whether the match is to be shown live.
    pub fn watching(&self) -> bool {
        use std::io::IsTerminal;
        match self.watch {
            WatchWhen::Never => false,
            WatchWhen::Auto => std::io::stdout().is_terminal(),
            WatchWhen::Always => true,
        }
    }
}

impl MatchArgs {
    /// The match these options ask for, seeded as asked or from the clock (short enough to type
    /// back in).
    pub fn request(&self, sandbox: Option<Caps>) -> MatchRequest {
        MatchRequest {
            bots: self.bots.clone(),
            names: self.names.clone(),
            seed: self.seed.unwrap_or_else(clock_seed),
            timing: Timing {
                turn_ms: self.turn_ms,
                no_timeout: self.no_timeout,
                sandbox,
            },
            log_dir: self.bot_logs.clone(),
            max_turns: self.max_turns,
        }
    }
}

/// `--seed`: clap alone would read `-1` as an option and hint `-- -1`, which gets no further; a
/// seed that is not a number says what a seed is.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse().map_err(|_| {
        format!(
            "`{s}` is not a seed: a seed is a whole number from 0 to {} (no sign)",
            u64::MAX
        )
    })
}

/// Two numbers split at `sep` (`30x30`, `0/4`): `shape` and `example` say what was expected when
/// there is no `sep`, `names` what each number is when it is not one.
pub fn parse_pair<T: std::str::FromStr>(
    s: &str,
    sep: &[char],
    (shape, example): (&str, &str),
    names: [&str; 2],
) -> Result<(T, T), String> {
    let (a, b) =
        (s.split_once(sep)).ok_or_else(|| format!("`{s}`: expected {shape}, like {example}"))?;
    let number = |x: &str, name: &str| x.trim().parse().map_err(|_| format!("`{x}` is not {name}"));
    Ok((number(a, names[0])?, number(b, names[1])?))
}

/// The flag that gives `setting` (for `--name`, `--map`, ...).
pub fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::Bots => "--bot",
        Setting::Names => "--name",
        Setting::Map => "--map",
        Setting::TcpWait => "--tcp-wait",
        Setting::PortBase => "--port-base",
    }
}

/// A library error as the command line reports it: the settings it is about named by their
/// flags (`3 --name given for 2 --bot`); every other error as the library says it.
pub fn flagged(error: Error) -> anyhow::Error {
    match error {
        Error::WrongBotCount {
            map,
            players,
            given,
        } => anyhow::anyhow!(
            "{} is a {players}-player map: give {players} bots (--bot), {given} were given",
            map.display()
        ),
        Error::TooManyNames { names, bots } => anyhow::anyhow!(
            "{names} --name given for {bots} --bot: a name goes with each --bot, in order"
        ),
        Error::NamesPastBots { names, bots } => anyhow::anyhow!(
            "--name given {names} times for {bots} --bot: a name goes with each --bot, in order; \
             to name seats that wait for a bot over TCP, add --tcp (the seats without a --bot are \
             named in order) or give each of them --bot tcp"
        ),
        Error::BadOption { option, value, why } => {
            anyhow::anyhow!("{} {value}: {why}", flag(option))
        }
        Error::Missing { what, option } => {
            anyhow::anyhow!("{what} needs at least one {}", flag(option))
        }
        error => error.into(),
    }
}

/// A tournament's master seed when `--seed` is not given: 64 bits from the operating system's
/// random source, which no bot can know or guess from the time it was started.
pub fn random_seed() -> anyhow::Result<u64> {
    getrandom::u64().map_err(|e| {
        anyhow::anyhow!("cannot draw a seed from the operating system ({e}): give --seed")
    })
}

/// A seed from the clock, short enough to type back in.
pub fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    now % 1_000_000_000
}

/// `--turn-ms`'s help with the game's own default limit ([`GameCli::TIME_LIMIT`]).
pub fn time_limit_help<G: GameCli>(cmd: clap::Command) -> clap::Command {
    cmd.mut_arg("turn_ms", |a| {
        a.help(format!(
            "Time per turn for external bots, in milliseconds (default: the game's own limit, {}). \
             A time-out is reported with the limit it went over",
            G::TIME_LIMIT
        ))
    })
}

/// A game on the command line: its help texts, its own flags and what they make of the game's
/// options. Written for each game in `cli/<game>.rs`, by the macro `game_cli!` below.
pub trait GameCli: HostGame {
    /// One line for `--help` and `arena bots`.
    const ABOUT: &'static str;
    /// What each built-in bot does, in the order of [`arena_core::Roster::BOTS`] (`arena bots`).
    const BOT_NOTES: &'static [&'static str] = &[];
    /// The time limit external bots get by default, for `--turn-ms`'s help ("10 ms an answer").
    const TIME_LIMIT: &'static str;
    /// What this game's replay file is, for `arena verify <game> --help`.
    const REPLAY_ABOUT: &'static str;
    /// `arena play <game>`'s own flags (variant, size, map...).
    type PlayFlags: clap::Args + Send + Sync;
    /// `arena tournament <game>`'s own flags.
    type TournamentFlags: clap::Args + Send + Sync;
    /// The game's options for a match, from its flags.
    fn play_options(flags: &Self::PlayFlags) -> Self::PlayOptions;
    /// The game's options for a tournament, from its flags.
    fn tournament_options(flags: &Self::TournamentFlags) -> Self::TournamentOptions;
}

/// A game's [`GameCli`]: what its `play` and `tournament` flags make of its options (each a
/// closure over the flags) and its help texts. Each game's file says only what is its own.
macro_rules! game_cli {
    (
        $game:ty {
            play: |$play_flags:tt: &$play:ty| $play_options:expr,
            tournament: |$tournament_flags:tt: &$tournament:ty| $tournament_options:expr,
            about: $about:literal,
            replay: $replay:literal,
            time_limit: $limit:literal,
            bots: [$($note:literal),* $(,)?],
        }
    ) => {
        impl $crate::cli::GameCli for $game {
            const ABOUT: &'static str = $about;
            const BOT_NOTES: &'static [&'static str] = &[$($note),*];
            const TIME_LIMIT: &'static str = $limit;
            const REPLAY_ABOUT: &'static str = $replay;
            type PlayFlags = $play;
            type TournamentFlags = $tournament;

            fn play_options($play_flags: &$play) -> Self::PlayOptions {
                $play_options
            }

            fn tournament_options($tournament_flags: &$tournament) -> Self::TournamentOptions {
                $tournament_options
            }
        }
    };
}

/// The flags of a game that has none of its own (for `arena play` or `arena tournament`).
#[derive(clap::Args, Clone, Debug)]
pub struct NoArgs {}

/// `arena serve <game>`, for a game whose original was a server that bots reached over the
/// network: the original's API, so its clients play against the engine. A game opts in with an
/// impl in its own file (`cli/<game>.rs`) and a line in [`SERVERS`]; nothing that plays a match
/// asks for it.
pub trait Serve: GameCli {
    /// `arena serve <game>`'s clap command, named after the game.
    fn command() -> clap::Command;
    /// Runs `arena serve <game>` on its parsed arguments, until the match is over.
    fn run(args: &clap::ArgMatches) -> anyhow::Result<()>;
}

/// A [`Serve`] game's server, as `arena` lists it.
#[derive(Clone, Copy)]
pub struct Server {
    /// The game's command-line name.
    pub name: &'static str,
    /// `arena serve <game>`'s clap command.
    pub command: fn() -> clap::Command,
    /// Runs `arena serve <game>` on its parsed arguments.
    pub run: fn(&clap::ArgMatches) -> anyhow::Result<()>,
}

impl Server {
    /// The server of game `G`.
    pub const fn of<G: Serve>() -> Server {
        Server {
            name: G::NAME,
            command: G::command,
            run: G::run,
        }
    }
}

/// Every game with a server (`arena serve`): the registry of [`Serve`].
pub static SERVERS: &[Server] = &[
    #[cfg(feature = "serve")]
    Server::of::<arena_core::games::colorfight::ColorFight>(),
];

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's errors about a setting speak of the setting; the command line's name its
    /// flag, in the words `arena` has always printed.
    #[test]
    fn the_command_line_names_the_flags_the_library_does_not() {
        let cases = [
            (
                Error::TooManyNames { names: 3, bots: 2 },
                "3 names given for 2 bots: a name goes with each bot, in order",
                "3 --name given for 2 --bot: a name goes with each --bot, in order",
            ),
            (
                Error::WrongBotCount {
                    map: "maps/x.map".into(),
                    players: 4,
                    given: 2,
                },
                "maps/x.map is a 4-player map: give 4 bots, 2 were given",
                "maps/x.map is a 4-player map: give 4 bots (--bot), 2 were given",
            ),
            (
                Error::Missing {
                    what: "an Ants tournament",
                    option: Setting::Map,
                },
                "an Ants tournament needs at least one map",
                "an Ants tournament needs at least one --map",
            ),
            (
                Error::BadOption {
                    option: Setting::PortBase,
                    value: "65535".into(),
                    why: "the four ports do not fit".into(),
                },
                "base port 65535: the four ports do not fit",
                "--port-base 65535: the four ports do not fit",
            ),
        ];
        for (error, library, command_line) in cases {
            assert_eq!(error.to_string(), library);
            assert_eq!(flagged(error).to_string(), command_line);
        }
        let past = Error::NamesPastBots { names: 3, bots: 1 };
        assert!(!past.to_string().contains("--"), "{past}");
        let shown = flagged(past).to_string();
        assert!(
            shown.starts_with("--name given 3 times for 1 --bot: ") && shown.contains("add --tcp"),
            "{shown}"
        );
    }
}
