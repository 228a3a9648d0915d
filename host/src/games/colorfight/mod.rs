//! ColorFight (Conquest and Skirmish) on the desktop: JSON lines to bots that are idle (or could
//! build), a trace of every tick, free-for-all tournaments, and the original server's HTTP API
//! (`arena serve colorfight`, [`serve`]).

pub mod json;
#[cfg(feature = "serve")]
pub mod serve;
pub mod tournament;
pub mod trace;

use crate::commands::tournament::TournamentArgs;
use crate::game::{HostGame, NoOptions, Setup, Stepped};
use crate::tournament::{Fixture, Format};
use arena_core::games::colorfight::{Action, ColorFight, Params, Refusal, Variant, DEFAULT_TICKS};
use arena_core::{Game, Seat};
use clap::{Args, ValueEnum};
use serde_json::Value;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// Practice round 2: mines, energy, bases, respawn during the first 5 minutes.
    Conquest,
    /// Practice round 1: attacks only.
    Skirmish,
}

impl VariantArg {
    pub(crate) fn variant(self) -> Variant {
        match self {
            VariantArg::Conquest => Variant::Conquest,
            VariantArg::Skirmish => Variant::Skirmish,
        }
    }
}

#[derive(Args, Clone, Debug)]
pub struct PlayOptions {
    #[arg(long, value_enum, default_value = "conquest")]
    pub variant: VariantArg,
    /// Grid size, WIDTHxHEIGHT (at most 32x32 cells in all).
    #[arg(long, value_name = "WxH", default_value = "30x30", value_parser = parse_size)]
    pub size: (u16, u16),
    /// Record the state in the replay every N ticks (and at the end); a 30x30 state is about 25 KB.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub state_every: u32,
    /// Game length in 100 ms ticks (12,000 = 20 minutes).
    #[arg(long, default_value_t = DEFAULT_TICKS)]
    pub ticks: u32,
}

pub(crate) fn parse_size(s: &str) -> Result<(u16, u16), String> {
    crate::cli::parse_pair(
        s,
        &['x', 'X'],
        ("WIDTHxHEIGHT", "30x30"),
        ["a width", "a height"],
    )
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

fn config(p: &Params) -> String {
    format!("{}-{}x{}", p.variant.name(), p.width, p.height)
}

impl HostGame for ColorFight {
    const BOT_NOTES: &'static [&'static str] = &[
        "strategist: mines first, then bases to survive, enemy bases when cheap, defends its bases",
        "expander: takes the quickest cell next to its land, then the next",
        "random: a legal action drawn at random, sometimes a base",
    ];
    const ABOUT: &'static str =
        "ColorFight (Conquest or Skirmish), 2 to 8 players on a grid, one step per 100 ms tick.";
    const REPLAY_ABOUT: &'static str =
        "A ColorFight trace (JSON lines: header, then one line per tick).";
    const TIME_LIMIT: &'static str = "100 ms an answer";
    const REPLAY_EXT: &'static str = "jsonl";
    #[cfg(feature = "serve")]
    const SERVER: Option<crate::game::Server> = Some(serve::SERVER);
    type PlayOptions = PlayOptions;
    /// Tournaments play Conquest on the default grid, one seat per entrant at the table.
    type TournamentOptions = NoOptions;
    type Move = Action;
    type Extra = ();
    type Recorder = trace::Trace;

    fn time_limit(_: &Params) -> (Duration, u32) {
        (PER_ANSWER, 1)
    }

    /// A tick is a step.
    fn length(params: &Params) -> Option<u64> {
        Some(params.ticks.into())
    }

    fn setup(options: &PlayOptions, bots: usize) -> anyhow::Result<Setup<Self>> {
        let seats = bots.max(2);
        let params = Params {
            variant: options.variant.variant(),
            width: options.size.0,
            height: options.size.1,
            players: seats.min(u8::MAX as usize) as u8,
            ticks: options.ticks,
            ..Params::default()
        };
        Ok(Setup {
            record_every: options.state_every,
            ..Setup::new(params, seats, config(&params))
        })
    }

    fn fixture_setup(_: &NoOptions, fixture: &Fixture) -> anyhow::Result<Setup<Self>> {
        let seats = fixture.seats.len();
        let params = Params {
            players: seats.min(u8::MAX as usize) as u8,
            ..Params::default()
        };
        Ok(Setup {
            record_every: TOURNAMENT_STATE_EVERY,
            ..Setup::new(params, seats, config(&params))
        })
    }

    /// Bots hear from the engine once per tick while they are idle (not waiting for an attack to
    /// finish), and while busy on the ticks where they could build a base (rules, decision 9);
    /// otherwise they pass without being asked.
    fn request(&self, seat: Seat) -> Option<String> {
        let asked = self
            .player(seat)
            .is_some_and(|p| !p.defeated && (p.busy_until <= self.turn() || self.may_build(seat)));
        asked.then(|| {
            format!(
                "{{\"tick\":{},\"seat\":{seat},\"variant\":\"{}\",\"state\":{}}}",
                self.turn(),
                self.variant().name(),
                json::state_json(self)
            )
        })
    }

    fn state_json(&self, _seat: Seat) -> Value {
        json::state_value(self)
    }

    fn play_step(&mut self, moves: &[Action], _dropped: arena_core::SeatSet) -> Stepped {
        let mut why = [None; arena_core::games::colorfight::MAX_PLAYERS];
        let report = self.step_explained(moves, &mut why);
        stepped(report, &why)
    }

    crate::game::from_modules!(json, trace);

    fn tournament(
        _args: &NoOptions,
        _common: &TournamentArgs,
    ) -> anyhow::Result<(String, Box<dyn Format>)> {
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
