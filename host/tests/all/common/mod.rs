//! What every end-to-end test of the `arena` binary needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `arena` from the workspace root (so `host/examples/...` paths work).
pub fn arena(args: &[&str]) -> Output {
    Arena::new(args).run()
}

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// stdout and stderr together, for assertion messages.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The `--json` report of a successful run.
pub fn report(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", text(o));
    serde_json::from_slice(&o.stdout).expect("one JSON report")
}

/// A path as a command-line argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// A JSON file (a report, a results file, a replay), parsed.
/// Fails with every failure of a test that looks at many cases before it judges, one a line.
pub fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

pub fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A fresh temporary folder (removed when it is dropped) and the path of `name` in it.
pub fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(name);
    (dir, path)
}

/// A path in a fresh temporary folder of its own, removed with the folder when this is dropped.
pub struct TempPath {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl AsRef<Path> for TempPath {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for TempPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

/// An `arena` command line, built up in order, run from the workspace root.
#[derive(Clone, Debug)]
pub struct Arena {
    args: Vec<String>,
}

impl Arena {
    pub fn new(args: &[&str]) -> Arena {
        Arena { args: Vec::new() }.args(args)
    }

    /// `arena play GAME`.
    pub fn play(game: &str) -> Arena {
        Arena::new(&["play", game])
    }

    /// `arena tournament GAME`.
    pub fn tournament(game: &str) -> Arena {
        Arena::new(&["tournament", game])
    }

    /// `arena verify GAME FILE`.
    pub fn verify(game: &str, file: &Path) -> Arena {
        Arena::new(&["verify", game, arg(file)])
    }

    /// More arguments, after those already given.
    pub fn args(mut self, args: &[&str]) -> Arena {
        self.args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    /// `--bot B` for each of `bots`, in seat order.
    pub fn bots(mut self, bots: &[&str]) -> Arena {
        for b in bots {
            self = self.args(&["--bot", b]);
        }
        self
    }

    /// `FLAG PATH`.
    pub fn file(self, flag: &str, path: &Path) -> Arena {
        self.args(&[flag, arg(path)])
    }

    /// `--replay PATH`.
    pub fn replay(self, path: &Path) -> Arena {
        self.file("--replay", path)
    }

    /// The process to run, not started yet.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
        cmd.args(&self.args).current_dir(workspace());
        cmd
    }

    pub fn run(&self) -> Output {
        self.command().output().expect("run arena")
    }

    /// Runs it; it must succeed.
    pub fn ok(&self) -> Output {
        let out = self.run();
        assert!(out.status.success(), "{self}: {}", text(&out));
        out
    }

    /// Runs it; it must exit with `code`. Its stdout and stderr together.
    pub fn exits(&self, code: i32) -> String {
        let out = self.run();
        let said = text(&out);
        assert_eq!(out.status.code(), Some(code), "{self}: {said}");
        said
    }

    /// Runs it with `--replay FILE --json` last, FILE `name` in a fresh temporary folder; it must
    /// succeed. Its report, and FILE.
    pub fn played(self, name: &str) -> (serde_json::Value, TempPath) {
        let (dir, path) = scratch(name);
        let report = self.replay(&path).report();
        (report, TempPath { path, _dir: dir })
    }

    /// Runs it with `--json` last; it must succeed. Its report.
    pub fn report(&self) -> serde_json::Value {
        report(&self.clone().args(&["--json"]).ok())
    }
}

impl std::fmt::Display for Arena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "arena {}", self.args.join(" "))
    }
}

/// A tournament's results without the times a turn (`time_a_turn`, every match's `times`):
/// measured, they are the one part that differs from run to run. Both must be there.
pub fn untimed(mut results: serde_json::Value) -> serde_json::Value {
    let r = results.as_object_mut().expect("results are an object");
    assert!(r.remove("time_a_turn").is_some(), "no time_a_turn");
    for m in r["results"].as_array_mut().expect("results[]") {
        let m = m.as_object_mut().expect("a result");
        assert!(m.remove("times").is_some(), "no times: {m:?}");
    }
    results
}

/// `arena verify GAME FILE EXTRA...` must succeed: what it said.
pub fn verifies(game: &str, file: &Path, extra: &[&str]) -> String {
    text(&Arena::verify(game, file).args(extra).ok())
}

/// The four built-in bots the Mammut tests seat after the bot under test.
pub const MAMMUT_FIELD: [&str; 4] = ["greedy", "random", "cautious", "greedy"];

/// `arena play mammut` with `bot` at seat 0 and [`MAMMUT_FIELD`] after it.
pub fn mammut_against_builtins(bot: &str) -> Arena {
    Arena::play("mammut").bots(&[bot]).bots(&MAMMUT_FIELD)
}

/// `arena play ants --map MAP` with `bots`.
pub fn ants_on(map: &Path, bots: &[&str]) -> Arena {
    Arena::play("ants").file("--map", map).bots(bots)
}

/// The golden data folders, found as arena-tests finds them (this crate cannot depend on it).
#[path = "../../../../tests/src/golden_data.rs"]
mod golden_data;
pub use golden_data::golden;

/// `cmd:` for a Python test bot in host/tests/bots with its arguments.
pub fn test_bot(script: &str, args: &str) -> String {
    format!("cmd:python3 host/tests/bots/{script} {args}")
}

/// The faults of seat `seat` in a report, of the kind `kind`.
pub fn faults_of_kind<'a>(
    report: &'a serde_json::Value,
    seat: usize,
    kind: &str,
) -> Vec<&'a serde_json::Value> {
    report["seats"][seat]["faults"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == kind)
        .collect()
}
