//! Ants (Google AI Challenge 2011) on the desktop: the official protocol and time limits, the
//! official replay format (revision 3), conformance checks against the official engine's replays,
//! the text each bot receives, and TrueSkill tournaments over a rotation of maps.
//!
//! The official engine's turn loop (`worker/engine.py`'s `run_game`) is the generic match loop
//! here: every alive bot is sent its view, all think at the same time under one deadline, a bot
//! that times out or crashes is killed (which changes the game: its ants stay and stop, its hills
//! cost it a point, it no longer counts as alive), and bots put out hear `end` at once. The replay
//! records the kills in `status`/`playerturns` as the official engine does, which is how
//! `arena verify ants` re-plays them.
//!
//! The core keeps only the living state; [`Recorder`] follows a game turn by turn and keeps the
//! history the replay needs (every ant's moves, every food, score and hive history).

mod feed;
pub mod json;
mod protocol;
mod replay;
pub mod tournament;
mod verify;

pub use feed::{bot_input, SeatFeed};
pub use protocol::{BotAnswer, Official};
pub use replay::{play_recorded, Extra, Recorder, ReplayMeta, ReplayWriter};
pub use verify::{
    kills_from_replay, map_of_replay, orders_from_replay, params_from_replay, replay_value, rerun,
    rerun_with, verify_replay, Kill,
};

use crate::error::{Error, Result, Setting};
use crate::format::{Field, Fixture, Format, GameFormat};
use crate::game::Timing;
use crate::game::{Plan, Playable, Setup, Standing, Stepped, Summary};
use crate::process::Lines;
use crate::protocol::GameProtocol;
use crate::record::Record;
use crate::replay::{Head, ReplayContext, Visit};
use crate::seats::BotSpec;
use crate::setup::{GameSetup, MatchRequest};
use crate::verify::{Difference, Verified};
use arena_core::games::ants::{Ants, AntsMap, AntsParams, HOST_ORDERS};
use arena_core::rng::splitmix64;
use arena_core::{Game, Seat, SeatSet};
use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A match's own options, playgame.py's: the map (its `players` line says how many bots the
/// match takes), the turn limit, the seeds, the time for a bot to start and answer `ready` and the
/// time per turn, in milliseconds (default: the request's, else 1000).
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The map file (official format).
    pub map: PathBuf,
    /// The turn limit (playgame.py's default: 1000).
    pub turns: u16,
    /// The engine seed (food, symmetry and the bot shuffle; default: the request's seed) and the
    /// seed sent to the bots (default: derived from the engine seed).
    pub seeds: (Option<i64>, Option<i64>),
    /// The time for a bot to start and answer `ready`, in milliseconds.
    pub loadtime: u32,
    /// The time per turn, in milliseconds (`None`: the request's, else 1000).
    pub turntime: Option<u32>,
}

/// A tournament's own options.
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// The maps: match i is played on map i mod maps.
    pub maps: Vec<PathBuf>,
    /// Turn limit of every match.
    pub turns: u16,
}

const TURNTIME: u32 = 1000;

fn read_map(path: &Path) -> Result<AntsMap> {
    let text = std::fs::read_to_string(path).map_err(|error| Error::File {
        doing: "read map",
        path: path.to_path_buf(),
        error,
    })?;
    AntsMap::parse(&text).map_err(|error| Error::BadMap {
        path: path.to_path_buf(),
        error,
    })
}

fn map_name(path: &Path) -> String {
    path.file_stem()
        .map(|m| m.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A match on `map`: the params, with the official defaults for what is not given.
fn setup_on(map: &Path, turns: u16, loadtime: u32, turntime: u32) -> Result<Setup<Ants>> {
    let mut params = AntsParams::new(read_map(map)?, turns);
    params.loadtime = loadtime;
    params.turntime = turntime;
    let seats = params.map.players as usize;
    Ok(Setup::new(params, seats, map_name(map)))
}

/// A plan with these seeds (the player seed goes to the bots).
fn seeded(mut plan: Plan<Ants>, engine_seed: i64, player_seed: i64) -> Plan<Ants> {
    plan.params.player_seed = player_seed;
    plan.seed = engine_seed.unsigned_abs();
    plan.extra = Extra { engine_seed };
    plan
}

impl Playable for Ants {
    type Move = BotAnswer;
    type Extra = Extra;

    fn boxed(plan: &Plan<Self>) -> Result<Box<Self>, arena_core::SetupError> {
        let mut game: Box<Ants> = Box::new(Ants::blank());
        game.init(&plan.params, plan.seed)?;
        Ok(game)
    }

    fn play_step(&mut self, moves: &[BotAnswer], dropped: SeatSet) -> Stepped {
        protocol::play_answers(self, moves, dropped)
    }

    fn report_turn(&self) -> u32 {
        u32::from(self.current_turn()) + 1
    }

    fn seat_in(&self, seat: Seat) -> bool {
        self.is_alive(seat)
    }

    /// What the replay says of a turn: scores, ants (row, column, owner) and food.
    fn state_json(&self, _seat: Seat) -> Value {
        json::state_json(self)
    }

    /// A seat's orders as the lines it sends (`["o 3 4 n", ...]`).
    fn action_json(action: &Self::Action) -> Value {
        serde_json::json!(protocol::builtin_answer(action).lines)
    }

    /// Order lines, read as the official engine reads them (what it refuses is left out).
    fn action_from_json(value: &Value) -> Self::Action {
        let lines: Vec<&str> = match value {
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            Value::String(s) => s.lines().collect(),
            _ => Vec::new(),
        };
        let answer = BotAnswer::read(lines);
        answer.orders.into_iter().take(HOST_ORDERS).collect()
    }
}

impl GameProtocol for Ants {
    /// The turn time, as the bots are told it.
    fn time_limit(params: &AntsParams) -> (Duration, u32) {
        (Duration::from_millis(u64::from(params.turntime)), 1)
    }

    fn drop_at_start(&mut self, seats: SeatSet) {
        self.kill_at_start(seats);
    }

    fn protocol(
        conn: Box<dyn Lines>,
        plan: &Plan<Self>,
        _seat: Seat,
    ) -> Box<dyn crate::protocol::Protocol<Self>> {
        let limited = |ms: u32| (!plan.limits.no_timeout).then_some(ms);
        Box::new(Official::new(
            conn,
            limited(plan.params.loadtime),
            limited(plan.params.turntime),
        ))
    }

    /// Ants bots speak the official text protocol, not JSON: a bot's answer is its order lines.
    fn request(&self, _seat: Seat) -> Option<String> {
        None
    }
}

impl Record for Ants {
    const MAP_BESIDE: bool = true;
    const REPLAY_EXT: &'static str = "json";
    type Recorder = ReplayWriter;

    fn summary(game: &Self, plan: &Plan<Self>, standings: &[Standing]) -> Summary {
        let (status, turns): (Vec<&str>, Vec<u32>) = standings.iter().map(protocol::status).unzip();
        let engine_seed = plan.extra.engine_seed;
        let player_seed = plan.params.player_seed;
        let mut json = serde_json::Map::new();
        json.insert("engine_seed".into(), engine_seed.into());
        json.insert("player_seed".into(), player_seed.into());
        json.insert("status".into(), serde_json::json!(status));
        json.insert("playerturns".into(), serde_json::json!(turns));
        json.insert(
            "cutoff".into(),
            game.cutoff().map_or("", |c| c.as_str()).into(),
        );
        let shown: Vec<String> = status
            .iter()
            .zip(&turns)
            .map(|(s, t)| format!("{s} (turn {t})"))
            .collect();
        Summary {
            lines: vec![
                format!("engine seed {engine_seed}, player seed {player_seed}"),
                format!("status: {}", shown.join(", ")),
            ],
            json,
        }
    }

    fn detect(head: &Head) -> bool {
        head.str("challenge") == Some(Self::NAME)
    }

    fn replay(
        input: &mut dyn BufRead,
        ctx: &ReplayContext,
        each: &mut dyn Visit<Self>,
    ) -> Result<Verified, Difference> {
        // Read whole, then parsed from memory: `from_reader` takes the input a byte at a time.
        let mut text = Vec::new();
        input
            .read_to_end(&mut text)
            .map_err(|e| Difference::unreadable("an Ants replay (JSON)", e))?;
        let replay: Value = serde_json::from_slice(&text)
            .map_err(|e| Difference::unreadable("an Ants replay (JSON)", e))?;
        replay_value(&replay, ctx.map.as_deref(), each)
    }

    /// The start, then one state a turn.
    fn states(input: &mut dyn BufRead) -> u64 {
        let root: Value = serde_json::from_reader(input).unwrap_or(Value::Null);
        root.get("game_length").and_then(Value::as_u64).unwrap_or(0) + 1
    }
}

impl GameSetup for Ants {
    type PlayOptions = PlayOptions;

    fn setup(options: &PlayOptions, _bots: usize) -> Result<Setup<Self>> {
        let turntime = options.turntime.unwrap_or(TURNTIME);
        setup_on(&options.map, options.turns, options.loadtime, turntime)
    }

    /// Every player needs its bot (no default fills a seat), `--turn-ms` is the turn time unless
    /// `--turntime` says it, and the seeds are playgame.py's.
    fn plan(options: &PlayOptions, common: &MatchRequest) -> Result<Plan<Self>> {
        let mut setup = <Self as GameSetup>::setup(options, common.bots.len())?;
        if options.turntime.is_none() {
            if let Some(ms) = common.timing.turn_ms {
                setup.params.turntime = ms.min(u64::from(u32::MAX)) as u32;
            }
        }
        let n = setup.seats;
        if common.bots.len() != n {
            return Err(Error::WrongBotCount {
                map: options.map.clone(),
                players: n,
                given: common.bots.len(),
            });
        }
        let engine_seed = options.seeds.0.unwrap_or(common.seed as i64);
        let player_seed = options.seeds.1.unwrap_or_else(|| {
            let mut s = engine_seed as u64 ^ 0x5eed_0fa7_7e5e_u64;
            (splitmix64(&mut s) % 1_000_000_000) as i64
        });
        let bots = common.specs::<Self>(n)?;
        let (per_turn, window) = Self::time_limit(&setup.params);
        let plan = common.plan(setup, 0, bots, common.timing.limits(per_turn, window));
        Ok(seeded(plan, engine_seed, player_seed))
    }
}

impl GameFormat for Ants {
    type TournamentOptions = TournamentOptions;

    fn fixture_setup(options: &TournamentOptions, fixture: &Fixture) -> Result<Setup<Self>> {
        let map = options
            .maps
            .get(fixture.index % options.maps.len().max(1))
            .ok_or(Error::Missing {
                what: "an Ants tournament",
                option: Setting::Map,
            })?;
        setup_on(map, options.turns, 3000, TURNTIME)
    }

    fn fixture(
        options: &TournamentOptions,
        fixture: &Fixture,
        seed: u64,
        bots: Vec<BotSpec>,
        timing: &Timing,
    ) -> Result<Plan<Self>> {
        let mut setup = Self::fixture_setup(options, fixture)?;
        let limits = timing.limits(Duration::from_millis(u64::from(TURNTIME)), 1);
        setup.params.turntime = limits.per_turn.as_millis().min(u128::from(u32::MAX)) as u32;
        // Python's seeds are signed: keep the engine seed in the positive 63-bit range.
        let engine_seed = (seed >> 1) as i64;
        let mut player = engine_seed as u64;
        let player_seed = (splitmix64(&mut player) >> 1) as i64;
        let plan = Plan::new(setup, 0, bots, limits);
        Ok(seeded(plan, engine_seed, player_seed))
    }

    fn format(options: &TournamentOptions, _field: &Field) -> Result<(String, Box<dyn Format>)> {
        let map_players = options
            .maps
            .iter()
            .map(|m| read_map(m).map(|map| map.players as usize))
            .collect::<Result<Vec<_>>>()?;
        Ok((
            Self::NAME.into(),
            Box::new(tournament::TrueSkillMatches { map_players }),
        ))
    }

    fn format_of(name: &str) -> Option<Box<dyn Format>> {
        (name == Self::NAME).then(|| {
            Box::new(tournament::TrueSkillMatches {
                map_players: Vec::new(),
            }) as Box<dyn Format>
        })
    }
}
