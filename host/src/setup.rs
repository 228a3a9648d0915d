//! Setting a match up: what was asked for ([`MatchRequest`]: the bots, their names, the seed, the
//! limits), and what a game makes of it and of its own options ([`GameSetup`]). The command line
//! converts its flags into these; nothing here knows a flag.

use crate::error::{Error, Result};
use crate::game::{Plan, Playable, Setup, Timing};
use crate::process::Limits;
use crate::protocol::GameProtocol;
use crate::seats::BotSpec;
use std::path::PathBuf;

/// One match as asked for: the bots given (a built-in name or `cmd:<command line>` each, in seat
/// order), the names given them, the seed, the limits, logs and a step limit.
#[derive(Clone, Debug, Default)]
pub struct MatchRequest {
    /// The bots given, in seat order: a built-in bot's name or `cmd:<command line>` each.
    pub bots: Vec<String>,
    /// One per bot at most, in the same order.
    pub names: Vec<String>,
    /// The match's seed: `--seed`, or one from the clock.
    pub seed: u64,
    /// The time limits asked for (`--turn-ms`, `--no-timeout`).
    pub timing: Timing,
    /// Keep each external bot's stderr and input here.
    pub log_dir: Option<PathBuf>,
    /// Stop after this many turns even if the game is not over.
    pub max_turns: Option<u64>,
}

impl MatchRequest {
    /// The bots of a match of `seats` seats: the bots given, then the game's default bot.
    pub fn specs<G: Playable>(&self, seats: usize) -> Result<Vec<BotSpec>> {
        if self.bots.len() > seats {
            return Err(Error::TooManyBots {
                game: G::NAME,
                seats,
                given: self.bots.len(),
            });
        }
        check_names(&self.names, self.bots.len())?;
        let mut specs = self
            .bots
            .iter()
            .map(|b| BotSpec::parse::<G>(b))
            .collect::<Result<Vec<_>, _>>()?;
        specs.resize(seats, BotSpec::default_for::<G>());
        Ok(specs)
    }

    /// A match of `G` as asked, with the game's setup and bots.
    pub fn plan<G: Playable>(
        &self,
        setup: Setup<G>,
        seed: u64,
        bots: Vec<BotSpec>,
        limits: Limits,
    ) -> Plan<G> {
        let mut plan = Plan::new(setup, seed, bots, limits);
        plan.log_dir.clone_from(&self.log_dir);
        plan.max_turns = self.max_turns;
        for (name, given) in plan.names.iter_mut().zip(&self.names) {
            name.clone_from(given);
        }
        plan
    }
}

/// `caps` for sandboxed bots (already checked to hold on this machine, `crate::sandbox::check`),
/// fenced: the paths the command lines of the `cmd:` bots among `bots` name are checked against
/// `outputs` (what each output is, its path) and the other bots' folders. An error says which
/// path a command line names that no sandboxed bot may see.
pub fn fenced(
    caps: crate::sandbox::Caps,
    bots: &[String],
    outputs: &[(&str, Option<&std::path::Path>)],
) -> std::result::Result<crate::sandbox::Caps, String> {
    let commands: Vec<&str> = bots.iter().filter_map(|b| b.strip_prefix("cmd:")).collect();
    let fence = crate::sandbox::Fence::new(
        outputs.iter().filter_map(|&(what, p)| p.map(|p| (what, p))),
        commands.iter().copied(),
    );
    for command in &commands {
        fence
            .check(command)
            .map_err(|why| format!("cmd:{command}: {why}"))?;
    }
    Ok(caps.fenced(fence))
}

/// Names are one per bot: no more names than bots.
pub fn check_names(names: &[String], bots: usize) -> Result<()> {
    if names.len() > bots {
        return Err(Error::TooManyNames {
            names: names.len(),
            bots,
        });
    }
    Ok(())
}

/// Setting up the match `arena play` asks for, from the game's own options.
pub trait GameSetup: GameProtocol {
    /// The game's own options for a match (a variant, a size, a map); `()` for most.
    type PlayOptions: Send + Sync;
    /// The params of the match asked for, for `bots` bots given.
    fn setup(options: &Self::PlayOptions, bots: usize) -> Result<Setup<Self>>;
    /// The match asked for: [`GameSetup::setup`], the bots and the common request.
    fn plan(options: &Self::PlayOptions, request: &MatchRequest) -> Result<Plan<Self>> {
        plan_of(options, request)
    }
}

/// [`GameSetup::plan`]'s default: [`GameSetup::setup`], then the bots given (the game's default bot
/// for the seats left), the game's time limit and the common request.
pub fn plan_of<G: GameSetup>(options: &G::PlayOptions, request: &MatchRequest) -> Result<Plan<G>> {
    let setup = G::setup(options, request.bots.len())?;
    let bots = request.specs::<G>(setup.seats)?;
    let (per_turn, window) = G::time_limit(&setup.params);
    let limits = request.timing.limits(per_turn, window);
    Ok(request.plan(setup, request.seed, bots, limits))
}
