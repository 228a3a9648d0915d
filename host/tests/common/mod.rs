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

/// A first port of `n` consecutive ports that are free on 127.0.0.1 now (for `--port-base`):
/// tests never depend on fixed ports.
pub fn free_ports(n: u16) -> u16 {
    for _ in 0..100 {
        let probe = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("bind a free port");
        let base = probe.local_addr().expect("its address").port();
        drop(probe);
        if base.checked_add(n).is_none() {
            continue;
        }
        let held: Vec<_> = (0..n)
            .map_while(|i| std::net::TcpListener::bind(("127.0.0.1", base + i)).ok())
            .collect();
        if held.len() == n as usize {
            return base;
        }
    }
    panic!("no {n} consecutive free ports on 127.0.0.1");
}

/// `cmd:` for a Python test bot in host/tests/bots with its arguments.
pub fn test_bot(script: &str, args: &str) -> String {
    format!("cmd:python3 host/tests/bots/{script} {args}")
}
