//! The match loop on the desktop: built-in and external bots at one table, faults counted, every
//! turn handed to an observer (the replay writer, the live view) as it happens.

use crate::process::{BotProcess, Fault, Limits};
use arena_core::{
    rng::splitmix64, Bot, Game, Outcome, Roster, Seat, SeatSet, StepReport, MAX_SEATS,
};
use std::path::PathBuf;

/// How a game talks to an external bot. Each game's protocol implements this (JSON lines for most;
/// the original text protocols for Ants and Ballroom Blitz).
pub trait Protocol<G: Game> {
    /// The action for `seat` now, or the fault that lost it.
    fn act(&mut self, game: &G, seat: Seat) -> Result<G::Action, Fault>;
    /// The action played for a seat whose answer was lost to `fault` (default: a pass).
    fn fault_action(&mut self, _game: &G, _seat: Seat, _fault: &Fault) -> G::Action {
        G::Action::default()
    }
    /// The game is over: say goodbye if the protocol has a way to.
    fn finish(&mut self, _game: &G, _seat: Seat) {}
    /// Faults after which the bot is disqualified.
    fn max_faults(&self) -> u32 {
        Limits::default().max_faults
    }
    /// Ends the connection: kills and reaps the process behind it.
    fn close(&mut self) {}
}

/// The protocol of the games whose bots speak JSON lines: one request line per turn, one action line
/// back (`null` to pass).
pub trait JsonGame: Game {
    /// The request for `seat` (e.g. `{"turn":T,"seat":I,"state":STATE}`).
    fn request(&self, seat: Seat) -> serde_json::Value;
    /// Reads an action. Well-formed JSON should always give an action (the engine refuses what the
    /// rules do not allow); `Err` is for what the protocol cannot read at all.
    fn parse_action(value: &serde_json::Value) -> Result<Self::Action, String>;
}

/// An external bot that speaks JSON lines.
pub struct JsonLines {
    pub process: BotProcess,
}

impl<G: JsonGame> Protocol<G> for JsonLines {
    fn act(&mut self, game: &G, seat: Seat) -> Result<G::Action, Fault> {
        let line = self.process.request(&game.request(seat).to_string())?;
        let value: serde_json::Value =
            serde_json::from_str(line.trim()).map_err(|e| Fault::Garbage {
                why: format!("{e}: {}", preview(&line)),
            })?;
        G::parse_action(&value).map_err(|why| Fault::Garbage { why })
    }

    fn max_faults(&self) -> u32 {
        self.process.limits().max_faults
    }

    fn close(&mut self) {
        self.process.kill();
    }
}

/// The first characters of a line, for a report.
pub fn preview(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if s.len() < line.len() {
        s.push_str("...");
    }
    s
}

/// A bot named on the command line: a built-in name, or `cmd:<command line>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    Builtin(String),
    Command(String),
}

impl BotSpec {
    /// Reads a `--bot` argument for game `G`, checking built-in names.
    pub fn parse<G: Roster>(text: &str) -> Result<BotSpec, String> {
        if let Some(cmd) = text.strip_prefix("cmd:") {
            if cmd.trim().is_empty() {
                return Err("`cmd:` needs a command line after it".into());
            }
            return Ok(BotSpec::Command(cmd.to_string()));
        }
        if G::BOTS.contains(&text) {
            Ok(BotSpec::Builtin(text.to_string()))
        } else {
            Err(format!(
                "unknown bot `{text}` for {}: built-in bots are {}; an external bot is `cmd:<command line>`",
                G::NAME,
                G::BOTS.join(", ")
            ))
        }
    }

    /// The name a report shows.
    pub fn label(&self) -> String {
        match self {
            BotSpec::Builtin(n) => n.clone(),
            BotSpec::Command(c) => format!("cmd:{c}"),
        }
    }
}

/// The seed of the built-in bot at `seat` in a match seeded `seed`: isolated per seat.
pub fn bot_seed(seed: u64, seat: Seat) -> u64 {
    let mut s = seed ^ (seat as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    splitmix64(&mut s)
}

/// Who plays a seat.
pub enum Driver<G: Roster> {
    Builtin(G::Bot),
    External(Box<dyn Protocol<G>>),
}

/// A seat at the table, with what happened to it.
pub struct Player<G: Roster> {
    pub name: String,
    pub driver: Driver<G>,
    pub faults: Vec<(u32, Fault)>,
    pub disqualified: Option<u32>,
    pub refused: u32,
}

impl<G: Roster> Player<G> {
    pub fn builtin(name: &str, seed: u64) -> Option<Self> {
        G::bot(name, seed).map(|bot| Player::new(name.to_string(), Driver::Builtin(bot)))
    }

    pub fn new(name: String, driver: Driver<G>) -> Self {
        Player {
            name,
            driver,
            faults: Vec::new(),
            disqualified: None,
            refused: 0,
        }
    }
}

/// Options for the external bots of a match.
#[derive(Clone, Debug, Default)]
pub struct ExternalOptions {
    pub limits: Limits,
    /// Folder for the bots' stderr logs (`<seat>-<name>.stderr`); `None` discards stderr.
    pub log_dir: Option<PathBuf>,
}

/// Builds the players from `--bot` specs, with a constructor for the game's external protocol.
pub fn players<G: Roster>(
    specs: &[BotSpec],
    seed: u64,
    options: &ExternalOptions,
    external: impl Fn(BotProcess) -> Box<dyn Protocol<G>>,
) -> Result<Vec<Player<G>>, String> {
    let mut out = Vec::new();
    for (seat, spec) in specs.iter().enumerate() {
        match spec {
            BotSpec::Builtin(name) => out.push(
                Player::builtin(name, bot_seed(seed, seat))
                    .ok_or_else(|| format!("unknown bot `{name}`"))?,
            ),
            BotSpec::Command(cmd) => {
                let log = options
                    .log_dir
                    .as_ref()
                    .map(|d| d.join(format!("{seat}.stderr")));
                if let Some(dir) = &options.log_dir {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                }
                let process = BotProcess::spawn(cmd, log.as_deref(), options.limits)
                    .map_err(|e| format!("cannot start `{cmd}`: {e}"))?;
                out.push(Player::new(
                    spec.label(),
                    Driver::External(external(process)),
                ));
            }
        }
    }
    Ok(out)
}

/// What a match came to.
#[derive(Clone, Debug)]
pub struct MatchReport {
    pub game: &'static str,
    pub seed: u64,
    pub turns: u32,
    pub outcome: Option<Outcome>,
    pub seats: Vec<SeatReport>,
}

#[derive(Clone, Debug)]
pub struct SeatReport {
    pub name: String,
    pub faults: Vec<(u32, Fault)>,
    pub disqualified: Option<u32>,
    pub refused: u32,
}

/// One step as the observer of a match sees it.
pub struct Step<'a, G: Game> {
    /// `turn()` before the step.
    pub turn: u32,
    /// Who was to move.
    pub movers: SeatSet,
    /// One action per seat (passes for seats that were not to move).
    pub actions: &'a [G::Action],
    pub report: &'a StepReport,
}

/// Plays `game` to its end (or `max_steps`), one `step` per turn, calling `observe` after every step
/// with the state after it and what the step was.
pub fn run<G: Roster>(
    mut game: G,
    seed: u64,
    players: &mut [Player<G>],
    max_steps: Option<u64>,
    mut observe: impl FnMut(&G, &Step<'_, G>),
) -> (G, MatchReport) {
    let mut steps = 0u64;
    while !game.is_over() && max_steps.is_none_or(|m| steps < m) {
        let movers = game.to_move();
        let mut actions: Vec<G::Action> = Vec::with_capacity(game.seats());
        for seat in 0..game.seats().min(MAX_SEATS) {
            let mut action = G::Action::default();
            if let Some(p) = players.get_mut(seat) {
                if movers.contains(seat) && p.disqualified.is_none() {
                    let turn = game.turn();
                    match &mut p.driver {
                        Driver::Builtin(bot) => action = bot.act(&game, seat),
                        Driver::External(proto) => match proto.act(&game, seat) {
                            Ok(a) => action = a,
                            Err(fault) => {
                                action = proto.fault_action(&game, seat, &fault);
                                let fatal =
                                    matches!(fault, Fault::Exited { .. } | Fault::Spawn { .. });
                                let limit = proto.max_faults();
                                p.faults.push((turn, fault));
                                if fatal || p.faults.len() as u32 >= limit {
                                    p.disqualified = Some(turn);
                                    proto.close();
                                }
                            }
                        },
                    }
                }
            }
            actions.push(action);
        }
        let turn = game.turn();
        let report = game.step(&actions);
        for (seat, p) in players.iter_mut().enumerate() {
            p.refused += report.refused.get(seat).copied().unwrap_or(0) as u32;
        }
        observe(
            &game,
            &Step {
                turn,
                movers,
                actions: &actions,
                report: &report,
            },
        );
        steps += 1;
    }
    for (seat, p) in players.iter_mut().enumerate() {
        if let Driver::External(proto) = &mut p.driver {
            if p.disqualified.is_none() {
                proto.finish(&game, seat);
            }
            proto.close();
        }
    }
    let report = MatchReport {
        game: G::NAME,
        seed,
        turns: game.turn(),
        outcome: game.outcome(),
        seats: players
            .iter()
            .map(|p| SeatReport {
                name: p.name.clone(),
                faults: p.faults.clone(),
                disqualified: p.disqualified,
                refused: p.refused,
            })
            .collect(),
    };
    (game, report)
}

impl std::fmt::Display for MatchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "game:   {}", self.game)?;
        writeln!(f, "seed:   {}", self.seed)?;
        writeln!(f, "turns:  {}", self.turns)?;
        match &self.outcome {
            Some(o) => {
                match o.winner() {
                    Some(w) => writeln!(
                        f,
                        "result: seat {w} ({}) wins",
                        self.seats.get(w).map(|s| s.name.as_str()).unwrap_or("?")
                    )?,
                    None => writeln!(f, "result: draw")?,
                }
                writeln!(f, "reason: {}", o.reason)?;
            }
            None => writeln!(f, "result: not finished (step limit)")?,
        }
        for (seat, s) in self.seats.iter().enumerate() {
            let (rank, score) = match &self.outcome {
                Some(o) => (
                    format!("rank {}", o.rank.get(seat).map(|r| r + 1).unwrap_or(0)),
                    format!("score {}", o.score.get(seat).copied().unwrap_or(0)),
                ),
                None => (String::new(), String::new()),
            };
            write!(
                f,
                "seat {seat}: {:<24} {rank:<7} {score:<14} refused actions {}",
                s.name, s.refused
            )?;
            if !s.faults.is_empty() {
                write!(f, ", faults {}", s.faults.len())?;
            }
            if let Some(t) = s.disqualified {
                write!(f, ", disqualified at turn {t}")?;
            }
            writeln!(f)?;
            for (turn, fault) in s.faults.iter().take(5) {
                writeln!(f, "        turn {turn}: {fault}")?;
            }
            if s.faults.len() > 5 {
                writeln!(f, "        ... and {} more", s.faults.len() - 5)?;
            }
        }
        Ok(())
    }
}
