//! ColorFight (Conquest and Skirmish) on the desktop: JSON lines to bots that are idle (or could
//! build), a trace of every tick, free-for-all tournaments, and the original server's HTTP API
//! (`arena serve colorfight`, [`serve`]).

pub mod json;
pub mod request;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tournament;
pub mod trace;

use crate::error::Result;
use crate::format::{Field, Fixture, Format, GameFormat};
use crate::game::{Playable, Setup, Stepped};
use crate::protocol::GameProtocol;
use crate::record::Record;
use crate::setup::GameSetup;
use arena_core::games::colorfight::{Action, ColorFight, Params, Refusal, Variant};
use arena_core::{Game, Seat};
use serde_json::Value;
use std::time::Duration;

/// A match's own options.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The rules' variant.
    pub variant: Variant,
    /// The grid: width and height.
    pub size: (u16, u16),
    /// Record the state in the replay every this many ticks (and at the end).
    pub state_every: u32,
    /// Game length in 100 ms ticks.
    pub ticks: u32,
}

/// A step's report with the reason of each refusal, for the reports of `arena play` and
/// `arena serve` alike.
pub(crate) fn stepped(report: arena_core::StepReport, why: &[Option<Refusal>]) -> Stepped {
    let mut stepped = Stepped::from(report);
    stepped.why = (why.iter().enumerate())
        .filter_map(|(seat, w)| w.map(|r| (seat, r.reason())))
        .collect();
    stepped
}

/// 100 ms per answer, each answer on its own (no averaging).
const PER_ANSWER: Duration = Duration::from_millis(100);
/// The state every this many ticks in a tournament's replays.
const TOURNAMENT_STATE_EVERY: u32 = 50;

impl Playable for ColorFight {
    type Move = Action;
    type Extra = ();

    /// A tick is a step.
    fn length(params: &Params) -> Option<u64> {
        Some(params.ticks.into())
    }

    fn state_json(&self, _seat: Seat) -> Value {
        json::state_value(self)
    }

    fn play_step(&mut self, moves: &[Action], _dropped: arena_core::SeatSet) -> Stepped {
        let mut why = [None; arena_core::games::colorfight::MAX_PLAYERS];
        let report = self.step_explained(moves, &mut why);
        stepped(report, &why)
    }

    crate::game::json_from!(json);
}

impl GameProtocol for ColorFight {
    fn time_limit(_: &Params) -> (Duration, u32) {
        (PER_ANSWER, 1)
    }

    /// Bots hear from the engine once per tick while they are idle (not waiting for an attack to
    /// finish), and while busy on the ticks where they could build a base (rules, decision 9);
    /// otherwise they pass without being asked. Beside the canonical state, `"extra"`
    /// ([`json::extra_json`]) carries what the rules read that the state leaves out.
    fn request(&self, seat: Seat) -> Option<String> {
        let asked = self
            .player(seat)
            .is_some_and(|p| !p.defeated && (p.busy_until <= self.turn() || self.may_build(seat)));
        asked.then(|| {
            format!(
                "{{\"tick\":{},\"seat\":{seat},\"variant\":\"{}\",\"state\":{},\"extra\":{}}}",
                self.turn(),
                self.variant().name(),
                json::state_json(self),
                json::extra_json(self)
            )
        })
    }
}

impl Record for ColorFight {
    const REPLAY_EXT: &'static str = "jsonl";
    type Recorder = trace::Trace;

    crate::record::replay_from!(trace);
}

impl GameSetup for ColorFight {
    type PlayOptions = PlayOptions;

    fn setup(options: &PlayOptions, bots: usize) -> Result<Setup<Self>> {
        let seats = bots.max(2);
        let params = Params {
            variant: options.variant,
            width: options.size.0,
            height: options.size.1,
            players: seats.min(u8::MAX as usize) as u8,
            ticks: options.ticks,
            ..Params::default()
        };
        Ok(Setup {
            record_every: options.state_every,
            ..Setup::new(params, seats, trace::config(&params))
        })
    }
}

impl GameFormat for ColorFight {
    /// Tournaments play Conquest on the default grid, one seat per entrant at the table.
    type TournamentOptions = ();

    fn fixture_setup(_: &(), fixture: &Fixture) -> Result<Setup<Self>> {
        let seats = fixture.seats.len();
        let params = Params {
            players: seats.min(u8::MAX as usize) as u8,
            ..Params::default()
        };
        Ok(Setup {
            record_every: TOURNAMENT_STATE_EVERY,
            ..Setup::new(params, seats, trace::config(&params))
        })
    }

    fn format(_: &(), _field: &Field) -> Result<(String, Box<dyn Format>)> {
        Ok((
            Self::NAME.into(),
            Box::new(tournament::FreeForAll {
                max_seats: arena_core::games::colorfight::MAX_PLAYERS,
            }),
        ))
    }

    fn format_of(name: &str) -> Option<Box<dyn Format>> {
        (name == Self::NAME).then(|| {
            Box::new(tournament::FreeForAll {
                max_seats: arena_core::games::colorfight::MAX_PLAYERS,
            }) as Box<dyn Format>
        })
    }
}
