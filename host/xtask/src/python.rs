//! The Python package's step of `cargo xtask test`: clippy over python/ (its own workspace, which
//! the root's clippy does not reach), a virtual environment under target/ with
//! maturin, pettingzoo, gymnasium, numpy and pytest from PyPI, the `pocket_arena` wheel built once
//! (profile `ci-wheel`: opt-level 1, without LTO, quicker to build on a fresh machine) and installed
//! into it, then its pytest suite (python/tests) against the `arena` binary `cargo test` built.

use crate::root;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// What the environment needs from PyPI.
const PACKAGES: [&str; 5] = ["maturin", "pettingzoo", "gymnasium", "numpy", "pytest"];

fn ok(cmd: &mut Command, what: &str) -> Result<()> {
    eprintln!("$ {what}");
    let status = cmd.status().with_context(|| format!("cannot run {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// Makes the environment (once), builds and installs the wheel, runs pytest; returns (passed,
/// failed).
pub fn run() -> Result<(u64, u64)> {
    let root = root();
    let venv = root.join("target/python-venv");
    let py = venv.join("bin/python");
    if !py.exists() {
        ok(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "python3 -m venv target/python-venv",
        )?;
    }
    let pip_ok = Command::new(&py)
        .args(["-c", "import maturin, pettingzoo, gymnasium, numpy, pytest"])
        .status()
        .is_ok_and(|s| s.success());
    if !pip_ok {
        ok(
            Command::new(&py)
                .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
                .args(PACKAGES),
            "pip install maturin pettingzoo gymnasium numpy pytest",
        )?;
    }
    // python/ is its own workspace: the root's clippy never sees it.
    ok(
        Command::new("cargo")
            .args(["clippy", "--quiet", "--all-targets", "--manifest-path"])
            .arg(root.join("python/Cargo.toml"))
            .args(["--", "-D", "warnings"]),
        "cargo clippy --all-targets --manifest-path python/Cargo.toml -- -D warnings",
    )?;
    let wheels = root.join("target/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    ok(
        Command::new(venv.join("bin/maturin"))
            .args(["build", "--profile", "ci-wheel", "--quiet", "-m"])
            .arg(root.join("python/Cargo.toml"))
            .arg("-o")
            .arg(&wheels),
        "maturin build --profile ci-wheel -m python/Cargo.toml",
    )?;
    let wheel = std::fs::read_dir(&wheels)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .context("maturin wrote no wheel")?;
    ok(
        Command::new(&py)
            .args([
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--force-reinstall",
            ])
            .arg(&wheel),
        "pip install pocket_arena (the wheel)",
    )?;
    pytest(&py, &root)
}

fn pytest(py: &Path, root: &Path) -> Result<(u64, u64)> {
    let arena = root.join("target/debug/arena");
    if !arena.exists() {
        // `cargo test` builds it for the host's integration tests; alone, build it.
        crate::run("cargo", &["build", "-p", "arena-host", "--bin", "arena"])?;
    }
    // From inside python/tests: `python -m` puts its folder first on the path, and from python/
    // that would import the source folder `pocket_arena` (no native module in a fresh clone)
    // instead of the wheel just installed.
    eprintln!("$ (cd python/tests && python -m pytest -q .)");
    let out = Command::new(py)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "."])
        .current_dir(root.join("python/tests"))
        .env("ARENA_BIN", &arena)
        .output()
        .context("cannot run pytest")?;
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    let count = |word: &str| -> u64 {
        let Some(last) = text
            .lines()
            .rev()
            .find(|l| l.contains(" passed") || l.contains(" failed"))
        else {
            return 0;
        };
        let words: Vec<&str> = last.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        words
            .windows(2)
            .find(|w| w[1].starts_with(word))
            .and_then(|w| w[0].parse().ok())
            .unwrap_or(0)
    };
    let (passed, failed) = (count("passed"), count("failed"));
    if !out.status.success() {
        bail!(
            "pytest failed ({}): {passed} passed, {failed} failed",
            out.status
        );
    }
    Ok((passed, failed))
}
