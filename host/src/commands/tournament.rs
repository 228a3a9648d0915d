//! `arena tournament <game>` and `arena merge`.

use crate::cli::GameCli;
use crate::format::Field;
use crate::seats::BotSpec;
use crate::setup::check_names;
use crate::tournament::{self, Contest, Options, Results, Timing};
use clap::{ArgMatches, Args, Command, FromArgMatches};
use std::path::PathBuf;

/// Options every `arena tournament <game>` takes.
#[derive(Args, Clone, Debug)]
pub struct TournamentArgs {
    /// The entrants: built-in names or `cmd:<command line>` (at least two).
    #[arg(long = "bot", value_name = "BOT", required = true)]
    pub bots: Vec<String>,
    /// A name for each --bot, in the same order, as tables, results and replays show it (default:
    /// a built-in bot's name; for `cmd:`, the file name of the last word of the command line
    /// that names an existing file, as playgame.py names bots).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// How many times the whole schedule is played (each time with new match seeds), at least 1.
    /// A run plays at most 1,000,000 matches (the schedule and the results are kept in memory):
    /// more is refused before anything is played.
    #[arg(long, default_value_t = 1, value_parser = at_least_one)]
    pub games: usize,
    /// Matches played at once, at least 1 (default: one per core). Results do not depend on it.
    #[arg(long, value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// Tournament seed, a whole number from 0 to 2^64-1: match i is seeded from it and i.
    /// Default: drawn at random from the operating system (so no entrant can know the matches'
    /// seeds in advance), printed on stderr and written in --results-json and --report: passing it
    /// back plays the same tournament again. Required with --shard (every shard must play the
    /// same tournament).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::cli::parse_seed)]
    pub seed: Option<u64>,
    /// Write every result, the table and the ratings as JSON.
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
    /// Write the tournament's report: one HTML page, nothing loaded from anywhere (standings,
    /// TrueSkill ratings and their course, head to head, faults, every match linked to its replay).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Keep every match's replay in DIR (match-00000.jsonl, ...).
    #[arg(long, value_name = "DIR", conflicts_with = "no_replay")]
    pub replays: Option<PathBuf>,
    /// Record no replays (the default unless --replays is given).
    #[arg(long)]
    pub no_replay: bool,
    /// Play only shard I of N (matches whose index is I mod N), for spreading over machines;
    /// combine the --results-json files with `arena merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, requires = "seed")]
    pub shard: Option<(usize, usize)>,
    /// Time per turn for external bots, in milliseconds (default: the game's own limit, which
    /// `arena play <game> --help` gives). A time-out is reported with the limit it went over.
    #[arg(long, value_name = "MS")]
    pub turn_ms: Option<u64>,
    /// No time limits for external bots.
    #[arg(long)]
    pub no_timeout: bool,
    /// `--sandbox` and its caps.
    #[command(flatten)]
    pub sandbox: crate::cli::SandboxArgs,
    /// For a Swiss tournament played in shards: the merged results of the rounds played so far
    /// (`arena merge` output); the shard then plays the next round only.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub after: Option<PathBuf>,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `arena merge`'s arguments: the shards' results files.
#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// Results files written by `arena tournament --shard I/N --results-json FILE`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged results as JSON.
    #[arg(long, value_name = "FILE")]
    pub results_json: Option<PathBuf>,
    /// Write the merged tournament's report (as `arena tournament --report`).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Merge the shards given even when some of the N are missing (the table then covers only
    /// their matches); without it an incomplete set is refused, naming the missing shards.
    #[arg(long)]
    pub partial: bool,
}

/// The most matches one run schedules: the schedule and every result are kept in memory.
pub const MAX_MATCHES: usize = 1_000_000;

/// `--games` and `--jobs`: a count of zero would play nothing or hang, so it is refused.
fn at_least_one(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a whole number")),
    }
}

/// Refuses a tournament too big to run before its schedule is made (a schedule of `--games
/// 1000000000` would take gigabytes): one game of the schedule, times `games`.
fn check_size(
    format: &dyn tournament::Format,
    bots: usize,
    games: usize,
    seed: u64,
) -> anyhow::Result<()> {
    let per_game = format.round(0, bots, 1, seed, &[]).map_or(0, |f| f.len());
    match per_game.checked_mul(games) {
        Some(n) if n <= MAX_MATCHES => Ok(()),
        n => anyhow::bail!(
            "--games {games}: {per_game} matches a game for {bots} bots make {} matches; \
             a run plays at most {MAX_MATCHES}: give fewer --games",
            n.map_or_else(|| "more than 2^64".to_string(), |n| format!("at least {n}"))
        ),
    }
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = crate::cli::parse_pair(s, &['/'], ("I/N", "0/4"), ["a number"; 2])?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

/// `arena tournament <game>`: the common options, then the game's own.
pub fn command<G: GameCli>() -> Command {
    // After the options: a derived struct's doc would otherwise stand for the game's.
    let cmd = G::TournamentFlags::augment_args(TournamentArgs::augment_args(Command::new(G::NAME)));
    crate::cli::time_limit_help::<G>(cmd).about(G::ABOUT)
}

/// `arena tournament <game>`: checks the bots, the names and the field, plays (or one shard),
/// prints the table and writes the results (`--results-json`).
pub fn run<G: GameCli>(m: &ArgMatches) -> anyhow::Result<()> {
    let args = TournamentArgs::from_arg_matches(m)?;
    let own = G::tournament_options(&G::TournamentFlags::from_arg_matches(m)?);
    let least = G::MIN_ENTRANTS;
    if args.bots.len() < least {
        anyhow::bail!(
            "a {} tournament needs at least {least} bots (the same bot may be named twice)",
            G::NAME
        );
    }
    // Every bot name is checked before anything is played.
    for (i, b) in args.bots.iter().enumerate() {
        BotSpec::parse::<G>(b)
            .map_err(anyhow::Error::msg)?
            .check_start()
            .map_err(|why| anyhow::anyhow!("cannot start bot {i} ({b}): {why}"))?;
    }
    check_names(&args.names, args.bots.len()).map_err(crate::cli::flagged)?;
    let field = Field {
        bots: args.bots.len(),
        games: args.games,
    };
    let (name, format) = G::format(&own, &field).map_err(crate::cli::flagged)?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = crate::cli::random_seed()?;
            crate::errln!("tournament seed {seed} (drawn at random; --seed {seed} plays it again)");
            seed
        }
    };
    check_size(format.as_ref(), args.bots.len(), args.games, seed)?;
    let after = match &args.after {
        Some(f) => {
            let earlier = read_results(f)?;
            if earlier.game != name || earlier.bots != args.bots || earlier.seed != seed {
                anyhow::bail!(
                    "{} is not from this tournament (game, bots or seed differ)",
                    f.display()
                );
            }
            earlier.results
        }
        None => Vec::new(),
    };
    let options = Options {
        games: args.games,
        names: args.names.clone(),
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
        seed,
        shard: args.shard,
        replays: if args.no_replay {
            None
        } else {
            args.replays.clone()
        },
        progress: !args.quiet,
        after,
    };
    let contest = Contest::<G> {
        name,
        args: own,
        timing: Timing {
            turn_ms: args.turn_ms,
            no_timeout: args.no_timeout,
            sandbox: args.sandbox.caps(
                &args.bots,
                &[
                    ("--replays", args.replays.as_deref()),
                    ("--results-json", args.results_json.as_deref()),
                    ("--report", args.report.as_deref()),
                    ("--after", args.after.as_deref()),
                ],
            )?,
        },
    };
    let results = tournament::run(&contest, format.as_ref(), &args.bots, &options)
        .map_err(crate::cli::flagged)?;
    tournament::print(&results);
    write_results(&results, args.results_json.as_ref())?;
    write_report(&results, args.report.as_ref())
}

/// `arena merge`: the shards' results put back together, printed and written as one run's.
pub fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    let shards = args
        .files
        .iter()
        .map(read_results)
        .collect::<anyhow::Result<Vec<_>>>()?;
    check_shards(&shards, &args.files, args.partial)?;
    let game = shards.first().map(|s| s.game.clone()).unwrap_or_default();
    let format = crate::games::format_of(&game)
        .ok_or_else(|| anyhow::anyhow!("unknown game `{game}` in the results"))?;
    let merged = tournament::merge(format.as_ref(), shards)?;
    tournament::print(&merged);
    write_results(&merged, args.results_json.as_ref())?;
    write_report(&merged, args.report.as_ref())
}

/// Refuses a set of shards that is not one whole tournament: shards of different splits, a shard
/// given twice (its matches would count twice), or, unless `partial`, shards missing (named).
fn check_shards(shards: &[Results], files: &[PathBuf], partial: bool) -> anyhow::Result<()> {
    let mut split: Option<(usize, &PathBuf)> = None;
    let mut seen: std::collections::BTreeMap<usize, &PathBuf> = Default::default();
    for (s, file) in shards.iter().zip(files) {
        let Some((i, n)) = s.shard else {
            // A whole run (or the merge of earlier rounds) holds every shard of its matches.
            continue;
        };
        match split {
            Some((m, other)) if m != n => anyhow::bail!(
                "{} is shard {i}/{n} but {} is of {m} shards: not one split of a tournament",
                file.display(),
                other.display()
            ),
            _ => split = Some((n, file)),
        }
        if let Some(other) = seen.insert(i, file) {
            anyhow::bail!(
                "shard {i}/{n} is given twice ({} and {}): its matches would count twice",
                other.display(),
                file.display()
            );
        }
    }
    let Some((n, _)) = split else {
        return Ok(());
    };
    let missing: Vec<String> = (0..n)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !partial {
        anyhow::bail!(
            "shards missing: {} ({} of {n} given); give them all, or --partial to merge these alone",
            missing.join(", "),
            seen.len()
        );
    }
    crate::errln!(
        "merging {} of {n} shards (--partial): missing {}; the table covers their matches only",
        seen.len(),
        missing.join(", ")
    );
    Ok(())
}

fn read_results(f: &PathBuf) -> anyhow::Result<Results> {
    let text = std::fs::read_to_string(f)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", f.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} is not a results file: {e}", f.display()))
}

fn write_results(results: &Results, path: Option<&PathBuf>) -> anyhow::Result<()> {
    if let Some(path) = path {
        let text = serde_json::to_string_pretty(results)?;
        std::fs::write(path, text + "\n")
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        crate::errln!("results written to {}", path.display());
    }
    Ok(())
}

fn write_report(results: &Results, path: Option<&PathBuf>) -> anyhow::Result<()> {
    if let Some(path) = path {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| anyhow::anyhow!("cannot make {}: {e}", dir.display()))?;
        }
        let html = tournament::report::page(results, path);
        std::fs::write(path, &html)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        crate::errln!(
            "report written to {} ({} KB)",
            path.display(),
            html.len().div_ceil(1000)
        );
    }
    Ok(())
}
