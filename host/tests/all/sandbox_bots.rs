//! Hostile bots under `--sandbox`: a fork bomb, a bot that allocates 8 GB, one that writes 10 GB,
//! one that connects to a TCP listener on 127.0.0.1, one that reads files outside its scratch
//! folder, one that leaves a daemon behind, one that spins on every core. Each is contained: the
//! match completes, the fault names the cap that stopped it, the replay verifies, no cgroup of an
//! ended arena is left, and the machine's figures (available memory, processes, disk used) are
//! measured before and after, and printed (`--nocapture`) for docs/reliability.md's table.

use crate::common::*;
use crate::hostile_bots::left_behind;
use std::time::Instant;

/// The caps of these tests: small, so that each bot is stopped in a moment.
const CAPS: &[&str] = &[
    "--sandbox",
    "--bot-memory",
    "256",
    "--bot-procs",
    "64",
    "--bot-disk",
    "64",
];

/// Whether this machine can sandbox (bubblewrap installed, a pids cgroup when root): the tests
/// say so and pass without it, as `--sandbox` must then refuse, which they check.
pub(crate) fn sandbox_available() -> bool {
    let out = Arena::play("tower-defense")
        .args(&["--bot", "cmd:true", "--max-turns", "1", "--sandbox"])
        .run();
    if !out.status.success() {
        let said = text(&out);
        assert!(said.contains("cannot sandbox bots here"), "{said}");
        eprintln!("no sandbox here, not tested: {said}");
        return false;
    }
    true
}

/// The machine's figures.
#[derive(Debug, Clone, Copy)]
struct Figures {
    mem_available_mb: u64,
    processes: usize,
    disk_used_mb: u64,
}

fn figures() -> Figures {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let mem_available_mb = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        / 1024;
    let processes = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .count();
    let df = std::process::Command::new("df")
        .args(["-B1M", "--output=used", "/"])
        .output()
        .unwrap();
    let disk_used_mb = String::from_utf8_lossy(&df.stdout)
        .lines()
        .nth(1)
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    Figures {
        mem_available_mb,
        processes,
        disk_used_mb,
    }
}

/// The sandbox's cgroups whose arena process has ended (each is named `<arena pid>-<n>`), but
/// those in `before` (left by an earlier run on this machine): a sandbox must remove its cgroups
/// however its bot ended. Other tests' sandboxes, still running, are not counted, so this holds
/// with tests side by side.
pub(crate) fn cgroups_left(before: &[String]) -> Vec<String> {
    ["pids", "memory", "cpu"]
        .iter()
        .filter_map(|c| std::fs::read_dir(format!("/sys/fs/cgroup/{c}/arena")).ok())
        .flat_map(|d| d.filter_map(Result::ok).filter(|e| e.path().is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            let pid = name.split('-').next().unwrap_or("");
            !std::path::Path::new("/proc").join(pid).exists() && !before.contains(name)
        })
        .collect()
}

/// A hostile bot: its command line (given a marker for its processes, the TCP port the test
/// listens on and the planted file), and what its fault must say (None: it plays on, contained).
struct Hostile {
    name: &'static str,
    command: fn(marker: &str, port: u16, planted: &str) -> String,
    fault: Option<&'static str>,
    /// Its CPU cap and time limit, after [`CAPS`].
    extra: &'static [&'static str],
}

const EXAMPLE: &str = "python3 host/examples/tower_defense_bot.py";

fn hostile() -> Vec<Hostile> {
    vec![
        Hostile {
            name: "fork bomb",
            command: |m, _, _| format!("f(){{ f | f & }}; f; sleep {m}"),
            fault: Some("process cap"),
            extra: &["--bot-cpu", "2", "--turn-ms", "50"],
        },
        Hostile {
            name: "allocates 8 GB",
            command: |_, _, _| "exec python3 -c \"x = b'x' * (8 << 30)\"".into(),
            fault: Some("memory cap"),
            extra: &["--bot-cpu", "2", "--turn-ms", "50"],
        },
        Hostile {
            name: "writes 10 GB",
            command: |_, _, _| "exec head -c 10000000000 /dev/zero > $HOME/big".into(),
            fault: Some("file size cap"),
            extra: &["--bot-cpu", "2", "--turn-ms", "50"],
        },
        Hostile {
            name: "connects to 127.0.0.1",
            command: |_, port, _| {
                format!(
                    "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=1)\" \
                     && echo CONNECTED >&2; exec {EXAMPLE}"
                )
            },
            fault: None,
            extra: &["--bot-cpu", "2", "--turn-ms", "50"],
        },
        Hostile {
            name: "reads outside its scratch",
            command: |_, _, planted| {
                // The path is the bot's own, not a word of its command line (the folders of
                // those are shown to it): `d=/root; cat "$d/.file"`.
                let (dir, file) = planted.rsplit_once('/').unwrap();
                format!(
                    "d={dir}; cat \"$d/{file}\" /tmp/scratch/secret-of-1 >&2; \
                     echo mine > $HOME/secret-of-0; exec {EXAMPLE}"
                )
            },
            fault: None,
            extra: &["--bot-cpu", "2", "--turn-ms", "50"],
        },
        Hostile {
            name: "leaves a daemon",
            command: |m, _, _| {
                format!("(setsid sh -c 'sleep {m}' </dev/null >/dev/null 2>&1 &); exec {EXAMPLE}")
            },
            fault: None,
            extra: &["--bot-cpu", "2", "--turn-ms", "50"],
        },
        Hostile {
            name: "spins on every core",
            command: |_, _, _| {
                "for i in $(seq $(nproc)); do (while :; do :; done) & done; exec python3 -c 'while True: pass'"
                    .into()
            },
            fault: Some("CPU time cap"),
            // A second of CPU: the spinning process has a third of the one core the sandbox
            // gives it (less on a loaded machine), and is stopped three seconds in or more,
            // before its 30 s time bank runs out.
            extra: &["--bot-cpu", "1", "--turn-ms", "300"],
        },
    ]
}

/// One hostile bot's match: what went wrong (empty: contained), and its row of the table.
fn contained(
    h: &Hostile,
    dir: &std::path::Path,
    marker: &str,
    planted: &str,
) -> (Vec<String>, String) {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let replay = dir.join(format!("{marker}.jsonl"));
    let logs = dir.join(format!("logs-{marker}"));
    let bot = format!("cmd:{}", (h.command)(marker, port, planted));
    // The other seat: a sandboxed bot with a secret in its scratch folder.
    let other = format!("cmd:echo theirs > $HOME/secret-of-1; exec {EXAMPLE}");
    let (before, t0, old) = (figures(), Instant::now(), cgroups_left(&[]));
    let out = Arena::play("tower-defense")
        .args(&["--max-turns", "60", "--seed", "5", "--json"])
        .bots(&[&bot, &other])
        .args(CAPS)
        .args(h.extra)
        .replay(&replay)
        .file("--bot-logs", &logs)
        .run();
    let secs = t0.elapsed().as_secs_f64();
    let after = figures();
    let mut failures = Vec::new();
    let what = h.name;
    if !out.status.success() {
        return (
            vec![format!("{what}: arena failed: {}", text(&out))],
            String::new(),
        );
    }
    let report = report(&out);
    let faults = report["seats"][0]["faults"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let named: Vec<String> = faults.iter().map(|f| f["what"].to_string()).collect();
    if let Some(cap) = h.fault {
        if !named.iter().any(|f| f.contains(cap)) {
            failures.push(format!("{what}: no fault names the {cap}: {named:?}"));
        }
    }
    let v = Arena::verify("tower-defense", &replay)
        .args(&["--partial"])
        .run();
    if !v.status.success() {
        failures.push(format!("{what}: the replay does not verify: {}", text(&v)));
    }
    let stderr = std::fs::read_to_string(logs.join("0.stderr")).unwrap_or_default();
    for leak in ["CONNECTED", "PLANTED-SECRET", "theirs"] {
        if stderr.contains(leak) {
            failures.push(format!("{what}: the bot got out: {leak} in {stderr}"));
        }
    }
    if listener.accept().is_ok() {
        failures.push(format!("{what}: the bot connected to 127.0.0.1:{port}"));
    }
    let left = left_behind(marker);
    if !left.is_empty() {
        failures.push(format!("{what}: processes left behind: {left}"));
    }
    let left = cgroups_left(&old);
    if !left.is_empty() {
        failures.push(format!("{what}: cgroups left: {left:?}"));
    }
    let stopped = named
        .first()
        .cloned()
        .unwrap_or_else(|| "none (contained)".into());
    let row = format!(
        "| {what} | {stopped} | {} -> {} MB | {} -> {} | {} -> {} MB | {secs:.1} s |",
        before.mem_available_mb,
        after.mem_available_mb,
        before.processes,
        after.processes,
        before.disk_used_mb,
        after.disk_used_mb,
    );
    (failures, row)
}

/// A scratch folder for a sandbox test; `None` where this machine cannot sandbox. The sandbox
/// tests run side by side with each other and with the other tests (each checks its own
/// processes by marker and the cgroups of ended arenas only): the figures they print are the
/// machine's, so docs/reliability.md's table is taken from a run of its test alone
/// (`cargo test -p arena-host --test all sandbox_bots::every_hostile -- --nocapture`).
fn sandboxed() -> Option<tempfile::TempDir> {
    sandbox_available().then(|| tempfile::tempdir().unwrap())
}

#[test]
fn every_hostile_bot_is_contained_by_the_sandbox() {
    let Some(dir) = sandboxed() else {
        return;
    };
    // A file planted in the home folder, which no sandboxed bot may read.
    let home = std::path::PathBuf::from(std::env::var("HOME").unwrap_or_else(|_| "/root".into()));
    let planted = home.join(format!(".arena-sandbox-test-{}", std::process::id()));
    std::fs::write(&planted, "PLANTED-SECRET").unwrap();
    let mut failures = Vec::new();
    let mut table = vec![
        "| bot | stopped by | memory available | processes | disk used | time |".to_string(),
        "| --- | --- | --- | --- | --- | --- |".to_string(),
    ];
    for (i, h) in hostile().iter().enumerate() {
        let marker = (7000 + (std::process::id() % 1000) * 10 + i as u32).to_string();
        let (f, row) = contained(h, dir.path(), &marker, planted.to_str().unwrap());
        failures.extend(f);
        table.push(row);
    }
    let _ = std::fs::remove_file(&planted);
    eprintln!("{}", table.join("\n"));
    assert_no_failures(&failures);
}

#[test]
fn without_a_sandbox_it_refuses_to_start() {
    // No bwrap on PATH: --sandbox says why, and plays nothing.
    let out = Arena::play("tower-defense")
        .args(&["--bot", "cmd:true", "--max-turns", "1", "--sandbox"])
        .command()
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains("--sandbox: cannot sandbox bots here: bubblewrap is not installed"),
        "{said}"
    );
}

/// A thousand matches where half the bots are hostile (one writes 10 GB, one starts a fork bomb,
/// one leaves a daemon; each then fails) and half built in: the same results for one job and
/// two, every hostile bot's match a crash of that bot, and nothing of theirs left running.
/// The spinning and stalling bots are not in the mix: each holds a match until its CPU or time
/// cap (seconds), so a thousand of them would take an hour; the tests above and below cover them.
#[test]
fn a_thousand_sandboxed_matches_give_the_same_results_for_one_and_two_jobs() {
    let Some(dir) = sandboxed() else {
        return;
    };
    let marker = format!("mix{}", std::process::id());
    let hostile = [
        format!(": {marker}; exec head -c 10000000000 /dev/zero > $HOME/big"),
        format!(": {marker}; f(){{ f | f & }}; f; exit 3"),
        format!("(setsid sh -c ': {marker}; sleep 600' </dev/null >/dev/null 2>&1 &); exit 3"),
    ];
    let bots: Vec<String> = hostile
        .iter()
        .map(|c| format!("cmd:{c}"))
        .chain(["strong", "random", "army"].map(String::from))
        .collect();
    let bots: Vec<&str> = bots.iter().map(String::as_str).collect();
    let (before, old) = (figures(), cgroups_left(&[]));
    let run = |jobs: &str| {
        let file = dir.path().join(format!("jobs-{jobs}.json"));
        Arena::tournament("tower-defense")
            .bots(&bots)
            .args(&["--games", "34", "--seed", "31", "--quiet", "--no-replay"])
            .args(CAPS)
            // No time limits: on a loaded machine a hostile bot's start could time out in one
            // run and meet its cap in the other.
            .args(&["--bot-cpu", "2", "--jobs", jobs, "--no-timeout"])
            .file("--results-json", &file)
            .ok();
        untimed(read_json(&file))
    };
    // Both at once: three matches in flight on two cores, the bots' starts and ends overlapping.
    let (one, two) = std::thread::scope(|s| {
        let one = s.spawn(|| run("1"));
        let two = s.spawn(|| run("2"));
        (one.join().unwrap(), two.join().unwrap())
    });
    let after = figures();
    let matches = one["results"].as_array().unwrap();
    assert_eq!(matches.len(), 1020);
    assert_eq!(one, two);
    // Every match of a hostile bot ended that bot at its start.
    let mut hostile_seats = 0;
    for m in matches {
        for (at, seat) in m["seats"].as_array().unwrap().iter().enumerate() {
            if seat.as_u64().unwrap() < 3 {
                hostile_seats += 1;
                assert_eq!(m["faults"][at]["crashes"], 1, "{m}");
            }
        }
    }
    assert_eq!(hostile_seats, 3 * 10 * 34);
    let out = std::process::Command::new("pgrep")
        .args(["-af", &marker])
        .output()
        .unwrap();
    let left = String::from_utf8_lossy(&out.stdout);
    assert!(left.trim().is_empty(), "processes left behind: {left}");
    assert_eq!(cgroups_left(&old), Vec::<String>::new(), "cgroups left");
    eprintln!("1,020 mixed sandboxed matches, twice: {before:?} -> {after:?}");
}

/// The caps that stop a bot at its start (a fork bomb, 8 GB, 10 GB), in every other game: each
/// match completes with the cap named and its replay verified.
#[test]
fn every_game_goes_on_when_a_cap_stops_a_bot() {
    let Some(dir) = sandboxed() else {
        return;
    };
    let capped: Vec<Hostile> = hostile()
        .into_iter()
        .filter(|h| ["fork bomb", "allocates 8 GB", "writes 10 GB"].contains(&h.name))
        .collect();
    let mut failures = Vec::new();
    for game in crate::hostile_bots::games() {
        if game.name == "tower-defense" {
            continue;
        }
        for (i, h) in capped.iter().enumerate() {
            let marker = (8000 + (std::process::id() % 1000) * 10 + i as u32).to_string();
            let replay = dir
                .path()
                .join(format!("{}-{i}.{}", game.name, game.replay_ext));
            let bot = format!("cmd:{}", (h.command)(&marker, 0, "/nonexistent/x"));
            let what = format!("{} / {}", game.name, h.name);
            let mut args: Vec<&str> = game.play.iter().map(String::as_str).collect();
            args.extend(["--bot", &bot]);
            for o in game.others {
                args.extend(["--bot", o]);
            }
            args.extend(CAPS);
            args.extend(["--bot-cpu", "2", "--json"]);
            let out = Arena::new(&args).replay(&replay).run();
            if !out.status.success() {
                failures.push(format!("{what}: arena failed: {}", text(&out)));
                continue;
            }
            let faults = report(&out)["seats"][0]["faults"].to_string();
            if !faults.contains(h.fault.unwrap()) {
                failures.push(format!("{what}: no fault names the cap: {faults}"));
            }
            let mut verify = vec!["verify", game.name, arg(&replay)];
            verify.extend(game.verify_extra.iter().map(String::as_str));
            if game.partial_turns.is_some() {
                verify.push("--partial");
            }
            let v = Arena::new(&verify).run();
            if !v.status.success() {
                failures.push(format!("{what}: the replay does not verify: {}", text(&v)));
            }
            let left = left_behind(&marker);
            if !left.is_empty() {
                failures.push(format!("{what}: processes left behind: {left}"));
            }
        }
    }
    assert_no_failures(&failures);
}

/// arena's cpu folder weighs one process per bot in it while they run (`cpu.shares`), so that on
/// a loaded machine the sandboxed bots are not squeezed into one process's part between them;
/// left at the default (1024) with two bots of this match in it, the test fails.
#[test]
fn the_cpu_folder_weighs_one_process_per_sandboxed_bot() {
    let folder = std::path::Path::new("/sys/fs/cgroup/cpu/arena");
    if !sandbox_available()
        || !crate::sandbox_attacks::is_root()
        || !folder.join("cpu.shares").exists()
    {
        eprintln!("no cpu cgroup for root's sandboxes here, not tested");
        return;
    }
    // From the default weight, so that a weight left by an earlier arena cannot pass the test.
    std::fs::write(folder.join("cpu.shares"), "1024").unwrap();
    // Two bots that never answer: each holds its seat, and its cgroup, until its time is up.
    let mut child = Arena::play("tower-defense")
        .args(&[
            "--bot",
            "cmd:sleep 30",
            "--bot",
            "cmd:sleep 30",
            "--max-turns",
            "1",
            "--turn-ms",
            "4000",
            "--sandbox",
        ])
        .command()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let ours = format!("{}-", child.id());
    let start = Instant::now();
    let mut seen = None;
    while start.elapsed() < std::time::Duration::from_secs(60) && seen.is_none() {
        let mine = std::fs::read_dir(folder).map_or(0, |d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with(&ours))
                .count()
        });
        if mine == 2 {
            let shares: u64 = std::fs::read_to_string(folder.join("cpu.shares"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            seen = Some(shares);
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SIGTERM: arena ends its bots and removes their cgroups (a SIGKILL would leave them).
    let _ = nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    );
    let _ = child.wait();
    assert_eq!(
        cgroups_left(&[])
            .iter()
            .filter(|c| c.starts_with(&ours))
            .count(),
        0,
        "this match's cgroups were left"
    );
    let shares = seen.expect("never saw both bots' cpu cgroups while the match ran");
    // Other tests' sandboxes may share the folder: at least this match's two bots' weight.
    assert!(
        shares >= 2 * 1024 && shares % 1024 == 0,
        "cpu.shares {shares} with two bots in the folder"
    );
}
