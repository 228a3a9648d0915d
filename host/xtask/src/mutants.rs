//! `cargo xtask mutants [--diff] [--base REF] [--jobs J] [--timeout S] [--max N] [--budget M]
//! [FILE...]`: mutation testing of the core with cargo-mutants (which `cargo xtask setup`
//! installs; this task says so when it is missing). Each mutant is a small change to the code (an operator swapped, a
//! function body replaced by a default value); a mutant the tests still pass on is a gap in the
//! tests, or an equivalent mutant (one that changes nothing observable), which
//! `.cargo/mutants.toml` excludes by name with the reason beside it.
//!
//! - Without `--diff`: every mutant of the core's game folders (`core/src/games/`), or of the files
//!   named (`core/src/games/colorfight/timing.rs`); about 2,900 mutants, hours of CPU.
//! - `--diff`: only the mutants on the lines a change touches: `git diff` (the work tree against the
//!   merge base of `HEAD` and main: `--base`, else `origin/main`, else `main`). On main itself,
//!   with nothing changed, nothing is tested, and the run says so. This is `cargo xtask test`'s
//!   step.
//!
//! The mutants are those of arena-core, tested by arena-core's own tests (unit, property and doc
//! tests; the rules, the bots, the digests): a mutant there rebuilds one crate, where the host's and
//! arena-tests' tests would rebuild and link the whole host for each. At most `--max` mutants
//! (default 20 with `--diff`, else all; 0: all), spread evenly over the list (cargo-mutants'
//! round-robin shard); `--jobs` builds at a time (default 1); `--timeout` seconds a test run
//! (default: cargo-mutants' own, 5 times the unmutated run's); `--budget` minutes in all (default
//! 10 with `--diff`, else none), after which the run is stopped and reports what it tested. The
//! report: `target/mutants/mutants.out/` (`caught.txt`, `missed.txt`, `timeout.txt`,
//! `unviable.txt`). A missed mutant fails the task; a timeout (a mutant that loops) does not.

use anyhow::{bail, ensure, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The package whose mutants are tested, and with whose tests.
const PACKAGE: &str = "arena-core";

/// The cargo profile each mutant is built with (the root `Cargo.toml`: the tests' without line
/// tables, half the rebuild).
const PROFILE: &str = "mutants";

/// The files of a full run.
const GAME_FOLDERS: &str = "core/src/games/**";

/// What `cargo xtask mutants` was asked.
#[derive(Debug, PartialEq)]
pub struct Options {
    /// Only the mutants of the change against main's merge base.
    pub diff: bool,
    /// The branch or commit to compare with (`--diff`).
    pub base: Option<String>,
    /// The files to mutate (default: the core's game folders).
    pub files: Vec<String>,
    pub jobs: u32,
    pub timeout: Option<u32>,
    /// At most this many mutants (0: all).
    pub max: usize,
    /// Stop after this many minutes.
    pub budget: Option<u64>,
}

/// `cargo xtask mutants`'s options, as typed (see [`Args::options`] for the defaults that depend on
/// `--diff`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only the mutants on the lines changed against the merge base with main.
    #[arg(long, conflicts_with = "files")]
    pub diff: bool,
    /// With --diff: the branch or commit to compare with (default: origin/main, else main).
    #[arg(long, value_name = "REF", requires = "diff")]
    pub base: Option<String>,
    /// Builds at a time (0 counts as 1).
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: u32,
    /// Seconds a test run may take (default: 5 times the unmutated run).
    #[arg(long, value_name = "S")]
    pub timeout: Option<u32>,
    /// At most N mutants, spread over the list; 0: all
    /// (default: 20 with --diff, else all).
    #[arg(long, value_name = "N", verbatim_doc_comment)]
    pub max: Option<usize>,
    /// Stop after MIN minutes and report what was tested; 0: no limit
    /// (default: 10 with --diff, else none).
    #[arg(long, value_name = "MIN", verbatim_doc_comment)]
    pub budget: Option<u64>,
    /// The files to mutate (default: the core's game folders, core/src/games/).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

impl Args {
    /// The options with their defaults (`--max` 20 and `--budget` 10 with `--diff`).
    pub fn options(self) -> Options {
        Options {
            diff: self.diff,
            base: self.base,
            files: self.files,
            jobs: self.jobs.max(1),
            timeout: self.timeout,
            max: self.max.unwrap_or(if self.diff { 20 } else { 0 }),
            budget: match self.budget {
                Some(m) => Some(m).filter(|&m| m > 0),
                None => self.diff.then_some(10),
            },
        }
    }
}

/// `cargo xtask mutants ...`.
pub fn run(args: Args) -> Result<()> {
    let o = args.options();
    crate::setup::cargo_mutants()?;
    let out = crate::root().join("target/mutants");
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut select = vec!["--package".to_string(), PACKAGE.to_string()];
    if o.diff {
        let (base, diff) = change(o.base.as_deref())?;
        let Some(diff) = diff else {
            println!("mutants: no .rs file changed against {base}: no mutant to test");
            return Ok(());
        };
        let file = out.join("change.diff");
        std::fs::write(&file, diff).with_context(|| format!("cannot write {}", file.display()))?;
        select.extend(["--in-diff".into(), file.to_string_lossy().into_owned()]);
        println!(
            "mutants: the lines changed against {base} (the diff in {})",
            file.display()
        );
    } else if o.files.is_empty() {
        select.extend(["--file".into(), GAME_FOLDERS.into()]);
    } else {
        for f in &o.files {
            select.extend(["--file".into(), f.clone()]);
        }
    }
    let count = listed(&select)?;
    if count == 0 {
        println!("mutants: no mutant in what was selected: nothing to test");
        return Ok(());
    }
    let mut args: Vec<String> = [
        "mutants",
        "--test-package",
        PACKAGE,
        "--profile",
        PROFILE,
        "--jobs",
    ]
    .map(String::from)
    .to_vec();
    args.push(o.jobs.to_string());
    args.extend(["--output".into(), out.to_string_lossy().into_owned()]);
    args.extend(select);
    if let Some(t) = o.timeout {
        args.extend(["--timeout".into(), t.to_string()]);
    }
    let shards = shards(count, o.max);
    if shards > 1 {
        args.extend([
            "--shard".into(),
            format!("0/{shards}"),
            "--sharding".into(),
            "round-robin".into(),
        ]);
        println!(
            "mutants: {count} mutants; testing {} of them, one in every {shards} (--max 0: all)",
            count.div_ceil(shards)
        );
    } else {
        println!("mutants: testing {count} mutants");
    }
    let stopped = cargo_mutants(&args, o.budget.map(|m| Duration::from_secs(m * 60)))?;
    let outcome = Outcome::read(&out.join("mutants.out"))?;
    println!("{}", outcome.summary());
    if let Some(budget) = stopped {
        println!(
            "mutants: stopped after the budget of {} min: the rest untested",
            budget.as_secs() / 60
        );
    }
    ensure!(
        outcome.missed.is_empty(),
        "{} mutants missed (no test failed on them); each wants a test, or, if it changes nothing \
         observable, an exclude_re line in .cargo/mutants.toml with the reason:\n{}",
        outcome.missed.len(),
        outcome.missed.join("\n")
    );
    Ok(())
}

/// How many shards to cut `count` mutants into so that one holds at most `max` (0: no cap).
fn shards(count: usize, max: usize) -> usize {
    if max == 0 {
        1
    } else {
        count.div_ceil(max).max(1)
    }
}

/// The base commit and the diff of the work tree's `.rs` files against it (`None`: no change).
fn change(base: Option<&str>) -> Result<(String, Option<String>)> {
    let git = |args: &[&str]| -> Result<Option<String>> {
        let out = Command::new("git")
            .args(args)
            .current_dir(crate::root())
            .output()
            .context("cannot run git")?;
        Ok(out
            .status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned()))
    };
    let candidates: Vec<&str> = match base {
        Some(b) => vec![b],
        None => vec!["origin/main", "main"],
    };
    let Some((name, merge_base)) = candidates.iter().find_map(|b| {
        git(&["merge-base", "HEAD", b])
            .ok()
            .flatten()
            .map(|m| (*b, m.trim().to_string()))
    }) else {
        bail!(
            "mutants --diff: no merge base of HEAD and {}",
            candidates.join(" or ")
        );
    };
    let diff = git(&["diff", &merge_base, "--", "*.rs"])?
        .with_context(|| format!("git diff {merge_base} failed"))?;
    let short = merge_base.get(..10).unwrap_or(&merge_base);
    Ok((
        format!("{name}'s merge base {short}"),
        (!diff.trim().is_empty()).then_some(diff),
    ))
}

/// How many mutants cargo-mutants lists for `select`.
fn listed(select: &[String]) -> Result<usize> {
    let out = Command::new("cargo")
        .arg("mutants")
        .arg("--list")
        .args(select)
        .current_dir(crate::root())
        .output()
        .context("cannot run cargo mutants --list")?;
    ensure!(
        out.status.success(),
        "cargo mutants --list failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count())
}

/// Runs `cargo <args>`; stopped (as by Ctrl-C, so that it reports what it tested) once `budget`
/// is spent, which it returns. Fails on cargo-mutants' own failures (a baseline that fails, a diff
/// that does not apply), not on missed mutants or timeouts (read from the report).
fn cargo_mutants(args: &[String], budget: Option<Duration>) -> Result<Option<Duration>> {
    eprintln!("$ cargo {}", args.join(" "));
    let mut child = Command::new("cargo")
        .args(args)
        .current_dir(crate::root())
        .spawn()
        .context("cannot run cargo mutants")?;
    let start = Instant::now();
    let mut stopped = None;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if let Some(b) = budget.filter(|b| stopped.is_none() && start.elapsed() > *b) {
            // SIGINT: cargo-mutants stops its jobs, restores nothing it did not copy, and writes
            // its report.
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
            stopped = Some(b);
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    // 0: all caught; 2: some missed; 3: some timed out (read from the report).
    match status.code() {
        Some(0 | 2 | 3) => Ok(stopped),
        _ if stopped.is_some() => Ok(stopped),
        Some(4) => bail!("the tests fail without any mutant (cargo mutants' baseline)"),
        _ => bail!("`cargo {}` failed ({status})", args.join(" ")),
    }
}

/// What a run found, from its report's files.
#[derive(Debug, Default)]
struct Outcome {
    caught: usize,
    missed: Vec<String>,
    timeout: usize,
    unviable: usize,
}

impl Outcome {
    fn read(dir: &Path) -> Result<Outcome> {
        let lines = |name: &str| -> Vec<String> {
            let path: PathBuf = dir.join(name);
            std::fs::read_to_string(path)
                .unwrap_or_default()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(String::from)
                .collect()
        };
        ensure!(dir.is_dir(), "no report in {}", dir.display());
        Ok(Outcome {
            caught: lines("caught.txt").len(),
            missed: lines("missed.txt"),
            timeout: lines("timeout.txt").len(),
            unviable: lines("unviable.txt").len(),
        })
    }

    fn summary(&self) -> String {
        format!(
            "mutants: {} caught, {} missed, {} unviable (do not build), {} timeouts",
            self.caught,
            self.missed.len(),
            self.unviable,
            self.timeout
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The task's options alone (the command line's own parse is cli.rs's test: this module
    /// does not name the command line, which names it).
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        args: Args,
    }

    /// The options of `cargo xtask mutants <s>`, parsed by the task's own clap options.
    fn parse(s: &str) -> Result<Options, clap::Error> {
        use clap::Parser as _;
        let line = ["mutants"].into_iter().chain(s.split_whitespace());
        Ok(Line::try_parse_from(line)?.args.options())
    }

    #[test]
    fn the_options_are_read() {
        let o = parse("--diff --base origin/dev --jobs 2 --timeout 60").unwrap();
        assert_eq!(
            o,
            Options {
                diff: true,
                base: Some("origin/dev".into()),
                files: vec![],
                jobs: 2,
                timeout: Some(60),
                max: 20,
                budget: Some(10),
            }
        );
        let o = parse("core/src/rng.rs --max 5").unwrap();
        assert_eq!(o.files, ["core/src/rng.rs"]);
        assert_eq!((o.diff, o.max, o.budget, o.jobs), (false, 5, None, 1));
        assert_eq!(parse("--diff --budget 0").unwrap().budget, None);
    }

    #[test]
    fn bad_options_are_refused() {
        for bad in [
            "--jobs",
            "--jobs many",
            "--max -1",
            "--frobnicate",
            "--diff a.rs",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_cap_spreads_the_mutants_over_shards() {
        assert_eq!(shards(93, 0), 1);
        assert_eq!(shards(93, 100), 1);
        assert_eq!(shards(93, 20), 5);
        assert_eq!(shards(20, 20), 1);
        assert_eq!(shards(21, 20), 2);
    }

    #[test]
    fn a_report_is_counted() {
        let dir = std::env::temp_dir().join(format!("xtask-mutants-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("caught.txt"), "a\nb\nc\n").unwrap();
        std::fs::write(
            dir.join("missed.txt"),
            "core/src/x.rs:1:1: replace f with ()\n",
        )
        .unwrap();
        std::fs::write(dir.join("unviable.txt"), "u\n").unwrap();
        let o = Outcome::read(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            o.summary(),
            "mutants: 3 caught, 1 missed, 1 unviable (do not build), 0 timeouts"
        );
        assert_eq!(o.missed, ["core/src/x.rs:1:1: replace f with ()"]);
        assert!(Outcome::read(&dir).is_err());
    }
}
