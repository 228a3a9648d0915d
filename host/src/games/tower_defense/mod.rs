//! Tower Defense (Duel and Siege) on the desktop: the controller's bot API as JSON lines, the
//! controller's golden trace, and the tournaments the challenge announced.

pub mod json;
pub mod line;
pub mod tournament;
pub mod trace;

use crate::error::Result;
use crate::format::{Field, Fixture, Format, GameFormat};
use crate::game::{Playable, Setup};
use crate::protocol::GameProtocol;
use crate::record::Record;
use crate::replay::Head;
use crate::setup::GameSetup;
use arena_core::games::tower_defense::{Action, Params, TowerDefense, Variant};
use arena_core::{Game, Seat};
use serde_json::Value;
use std::time::Duration;

/// Why the rules refused `seat`'s `action`, by what it asked for: the rules answer yes or no,
/// and the report names what was asked and what can stand in its way.
fn refusal(variant: Variant, seat: Seat, action: &Action) -> &'static str {
    use arena_core::games::tower_defense::siege::INVADER_SEAT;
    let invades = matches!(action, Action::Spawn { .. });
    let other_side = variant == Variant::Siege && invades != (seat == INVADER_SEAT);
    match action {
        Action::Unknown => "unknown action",
        Action::Malformed(why) => why.reason(),
        Action::Pass => "pass refused",
        _ if other_side => "action of the other side (Siege)",
        Action::Spawn { .. } => "spawn refused (bad terms, too little gold, or the entrance taken)",
        Action::Build { .. } => {
            "build refused (bad type or position, too little gold, or a tower there)"
        }
        Action::Upgrade { .. } => {
            "upgrade refused (bad stat or position, too little gold, or no tower)"
        }
        Action::Destroy { .. } => "destroy refused (no tower there)",
    }
}

/// A match's own options.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The rules' variant.
    pub variant: Variant,
    /// Record the state in the replay every this many turns.
    pub state_every: u32,
}

/// A tournament's own options: Duel is a round robin with seats swapped, Siege every defender
/// against every invader.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// The variant every match plays: its format too.
    pub variant: Variant,
}

/// The original limits: 10 ms (Duel) or 15 ms (Siege) per turn on average over 100 turns.
fn per_turn(variant: Variant) -> Duration {
    Duration::from_millis(if variant == Variant::Siege { 15 } else { 10 })
}

const SIEGE: &str = "tower-defense/siege";

impl Playable for TowerDefense {
    type Move = Action;
    type Extra = ();

    fn play_step(
        &mut self,
        moves: &[Action],
        dropped: arena_core::SeatSet,
    ) -> crate::game::Stepped {
        let mut stepped = crate::game::Stepped::default();
        self.play_step_into(moves, dropped, &mut stepped);
        stepped
    }

    fn play_step_into(
        &mut self,
        moves: &[Action],
        dropped: arena_core::SeatSet,
        out: &mut crate::game::Stepped,
    ) {
        let variant = self.variant();
        self.play_report_into(moves, dropped, out);
        for (seat, action) in moves.iter().enumerate() {
            if out.report.refused.get(seat).is_some_and(|&n| n > 0) {
                out.why.push((seat, refusal(variant, seat, action)));
            }
        }
    }

    fn play_report_into(
        &mut self,
        moves: &[Action],
        _dropped: arena_core::SeatSet,
        out: &mut crate::game::Stepped,
    ) {
        out.report = self.step(moves);
        out.notes.clear();
        out.why.clear();
    }

    fn state_json(&self, _seat: Seat) -> Value {
        json::state_json(self)
    }

    crate::game::json_from!(json);
}

impl GameProtocol for TowerDefense {
    fn time_limit(params: &Params) -> (Duration, u32) {
        (per_turn(params.variant), 100)
    }

    fn variant_name(&self) -> Option<&'static str> {
        Some(self.variant().name())
    }

    /// The Siege invader's answer is read as the 04-23 controller read it (rules Decision 7).
    fn read_action(&self, seat: Seat, value: &Value) -> Action {
        json::seat_action(self.variant(), seat, value)
    }
}

impl Record for TowerDefense {
    const REPLAY_EXT: &'static str = "jsonl";
    type Recorder = trace::Trace;

    crate::record::replay_from!(trace);

    fn detect(head: &Head) -> bool {
        head.get("header")
            .and_then(|h| h.get("game"))
            .and_then(Value::as_str)
            == Some(Self::NAME)
    }
}

impl GameSetup for TowerDefense {
    type PlayOptions = PlayOptions;

    fn setup(options: &PlayOptions, _bots: usize) -> Result<Setup<Self>> {
        let variant = options.variant;
        Ok(Setup {
            record_every: options.state_every,
            ..Setup::new(Params { variant }, 2, variant.name())
        })
    }
}

impl GameFormat for TowerDefense {
    type TournamentOptions = TournamentOptions;

    fn fixture_setup(options: &TournamentOptions, _: &Fixture) -> Result<Setup<Self>> {
        let variant = options.variant;
        Ok(Setup::new(Params { variant }, 2, variant.name()))
    }

    fn format(options: &TournamentOptions, _field: &Field) -> Result<(String, Box<dyn Format>)> {
        Ok(match options.variant {
            Variant::Duel => (Self::NAME.into(), Box::new(tournament::RoundRobin)),
            Variant::Siege => (SIEGE.into(), Box::new(tournament::DefenderVsInvader)),
        })
    }

    fn format_of(name: &str) -> Option<Box<dyn Format>> {
        match name {
            n if n == Self::NAME => Some(Box::new(tournament::RoundRobin)),
            SIEGE => Some(Box::new(tournament::DefenderVsInvader)),
            _ => None,
        }
    }
}
