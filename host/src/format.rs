//! A tournament format, as a game announces it ([`Compete`]): the schedule of fixtures and the
//! table ([`Format`]), over the results of matches ([`MatchResult`]). The machinery that plays
//! them is [`crate::tournament`]; each game's formats live in its folder.

use crate::error::Result;
use crate::game::{Plan, Setup, Timing};
use crate::protocol::Speak;
use crate::seats::BotSpec;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One scheduled match: which bot (index into the entry list) sits at each seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixture {
    pub index: usize,
    pub round: usize,
    pub seats: Vec<usize>,
}

/// Faults of one seat in one match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    pub timeouts: u32,
    pub crashes: u32,
    /// Unreadable answers and actions the rules refused.
    pub invalid: u32,
    pub disqualified: bool,
}

impl Faults {
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
    pub index: usize,
    pub round: usize,
    pub seats: Vec<usize>,
    pub seed: u64,
    pub turns: u32,
    /// Per seat: 0 is first, ties share.
    pub rank: Vec<u8>,
    pub score: Vec<i64>,
    pub reason: String,
    pub faults: Vec<Faults>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub replay: Option<PathBuf>,
}

/// A tournament format: the schedule and the table.
pub trait Format: Sync {
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
    pub bot: String,
    pub columns: Vec<(String, String)>,
}

/// The field a tournament is asked for: how many entrants, how many times the schedule is played.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub bots: usize,
    pub games: usize,
}

/// A game's tournament: the format its original challenge announced, and the match each fixture
/// is.
pub trait Compete: Speak {
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
