//! `arena tournament` and `arena merge`.

use super::record::{run_recorded, Recorder};
use super::tower_defense::VariantArg;
use super::Timing;
use crate::formats;
use crate::play::{BotSpec, ExternalOptions, Protocol};
use crate::process::BotProcess;
use crate::tournament::{self, Fixture, Format, MatchResult, Options, Results};
use arena_core::games::tower_defense::Variant;
use arena_core::Roster;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    TowerDefense,
    Colorfight,
    Mammut,
    Ballroom,
    Ants,
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
    /// Ants: a map (official format); give several to rotate, match i is played on map i mod maps.
    #[arg(long = "map", value_name = "MAP")]
    pub maps: Vec<PathBuf>,
    /// Ants: turn limit of every match.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub turns: u16,
    /// For a Swiss tournament played in shards: the merged results of the rounds played so far
    /// (`arena merge` output); the shard then plays the next round only.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub after: Option<PathBuf>,
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

/// A game in a tournament: how to set up a table of `n` seats, talk to its external bots and record
/// its matches.
pub struct Contest<G: Roster> {
    pub name: String,
    pub params: Box<dyn Fn(usize) -> G::Params + Sync>,
    pub options: ExternalOptions,
    pub protocol: fn(BotProcess) -> Box<dyn Protocol<G>>,
    pub recorder: Box<dyn Fn() -> Box<dyn Recorder<G>> + Sync>,
    pub ext: &'static str,
}

impl<G: Roster> tournament::Contest for Contest<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn replay_ext(&self) -> &'static str {
        self.ext
    }

    fn play(
        &self,
        fixture: &Fixture,
        bots: &[String],
        seed: u64,
        replay: Option<PathBuf>,
    ) -> anyhow::Result<MatchResult> {
        let specs: Vec<BotSpec> = fixture
            .seats
            .iter()
            .map(|&b| {
                let name = bots.get(b).map(String::as_str).unwrap_or("random");
                BotSpec::parse::<G>(name).map_err(anyhow::Error::msg)
            })
            .collect::<anyhow::Result<_>>()?;
        let game = G::new(&(self.params)(specs.len()), seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut players = crate::play::players::<G>(&specs, seed, &self.options, self.protocol)
            .map_err(anyhow::Error::msg)?;
        let (report, _error) = run_recorded(
            game,
            seed,
            &mut players,
            None,
            (self.recorder)(),
            replay.as_ref(),
            None,
        )?;
        Ok(tournament::result_of(fixture, seed, &report, replay))
    }
}

/// Swiss rounds: `--games` when given, else enough for a clear winner (log2 of the field, plus one).
fn swiss_rounds(bots: usize, games: usize) -> usize {
    if games > 1 {
        games
    } else {
        (usize::BITS - bots.max(1).leading_zeros()) as usize + 1
    }
}

/// The contest and format for a game name as results files record it.
/// What the contest and format of a game need to know.
struct Setup {
    timing: Timing,
    bots: usize,
    games: usize,
    maps: Vec<PathBuf>,
    map_players: Vec<usize>,
    turns: u16,
}

fn by_name(game: &str, setup: Setup) -> Option<(Box<dyn tournament::Contest>, Box<dyn Format>)> {
    use super::{ants, ballroom, colorfight, mammut, tower_defense};
    let Setup {
        timing,
        bots,
        games,
        maps,
        map_players,
        turns,
    } = setup;
    Some(match game {
        "ants" => (
            Box::new(ants::Contest {
                maps,
                turns,
                timing,
            }),
            Box::new(formats::TrueSkillMatches { map_players }),
        ),
        "tower-defense" => (
            Box::new(tower_defense::contest(Variant::Duel, timing)),
            Box::new(formats::RoundRobin),
        ),
        "tower-defense/siege" => (
            Box::new(tower_defense::contest(Variant::Siege, timing)),
            Box::new(formats::DefenderVsInvader),
        ),
        "colorfight" => (
            Box::new(colorfight::contest(timing)),
            Box::new(formats::FreeForAll { max_seats: 8 }),
        ),
        "mammut" => (
            Box::new(mammut::contest(timing)),
            Box::new(formats::FiveTables),
        ),
        "ballroom" => (
            Box::new(ballroom::contest(timing)),
            Box::new(formats::Swiss {
                rounds: swiss_rounds(bots, games),
            }),
        ),
        _ => return None,
    })
}

fn check_bots<G: Roster>(bots: &[String]) -> anyhow::Result<()> {
    for b in bots {
        BotSpec::parse::<G>(b).map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

pub fn tournament(args: &TournamentArgs) -> anyhow::Result<()> {
    use arena_core::games::tower_defense::TowerDefense;
    use arena_core::games::{ballroom::Ballroom, colorfight::ColorFight, mammut::Mammut};
    let name = match (args.game, args.variant) {
        (GameArg::TowerDefense, VariantArg::Duel) => "tower-defense",
        (GameArg::TowerDefense, VariantArg::Siege) => "tower-defense/siege",
        (GameArg::Colorfight, _) => "colorfight",
        (GameArg::Mammut, _) => "mammut",
        (GameArg::Ballroom, _) => "ballroom",
        (GameArg::Ants, _) => "ants",
    };
    let least = match args.game {
        GameArg::Mammut => 5,
        GameArg::Ballroom => 4,
        _ => 2,
    };
    if args.bots.len() < least {
        anyhow::bail!(
            "a {name} tournament needs at least {least} bots (the same bot may be named twice)"
        );
    }
    // Check every bot name before playing anything.
    match args.game {
        GameArg::TowerDefense => check_bots::<TowerDefense>(&args.bots)?,
        GameArg::Colorfight => check_bots::<ColorFight>(&args.bots)?,
        GameArg::Mammut => check_bots::<Mammut>(&args.bots)?,
        GameArg::Ballroom => check_bots::<Ballroom>(&args.bots)?,
        GameArg::Ants => check_bots::<arena_core::games::ants::Ants>(&args.bots)?,
    }
    let map_players = if args.game == GameArg::Ants {
        if args.maps.is_empty() {
            anyhow::bail!("an Ants tournament needs at least one --map");
        }
        super::ants::map_players(&args.maps)?
    } else {
        Vec::new()
    };
    if args.game == GameArg::Mammut {
        formats::mammut_blocks(args.bots.len(), args.games, args.seed)
            .map_err(anyhow::Error::msg)?;
    }
    let timing = Timing {
        turn_ms: args.turn_ms,
        no_timeout: args.no_timeout,
    };
    let setup = Setup {
        timing,
        bots: args.bots.len(),
        games: args.games,
        maps: args.maps.clone(),
        map_players,
        turns: args.turns,
    };
    let (contest, format) =
        by_name(name, setup).ok_or_else(|| anyhow::anyhow!("no format for {name}"))?;
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
        after: match &args.after {
            Some(f) => {
                let earlier = read_results(f)?;
                if earlier.game != name || earlier.bots != args.bots || earlier.seed != args.seed {
                    anyhow::bail!(
                        "{} is not from this tournament (game, bots or seed differ)",
                        f.display()
                    );
                }
                earlier.results
            }
            None => Vec::new(),
        },
    };
    let results = tournament::run(contest.as_ref(), format.as_ref(), &args.bots, &options)?;
    tournament::print(&results);
    write_results(&results, args.results_json.as_ref())
}

pub fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    let shards = args
        .files
        .iter()
        .map(read_results)
        .collect::<anyhow::Result<Vec<_>>>()?;
    let game = shards.first().map(|s| s.game.clone()).unwrap_or_default();
    let (bots, games) = shards
        .first()
        .map(|s| (s.bots.len(), s.games))
        .unwrap_or_default();
    let setup = Setup {
        timing: Timing::default(),
        bots,
        games,
        maps: Vec::new(),
        map_players: Vec::new(),
        turns: 0,
    };
    let (_, format) = by_name(&game, setup)
        .ok_or_else(|| anyhow::anyhow!("unknown game `{game}` in the results"))?;
    let merged = tournament::merge(format.as_ref(), shards)?;
    tournament::print(&merged);
    write_results(&merged, args.results_json.as_ref())
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
        eprintln!("results written to {}", path.display());
    }
    Ok(())
}
