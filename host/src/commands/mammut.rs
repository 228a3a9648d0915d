//! `arena play mammut` and `arena verify mammut`.

use super::{print_report, specs, MatchArgs};
use crate::games::mammut as codec;
use crate::play::{self, BotSpec, JsonGame, JsonLines, Protocol};
use arena_core::games::mammut::{Action, Mammut, Params};
use arena_core::{Game, Seat};
use clap::Args;
use std::io::Write;
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

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let game =
        Mammut::new(&Params, seed).map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let specs = specs::<Mammut>(&args.common.bots, game.seats())?;
    // 5 s per action, each on its own. A fault is an illegal action: the rules give one more
    // chance, then the seat sits out the round.
    let options = args.common.external(Duration::from_secs(5), 1);
    let mut players = play::players::<Mammut>(&specs, seed, &options, |p| {
        Box::new(JsonLines { process: p }) as Box<dyn Protocol<Mammut>>
    })
    .map_err(anyhow::Error::msg)?;
    let names: Vec<String> = specs.iter().map(BotSpec::label).collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut replay = match &args.common.replay {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| anyhow::anyhow!("cannot write replay {}: {e}", p.display()),
        )?)),
        None => None,
    };
    let mut write_error = None;
    if let Some(out) = &mut replay {
        if let Err(e) = writeln!(out, "{}", codec::trace_header(&game, seed, &name_refs)) {
            write_error = Some(e);
        }
    }
    let (_game, report) = play::run(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        |g, step| {
            let Some(out) = &mut replay else { return };
            for seat in step.movers.iter() {
                let action = step.actions.get(seat).copied().unwrap_or_default();
                let refused = step.report.refused.get(seat).copied().unwrap_or(0) > 0;
                let line = codec::trace_line(step.turn, seat, &action, refused, g);
                if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
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
                "ok: {} steps re-played, every recorded state matches",
                r.steps
            )
        })
        .map_err(|m| m.to_string())
}
