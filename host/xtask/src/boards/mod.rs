//! Each board's host side, one folder per board (`boards/<b>/`), and what a board is to xtask: the
//! [`Board`] trait and the one registry, [`BOARDS`].
//!
//! Adding a board: its firmware crate in the repository's `boards/<name>/` (a `Cargo.toml`), a
//! folder here with a `mod.rs` whose type implements [`Board`] (its name as `--board` spells it,
//! its firmware crate's folder, target and chip, its set-up check, its `firmware-test` checks, its
//! `cost` figures, `emulate` on its emulated chip, its flash image if it has one), a `mod` line
//! below and one entry in [`BOARDS`]. The tests at the end of this file fail when a folder of
//! `boards/` with a `Cargo.toml` is not in the registry, and when a module of xtask outside
//! `boards/<b>/` names a board.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::steps::Clock;

pub(crate) mod qemu;
pub(crate) mod rp_pico;
pub(crate) mod stm32f411;

/// Every board xtask knows, in the order `firmware-test`, `size` and the help list them.
pub(crate) static BOARDS: [&dyn Board; 3] = [&qemu::Qemu, &rp_pico::RpPico, &stm32f411::Stm32f411];

/// How `firmware-test` runs a board's checks.
pub(crate) enum Checks {
    /// On the calling thread, each part a step of the clock (the board whose checks run while the
    /// emulators do).
    Here(fn(&mut Clock) -> Result<()>),
    /// Built first (the step `build_step`), then checked on a thread of its own beside the
    /// others (an emulator on one core for minutes; its time recorded as `beside_step`). `rank`:
    /// the higher starts first (the longer run).
    Beside {
        build_step: &'static str,
        beside_step: &'static str,
        rank: u8,
        build: fn() -> Result<PathBuf>,
        check: fn(&Path) -> Result<()>,
    },
}

/// A file written from the board's release ELF that flashes it without a debug probe.
pub(crate) struct Image {
    /// The `flash` option that asks for it (`--uf2`; the task `uf2` writes the file alone).
    pub flag: &'static str,
    /// Builds the firmware and writes the image; returns its path.
    pub write: fn() -> Result<PathBuf>,
    /// Builds the image and puts it on the board.
    pub flash: fn() -> Result<()>,
}

/// What a board is to xtask.
pub(crate) trait Board: Sync {
    /// Its name as `--board` spells it (`rp-pico`).
    fn name(&self) -> &'static str;
    /// Its firmware crate's folder, from the workspace root (`boards/rp-pico`).
    fn folder(&self) -> &'static str;
    /// The target triple its firmware builds for.
    fn target(&self) -> &'static str;
    /// The chip's flash and RAM in bytes (what `size` checks the firmware against).
    fn chip(&self) -> (u64, u64);
    /// Checks (without installing) what its checks, `emulate` and `cost` need.
    fn setup(&self) -> Result<()>;
    /// Its part of `firmware-test`.
    fn checks(&self) -> Checks;
    /// `cost --board <name>`: its cost table (JSON only with `json_only`).
    fn cost(&self, json_only: bool) -> Result<()>;
    /// `emulate <name>`: its release ELF (or `elf`) on its emulated chip, `matches` matches, a
    /// frame every `snap` turns.
    fn emulate(&self, elf: Option<&Path>, matches: u32, snap: u32) -> Result<()>;
    /// `cargo xtask demo`: its rotation watched live, kept as PNG frames and a GIF, if it has a
    /// demo (`None`: it has none).
    fn demo(&self, _matches: u32, _snap: u32, _verbose: bool) -> Option<Result<()>> {
        None
    }
    /// `cargo xtask panics [--elf FILE]`: the panic paths left in its firmware, each explained, if
    /// it checks them (`None`: it does not).
    fn panics(&self, _elf: Option<&str>) -> Option<Result<()>> {
        None
    }
    /// A board one can hold (`flash` runs on it); `false` for a board that exists only emulated.
    fn on_a_desk(&self) -> bool {
        true
    }
    /// The image `flash` writes without a probe, if it has one.
    fn image(&self) -> Option<Image> {
        None
    }
}

/// The board `--board name` names.
pub(crate) fn named(name: &str) -> Result<&'static dyn Board> {
    match BOARDS.iter().find(|b| b.name() == name) {
        Some(b) => Ok(*b),
        None => bail!("unknown board {name}: {}", names(" or ")),
    }
}

/// `cargo xtask <task>` for a task only some boards have: the first board's that has it.
pub(crate) fn first(task: &str, run: impl Fn(&dyn Board) -> Option<Result<()>>) -> Result<()> {
    match BOARDS.iter().find_map(|b| run(*b)) {
        Some(out) => out,
        None => bail!("no board has `cargo xtask {task}`"),
    }
}

/// The boards' names, comma-separated, `last` before the last one (`a, b or c`).
pub(crate) fn names(last: &str) -> String {
    names_where(|_| true, last)
}

/// [`names`] of the boards `which` keeps.
pub(crate) fn names_where(which: impl Fn(&&dyn Board) -> bool, last: &str) -> String {
    let all: Vec<&str> = BOARDS
        .iter()
        .filter(|b| which(b))
        .map(|b| b.name())
        .collect();
    match all.split_last() {
        Some((tail, [])) => (*tail).to_owned(),
        Some((tail, rest)) => format!("{}{last}{tail}", rest.join(", ")),
        None => String::new(),
    }
}
