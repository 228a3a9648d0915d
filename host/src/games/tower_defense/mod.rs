//! Tower Defense (Duel and Siege) on the desktop: the controller's bot API as JSON lines, the
//! controller's golden trace, and the tournaments the challenge announced.

pub mod json;
pub mod trace;
pub mod tournament;

use crate::cli::MatchArgs;
use crate::game::{core_move, HostGame, Plan, Stepped};
use crate::process::Lines;
use crate::protocol::{JsonLines, Protocol};
use crate::replay::{Head, ReplayContext, Visit};
use crate::seats::BotSpec;
use crate::tournament::{Fixture, Format, Timing};
use crate::verify::{Difference, Verified};
use arena_core::games::tower_defense::{Action, Params, TowerDefense, Variant};
use arena_core::{Game, Seat, SeatSet};
use clap::{Args, ValueEnum};
use serde_json::Value;
use std::io::BufRead;
use std::time::Duration;

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
    const ABOUT: &'static str = "Tower Defense (Duel: two players; Siege: invader against defender).";
    const REPLAY_ABOUT: &'static str = "A Tower Defense trace (JSON lines: header, turn-0 state, one line per turn).";
    const REPLAY_EXT: &'static str = "jsonl";
    type PlayOptions = PlayOptions;
    type TournamentOptions = TournamentOptions;
    type Move = Action;
    type Extra = ();
    type Recorder = trace::Trace;

    fn plan(args: &PlayOptions, common: &MatchArgs) -> anyhow::Result<Plan<Self>> {
        let variant = args.variant.variant();
        let bots = common.specs::<Self>(2)?;
        let limits = common.limits(per_turn(variant), 100);
        let mut plan = common.plan(
            Params { variant },
            common.seed(),
            variant.name().into(),
            bots,
            limits,
        );
        plan.record_every = args.state_every;
        Ok(plan)
    }

    fn fixture(
        args: &TournamentOptions,
        _fixture: &Fixture,
        seed: u64,
        bots: Vec<BotSpec>,
        timing: &Timing,
    ) -> anyhow::Result<Plan<Self>> {
        let variant = args.variant.variant();
        Ok(Plan::new(
            Params { variant },
            seed,
            variant.name().into(),
            bots,
            timing.limits(per_turn(variant), 100),
        ))
    }

    fn bot_move(bot: &mut Self::Bot, game: &Self, seat: Seat) -> Action {
        core_move(bot, game, seat)
    }

    fn play_step(&mut self, moves: &[Action], _dropped: SeatSet) -> Stepped {
        self.step(moves).into()
    }

    fn protocol(conn: Box<dyn Lines>, plan: &Plan<Self>, _seat: Seat) -> Box<dyn Protocol<Self>> {
        Box::new(JsonLines::new(conn, plan.limits))
    }

    fn recorder(plan: &Plan<Self>) -> trace::Trace {
        trace::Trace::new(plan)
    }

    fn state_json(&self, _seat: Seat) -> Value {
        json::state_json(self)
    }

    fn action_json(action: &Action) -> Value {
        json::action_json(action)
    }

    fn action_from_json(value: &Value) -> Action {
        json::action_from_json(value)
    }

    fn detect(head: &Head) -> bool {
        head.get("header")
            .and_then(|h| h.get("game"))
            .and_then(Value::as_str)
            == Some(Self::NAME)
    }

    fn replay(
        input: &mut dyn BufRead,
        _ctx: &ReplayContext,
        each: &mut dyn Visit<Self>,
    ) -> Result<Verified, Difference> {
        trace::replay(input, each)
    }

    fn tournament(
        args: &TournamentOptions,
        _entrants: usize,
        _games: usize,
        _seed: u64,
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
