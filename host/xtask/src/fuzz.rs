//! `cargo xtask fuzz [--seconds N] [--jobs J] [TARGET...]`: every libFuzzer target of `tests/fuzz`
//! (or the ones named) for N seconds each, J at a time.
//!
//! The fuzz project is its own workspace and needs the nightly toolchain (sanitizers); cargo-fuzz is
//! installed when missing. A random text seldom gets past a trace's first line, so the verifier
//! targets start from seeds: the golden files read in place (`ARENA_GOLDEN`, else `../shared/golden`
//! beside the project), and inputs made here into `tests/fuzz/seeds/` (not committed): Ants
//! map-NUL-replay pairs from the golden games, ColorFight and Mammut traces from `arena play`.
//! New inputs go to `tests/fuzz/corpus/<target>`, libFuzzer's output to `tests/fuzz/logs/<target>.log`
//! (neither committed); a crash fails the run, its input in `tests/fuzz/artifacts/<target>/`.
//! The closing table gives executions, coverage and time per target, as `tests/fuzz/README.md` records.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::tools::{on_path, status};

/// Every target, in the order they start.
pub const TARGETS: &[&str] = &[
    "action_tower_defense",
    "action_colorfight",
    "action_mammut",
    "action_ballroom",
    "ants_orders",
    "ants_map",
    "verify_tower_defense",
    "verify_colorfight",
    "verify_mammut",
    "verify_ballroom",
    "verify_ants",
    "replay_detect",
    "render_replay",
    "game_tower_defense",
    "game_colorfight",
    "game_mammut",
    "game_ballroom",
    "game_ants",
];

/// Golden folders seeding a target, and the longest input it mutates (golden files are large).
fn golden_seeds(target: &str) -> (&'static [&'static str], Option<u32>) {
    match target {
        "verify_tower_defense" => (&["tower-defense"], Some(65_536)),
        "verify_ballroom" => (&["ballroom"], Some(200_000)),
        "verify_ants" => (&[], Some(131_072)),
        "replay_detect" => (&["ballroom", "tower-defense"], Some(65_536)),
        "render_replay" => (&["ballroom", "tower-defense"], Some(131_072)),
        "ants_map" => (&["ants/maps"], None),
        _ => (&[], None),
    }
}

fn golden() -> PathBuf {
    std::env::var_os("ARENA_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::root().join("../shared/golden"))
}

struct Options {
    seconds: u32,
    jobs: usize,
    targets: Vec<&'static str>,
}

fn options(args: &[String]) -> Result<Options> {
    let mut o = Options {
        seconds: 30,
        jobs: 1,
        targets: Vec::new(),
    };
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--seconds" => match rest.next().map(|s| s.parse::<u32>()) {
                Some(Ok(n)) if n > 0 => o.seconds = n,
                _ => bail!("--seconds needs a positive number"),
            },
            "--jobs" => match rest.next().map(|s| s.parse::<usize>()) {
                Some(Ok(n)) if n > 0 => o.jobs = n,
                _ => bail!("--jobs needs a positive number"),
            },
            t => match TARGETS.iter().find(|&&k| k == t) {
                Some(k) => o.targets.push(k),
                None => bail!("unknown fuzz target `{t}`; targets: {}", TARGETS.join(" ")),
            },
        }
    }
    if o.targets.is_empty() {
        o.targets = TARGETS.to_vec();
    }
    Ok(o)
}

/// What libFuzzer's log says at the end of a run.
#[derive(Default)]
struct Summary {
    execs: Option<u64>,
    cov: Option<u64>,
    ft: Option<u64>,
}

impl Summary {
    /// From the last `#N DONE cov: C ft: F ...` line (or the last status line if DONE is missing).
    fn read(log: &str) -> Summary {
        let mut s = Summary::default();
        for line in log.lines().filter(|l| l.starts_with('#')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            s.execs = words
                .first()
                .and_then(|n| n.trim_start_matches('#').parse().ok())
                .or(s.execs);
            let after = |key: &str| {
                words
                    .iter()
                    .position(|w| *w == key)
                    .and_then(|i| words.get(i + 1))
                    .and_then(|v| v.parse().ok())
            };
            s.cov = after("cov:").or(s.cov);
            s.ft = after("ft:").or(s.ft);
        }
        s
    }
}

fn show(n: Option<u64>) -> String {
    n.map_or("-".into(), |n| n.to_string())
}

pub fn run(args: &[String]) -> Result<()> {
    let o = options(args)?;
    nightly()?;
    if !on_path("cargo-fuzz") {
        status(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    let dir = crate::root().join("tests/fuzz");
    // One build of every target first: the parallel runs then only start binaries.
    eprintln!("xtask: building the fuzz targets (nightly, AddressSanitizer)");
    status(
        Command::new("cargo")
            .current_dir(&dir)
            .args(["+nightly", "fuzz", "build"]),
    )?;
    let seeds = make_seeds(&dir, &o.targets)?;
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs)?;

    let mut waiting: VecDeque<&str> = o.targets.iter().copied().collect();
    let mut running: Vec<(&str, Child, Instant)> = Vec::new();
    let mut done: Vec<(&str, Summary, Duration, bool)> = Vec::new();
    eprintln!(
        "xtask: {} targets, {} s each, {} at a time; logs in {}",
        o.targets.len(),
        o.seconds,
        o.jobs,
        logs.display()
    );
    while !waiting.is_empty() || !running.is_empty() {
        while running.len() < o.jobs {
            let Some(target) = waiting.pop_front() else {
                break;
            };
            let child = start(&dir, target, o.seconds, &seeds, &logs)?;
            eprintln!("xtask: fuzz {target} ({} s)", o.seconds);
            running.push((target, child, Instant::now()));
        }
        std::thread::sleep(Duration::from_millis(200));
        let mut i = 0;
        while i < running.len() {
            let Some((_, child, _)) = running.get_mut(i) else {
                break;
            };
            match child.try_wait()? {
                None => i += 1,
                Some(st) => {
                    let (target, _, started) = running.swap_remove(i);
                    let log = std::fs::read_to_string(logs.join(format!("{target}.log")))
                        .unwrap_or_default();
                    let s = Summary::read(&log);
                    eprintln!(
                        "xtask: {target}: {} in {:.0} s, {} executions, cov {}, ft {}",
                        if st.success() { "ok" } else { "FAILED" },
                        started.elapsed().as_secs_f64(),
                        show(s.execs),
                        show(s.cov),
                        show(s.ft)
                    );
                    if !st.success() {
                        let tail: Vec<&str> = log.lines().rev().take(40).collect();
                        for line in tail.iter().rev() {
                            eprintln!("    {line}");
                        }
                    }
                    done.push((target, s, started.elapsed(), st.success()));
                }
            }
        }
    }
    done.sort_by_key(|(t, ..)| TARGETS.iter().position(|k| k == t));
    println!("| Target | Executions | exec/s | cov | ft | Run time (s) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (target, s, took, ok) in &done {
        let secs = took.as_secs_f64();
        let rate = s.execs.map(|n| (n as f64 / secs.max(1.0)).round() as u64);
        println!(
            "| `{target}` | {} | {} | {} | {} | {:.0}{} |",
            show(s.execs),
            show(rate),
            show(s.cov),
            show(s.ft),
            secs,
            if *ok { "" } else { " FAILED" }
        );
    }
    let failed: Vec<&str> = done.iter().filter(|d| !d.3).map(|d| d.0).collect();
    if !failed.is_empty() {
        bail!(
            "fuzz targets failed: {} (inputs in tests/fuzz/artifacts/<target>/, logs in tests/fuzz/logs/)",
            failed.join(" ")
        );
    }
    Ok(())
}

/// The fuzz project needs nightly for `-Zsanitizer`; a machine like CI's has it beside stable.
fn nightly() -> Result<()> {
    let ok = Command::new("rustc")
        .args(["+nightly", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("xtask: no nightly toolchain; installing a minimal one for the fuzz targets");
        status(Command::new("rustup").args([
            "toolchain",
            "install",
            "nightly",
            "--profile",
            "minimal",
        ]))
        .context("the fuzz targets need the nightly toolchain (sanitizers)")?;
    }
    Ok(())
}

fn start(
    dir: &Path,
    target: &str,
    seconds: u32,
    seeds: &Path,
    logs: &Path,
) -> Result<std::process::Child> {
    let corpus = dir.join("corpus").join(target);
    std::fs::create_dir_all(&corpus)?;
    let golden = golden();
    let (folders, max_len) = golden_seeds(target);
    let made = made_seeds(target).iter().map(|t| seeds.join(t));
    let log = std::fs::File::create(logs.join(format!("{target}.log")))?;
    let mut cmd = Command::new("cargo");
    cmd.current_dir(dir)
        .args(["+nightly", "fuzz", "run", target])
        .arg(&corpus)
        .args(
            folders
                .iter()
                .map(|f| golden.join(f))
                .chain(made)
                .filter(|p| p.is_dir()),
        )
        .args([
            "--".to_string(),
            format!("-max_total_time={seconds}"),
            "-rss_limit_mb=4096".to_string(),
            "-print_final_stats=1".to_string(),
        ])
        .args(max_len.map(|n| format!("-max_len={n}")))
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    cmd.spawn().with_context(|| format!("cannot start {cmd:?}"))
}

/// The folders of made seeds a target reads (see [`make_seeds`]).
fn made_seeds(target: &str) -> &'static [&'static str] {
    match target {
        "verify_ants" => &["verify_ants"],
        "verify_colorfight" => &["verify_colorfight"],
        "verify_mammut" => &["verify_mammut"],
        "render_replay" => &["verify_ants", "verify_colorfight", "verify_mammut"],
        _ => &[],
    }
}

/// Seeds made on the spot (not committed): what the verifier targets could not reach from nothing.
fn make_seeds(dir: &Path, targets: &[&str]) -> Result<PathBuf> {
    let seeds = dir.join("seeds");
    let wanted = |folder: &str| targets.iter().any(|t| made_seeds(t).contains(&folder));
    if wanted("verify_ants") {
        let out = seeds.join("verify_ants");
        std::fs::create_dir_all(&out)?;
        let games = golden().join("ants");
        if let Ok(entries) = std::fs::read_dir(&games) {
            for game in entries.flatten() {
                let (map, replay) = (game.path().join("map.map"), game.path().join("replay.json"));
                if let (Ok(map), Ok(replay)) = (std::fs::read(&map), std::fs::read(&replay)) {
                    let mut pair = map;
                    pair.push(0);
                    pair.extend(replay);
                    std::fs::write(out.join(game.file_name()), pair)?;
                }
            }
        }
    }
    let traces: [(&str, &[&str]); 2] = [
        (
            "verify_colorfight",
            &["colorfight", "--size", "6x6", "--max-turns", "120"],
        ),
        ("verify_mammut", &["mammut"]),
    ];
    for (target, game) in traces {
        if !wanted(target) {
            continue;
        }
        let out = seeds.join(target);
        std::fs::create_dir_all(&out)?;
        for seed in 1..=3 {
            let file = out.join(format!("seed{seed}.trace"));
            if file.is_file() {
                continue;
            }
            let mut cmd = Command::new("cargo");
            cmd.current_dir(crate::root())
                .args([
                    "run",
                    "-q",
                    "-p",
                    "arena-host",
                    "--bin",
                    "arena",
                    "--",
                    "play",
                ])
                .args(game)
                .args(["--seed", &seed.to_string(), "--replay"])
                .arg(&file)
                .stdout(Stdio::null());
            status(&mut cmd)?;
        }
    }
    Ok(seeds)
}
