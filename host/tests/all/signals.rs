//! `arena` under SIGINT, SIGTERM and SIGHUP: every bot of every match ends with it (their
//! children too, sandboxed or not), no cgroup of that arena is left, every replay ends on a whole
//! line and verifies with `--partial` (in every game: Ants' and Ballroom's replays, written whole
//! at the match's end, are written when the signal comes), and arena exits with 128 + the
//! signal's number.

use crate::common::*;
use nix::sys::signal::Signal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A Tower Defense bot that starts two children (each with `marker` on its command line, as the
/// bot itself has), answers five turns, then hangs: arena, with no time limit, waits on it.
fn bot(marker: &str) -> String {
    format!(
        "cmd:sh -c 'sh -c \"sleep 600\" {marker} & sh -c \"sleep 601\" {marker} & n=0; \
         while read l; do n=$((n+1)); if [ $n -gt 5 ]; then sleep 602; fi; echo null; done' {marker}"
    )
}

/// The processes (not zombies) whose command line holds `marker`.
fn marked(marker: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| {
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let zombie = stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z'));
            let words: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
            (!zombie && words.contains(&marker.as_bytes()))
                .then(|| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        })
        .collect()
}

/// The sandbox cgroup folders named after arena's process `pid` (`<pid>-<n>`), under any
/// controller.
fn cgroups_of(pid: u32) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<(PathBuf, u32)> = vec![(PathBuf::from("/sys/fs/cgroup"), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.filter_map(Result::ok) {
            let path = e.path();
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            if name.split('-').any(|part| part == pid.to_string()) {
                out.push(path);
            } else if depth < 3 {
                stack.push((path, depth + 1));
            }
        }
    }
    out
}

/// Lines in `file` (0 if it is not there yet).
fn lines(file: &Path) -> usize {
    std::fs::read(file).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

/// Waits (at most `cap`, a guard against a hang, not a measure) until `ready` holds.
fn wait_for(cap: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + cap;
    while Instant::now() < until {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    ready()
}

/// A file `host/tests/bots/hang_after.py` leaves where it hangs (not a replay).
fn is_hung(file: &Path) -> bool {
    file.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("hung."))
}

/// The replays in `dir`.
fn replays_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Starts `arena`, waits until `matches` replays in `dir` have their header and a few turns and
/// `bots` marked bots run (with their children), sends `signal`, and checks what it left. The
/// failures.
fn ended_by(
    arena: Arena,
    signal: Signal,
    marker: &str,
    dir: &Path,
    (matches, bots): (usize, usize),
) -> Vec<String> {
    let started = |d: &Path| replays_in(d).iter().filter(|r| lines(r) >= 4).count() >= matches;
    ended_when(
        arena,
        signal,
        marker,
        dir,
        (matches, bots),
        &started,
        &|r| Arena::verify("tower-defense", r).args(&["--partial"]).run(),
    )
}

/// [`ended_by`], the match taken as started (and the signal sent) once `started` holds of the
/// replays' folder, every replay verified by `verify`.
#[allow(clippy::too_many_arguments)]
fn ended_when(
    arena: Arena,
    signal: Signal,
    marker: &str,
    dir: &Path,
    (matches, bots): (usize, usize),
    started: &dyn Fn(&Path) -> bool,
    verify: &dyn Fn(&Path) -> std::process::Output,
) -> Vec<String> {
    let what = format!("{arena} ({signal})");
    let mut child = arena
        .command()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut failures = Vec::new();
    // Each bot is three marked processes: itself and its two children.
    let started = wait_for(Duration::from_secs(120), || {
        started(dir) && marked(marker).len() >= 3 * bots
    });
    if !started {
        failures.push(format!("{what}: never started: {:?}", marked(marker)));
    }
    eprintln!("{signal}: {} cgroup folders", cgroups_of(pid).len());
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), signal).unwrap();
    // A guard against a hang: arena is killed after a minute (and the test fails).
    let exited = wait_for(Duration::from_secs(60), || {
        child.try_wait().ok().flatten().is_some()
    });
    if !exited {
        let _ = child.kill();
        failures.push(format!("{what}: still running a minute after the signal"));
    }
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.code() != Some(128 + signal as i32) {
        failures.push(format!("{what}: exit status {} ({said})", out.status));
    }
    if !said.contains(signal.as_str()) {
        failures.push(format!(
            "{what}: does not say it was ended by {signal}: {said}"
        ));
    }
    // SIGKILL is delivered at once; a loaded machine may take a moment to tear a process down.
    if !wait_for(Duration::from_secs(10), || marked(marker).is_empty()) {
        failures.push(format!("{what}: bot processes left: {:?}", marked(marker)));
    }
    let left = cgroups_of(pid);
    if !left.is_empty() {
        failures.push(format!("{what}: cgroups left: {left:?}"));
    }
    let replays = replays_in(dir);
    if replays.iter().filter(|r| !is_hung(r)).count() < matches {
        failures.push(format!(
            "{what}: {} replays, {matches} expected",
            replays.len()
        ));
    }
    for r in replays.iter().filter(|r| !is_hung(r)) {
        let bytes = std::fs::read(r).unwrap_or_default();
        if bytes.last() != Some(&b'\n') {
            failures.push(format!(
                "{what}: {} does not end on a whole line",
                r.display()
            ));
        }
        let v = verify(r);
        if !v.status.success() {
            failures.push(format!(
                "{what}: {} does not verify: {}",
                r.display(),
                text(&v)
            ));
        }
    }
    failures
}

/// A marker for this test's processes: unique to the test process and the case.
fn marker(case: u32) -> String {
    format!("arena-signal-test-{}-{case}", std::process::id())
}

const SIGNALS: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

#[test]
fn every_signal_ends_a_match_and_its_bots_children_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, signal) in SIGNALS.into_iter().enumerate() {
        let m = marker(i as u32);
        let replays = dir.path().join(format!("play-{i}"));
        std::fs::create_dir(&replays).unwrap();
        let arena = Arena::play("tower-defense")
            .bots(&[&bot(&m), &bot(&m)])
            .args(&["--no-timeout", "--seed", "3"])
            .replay(&replays.join("match.jsonl"));
        failures.extend(ended_by(arena, signal, &m, &replays, (1, 2)));
    }
    assert_no_failures(&failures);
}

#[test]
fn every_signal_ends_every_match_of_a_tournament() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, signal) in SIGNALS.into_iter().enumerate() {
        let m = marker(10 + i as u32);
        let replays = dir.path().join(format!("t-{i}"));
        let arena = Arena::tournament("tower-defense")
            .bots(&[&bot(&m), &bot(&m), &bot(&m)])
            .args(&["--no-timeout", "--seed", "3", "--quiet", "--jobs", "2"])
            .file("--replays", &replays);
        // Two matches at once, two bots each.
        failures.extend(ended_by(arena, signal, &m, &replays, (2, 4)));
    }
    assert_no_failures(&failures);
}

#[test]
fn every_signal_ends_sandboxed_bots_and_removes_their_cgroups() {
    let probe = Arena::play("tower-defense")
        .args(&["--bot", "cmd:true", "--max-turns", "1", "--sandbox"])
        .run();
    if !probe.status.success() {
        eprintln!("no sandbox here, not tested: {}", text(&probe));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, signal) in SIGNALS.into_iter().enumerate() {
        let m = marker(20 + i as u32);
        let replays = dir.path().join(format!("s-{i}"));
        let arena = Arena::tournament("tower-defense")
            .bots(&[&bot(&m), &bot(&m), &bot(&m)])
            .args(&["--no-timeout", "--seed", "3", "--quiet", "--jobs", "2"])
            .args(&["--sandbox", "--bot-memory", "256", "--bot-procs", "64"])
            .file("--replays", &replays);
        failures.extend(ended_by(arena, signal, &m, &replays, (2, 4)));
    }
    assert_no_failures(&failures);
}

/// A bot of `game` (its example bot, through `host/tests/bots/hang_after.py`) that answers
/// `lines` input lines, then leaves a `hung.<pid>` file in `dir` and hangs; it starts two
/// children, and `marker` is on the command line of the three.
fn hanging_bot(
    game: &crate::hostile_bots::GameCase,
    marker: &str,
    dir: &Path,
    lines: u32,
) -> String {
    format!(
        "cmd:sh -c 'sh -c \"sleep 600\" {marker} & sh -c \"sleep 601\" {marker} & \
         python3 host/tests/bots/hang_after.py {} {lines} python3 {}; sleep 602' {marker}",
        dir.display(),
        game.example
    )
}

/// Input lines a bot of each game reads before it hangs: a few turns into the match.
fn hang_after(game: &str) -> u32 {
    match game {
        // Settings, `ready`, then a dozen lines a turn on the tutorial map.
        "ants" => 60,
        // `wake`, the seat, then one line a phase, four phases a turn.
        "ballroom" => 14,
        // Asked once a move, only on its own moves.
        "mammut" => 3,
        _ => 5,
    }
}

/// Every game, one match (two hanging bots, the rest of the seats built-in) under each signal:
/// the replay, whether written line by line or whole at the end, verifies with `--partial`.
#[test]
fn every_signal_ends_a_match_of_every_game_on_a_whole_replay() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (g, game) in crate::hostile_bots::games().iter().enumerate() {
        for (i, signal) in SIGNALS.into_iter().enumerate() {
            let case = 100 + 10 * g as u32 + i as u32;
            let m = marker(case);
            let replays = dir.path().join(format!("{}-{i}", game.name));
            std::fs::create_dir(&replays).unwrap();
            let bot = hanging_bot(game, &m, &replays, hang_after(game.name));
            let mut args: Vec<&str> = game.play.iter().map(String::as_str).collect();
            args.extend(["--bot", &bot, "--bot", &bot]);
            let seats = 2 + game.others.len().saturating_sub(1);
            for other in game.others.iter().take(seats - 2) {
                args.extend(["--bot", other]);
            }
            args.extend(["--no-timeout", "--seed", "3"]);
            let replay = replays.join(format!("match.{}", game.replay_ext));
            let arena = Arena::new(&args).replay(&replay);
            // Started once a bot hangs: the match waits on it.
            let started = |d: &Path| replays_in(d).iter().any(|f| is_hung(f));
            let verify = |r: &Path| {
                let mut v = vec!["verify", game.name, arg(r), "--partial"];
                v.extend(game.verify_extra.iter().map(String::as_str));
                Arena::new(&v).run()
            };
            failures.extend(ended_when(
                arena,
                signal,
                &m,
                &replays,
                (1, 2),
                &started,
                &verify,
            ));
        }
    }
    assert_no_failures(&failures);
}

/// A sandboxed bot racing the replay's last flush (`host/tests/bots/sandbox/replay_racer.py`):
/// it ignores the ending signals, floods stdout (a 256 KB line a turn) and stderr, and tries,
/// again and again, to write, append to and truncate the replay being written and to find it
/// open in a process in view, while arena is ended by each signal. It cannot reach the replay
/// (ENOENT every time, nothing `ESCAPED`), the replay ends on a whole line and verifies with
/// `--partial`, the bot's processes and cgroups are gone, arena exits with 128 + the signal.
#[test]
fn a_sandboxed_bot_racing_the_replay_flush_cannot_garble_it() {
    let probe = Arena::play("tower-defense")
        .args(&["--bot", "cmd:true", "--max-turns", "1", "--sandbox"])
        .run();
    if !probe.status.success() {
        eprintln!("no sandbox here, not tested: {}", text(&probe));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("bot");
    std::fs::create_dir(&bot).unwrap();
    let fixtures = workspace().join("host/tests/bots/sandbox");
    for file in ["hostile.py", "replay_racer.py"] {
        std::fs::copy(fixtures.join(file), bot.join(file)).unwrap();
    }
    let mut failures = Vec::new();
    for (i, signal) in SIGNALS.into_iter().enumerate() {
        let m = marker(30 + i as u32);
        let replays = dir.path().join(format!("replays-{i}"));
        let logs = dir.path().join(format!("logs-{i}"));
        std::fs::create_dir(&replays).unwrap();
        let replay = replays.join("match.jsonl");
        std::fs::write(bot.join("targets.txt"), replay.display().to_string()).unwrap();
        let racer = format!("cmd:python3 {} {m}", bot.join("replay_racer.py").display());
        let arena = Arena::play("tower-defense")
            .bots(&[&racer, "random"])
            .args(&["--no-timeout", "--seed", "3", "--sandbox"])
            .replay(&replay)
            .file("--bot-logs", &logs);
        let log = logs.join("0.stderr");
        let racing = |d: &Path| {
            std::fs::read_to_string(&log).is_ok_and(|l| l.contains("\nracing\n"))
                && replays_in(d).iter().any(|r| lines(r) >= 6)
        };
        let verify = |r: &Path| Arena::verify("tower-defense", r).args(&["--partial"]).run();
        // The racer is one marked process (its `sh` and bwrap name it inside a longer word).
        failures.extend(ended_when(
            arena,
            signal,
            &m,
            &replays,
            (1, 0),
            &racing,
            &verify,
        ));
        let said = std::fs::read(&log).unwrap_or_default();
        let said = String::from_utf8_lossy(&said);
        let flood = said.lines().filter(|l| l.starts_with("xxxx")).count();
        let held = said.lines().find(|l| l.starts_with("held: the replay"));
        eprintln!("{signal}: {flood} lines of 64 KB flooded on stderr; {held:?}");
        if said.contains("ESCAPED") || !held.is_some_and(|h| h.contains("open r+b: ENOENT")) {
            failures.push(format!("{signal}: the racer reached the replay: {held:?}"));
        }
        if flood == 0 {
            failures.push(format!("{signal}: the racer never flooded: {held:?}"));
        }
    }
    assert_no_failures(&failures);
}
