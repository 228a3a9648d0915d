//! A late answer belongs to the request it was late for: the JSON-lines protocol knows how many
//! answers it is owed, and throws away (and reports) the first line after a time-out, over a pipe
//! and over TCP alike.

use arena_core::games::tower_defense::{Action, Params, TowerDefense};
use arena_core::Game;
use arena_host::process::{BotProcess, Fault, Limits, Lines, TcpBot};
use arena_host::protocol::{Clock, JsonLines, Protocol};
use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

/// 500 ms an answer, each on its own.
fn limits() -> Limits {
    Limits {
        startup: Duration::ZERO,
        per_turn: Duration::from_millis(500),
        window: 1,
        ..Limits::default()
    }
}

/// What a bot answering request `n` with `{"action":"destroy","pos":n}` sent, as read.
fn destroy(n: i64) -> Action {
    Action::Destroy { pos: n }
}

/// Asks six times; the bot answers request `n` with position `n`, taking 0.75 s over request 2 and
/// 50 ms over the others. Request 2 times out; the late answer to it comes while request 3 is
/// awaited and is thrown away; every answer after it is the one to its own request (taking it for
/// request 3 would put every later answer one request late: each then comes after the next
/// request is sent).
fn check(conn: Box<dyn Lines>) {
    let game = TowerDefense::new(&Params::default(), 1).unwrap();
    let mut proto: Box<dyn Protocol<TowerDefense>> = Box::new(JsonLines::new(conn, limits()));
    for n in 1..=6i64 {
        proto.ask(&game, 0).unwrap();
        let got = proto.answer(&game, 0, &Clock::now());
        match n {
            2 => assert!(matches!(got, Err(Fault::Timeout { .. })), "{got:?}"),
            3 => {
                let answer = got.unwrap();
                assert_eq!(answer.mv, destroy(3));
                assert_eq!(answer.notes.len(), 1, "{:?}", answer.notes);
                assert_eq!(answer.notes[0].kind(), "late");
                assert!(!answer.notes[0].is_refusal());
                assert!(answer.notes[0].to_string().contains("\"pos\":2"));
            }
            _ => {
                let answer = got.unwrap();
                assert_eq!(answer.mv, destroy(n), "answer to request {n}");
                assert!(answer.notes.is_empty(), "{:?}", answer.notes);
            }
        }
    }
    proto.close();
}

const BOT: &str = "n=0; while read l; do n=$((n+1)); if [ $n = 2 ]; then sleep 0.75; else sleep 0.05; fi; echo \"{\\\"action\\\":\\\"destroy\\\",\\\"pos\\\":$n}\"; done";

#[test]
fn over_a_pipe_a_late_answer_is_not_taken_for_the_next_request() {
    let bot = BotProcess::spawn(BOT, None, limits()).unwrap();
    check(Box::new(bot));
}

#[test]
fn over_tcp_a_late_answer_is_not_taken_for_the_next_request() {
    // The engine listens (on a free port); the bot is a client thread behaving as BOT does.
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let client = std::thread::spawn(move || {
        let stream = loop {
            match std::net::TcpStream::connect(("127.0.0.1", port)) {
                Ok(s) => break s,
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        let mut out = stream.try_clone().unwrap();
        let mut n = 0;
        for line in BufReader::new(stream).lines() {
            if line.is_err() {
                break;
            }
            n += 1;
            std::thread::sleep(Duration::from_millis(if n == 2 { 750 } else { 50 }));
            if writeln!(out, "{{\"action\":\"destroy\",\"pos\":{n}}}").is_err() {
                break;
            }
        }
    });
    let bot = TcpBot::accept_on(&listener, Duration::from_secs(10), &limits()).unwrap();
    check(Box::new(bot));
    client.join().unwrap();
}

#[test]
fn a_time_out_over_tcp_keeps_the_connection_and_the_line_cut_in_two() {
    // Half a line before the deadline, the rest after: the connection stays, and the line is read
    // whole (the reader thread frames lines; nothing is lost with the time-out).
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    let client = std::thread::spawn(move || {
        let mut s = loop {
            match std::net::TcpStream::connect(("127.0.0.1", port)) {
                Ok(s) => break s,
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        s.write_all(b"{\"half\":").unwrap();
        s.flush().unwrap();
        std::thread::sleep(Duration::from_millis(400));
        s.write_all(b"1}\n").unwrap();
        std::thread::sleep(Duration::from_millis(200));
    });
    let mut bot = TcpBot::accept_on(&listener, Duration::from_secs(10), &limits()).unwrap();
    let soon = std::time::Instant::now() + Duration::from_millis(150);
    assert!(matches!(
        bot.recv_until(Some(soon)),
        Err(Fault::Timeout { .. })
    ));
    let later = std::time::Instant::now() + Duration::from_secs(2);
    assert_eq!(bot.recv_until(Some(later)).unwrap().text, "{\"half\":1}");
    client.join().unwrap();
}
