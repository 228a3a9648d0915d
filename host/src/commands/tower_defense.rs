//! `arena play tower-defense` and `arena verify tower-defense`.

use super::record::{run_recorded, Recorder, Watch};
use super::tournament::Contest;
use super::{finish_play, specs, LineWriter, MatchArgs, Timing};
use crate::games::tower_defense as codec;
use crate::play::{self, JsonGame, JsonLines, Protocol, Step};
use crate::process::BotProcess;
use arena_core::games::tower_defense::{Action, Params, TowerDefense, Variant};
use arena_core::{Game, Seat};
use clap::{Args, ValueEnum};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// The symmetric game: two players, each defends a path and invades the other's.
    Duel,
    /// Defender against invader on one path (seat 0 invades, seat 1 defends).
    Siege,
}

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    #[arg(long, value_enum, default_value = "duel")]
    pub variant: VariantArg,
    /// Record the state in the replay every N turns (1 = every turn; long games make large files).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub state_every: u32,
}

impl JsonGame for TowerDefense {
    fn request(&self, seat: Seat) -> serde_json::Value {
        serde_json::json!({"turn": self.turn(), "seat": seat, "state": codec::state_json(self)})
    }

    fn parse_action(value: &serde_json::Value) -> Result<Action, String> {
        Ok(codec::action_from_json(value))
    }
}

/// Writes the golden trace format: header, turn-0 state, one line per turn (the state every
/// `every` turns and at the end).
pub struct Trace {
    pub variant: Variant,
    pub every: u32,
}

impl Recorder<TowerDefense> for Trace {
    fn begin(&mut self, game: &TowerDefense, names: &[String], seed: u64, out: &mut LineWriter) {
        out.line(&codec::trace_header(self.variant, names, seed));
        out.line(&codec::trace_line(None, game));
    }

    fn step(&mut self, g: &TowerDefense, step: &Step<'_, TowerDefense>, out: &mut LineWriter) {
        let pair = [
            step.actions.first().cloned().unwrap_or_default(),
            step.actions.get(1).cloned().unwrap_or_default(),
        ];
        let mut line = codec::trace_line(Some(&pair), g);
        if !g.turn().is_multiple_of(self.every.max(1)) && !g.is_over() {
            if let Some(obj) = line.as_object_mut() {
                obj.retain(|k, _| k == "actions" || k == "turn");
            }
        }
        out.line(&line);
    }
}

fn external(p: BotProcess) -> Box<dyn Protocol<TowerDefense>> {
    Box::new(JsonLines { process: p })
}

/// The original limits: 10 ms (Duel) or 15 ms (Siege) per turn on average over 100 turns.
fn per_turn(variant: Variant) -> Duration {
    Duration::from_millis(if variant == Variant::Siege { 15 } else { 10 })
}

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let variant = match args.variant {
        VariantArg::Duel => Variant::Duel,
        VariantArg::Siege => Variant::Siege,
    };
    let game = TowerDefense::new(&Params { variant }, seed)
        .map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let specs = specs::<TowerDefense>(&args.common.bots, game.seats())?;
    let options = args.common.external(per_turn(variant), 100);
    let mut players = play::players::<TowerDefense>(&specs, seed, &options, external)
        .map_err(anyhow::Error::msg)?;
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let mut watcher = args
        .common
        .watcher::<TowerDefense>(variant.name(), seed, &names);
    let trace = Trace {
        variant,
        every: args.state_every,
    };
    let (report, error) = run_recorded(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        trace,
        args.common.replay.as_ref(),
        watcher.as_mut().map(|w| w as &mut dyn Watch<TowerDefense>),
    )?;
    finish_play(
        &report,
        args.common.json,
        args.common.replay.as_ref(),
        error,
    );
    Ok(())
}

/// Verifies a trace; `Ok(summary)` when every recorded state matches.
pub fn verify(text: &str) -> Result<String, String> {
    codec::verify_trace(text)
        .map(|r| {
            format!(
                "ok: {} turns, {} recorded states match",
                r.turns, r.states_checked
            )
        })
        .map_err(|m| m.to_string())
}

/// Tower Defense in a tournament (Duel or Siege).
pub fn contest(variant: Variant, timing: Timing) -> Contest<TowerDefense> {
    Contest {
        name: match variant {
            Variant::Duel => "tower-defense".into(),
            Variant::Siege => "tower-defense/siege".into(),
        },
        params: Box::new(move |_| Params { variant }),
        options: timing.options(per_turn(variant), 100, None),
        protocol: external,
        recorder: Box::new(move || Box::new(Trace { variant, every: 1 })),
        ext: "jsonl",
    }
}
