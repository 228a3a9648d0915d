//! What every end-to-end test of the `arena` binary needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `arena` from the workspace root (so `host/examples/...` paths work).
pub fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("run arena")
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

/// The golden data folder for `game` (`ARENA_GOLDEN` or `../shared/golden`).
pub fn golden(game: &str) -> PathBuf {
    let root = std::env::var_os("ARENA_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/golden"));
    let dir = root.join(game);
    assert!(
        dir.is_dir(),
        "golden data for {game} not found at {}: put ../shared beside the project or set ARENA_GOLDEN",
        dir.display()
    );
    dir
}

/// `cmd:` for a Python test bot in host/tests/bots with its arguments.
pub fn test_bot(script: &str, args: &str) -> String {
    format!("cmd:python3 host/tests/bots/{script} {args}")
}
