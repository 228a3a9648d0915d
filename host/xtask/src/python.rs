//! The Python package's step of `cargo xtask test`: clippy over python/ (its own workspace, which
//! the root's clippy does not reach), the `pocket_arena` wheel built once as a user gets it
//! (manylinux2014 x86_64, abi3: maturin `--zig`, with maturin and ziglang from PyPI in a tools
//! environment under target/ that `cargo xtask setup` makes; profile `ci-wheel`: opt-level 1,
//! without LTO, quicker to build on a fresh machine), then a fresh virtual environment with only that wheel (its dependencies from
//! PyPI), pytest and supersuit, and the package's pytest suite (python/tests) run in it against
//! the `arena` binary `cargo test` built. Everything from python/ runs in that folder, so its own
//! rust-toolchain.toml (no embedded or wasm targets) and .cargo/config.toml (no viewer module)
//! apply.

use crate::root;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// What the test environment takes from PyPI beside the wheel (and the wheel's dependencies).
const TESTING: [&str; 2] = ["pytest", "supersuit"];

fn ok(cmd: &mut Command, what: &str) -> Result<()> {
    eprintln!("$ {what}");
    let status = cmd.status().with_context(|| format!("cannot run {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// Checks the tools environment (`cargo xtask setup` makes it), builds the wheel, installs it into
/// a fresh environment, runs pytest there; returns (passed, failed).
pub fn run() -> Result<(u64, u64)> {
    let root = root();
    // maturin and ziglang: `cargo xtask setup` installs them.
    crate::setup::python_tools()?;
    let tools = crate::setup::python_tools_venv();
    let python = root.join("python");
    // python/ is its own workspace: the root's clippy never sees it.
    ok(
        Command::new("cargo")
            .args(["clippy", "--quiet", "--all-targets", "--", "-D", "warnings"])
            .current_dir(&python),
        "(cd python && cargo clippy --all-targets -- -D warnings)",
    )?;
    let wheels = root.join("target/wheels");
    let _ = std::fs::remove_dir_all(&wheels);
    let started = std::time::Instant::now();
    ok(
        Command::new(tools.join("bin/maturin"))
            .args(["build", "--profile", "ci-wheel", "--quiet", "--zig"])
            .args(["--compatibility", "manylinux2014", "-o"])
            .arg(&wheels)
            .current_dir(&python)
            // The bin folder first on the path: maturin finds the `python -m ziglang` there.
            .env("PATH", path_with(&tools.join("bin")))
            .env("ARENA_NO_VIEWER", "1"),
        "(cd python && maturin build --profile ci-wheel --zig --compatibility manylinux2014)",
    )?;
    let wheel = std::fs::read_dir(&wheels)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .context("maturin wrote no wheel")?;
    let size = std::fs::metadata(&wheel).map_or(0, |m| m.len());
    eprintln!(
        "wheel: {} ({} kB, built in {:.0} s)",
        wheel.file_name().unwrap_or_default().to_string_lossy(),
        size / 1000,
        started.elapsed().as_secs_f64()
    );
    // A fresh environment each run: the wheel as a user installs it, nothing left from before.
    let fresh = root.join("target/python-wheel-venv");
    let _ = std::fs::remove_dir_all(&fresh);
    let py = venv(&fresh)?;
    let started = std::time::Instant::now();
    let mut install: Vec<&str> = vec![wheel.to_str().context("the wheel's path is not UTF-8")?];
    install.extend(TESTING);
    pip(&py, &install, "pip install <the wheel> pytest supersuit")?;
    eprintln!(
        "installed the wheel and its dependencies into a fresh venv in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    pytest(&py, &root)
}

/// The Python of the virtual environment at `dir`, made first if there is none.
fn venv(dir: &Path) -> Result<std::path::PathBuf> {
    let py = dir.join("bin/python");
    if !py.exists() {
        ok(
            Command::new("python3").args(["-m", "venv"]).arg(dir),
            &format!("python3 -m venv {}", dir.display()),
        )?;
    }
    Ok(py)
}

fn pip(py: &Path, packages: &[&str], what: &str) -> Result<()> {
    ok(
        Command::new(py)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(packages),
        what,
    )
}

/// `PATH` with `dir` first.
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap_or_default()
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
