//! A tournament format, as a game announces it ([`GameFormat`]): the schedule of fixtures and the
//! table ([`Format`]), over the results of matches ([`MatchResult`]). The machinery that plays
//! them is [`crate::tournament`]; each game's formats live in its folder.

use crate::error::Result;
use crate::game::{Plan, Setup, Timing};
use crate::protocol::GameProtocol;
use crate::seats::BotSpec;
use crate::turn_time::SeatTimes;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One scheduled match: which bot (index into the entry list) sits at each seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixture {
    /// The match's place in the whole tournament, counted from 0 across rounds: its seed and its
    /// replay's file name come from it, and `--shard I/N` plays the indices that are I mod N.
    pub index: usize,
    /// The round it belongs to, counted from 0 (always 0 in a format played in one round).
    pub round: usize,
    /// Per seat, the entrant sitting there: an index into the tournament's bots.
    pub seats: Vec<usize>,
}

/// Faults of one seat in one match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    /// Answers not given in time.
    pub timeouts: u32,
    /// Exits and bots that could not be started.
    pub crashes: u32,
    /// Unreadable answers and actions the rules refused.
    pub invalid: u32,
    /// Whether the engine dropped the bot (too many faults, or a crash).
    pub disqualified: bool,
}

impl Faults {
    /// Adds `other`'s counts to these (a bot's faults over a tournament); disqualified if either
    /// was.
    pub fn add(&mut self, other: &Faults) {
        self.timeouts += other.timeouts;
        self.crashes += other.crashes;
        self.invalid += other.invalid;
        self.disqualified |= other.disqualified;
    }
}

/// What one match came to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The fixture's index ([`Fixture::index`]).
    pub index: usize,
    /// The fixture's round.
    pub round: usize,
    /// The fixture's seats: per seat, an index into the tournament's bots.
    pub seats: Vec<usize>,
    /// The match's own seed, derived from the tournament's and the index
    /// ([`crate::tournament::match_seed`]).
    pub seed: u64,
    /// The turns the match lasted, as its report counts them.
    pub turns: u32,
    /// Per seat: 0 is first, ties share.
    pub rank: Vec<u8>,
    /// Per seat: the game's own score, in its own measure (all 0 when the match did not finish).
    pub score: Vec<i64>,
    /// Why the match ended, in the rules' words ("not finished" at a step limit).
    pub reason: String,
    /// Per seat: what its bot did wrong.
    pub faults: Vec<Faults>,
    /// The match's replay, when replays are written.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub replay: Option<PathBuf>,
    /// Per seat: its time a turn (measured, so the one part of a result that differs from run to
    /// run; empty in results written before it was kept).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub times: Vec<SeatTimes>,
}

/// A tournament format: the schedule and the table.
pub trait Format: Sync {
    /// What results files and the printed table call the format ("round robin, seats swapped").
    fn name(&self) -> &'static str;
    /// The fixtures of `round` (numbered from 0) for `bots` entries, `games` repetitions, given every
    /// result so far; `None` when the tournament is over. Indices continue from earlier rounds.
    /// Default: one round, the matches of [`Format::schedule`] in order.
    fn round(
        &self,
        round: usize,
        bots: usize,
        games: usize,
        seed: u64,
        _results: &[MatchResult],
    ) -> Option<Vec<Fixture>> {
        if round > 0 {
            return None;
        }
        let matches = self.schedule(bots, games, seed)?.into_iter().enumerate();
        Some(
            matches
                .map(|(index, seats)| Fixture {
                    index,
                    round: 0,
                    seats,
                })
                .collect(),
        )
    }
    /// For a format played in one round (the default [`Format::round`]): the seats of every match
    /// for `bots` entries and `games` repetitions, in order; `None` when there is none to play.
    /// Required, so that a format can not compile that plays no match: one drawn round by round
    /// overrides [`Format::round`] and answers `None` here.
    fn schedule(&self, bots: usize, games: usize, seed: u64) -> Option<Vec<Vec<usize>>>;
    /// Whether a round's fixtures depend on earlier results (then shards are played round by round).
    fn adaptive(&self) -> bool {
        false
    }
    /// The table, best first: one row per bot, named columns.
    fn standings(&self, bots: &[String], results: &[MatchResult]) -> Vec<Row>;
}

/// A row of a standings table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The entrant, as the table shows it (`#2` added to a name entered twice).
    pub bot: String,
    /// The format's columns, in order: (heading, value as printed).
    pub columns: Vec<(String, String)>,
}

/// The field a tournament is asked for: how many entrants, how many times the schedule is played.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The entrants (`--bot` given), the same bot counted as often as it is entered.
    pub bots: usize,
    /// How many times the schedule is played (`--games`).
    pub games: usize,
}

/// A game's tournament: the format its original challenge announced, and the match each fixture
/// is.
pub trait GameFormat: GameProtocol {
    /// The fewest entrants a tournament takes (a table's seats).
    const MIN_ENTRANTS: usize = 2;
    /// The game's own tournament options (a variant, maps, rounds); `()` for most.
    type TournamentOptions: Send + Sync;
    /// The params of the match a tournament plays for `fixture`.
    fn fixture_setup(options: &Self::TournamentOptions, fixture: &Fixture) -> Result<Setup<Self>>;
    /// The match a tournament plays for `fixture`, seeded `seed`, with `bots` at its seats.
    fn fixture(
        options: &Self::TournamentOptions,
        fixture: &Fixture,
        seed: u64,
        bots: Vec<BotSpec>,
        timing: &Timing,
    ) -> Result<Plan<Self>> {
        let setup = Self::fixture_setup(options, fixture)?;
        let (per_turn, window) = Self::time_limit(&setup.params);
        Ok(Plan::new(
            setup,
            seed,
            bots,
            timing.limits(per_turn, window),
        ))
    }
    /// The tournament `arena tournament <game>` plays: its name in results files and its format.
    /// Refuses a field the format cannot schedule.
    fn format(
        options: &Self::TournamentOptions,
        field: &Field,
    ) -> Result<(String, Box<dyn Format>)>;
    /// The format of a results file whose `game` is `name`, if it is one of this game's.
    fn format_of(name: &str) -> Option<Box<dyn Format>>;
}
