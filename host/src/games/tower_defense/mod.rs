//! Tower Defense (Duel and Siege) on the desktop: the controller's bot API as JSON lines, the
//! controller's golden trace, and the tournaments the challenge announced.

pub mod json;
pub mod line;
pub mod tournament;
pub mod trace;

use crate::commands::tournament::TournamentArgs;
use crate::game::{HostGame, Setup};
use crate::replay::Head;
use crate::tournament::{Fixture, Format};
use arena_core::games::tower_defense::{Action, Params, TowerDefense, Variant};
use arena_core::{Game, Seat};
use clap::{Args, ValueEnum};
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// The symmetric game: two players, each defends a path and invades the other's.
    Duel,
    /// Defender against invader on one path (seat 0 invades, seat 1 defends).
    Siege,
}

impl VariantArg {
    fn variant(self) -> Variant {
        match self {
            VariantArg::Duel => Variant::Duel,
            VariantArg::Siege => Variant::Siege,
        }
    }
}

#[derive(Args, Clone, Debug)]
pub struct PlayOptions {
    #[arg(long, value_enum, default_value = "duel")]
    pub variant: VariantArg,
    /// Record the state in the replay every N turns (1 = every turn; long games make large files).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub state_every: u32,
}

#[derive(Args, Clone, Debug)]
pub struct TournamentOptions {
    /// Duel: round robin with seats swapped; Siege: every defender against every invader.
    #[arg(long, value_enum, default_value = "duel")]
    pub variant: VariantArg,
}

/// The original limits: 10 ms (Duel) or 15 ms (Siege) per turn on average over 100 turns.
fn per_turn(variant: Variant) -> Duration {
    Duration::from_millis(if variant == Variant::Siege { 15 } else { 10 })
}

const SIEGE: &str = "tower-defense/siege";

impl HostGame for TowerDefense {
    const BOT_NOTES: &'static [&'static str] = &[
        "strong: builds, upgrades and spawns by a look-ahead of the next turns; in Siege plays its seat (seat 0 invader, seat 1 defender)",
        "random: random actions, a fair share of them refused (off the path, unaffordable); any seat",
        "builder: the controller's simpleTurretBuilder (towers in a row, then upgrades); Siege: the defender, seat 1",
        "army: the controller's simpleInvaderArmy (three towers, then invaders with every boost in HP); Siege: the invader, seat 0",
    ];
    const ABOUT: &'static str =
        "Tower Defense (Duel: two players; Siege: invader against defender).";
    const REPLAY_ABOUT: &'static str =
        "A Tower Defense trace (JSON lines: header, turn-0 state, one line per turn).";
    const TIME_LIMIT: &'static str = "an average over each 100 turns: 10 ms a turn (Siege 15 ms)";
    const REPLAY_EXT: &'static str = "jsonl";
    type PlayOptions = PlayOptions;
    type TournamentOptions = TournamentOptions;
    type Move = Action;
    type Extra = ();
    type Recorder = trace::Trace;

    fn time_limit(params: &Params) -> (Duration, u32) {
        (per_turn(params.variant), 100)
    }

    fn setup(options: &PlayOptions, _bots: usize) -> anyhow::Result<Setup<Self>> {
        let variant = options.variant.variant();
        Ok(Setup {
            record_every: options.state_every,
            ..Setup::new(Params { variant }, 2, variant.name())
        })
    }

    fn fixture_setup(options: &TournamentOptions, _: &Fixture) -> anyhow::Result<Setup<Self>> {
        let variant = options.variant.variant();
        Ok(Setup::new(Params { variant }, 2, variant.name()))
    }

    fn variant_name(&self) -> Option<&'static str> {
        Some(self.variant().name())
    }

    fn play_step(
        &mut self,
        moves: &[Action],
        _dropped: arena_core::SeatSet,
    ) -> crate::game::Stepped {
        let variant = self.variant();
        let mut stepped = crate::game::Stepped::from(self.step(moves));
        for (seat, action) in moves.iter().enumerate() {
            if stepped.report.refused.get(seat).is_some_and(|&n| n > 0) {
                stepped.why.push((seat, refusal(variant, seat, action)));
            }
        }
        stepped
    }

    fn state_json(&self, _seat: Seat) -> Value {
        json::state_json(self)
    }

    crate::game::from_modules!(json, trace);

    /// The Siege invader's answer is read as the 04-23 controller read it (rules Decision 7).
    fn read_action(&self, seat: Seat, value: &Value) -> Action {
        json::seat_action(self.variant(), seat, value)
    }

    fn detect(head: &Head) -> bool {
        head.get("header")
            .and_then(|h| h.get("game"))
            .and_then(Value::as_str)
            == Some(Self::NAME)
    }

    fn tournament(
        args: &TournamentOptions,
        _common: &TournamentArgs,
    ) -> anyhow::Result<(String, Box<dyn Format>)> {
        Ok(match args.variant {
            VariantArg::Duel => (Self::NAME.into(), Box::new(tournament::RoundRobin)),
            VariantArg::Siege => (SIEGE.into(), Box::new(tournament::DefenderVsInvader)),
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
