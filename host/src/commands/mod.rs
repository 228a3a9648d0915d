//! The `arena` subcommands, one module per game, sharing the options every match has.

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod record;
pub mod render;
pub mod tournament;
pub mod tower_defense;

use crate::play::{BotSpec, ExternalOptions, MatchReport};
use crate::process::Limits;
use arena_core::Roster;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Options every `arena play GAME` takes.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// A bot per seat, in seat order: a built-in name (see `arena bots`) or `cmd:<command line>` for an
    /// external program. Missing seats get the game's default built-in bot.
    #[arg(long = "bot", value_name = "BOT")]
    pub bots: Vec<String>,
    /// Seed for everything random in the match (default: from the clock; printed either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the match to FILE in the game's replay format as it is played.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Time per turn for external bots, in milliseconds (default: the game's own limit).
    #[arg(long, value_name = "MS")]
    pub turn_ms: Option<u64>,
    /// No time limits at all (for debugging a bot).
    #[arg(long)]
    pub no_timeout: bool,
    /// Keep each external bot's stderr in DIR/<seat>.stderr (default: discarded).
    #[arg(long, value_name = "DIR")]
    pub bot_logs: Option<PathBuf>,
    /// Stop after N turns even if the game is not over.
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u64>,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub view: WatchArgs,
}

/// `--watch` and its settings, for every `arena play`.
#[derive(Args, Clone, Debug)]
pub struct WatchArgs {
    /// Show the match live in the terminal (the 16-gray 128x64 screen in half blocks): `--watch`
    /// always, `--watch auto` only when stdout is a terminal (with --json, frames go to stderr).
    #[arg(long, value_enum, value_name = "WHEN", num_args = 0..=1, default_value = "never", default_missing_value = "always")]
    pub watch: WatchWhen,
    /// Frames per second at most while watching (the match waits for each frame).
    #[arg(long, value_name = "FPS", default_value_t = 20)]
    pub watch_fps: u32,
    /// While watching, show a frame every N steps (larger N: a long match goes by faster).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub watch_every: u32,
}

/// When `arena play` shows the match live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WatchWhen {
    Never,
    /// Only when stdout is a terminal.
    Auto,
    Always,
}

impl WatchArgs {
    /// Whether the match is to be shown live.
    pub fn watching(&self) -> bool {
        use std::io::IsTerminal;
        match self.watch {
            WatchWhen::Never => false,
            WatchWhen::Auto => std::io::stdout().is_terminal(),
            WatchWhen::Always => true,
        }
    }

    /// The live view of a match of `G` (configuration `config`, players `names`), if asked for.
    /// With `json`, stdout is for the report alone: the frames go to stderr.
    pub fn watcher<G: arena_firmware::Screen>(
        &self,
        config: &str,
        seed: u64,
        names: &[String],
        json: bool,
    ) -> Option<crate::render::Watcher<G>> {
        self.watching().then(|| {
            let label = crate::render::Label::new(G::NAME, config, seed, names);
            let out: Box<dyn Write> = if json {
                Box::new(std::io::stderr())
            } else {
                Box::new(std::io::stdout())
            };
            crate::render::Watcher::new(label, self.watch_fps, self.watch_every, out)
        })
    }
}

impl MatchArgs {
    /// The live view of a match of `G`, if `--watch` asks for one.
    pub fn watcher<G: arena_firmware::Screen>(
        &self,
        config: &str,
        seed: u64,
        names: &[String],
    ) -> Option<crate::render::Watcher<G>> {
        self.view.watcher(config, seed, names, self.json)
    }

    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0);
            // Keep it short enough to type back in.
            now % 1_000_000_000
        })
    }

    /// The limits for external bots, given the game's default time per turn and averaging window.
    pub fn external(&self, default_turn: Duration, window: u32) -> ExternalOptions {
        ExternalOptions {
            limits: Limits {
                per_turn: self
                    .turn_ms
                    .map(Duration::from_millis)
                    .unwrap_or(default_turn),
                window,
                no_timeout: self.no_timeout,
                ..Limits::default()
            },
            log_dir: self.bot_logs.clone(),
        }
    }
}

/// The time limits asked for on the command line (`--turn-ms`, `--no-timeout`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    pub turn_ms: Option<u64>,
    pub no_timeout: bool,
}

impl Timing {
    /// The options for external bots: the game's own limit unless `--turn-ms` overrides it.
    pub fn options(
        &self,
        default_turn: Duration,
        window: u32,
        log_dir: Option<PathBuf>,
    ) -> ExternalOptions {
        ExternalOptions {
            limits: Limits {
                per_turn: self
                    .turn_ms
                    .map(Duration::from_millis)
                    .unwrap_or(default_turn),
                window,
                no_timeout: self.no_timeout,
                ..Limits::default()
            },
            log_dir,
        }
    }
}

/// Prints a match report, as text or JSON.
pub fn print_report(report: &MatchReport, json: bool) {
    if json {
        println!("{}", report_json(report));
    } else {
        print!("{report}");
    }
}

pub fn report_json(report: &MatchReport) -> serde_json::Value {
    let seats: Vec<serde_json::Value> = report
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            serde_json::json!({
                "seat": i,
                "bot": s.name,
                "rank": report.outcome.map(|o| o.rank[i.min(arena_core::MAX_SEATS - 1)]),
                "score": report.outcome.map(|o| o.score[i.min(arena_core::MAX_SEATS - 1)]),
                "refused": s.refused,
                "disqualified_at": s.disqualified,
                "faults": s.faults.iter().map(|(t, f)| serde_json::json!({"turn": t, "kind": f.kind(), "what": f.to_string()})).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "game": report.game,
        "seed": report.seed,
        "turns": report.turns,
        "winner": report.outcome.and_then(|o| o.winner()),
        "reason": report.outcome.map(|o| o.reason),
        "seats": seats,
    })
}

/// Writes JSON lines to a file as they come, flushing each, so a crash loses nothing written.
pub struct LineWriter {
    out: Option<std::io::BufWriter<std::fs::File>>,
    pub path: Option<PathBuf>,
    pub error: Option<String>,
}

impl LineWriter {
    pub fn create(path: Option<&PathBuf>) -> anyhow::Result<Self> {
        let out = match path {
            Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
                |e| anyhow::anyhow!("cannot write replay {}: {e}", p.display()),
            )?)),
            None => None,
        };
        Ok(LineWriter {
            out,
            path: path.cloned(),
            error: None,
        })
    }

    /// Writes one line of text (a newline is added) and flushes it.
    pub fn text(&mut self, line: &str) {
        if let Some(out) = &mut self.out {
            let r = out
                .write_all(line.as_bytes())
                .and_then(|_| out.write_all(b"\n"))
                .and_then(|_| out.flush());
            if let Err(e) = r {
                self.error.get_or_insert(e.to_string());
            }
        }
    }

    pub fn line(&mut self, value: &serde_json::Value) {
        if let Some(out) = &mut self.out {
            let r = serde_json::to_writer(&mut *out, value)
                .map_err(std::io::Error::other)
                .and_then(|_| out.write_all(b"\n"))
                .and_then(|_| out.flush());
            if let Err(e) = r {
                self.error.get_or_insert(e.to_string());
            }
        }
    }
}

/// `arena bots`: every game and its built-in bots (the first is the default opponent).
pub fn list_bots() {
    fn line<G: arena_core::Roster>() {
        println!("{:<14} {}", G::NAME, G::BOTS.join(", "));
    }
    line::<arena_core::games::tower_defense::TowerDefense>();
    line::<arena_core::games::colorfight::ColorFight>();
    line::<arena_core::games::mammut::Mammut>();
    line::<arena_core::games::ballroom::Ballroom>();
    line::<arena_core::games::ants::Ants>();
}

/// The bots of a match: the `--bot` arguments, then the game's default bot for the seats left.
pub fn specs<G: Roster>(bots: &[String], seats: usize) -> anyhow::Result<Vec<BotSpec>> {
    if bots.len() > seats {
        anyhow::bail!("{} takes {seats} bots, {} were given", G::NAME, bots.len());
    }
    let mut specs = bots
        .iter()
        .map(|b| BotSpec::parse::<G>(b))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    while specs.len() < seats {
        specs.push(BotSpec::Builtin(
            G::BOTS.first().copied().unwrap_or("random").into(),
        ));
    }
    Ok(specs)
}

/// What `arena play` prints after a match: the report, then where the replay went.
pub fn finish_play(
    report: &MatchReport,
    json: bool,
    replay: Option<&PathBuf>,
    write_error: Option<String>,
) {
    print_report(report, json);
    if let Some(path) = replay {
        match write_error {
            Some(e) => eprintln!("replay {}: write failed: {e}", path.display()),
            None => eprintln!("replay written to {}", path.display()),
        }
    }
}
