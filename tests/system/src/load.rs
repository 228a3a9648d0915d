//! `cargo xtask load-test [--arena FILE] [--ticks N] [--seed S]`: `arena serve colorfight` on
//! loopback, the same seeded game twice with the example HTTP bot
//! (`host/examples/colorfight_http_bot.py`) against `expander`: once alone, once while
//! [`HALF_OPEN`] connections send half a header and wait (reconnecting when the server closes
//! them) and [`FLOODERS`] connections send malformed requests as fast as they are answered. Then
//! the goals: the bot's accepted attacks under load at least 90% of those alone, the clock's
//! lateness p99 under load at most 10 ms (a miss the machine's scheduler made is said, not
//! failed: see [`goals`]), no panic, a bounded peak RSS, both traces verify.
//!
//! `--client "COMMAND ARGS"` plays another client instead (its last line of output is JSON with
//! `accepted`, `attacks` and `cell_num`, as the example bot prints): the original client library
//! was run so, outside CI (docs/colorfight-server.md).
//!
//! Everything stops by itself: the game's length bounds each run, the load stops when the bot
//! ends, and a server that outlives its game by [`GRACE`] is killed and the test fails.

use anyhow::{bail, ensure, Context, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Connections that send part of a request's header and wait.
pub const HALF_OPEN: usize = 300;
/// Connections that send malformed requests, one after the other.
pub const FLOODERS: usize = 20;
/// How long a server may take to end after its bot did.
const GRACE: Duration = Duration::from_secs(30);
/// The goal for the clock: 99% of the ticks at most this late.
const LATE_P99_US: u64 = 10_000;
/// The server's own share of the clock's lateness (the wait for the table's lock): p99 at most this.
const LOCK_P99_US: u64 = 1_000;
/// The bound on the server's peak resident memory, in KiB.
const PEAK_RSS_KB: u64 = 128 * 1024;

/// `cargo xtask load-test`'s options (`arena-system-tests load-test`'s).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The arena binary to run (default: a debug build, built first).
    #[arg(long, value_name = "FILE")]
    pub arena: Option<PathBuf>,
    /// The game's length in ticks.
    #[arg(long, value_name = "N", default_value_t = TICKS)]
    pub ticks: u32,
    /// The game's seed.
    #[arg(long, value_name = "S", default_value_t = SEED)]
    pub seed: u64,
    /// Another client: its command and arguments in one word, the server's URL added;
    /// its last line of output is JSON with `accepted`, `attacks` and `cell_num`,
    /// as the example bot prints.
    #[arg(long, value_name = "CMD ARGS", verbatim_doc_comment)]
    pub client: Option<String>,
}

/// The default game: 300 ticks, seed 7.
pub const TICKS: u32 = 300;
pub const SEED: u64 = 7;

struct Options {
    arena: PathBuf,
    ticks: u32,
    seed: u64,
    /// The client's command (words), the server's URL added; by default the example bot.
    client: Vec<String>,
}

/// What one game gave.
struct Run {
    /// The bot's closing line.
    bot: Value,
    /// The server's JSON report.
    report: Value,
    load: Option<Tally>,
}

/// What the load sent and got.
#[derive(Default)]
struct Tally {
    /// Half-open connections made (the first ones and those made again after the server closed one).
    connects: u64,
    /// Malformed requests sent.
    sent: u64,
    /// Their answers by HTTP status (0: none before the connection closed or 2 s passed).
    statuses: BTreeMap<u16, u64>,
}

pub fn run(args: Args) -> Result<()> {
    let o = options(args)?;
    let work = crate::root().join("target/load-test");
    std::fs::create_dir_all(&work)?;
    // A panic, a failed server or a trace that does not verify fails at once; a goal missed is
    // tried once more, as a stall of this shared machine can cost the bot an attack or two.
    for attempt in 1.. {
        let alone = game(&o, &work.join("alone.jsonl"), false)?;
        let loaded = game(&o, &work.join("loaded.jsonl"), true)?;
        table(&o, &alone, &loaded);
        match goals(&alone, &loaded) {
            Err(e) if attempt == 1 => println!("{e:#}: both games once more"),
            done => return done,
        }
    }
    unreachable!("the loop returns")
}

fn options(args: Args) -> Result<Options> {
    let arena = match args.arena {
        Some(a) => a,
        None => {
            crate::run("cargo", &["build", "-p", "arena-host", "--bin", "arena"])?;
            crate::root().join("target/debug/arena")
        }
    };
    Ok(Options {
        arena,
        ticks: args.ticks,
        seed: args.seed,
        client: match args.client {
            Some(c) => c.split_whitespace().map(String::from).collect(),
            None => vec![
                "python3".into(),
                crate::root()
                    .join("host/examples/colorfight_http_bot.py")
                    .to_string_lossy()
                    .into_owned(),
            ],
        },
    })
}

/// One game: the server, the load if `loaded`, the bot; the server's report checked and its trace
/// verified.
fn game(o: &Options, trace: &Path, loaded: bool) -> Result<Run> {
    let name = if loaded { "loaded" } else { "alone" };
    let err_file = trace.with_extension("err");
    let mut server = Command::new(&o.arena)
        .args(["serve", "colorfight", "--port", "0", "--players", "1"])
        .args(["--bot", "expander", "--ticks", &o.ticks.to_string()])
        .args(["--seed", &o.seed.to_string(), "--linger-s", "1", "--json"])
        .arg("--replay")
        .arg(trace)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&err_file)?)
        .spawn()
        .with_context(|| format!("cannot start {}", o.arena.display()))?;
    let mut out = BufReader::new(server.stdout.take().context("no stdout")?);
    let mut first = String::new();
    out.read_line(&mut first)?;
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .with_context(|| format!("no address in {first:?}"))?
        .to_string();
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()?;
    let load = loaded.then(|| Load::start(addr)).transpose()?;
    if load.is_some() {
        // The half-open connections are in place before the bot joins (which starts the clock).
        std::thread::sleep(Duration::from_secs(1));
    }
    eprintln!(
        "xtask load-test: {name}: {} plays {url}",
        o.client.join(" ")
    );
    // In the work folder: the original library leaves its token file where it runs. In a
    // session of its own, as the attackers (see [`Load::start`]): a client is another machine.
    let (program, args) = o.client.split_first().context("--client: no command")?;
    let bot = Command::new("setsid")
        .arg(program)
        .args(args)
        .arg(&url)
        .current_dir(trace.parent().unwrap_or(Path::new(".")))
        .output()
        .with_context(|| format!("cannot run {program}"))?;
    let load = load.map(Load::stop).transpose()?;
    let ended = Instant::now();
    let status = loop {
        if let Some(st) = server.try_wait()? {
            break st;
        }
        if ended.elapsed() > GRACE {
            let _ = server.kill();
            bail!(
                "{name}: the server still ran {} s after the client ended (a game that never started: the client could not join?); the client said: {}",
                GRACE.as_secs(),
                String::from_utf8_lossy(&bot.stdout).trim()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut rest = String::new();
    out.read_to_string(&mut rest)?;
    let err = std::fs::read_to_string(&err_file).unwrap_or_default();
    ensure!(
        status.success() && !err.contains("panicked"),
        "{name}: the server failed ({status}): {err}"
    );
    let report: Value = serde_json::from_str(rest.trim())
        .with_context(|| format!("{name}: no JSON report in {rest:?}"))?;
    let line = String::from_utf8_lossy(&bot.stdout);
    let bot: Value = serde_json::from_str(line.lines().last().unwrap_or(""))
        .with_context(|| format!("{name}: the bot's last line is not JSON: {line}"))?;
    let verified = Command::new(&o.arena)
        .args(["verify", "colorfight"])
        .arg(trace)
        .output()?;
    ensure!(
        verified.status.success(),
        "{name}: the trace does not verify: {}",
        String::from_utf8_lossy(&verified.stderr)
    );
    Ok(Run { bot, report, load })
}

/// The load, in a process of its own (`arena-system-tests load-gen ADDR`, see [`generate`]) until
/// [`Load::stop`] closes its stdin.
struct Load {
    child: std::process::Child,
}

impl Load {
    /// Starts the load generator in a session of its own (`setsid`): Linux shares the CPU between
    /// sessions first (autogroups), so the attackers, which share this machine's cores with the
    /// server only because the test runs on loopback, are charged to a session of their own, as
    /// another machine's would be, not to the server's (spawned by this one, in its session).
    fn start(addr: SocketAddr) -> Result<Load> {
        let child = Command::new("setsid")
            // This very binary through /proc: a build during `cargo xtask test` (cargo
            // test's) may have replaced the file it was started from.
            .arg(format!("/proc/{}/exe", std::process::id()))
            .args(["load-gen", &addr.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .context("cannot start the load generator (setsid, util-linux)")?;
        Ok(Load { child })
    }

    fn stop(mut self) -> Result<Tally> {
        drop(self.child.stdin.take());
        let out = self.child.wait_with_output()?;
        let v: Value = serde_json::from_slice(&out.stdout).context("the load generator's tally")?;
        let n = |k: &str| v[k].as_u64().unwrap_or(0);
        Ok(Tally {
            connects: n("connects"),
            sent: n("sent"),
            statuses: v["statuses"]
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, n)| Some((k.parse().ok()?, n.as_u64()?)))
                .collect(),
        })
    }
}

/// `arena-system-tests load-gen ADDR`: the half-open connections and the flooders against ADDR until
/// stdin closes, then the tally as one JSON line.
pub fn generate(addr: SocketAddr) -> Result<()> {
    let threads = Threads::start(addr);
    let _ = std::io::copy(&mut std::io::stdin(), &mut std::io::sink());
    let t = threads.stop();
    println!(
        "{}",
        serde_json::json!({"connects": t.connects, "sent": t.sent, "statuses": t.statuses})
    );
    Ok(())
}

/// The half-open connections and the flooders, each a thread until [`Threads::stop`].
struct Threads {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<Tally>>,
}

impl Threads {
    fn start(addr: SocketAddr) -> Threads {
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        let s = stop.clone();
        threads.push(std::thread::spawn(move || half_open(addr, &s)));
        for i in 0..FLOODERS {
            let s = stop.clone();
            threads.push(std::thread::spawn(move || flood(addr, i, &s)));
        }
        Threads { stop, threads }
    }

    fn stop(self) -> Tally {
        self.stop.store(true, Ordering::Relaxed);
        let mut all = Tally::default();
        for t in self.threads {
            let Ok(t) = t.join() else { continue };
            all.connects += t.connects;
            all.sent += t.sent;
            for (k, n) in t.statuses {
                *all.statuses.entry(k).or_default() += n;
            }
        }
        all
    }
}

/// [`HALF_OPEN`] connections that each send half a header and wait; one the server closed is
/// made again 50 ms later (a slowloris keeps its connections up).
fn half_open(addr: SocketAddr, stop: &AtomicBool) -> Tally {
    let mut tally = Tally::default();
    let mut conns: Vec<Option<TcpStream>> = (0..HALF_OPEN).map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        for c in conns.iter_mut() {
            if c.as_mut().is_some_and(closed) {
                *c = None;
            }
            if c.is_none() {
                *c = TcpStream::connect_timeout(&addr, Duration::from_secs(1))
                    .and_then(|mut s| {
                        s.write_all(b"POST /attack HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")?;
                        s.set_nonblocking(true)?;
                        Ok(s)
                    })
                    .ok();
                tally.connects += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    tally
}

/// Whether the server closed `s` (or answered it, which it does only to close it).
fn closed(s: &mut TcpStream) -> bool {
    match s.read(&mut [0; 512]) {
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
        // End of file, or an answer (an error the server closes after).
        Ok(0 | 1..) => true,
    }
}

/// The malformed requests a flooder sends in turn.
fn malformed() -> Vec<Vec<u8>> {
    let post = |path: &str, body: &[u8]| {
        let mut r = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        r.extend_from_slice(body);
        r
    };
    let big = format!(r#"{{"name":"{}"}}"#, "x".repeat(100 * 1024));
    let long_header = format!(
        "POST /getgameinfo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Field: {}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
        "y".repeat(100 * 1024)
    );
    vec![
        post("/attack", br#"{"cellx": 1, "celly": "#),
        post("/joingame", br#"{"name": "trunc"#),
        post("/attack", br#"{"cellx":"1","celly":[2],"token":{"a":1}}"#),
        post("/attack", br#"{"cellx":1e309,"celly":0,"token":"x"}"#),
        post("/attack", br#"{"cellx":123456789012345678901234567890,"celly":1,"token":"x"}"#),
        post("/joingame", b"{\"name\":\"\xff\xfe\xc3\x28\"}"),
        post("/getgameinfo", br#"{"timeAfter":-1e308}"#),
        post("/joingame", big.as_bytes()),
        long_header.into_bytes(),
        b"POST /attack HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 999999999999\r\nConnection: close\r\n\r\n{}".to_vec(),
        post("/admin/../../etc/passwd", b"{}"),
        b"GET /nothing/here HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n".to_vec(),
    ]
}

/// One flooder: the malformed requests in turn (flooder `i` starting at the `i`-th), each on its
/// own connection, the next as soon as the last is answered or 2 s passed.
fn flood(addr: SocketAddr, i: usize, stop: &AtomicBool) -> Tally {
    let requests = malformed();
    let mut tally = Tally::default();
    let mut k = i;
    while !stop.load(Ordering::Relaxed) {
        let request = &requests[k % requests.len()];
        k += 1;
        tally.sent += 1;
        let status = TcpStream::connect_timeout(&addr, Duration::from_secs(1))
            .and_then(|mut s| {
                s.set_read_timeout(Some(Duration::from_secs(2)))?;
                s.set_write_timeout(Some(Duration::from_secs(2)))?;
                // The server may answer (and close) before a long request is all sent.
                let _ = s.write_all(request);
                let mut head = [0; 64];
                let n = s.read(&mut head)?;
                Ok(std::str::from_utf8(&head[..n])
                    .ok()
                    .and_then(|h| h.split_whitespace().nth(1))
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0))
            })
            .unwrap_or(0);
        *tally.statuses.entry(status).or_default() += 1;
    }
    tally
}

fn clock(r: &Run, key: &str) -> u64 {
    r.report["clock"][key].as_u64().unwrap_or(u64::MAX)
}

fn ms(us: u64) -> String {
    format!("{:.1}", us as f64 / 1000.0)
}

fn table(o: &Options, alone: &Run, loaded: &Run) {
    println!(
        "arena serve colorfight, {} ticks, seed {}, `{}` against expander; load: {HALF_OPEN} half-open connections, {FLOODERS} flooders",
        o.ticks,
        o.seed,
        o.client.join(" ")
    );
    println!("| Run | Accepted attacks | Attacks sent | Cells at the end | Tick lateness p99 (ms) | max (ms) | woke p99 (ms) | lock wait p99 (ms) | step p99 (ms) | max (ms) | Clock nice | Peak RSS (KiB) | Connections accepted | evicted |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, r) in [("alone", alone), ("loaded", loaded)] {
        let c = &r.report["connections"];
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.bot["accepted"],
            r.bot["attacks"],
            r.bot["cell_num"],
            ms(clock(r, "late_p99_us")),
            ms(clock(r, "late_max_us")),
            ms(clock(r, "woke_p99_us")),
            ms(clock(r, "lock_p99_us")),
            ms(clock(r, "step_p99_us")),
            ms(clock(r, "step_max_us")),
            r.report["clock"]["nice"],
            r.report["peak_rss_kb"],
            c["accepted"],
            c["evicted"]
        );
    }
    if let Some(t) = &loaded.load {
        let statuses: Vec<String> = t
            .statuses
            .iter()
            .map(|(s, n)| match s {
                0 => format!("{n} unanswered"),
                s => format!("{n} x {s}"),
            })
            .collect();
        println!(
            "load: {} half-open connections made, {} malformed requests sent: {}",
            t.connects,
            t.sent,
            statuses.join(", ")
        );
    }
}

fn goals(alone: &Run, loaded: &Run) -> Result<()> {
    let accepted = |r: &Run| r.bot["accepted"].as_u64().unwrap_or(0);
    let mut failed = Vec::new();
    if accepted(loaded) * 10 < accepted(alone) * 9 {
        failed.push(format!(
            "accepted attacks under load {} < 90% of {} alone",
            accepted(loaded),
            accepted(alone)
        ));
    }
    if accepted(alone) == 0 {
        failed.push("the bot had no attack accepted alone".into());
    }
    // The goal is 10 ms. A tick is late either because its thread woke late (the kernel had no
    // core for it: on a shared machine other processes' doing too) or because it waited for the
    // table's lock (requests: the server's own doing). A miss where the lock wait stayed under
    // [`LOCK_P99_US`] and the wake-ups were late is the machine's: said, not failed.
    let p99 = clock(loaded, "late_p99_us");
    if p99 > LATE_P99_US {
        let lock = clock(loaded, "lock_p99_us");
        let woke = clock(loaded, "woke_p99_us");
        let why = format!(
            "tick lateness p99 under load {} ms > {} ms (woke late: p99 {} ms; lock wait p99 {} ms)",
            ms(p99),
            ms(LATE_P99_US),
            ms(woke),
            ms(lock)
        );
        if lock <= LOCK_P99_US && woke > LATE_P99_US {
            println!("load test: {why}: the machine's scheduler, not the server (not failed)");
        } else {
            failed.push(why);
        }
    }
    for (name, r) in [("alone", alone), ("loaded", loaded)] {
        let rss = r.report["peak_rss_kb"].as_u64().unwrap_or(u64::MAX);
        if rss > PEAK_RSS_KB {
            failed.push(format!("{name}: peak RSS {rss} KiB > {PEAK_RSS_KB} KiB"));
        }
    }
    if failed.is_empty() {
        println!("load test: every goal met (no panic, both traces verify)");
        Ok(())
    } else {
        bail!("load test: {}", failed.join("; "))
    }
}
