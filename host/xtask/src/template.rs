//! The user's crate, templates/rust-bot, in `cargo xtask test`: its firmware built for every board
//! beside the board's own (in the board's target: the same profile and flags, so it reuses the
//! board's compiled dependencies), and its bots played on the QEMU board with every digest equal to
//! its desktop binary's (the firmware's match loop run in-process on the host).

use std::path::PathBuf;
use std::process::Command;

use anyhow::{ensure, Context, Result};

use crate::{log, qemu, root, tools};

/// The template, from the project's root.
pub const DIR: &str = "templates/rust-bot";
/// Its firmware binary in each board folder.
const BIN: &str = "mybot";
/// Matches played on QEMU: the template's lineup once (four entries).
const MATCHES: u32 = 4;

/// Builds the template's firmware for `board` (a folder of boards/ and of the template's boards/)
/// into the project's board target; returns the ELF.
pub fn build_board(board: &str, target: &str) -> Result<PathBuf> {
    let target_dir = root().join("boards").join(board).join("target");
    eprintln!("xtask: building {DIR}/boards/{board}");
    tools::status(
        Command::new("cargo")
            .args(["build", "--release", "--bin", BIN])
            .current_dir(root().join(DIR).join("boards").join(board))
            .env("CARGO_TARGET_DIR", &target_dir)
            .env_remove("RUSTFLAGS"),
    )?;
    Ok(target_dir.join(target).join("release").join(BIN))
}

/// The desktop binary's log of `args` (`matches=N digest=N`), built first (the template's own
/// target).
fn desktop(args: &[String]) -> Result<Vec<String>> {
    let dir = root().join(DIR);
    tools::status(
        Command::new("cargo")
            .args(["build", "--release", "--bin", "desktop"])
            .current_dir(&dir)
            .env_remove("RUSTFLAGS"),
    )?;
    let out = Command::new(dir.join("target/release/desktop"))
        .args(args)
        .output()
        .context("cannot start the template's desktop binary")?;
    ensure!(
        out.status.success(),
        "the template's desktop binary failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// Builds the template's QEMU firmware and plays its lineup in QEMU: every digest (one a turn) and
/// each match's game and configuration as the desktop binary's; each match's stack high-water
/// within the stack and its cost row logged.
pub fn qemu_check() -> Result<()> {
    let elf = build_board("qemu-lm3s6965", "thumbv7m-none-eabi")?;
    let args = vec![format!("matches={MATCHES}"), "digest=1".to_owned()];
    let ran = qemu::Run::new(&elf, args.clone(), 300).go()?;
    ensure!(
        ran.status == 0,
        "the template's QEMU firmware exited with {}",
        ran.status
    );
    let host = desktop(&args)?;
    let started: Vec<(u32, String, String, ())> = host
        .iter()
        .filter(|l| log::kind(l) == "start")
        .filter_map(|l| {
            Some((
                log::num(l, "m")?,
                log::value(l, "game")?.to_owned(),
                log::value(l, "config")?.to_owned(),
                (),
            ))
        })
        .collect();
    ensure!(
        started.len() == MATCHES as usize,
        "the desktop binary started {} matches, not {MATCHES}",
        started.len()
    );
    let said = log::same_matches(
        &ran.lines,
        "QEMU board",
        &log::triples(&host, "digest"),
        &log::triples(&host, "final"),
        &started,
    )?;
    println!("xtask test: {DIR} on QEMU and its desktop binary: {said} identical");
    for m in 0..MATCHES {
        let line = |kind: &str| {
            ran.lines
                .iter()
                .find(|l| log::kind(l) == kind && log::num::<u32>(l, "m") == Some(m))
        };
        let stack = line("stack")
            .and_then(|l| Some((log::num::<u32>(l, "used")?, log::num::<u32>(l, "of")?)));
        let Some((used, of)) = stack else {
            anyhow::bail!("no stack line for the template's match {m} on QEMU");
        };
        ensure!(
            used < of,
            "the template's match {m} used {used} of {of} bytes of stack"
        );
        ensure!(
            line("cost")
                .and_then(|l| log::num::<u32>(l, "bots_median"))
                .is_some(),
            "no cost line with the bots' median for the template's match {m} on QEMU"
        );
    }
    Ok(())
}
