//! `arena play colorfight` and `arena verify colorfight`.

use super::record::{run_recorded, Recorder, Watch};
use super::tournament::Contest;
use super::{finish_play, specs, LineWriter, MatchArgs, Timing};
use crate::games::colorfight as codec;
use crate::play::{self, JsonLines, Protocol, Step};
use crate::process::{BotProcess, Fault};
use arena_core::games::colorfight::{Action, ColorFight, Params, Variant};
use arena_core::{Game, Seat};
use clap::{Args, ValueEnum};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// Practice round 2: mines, energy, bases, respawn during the first 5 minutes.
    Conquest,
    /// Practice round 1: attacks only.
    Skirmish,
}

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    #[arg(long, value_enum, default_value = "conquest")]
    pub variant: VariantArg,
    /// Grid size, WIDTHxHEIGHT (at most 32x32 cells in all).
    #[arg(long, value_name = "WxH", default_value = "30x30", value_parser = parse_size)]
    pub size: (u16, u16),
    /// Record the state in the replay every N ticks (and at the end); a 30x30 state is about 25 KB.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub state_every: u32,
    /// Game length in 100 ms ticks (12,000 = 20 minutes).
    #[arg(long, default_value_t = arena_core::games::colorfight::DEFAULT_TICKS)]
    pub ticks: u32,
}

fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}`: expected WIDTHxHEIGHT, like 30x30"))?;
    let w: u16 = w
        .trim()
        .parse()
        .map_err(|_| format!("`{w}` is not a width"))?;
    let h: u16 = h
        .trim()
        .parse()
        .map_err(|_| format!("`{h}` is not a height"))?;
    Ok((w, h))
}

/// ColorFight bots hear from the engine once per tick while they are idle (not waiting for an
/// attack to finish); a busy bot passes without being asked.
pub struct Idle(pub JsonLines);

impl Protocol<ColorFight> for Idle {
    fn act(&mut self, game: &ColorFight, seat: Seat) -> Result<Action, Fault> {
        let busy = game
            .player(seat)
            .is_some_and(|p| p.defeated || p.busy_until > game.turn());
        if busy {
            return Ok(Action::Pass);
        }
        let request = format!(
            "{{\"tick\":{},\"seat\":{seat},\"state\":{}}}",
            game.turn(),
            codec::state_json(game)
        );
        let line = self.0.process.request(&request)?;
        let value: serde_json::Value =
            serde_json::from_str(line.trim()).map_err(|e| Fault::Garbage {
                why: format!("{e}: {}", play::preview(&line)),
            })?;
        Ok(codec::action_from_json(&value))
    }

    fn max_faults(&self) -> u32 {
        self.0.process.limits().max_faults
    }

    fn close(&mut self) {
        self.0.process.kill();
    }
}

pub fn params(args: &PlayArgs, seats: usize) -> Params {
    Params {
        variant: match args.variant {
            VariantArg::Conquest => Variant::Conquest,
            VariantArg::Skirmish => Variant::Skirmish,
        },
        width: args.size.0,
        height: args.size.1,
        players: seats as u8,
        ticks: args.ticks,
    }
}

/// The JSON-lines trace: a header, then one line per tick with the actions and refusals, and the
/// state every `every` ticks and at the end.
pub struct Trace {
    pub every: u32,
}

impl Recorder<ColorFight> for Trace {
    fn begin(&mut self, game: &ColorFight, _names: &[String], _seed: u64, out: &mut LineWriter) {
        out.text(&codec::trace_header(game));
    }

    fn step(&mut self, g: &ColorFight, step: &Step<'_, ColorFight>, out: &mut LineWriter) {
        let line = codec::trace_line(g, step.actions, step.report);
        if g.turn().is_multiple_of(self.every.max(1)) || g.is_over() {
            out.text(&line);
        } else if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&line) {
            if let Some(obj) = v.as_object_mut() {
                obj.remove("state");
            }
            out.text(&v.to_string());
        }
    }
}

fn external(p: BotProcess) -> Box<dyn Protocol<ColorFight>> {
    Box::new(Idle(JsonLines { process: p }))
}

/// 100 ms per answer, each answer on its own (no averaging).
const PER_ANSWER: Duration = Duration::from_millis(100);

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let seats = args.common.bots.len().max(2);
    let params = params(args, seats);
    let game = ColorFight::new(&params, seed)
        .map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let specs = specs::<ColorFight>(&args.common.bots, game.seats())?;
    let options = args.common.external(PER_ANSWER, 1);
    let mut players = play::players::<ColorFight>(&specs, seed, &options, external)
        .map_err(anyhow::Error::msg)?;
    let replay = args.common.replay.as_ref();
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let config = format!(
        "{}-{}x{}",
        params.variant.name(),
        params.width,
        params.height
    );
    let mut watcher = args.common.watcher::<ColorFight>(&config, seed, &names);
    let watch = watcher.as_mut().map(|w| w as &mut dyn Watch<ColorFight>);
    let (report, error) = run_recorded(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        Trace {
            every: args.state_every,
        },
        replay,
        watch,
    )?;
    finish_play(&report, args.common.json, replay, error);
    Ok(())
}

/// ColorFight in a tournament: Conquest on the default grid, one seat per entrant at the table.
pub fn contest(timing: Timing) -> Contest<ColorFight> {
    Contest {
        name: "colorfight".into(),
        params: Box::new(|seats| Params {
            players: seats as u8,
            ..Params::default()
        }),
        options: timing.options(PER_ANSWER, 1, None),
        protocol: external,
        recorder: Box::new(|| Box::new(Trace { every: 50 })),
        ext: "jsonl",
    }
}

pub fn verify(text: &str) -> Result<String, String> {
    codec::verify_trace(text)
        .map(|r| {
            format!(
                "ok: {} ticks re-played, every recorded state matches",
                r.steps
            )
        })
        .map_err(|m| m.to_string())
}
