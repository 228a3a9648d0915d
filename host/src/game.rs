//! [`Playable`]: a game as the desktop plays it, answered once per game in its folder
//! (`games/<game>/`). The first of a game's contracts, the match itself; the others build on it,
//! side by side, one trait a module: speaking to bots ([`crate::protocol::GameProtocol`]),
//! writing and reading a match ([`crate::record::Record`]), setting a match up from the game's
//! options ([`crate::setup::GameSetup`]) and the tournament format
//! ([`crate::format::GameFormat`]). A match plays with the first two
//! ([`crate::play::play`]); [`crate::HostGame`] is all four. None of them knows the command line,
//! the browser viewer (`arena_viewer::Viewed`) or Python: those are impls of their own that need
//! these, never the reverse.

use crate::process::{Fault, Limits};
use crate::seats::BotSpec;
use arena_core::{Roster, Seat, SeatSet, StepReport};
use arena_firmware::Screen;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// A game as the desktop plays it: the steps of a match and the canonical JSON.
///
/// The rules are the core's ([`arena_core::Game`], [`Roster`]) and the pictures the firmware's
/// ([`Screen`]); this adds what a desktop match moves and the canonical JSON of `rules/<game>.md`.
pub trait Playable: Roster + Screen + Sized + 'static {
    /// What one seat plays in one step on the desktop: the core's action for most games; for
    /// games whose answers can be longer than a board's capacity, the whole answer.
    type Move: Clone + Default + Send + From<Self::Action> + Into<Self::Action>;
    /// The game's own facts about a match (a signed seed, a map's name); `()` for most.
    type Extra: Clone + Default + Send + Sync;

    /// The most steps a match of `params` takes, where its rules fix one (`--watch` paces its
    /// frames by it); `None`: it ends when it is decided.
    fn length(_params: &Self::Params) -> Option<u64> {
        None
    }
    /// The state, built where it will live.
    fn boxed(plan: &Plan<Self>) -> Result<Box<Self>, arena_core::SetupError> {
        Self::new(&plan.params, plan.seed).map(Box::new)
    }
    /// An in-process bot's move (a built-in bot's, or any `Bot<Self>`'s): `bot` is given
    /// `seat`'s view.
    fn bot_move<B: arena_core::Bot<Self> + ?Sized>(
        bot: &mut B,
        game: &Self,
        seat: Seat,
    ) -> Self::Move {
        arena_core::Bot::act(bot, &game.view(seat)).into()
    }
    /// One step with every seat's move; `dropped` are the seats whose bots the engine dropped in
    /// this step (for games whose rules say what that does).
    fn play_step(&mut self, moves: &[Self::Move], _dropped: SeatSet) -> Stepped {
        let actions: Vec<Self::Action> = moves.iter().cloned().map(Into::into).collect();
        self.step(&actions).into()
    }
    /// [`Playable::play_step`] into `out`, whose vectors' room is kept (a loop stepping many
    /// matches allocates nothing for the reasons of its refusals); what `out` held is replaced.
    fn play_step_into(&mut self, moves: &[Self::Move], dropped: SeatSet, out: &mut Stepped) {
        *out = self.play_step(moves, dropped);
    }
    /// [`Playable::play_step_into`] for a caller that reads only `out.report` (a vector of
    /// matches without text seats): a game may leave the reasons and notes out (emptied), as
    /// Tower Defense does (a reason was looked up for each refusal, and random bots' actions are
    /// refused often).
    fn play_report_into(&mut self, moves: &[Self::Move], dropped: SeatSet, out: &mut Stepped) {
        self.play_step_into(moves, dropped, out);
    }
    /// Whether `mv` is `seat`'s pass now: a pass is a bot's choice, counted apart from refusals.
    /// Default: the core's pass (`Action::default()`).
    fn is_pass(&self, _seat: Seat, mv: &Self::Move) -> bool {
        Into::<Self::Action>::into(mv.clone()) == Self::Action::default()
    }
    /// The number reports and messages give the step about to be played (the original's own
    /// turn numbering where it has one).
    fn report_turn(&self) -> u32 {
        self.turn()
    }
    /// Whether `seat` still plays (a seat that is out hears the end and is no longer asked).
    fn seat_in(&self, _seat: Seat) -> bool {
        true
    }

    // ---- the canonical JSON

    /// The state as `seat` sees it.
    fn state_json(&self, seat: Seat) -> Value;
    /// An action as the canonical JSON writes it, in replays and to bots: what
    /// [`Playable::action_from_json`] reads back.
    fn action_json(action: &Self::Action) -> Value;
    /// Whatever a bot sent, as an action: never fails (the rules refuse what they do not allow).
    fn action_from_json(value: &Value) -> Self::Action;
}

/// The [`Playable`] methods a game answers from its JSON module, written once: the canonical JSON
/// of an action from `$json` (`action_json`, `action_from_json`).
macro_rules! json_from {
    ($json:ident) => {
        fn action_json(action: &Self::Action) -> serde_json::Value {
            $json::action_json(action)
        }

        fn action_from_json(value: &serde_json::Value) -> Self::Action {
            $json::action_from_json(value)
        }
    };
}
pub(crate) use json_from;

/// What a game makes of its options: the params, how many seats, how labels name it.
#[derive(Clone, Debug)]
pub struct Setup<G: Playable> {
    /// The rules' params for the match.
    pub params: G::Params,
    /// The seats the match has (the game's default bot fills those no bot is given for).
    pub seats: usize,
    /// The configuration as labels show it (`duel`, `conquest-30x30`, a map's name).
    pub config: String,
    /// Record the state in the replay every this many steps (for formats that may skip some).
    pub record_every: u32,
}

impl<G: Playable> Setup<G> {
    /// A setup of `params` for `seats` seats, labelled `config`, its state recorded every step.
    pub fn new(params: G::Params, seats: usize, config: impl Into<String>) -> Self {
        Setup {
            params,
            seats,
            config: config.into(),
            record_every: 1,
        }
    }
}

/// One match to play: the rules' params and seed, who sits where, and how to treat them.
#[derive(Clone, Debug)]
pub struct Plan<G: Playable> {
    /// The rules' params.
    pub params: G::Params,
    /// The match's seed: the rules' randomness and, with the seat, each built-in bot's
    /// ([`arena_core::rng::bot_seed`]).
    pub seed: u64,
    /// The configuration as labels show it (`duel`, `conquest-30x30`, a map's name).
    pub config: String,
    /// One bot per seat.
    pub bots: Vec<BotSpec>,
    /// What reports and replays call each seat.
    pub names: Vec<String>,
    /// Limits for external bots.
    pub limits: Limits,
    /// Keep each external bot's stderr and input here.
    pub log_dir: Option<PathBuf>,
    /// Stop after this many turns (the game's own turns, [`arena_core::Game::turn`]) even if the
    /// game is not over.
    pub max_turns: Option<u64>,
    /// Record the state in the replay every this many steps (for formats that may skip some).
    pub record_every: u32,
    /// The game's own facts about the match ([`Playable::Extra`]).
    pub extra: G::Extra,
}

impl<G: Playable> Plan<G> {
    /// A match of `setup` with these seed, bots and limits; no step limit, no logs.
    pub fn new(setup: Setup<G>, seed: u64, bots: Vec<BotSpec>, limits: Limits) -> Self {
        Plan {
            params: setup.params,
            seed,
            config: setup.config,
            names: bots.iter().map(BotSpec::name).collect(),
            bots,
            limits,
            log_dir: None,
            max_turns: None,
            record_every: setup.record_every,
            extra: G::Extra::default(),
        }
    }
}

/// The time limits asked for external bots (`--turn-ms`, `--no-timeout`), and their sandbox
/// (`--sandbox` and its caps).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// `--turn-ms`: the time per answer instead of the game's own.
    pub turn_ms: Option<u64>,
    /// `--no-timeout`: every answer is waited for as long as it takes (debugging a bot).
    pub no_timeout: bool,
    /// `--sandbox`: the caps each external bot runs under, or `None` to run it as a plain child.
    pub sandbox: Option<crate::sandbox::Caps>,
}

impl Timing {
    /// The limits for external bots: the game's own time per answer and averaging window unless
    /// `turn_ms` overrides the time.
    pub fn limits(&self, per_turn: Duration, window: u32) -> Limits {
        Limits {
            per_turn: self.turn_ms.map(Duration::from_millis).unwrap_or(per_turn),
            window,
            no_timeout: self.no_timeout,
            sandbox: self.sandbox,
            ..Limits::default()
        }
    }
}

/// What a step did beyond the core's report: refusals the desktop can explain (`seat`, why).
#[derive(Clone, Debug, Default)]
pub struct Stepped {
    /// The core's report of the step.
    pub report: StepReport,
    /// Faults the game found in a seat's answer (`seat`, the fault), counted in the seat's report
    /// with those of its connection.
    pub notes: Vec<(Seat, Fault)>,
    /// The reason of each refusal counted in `report` (`seat`, a short reason), as far as the
    /// game can tell it: reports sum refusals by reason, so a bot's author sees what to fix.
    pub why: Vec<(Seat, &'static str)>,
}

impl From<StepReport> for Stepped {
    fn from(report: StepReport) -> Self {
        Stepped {
            report,
            ..Stepped::default()
        }
    }
}

/// Where a seat stands in the match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// The engine dropped the bot: at which turn and for what.
    pub dropped: Option<(u32, Fault)>,
    /// The rules put the seat out at this turn.
    pub out: Option<u32>,
    /// The last turn the seat was to move.
    pub last_turn: u32,
}

/// Why a bot hears the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Its seat is out; the match goes on.
    Out,
    /// The match is over.
    Over,
}

/// What [`Protocol::finish`](crate::protocol::Protocol::finish) is told.
#[derive(Clone, Copy, Debug)]
pub struct End<'a> {
    /// Whether the bot's seat is out or the match is over.
    pub why: Finish,
    /// Every seat's standing, by seat.
    pub standings: &'a [Standing],
}

/// A report's additions for one game.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Extra lines of the text report.
    pub lines: Vec<String>,
    /// Extra fields of the JSON report.
    pub json: serde_json::Map<String, Value>,
}
