//! `arena play tower-defense` and `arena verify tower-defense`.

use super::{print_report, specs, LineWriter, MatchArgs};
use crate::games::tower_defense as codec;
use crate::play::{self, BotSpec, JsonGame, JsonLines, Protocol};
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

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let variant = match args.variant {
        VariantArg::Duel => Variant::Duel,
        VariantArg::Siege => Variant::Siege,
    };
    let game = TowerDefense::new(&Params { variant }, seed)
        .map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let specs = specs::<TowerDefense>(&args.common.bots, game.seats())?;
    // The original limits: 10 ms (Duel) or 15 ms (Siege) per turn on average over 100 turns.
    let per_turn = Duration::from_millis(if variant == Variant::Siege { 15 } else { 10 });
    let options = args.common.external(per_turn, 100);
    let mut players = play::players::<TowerDefense>(&specs, seed, &options, |p| {
        Box::new(JsonLines { process: p }) as Box<dyn Protocol<TowerDefense>>
    })
    .map_err(anyhow::Error::msg)?;

    let names: Vec<String> = specs.iter().map(BotSpec::label).collect();
    let mut replay = LineWriter::create(args.common.replay.as_ref())?;
    replay.line(&codec::trace_header(variant, &names, seed));
    replay.line(&codec::trace_line(None, &game));
    let every = args.state_every.max(1);
    let (_game, report) = play::run(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        |g, step| {
            let actions = step.actions;
            let pair = [
                actions.first().cloned().unwrap_or_default(),
                actions.get(1).cloned().unwrap_or_default(),
            ];
            let mut line = codec::trace_line(Some(&pair), g);
            if g.turn() % every != 0 && !g.is_over() {
                if let Some(obj) = line.as_object_mut() {
                    obj.retain(|k, _| k == "actions" || k == "turn");
                }
            }
            replay.line(&line);
        },
    );
    print_report(&report, args.common.json);
    if let Some(path) = &replay.path {
        match &replay.error {
            Some(e) => eprintln!("replay {}: write failed: {e}", path.display()),
            None => eprintln!("replay written to {}", path.display()),
        }
    }
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
pub struct Contest {
    pub variant: Variant,
    pub options: crate::play::ExternalOptions,
}

impl crate::tournament::Contest for Contest {
    fn name(&self) -> String {
        match self.variant {
            Variant::Duel => "tower-defense".into(),
            Variant::Siege => "tower-defense/siege".into(),
        }
    }

    fn seats(&self) -> usize {
        2
    }

    fn replay_ext(&self) -> &'static str {
        "jsonl"
    }

    fn play(
        &self,
        fixture: &crate::tournament::Fixture,
        bots: &[String],
        seed: u64,
        replay: Option<std::path::PathBuf>,
    ) -> anyhow::Result<crate::tournament::MatchResult> {
        let specs: Vec<BotSpec> = fixture
            .seats
            .iter()
            .map(|&b| {
                let name = bots.get(b).map(String::as_str).unwrap_or("random");
                BotSpec::parse::<TowerDefense>(name).map_err(anyhow::Error::msg)
            })
            .collect::<anyhow::Result<_>>()?;
        let game = TowerDefense::new(
            &Params {
                variant: self.variant,
            },
            seed,
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut players = play::players::<TowerDefense>(&specs, seed, &self.options, |p| {
            Box::new(JsonLines { process: p }) as Box<dyn Protocol<TowerDefense>>
        })
        .map_err(anyhow::Error::msg)?;
        let names: Vec<String> = specs.iter().map(BotSpec::label).collect();
        let mut writer = LineWriter::create(replay.as_ref())?;
        writer.line(&codec::trace_header(self.variant, &names, seed));
        writer.line(&codec::trace_line(None, &game));
        let recording = replay.is_some();
        let (_g, report) = play::run(game, seed, &mut players, None, |g, step| {
            let actions = step.actions;
            if recording {
                let pair = [
                    actions.first().cloned().unwrap_or_default(),
                    actions.get(1).cloned().unwrap_or_default(),
                ];
                writer.line(&codec::trace_line(Some(&pair), g));
            }
        });
        Ok(crate::tournament::result_of(fixture, seed, &report, replay))
    }
}
