//! `arena play colorfight`, `arena tournament colorfight` and `arena serve colorfight`: the flags
//! and help.

use crate::games::colorfight::PlayOptions;
use arena_core::games::colorfight::{ColorFight, Variant, DEFAULT_TICKS};
use clap::{Args, ValueEnum};

/// `--variant`: the rules' [`Variant`] as the command line spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// Practice round 2: mines, energy, bases, respawn during the first 5 minutes.
    Conquest,
    /// Practice round 1: attacks only.
    Skirmish,
}

impl VariantArg {
    /// The rules' variant.
    pub fn variant(self) -> Variant {
        match self {
            VariantArg::Conquest => Variant::Conquest,
            VariantArg::Skirmish => Variant::Skirmish,
        }
    }
}

/// `arena play colorfight`'s own flags.
#[derive(Args, Clone, Debug)]
pub struct PlayFlags {
    /// Which practice round's rules: Conquest (round 2) or Skirmish (round 1).
    #[arg(long, value_enum, default_value = "conquest")]
    pub variant: VariantArg,
    /// Grid size, WIDTHxHEIGHT (at most 32x32 cells in all).
    #[arg(long, value_name = "WxH", default_value = "30x30", value_parser = parse_size)]
    pub size: (u16, u16),
    /// Record the state in the replay every N ticks (and at the end); a 30x30 state is about 25 KB.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub state_every: u32,
    /// Game length in 100 ms ticks (12,000 = 20 minutes).
    #[arg(long, default_value_t = DEFAULT_TICKS)]
    pub ticks: u32,
}

/// `--size`: `WIDTHxHEIGHT` (or `WIDTHXHEIGHT`) as (width, height); the error says what a size is.
pub fn parse_size(s: &str) -> Result<(u16, u16), String> {
    super::parse_pair(
        s,
        &['x', 'X'],
        ("WIDTHxHEIGHT", "30x30"),
        ["a width", "a height"],
    )
}

game_cli! {
    ColorFight {
        play: |f: &PlayFlags| PlayOptions {
            variant: f.variant.variant(),
            size: f.size,
            state_every: f.state_every,
            ticks: f.ticks,
        },
        // Tournaments play Conquest on the default grid, one seat per entrant at the table.
        tournament: |_: &super::NoArgs| (),
        about: "ColorFight (Conquest or Skirmish), 2 to 8 players on a grid, one step per 100 ms tick.",
        replay: "A ColorFight trace (JSON lines: header, then one line per tick).",
        time_limit: "100 ms an answer",
        bots: [
            "strategist: mines first, then bases to survive, enemy bases when cheap, defends its bases",
            "expander: takes the quickest cell next to its land, then the next",
            "random: a legal action drawn at random, sometimes a base",
        ],
    }
}

#[cfg(feature = "serve")]
/// `arena serve colorfight`'s options.
#[derive(Args, Clone, Debug)]
pub struct ServeArgs {
    /// Which practice round's rules: Conquest (round 2) or Skirmish (round 1).
    #[arg(long, value_enum, default_value = "conquest")]
    pub variant: VariantArg,
    /// Grid size, WIDTHxHEIGHT (the server's was 30x30; at most 32x32 cells in all).
    #[arg(long, value_name = "WxH", default_value = "30x30", value_parser = parse_size)]
    pub size: (u16, u16),
    /// Game length in 100 ms ticks (12,000 = 20 minutes).
    #[arg(long, default_value_t = DEFAULT_TICKS)]
    pub ticks: u32,
    /// Seats for HTTP clients: the clock starts when this many have joined.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub players: usize,
    /// A built-in bot in a seat of its own, after the clients' seats (repeat for more).
    #[arg(long = "bot", value_name = "NAME")]
    pub bots: Vec<String>,
    /// Start the clock S seconds after the server opened even if seats are free (they stay
    /// open for joins during the first 5 minutes); 0: wait for every client.
    #[arg(long, value_name = "S", default_value_t = 0.0, value_parser = parse_seconds)]
    pub join_s: f64,
    /// Seed for the map, the rules' draws and the built-in bots, a whole number from 0 to 2^64-1
    /// (default: from the clock).
    #[arg(long, allow_hyphen_values = true, value_parser = super::parse_seed)]
    pub seed: Option<u64>,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// The port (0: any free port; the one taken is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Write the match to FILE as `arena play colorfight --replay` does (`arena verify` reads it).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<std::path::PathBuf>,
    /// Record the state in the trace every N ticks (and at the end).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub state_every: u32,
    /// Keep answering for S seconds after the game ended, so clients see the end (their
    /// `currTime` runs on past `endTime` meanwhile, as the original server's did).
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = parse_seconds)]
    pub linger_s: f64,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[cfg(feature = "serve")]
/// A number of seconds a server option can wait: 0 or more, at most a day, so that a wait is
/// refused here, before the server says it listens, rather than when it begins.
fn parse_seconds(s: &str) -> Result<f64, String> {
    const DAY: f64 = 86_400.0;
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=DAY).contains(&v) => Ok(v),
        Ok(_) => Err(format!("{s} is not a number of seconds from 0 to {DAY}")),
        Err(e) => Err(format!("{s} is not a number of seconds: {e}")),
    }
}

#[cfg(feature = "serve")]
const SERVE_ABOUT: &str = "ColorFight's original server API (the October 2018 app.py) over HTTP, in real time: bots written for the original client library play against the engine.";

#[cfg(feature = "serve")]
impl super::Serve for ColorFight {
    fn command() -> clap::Command {
        use arena_core::Game;
        ServeArgs::augment_args(clap::Command::new(ColorFight::NAME)).about(SERVE_ABOUT)
    }

    fn run(m: &clap::ArgMatches) -> anyhow::Result<()> {
        use crate::games::colorfight::serve::{run, ServeOptions};
        use clap::FromArgMatches;
        let o = ServeArgs::from_arg_matches(m)?;
        run(&ServeOptions {
            variant: o.variant.variant(),
            size: o.size,
            ticks: o.ticks,
            players: o.players,
            bots: o.bots,
            join_s: o.join_s,
            seed: o.seed.unwrap_or_else(super::clock_seed),
            addr: std::net::SocketAddr::new(o.host, o.port),
            replay: o.replay,
            state_every: o.state_every,
            linger_s: o.linger_s,
            json: o.json,
        })?;
        Ok(())
    }
}
