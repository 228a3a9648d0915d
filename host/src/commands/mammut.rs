//! `arena play mammut` and `arena verify mammut`.

use super::record::{run_recorded, Recorder, Watch};
use super::tournament::Contest;
use super::{finish_play, specs, LineWriter, MatchArgs, Timing};
use crate::games::mammut as codec;
use crate::play::{self, JsonGame, JsonLines, Protocol, Step};
use crate::process::BotProcess;
use arena_core::games::mammut::{Action, Mammut, Params};
use arena_core::{Game, Seat};
use clap::Args;
use std::time::Duration;

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub common: MatchArgs,
}

impl JsonGame for Mammut {
    fn request(&self, seat: Seat) -> serde_json::Value {
        serde_json::json!({"turn": self.turn(), "seat": seat, "state": codec::state_json(self, seat)})
    }

    fn parse_action(value: &serde_json::Value) -> Result<Action, String> {
        Ok(codec::action_from_json(value))
    }
}

/// The JSON-lines trace: a header with the seed and the first state, then one line per action.
pub struct Trace;

impl Recorder<Mammut> for Trace {
    fn begin(&mut self, game: &Mammut, names: &[String], seed: u64, out: &mut LineWriter) {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        out.text(&codec::trace_header(game, seed, &names));
    }

    fn step(&mut self, g: &Mammut, step: &Step<'_, Mammut>, out: &mut LineWriter) {
        for seat in step.movers.iter() {
            let action = step.actions.get(seat).copied().unwrap_or_default();
            let refused = step.report.refused.get(seat).copied().unwrap_or(0) > 0;
            out.text(&codec::trace_line(step.turn, seat, &action, refused, g));
        }
    }
}

fn external(p: BotProcess) -> Box<dyn Protocol<Mammut>> {
    Box::new(JsonLines { process: p })
}

/// 5 s per action, each on its own. A fault plays an illegal action: the rules give one more chance,
/// then the seat sits out the round.
const PER_ACTION: Duration = Duration::from_secs(5);

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let game =
        Mammut::new(&Params, seed).map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let specs = specs::<Mammut>(&args.common.bots, game.seats())?;
    let options = args.common.external(PER_ACTION, 1);
    let mut players =
        play::players::<Mammut>(&specs, seed, &options, external).map_err(anyhow::Error::msg)?;
    let replay = args.common.replay.as_ref();
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let mut watcher = args.common.watcher::<Mammut>(Mammut::NAME, seed, &names);
    let watch = watcher.as_mut().map(|w| w as &mut dyn Watch<Mammut>);
    let (report, error) = run_recorded(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        Trace,
        replay,
        watch,
    )?;
    finish_play(&report, args.common.json, replay, error);
    Ok(())
}

/// Mammut in a tournament.
pub fn contest(timing: Timing) -> Contest<Mammut> {
    Contest {
        name: "mammut".into(),
        params: Box::new(|_| Params),
        options: timing.options(PER_ACTION, 1, None),
        protocol: external,
        recorder: Box::new(|| Box::new(Trace)),
        ext: "jsonl",
    }
}

pub fn verify(text: &str) -> Result<String, String> {
    codec::verify_trace(text)
        .map(|r| {
            format!(
                "ok: {} steps re-played, every recorded state matches",
                r.steps
            )
        })
        .map_err(|m| m.to_string())
}
