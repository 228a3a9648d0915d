//! Bot processes: lines framed with a length limit, time-outs, crashes, process groups killed and
//! reaped, stderr capped.

use crate::common::scratch;
use arena_host::process::{BotProcess, Fault, Limits, Line};
use std::path::Path;
use std::time::{Duration, Instant};

fn quick() -> Limits {
    Limits {
        startup: Duration::from_millis(500),
        per_turn: Duration::from_millis(100),
        window: 1,
        ..Limits::default()
    }
}

/// The next line within half a second.
fn recv(bot: &mut BotProcess) -> Result<String, Fault> {
    bot.recv_until(Some(Instant::now() + Duration::from_millis(500)))
        .map(|l| l.text)
}

/// Sends a line and waits half a second for the answer.
fn request(bot: &mut BotProcess, line: &str) -> Result<String, Fault> {
    bot.send(line)?;
    recv(bot)
}

#[test]
fn echo_bot_answers_each_line() {
    let mut bot = BotProcess::spawn("cat", None, quick()).unwrap();
    assert_eq!(request(&mut bot, "hello").unwrap(), "hello");
    assert_eq!(request(&mut bot, "again").unwrap(), "again");
}

#[test]
fn silent_bot_times_out_and_is_reaped() {
    let mut bot = BotProcess::spawn("sleep 30", None, quick()).unwrap();
    assert!(matches!(request(&mut bot, "x"), Err(Fault::Timeout { .. })));
    // The wait ended at its deadline, not with the bot: `sleep 30` is still running (a state,
    // not a stopwatch: a loaded machine cannot make it pass or fail).
    let pid = bot.pid();
    let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = state.rsplit(')').next().unwrap_or("").trim_start();
    assert!(
        state.starts_with('S') || state.starts_with('R'),
        "the bot is not running any more: {state:?}"
    );
    drop(bot);
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "child not reaped"
    );
}

#[test]
fn exiting_bot_is_reported() {
    let mut bot = BotProcess::spawn("exit 3", None, quick()).unwrap();
    match request(&mut bot, "x") {
        Err(Fault::Exited { .. }) => {}
        other => panic!("expected Exited, got {other:?}"),
    }
    // Gone for good: every later request says so at once.
    assert!(matches!(request(&mut bot, "y"), Err(Fault::Exited { .. })));
}

#[test]
fn long_lines_are_refused_and_framing_recovers() {
    let limits = Limits {
        max_line: 1000,
        ..quick()
    };
    let mut bot = BotProcess::spawn(
        "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo ok; sleep 5",
        None,
        limits,
    )
    .unwrap();
    assert_eq!(recv(&mut bot), Err(Fault::LineTooLong { limit: 1000 }));
    assert_eq!(recv(&mut bot).unwrap(), "ok");
}

#[test]
fn invalid_utf8_is_a_fault() {
    let mut bot = BotProcess::spawn("printf '\\377\\376\\n'; sleep 5", None, quick()).unwrap();
    assert_eq!(recv(&mut bot), Err(Fault::BadUtf8));
}

#[test]
fn children_of_a_bot_are_killed_with_it() {
    let (_dir, pidfile) = scratch("pid");
    let cmd = format!(
        "sleep 60 & echo $! > {}; echo started; wait",
        pidfile.display()
    );
    let mut bot = BotProcess::spawn(&cmd, None, quick()).unwrap();
    assert_eq!(recv(&mut bot).unwrap(), "started");
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .to_string();
    drop(bot);
    // The grandchild was killed; give the kernel a moment to reap it (it is init's now).
    let gone = (0..50).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| s.contains(") Z "))
            .unwrap_or(true)
    });
    assert!(gone, "grandchild {pid} still running");
}

#[test]
fn stderr_goes_to_a_capped_log() {
    let (_dir, log) = scratch("bot.stderr");
    let limits = Limits {
        max_log: 100,
        ..quick()
    };
    let mut bot = BotProcess::spawn(
        "head -c 100000 /dev/zero | tr '\\0' e >&2; echo done",
        Some(&log),
        limits,
    )
    .unwrap();
    assert_eq!(recv(&mut bot).unwrap(), "done");
    drop(bot);
    let len = || std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
    for _ in 0..100 {
        if len() == 100 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(len(), 100);
}

#[test]
fn recv_until_shares_one_deadline_and_returns_lines_already_there() {
    let mut bot = BotProcess::spawn("printf 'a\\nb\\nc\\n'; sleep 30", None, quick()).unwrap();
    // All three lines come in one write: a deadline already past still gets them, in order.
    assert_eq!(recv(&mut bot), Ok("a".to_string()));
    std::thread::sleep(Duration::from_millis(200));
    let past = Some(Instant::now());
    let text = |r: Result<Line, Fault>| r.map(|l| l.text);
    assert_eq!(text(bot.recv_until(past)), Ok("b".to_string()));
    assert_eq!(text(bot.recv_until(past)), Ok("c".to_string()));
    assert!(matches!(bot.recv_until(past), Err(Fault::Timeout { .. })));
    let soon = Some(Instant::now() + Duration::from_millis(50));
    assert!(matches!(bot.recv_until(soon), Err(Fault::Timeout { .. })));
    bot.kill();
    assert!(matches!(bot.recv_until(None), Err(Fault::Exited { .. })));
}
