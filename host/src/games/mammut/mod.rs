//! Mammut on the desktop: JSON lines to the seat that is to move, a trace of every action, and
//! 5-player tables in tournaments.

pub mod json;
pub mod tournament;
pub mod trace;

use crate::error::{Error, Result};
use crate::format::{Field, Fixture, Format, GameFormat};
use crate::game::{Plan, Playable, Setup};
use crate::process::Lines;
use crate::protocol::{GameProtocol, JsonLines, Protocol};
use crate::record::Record;
use crate::setup::GameSetup;
use arena_core::games::mammut::{Action, Mammut, Params, PLAYERS};
use arena_core::{Game, Seat};
use serde_json::Value;
use std::time::Duration;

/// 5 s per action, each on its own. A fault plays an illegal action: the rules give one more chance,
/// then the seat sits out the round.
const PER_ACTION: Duration = Duration::from_secs(5);

/// Faults never disqualify in Mammut: the seed removes a player "during this round" only.
const NO_DISQUALIFICATION: u32 = u32::MAX;

impl Playable for Mammut {
    type Move = Action;
    type Extra = ();

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

    fn state_json(&self, seat: Seat) -> Value {
        json::state_json(self, seat)
    }

    crate::game::json_from!(json);
}

impl GameProtocol for Mammut {
    fn time_limit(_: &Params) -> (Duration, u32) {
        (PER_ACTION, 1)
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
}

impl Record for Mammut {
    const REPLAY_EXT: &'static str = "jsonl";
    type Recorder = trace::Trace;

    crate::record::replay_from!(trace);
}

impl GameSetup for Mammut {
    // Mammut has no options of its own.
    type PlayOptions = ();

    fn setup(_: &(), _bots: usize) -> Result<Setup<Self>> {
        Ok(Setup::new(Params, PLAYERS, ""))
    }
}

impl GameFormat for Mammut {
    const MIN_ENTRANTS: usize = PLAYERS;
    type TournamentOptions = ();

    fn fixture_setup(_: &(), _: &Fixture) -> Result<Setup<Self>> {
        Ok(Setup::new(Params, PLAYERS, ""))
    }

    fn format(_: &(), field: &Field) -> Result<(String, Box<dyn Format>)> {
        tournament::design(field.bots).map_err(|e| Error::Field { why: e.to_string() })?;
        Ok((Self::NAME.into(), Box::new(tournament::FiveTables)))
    }

    fn format_of(name: &str) -> Option<Box<dyn Format>> {
        (name == Self::NAME).then(|| Box::new(tournament::FiveTables) as Box<dyn Format>)
    }
}
