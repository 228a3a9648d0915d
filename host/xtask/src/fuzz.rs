//! `cargo xtask fuzz [--seconds N] [TARGET...]`: every libFuzzer target of `tests/fuzz` (or the ones
//! named) for N seconds each, one after the other.
//!
//! The fuzz project is its own workspace and needs the nightly toolchain (sanitizers); cargo-fuzz is
//! installed when missing. The verifier targets also read the golden files as a seed corpus, without
//! copying them (`ARENA_GOLDEN`, else `../shared/golden` beside the project): a random text seldom
//! gets past a trace's first line. New inputs go to `tests/fuzz/corpus/<target>` (not committed);
//! a crash stops the run, its input in `tests/fuzz/artifacts/<target>/`.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Result};

use crate::tools::{on_path, status};

/// Every target, in the order they run.
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
    "game_tower_defense",
    "game_colorfight",
    "game_mammut",
    "game_ballroom",
    "game_ants",
];

/// Golden folders seeding a target, and the longest input it mutates (golden files are large).
fn seeds(target: &str) -> (&'static [&'static str], Option<u32>) {
    match target {
        "verify_tower_defense" => (&["tower-defense"], Some(65_536)),
        "verify_ballroom" => (&["ballroom"], Some(200_000)),
        "replay_detect" => (&["ballroom", "tower-defense"], Some(65_536)),
        "ants_map" => (&["ants/maps"], None),
        _ => (&[], None),
    }
}

fn golden() -> PathBuf {
    std::env::var_os("ARENA_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::root().join("../shared/golden"))
}

pub fn run(args: &[String]) -> Result<()> {
    let mut seconds = 30u32;
    let mut targets: Vec<&str> = Vec::new();
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--seconds" => match rest.next().map(|s| s.parse::<u32>()) {
                Some(Ok(n)) => seconds = n,
                _ => bail!("--seconds needs a number"),
            },
            t => match TARGETS.iter().find(|&&k| k == t) {
                Some(k) => targets.push(k),
                None => bail!("unknown fuzz target `{t}`; targets: {}", TARGETS.join(" ")),
            },
        }
    }
    if targets.is_empty() {
        targets = TARGETS.to_vec();
    }
    if !on_path("cargo-fuzz") {
        status(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    let dir = crate::root().join("tests/fuzz");
    let golden = golden();
    for target in targets {
        let corpus = dir.join("corpus").join(target);
        std::fs::create_dir_all(&corpus)?;
        let (folders, max_len) = seeds(target);
        let mut cmd = Command::new("cargo");
        cmd.current_dir(&dir)
            .args(["+nightly", "fuzz", "run", target])
            .arg(&corpus)
            .args(
                folders
                    .iter()
                    .map(|f| golden.join(f))
                    .filter(|p| p.is_dir()),
            )
            .args([
                "--".to_string(),
                format!("-max_total_time={seconds}"),
                "-rss_limit_mb=4096".to_string(),
            ])
            .args(max_len.map(|n| format!("-max_len={n}")));
        eprintln!("xtask: fuzz {target} for {seconds} s");
        status(&mut cmd)?;
    }
    Ok(())
}
