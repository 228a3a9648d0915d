//! Tournaments: a schedule of matches in each challenge's own format, played in parallel (rayon),
//! ranked by the format's table and rated with TrueSkill.
//!
//! Results do not depend on `--jobs`: every match is seeded from the tournament seed and its index,
//! results are put back in index order, and ratings are computed in that order after the round.
//! A schedule is made of rounds; formats whose pairings depend on earlier results (Swiss) make each
//! round from the results so far. `--shard I/N` plays the matches of a round whose index is I mod N;
//! `arena merge` puts shards back together and recomputes the same table as a single run.
//!
//! The formats themselves live with their games (`games/<game>/`); what they share for their
//! tables is here ([`by_points`], [`placement_points_x2`]).

use crate::error::{Error, Result};
use crate::host_game::HostGame;
use crate::play::{play, MatchReport, SeatReport};
use crate::process::Fault;
use crate::seats::BotSpec;
use crate::turn_time::SeatTimes;
use arena_core::rng::splitmix64;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use skillratings::trueskill::{trueskill_multi_team, TrueSkillConfig, TrueSkillRating};
use skillratings::MultiTeamOutcome;
use std::path::PathBuf;

pub mod report;

pub use crate::format::{Faults, Field, Fixture, Format, MatchResult, Row};
pub use crate::game::Timing;

/// A game as a tournament plays it: its name in results files, its own options, the time limits.
pub struct Contest<G: HostGame> {
    /// The tournament's name in results files: the game's, or a variant's ("siege"); what `arena
    /// merge` looks its format up by.
    pub name: String,
    /// The game's own tournament options (its flags).
    pub args: G::TournamentOptions,
    /// The time limits every match is played under (`--turn-ms`, `--no-timeout`).
    pub timing: Timing,
}

impl<G: HostGame> Contest<G> {
    /// Plays one match; `names` are what the replay and the report call each entrant. `replay` is
    /// where to write it, if anywhere.
    pub fn play(
        &self,
        fixture: &Fixture,
        bots: &[String],
        names: &[String],
        seed: u64,
        replay: Option<PathBuf>,
    ) -> Result<MatchResult> {
        let specs = fixture
            .seats
            .iter()
            .map(|&b| match bots.get(b) {
                Some(name) => BotSpec::parse::<G>(name).map_err(Error::from),
                None => Ok(BotSpec::default_for::<G>()),
            })
            .collect::<Result<Vec<_>>>()?;
        let mut plan = G::fixture(&self.args, fixture, seed, specs, &self.timing)?;
        for (name, &b) in plan.names.iter_mut().zip(&fixture.seats) {
            if let Some(given) = names.get(b) {
                name.clone_from(given);
            }
        }
        let played = play(&plan, replay.as_deref(), None)?;
        Ok(result_of(fixture, seed, &played.report, replay))
    }
}

impl Faults {
    /// The faults a seat's report counts: a late answer is not counted again (its time-out was).
    pub fn from_report(seat: &SeatReport) -> Faults {
        let mut f = Faults {
            invalid: seat.refused,
            disqualified: seat.disqualified.is_some(),
            ..Faults::default()
        };
        for (_, fault) in &seat.faults {
            match fault {
                Fault::Timeout { .. } => f.timeouts += 1,
                Fault::Exited { .. } | Fault::Spawn { .. } => f.crashes += 1,
                // The time-out it answered was counted.
                Fault::Late { .. } => {}
                _ => f.invalid += 1,
            }
        }
        f
    }
}

/// A bot's TrueSkill rating after the whole tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The entrant, as tables show it.
    pub bot: String,
    /// TrueSkill's estimate of its skill (rounded to 3 decimals, as every value here).
    pub mu: f64,
    /// TrueSkill's uncertainty about that estimate.
    pub sigma: f64,
    /// mu - 3 sigma: what the AI Challenge ranked by.
    pub conservative: f64,
    /// The matches it played (a self-match counted once per seat).
    pub matches: u32,
    /// Its faults, over every match.
    pub faults: Faults,
}

/// Everything a tournament (or a shard of one) produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// The tournament's name (as [`Contest::name`]): what `arena merge` looks its format up by.
    pub game: String,
    /// The format's name ([`Format::name`]).
    pub format: String,
    /// The bots as given (`--bot`), in entry order: fixtures' seats index them.
    pub bots: Vec<String>,
    /// What tables call each entrant (`--name`, else the bot's default name), before `#2`, `#3`
    /// are added to names entered more than once.
    #[serde(default)]
    pub names: Vec<String>,
    /// The tournament seed (`--seed`): each match's is derived from it and its index.
    pub seed: u64,
    /// How many times the schedule is played (`--games`).
    pub games: usize,
    /// `Some((i, n))` for a shard.
    pub shard: Option<(usize, usize)>,
    /// Every match played, in index order.
    pub results: Vec<MatchResult>,
    /// The format's table, best first.
    pub standings: Vec<Row>,
    /// The entrants' TrueSkill ratings, in entry order.
    pub ratings: Vec<Rating>,
    /// Per entrant, in entry order: its time a turn over every match it played (median, p99 and
    /// max in microseconds, on the wall and in CPU time), from the matches' [`MatchResult::times`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub time_a_turn: Vec<serde_json::Value>,
}

/// How to run a tournament.
#[derive(Clone, Debug)]
pub struct Options {
    /// How many times the whole schedule is played.
    pub games: usize,
    /// One per entrant: what tables and replays call it (empty: each bot's default name,
    /// [`BotSpec::name`]).
    pub names: Vec<String>,
    /// Matches played at once (`--jobs`; at least 1).
    pub jobs: usize,
    /// The tournament seed: each match's is [`match_seed`] of it and the match's index.
    pub seed: u64,
    /// `Some((i, n))`: play only the matches whose index is i mod n (`--shard I/N`).
    pub shard: Option<(usize, usize)>,
    /// The folder where each match's replay is written (`match-00042.<ext>` for match 42); `None`:
    /// no replays.
    pub replays: Option<PathBuf>,
    /// Whether to show a progress bar.
    pub progress: bool,
    /// Results of the rounds already played (merged shards), for formats that pair each round from
    /// earlier results: with a shard, only the next round is played.
    pub after: Vec<MatchResult>,
}

/// The seed of match `index` in a tournament seeded `seed`.
pub fn match_seed(seed: u64, index: usize) -> u64 {
    let mut s = seed ^ (index as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    splitmix64(&mut s)
}

/// Plays a tournament (or one shard of it).
pub fn run<G: HostGame>(
    contest: &Contest<G>,
    format: &dyn Format,
    bots: &[String],
    options: &Options,
) -> Result<Results> {
    // An adaptive format's rounds need every earlier result: a shard plays one round, the next one
    // after the results given in `after`.
    let one_round = format.adaptive() && options.shard.is_some_and(|(_, n)| n > 1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()?;
    if let Some(dir) = &options.replays {
        std::fs::create_dir_all(dir)?;
    }
    let names = entrant_names::<G>(bots, &options.names);
    let shown = labels(&names);
    let mut results: Vec<MatchResult> = options.after.clone();
    let mut round = results.iter().map(|r| r.round + 1).max().unwrap_or(0);
    while let Some(fixtures) =
        format.round(round, bots.len(), options.games, options.seed, &results)
    {
        let mine: Vec<Fixture> = fixtures
            .into_iter()
            .filter(|f| options.shard.is_none_or(|(i, n)| f.index % n == i))
            .collect();
        let bar = if options.progress {
            let bar = ProgressBar::new(mine.len() as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:30}] {pos}/{len} matches, {per_sec}, ETA {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_message(format!("round {}", round + 1));
            bar
        } else {
            ProgressBar::hidden()
        };
        let played: Vec<Result<MatchResult>> = pool.install(|| {
            mine.par_iter()
                .map(|f| {
                    let replay = options
                        .replays
                        .as_ref()
                        .map(|d| d.join(format!("match-{:05}.{}", f.index, G::REPLAY_EXT)));
                    let seed = match_seed(options.seed, f.index);
                    let r = contest.play(f, bots, &shown, seed, replay);
                    bar.inc(1);
                    r
                })
                .collect()
        });
        bar.finish_and_clear();
        for r in played {
            results.push(r?);
        }
        results.sort_by_key(|r| r.index);
        round += 1;
        if one_round {
            break;
        }
    }
    Ok(finish(
        contest.name.clone(),
        format,
        bots,
        &names,
        options,
        results,
    ))
}

/// What a tournament calls each entrant: the names given, then each bot's default name.
pub fn entrant_names<G: HostGame>(bots: &[String], given: &[String]) -> Vec<String> {
    bots.iter()
        .enumerate()
        .map(|(i, b)| match given.get(i) {
            Some(name) => name.clone(),
            None => BotSpec::parse::<G>(b).map_or_else(|_| b.clone(), |s| s.name()),
        })
        .collect()
}

/// Standings and ratings from a list of results; `names` are the entrants' names (tables show
/// them, `#2` added to a name entered twice; none given: the bots as given).
pub fn finish(
    game: String,
    format: &dyn Format,
    bots: &[String],
    names: &[String],
    options: &Options,
    mut results: Vec<MatchResult>,
) -> Results {
    results.sort_by_key(|r| r.index);
    results.dedup_by_key(|r| r.index);
    let entrants = if names.len() == bots.len() {
        names
    } else {
        bots
    };
    let shown = labels(entrants);
    Results {
        game,
        format: format.name().into(),
        bots: bots.to_vec(),
        names: entrants.to_vec(),
        seed: options.seed,
        games: options.games,
        shard: options.shard,
        standings: format.standings(&shown, &results),
        ratings: ratings(&shown, &results),
        time_a_turn: time_totals(shown.len(), &results)
            .iter()
            .zip(&shown)
            .map(|(t, bot)| {
                let mut v = t.json();
                if let Some(m) = v.as_object_mut() {
                    m.insert("bot".into(), bot.as_str().into());
                }
                v
            })
            .collect(),
        results,
    }
}

/// Each entrant's time a turn over every match it played (every seat it held).
pub fn time_totals(n: usize, results: &[MatchResult]) -> Vec<SeatTimes> {
    let mut t = vec![SeatTimes::default(); n];
    for r in results {
        for (&b, times) in r.seats.iter().zip(&r.times) {
            if let Some(total) = t.get_mut(b) {
                total.merge(times);
            }
        }
    }
    t
}

/// The names tables show: the bot as given, with `#2`, `#3`... when the same bot enters twice.
pub fn labels(bots: &[String]) -> Vec<String> {
    bots.iter()
        .enumerate()
        .map(|(i, b)| {
            let before = bots[..i].iter().filter(|o| *o == b).count();
            let total = bots.iter().filter(|o| *o == b).count();
            if total > 1 {
                format!("{b}#{}", before + 1)
            } else {
                b.clone()
            }
        })
        .collect()
}

/// TrueSkill over every match in index order (one team per seat, ranked by the match's ranks).
pub fn ratings(bots: &[String], results: &[MatchResult]) -> Vec<Rating> {
    let config = TrueSkillConfig::new();
    let mut r: Vec<TrueSkillRating> = vec![TrueSkillRating::new(); bots.len()];
    let mut matches = vec![0u32; bots.len()];
    let mut faults = vec![Faults::default(); bots.len()];
    for m in results {
        rate(&mut r, m, &config);
        for (seat, &b) in m.seats.iter().enumerate() {
            if let Some(c) = matches.get_mut(b) {
                *c += 1;
            }
            if let (Some(f), Some(mf)) = (faults.get_mut(b), m.faults.get(seat)) {
                f.add(mf);
            }
        }
    }
    bots.iter()
        .enumerate()
        .map(|(i, name)| Rating {
            bot: name.clone(),
            mu: round3(r[i].rating),
            sigma: round3(r[i].uncertainty),
            conservative: round3(r[i].rating - 3.0 * r[i].uncertainty),
            matches: matches[i],
            faults: faults[i],
        })
        .collect()
}

/// One bot's TrueSkill rating after one of its matches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The match's position in `results` (schedule order), from 0.
    pub at: usize,
    /// The rating's mean after that match.
    pub mu: f64,
    /// mu - 3 sigma after that match: the rating the bot is almost surely above.
    pub conservative: f64,
}

/// Every bot's rating after each match it played, in index order: the same sequence
/// [`ratings`] goes through, so the last step of each bot is its rating (and, like it, the same
/// for any `--jobs`).
pub fn history(bots: usize, results: &[MatchResult]) -> Vec<Vec<Step>> {
    let config = TrueSkillConfig::new();
    let mut r: Vec<TrueSkillRating> = vec![TrueSkillRating::new(); bots];
    let mut steps = vec![Vec::new(); bots];
    for (at, m) in results.iter().enumerate() {
        rate(&mut r, m, &config);
        for &b in &m.seats {
            if let (Some(s), Some(v)) = (steps.get_mut(b), r.get(b)) {
                s.push(Step {
                    at,
                    mu: round3(v.rating),
                    conservative: round3(v.rating - 3.0 * v.uncertainty),
                });
            }
        }
    }
    for s in &mut steps {
        // A bot in two seats of one match (a self-match) is one step.
        s.dedup_by_key(|s| s.at);
    }
    steps
}

/// One match's update of the ratings `r` (one team per seat, ranked by the match's ranks).
fn rate(r: &mut [TrueSkillRating], m: &MatchResult, config: &TrueSkillConfig) {
    let teams: Vec<[TrueSkillRating; 1]> = m
        .seats
        .iter()
        .map(|&b| [r.get(b).copied().unwrap_or_default()])
        .collect();
    let input: Vec<(&[TrueSkillRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&m.rank)
        .map(|(t, &rank)| (&t[..], MultiTeamOutcome::new(rank as usize + 1)))
        .collect();
    // Two seats held by one bot (a self-match) teach the ratings nothing.
    let distinct = {
        let mut s = m.seats.clone();
        s.sort();
        s.dedup();
        s.len() == m.seats.len()
    };
    if distinct && input.len() >= 2 {
        if let Ok(new) = trueskill_multi_team(&input, config, None) {
            for (&b, team) in m.seats.iter().zip(new) {
                if let (Some(slot), Some(v)) = (r.get_mut(b), team.first()) {
                    *slot = *v;
                }
            }
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Puts shards back together: the same results, table and ratings as a single run.
pub fn merge(format: &dyn Format, shards: Vec<Results>) -> Result<Results> {
    let first = shards.first().ok_or(Error::NoResults)?.clone();
    let mut results = Vec::new();
    for s in &shards {
        if s.game != first.game
            || s.bots != first.bots
            || s.seed != first.seed
            || s.games != first.games
        {
            return Err(Error::NotShards);
        }
        results.extend(s.results.iter().cloned());
    }
    let options = Options {
        games: first.games,
        names: first.names.clone(),
        jobs: 1,
        seed: first.seed,
        shard: None,
        replays: None,
        progress: false,
        after: Vec::new(),
    };
    Ok(finish(
        first.game,
        format,
        &first.bots,
        &first.names,
        &options,
        results,
    ))
}

/// Prints the standings, the ratings and the faults.
pub fn print(results: &Results) {
    crate::outln!(
        "{} tournament ({}), {} matches, seed {}{}",
        results.game,
        results.format,
        results.results.len(),
        results.seed,
        results
            .shard
            .map(|(i, n)| format!(", shard {i}/{n}"))
            .unwrap_or_default()
    );
    if let Some(first) = results.standings.first() {
        let mut header = format!("{:>3}  {:<28}", "#", "bot");
        for (name, _) in &first.columns {
            header.push_str(&format!(" {name:>14}"));
        }
        crate::outln!("\n{header}");
        for (i, row) in results.standings.iter().enumerate() {
            let bot = crate::out::escape_controls(&row.bot);
            let mut line = format!("{:>3}  {bot:<28}", i + 1);
            for (_, v) in &row.columns {
                line.push_str(&format!(" {v:>14}"));
            }
            crate::outln!("{line}");
        }
    }
    crate::outln!(
        "\n{:<28} {:>8} {:>7} {:>9} {:>8} {:>9} {:>8} {:>8} {:>6}",
        "rating (TrueSkill)",
        "mu",
        "sigma",
        "mu-3sigma",
        "matches",
        "timeouts",
        "crashes",
        "invalid",
        "DQ"
    );
    let mut ratings = results.ratings.clone();
    ratings.sort_by(|a, b| b.conservative.total_cmp(&a.conservative));
    for r in ratings {
        crate::outln!(
            "{:<28} {:>8.2} {:>7.2} {:>9.2} {:>8} {:>9} {:>8} {:>8} {:>6}",
            crate::out::escape_controls(&r.bot),
            r.mu,
            r.sigma,
            r.conservative,
            r.matches,
            r.faults.timeouts,
            r.faults.crashes,
            r.faults.invalid,
            if r.faults.disqualified { "yes" } else { "" }
        );
    }
    let times = time_totals(results.bots.len(), &results.results);
    if times.iter().any(|t| t.wall.turns > 0) {
        let shown = labels(if results.names.len() == results.bots.len() {
            &results.names
        } else {
            &results.bots
        });
        crate::outln!(
            "\n{:<28} {:>8} {:>30} {:>38}",
            "time a turn",
            "turns",
            "wall: median/p99/max",
            "cpu: median/p99/max"
        );
        for (bot, t) in shown.iter().zip(&times) {
            let cpu = match t.cpu.turns {
                0 => "-".to_string(),
                _ => format!(
                    "{} ({})",
                    crate::turn_time::triple(&t.cpu.stats()),
                    t.cpu_of.name()
                ),
            };
            crate::outln!(
                "{:<28} {:>8} {:>30} {:>38}",
                crate::out::escape_controls(bot),
                t.wall.turns,
                crate::turn_time::triple(&t.wall.stats()),
                cpu
            );
        }
    }
}

/// Placement points in one match: a seat gets one point for every seat ranked below it and half a
/// point for every other seat sharing its rank (so ties split the points of the places they share).
/// Returned doubled, to stay in integers.
pub fn placement_points_x2(rank: &[u8]) -> Vec<u32> {
    rank.iter()
        .map(|&r| {
            rank.iter()
                .map(|&o| match o.cmp(&r) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum::<u32>()
                - 1
        })
        .collect()
}

/// Standings by total placement points (with matches played), best first.
pub fn by_points(
    bots: &[String],
    results: &[MatchResult],
    points: impl Fn(&[u8]) -> Vec<f64>,
) -> Vec<Row> {
    let n = bots.len();
    let mut total = vec![0f64; n];
    let mut played = vec![0u32; n];
    let mut wins = vec![0u32; n];
    for m in results {
        let p = points(&m.rank);
        let firsts = m.rank.iter().filter(|&&r| r == 0).count();
        for (seat, &b) in m.seats.iter().enumerate() {
            if b < n {
                total[b] += p.get(seat).copied().unwrap_or(0.0);
                played[b] += 1;
                if m.rank.get(seat) == Some(&0) && firsts == 1 {
                    wins[b] += 1;
                }
            }
        }
    }
    let per_match = |i: usize| match played[i] {
        0 => 0.0,
        p => total[i] / p as f64,
    };
    table(
        bots,
        |a, b| total[b].total_cmp(&total[a]).then(wins[b].cmp(&wins[a])),
        |i| {
            vec![
                ("points", format!("{:.1}", total[i])),
                ("matches", played[i].to_string()),
                ("wins", wins[i].to_string()),
                ("points/match", format!("{:.2}", per_match(i))),
            ]
        },
    )
}

/// A standings table: every entrant, best first by `better` (then in the order of entry), with
/// its named columns.
pub fn table(
    bots: &[String],
    better: impl Fn(usize, usize) -> std::cmp::Ordering,
    columns: impl Fn(usize) -> Vec<(&'static str, String)>,
) -> Vec<Row> {
    let mut order: Vec<usize> = (0..bots.len()).collect();
    order.sort_by(|&a, &b| better(a, b).then(a.cmp(&b)));
    order
        .into_iter()
        .map(|i| Row {
            bot: bots[i].clone(),
            columns: columns(i)
                .into_iter()
                .map(|(name, value)| (name.into(), value))
                .collect(),
        })
        .collect()
}

/// Points by place from a table (`[5, 3, 2, 1, 0]`: first gets 5), ties splitting the points of
/// the places they share.
pub fn points_by_place(rank: &[u8], table: &[u32]) -> Vec<f64> {
    rank.iter()
        .map(|&r| {
            let tied = rank.iter().filter(|&&o| o == r).count();
            let start = r as usize;
            let sum: u32 = (start..start + tied)
                .map(|p| table.get(p).copied().unwrap_or(0))
                .sum();
            sum as f64 / tied as f64
        })
        .collect()
}

/// A tournament result from a match report.
pub fn result_of(
    fixture: &Fixture,
    seed: u64,
    report: &MatchReport,
    replay: Option<PathBuf>,
) -> MatchResult {
    let n = fixture.seats.len();
    let (rank, score, reason) = match &report.outcome {
        Some(o) => (
            o.ranks().to_vec(),
            o.scores().to_vec(),
            o.reason.to_string(),
        ),
        // Unfinished (a step limit): everyone shares the place.
        None => (vec![0; n], vec![0; n], "not finished".into()),
    };
    MatchResult {
        index: fixture.index,
        round: fixture.round,
        seats: fixture.seats.clone(),
        seed,
        turns: report.turns,
        rank,
        score,
        reason,
        faults: report.seats.iter().map(Faults::from_report).collect(),
        replay,
        times: report.seats.iter().map(|s| s.times.clone()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_points_split_ties() {
        assert_eq!(placement_points_x2(&[0, 1, 2, 3]), vec![6, 4, 2, 0]);
        assert_eq!(placement_points_x2(&[0, 0, 2]), vec![3, 3, 0]);
        assert_eq!(points_by_place(&[0, 0, 2], &[3, 2, 1]), vec![2.5, 2.5, 1.0]);
    }

    #[test]
    fn the_ratings_course_ends_at_the_ratings() {
        let result = |index: usize, seats: Vec<usize>, rank: Vec<u8>| MatchResult {
            index,
            round: 0,
            faults: vec![Faults::default(); seats.len()],
            times: Vec::new(),
            seats,
            seed: 0,
            turns: 1,
            rank,
            score: vec![0, 0],
            reason: String::new(),
            replay: None,
        };
        let results = vec![
            result(0, vec![0, 1], vec![0, 1]),
            result(1, vec![1, 2], vec![0, 0]),
            result(2, vec![2, 0], vec![1, 0]),
            // A self-match: one step, no change.
            result(3, vec![2, 2], vec![0, 1]),
        ];
        let bots: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let steps = history(3, &results);
        let at: Vec<Vec<usize>> = steps
            .iter()
            .map(|s| s.iter().map(|x| x.at).collect())
            .collect();
        assert_eq!(at, vec![vec![0, 2], vec![0, 1], vec![1, 2, 3]]);
        assert_eq!(steps[2][1].mu, steps[2][2].mu);
        for (s, r) in steps.iter().zip(ratings(&bots, &results)) {
            let last = s.last().unwrap();
            assert_eq!((last.mu, last.conservative), (r.mu, r.conservative));
        }
    }
}
