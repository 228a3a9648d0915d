//! Small helpers around external tools (the installs themselves are in `setup`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
        .unwrap_or(false)
}

pub fn status(cmd: &mut Command) -> Result<()> {
    let st = cmd
        .status()
        .with_context(|| format!("cannot start {cmd:?}"))?;
    if !st.success() {
        bail!("{cmd:?} failed: {st}");
    }
    Ok(())
}

fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .output()
        .with_context(|| format!("cannot start {cmd:?}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The names in `wanted` that no line of `listed` (`rustup target list --installed`) names.
pub fn not_listed<'a>(listed: &str, wanted: &[&'a str]) -> Vec<&'a str> {
    wanted
        .iter()
        .copied()
        .filter(|t| !listed.lines().any(|l| l.trim() == *t))
        .collect()
}

/// Fails, naming `cargo xtask setup` (which adds them), when a target in `wanted` is missing.
pub fn targets(wanted: &[&str]) -> Result<()> {
    let installed = output(Command::new("rustup").args(["target", "list", "--installed"]))?;
    let missing = not_listed(&installed, wanted);
    if !missing.is_empty() {
        bail!(
            "the rustup targets {} are missing: run `cargo xtask setup`",
            missing.join(", ")
        );
    }
    Ok(())
}

/// llvm-size from the llvm-tools component.
pub fn llvm_size() -> Result<PathBuf> {
    llvm_tool("llvm-size")
}

/// A program of the llvm-tools component (`cargo xtask setup` adds it when missing).
pub fn llvm_tool(name: &str) -> Result<PathBuf> {
    let sysroot = output(Command::new("rustc").args(["--print", "sysroot"]))?;
    let host = host_triple()?;
    let path = PathBuf::from(sysroot.trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin")
        .join(name);
    if !path.is_file() {
        bail!(
            "no {} (rustup's llvm-tools component): run `cargo xtask setup`",
            path.display()
        );
    }
    Ok(path)
}

/// The target triple of this machine, as rustc names it.
pub fn host_triple() -> Result<String> {
    output(Command::new("rustc").arg("-vV"))?
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .context("rustc -vV gave no host")
}

/// Builds a board in release mode (its own workspace and target dir); returns its release folder.
pub fn build_board(board: &str, target: &str) -> Result<PathBuf> {
    let dir = crate::root().join(board);
    let target_dir = dir.join("target");
    eprintln!("xtask: building {board}");
    status(
        Command::new("cargo")
            .args(["build", "--release", "--bins"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", &target_dir)
            .env_remove("RUSTFLAGS"),
    )?;
    Ok(target_dir.join(target).join("release"))
}

/// A fresh folder for a run's snapshots.
pub fn fresh_dir(dir: &Path) -> Result<PathBuf> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    Ok(dir.canonicalize()?)
}
