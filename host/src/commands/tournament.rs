//! `arena tournament` and `arena merge`.

use super::tower_defense::VariantArg;
use crate::formats;
use crate::play::ExternalOptions;
use crate::process::Limits;
use crate::tournament::{self, Contest, Format, Options, Results};
use arena_core::games::tower_defense::Variant;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    TowerDefense,
}

#[derive(Args, Clone, Debug)]
pub struct TournamentArgs {
    /// The game.
    #[arg(value_enum)]
    pub game: GameArg,
    /// The entrants: built-in names or `cmd:<command line>` (at least two).
    #[arg(long = "bot", value_name = "BOT", required = true)]
    pub bots: Vec<String>,
    /// How many times the whole schedule is played.
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// Matches played at once (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Tournament seed: match i is seeded from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Tower Defense variant (Duel: round robin with seats swapped; Siege: every defender against
    /// every invader).
    #[arg(long, value_enum, default_value = "duel")]
    pub variant: VariantArg,
    /// Write every result, the table and the ratings as JSON.
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
    /// Keep every match's replay in DIR (match-00000.jsonl, ...).
    #[arg(long, value_name = "DIR", conflicts_with = "no_replay")]
    pub replays: Option<PathBuf>,
    /// Record no replays (the default unless --replays is given).
    #[arg(long)]
    pub no_replay: bool,
    /// Play only shard I of N (matches whose index is I mod N), for spreading over machines;
    /// combine the --results-json files with `arena merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// Time per turn for external bots in milliseconds (default: the game's own limit).
    #[arg(long, value_name = "MS")]
    pub turn_ms: Option<u64>,
    /// No time limits for external bots.
    #[arg(long)]
    pub no_timeout: bool,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// Results files written by `arena tournament --shard I/N --results-json FILE`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged results as JSON.
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("`{s}`: expected I/N, like 0/4"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|_| format!("`{i}` is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

/// The contest and format for a game name as results files record it.
fn by_name(game: &str, options: ExternalOptions) -> Option<(Box<dyn Contest>, Box<dyn Format>)> {
    use super::tower_defense::Contest as Td;
    match game {
        "tower-defense" => Some((
            Box::new(Td {
                variant: Variant::Duel,
                options,
            }),
            Box::new(formats::RoundRobin),
        )),
        "tower-defense/siege" => Some((
            Box::new(Td {
                variant: Variant::Siege,
                options,
            }),
            Box::new(formats::DefenderVsInvader),
        )),
        _ => None,
    }
}

pub fn tournament(args: &TournamentArgs) -> anyhow::Result<()> {
    if args.bots.len() < 2 {
        anyhow::bail!("a tournament needs at least two bots");
    }
    let (name, per_turn) = match (args.game, args.variant) {
        (GameArg::TowerDefense, VariantArg::Duel) => ("tower-defense", 10),
        (GameArg::TowerDefense, VariantArg::Siege) => ("tower-defense/siege", 15),
    };
    // Check every bot name before playing anything.
    for b in &args.bots {
        crate::play::BotSpec::parse::<arena_core::games::tower_defense::TowerDefense>(b)
            .map_err(anyhow::Error::msg)?;
    }
    let external = ExternalOptions {
        limits: Limits {
            per_turn: Duration::from_millis(args.turn_ms.unwrap_or(per_turn)),
            window: 100,
            no_timeout: args.no_timeout,
            ..Limits::default()
        },
        log_dir: None,
    };
    let (contest, format) =
        by_name(name, external).ok_or_else(|| anyhow::anyhow!("no format for {name}"))?;
    let options = Options {
        games: args.games,
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
        seed: args.seed,
        shard: args.shard,
        replays: if args.no_replay {
            None
        } else {
            args.replays.clone()
        },
        progress: !args.quiet,
    };
    let results = tournament::run(contest.as_ref(), format.as_ref(), &args.bots, &options)?;
    tournament::print(&results);
    write_results(&results, args.results_json.as_ref())
}

pub fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    let mut shards = Vec::new();
    for f in &args.files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", f.display()))?;
        let r: Results = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{} is not a results file: {e}", f.display()))?;
        shards.push(r);
    }
    let game = shards.first().map(|s| s.game.clone()).unwrap_or_default();
    let (_, format) = by_name(&game, ExternalOptions::default())
        .ok_or_else(|| anyhow::anyhow!("unknown game `{game}` in the results"))?;
    let merged = tournament::merge(format.as_ref(), shards)?;
    tournament::print(&merged);
    write_results(&merged, args.results_json.as_ref())
}

fn write_results(results: &Results, path: Option<&PathBuf>) -> anyhow::Result<()> {
    if let Some(path) = path {
        let text = serde_json::to_string_pretty(results)?;
        std::fs::write(path, text + "\n")
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        eprintln!("results written to {}", path.display());
    }
    Ok(())
}
