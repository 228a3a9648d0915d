//! `arena serve colorfight`: a Python client written against the original server's endpoints
//! plays a short game against a built-in bot through real HTTP, and the trace verifies; bad
//! requests (unknown tokens, malformed JSON, far cells, floods, clients that never read or never
//! finish their headers) get the server's answers while the game goes on, on time. Every server
//! listens on a port the system picks (`--port 0`).

use crate::common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `arena serve colorfight`, killed if the test ends early.
struct Served {
    child: Child,
    port: u16,
    out: BufReader<std::process::ChildStdout>,
}

impl Served {
    /// Starts `arena serve colorfight --port 0` with `options` (an [`Arena`] begun by
    /// [`Served::options`]).
    fn start(options: Arena) -> Served {
        let mut child = options
            .command()
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start arena serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let port = first
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        Served { child, port, out }
    }

    /// `arena serve colorfight --port 0`, to add options to.
    fn options() -> Arena {
        Arena::new(&["serve", "colorfight", "--port", "0"])
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Waits for the end; the report (stdout after the first line) and stderr.
    fn finish(mut self, within: Duration) -> (String, String) {
        let t = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut report = String::new();
                self.out.read_to_string(&mut report).unwrap();
                let mut err = String::new();
                self.child
                    .stderr
                    .take()
                    .unwrap()
                    .read_to_string(&mut err)
                    .unwrap();
                assert!(status.success(), "arena serve failed: {report}{err}");
                return (report, err);
            }
            assert!(
                t.elapsed() < within,
                "arena serve still running after {within:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        post(self.port, path, body)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 POST on its own connection: the status and the JSON body.
fn post(port: u16, path: &str, body: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "POST /{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {raw:?}"));
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

fn code(r: &(u16, Value)) -> i64 {
    assert_eq!(r.0, 200, "{r:?}");
    r.1["err_code"]
        .as_i64()
        .unwrap_or_else(|| panic!("no err_code: {r:?}"))
}

fn verify(trace: &std::path::Path) -> String {
    verifies("colorfight", trace, &[])
}

#[test]
fn a_python_client_joins_plays_and_finishes_and_the_trace_verifies() {
    let (_dir, trace) = scratch("served.jsonl");
    let served = Served::start(
        Served::options()
            .args(&["--players", "1"])
            .bots(&["expander"])
            .args(&["--size", "8x8", "--ticks", "60", "--seed", "3"])
            .args(&["--state-every", "10", "--linger-s", "1", "--json"])
            .replay(&trace),
    );
    let bot = Command::new("python3")
        .args([
            "host/examples/colorfight_http_bot.py",
            &served.url(),
            "--name",
            "py",
        ])
        .current_dir(workspace())
        .output()
        .expect("run python3");
    let (report, _) = served.finish(Duration::from_secs(120));
    assert!(bot.status.success(), "{}", text(&bot));
    let line = String::from_utf8_lossy(&bot.stdout);
    let b: Value = serde_json::from_str(line.lines().last().unwrap_or("")).unwrap();
    assert_eq!(b["uid"], 1, "{b}");
    assert_eq!(b["joins"], 1, "{b}");
    assert!(b["accepted"].as_u64().unwrap() >= 2, "{b}");
    assert!(b["cell_num"].as_u64().unwrap() >= 2, "{b}");
    assert!(
        b["time"].as_f64() >= b["end_time"].as_f64(),
        "it saw the end: {b}"
    );
    let r: Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(r["turns"], 60, "{r}");
    assert_eq!(r["seats"][0]["bot"], "http:py");
    assert_eq!(r["seats"][1]["bot"], "expander");
    for seat in r["seats"].as_array().unwrap() {
        let by = seat["refused_by"].as_object().unwrap();
        let sum: u64 = by.values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(seat["refused"].as_u64(), Some(sum), "{r}");
    }
    let checked = verify(&trace);
    assert!(checked.contains("60"), "{checked}");
    // Its attacks are in the trace, at the ticks it sent them.
    let text = std::fs::read_to_string(&trace).unwrap();
    let attacks = text
        .lines()
        .skip(1)
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["actions"][0].get("attack").is_some()
        })
        .count();
    // (Those sent after the last tick were answered "Game is ended" and played no tick.)
    let late = b["errors"]["4"].as_u64().unwrap_or(0);
    assert_eq!(attacks as u64, b["attacks"].as_u64().unwrap() - late, "{b}");
}

#[test]
fn bad_requests_get_the_servers_answers_and_the_game_goes_on_on_time() {
    let (_dir, trace) = scratch("bad.jsonl");
    let served = Served::start(
        Served::options()
            .args(&[
                "--players",
                "2",
                "--size",
                "6x6",
                "--ticks",
                "30",
                "--seed",
                "9",
            ])
            .args(&["--linger-s", "1.5"])
            .replay(&trace),
    );
    refusals_before_anyone_joined(&served);
    let a = served.post("joingame", r#"{"name":"a"}"#);
    let token = a.1["token"].as_str().unwrap().to_string();
    assert_eq!(a.1["uid"], 1);
    let stalled = stalled_clients(served.port);
    // The second client fills the lobby: the clock starts (after `started`: the 30 ticks
    // cannot take less than 3 s of it).
    let started = Instant::now();
    let b = served.post("joingame", r#"{"name":"b"}"#);
    assert_eq!(b.1["uid"], 2, "{b:?}");
    assert_eq!(code(&served.post("joingame", r#"{"name":"c"}"#)), 10);
    // An attack on a far cell: the server's error 1, at its tick.
    let info = served.post("getgameinfo", r#"{"protocol":2}"#).1;
    let cells = info["cells"].as_array().unwrap();
    let mine = cells.iter().find(|c| c["o"] == 1).unwrap();
    let (x, y) = (mine["x"].as_i64().unwrap(), mine["y"].as_i64().unwrap());
    let far = cells
        .iter()
        .find(|c| (c["x"].as_i64().unwrap() - x).abs() + (c["y"].as_i64().unwrap() - y).abs() > 2)
        .unwrap();
    let act = |x: &Value, y: &Value| format!(r#"{{"cellx":{x},"celly":{y},"token":"{token}"}}"#);
    let far_attack = served.post("attack", &act(&far["x"], &far["y"]));
    assert_eq!(code(&far_attack), 1);
    assert!(far_attack.1["err_msg"]
        .as_str()
        .unwrap()
        .contains("adjacent"));
    // Poor: the base costs 60 gold, a player starts with 30.
    assert_eq!(
        code(&served.post("buildbase", &act(&mine["x"], &mine["y"]))),
        5
    );
    assert_eq!(
        code(&served.post("multiattack", &act(&mine["x"], &mine["y"]))),
        0
    );
    let near = flood_a_neighbour(served.port, cells, (x, y), &act);
    // The game ends on time (30 ticks = 3 s) and says so afterwards.
    while served.post("getgameinfo", "{}").1["info"]["time"].as_f64()
        < served.post("getgameinfo", "{}").1["info"]["end_time"].as_f64()
    {
        // Only against a clock that stopped: far beyond 3 s, even on a loaded machine.
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the clock stopped"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Not early (a lower bound: a slow machine only makes it later); the count of ticks played
    // is checked in the report below.
    let elapsed = started.elapsed();
    assert!(
        elapsed > Duration::from_millis(2_500),
        "30 ticks took {elapsed:?}"
    );
    let ended = served.post("attack", &act(&near["x"], &near["y"]));
    assert_eq!(
        (code(&ended), ended.1["err_msg"].as_str()),
        (4, Some("Game is ended"))
    );
    assert_eq!(code(&served.post("joingame", r#"{"name":"late"}"#)), 4);
    drop(stalled);
    let (report, _) = served.finish(Duration::from_secs(120));
    assert!(report.contains("turns:  30"), "{report}");
    // The report sums the refusals by reason, as `arena play` does: each one the server answered
    // with an error code, those the queue turned away included.
    let by = refused_by(&report, 0);
    for why in [
        "cell not next to own land",
        "too little gold",
        "too many requests waiting",
    ] {
        assert!(by.iter().any(|(_, w)| w == why), "{why}: {report}");
    }
    verify(&trace);
}

/// Before anyone joined: the map, and refusals that need no seat.
fn refusals_before_anyone_joined(served: &Served) {
    let info = served.post("getgameinfo", r#"{"protocol":2}"#);
    assert_eq!(info.0, 200);
    assert_eq!(info.1["cells"].as_array().unwrap().len(), 36);
    assert_eq!(
        served.post("attack", "{oops"),
        (400, serde_json::json!({"msg": "No json!"}))
    );
    let missing = served.post("attack", r#"{"cellx":1,"celly":1}"#);
    assert_eq!(missing.0, 400);
    assert_eq!(missing.1["msg"], "wrong args! need token");
    assert_eq!(
        code(&served.post("attack", r#"{"cellx":1,"celly":1,"token":"nobody"}"#)),
        21
    );
    assert_eq!(
        code(&served.post("attack", r#"{"cellx":99,"celly":1,"token":"nobody"}"#)),
        1
    );
    assert_eq!(
        served.post("checktoken", r#"{"token":"nobody"}"#),
        (400, serde_json::json!({"msg": "Fail"}))
    );
}

/// A client that sends a request and never reads the answer, and one that never finishes its
/// headers: neither may hold anything up while they stay open.
fn stalled_clients(port: u16) -> (TcpStream, TcpStream) {
    let mut deaf = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = r#"{"protocol":2}"#;
    for _ in 0..20 {
        write!(
            deaf,
            "POST /getgameinfo HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
    }
    let mut slow = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(slow, "POST /attack HTTP/1.1\r\nHost: x\r\n").unwrap();
    (deaf, slow)
}

/// A flood: 60 attacks at once on a neighbour of `(x, y)`. At most one is taken; the others are
/// refused with the cool-down error (3), or, if they came in the same tick, "being taken" (2).
fn flood_a_neighbour<'a>(
    port: u16,
    cells: &'a [Value],
    (x, y): (i64, i64),
    act: &dyn Fn(&Value, &Value) -> String,
) -> &'a Value {
    let near = cells
        .iter()
        .find(|c| (c["x"].as_i64().unwrap() - x).abs() + (c["y"].as_i64().unwrap() - y).abs() == 1)
        .unwrap();
    let body = act(&near["x"], &near["y"]);
    let answers: Vec<i64> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..60)
            .map(|_| s.spawn(|| code(&post(port, "attack", &body))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let taken = answers.iter().filter(|&&c| c == 0).count();
    assert!(taken <= 1, "{answers:?}");
    assert!(answers.iter().all(|c| [0, 2, 3].contains(c)), "{answers:?}");
    assert!(
        answers.iter().filter(|&&c| c == 3).count() >= 50,
        "{answers:?}"
    );
    near
}

/// Seat `seat`'s refusals by reason in a text report, checked to add up to its refused actions.
fn refused_by(report: &str, seat: usize) -> Vec<(u32, String)> {
    let mut lines = report
        .lines()
        .skip_while(|l| !l.starts_with(&format!("seat {seat}: ")));
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("no seat {seat}: {report}"));
    let refused: u32 = head
        .split("refused actions ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{head}"));
    let by: Vec<(u32, String)> = lines
        .next()
        .and_then(|l| l.split("refused: ").nth(1))
        .unwrap_or_else(|| panic!("no refusals by reason for seat {seat}: {report}"))
        .split(", ")
        .map(|r| {
            let (n, why) = r.split_once(' ').unwrap();
            (n.parse().unwrap(), why.to_string())
        })
        .collect();
    assert_eq!(by.iter().map(|(n, _)| n).sum::<u32>(), refused, "{report}");
    by
}

#[test]
fn half_open_connections_past_the_cap_are_evicted_oldest_first_and_clients_get_in() {
    // 300 connections that send half a header and wait, more than the server's 256 slots: each
    // newcomer past the cap evicts the one idle the longest, so the client still joins and plays
    // at once, and the first of them is closed by the server.
    let (_dir, trace) = scratch("evict.jsonl");
    let served = Served::start(
        Served::options()
            .args(&["--players", "1", "--size", "6x6", "--ticks", "40"])
            .args(&["--seed", "4", "--linger-s", "0.5", "--json"])
            .bots(&["expander"])
            .replay(&trace),
    );
    let half: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", served.port)).unwrap();
            s.write_all(b"POST /attack HTTP/1.1\r\nHost: x\r\nContent-Le")
                .unwrap();
            s
        })
        .collect();
    // The client gets in while all 300 are still connected: without eviction it would wait
    // for the header time-out (10 s), after which the oldest would be closed, but so would the
    // newest (both checked below), and the report would count no evictions.
    let joined = served.post("joingame", r#"{"name":"late"}"#);
    assert_eq!(joined.1["uid"], 1, "{joined:?}");
    let info = served.post("getgameinfo", "{}");
    assert_eq!(info.1["cells"].as_array().map(Vec::len), Some(36));
    // The oldest half-open connection was closed (end of file, or reset), the newest is open.
    let read = |mut s: &TcpStream| {
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        s.read(&mut [0; 16]).map_err(|e| e.kind())
    };
    let waiting = [std::io::ErrorKind::WouldBlock, std::io::ErrorKind::TimedOut];
    assert!(
        !read(&half[0]).is_err_and(|e| waiting.contains(&e)),
        "the oldest is evicted"
    );
    assert!(read(&half[299]).is_err_and(|e| waiting.contains(&e)));
    let (report, _) = served.finish(Duration::from_secs(120));
    drop(half);
    let r: Value = serde_json::from_str(report.trim()).unwrap();
    let c = &r["connections"];
    // 302 accepted into 256 slots (the two requests may have shared one).
    assert!(c["evicted"].as_u64().unwrap() >= 45, "{r}");
    assert_eq!(c["peak"], 256, "{r}");
    assert_eq!(r["clock"]["ticks"], 40, "{r}");
    assert!(
        r["clock"]["late_max_us"].as_u64().unwrap() >= r["clock"]["late_p99_us"].as_u64().unwrap()
    );
    assert!(r["peak_rss_kb"].as_u64().unwrap() > 0, "{r}");
    verify(&trace);
}

#[test]
fn serve_is_in_the_help() {
    let out = arena(&["serve", "--help"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("colorfight"));
    let out = arena(&["serve", "colorfight", "--help"]);
    let t = text(&out);
    for opt in ["--players", "--join-s", "--bot", "--port", "--replay"] {
        assert!(t.contains(opt), "{opt}: {t}");
    }
}

#[test]
fn a_player_name_with_terminal_escapes_is_shown_escaped_in_the_text_report() {
    let served = Served::start(
        Served::options()
            .args(&["--players", "1", "--size", "6x6", "--ticks", "10"])
            .args(&["--seed", "4", "--linger-s", "0.5"])
            .bots(&["expander"]),
    );
    // A name that would clear the screen and ring the bell in the operator's terminal.
    let joined = served.post("joingame", r#"{"name":"\u001b[2Jevil\u0007"}"#);
    assert_eq!(joined.1["uid"], 1, "{joined:?}");
    let (report, _) = served.finish(Duration::from_secs(60));
    assert!(
        !report.contains('\u{1b}') && !report.contains('\u{7}'),
        "{report:?}"
    );
    assert!(report.contains("\\x1b[2Jevil\\x07"), "{report}");
}

/// The original library's examples poll `/getgameinfo` until `currTime > endTime` (its `time` and
/// `end_time`), then stop: the loop, in Python, for one seat.
const WAIT_FOR_THE_END: &str = r#"
import json, sys, time, urllib.request
url = sys.argv[1]
def post(path, data):
    req = urllib.request.Request(url + path, data=json.dumps(data).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())
post("joingame", {"name": "waiter"})
polls = 0
while True:
    info = post("getgameinfo", {"protocol": 2})["info"]
    polls += 1
    if info["end_time"] and info["time"] > info["end_time"]:
        break
    time.sleep(0.05)
print(json.dumps({"time": info["time"], "end_time": info["end_time"], "polls": polls}))
"#;

#[test]
fn a_client_waiting_for_the_time_to_pass_the_end_time_ends_while_the_server_lingers() {
    // Rules decision 10: after the last tick `time` runs on, as the server's wall clock did, so
    // the library's loop ends by itself; with the time frozen at `end_time` it polled until the
    // server closed and then crashed on the refused connection.
    let served = Served::start(
        Served::options()
            .args(&["--players", "1"])
            .bots(&["expander"])
            .args(&["--size", "8x8", "--ticks", "20", "--seed", "4"])
            .args(&["--linger-s", "3", "--json"]),
    );
    let client = Command::new("python3")
        .args(["-c", WAIT_FOR_THE_END, &served.url()])
        .output()
        .expect("run python3");
    let (report, _) = served.finish(Duration::from_secs(60));
    assert!(client.status.success(), "{}", text(&client));
    let out = String::from_utf8_lossy(&client.stdout);
    let seen: Value = serde_json::from_str(out.trim()).unwrap();
    let (time, end) = (
        seen["time"].as_f64().unwrap(),
        seen["end_time"].as_f64().unwrap(),
    );
    assert!(time > end && time < end + 3.0, "{seen}");
    let r: Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(r["turns"], 20, "{r}");
}

#[test]
fn bad_arguments_are_refused_before_the_listening_line() {
    // A script waits for the "listening" line: a refusal must come instead of it, not after it.
    for (args, says) in [
        (&["--players", "1"][..], "takes 2 to 8 players"),
        (&["--players", "2", "--linger-s", "inf"], "--linger-s"),
        (&["--players", "2", "--join-s=-1"], "--join-s"),
        (&["--players", "2", "--size", "40x40"], "cannot set up"),
    ] {
        let out = Served::options().args(args).command().output().unwrap();
        let all = text(&out);
        assert!(!out.status.success(), "{args:?}: {all}");
        assert!(!all.contains("listening"), "{args:?}: {all}");
        assert!(all.contains(says), "{args:?}: {all}");
    }
}
