//! [`HostGame`]: everything the desktop needs of a game beyond its rules, answered once per game in
//! its folder (`games/<game>/`), so that playing, verifying, rendering and tournaments are written
//! once for all of them.

use crate::cli::MatchArgs;
use crate::commands::tournament::TournamentArgs;
use crate::process::{Fault, Limits, Lines};
use crate::protocol::{JsonLines, Protocol};
use crate::record::Recorder;
use crate::replay::{Head, ReplayContext, Visit};
use crate::seats::BotSpec;
use crate::tournament::{Fixture, Format, Timing};
use crate::verify::{Difference, Verified};
use arena_core::{Roster, Seat, SeatSet, StepReport};
use arena_firmware::Screen;
use serde_json::Value;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Duration;

/// A game as the desktop plays it.
///
/// The rules are the core's ([`Game`], [`Roster`]) and the pictures the firmware's ([`Screen`]);
/// this adds the canonical JSON of `rules/<game>.md`, how an external bot is spoken to, how a
/// match is written down and read back, and which tournament the original challenge announced.
pub trait HostGame: Roster + Screen + arena_viewer::Viewed + Sized + 'static {
    /// One line for `--help` and `arena bots`.
    const ABOUT: &'static str;
    /// What each built-in bot does, in the order of [`Roster::BOTS`] (`arena bots`).
    const BOT_NOTES: &'static [&'static str] = &[];
    /// The time limit external bots get by default, for `--turn-ms`'s help ("10 ms an answer").
    const TIME_LIMIT: &'static str;
    /// The extension of this game's replay files.
    const REPLAY_EXT: &'static str;
    /// What this game's replay file is, for `arena verify <game> --help`.
    const REPLAY_ABOUT: &'static str;
    /// Whether a replay can be re-played on a map given beside it (`--map`).
    const MAP_BESIDE: bool = false;
    /// The fewest entrants a tournament takes (a table's seats).
    const MIN_ENTRANTS: usize = 2;
    /// `arena serve <game>`, for games whose original was a server that bots reached over the
    /// network: the original's API, so its clients play against the engine.
    const SERVER: Option<Server> = None;

    /// `arena play <game>`'s own options (variant, size, map...).
    type PlayOptions: clap::Args + Send + Sync;
    /// `arena tournament <game>`'s own options.
    type TournamentOptions: clap::Args + Send + Sync;
    /// What one seat plays in one step on the desktop: the core's action for most games; for
    /// games whose answers can be longer than a board's capacity, the whole answer.
    type Move: Clone + Default + Send + From<Self::Action> + Into<Self::Action>;
    /// The game's own facts about a match (a signed seed, a map's name); `()` for most.
    type Extra: Clone + Default + Send + Sync;
    /// Writes the game's replay format as a match is played.
    type Recorder: Recorder<Self>;

    // ---- a match

    /// The original's time limit for an external bot: per answer, averaged over this many answers.
    fn time_limit(params: &Self::Params) -> (Duration, u32);
    /// The most steps a match of `params` takes, where its rules fix one (`--watch` paces its
    /// frames by it); `None`: it ends when it is decided.
    fn length(_params: &Self::Params) -> Option<u64> {
        None
    }
    /// The params of the match `arena play` asked for, for `bots` bots given on the command line.
    fn setup(options: &Self::PlayOptions, bots: usize) -> anyhow::Result<Setup<Self>>;
    /// The params of the match a tournament plays for `fixture`.
    fn fixture_setup(
        options: &Self::TournamentOptions,
        fixture: &Fixture,
    ) -> anyhow::Result<Setup<Self>>;
    /// The match `arena play` asked for: [`HostGame::setup`], the bots and the common options.
    fn plan(options: &Self::PlayOptions, common: &MatchArgs) -> anyhow::Result<Plan<Self>> {
        plan_of(options, common)
    }
    /// The match a tournament plays for `fixture`, seeded `seed`, with `bots` at its seats.
    fn fixture(
        options: &Self::TournamentOptions,
        fixture: &Fixture,
        seed: u64,
        bots: Vec<BotSpec>,
        timing: &Timing,
    ) -> anyhow::Result<Plan<Self>> {
        let setup = Self::fixture_setup(options, fixture)?;
        let (per_turn, window) = Self::time_limit(&setup.params);
        Ok(Plan::new(
            setup,
            seed,
            bots,
            timing.limits(per_turn, window),
        ))
    }
    /// The state, built where it will live.
    fn boxed(plan: &Plan<Self>) -> Result<Box<Self>, arena_core::SetupError> {
        Self::new(&plan.params, plan.seed).map(Box::new)
    }
    /// A built-in bot's move.
    fn bot_move(bot: &mut Self::Bot, game: &Self, seat: Seat) -> Self::Move {
        arena_core::Bot::act(bot, game, seat).into()
    }
    /// One step with every seat's move; `dropped` are the seats whose bots the engine dropped in
    /// this step (for games whose rules say what that does).
    fn play_step(&mut self, moves: &[Self::Move], _dropped: SeatSet) -> Stepped {
        let actions: Vec<Self::Action> = moves.iter().cloned().map(Into::into).collect();
        self.step(&actions).into()
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
    /// Bots dropped before the first step.
    fn drop_at_start(&mut self, _seats: SeatSet) {}
    /// What a seat plays whose bot the engine has dropped, or that has none (default: a pass).
    fn gone_move(&self, _seat: Seat) -> Self::Move {
        Self::Move::default()
    }
    /// For games whose rules remove a player for a part of the match only (a round): which part
    /// this is. Whenever it changes between two steps, every seat whose program the engine dropped
    /// is started again, with a new protocol, and plays on; its faults stay in the report, and no
    /// drop is a disqualification. `None` (the default): a dropped bot is out for the match.
    fn rejoin_epoch(&self) -> Option<u32> {
        None
    }
    /// The conversation with an external bot at `seat` (default: JSON lines).
    fn protocol(conn: Box<dyn Lines>, plan: &Plan<Self>, _seat: Seat) -> Box<dyn Protocol<Self>> {
        Box::new(JsonLines::new(conn, plan.limits))
    }
    /// The variant, for games that have several, as the JSON-lines request names it: a bot is
    /// told which rules it plays rather than left to guess them from the state's shape.
    fn variant_name(&self) -> Option<&'static str> {
        None
    }
    /// The request line of the JSON-lines protocol for `seat`, or `None` when it is not asked
    /// now (it passes).
    fn request(&self, seat: Seat) -> Option<String> {
        let mut line =
            serde_json::json!({"turn": self.turn(), "seat": seat, "state": self.state_json(seat)});
        if let (Some(v), Some(m)) = (self.variant_name(), line.as_object_mut()) {
            m.insert("variant".into(), v.into());
        }
        Some(line.to_string())
    }
    /// What a report adds for this game, from the end of the match.
    fn summary(_game: &Self, _plan: &Plan<Self>, _standings: &[Standing]) -> Summary {
        Summary::default()
    }

    // ---- the canonical JSON

    /// The state as `seat` sees it.
    fn state_json(&self, seat: Seat) -> Value;
    fn action_json(action: &Self::Action) -> Value;
    /// Whatever a bot sent, as an action: never fails (the rules refuse what they do not allow).
    fn action_from_json(value: &Value) -> Self::Action;
    /// What `seat` sent in this state, as an action (default: [`HostGame::action_from_json`]), for
    /// games whose original read an answer differently by seat or variant.
    fn read_action(&self, _seat: Seat, value: &Value) -> Self::Action {
        Self::action_from_json(value)
    }

    // ---- replays

    /// Whether a replay file that starts with `head` is one of this game's (default: its first
    /// line names the game, as the traces of this desktop do).
    fn detect(head: &Head) -> bool {
        head.str("game") == Some(Self::NAME)
    }
    /// Re-plays a replay, checking everything it records, and hands `each` the first state and
    /// the state after every step.
    fn replay(
        input: &mut dyn BufRead,
        ctx: &ReplayContext,
        each: &mut dyn Visit<Self>,
    ) -> Result<Verified, Difference>;
    /// About how many states [`HostGame::replay`] hands out, read without re-playing (to space the
    /// frames of a picture): one a line for line-based traces.
    fn states(input: &mut dyn BufRead) -> u64 {
        input
            .lines()
            .map_while(Result::ok)
            .filter(|l| !l.trim().is_empty())
            .count() as u64
    }

    // ---- tournaments

    /// The tournament `arena tournament <game>` plays: its name in results files and its format.
    /// Refuses a field the format cannot schedule (the bots, games and seed of `common`).
    fn tournament(
        args: &Self::TournamentOptions,
        common: &TournamentArgs,
    ) -> anyhow::Result<(String, Box<dyn Format>)>;
    /// The format of a results file whose `game` is `name`, if it is one of this game's.
    fn format_of(name: &str) -> Option<Box<dyn Format>>;
}

/// [`HostGame::plan`]'s default: [`HostGame::setup`], then the `--bot` arguments (the game's
/// default bot for the seats left), the game's time limit and the common options.
pub fn plan_of<G: HostGame>(
    options: &G::PlayOptions,
    common: &MatchArgs,
) -> anyhow::Result<Plan<G>> {
    let setup = G::setup(options, common.bots.len())?;
    let bots = common.specs::<G>(setup.seats)?;
    let (per_turn, window) = G::time_limit(&setup.params);
    let limits = common.limits(per_turn, window);
    Ok(common.plan(setup, common.seed(), bots, limits))
}

/// The [`HostGame`] methods a game answers from its own modules, written once: the canonical JSON
/// of an action from `$json` (`action_json`, `action_from_json`), and the replay re-played by
/// `$format::replay`, for formats that need nothing beside the file.
macro_rules! from_modules {
    ($json:ident, $format:ident) => {
        fn action_json(action: &Self::Action) -> serde_json::Value {
            $json::action_json(action)
        }

        fn action_from_json(value: &serde_json::Value) -> Self::Action {
            $json::action_from_json(value)
        }

        fn replay(
            input: &mut dyn std::io::BufRead,
            _ctx: &$crate::replay::ReplayContext,
            each: &mut dyn $crate::replay::Visit<Self>,
        ) -> Result<$crate::verify::Verified, $crate::verify::Difference> {
            $format::replay(input, each)
        }
    };
}
pub(crate) use from_modules;

/// The options of a game that has none of its own (for `arena play` or `arena tournament`).
#[derive(clap::Args, Clone, Debug)]
pub struct NoOptions {}

/// `arena serve <game>`: its options and what runs it.
#[derive(Clone, Copy)]
pub struct Server {
    pub command: fn() -> clap::Command,
    pub run: fn(&clap::ArgMatches) -> anyhow::Result<()>,
}

/// What a game makes of its options: the params, how many seats, how labels name it.
#[derive(Clone, Debug)]
pub struct Setup<G: HostGame> {
    pub params: G::Params,
    pub seats: usize,
    /// The configuration as labels show it (`duel`, `conquest-30x30`, a map's name).
    pub config: String,
    /// Record the state in the replay every this many steps (for formats that may skip some).
    pub record_every: u32,
}

impl<G: HostGame> Setup<G> {
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
pub struct Plan<G: HostGame> {
    pub params: G::Params,
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
    pub extra: G::Extra,
}

/// What a step did beyond the core's report: refusals the desktop can explain (`seat`, why).
#[derive(Clone, Debug, Default)]
pub struct Stepped {
    pub report: StepReport,
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

/// What [`Protocol::finish`] is told.
#[derive(Clone, Copy, Debug)]
pub struct End<'a> {
    pub why: Finish,
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
