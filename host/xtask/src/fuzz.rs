//! `cargo xtask fuzz [--seconds N] [--jobs J] [--sanitizer address|none] [--dev] [TARGET...]`:
//! every libFuzzer target of `tests/fuzz` (or the ones named) for N seconds each, J at a time.
//! AddressSanitizer and release builds by default; `cargo xtask test`'s short run goes without the
//! sanitizer (its build takes a third less time, and the code fuzzed has no `unsafe`: the core,
//! firmware and host forbid it) and unoptimised (`--dev`: the release build is one codegen unit a
//! crate, minutes on two cores, for a 10 s smoke run of each target).
//!
//! The fuzz project is its own workspace and needs the nightly toolchain (sanitizers) and cargo-fuzz,
//! which `cargo xtask setup` installs (this task says so when one is missing). The targets are the `[[bin]]`s of `tests/fuzz/Cargo.toml`, in its order;
//! nothing here names a game. A random text seldom gets past a replay's first line, so the replay
//! targets start from seeds ([`Seeds`]): each `verify_<game>` from its game's replays, which are
//! `../shared/golden/<game>/` read in place (`ARENA_GOLDEN` for another root) when it holds JSON
//! files, its games as map-NUL-replay pairs when it holds folders of `map.map` and `replay.json`,
//! and otherwise three matches `arena play <game>` records (with the arguments its
//! `[package.metadata.play]` line gives); the other targets from what their
//! `[package.metadata.seeds]` line names (`replays`: every game's, or a folder of the golden data).
//! Made seeds go to `tests/fuzz/seeds/` (not committed). Each target mutates inputs up to its largest
//! seed's size (the next power of two, 4 KiB to 256 KiB).
//! New inputs go to `tests/fuzz/corpus/<target>`, libFuzzer's output to `tests/fuzz/logs/<target>.log`
//! (neither committed); a crash fails the run, its input in `tests/fuzz/artifacts/<target>/`.
//! The closing table gives executions, coverage and time per target, as `tests/fuzz/README.md` records.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::tools::status;

/// The largest input a target mutates, at most (longer seeds, such as some golden traces, are cut).
const MAX_LEN: u64 = 1 << 18;

pub fn golden() -> PathBuf {
    std::env::var_os("ARENA_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::root().join("../shared/golden"))
}

/// What `tests/fuzz/Cargo.toml` says: the targets, in order, and the seed tables.
struct Manifest {
    targets: Vec<String>,
    /// `[package.metadata.seeds]`: target -> sources.
    seeds: Vec<(String, Vec<String>)>,
    /// `[package.metadata.play]`: game folder -> arguments of `arena play <game>`.
    play: Vec<(String, Vec<String>)>,
}

impl Manifest {
    fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut m = Manifest {
            targets: Vec::new(),
            seeds: Vec::new(),
            play: Vec::new(),
        };
        let mut table = "";
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                table = line;
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            let words = || -> Vec<String> {
                value
                    .trim_matches(|c| c == '[' || c == ']')
                    .split(',')
                    .map(|w| w.trim().trim_matches('"').to_string())
                    .filter(|w| !w.is_empty())
                    .collect()
            };
            match table {
                "[[bin]]" if key == "name" => m.targets.push(value.trim_matches('"').to_string()),
                "[package.metadata.seeds]" => m.seeds.push((key.to_string(), words())),
                "[package.metadata.play]" => m.play.push((key.to_string(), words())),
                _ => {}
            }
        }
        if m.targets.is_empty() {
            bail!("no [[bin]] targets in {}", path.display());
        }
        Ok(m)
    }

    /// The games with a replay target, by folder (`verify_<folder>`).
    fn games(&self) -> impl Iterator<Item = &str> {
        self.targets
            .iter()
            .filter_map(|t| t.strip_prefix("verify_"))
    }

    fn play_args(&self, folder: &str) -> &[String] {
        self.play
            .iter()
            .find(|(g, _)| g == folder)
            .map_or(&[], |(_, args)| args)
    }
}

/// `cargo xtask fuzz`'s options.
#[derive(clap::Args, Debug)]
pub struct Options {
    /// Seconds each target runs.
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub seconds: u32,
    /// Targets run at a time.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: u32,
    /// cargo-fuzz's `--sanitizer`.
    #[arg(long, default_value = "address", value_parser = ["address", "none"])]
    pub sanitizer: String,
    /// cargo-fuzz's `--dev`: unoptimised targets, built in a fraction of the release build's time
    /// (which is one codegen unit a crate); for short smoke runs.
    #[arg(long)]
    pub dev: bool,
    /// The targets to run (default: every `[[bin]]` of tests/fuzz/Cargo.toml, in its order).
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
}

impl Options {
    /// What `cargo fuzz build` is given.
    fn build_args(&self) -> Vec<&str> {
        let mut args = vec!["--sanitizer", &self.sanitizer];
        if self.dev {
            args.push("--dev");
        }
        args
    }
}

/// The targets named, each one of `all`, or else `all`.
fn targets(named: &[String], all: &[String]) -> Result<Vec<String>> {
    if let Some(t) = named.iter().find(|t| !all.contains(t)) {
        bail!("unknown fuzz target `{t}`; targets: {}", all.join(" "));
    }
    Ok(if named.is_empty() {
        all.to_vec()
    } else {
        named.to_vec()
    })
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

pub fn run(mut o: Options) -> Result<()> {
    let dir = crate::root().join("tests/fuzz");
    let manifest = Manifest::read(&dir)?;
    o.targets = targets(&o.targets, &manifest.targets)?;
    crate::setup::nightly()?;
    crate::setup::cargo_fuzz()?;
    // One build of every target first: the parallel runs then only start binaries.
    eprintln!(
        "xtask: building the fuzz targets (nightly, sanitizer: {}, {})",
        o.sanitizer,
        if o.dev { "unoptimised" } else { "release" }
    );
    status(
        Command::new("cargo")
            .current_dir(&dir)
            .env("ARENA_NO_VIEWER", "1")
            .args(["+nightly", "fuzz", "build"])
            .args(o.build_args()),
    )?;
    let seeds = Seeds::make(&dir, &manifest, &o.targets)?;
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs)?;

    let mut waiting: VecDeque<&str> = o.targets.iter().map(String::as_str).collect();
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
        while running.len() < o.jobs as usize {
            let Some(target) = waiting.pop_front() else {
                break;
            };
            let child = start(&dir, target, &o, &seeds, &logs)?;
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
    done.sort_by_key(|(t, ..)| manifest.targets.iter().position(|k| k == t));
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

fn start(
    dir: &Path,
    target: &str,
    o: &Options,
    seeds: &Seeds,
    logs: &Path,
) -> Result<std::process::Child> {
    let corpus = dir.join("corpus").join(target);
    std::fs::create_dir_all(&corpus)?;
    let artifacts = dir.join("artifacts").join(target);
    std::fs::create_dir_all(&artifacts)?;
    let folders = seeds.of(target);
    let log = std::fs::File::create(logs.join(format!("{target}.log")))?;
    // The binary `cargo fuzz build` left, run as `cargo fuzz run` runs it (its arguments, and
    // AddressSanitizer's options): `cargo fuzz run` would first run cargo twice per target (a
    // build that finds nothing to do, then `cargo run`), seconds each.
    let profile = if o.dev { "debug" } else { "release" };
    let binary = dir
        .join("target")
        .join(crate::tools::host_triple()?)
        .join(profile)
        .join(target);
    let mut cmd = Command::new(&binary);
    cmd.current_dir(dir)
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .args([
            format!("-max_total_time={}", o.seconds),
            "-rss_limit_mb=4096".to_string(),
            "-print_final_stats=1".to_string(),
        ])
        .args((!folders.is_empty()).then(|| format!("-max_len={}", max_len(&folders))))
        .arg(&corpus)
        .args(&folders)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    if o.sanitizer == "address" {
        cmd.env("ASAN_OPTIONS", "detect_odr_violation=0");
    }
    cmd.spawn()
        .with_context(|| format!("cannot start {}", binary.display()))
}

/// The largest seed's size, as the next power of two from 4 KiB to [`MAX_LEN`].
fn max_len(folders: &[PathBuf]) -> u64 {
    let largest = folders
        .iter()
        .filter_map(|f| std::fs::read_dir(f).ok())
        .flat_map(|entries| entries.flatten())
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .max()
        .unwrap_or(0);
    largest.next_power_of_two().clamp(4096, MAX_LEN)
}

/// The seed folders of every target run.
struct Seeds {
    /// Per game folder, the folder of its replays.
    replays: Vec<(String, PathBuf)>,
    /// `[package.metadata.seeds]`.
    named: Vec<(String, Vec<String>)>,
}

impl Seeds {
    /// Finds or makes the replays of every game whose replays a target of `targets` reads.
    fn make(dir: &Path, manifest: &Manifest, targets: &[String]) -> Result<Seeds> {
        let named = manifest.seeds.clone();
        let reads_all = targets.iter().any(|t| {
            named
                .iter()
                .any(|(k, sources)| k == t && sources.iter().any(|s| s == "replays"))
        });
        let mut replays = Vec::new();
        for folder in manifest.games() {
            if reads_all || targets.iter().any(|t| *t == format!("verify_{folder}")) {
                let out = dir.join("seeds").join(format!("verify_{folder}"));
                if let Some(found) = replays_of(folder, manifest.play_args(folder), &out)? {
                    replays.push((folder.to_string(), found));
                }
            }
        }
        Ok(Seeds { replays, named })
    }

    /// The seed folders `target` starts from.
    fn of(&self, target: &str) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .replays
            .iter()
            .filter(|(folder, _)| target == format!("verify_{folder}"))
            .map(|(_, path)| path.clone())
            .collect();
        for (_, sources) in self.named.iter().filter(|(t, _)| t == target) {
            for source in sources {
                match source.as_str() {
                    "replays" => out.extend(self.replays.iter().map(|(_, p)| p.clone())),
                    folder => out.push(golden().join(folder)),
                }
            }
        }
        out.retain(|p| p.is_dir());
        out.dedup();
        out
    }
}

/// The folder of a game's replays (see the module docs), made into `out` where they are made.
fn replays_of(folder: &str, play: &[String], out: &Path) -> Result<Option<PathBuf>> {
    let game = folder.replace('_', "-");
    let golden = golden().join(&game);
    let entries: Vec<PathBuf> = std::fs::read_dir(&golden)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    let json = |p: &PathBuf| p.extension().is_some_and(|x| x == "json" || x == "jsonl");
    if entries.iter().any(|p| p.is_file() && json(p)) {
        return Ok(Some(golden));
    }
    std::fs::create_dir_all(out)?;
    let pairs: Vec<&PathBuf> = entries
        .iter()
        .filter(|p| p.join("map.map").is_file() && p.join("replay.json").is_file())
        .collect();
    if !pairs.is_empty() {
        for game in pairs {
            let mut pair = std::fs::read(game.join("map.map"))?;
            pair.push(0);
            pair.extend(std::fs::read(game.join("replay.json"))?);
            if let Some(name) = game.file_name() {
                std::fs::write(out.join(name), pair)?;
            }
        }
        return Ok(Some(out.to_path_buf()));
    }
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
            .arg(&game)
            .args(play)
            .args(["--seed", &seed.to_string(), "--replay"])
            .arg(&file)
            .stdout(Stdio::null());
        if let Err(e) = status(&mut cmd) {
            eprintln!("xtask: no seeds for verify_{folder}: {e:#}");
            return Ok(None);
        }
    }
    Ok(Some(out.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest::read(&crate::root().join("tests/fuzz")).expect("tests/fuzz/Cargo.toml")
    }

    #[test]
    fn every_target_file_is_a_target_and_every_target_has_its_file() {
        let m = manifest();
        let mut files: Vec<String> =
            std::fs::read_dir(crate::root().join("tests/fuzz/fuzz_targets"))
                .expect("tests/fuzz/fuzz_targets")
                .flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".rs")
                        .map(String::from)
                })
                .collect();
        files.sort();
        let mut targets = m.targets.clone();
        targets.sort();
        assert_eq!(files, targets);
    }

    #[test]
    fn the_targets_named_are_checked_and_none_means_all() {
        let all: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(targets(&[], &all).unwrap(), all);
        assert_eq!(targets(&["c".into()], &all).unwrap(), ["c"]);
        let e = targets(&["a".into(), "zz".into()], &all).unwrap_err();
        assert_eq!(e.to_string(), "unknown fuzz target `zz`; targets: a b c");
    }

    #[test]
    fn the_manifest_tables_are_read() {
        let text = "[package.metadata.seeds]\nreplay_detect = [\"replays\", \"x/maps\"]\n\n\
                    [package.metadata.play]\nsome_game = [\"--size\", \"6x6\"]\n\n\
                    [[bin]]\nname = \"verify_some_game\"\npath = \"a.rs\"\n\n\
                    [[bin]]\nname = \"replay_detect\"\n";
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("Cargo.toml"), text).expect("write");
        let m = Manifest::read(&dir).expect("manifest");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(m.targets, ["verify_some_game", "replay_detect"]);
        assert_eq!(m.games().collect::<Vec<_>>(), ["some_game"]);
        assert_eq!(m.play_args("some_game"), ["--size", "6x6"]);
        assert!(m.play_args("other").is_empty());
        assert_eq!(
            m.seeds,
            [(
                "replay_detect".to_string(),
                vec!["replays".to_string(), "x/maps".to_string()]
            )]
        );
    }

    #[test]
    fn a_target_mutates_up_to_its_largest_seed() {
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-len-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("a"), vec![b'x'; 5000]).expect("write");
        std::fs::write(dir.join("b"), b"short").expect("write");
        let len = max_len(std::slice::from_ref(&dir));
        std::fs::write(dir.join("c"), vec![b'x'; 1 << 20]).expect("write");
        let capped = max_len(std::slice::from_ref(&dir));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(len, 8192);
        assert_eq!(capped, MAX_LEN);
        assert_eq!(max_len(&[]), 4096);
    }
}
