//! `arena play ants` and `arena verify ants`: the official turn loop (`worker/engine.py`) around
//! our engine, with built-in bots and external ones speaking the official text protocol.
//!
//! Ants does not fit the generic match loop: an answer is many order lines up to `go` under one
//! deadline shared by all bots (they think at the same time), and a bot that times out or crashes
//! is killed by the engine, which changes the game (its ants stay and stop, its hills cost it a
//! point, it no longer counts as alive). So the loop here follows `run_game` step by step: send
//! every alive bot its view, collect answers until the deadline, kill the late and the dead, play
//! the turn with the kills, tell the eliminated bots `end`. The replay records the kills in
//! `status`/`playerturns` as the official engine does, which is how `arena verify ants` re-plays
//! them.

use super::record::Watch;
use super::{print_report, report_json};
use crate::games::ants::{play_recorded, verify_replay, BotAnswer, BotFeed, Recorder, ReplayMeta};
use crate::play::{BotSpec, MatchReport, SeatReport};
use crate::process::{BotProcess, Fault, Limits};
use arena_core::games::ants::{bots::AntsBot, Ants, AntsMap, AntsParams, Order, OrderError};
use arena_core::rng::splitmix64;
use arena_core::{Bot, Game, Roster, SeatSet};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Order lines kept per bot per turn (the official engine reads at most 40,000 after the deadline).
pub const MAX_LINES: usize = 40_000;
/// Faults kept per bot for the report (a bot writing garbage every turn would fill memory).
pub const MAX_FAULTS: usize = 1_000;

#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// The map (official format); its `players` line says how many bots the match takes.
    #[arg(long, value_name = "MAP")]
    pub map: PathBuf,
    /// A bot per player, in order: a built-in name (strong, hunter, hold) or `cmd:<command line>`
    /// for a program speaking the official Ants protocol over stdin/stdout.
    #[arg(long = "bot", value_name = "BOT")]
    pub bots: Vec<String>,
    /// Turn limit (playgame.py's default: 1000).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u16).range(1..))]
    pub turns: u16,
    /// The engine seed: food, symmetry and the bot shuffle (default: from the clock; printed and
    /// recorded in the replay either way).
    #[arg(
        long,
        alias = "engine_seed",
        value_name = "S",
        allow_negative_numbers = true
    )]
    pub engine_seed: Option<i64>,
    /// The seed sent to the bots (`player_seed` line; default: derived from the engine seed).
    #[arg(
        long,
        alias = "player_seed",
        value_name = "S",
        allow_negative_numbers = true
    )]
    pub player_seed: Option<i64>,
    /// Time for a bot to start and answer `ready`, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub loadtime: u32,
    /// Time per turn, in milliseconds (all bots think at the same time).
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub turntime: u32,
    /// Write the replay (official format, revision 3) to FILE at the end of the match.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// No time limits at all (for debugging a bot); the bots are still told loadtime/turntime.
    #[arg(long)]
    pub no_timeout: bool,
    /// Keep each external bot's stderr in DIR/<seat>.stderr and everything it was sent in
    /// DIR/<seat>.input (default: neither).
    #[arg(long, value_name = "DIR")]
    pub bot_logs: Option<PathBuf>,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub view: super::WatchArgs,
}

/// Who plays a seat.
enum Driver {
    Builtin(AntsBot),
    External(BotProcess),
    /// Killed by the engine, eliminated, or never started.
    Gone,
}

struct Seat {
    name: String,
    driver: Driver,
    /// Everything the bot was sent (`--bot-logs`: DIR/<seat>.input, as the official `--log_input`).
    input_log: Option<std::fs::File>,
    faults: Vec<(u32, Fault)>,
    disqualified: Option<u32>,
    refused: u32,
}

impl Seat {
    /// Sends a message (lines ending with a newline) to an external bot.
    fn send(&mut self, text: &str) {
        if let Driver::External(process) = &mut self.driver {
            let _ = process.send(text.trim_end_matches('\n'));
            if let Some(log) = &mut self.input_log {
                use std::io::Write;
                let _ = log.write_all(text.as_bytes());
            }
        }
    }

    fn fault(&mut self, turn: u32, fault: Fault) {
        if self.faults.len() < MAX_FAULTS {
            self.faults.push((turn, fault));
        }
    }
}

/// One bot's answer to one message.
enum Reply {
    /// Lines up to `go` (without it), and the lines that could not be read at all.
    Done(Vec<String>, Vec<Fault>),
    /// Killed by the engine: `timeout` or `crashed`, and why.
    Killed(&'static str, Fault),
}

/// Reads lines until `go` or the deadline, as `get_moves` does.
fn collect(process: &mut BotProcess, deadline: Option<Instant>, started: Instant) -> Reply {
    let mut lines = Vec::new();
    let mut unreadable = Vec::new();
    // Lines taken after the deadline: what was already written is read (as the engine's last
    // read does), but a bot that floods without `go` is late, not an endless loop.
    let mut late = 0;
    loop {
        if deadline.is_some_and(|d| Instant::now() > d) {
            late += 1;
            if late > MAX_LINES {
                return Reply::Killed(
                    "timeout",
                    Fault::Timeout {
                        waited_ms: started.elapsed().as_millis() as u64,
                    },
                );
            }
        }
        match process.recv_until(deadline) {
            Ok(line) => {
                if line.trim().eq_ignore_ascii_case("go") {
                    return Reply::Done(lines, unreadable);
                }
                if lines.len() < MAX_LINES {
                    lines.push(line);
                }
            }
            Err(f @ (Fault::LineTooLong { .. } | Fault::BadUtf8 | Fault::Garbage { .. })) => {
                if unreadable.len() < MAX_LINES {
                    unreadable.push(f)
                }
            }
            Err(Fault::Timeout { .. }) => {
                return Reply::Killed(
                    "timeout",
                    Fault::Timeout {
                        waited_ms: started.elapsed().as_millis() as u64,
                    },
                )
            }
            Err(f) => return Reply::Killed("crashed", f),
        }
    }
}

/// The engine seed and player seed of a match.
fn seeds(args: &PlayArgs) -> (i64, i64) {
    let engine = args.engine_seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        (now % 1_000_000_000) as i64
    });
    let player = args.player_seed.unwrap_or_else(|| {
        let mut s = engine as u64 ^ 0x5eed_0fa7_7e5e_u64;
        (splitmix64(&mut s) % 1_000_000_000) as i64
    });
    (engine, player)
}

fn read_map(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read map {}: {e}", path.display()))
}

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let (engine_seed, player_seed) = seeds(args);
    let (report, replay) = play_match(args, engine_seed, player_seed)?;
    if args.json {
        let mut json = report_json(&report);
        if let Some(obj) = json.as_object_mut() {
            obj.insert("engine_seed".into(), engine_seed.into());
            obj.insert("player_seed".into(), player_seed.into());
            obj.insert("status".into(), replay["status"].clone());
            obj.insert("playerturns".into(), replay["playerturns"].clone());
            obj.insert("cutoff".into(), replay["replaydata"]["cutoff"].clone());
        }
        println!("{json}");
    } else {
        print_report(&report, false);
        println!("engine seed {engine_seed}, player seed {player_seed}");
        let status: Vec<String> = replay["status"]
            .as_array()
            .into_iter()
            .flatten()
            .zip(replay["playerturns"].as_array().into_iter().flatten())
            .map(|(s, t)| format!("{} (turn {t})", s.as_str().unwrap_or("?")))
            .collect();
        println!("status: {}", status.join(", "));
    }
    if let Some(path) = &args.replay {
        std::fs::write(path, replay.to_string() + "\n")
            .map_err(|e| anyhow::anyhow!("cannot write replay {}: {e}", path.display()))?;
        eprintln!("replay written to {}", path.display());
    }
    Ok(())
}

/// Plays one match as `args` say, with these seeds: the report and the replay (official format).
pub fn play_match(
    args: &PlayArgs,
    engine_seed: i64,
    player_seed: i64,
) -> anyhow::Result<(MatchReport, serde_json::Value)> {
    let map = AntsMap::parse(&read_map(&args.map)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.map.display()))?;
    let mut params = AntsParams::new(map, args.turns);
    params.loadtime = args.loadtime;
    params.turntime = args.turntime;
    params.player_seed = player_seed;
    let mut game: Box<Ants> = Box::new(Ants::blank());
    game.init(&params, engine_seed.unsigned_abs())
        .map_err(|e| anyhow::anyhow!("cannot set up the game: {e}"))?;
    let n = game.players();
    if args.bots.len() != n {
        anyhow::bail!(
            "{} is a {n}-player map: give {n} bots (--bot), {} were given",
            args.map.display(),
            args.bots.len()
        );
    }
    let specs = args
        .bots
        .iter()
        .map(|b| BotSpec::parse::<Ants>(b))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    if let Some(dir) = &args.bot_logs {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let limits = Limits {
        no_timeout: args.no_timeout,
        ..Limits::default()
    };
    let mut seats: Vec<Seat> = Vec::with_capacity(n);
    let mut spawn_failed = Vec::new();
    for (p, spec) in specs.iter().enumerate() {
        let driver = match spec {
            BotSpec::Builtin(name) => Driver::Builtin(
                <Ants as Roster>::bot(name, (engine_seed as u64).wrapping_add(p as u64))
                    .ok_or_else(|| anyhow::anyhow!("unknown ants bot `{name}`"))?,
            ),
            BotSpec::Command(cmd) => {
                let log = args
                    .bot_logs
                    .as_ref()
                    .map(|d| d.join(format!("{p}.stderr")));
                match BotProcess::spawn(cmd, log.as_deref(), limits) {
                    Ok(process) => Driver::External(process),
                    Err(e) => {
                        spawn_failed.push((p, e.to_string()));
                        Driver::Gone
                    }
                }
            }
        };
        let input_log = match (&driver, &args.bot_logs) {
            (Driver::External(_), Some(dir)) => {
                let path = dir.join(format!("{p}.input"));
                Some(
                    std::fs::File::create(&path)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
                )
            }
            _ => None,
        };
        seats.push(Seat {
            name: spec.label(),
            driver,
            input_log,
            faults: Vec::new(),
            disqualified: None,
            refused: 0,
        });
    }

    let mut feed = BotFeed::new(&*game);
    let mut rec = Recorder::new(&*game);
    let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
    let map_name = args
        .map
        .file_stem()
        .map(|m| m.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut watcher =
        args.view
            .watcher::<Ants>(&map_name, engine_seed.unsigned_abs(), &names, args.json);
    if let Some(w) = &mut watcher {
        w.start(&*game);
    }
    let deadline = |ms: u32| (!args.no_timeout).then(|| Instant::now() + ms_duration(ms));

    // Turn 0: the start block and `ready`; `go` within the load time.
    let start = BotFeed::start_text(&*game);
    for seat in seats.iter_mut() {
        seat.send(&start);
    }
    let mut kills = SeatSet::EMPTY;
    for (p, why) in spawn_failed {
        kill(
            &mut seats[p],
            &mut rec,
            p,
            0,
            "crashed",
            Fault::Spawn { why },
        );
        kills = kills.with(p);
    }
    let started = Instant::now();
    let due = deadline(args.loadtime);
    for (p, seat) in seats.iter_mut().enumerate() {
        if let Driver::External(process) = &mut seat.driver {
            if let Reply::Killed(status, fault) = collect(process, due, started) {
                kill(seat, &mut rec, p, 0, status, fault);
                kills = kills.with(p);
            }
        }
    }
    game.kill_at_start(kills);

    let mut ended = vec![false; n];
    while !game.is_finished() {
        // Bots told `end` last turn are stopped now (the engine stops them; one turn to read it).
        for (seat, &e) in seats.iter_mut().zip(&ended) {
            if e {
                if let Driver::External(process) = &mut seat.driver {
                    process.kill();
                }
                seat.driver = Driver::Gone;
            }
        }
        let turn = game.current_turn() as u32 + 1;
        let alive: Vec<bool> = (0..n).map(|p| game.is_alive(p)).collect();
        for (p, seat) in seats.iter_mut().enumerate() {
            if alive[p] && matches!(seat.driver, Driver::External(_)) {
                let text = feed.turn_text(&*game, p);
                seat.send(&text);
            }
        }
        let started = Instant::now();
        let due = deadline(args.turntime);
        let mut kills = SeatSet::EMPTY;
        let mut answers: Vec<BotAnswer> = vec![BotAnswer::default(); n];
        for (p, seat) in seats.iter_mut().enumerate() {
            if !alive[p] {
                continue;
            }
            let reply = match &mut seat.driver {
                Driver::Builtin(bot) => {
                    let orders = bot.act(&*game, p);
                    answers[p] = BotAnswer {
                        lines: orders.iter().map(order_line).collect(),
                        orders: orders.to_vec(),
                        invalid: Vec::new(),
                        complete: true,
                    };
                    continue;
                }
                Driver::External(process) => collect(process, due, started),
                Driver::Gone => Reply::Killed(
                    "crashed",
                    Fault::Exited {
                        status: "gone".into(),
                    },
                ),
            };
            match reply {
                Reply::Done(lines, unreadable) => {
                    for f in unreadable {
                        seat.refused += 1;
                        seat.fault(turn, f);
                    }
                    answers[p] = BotAnswer::read(lines.iter().map(String::as_str));
                    for (line, why) in &answers[p].invalid {
                        seat.refused += 1;
                        seat.fault(turn, invalid(line, *why));
                    }
                }
                Reply::Killed(status, fault) => {
                    kill(seat, &mut rec, p, turn, status, fault);
                    kills = kills.with(p);
                }
            }
        }
        let slices: Vec<&[Order]> = answers.iter().map(|a| a.orders.as_slice()).collect();
        let refusals = play_recorded(&mut game, &mut rec, &slices, kills);
        if let Some(w) = &mut watcher {
            w.step(&*game);
        }
        for (p, i, why) in refusals {
            let Some(seat) = seats.get_mut(p) else {
                continue;
            };
            seat.refused += 1;
            if why != OrderError::MoveBlocked {
                let line = answers[p].lines.get(i).map_or("?", String::as_str);
                seat.fault(turn, invalid(line, why));
            }
        }
        feed.update(&*game);
        // Bots alive after the kills and dead now hear `end` (scores before the lone survivor's
        // bonus, their own status updated one by one as the engine does) and are stopped.
        let before_bonus: Vec<i32> = (0..n)
            .map(|p| game.score(p) - game.bonus().get(p).copied().unwrap_or(0))
            .collect();
        let eliminated: Vec<usize> = (0..n)
            .filter(|&p| alive[p] && !kills.contains(p) && !game.is_alive(p))
            .collect();
        let mut status: Vec<String> = rec.status().to_vec();
        for &p in &eliminated {
            status[p] = "survived".into();
        }
        for &p in &eliminated {
            status[p] = rec.status()[p].clone();
            let text = feed.end_text(&*game, p, &before_bonus, &status, rec.player_turns());
            seats[p].send(&text);
            ended[p] = true;
        }
    }

    if let Some(w) = &mut watcher {
        w.end(&*game);
    }
    // The end: scores, statuses and the last view for every bot still alive.
    let scores: Vec<i32> = game.scores().to_vec();
    for p in (0..n).filter(|&p| game.is_alive(p)) {
        let text = feed.end_text(&*game, p, &scores, rec.status(), rec.player_turns());
        seats[p].send(&text);
        ended[p] = true;
    }
    if ended
        .iter()
        .zip(&seats)
        .any(|(&e, s)| e && matches!(s.driver, Driver::External(_)))
    {
        // A moment to read `end` before the engine stops them, as a courtesy.
        std::thread::sleep(Duration::from_millis(50));
    }
    for seat in seats.iter_mut() {
        if let Driver::External(process) = &mut seat.driver {
            process.kill();
        }
        seat.driver = Driver::Gone;
    }

    let meta = ReplayMeta {
        engine_seed,
        player_names: seats.iter().map(|s| s.name.clone()).collect(),
        ..ReplayMeta::default()
    };
    let replay = rec.replay(&*game, &meta);
    let report = MatchReport {
        game: "ants",
        seed: engine_seed.unsigned_abs(),
        turns: game.current_turn() as u32,
        outcome: Game::outcome(&*game),
        seats: seats
            .iter()
            .map(|s| SeatReport {
                name: s.name.clone(),
                faults: s.faults.clone(),
                disqualified: s.disqualified,
                refused: s.refused,
            })
            .collect(),
    };
    Ok((report, replay))
}

fn ms_duration(ms: u32) -> Duration {
    Duration::from_millis(ms as u64)
}

fn order_line(o: &Order) -> String {
    format!("o {} {} {}", o.row, o.col, o.dir.letter() as char)
}

fn invalid(line: &str, why: OrderError) -> Fault {
    Fault::Invalid {
        why: BotAnswer::describe(&crate::play::preview(line), why),
    }
}

/// The engine kills a bot: its status and turn go in the replay, its process is stopped.
fn kill(seat: &mut Seat, rec: &mut Recorder, p: usize, turn: u32, status: &str, fault: Fault) {
    rec.set_status(p, status, turn);
    seat.fault(turn, fault);
    seat.disqualified = Some(turn);
    if let Driver::External(process) = &mut seat.driver {
        process.kill();
    }
    seat.driver = Driver::Gone;
}

/// `arena verify ants`: re-plays a replay on its map; `Ok(summary)` when every compared field
/// matches, else the first difference (turn and item).
pub fn verify(replay: &str, map: &str) -> Result<String, String> {
    verify_replay(replay, map)
        .map(|r| {
            format!(
                "ok: {} players, {} turns, {} ants, {} food, end: {}",
                r.players,
                r.turns,
                r.ants,
                r.food,
                if r.cutoff.is_empty() {
                    "-"
                } else {
                    r.cutoff.as_str()
                }
            )
        })
        .map_err(|m| m.to_string())
}

/// Ants in a tournament: match `i` is played on map `i mod maps`, with as many bots as it has
/// players.
pub struct Contest {
    pub maps: Vec<PathBuf>,
    pub turns: u16,
    pub timing: super::Timing,
}

impl crate::tournament::Contest for Contest {
    fn name(&self) -> String {
        "ants".into()
    }

    fn play(
        &self,
        fixture: &crate::tournament::Fixture,
        bots: &[String],
        seed: u64,
        replay: Option<PathBuf>,
    ) -> anyhow::Result<crate::tournament::MatchResult> {
        let map = self
            .maps
            .get(fixture.index % self.maps.len().max(1))
            .ok_or_else(|| anyhow::anyhow!("an Ants tournament needs at least one --map"))?;
        let args = PlayArgs {
            map: map.clone(),
            bots: fixture
                .seats
                .iter()
                .map(|&b| bots.get(b).cloned().unwrap_or_else(|| "hold".into()))
                .collect(),
            turns: self.turns,
            engine_seed: None,
            player_seed: None,
            loadtime: 3000,
            turntime: self
                .timing
                .turn_ms
                .map_or(1000, |ms| ms.min(u32::MAX as u64) as u32),
            replay: None,
            no_timeout: self.timing.no_timeout,
            bot_logs: None,
            json: false,
            view: super::WatchArgs {
                watch: super::WatchWhen::Never,
                watch_fps: 20,
                watch_every: 1,
            },
        };
        // Python's seeds are signed: keep the engine seed in the positive 63-bit range.
        let engine_seed = (seed >> 1) as i64;
        let mut player = engine_seed as u64;
        let player_seed = (splitmix64(&mut player) >> 1) as i64;
        let (report, json) = play_match(&args, engine_seed, player_seed)?;
        if let Some(path) = &replay {
            std::fs::write(path, json.to_string() + "\n")
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        }
        Ok(crate::tournament::result_of(fixture, seed, &report, replay))
    }
}

/// The players of each map, in order (for the tournament schedule).
pub fn map_players(maps: &[PathBuf]) -> anyhow::Result<Vec<usize>> {
    maps.iter()
        .map(|m| {
            let map = AntsMap::parse(&read_map(m)?)
                .map_err(|e| anyhow::anyhow!("{}: {e}", m.display()))?;
            Ok(map.players as usize)
        })
        .collect()
}
