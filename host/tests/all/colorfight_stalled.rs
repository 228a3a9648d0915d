//! `arena serve colorfight` against clients that pipeline requests and never read the answers:
//! the server drops each of them (its answers cannot be written), stays responsive (the example
//! bot joins, plays and sees the end), and the kernel's socket memory stays bounded.
//!
//! CI runs it with 20 such clients. The figures of docs/colorfight-server.md are from
//! `ARENA_STALLED_CLIENTS=200 cargo test -p arena-host --test all colorfight_stalled -- --nocapture`,
//! and, for the server before the fix, the same with `ARENA_UNDER_TEST=<that arena binary>`.

use crate::common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Kernel memory of every TCP socket, in pages (`/proc/net/sockstat`, `TCP: ... mem N`).
fn tcp_mem_pages() -> u64 {
    let text = std::fs::read_to_string("/proc/net/sockstat").unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with("TCP:"))
        .and_then(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "mem")?;
            words.get(i + 1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// Bytes queued in the server's own sockets (local port `port`): answers not yet read by their
/// client (`tx_queue`) and requests not yet read by the server (`rx_queue`), from /proc/net/tcp.
fn server_queued_bytes(port: u16) -> u64 {
    let text = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let local_port = words.get(1)?.rsplit(':').next()?;
            if u16::from_str_radix(local_port, 16).ok()? != port {
                return None;
            }
            let (tx, rx) = words.get(4)?.split_once(':')?;
            Some(u64::from_str_radix(tx, 16).ok()? + u64::from_str_radix(rx, 16).ok()?)
        })
        .sum()
}

/// Each flooding client's send buffer, in bytes (the kernel doubles it).
const CLIENT_BUFFER: usize = 64 * 1024;

/// One client that pipelines `getgameinfo` requests and never reads: it writes until the server
/// stops taking them, and again after each time the server drops it (counted in `dropped`), until
/// `stop`. `blocked` counts the clients whose writes have stalled at least once.
fn flood(port: u16, stop: Arc<AtomicBool>, dropped: Arc<AtomicU64>, blocked: Arc<AtomicU64>) {
    let body = r#"{"protocol":2}"#;
    let request = format!(
        "POST /getgameinfo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let burst = request.repeat(64);
    let mut stalled_once = false;
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let _ = s.set_write_timeout(Some(Duration::from_millis(200)));
        // Its own send buffer small, as a client's on its own machine would not count here: the
        // machine-wide TCP memory is then the server's.
        let _ = nix::sys::socket::setsockopt(&s, nix::sys::socket::sockopt::SndBuf, &CLIENT_BUFFER);
        loop {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            match s.write(burst.as_bytes()) {
                Ok(_) => {}
                Err(e)
                    if e.kind() == std::io::ErrorKind::WouldBlock
                        || e.kind() == std::io::ErrorKind::TimedOut =>
                {
                    if !stalled_once {
                        stalled_once = true;
                        blocked.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Err(_) => {
                    dropped.fetch_add(1, Ordering::Relaxed);
                    break;
                }
            }
        }
    }
}

/// The server's report, once it has ended (killed if it has not within a minute: a guard).
fn finish(
    server: &mut std::process::Child,
    out: &mut BufReader<std::process::ChildStdout>,
) -> String {
    let mut report = String::new();
    let until = Instant::now() + Duration::from_secs(60);
    while server.try_wait().unwrap().is_none() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = server.kill();
    let _ = server.wait();
    out.read_to_string(&mut report).unwrap();
    report
}

/// `arena serve colorfight` (the binary `bin`) on a free port: the process, its stdout after the
/// first line, and the port that line gives.
fn start(
    bin: &std::ffi::OsStr,
) -> (
    std::process::Child,
    BufReader<std::process::ChildStdout>,
    u16,
) {
    let mut server = Command::new(bin)
        .args(["serve", "colorfight", "--port", "0", "--players", "1"])
        .args(["--bot", "expander", "--size", "16x16", "--ticks", "150"])
        .args(["--seed", "7", "--linger-s", "1", "--json"])
        .current_dir(workspace())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let port: u16 = first
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    (server, out, port)
}

#[test]
fn clients_that_never_read_are_dropped_and_the_server_stays_responsive() {
    let clients: usize = std::env::var("ARENA_STALLED_CLIENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let bin =
        std::env::var_os("ARENA_UNDER_TEST").unwrap_or_else(|| env!("CARGO_BIN_EXE_arena").into());
    let before = tcp_mem_pages();
    let (mut server, mut out, port) = start(&bin);

    let stop = Arc::new(AtomicBool::new(false));
    let dropped = Arc::new(AtomicU64::new(0));
    let blocked = Arc::new(AtomicU64::new(0));
    let flooders: Vec<_> = (0..clients)
        .map(|_| {
            let (stop, dropped, blocked) = (stop.clone(), dropped.clone(), blocked.clone());
            std::thread::spawn(move || flood(port, stop, dropped, blocked))
        })
        .collect();
    // The peaks of the kernel's TCP memory (every socket of the machine, the clients' too) and of
    // the bytes queued in the server's sockets, sampled while the flood lasts.
    let peak = Arc::new(AtomicU64::new(before));
    let queued = Arc::new(AtomicU64::new(0));
    let sampler = {
        let (stop, peak, queued) = (stop.clone(), peak.clone(), queued.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                peak.fetch_max(tcp_mem_pages(), Ordering::Relaxed);
                queued.fetch_max(server_queued_bytes(port), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    // Every client's writes have stalled once (caps against a hang, not measures).
    let until = Instant::now() + Duration::from_secs(120);
    while blocked.load(Ordering::Relaxed) < clients as u64 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    // The example bot plays the whole game through the flood.
    let bot = Command::new("python3")
        .args(["host/examples/colorfight_http_bot.py"])
        .arg(format!("http://127.0.0.1:{port}/"))
        .args(["--name", "example"])
        .current_dir(workspace())
        .output()
        .unwrap();
    // Each flooder dropped at least once.
    let until = Instant::now() + Duration::from_secs(120);
    while dropped.load(Ordering::Relaxed) < clients as u64 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let during = peak.load(Ordering::Relaxed);
    let queued = queued.load(Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    for f in flooders {
        f.join().unwrap();
    }
    sampler.join().unwrap();
    let report = finish(&mut server, &mut out);
    let page_kb = 4;
    eprintln!(
        "{clients} never-reading clients: TCP mem {} KB before, peak {} KB during (+{} KB), {} KB \
         after; at most {} KB queued in the server's sockets; {} drops; example bot: {}",
        before * page_kb,
        during * page_kb,
        during.saturating_sub(before) * page_kb,
        tcp_mem_pages() * page_kb,
        queued / 1024,
        dropped.load(Ordering::Relaxed),
        String::from_utf8_lossy(&bot.stdout)
            .lines()
            .last()
            .unwrap_or("")
    );
    eprintln!("server report: {}", report.trim());

    assert!(bot.status.success(), "{}", text(&bot));
    let b: Value = serde_json::from_str(
        String::from_utf8_lossy(&bot.stdout)
            .lines()
            .last()
            .unwrap_or(""),
    )
    .unwrap();
    assert_eq!(b["uid"], 1, "{b}");
    assert!(b["accepted"].as_u64().unwrap() >= 2, "{b}");
    assert!(
        b["time"].as_f64() >= b["end_time"].as_f64(),
        "it saw the end: {b}"
    );
    assert!(
        dropped.load(Ordering::Relaxed) >= clients as u64,
        "{} of {clients} never-reading clients dropped",
        dropped.load(Ordering::Relaxed)
    );
    let r: Value = serde_json::from_str(report.trim()).unwrap();
    assert!(
        r["connections"]["stalled"].as_u64().unwrap_or(0) >= clients as u64,
        "{r}"
    );
    // Each connection of the server holds at most its capped buffers (64 KB each way, which the
    // kernel doubles): without the cap, each held megabytes of answers.
    assert!(
        queued <= clients as u64 * 512 * 1024,
        "{} KB queued in the server's sockets for {clients} clients",
        queued / 1024
    );
}
