//! Ballroom Blitz (MechMania 28) on the desktop: the official engine's protocol over stdin/stdout
//! or, like the official engine, over TCP on 127.0.0.1:29170-29173; its game log; a Swiss system.
//!
//! Time as the official engine gives it: after each phase message the seats are read one after
//! the other, each read with its own 2 s starting when the previous seat's read ended (a reply
//! that came early is read at once); a TCP seat waits up to 15 s for its bot, one port after the
//! other, and a seat nobody connects to plays KNIGHT and the default actions, as the engine plays
//! a closed socket.

pub mod json;
pub mod log;
pub mod protocol;
mod refusals;
pub mod tournament;

use crate::error::{Error, Result, Setting};
use crate::format::{Field, Fixture, Format, GameFormat};
use crate::game::{Plan, Playable, Setup};
use crate::process::Lines;
use crate::protocol::{GameProtocol, Protocol};
use crate::record::Record;
use crate::replay::Head;
use crate::seats::{BotSpec, Bound};
use crate::setup::{plan_of, GameSetup, MatchRequest};
use arena_core::games::ballroom::{Action, Ballroom, Params, Ruleset, Sent, PLAYERS};
use arena_core::{Game, Roster, Seat};
use serde_json::Value;
use std::io::BufRead;
use std::time::Duration;

/// The official engine's first port; seat i listens on `BASE_PORT + i`.
pub const BASE_PORT: u16 = 29170;

/// A match's own options.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The rules: the official engine's (quirks included) or as the challenge text wrote them.
    pub ruleset: Ruleset,
    /// Seats without a bot wait for a bot to connect over TCP, as the official engine does.
    pub tcp: bool,
    /// How long each TCP seat waits for its bot, in seconds, one seat after the other.
    pub tcp_wait: f64,
    /// The first TCP port: seat i listens on this + i; 0: each seat on a free port.
    pub port_base: u16,
}

/// A tournament's own options (tournaments play the engine ruleset).
#[derive(Clone, Debug)]
pub struct TournamentOptions {
    /// Swiss rounds in one schedule (default: enough for a clear winner).
    pub rounds: Option<usize>,
}

/// 2 s per phase, each answer on its own.
const PER_PHASE: Duration = Duration::from_secs(2);

/// Swiss rounds: a schedule is `rounds` rounds (default: enough for a clear winner, log2 of the
/// field plus one), and `--games N` plays it N times over (N times as many rounds, each paired by
/// the standings so far).
pub fn swiss_rounds(bots: usize, rounds: Option<usize>, games: usize) -> usize {
    let schedule = rounds.unwrap_or((usize::BITS - bots.max(1).leading_zeros()) as usize + 1);
    schedule.max(1) * games.max(1)
}

const ENGINE: Params = Params {
    ruleset: Ruleset::Engine,
    classes: None,
};

impl Playable for Ballroom {
    /// A reply with the result flags the bot sent (they stand in the log where the engine's
    /// judgement does not set them).
    type Move = Sent;
    type Extra = ();

    /// The phase's default action is the bot's pass (an explicit self-attack included).
    fn is_pass(&self, seat: Seat, mv: &Sent) -> bool {
        refusals::is_pass(self.phase(), seat, &mv.action)
    }

    fn play_step(&mut self, moves: &[Sent], _dropped: arena_core::SeatSet) -> crate::game::Stepped {
        refusals::play(self, moves)
    }

    /// The turn the log and the official engine's messages show: 0 for the class handshake, then
    /// 1..100.
    fn report_turn(&self) -> u32 {
        if self.started() {
            self.engine_turn()
        } else {
            0
        }
    }

    fn state_json(&self, _seat: Seat) -> Value {
        serde_json::from_str(&json::states_json(self)).unwrap_or(Value::Null)
    }

    crate::game::json_from!(json);
}

impl GameProtocol for Ballroom {
    fn time_limit(_: &Params) -> (Duration, u32) {
        (PER_PHASE, 1)
    }

    /// A TCP bot is connected before the game starts, so its first answer gets no start-up
    /// allowance (the official engine reads the class with the same 2 s as every phase); a
    /// program started for the match gets the allowance to start.
    fn protocol(conn: Box<dyn Lines>, plan: &Plan<Self>, seat: Seat) -> Box<dyn Protocol<Self>> {
        let mut limits = plan.limits;
        if matches!(plan.bots.get(seat), Some(BotSpec::Tcp { .. })) {
            limits.startup = Duration::ZERO;
        }
        Box::new(protocol::Reference::new(conn, limits))
    }

    /// The official engine reads `null` from a seat with no bot (a closed socket, or none).
    fn gone_move(&self, _seat: Seat) -> Sent {
        Action::Null.into()
    }
}

impl Record for Ballroom {
    const REPLAY_EXT: &'static str = "json";
    type Recorder = log::Log;

    const RULESETS: &'static [&'static str] = &[Ruleset::Engine.name(), Ruleset::AsWritten.name()];

    fn replay(
        input: &mut dyn std::io::BufRead,
        ctx: &crate::replay::ReplayContext,
        each: &mut dyn crate::replay::Visit<Self>,
    ) -> Result<crate::verify::Verified, crate::verify::Difference> {
        // A ruleset named but not known is refused, not taken for the default.
        let ruleset = match ctx.ruleset.as_deref() {
            None => Ruleset::default(),
            Some(name) => Ruleset::from_name(name).ok_or_else(|| {
                let known = Self::RULESETS.join(", ");
                crate::verify::Difference::unreadable(
                    format_args!("a ruleset ({known})"),
                    format_args!("ruleset {name}"),
                )
            })?,
        };
        log::replay_under(ruleset, input, each)
    }

    fn detect(head: &Head) -> bool {
        head.has("names") && head.has("turns")
    }

    /// The start, then four phases a turn.
    fn states(input: &mut dyn BufRead) -> u64 {
        log::count_turns(input).saturating_sub(1) * 4 + 1
    }
}

impl GameSetup for Ballroom {
    type PlayOptions = PlayOptions;

    fn setup(options: &PlayOptions, _bots: usize) -> Result<Setup<Self>> {
        let params = Params {
            ruleset: options.ruleset,
            classes: None,
        };
        Ok(Setup::new(params, PLAYERS, Self::NAME))
    }

    /// Seats given `tcp` (or, with `--tcp`, seats given no bot) wait for a bot to connect, as the
    /// official engine does. With `--tcp`, `--name` names the seats in order whether a bot was
    /// given for them or not: names past the bots given go to the TCP seats that follow.
    fn plan(options: &PlayOptions, common: &MatchRequest) -> Result<Plan<Self>> {
        let mut named = common.clone();
        if options.tcp && named.names.len() > named.bots.len() {
            if named.names.len() > PLAYERS {
                return Err(Error::BadOption {
                    option: Setting::Names,
                    value: format!("given {} times", named.names.len()),
                    why: format!("a Ballroom Blitz match has {PLAYERS} seats"),
                });
            }
            named.bots.resize(named.names.len(), "tcp".to_string());
        } else if named.names.len() > named.bots.len() {
            return Err(Error::NamesPastBots {
                names: named.names.len(),
                bots: named.bots.len(),
            });
        }
        let common = &named;
        let tcp = |seat: usize| match common.bots.get(seat) {
            Some(b) => b == "tcp",
            None => options.tcp,
        };
        let mut plain = common.clone();
        for b in plain.bots.iter_mut().filter(|b| *b == "tcp") {
            *b = Self::BOTS[0].to_string();
        }
        let mut plan = plan_of::<Self>(options, &plain)?;
        let wait = Duration::try_from_secs_f64(options.tcp_wait).map_err(|e| Error::BadOption {
            option: Setting::TcpWait,
            value: options.tcp_wait.to_string(),
            why: e.to_string(),
        })?;
        let last = options.port_base.checked_add(PLAYERS as u16 - 1);
        if last.is_none() {
            return Err(Error::BadOption {
                option: Setting::PortBase,
                value: options.port_base.to_string(),
                why: "the four ports do not fit".into(),
            });
        }
        for (seat, spec) in plan.bots.iter_mut().enumerate().filter(|(s, _)| tcp(*s)) {
            *spec = if options.port_base == 0 {
                let (bound, port) = Bound::free().map_err(|error| Error::Seat {
                    seat,
                    what: "no free port".into(),
                    error,
                })?;
                BotSpec::Tcp {
                    port,
                    wait,
                    bound: Some(bound),
                }
            } else {
                BotSpec::Tcp {
                    port: options.port_base + seat as u16,
                    wait,
                    bound: None,
                }
            };
            if common.names.get(seat).is_none() {
                if let Some(name) = plan.names.get_mut(seat) {
                    *name = spec.label();
                }
            }
        }
        Ok(plan)
    }
}

impl GameFormat for Ballroom {
    const MIN_ENTRANTS: usize = PLAYERS;
    type TournamentOptions = TournamentOptions;

    fn fixture_setup(_: &TournamentOptions, _: &Fixture) -> Result<Setup<Self>> {
        Ok(Setup::new(ENGINE, PLAYERS, Self::NAME))
    }

    fn format(options: &TournamentOptions, field: &Field) -> Result<(String, Box<dyn Format>)> {
        Ok((
            Self::NAME.into(),
            Box::new(tournament::Swiss {
                rounds: swiss_rounds(field.bots, options.rounds, field.games),
            }),
        ))
    }

    fn format_of(name: &str) -> Option<Box<dyn Format>> {
        // The number of rounds does not change the table.
        (name == Self::NAME).then(|| Box::new(tournament::Swiss { rounds: 0 }) as Box<dyn Format>)
    }
}
