//! `arena play colorfight` and `arena verify colorfight`.

use super::{print_report, MatchArgs};
use crate::games::colorfight as codec;
use crate::play::{self, JsonLines, Protocol};
use crate::process::Fault;
use arena_core::games::colorfight::{Action, ColorFight, Params, Variant};
use arena_core::{Game, Seat};
use clap::{Args, ValueEnum};
use std::io::Write;
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

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let seats = args.common.bots.len().max(2);
    let game = ColorFight::new(&params(args, seats), seed)
        .map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let specs = super::specs::<ColorFight>(&args.common.bots, game.seats())?;
    // 100 ms per answer, each answer on its own (no averaging).
    let options = args.common.external(Duration::from_millis(100), 1);
    let mut players = play::players::<ColorFight>(&specs, seed, &options, |p| {
        Box::new(Idle(JsonLines { process: p })) as Box<dyn Protocol<ColorFight>>
    })
    .map_err(anyhow::Error::msg)?;
    let mut replay = match &args.common.replay {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| anyhow::anyhow!("cannot write replay {}: {e}", p.display()),
        )?)),
        None => None,
    };
    let mut write_error = None;
    if let Some(out) = &mut replay {
        if let Err(e) = writeln!(out, "{}", codec::trace_header(&game)) {
            write_error = Some(e);
        }
    }
    let (_game, report) = play::run(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        |g, step| {
            if let Some(out) = &mut replay {
                if let Err(e) = writeln!(out, "{}", codec::trace_line(g, step.actions, step.report))
                    .and_then(|_| out.flush())
                {
                    write_error.get_or_insert(e);
                }
            }
        },
    );
    print_report(&report, args.common.json);
    if let Some(path) = &args.common.replay {
        match write_error {
            Some(e) => eprintln!("replay {}: write failed: {e}", path.display()),
            None => eprintln!("replay written to {}", path.display()),
        }
    }
    Ok(())
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
