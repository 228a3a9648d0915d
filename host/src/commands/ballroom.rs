//! `arena play ballroom` and `arena verify ballroom`: MechMania 28's protocol over stdin/stdout or,
//! like the official engine, over TCP on 127.0.0.1:29170-29173.

use super::record::{run_recorded, Recorder, Watch};
use super::tournament::Contest;
use super::{finish_play, LineWriter, MatchArgs, Timing};
use crate::games::ballroom as codec;
use crate::play::{self, BotSpec, Driver, Player, Protocol, Step};
use crate::process::{BotProcess, Fault, Lines, TcpBot};
use arena_core::games::ballroom::{Action, Ballroom, Params, Ruleset};
use arena_core::{Game, Roster, Seat};
use clap::{Args, ValueEnum};
use std::time::Duration;

/// The official engine's first port; seat i listens on `BASE_PORT + i`.
pub const BASE_PORT: u16 = 29170;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesetArg {
    /// Exactly what the official engine (tag 1.6) does, quirks included.
    Engine,
    /// The rules as the challenge text wrote them.
    AsWritten,
}

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    #[arg(long, value_enum, default_value = "engine")]
    pub ruleset: RulesetArg,
    /// Seats without a --bot wait for a bot to connect over TCP on 127.0.0.1:29170+seat, as the
    /// official engine does (the official starter packs connect unchanged). `--bot tcp` does the
    /// same for one seat.
    #[arg(long)]
    pub tcp: bool,
    /// How long to wait for a TCP bot to connect, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub tcp_wait: u64,
}

/// The reference protocol over any line connection: the phase message before every step, one
/// reply line, `fin` at the end. A bot the engine has dropped hears nothing more.
pub struct Reference<L: Lines> {
    pub conn: L,
    /// The action the rules play for the last unreadable reply.
    instead: Option<Action>,
}

impl<L: Lines> Reference<L> {
    pub fn new(conn: L) -> Self {
        Reference {
            conn,
            instead: None,
        }
    }
}

impl<L: Lines> Protocol<Ballroom> for Reference<L> {
    fn act(&mut self, game: &Ballroom, seat: Seat) -> Result<Action, Fault> {
        let (Some(phase), true) = (game.phase(), game.player(seat).is_some_and(|p| p.connected))
        else {
            return Ok(Action::Pass);
        };
        for line in codec::phase_message(game, seat).lines() {
            self.conn.send(line)?;
        }
        let line = self.conn.recv()?;
        let action = codec::parse_action_line(phase, &line).map_err(|f| {
            self.instead = Some(f.action());
            Fault::Garbage {
                why: format!("{f}: {}", play::preview(&line)),
            }
        })?;
        // `null` is how the reference reads a time-out or a closed socket: it drops the bot. Said
        // on purpose it is the same, and the report names it.
        if action == Action::Null {
            self.instead = Some(Action::Null);
            return Err(Fault::Garbage {
                why: "answered null: the reference drops such a bot".into(),
            });
        }
        // A bot acts for its own seat only (rules decision 2): claiming another seat is a fault,
        // and like any fault it ends the bot's say in the match.
        if let Some(executor) = claimed_executor(&line) {
            if executor != seat as i64 {
                self.instead = Some(Action::Malformed);
                return Err(Fault::Garbage {
                    why: format!("executor {executor} is not its own seat {seat}"),
                });
            }
        }
        Ok(action)
    }

    /// A time-out or a lost connection drops the bot (the reference's `null`); an unreadable reply
    /// plays what the reference plays for it.
    fn fault_action(&mut self, _game: &Ballroom, _seat: Seat, _fault: &Fault) -> Action {
        self.instead.take().unwrap_or(Action::Null)
    }

    fn finish(&mut self, game: &Ballroom, seat: Seat) {
        if game.player(seat).is_some_and(|p| p.connected) {
            let _ = self.conn.send("fin");
        }
    }

    fn max_faults(&self) -> u32 {
        1
    }

    fn close(&mut self) {
        self.conn.close();
    }
}

/// The `executor` a reply names, if it names one as a number.
fn claimed_executor(line: &str) -> Option<i64> {
    let value: serde_json::Value = serde_json::from_str(line.trim()).ok()?;
    value.get("executor")?.as_i64()
}

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.common.seed();
    let params = Params {
        ruleset: match args.ruleset {
            RulesetArg::Engine => Ruleset::Engine,
            RulesetArg::AsWritten => Ruleset::AsWritten,
        },
        classes: None,
    };
    let game =
        Ballroom::new(&params, seed).map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let seats = game.seats();
    if args.common.bots.len() > seats {
        anyhow::bail!(
            "ballroom takes {seats} bots, {} were given",
            args.common.bots.len()
        );
    }
    let options = args.common.external(PER_PHASE, 1);
    let mut players: Vec<Player<Ballroom>> = Vec::new();
    let mut names = Vec::new();
    for seat in 0..seats {
        let arg = args.common.bots.get(seat).map(String::as_str);
        let tcp = arg == Some("tcp") || (arg.is_none() && args.tcp);
        if tcp {
            let port = BASE_PORT + seat as u16;
            eprintln!("seat {seat}: waiting for a bot on 127.0.0.1:{port}");
            let conn = TcpBot::accept(port, Duration::from_secs(args.tcp_wait), &options.limits)
                .map_err(|e| anyhow::anyhow!("seat {seat}: {e}"))?;
            let name = format!("tcp:{port}");
            names.push(name.clone());
            players.push(Player::new(
                name,
                Driver::External(Box::new(Reference::new(conn))),
            ));
            continue;
        }
        let spec = match arg {
            Some(a) => BotSpec::parse::<Ballroom>(a).map_err(anyhow::Error::msg)?,
            None => BotSpec::Builtin(Ballroom::BOTS[0].into()),
        };
        names.push(spec.label());
        players.extend(
            play::players::<Ballroom>(std::slice::from_ref(&spec), seed, &options, external)
                .map_err(anyhow::Error::msg)?,
        );
        // Built-in bots are seeded by seat: re-seed this one for its real seat.
        if let (BotSpec::Builtin(name), Some(last)) = (&spec, players.last_mut()) {
            if let Some(bot) = Ballroom::bot(name, play::bot_seed(seed, seat)) {
                last.driver = Driver::Builtin(bot);
            }
        }
    }
    let replay = args.common.replay.as_ref();
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let mut watcher = args
        .common
        .watcher::<Ballroom>(Ballroom::NAME, seed, &names);
    let watch = watcher.as_mut().map(|w| w as &mut dyn Watch<Ballroom>);
    let (report, error) = run_recorded(
        game,
        seed,
        &mut players,
        args.common.max_turns,
        Log::default(),
        replay,
        watch,
    )?;
    finish_play(&report, args.common.json, replay, error);
    Ok(())
}

/// The official log (`{"names":[...],"turns":[T0..T100]}`), written whole at the end.
#[derive(Default)]
pub struct Log(Option<codec::LogWriter>);

impl Recorder<Ballroom> for Log {
    fn begin(&mut self, game: &Ballroom, names: &[String], _seed: u64, _out: &mut LineWriter) {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut log = codec::LogWriter::new(&names);
        log.observe(game);
        self.0 = Some(log);
    }

    fn step(&mut self, game: &Ballroom, _step: &Step<'_, Ballroom>, _out: &mut LineWriter) {
        if let Some(log) = &mut self.0 {
            log.observe(game);
        }
    }

    fn end(&mut self, _game: &Ballroom, out: &mut LineWriter) {
        if let Some(log) = &self.0 {
            out.text(&log.render());
        }
    }
}

fn external(p: BotProcess) -> Box<dyn Protocol<Ballroom>> {
    Box::new(Reference::new(p))
}

/// 2 s per phase, each answer on its own.
const PER_PHASE: Duration = Duration::from_secs(2);

/// Ballroom Blitz in a tournament (the engine ruleset).
pub fn contest(timing: Timing) -> Contest<Ballroom> {
    Contest {
        name: "ballroom".into(),
        params: Box::new(|_| Params {
            ruleset: Ruleset::Engine,
            classes: None,
        }),
        options: timing.options(PER_PHASE, 1, None),
        protocol: external,
        recorder: Box::new(|| Box::new(Log::default())),
        ext: "json",
    }
}

pub fn verify(text: &str) -> Result<String, String> {
    codec::verify_log(text)
        .map(|r| format!("ok: {} turns, {} checks match", r.turns, r.checks))
        .map_err(|m| m.to_string())
}
