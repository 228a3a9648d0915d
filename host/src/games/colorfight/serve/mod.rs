//! `arena serve colorfight`: the HTTP API of the original ColorFight server (`app.py`, October
//! 2018), so that bots written for its client library play against this engine unchanged.
//!
//! ## Why its own driver, not seats behind a `Protocol`
//! The match loop ([`crate::play`]) asks each bot and waits for its answer; the server's clients
//! are the other way round: they poll the game and send an action whenever they like, join late,
//! and join again when defeated. So the server drives the same core game and the same trace
//! ([`super::trace`]) itself, in real time:
//! - **The clock** is a thread of its own: tick `T` is stepped at `start + (T + 1) * 100 ms` on
//!   the monotonic clock (late ticks are caught up at once, none is skipped), whatever the
//!   clients do. Built-in bots (`--bot`) move in that thread, every tick, as in `arena play`.
//! - **Requests** are served by hyper's HTTP/1 server on a single-threaded tokio runtime: one
//!   event loop for every connection, no thread per request. An action waits for the next tick
//!   and is answered with what the rules made of it (the server's `err_code`); everything else
//!   is answered at once. A seat takes one waiting action per tick and keeps at most
//!   [`table::QUEUE`]; more are refused at once (the server's cool-down error).
//! - **Slow and hostile clients**: at most [`MAX_CONNECTIONS`] connections; when they are all
//!   open, a newcomer takes the slot of the one idle the longest ([`conns`]: no request in
//!   progress), so connections that send half a header and wait cannot lock working clients out.
//!   Headers within [`HEADER_TIME`] (idle keep-alive connections too), bodies of at most
//!   [`MAX_BODY`] bytes within [`BODY_TIME`], and no connection lives past [`CONNECTION_TIME`].
//!   A client that never reads its answers holds at most [`stall::SOCKET_BUFFER`] bytes of
//!   them in the kernel and is dropped once an answer has waited [`stall::WRITE_TIME`]
//!   ([`stall`]). None of it can hold up the clock, which only takes
//!   the table's lock for a step; how late its ticks came is in the end report.
//! - **Time**: every time field is the game's start (Unix time, when the lobby filled) plus
//!   tick / 10 s; in the lobby the start is "now". After the last tick `/getgameinfo`'s `time`
//!   runs on with the monotonic clock past `end_time`, as the server's wall clock did (rules
//!   decision 10), so clients that wait for `time > end_time` stop while the server lingers.
//! - **Seats**: `--players N` seats for clients (uids 1 to N, in order of joining; a token
//!   per seat), then one per `--bot`. The clock starts when the N seats are taken, or at the
//!   lobby's deadline (`--join-s`); seats nobody took can be taken until the rules' respawn window
//!   closes (5 minutes), and a defeated client seat is given back (new token, same uid, a new
//!   start at the next tick) to the next client that joins, preferably one of the same name.
//!   The rules run in their server-compatible mode ([`Respawn::OnJoin`]): nobody respawns
//!   without joining again.

pub mod api;
pub mod conns;
pub mod stall;
pub mod table;

use crate::error::{Error, Result};
use crate::play::{MatchReport, SeatReport};
use crate::record::LineWriter;
use api::Reply;
use arena_core::games::colorfight::{ColorFight, Params, Respawn, Variant};
use arena_core::{Game, Roster};
use bytes::Bytes;
use conns::{Conns, Slot};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use table::{Phase, Table};

/// Connections open at once; a newcomer beyond them evicts the connection idle the longest
/// ([`conns`]).
pub const MAX_CONNECTIONS: usize = 256;
/// A request's headers (or the next request on a kept-alive connection) must come within this.
pub const HEADER_TIME: Duration = Duration::from_secs(10);
/// A request's body: at most this many bytes, within this long.
pub const MAX_BODY: usize = 64 * 1024;
/// The time a request's body has to arrive in (see [`MAX_BODY`]).
pub const BODY_TIME: Duration = Duration::from_secs(10);
/// No connection lives longer (an action waiting for the lobby to fill is the longest wait).
pub const CONNECTION_TIME: Duration = Duration::from_secs(600);
const TICK: Duration = Duration::from_millis(100);

/// `arena serve colorfight`'s options.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The rules' variant.
    pub variant: Variant,
    /// The grid: width and height.
    pub size: (u16, u16),
    /// Game length in 100 ms ticks.
    pub ticks: u32,
    /// Seats for HTTP clients: the clock starts when this many have joined.
    pub players: usize,
    /// Built-in bots, a seat each, after the clients' seats.
    pub bots: Vec<String>,
    /// Start the clock this many seconds after the server opened even if seats are free; 0: wait
    /// for every client.
    pub join_s: f64,
    /// Seed for the map, the rules' draws and the built-in bots.
    pub seed: u64,
    /// Where to listen.
    pub addr: SocketAddr,
    /// Write the match here as `arena play colorfight --replay` does.
    pub replay: Option<PathBuf>,
    /// Record the state in the trace every this many ticks (and at the end).
    pub state_every: u32,
    /// Keep answering this many seconds after the game ended, so clients see the end.
    pub linger_s: f64,
    /// Print the report as JSON instead of text.
    pub json: bool,
}

/// The table behind its lock, and the clock's alarm (the lobby filled).
struct Shared {
    table: Mutex<Table>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs the server until the game is over and the clients have had time to see the end.
pub fn run(o: &ServeOptions) -> Result<()> {
    let (table, params) = open_table(o)?;
    let shared = Arc::new(Shared {
        table: Mutex::new(table),
        wake: Condvar::new(),
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()?;
    let addr = o.addr;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|error| Error::Listen { addr, error })?;
    let bound = listener.local_addr()?;
    println!(
        "arena serve colorfight: listening on http://{bound}/ ({} {}x{}, {} ticks, seed {}; {} client seats{}{})",
        params.variant.name(),
        params.width,
        params.height,
        params.ticks,
        o.seed,
        o.players,
        if o.bots.is_empty() { String::new() } else { format!(", bots {}", o.bots.join(" ")) },
        if o.players == 0 { "" } else { "; the clock starts when they have joined" },
    );
    let _ = std::io::stdout().flush();
    let conns = Conns::new(MAX_CONNECTIONS);
    let clock = serve_until_over(&runtime, listener, &shared, &conns, o.linger_s)?;
    // Connections still open are dropped with the runtime.
    drop(runtime);
    let health = Health {
        clock,
        conns: conns.counts(),
        peak_rss_kb: peak_rss_kb(),
    };
    print_end(o, &shared.lock(), &health);
    Ok(())
}

/// The table of `o`'s match, its lobby open: the game, the client seats, the built-in bots and
/// the trace; with the game's params.
fn open_table(o: &ServeOptions) -> Result<(Table, Params)> {
    let seats = o.players + o.bots.len();
    let most = arena_core::games::colorfight::MAX_PLAYERS;
    if !(2..=most).contains(&seats) {
        return Err(Error::Players {
            game: ColorFight::NAME,
            least: 2,
            most,
            clients: o.players,
            bots: o.bots.len(),
        });
    }
    let seed = o.seed;
    let params = Params {
        variant: o.variant,
        width: o.size.0,
        height: o.size.1,
        players: seats as u8,
        ticks: o.ticks,
        respawn: Respawn::OnJoin,
    };
    let game = Box::new(ColorFight::new(&params, seed).map_err(Error::Setup)?);
    let mut bots = Vec::new();
    for (i, name) in o.bots.iter().enumerate() {
        let seat = o.players + i;
        let bot =
            ColorFight::bot(name, arena_core::rng::bot_seed(seed, seat)).ok_or_else(|| {
                Error::NotBuiltin {
                    game: ColorFight::NAME,
                    name: name.clone(),
                    bots: ColorFight::BOTS,
                }
            })?;
        bots.push((name.clone(), bot));
    }
    let trace = LineWriter::create(o.replay.as_deref())?;
    let mut table = Table::new(game, o.players, bots, trace, o.state_every);
    if o.join_s > 0.0 {
        table.lobby_deadline = Some(table::now_unix() + o.join_s);
    }
    table.maybe_start();
    Ok((table, params))
}

/// Serves `listener` on `runtime` while the clock runs the match, and `linger_s` seconds more;
/// how late the clock's ticks came.
fn serve_until_over(
    runtime: &tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    shared: &Arc<Shared>,
    conns: &Arc<Conns>,
    linger_s: f64,
) -> Result<Clock> {
    let (over_tx, over_rx) = tokio::sync::oneshot::channel::<()>();
    let clock = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("colorfight-clock".into())
            .spawn(move || {
                let clock = run_clock(&shared);
                let _ = over_tx.send(());
                clock
            })?
    };
    let linger = Duration::from_secs_f64(linger_s.max(0.0));
    runtime.block_on(async {
        let serving = accept(listener, shared.clone(), conns.clone());
        let ending = async {
            let _ = over_rx.await;
            tokio::time::sleep(linger).await;
        };
        tokio::select! {
            () = serving => {}
            () = ending => {}
        }
    });
    Ok(clock.join().unwrap_or_default())
}

/// The report, and where the replay went.
fn print_end(o: &ServeOptions, table: &Table, health: &Health) {
    let mut report = report(table, o.seed);
    health.add_to(&mut report.summary);
    if o.json {
        println!("{}", report.json());
    } else {
        // HTTP players name themselves: no control character reaches the terminal.
        print!("{}", crate::out::escape_controls(&report.to_string()));
    }
    if let Some(path) = &o.replay {
        match table.write_error() {
            Some(e) => eprintln!("replay {}: write failed: {e}", path.display()),
            None => eprintln!("replay written to {}", path.display()),
        }
    }
}

/// How much the clock thread raises its CPU priority, where it may (root, `CAP_SYS_NICE`, or an
/// `RLIMIT_NICE` that allows it): on a busy machine a tick due now otherwise waits for a time
/// slice behind every runnable thread, the server's own event loop included.
const CLOCK_NICE: i32 = -10;

/// The clock: waits for the lobby, then steps every 100 ms on the wall clock until the end; how
/// late each step began (the thread woke, then the table's lock taken) after its due time.
fn run_clock(shared: &Shared) -> Clock {
    // Linux gives each thread its own nice value: this is the clock's alone. Refused: it stays.
    let nice = rustix::process::nice(CLOCK_NICE)
        .or_else(|_| rustix::process::getpriority_process(None))
        .unwrap_or(0);
    let mut clock = Clock {
        nice,
        ..Clock::default()
    };
    let since = loop {
        let mut t = shared.lock();
        t.maybe_start();
        if let Phase::Running { since, .. } = t.phase {
            break since;
        }
        if t.is_over() {
            return clock;
        }
        let _ = shared.wake.wait_timeout(t, Duration::from_millis(50));
    };
    let mut next: u32 = 1;
    loop {
        let due = since + TICK * next;
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        }
        let woke = Instant::now();
        let mut t = shared.lock();
        let stepped = Instant::now();
        clock.woke.push(woke.saturating_duration_since(due));
        clock.late.push(stepped.saturating_duration_since(due));
        clock.held.push(stepped - woke);
        t.step();
        clock.step.push(stepped.elapsed());
        if t.is_over() {
            return clock;
        }
        drop(t);
        next = next.saturating_add(1);
    }
}

/// How late the clock's ticks were: when its thread woke and when the step began (the table's
/// lock taken), each after the tick's due time, and the wait for the lock between them (the
/// server's own share: a late wake-up is the scheduler's); and the nice value it ran at.
#[derive(Default)]
struct Clock {
    woke: Vec<Duration>,
    late: Vec<Duration>,
    held: Vec<Duration>,
    /// How long each step took (the rules, the trace line, the answers): a step longer than a
    /// tick makes the next one late however early its thread wakes.
    step: Vec<Duration>,
    nice: i32,
}

/// How the server held up: its clock, what the connection slots saw, and the process's peak
/// resident memory, for the end report (a load test reads them there).
struct Health {
    clock: Clock,
    conns: conns::Counts,
    peak_rss_kb: Option<u64>,
}

/// The 99th percentile and the maximum of `times`, in microseconds.
fn p99_max_us(times: &[Duration]) -> (u64, u64) {
    let mut us: Vec<u64> = times
        .iter()
        .map(|d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
        .collect();
    us.sort_unstable();
    let at = |q: usize| {
        let rank = (us.len() * q).div_ceil(100);
        us.get(rank.saturating_sub(1)).copied().unwrap_or(0)
    };
    (at(99), at(100))
}

impl Health {
    fn add_to(&self, summary: &mut crate::game::Summary) {
        let (p99, max) = p99_max_us(&self.clock.late);
        let (woke_p99, woke_max) = p99_max_us(&self.clock.woke);
        let (held_p99, held_max) = p99_max_us(&self.clock.held);
        let (step_p99, step_max) = p99_max_us(&self.clock.step);
        let c = self.conns;
        let ms = |us: u64| format!("{}.{:03} ms", us / 1000, us % 1000);
        summary.lines.push(format!(
            "clock: {} ticks, lateness p99 {}, max {} (woke: p99 {}, max {}; lock wait: p99 {}, max {}; step: p99 {}, max {}; nice {})",
            self.clock.late.len(),
            ms(p99),
            ms(max),
            ms(woke_p99),
            ms(woke_max),
            ms(held_p99),
            ms(held_max),
            ms(step_p99),
            ms(step_max),
            self.clock.nice
        ));
        summary.lines.push(format!(
            "connections: {} accepted, {} evicted, {} refused, {} dropped for not reading, at most {} open; peak RSS {}",
            c.accepted,
            c.evicted,
            c.refused,
            c.stalled,
            c.peak,
            self.peak_rss_kb
                .map_or("unknown".into(), |kb| format!("{kb} KiB"))
        ));
        let json = serde_json::json!({
            "clock": {
                "ticks": self.clock.late.len(), "late_p99_us": p99, "late_max_us": max,
                "woke_p99_us": woke_p99, "woke_max_us": woke_max,
                "lock_p99_us": held_p99, "lock_max_us": held_max,
                "step_p99_us": step_p99, "step_max_us": step_max, "nice": self.clock.nice,
            },
            "connections": {
                "accepted": c.accepted, "evicted": c.evicted, "refused": c.refused,
                "stalled": c.stalled, "peak": c.peak,
            },
            "peak_rss_kb": self.peak_rss_kb,
        });
        if let serde_json::Value::Object(fields) = json {
            summary.json.extend(fields);
        }
    }
}

/// The process's peak resident memory (`VmHWM` of /proc/self/status), where Linux says it.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Accepts connections for ever, each served on the runtime with the limits above, in a slot of
/// `conns` (an eviction ends its task, which closes it).
async fn accept(listener: tokio::net::TcpListener, shared: Arc<Shared>, conns: Arc<Conns>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors and the like: wait a moment rather than spin.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let Some(slot) = conns.admit() else {
            drop(stream);
            continue;
        };
        stall::cap_buffers(&stream);
        let stream = stall::Stalled::new(stream, stall::WRITE_TIME, conns.stalled());
        let slot = Arc::new(slot);
        let shared = shared.clone();
        let task = tokio::spawn({
            let slot = slot.clone();
            async move {
                let service = hyper::service::service_fn(move |req| {
                    respond(shared.clone(), slot.clone(), req)
                });
                let mut http = hyper::server::conn::http1::Builder::new();
                http.timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIME)
                    .keep_alive(true);
                let conn = http.serve_connection(TokioIo::new(stream), service);
                let _ = tokio::time::timeout(CONNECTION_TIME, conn).await;
            }
        });
        // The task has not run yet (one thread): it cannot have ended before this.
        slot.on_evict(task.abort_handle());
    }
}

fn json_response(status: u16, body: &serde_json::Value) -> Response<Full<Bytes>> {
    json_bytes(status, Bytes::from(body.to_string()))
}

fn json_bytes(status: u16, body: Bytes) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

fn too_large() -> Response<Full<Bytes>> {
    json_response(413, &serde_json::json!({"msg": "Request too large"}))
}

/// One request: its body (bounded in size and time), the table's answer, and, for an action,
/// the wait for its tick.
async fn respond(
    shared: Arc<Shared>,
    slot: Arc<Slot>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().as_str().to_owned();
    let path = req.uri().path().to_owned();
    // A Content-Length past the limit is refused before its body is waited for.
    if hyper::body::Body::size_hint(req.body()).lower() > MAX_BODY as u64 {
        return Ok(too_large());
    }
    let body =
        match tokio::time::timeout(BODY_TIME, Limited::new(req.into_body(), MAX_BODY).collect())
            .await
        {
            Ok(Ok(b)) => b.to_bytes(),
            Ok(Err(_)) => return Ok(too_large()),
            Err(_) => {
                return Ok(json_response(
                    408,
                    &serde_json::json!({"msg": "Request timeout"}),
                ))
            }
        };
    // From here the request is the server's to answer: the connection holds its slot.
    let _busy = slot.busy();
    let reply = {
        let mut t = shared.lock();
        let reply = api::handle(&mut t, &method, &path, &body);
        if matches!(t.phase, Phase::Running { .. }) {
            shared.wake.notify_all();
        }
        reply
    };
    Ok(match reply {
        Reply::Now(status, v) => json_response(status, &v),
        Reply::Info(snapshot, time_after) => {
            let body = Bytes::from(snapshot.info(time_after).to_string());
            if let Some(tick) = snapshot.cache_key(time_after) {
                shared.lock().full_info = Some((tick, body.clone()));
            }
            json_bytes(200, body)
        }
        Reply::Cached(body) => json_bytes(200, body),
        Reply::Later(rx) => match rx.await {
            Ok(v) => json_response(200, &v),
            Err(_) => json_response(200, &table::error(4, "Game is ended")),
        },
        Reply::Page(text) => {
            let mut r = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
            r.headers_mut().insert(
                hyper::header::CONTENT_TYPE,
                hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            r
        }
    })
}

/// The end of the match as `arena play` reports it.
fn report(table: &Table, seed: u64) -> MatchReport {
    let g = &table.game;
    MatchReport {
        game: ColorFight::NAME,
        seed,
        turns: g.tick(),
        outcome: g.outcome(),
        decision: g.decision(),
        seats: table
            .seats
            .iter()
            .map(|s| SeatReport {
                name: match s.driver {
                    table::Driver::Bot(_) => s.name.clone(),
                    table::Driver::Client { .. } => format!("http:{}", s.name),
                },
                faults: Vec::new(),
                disqualified: None,
                refused: s.refused.saturating_add(s.early),
                refused_by: s.refused_by.iter().map(|(&why, &n)| (why, n)).collect(),
                passes: 0,
                // The server's clients answer on their own time: no turn is timed.
                times: Default::default(),
            })
            .collect(),
        summary: crate::game::Summary {
            lines: table
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.joins > 1)
                .map(|(i, s)| format!("seat {i} ({}) joined {} times", s.name, s.joins))
                .collect(),
            json: Default::default(),
        },
    }
}
