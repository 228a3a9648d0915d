//! Mammut on the desktop: JSON lines to the seat that is to move, a trace of every action, and
//! 5-player tables in tournaments.

pub mod json;
pub mod tournament;
pub mod trace;

use crate::commands::tournament::TournamentArgs;
use crate::game::{HostGame, NoOptions, Plan, Setup};
use crate::process::Lines;
use crate::protocol::{JsonLines, Protocol};
use crate::tournament::{Fixture, Format};
use arena_core::games::mammut::{Action, Mammut, Params, PLAYERS};
use arena_core::{Game, Seat};
use serde_json::Value;
use std::time::Duration;

/// 5 s per action, each on its own. A fault plays an illegal action: the rules give one more chance,
/// then the seat sits out the round.
const PER_ACTION: Duration = Duration::from_secs(5);

/// Faults never disqualify in Mammut: the seed removes a player "during this round" only.
const NO_DISQUALIFICATION: u32 = u32::MAX;

impl HostGame for Mammut {
    const BOT_NOTES: &'static [&'static str] = &[
        "cautious: the best expected score, assuming the players still to act are greedy thieves",
        "greedy: takes or steals what scores most if the round ended now",
        "random: takes random tiles, or steals from a random player",
    ];
    const ABOUT: &'static str =
        "Mammut: five players take and steal tiles over five rounds (give five bots).";
    const REPLAY_ABOUT: &'static str =
        "A Mammut trace (JSON lines: header, then one line per action).";
    const TIME_LIMIT: &'static str = "5 s an answer";
    const REPLAY_EXT: &'static str = "jsonl";
    const MIN_ENTRANTS: usize = PLAYERS;
    // Mammut has no options of its own.
    type PlayOptions = NoOptions;
    type TournamentOptions = NoOptions;
    type Move = Action;
    type Extra = ();
    type Recorder = trace::Trace;

    fn time_limit(_: &Params) -> (Duration, u32) {
        (PER_ACTION, 1)
    }

    /// Mammut has no pass: every turn is a take or a steal, and `Nothing` is refused ("no action").
    fn is_pass(&self, _seat: Seat, _mv: &Action) -> bool {
        false
    }

    /// The mover's refusal, with the rules' reason for it.
    fn play_step(
        &mut self,
        moves: &[Action],
        _dropped: arena_core::SeatSet,
    ) -> crate::game::Stepped {
        let why = self.mover().and_then(|seat| {
            let action = moves.get(seat).copied().unwrap_or_default();
            self.legal(seat, &action).err().map(|r| (seat, r.reason()))
        });
        let mut stepped = crate::game::Stepped::from(self.step(moves));
        stepped.why.extend(why);
        stepped
    }

    fn setup(_: &NoOptions, _bots: usize) -> anyhow::Result<Setup<Self>> {
        Ok(Setup::new(Params, PLAYERS, ""))
    }

    fn fixture_setup(_: &NoOptions, _: &Fixture) -> anyhow::Result<Setup<Self>> {
        Ok(Setup::new(Params, PLAYERS, ""))
    }

    /// JSON lines, with no match-level disqualification however many faults a bot makes (the
    /// rules' second chance and removal for the round are the only sanctions).
    fn protocol(conn: Box<dyn Lines>, plan: &Plan<Self>, _seat: Seat) -> Box<dyn Protocol<Self>> {
        let mut limits = plan.limits;
        limits.max_faults = NO_DISQUALIFICATION;
        Box::new(JsonLines::new(conn, limits))
    }

    /// A removal is for the round: a bot whose process died is started again for the next one.
    fn rejoin_epoch(&self) -> Option<u32> {
        Some(u32::from(self.round()))
    }

    fn state_json(&self, seat: Seat) -> Value {
        json::state_json(self, seat)
    }

    crate::game::from_modules!(json, trace);

    fn tournament(
        _args: &NoOptions,
        common: &TournamentArgs,
    ) -> anyhow::Result<(String, Box<dyn Format>)> {
        tournament::design(common.bots.len()).map_err(anyhow::Error::msg)?;
        Ok((Self::NAME.into(), Box::new(tournament::FiveTables)))
    }

    fn format_of(name: &str) -> Option<Box<dyn Format>> {
        (name == Self::NAME).then(|| Box::new(tournament::FiveTables) as Box<dyn Format>)
    }
}
