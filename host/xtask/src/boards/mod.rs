//! Each board's host side, one folder per board (`boards/<b>/`), and what a board is to xtask: the
//! [`Board`] trait and the one registry, [`BOARDS`].
//!
//! Adding a board: its firmware crate in the repository's `boards/<name>/` (a `Cargo.toml`), a
//! folder here with a `mod.rs` whose type implements [`Board`] (its name as `--board` spells it,
//! its firmware crate's folder, target, chip and core, its build, its rotation, its needs for
//! `setup`, its `firmware-test` checks, its `cost` figures, `emulate` on its emulated chip, its
//! words in the help, its flash image if it has one), a `mod` line below and one entry in
//! [`BOARDS`]; nothing else in xtask. The tests at the end of this file fail when a folder of
//! `boards/` with a `Cargo.toml` is not in the registry, and when a module of xtask outside
//! `boards/<b>/` names a board.

use std::path::{Path, PathBuf};

use anyhow::{bail, ensure, Context, Result};
use serde_json::Value;

use crate::rotation::Rotation;
use crate::setup::Needs;
use crate::steps::Clock;

pub(crate) mod qemu;
pub(crate) mod rp_pico;
pub(crate) mod size;
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

/// A firmware run with a command line (`key=value` words), instructions counted, stopped after
/// `timeout_s` seconds: its exit status and decoded log.
pub(crate) type CommandLine =
    fn(elf: &Path, args: Vec<String>, timeout_s: u32) -> Result<(i32, Vec<String>)>;

/// A file written from the board's release ELF that flashes it without a debug probe.
pub(crate) struct Image {
    /// The `flash` option that asks for it (`--uf2`; the task `uf2` writes the file alone).
    pub flag: &'static str,
    /// What the option does, in `flash --help`'s list of options.
    pub about: &'static str,
    /// What the option does, in `flash --help`'s text.
    pub how: &'static str,
    /// Builds the firmware and writes the image; returns its path.
    pub write: fn() -> Result<PathBuf>,
    /// Builds the image and puts it on the board.
    pub flash: fn() -> Result<()>,
}

/// A board's core as the cost tables name it.
pub(crate) struct Core {
    /// The core, its chip and clock, and what the figures count (a table's heading).
    pub about: &'static str,
    /// The core's clock in MHz (the bots' share of a turn's time limit).
    pub mhz: u64,
    /// What the figures count (`instructions`, `cycles`): the cost rows' `<unit>_per_turn`.
    pub unit: &'static str,
    /// The core's short name in another board's table (`M7`).
    pub short: &'static str,
    /// The key of its rotation's report in another board's JSON report.
    pub key: &'static str,
}

/// What a board is to xtask.
pub(crate) trait Board: Sync {
    /// Its name as `--board` spells it (`my-board`).
    fn name(&self) -> &'static str;
    /// How prose calls it, in messages (`the template's match 2 on <it>`).
    fn called(&self) -> &'static str;
    /// The words that name it in code and prose, lower case (its chip, its family): outside its folder
    /// here only the registry says them (the test below).
    #[allow(dead_code)] // Read by the tests only.
    fn words(&self) -> &'static [&'static str];
    /// Its firmware crate's folder, from the workspace root (`boards/my-board`).
    fn folder(&self) -> &'static str;
    /// The target triple its firmware builds for.
    fn target(&self) -> &'static str;
    /// The chip's flash and RAM in bytes (what `size` checks the firmware against).
    fn chip(&self) -> (u64, u64);
    /// Its core, clock and cost unit.
    fn core(&self) -> Core;
    /// Builds its release firmware (the `arena` binary); returns the release folder.
    fn build(&self) -> Result<PathBuf>;
    /// The rotation its firmware plays: its lineup's entries, and each match's final digest on
    /// the host.
    fn rotation(&self) -> Rotation;
    /// Match `first` of the firmware `elf`'s rotation played alone (the same match as in the
    /// rotation), each seat's cost and bot stack logged: its cost rows, each with the final
    /// digest the board logged (`cost --game`, `cost --template`).
    fn alone(&self, elf: &Path, first: u32) -> Result<Vec<Value>>;
    /// The file in target/ that `cost --board <name>` writes its rotation's report to.
    fn report(&self) -> &'static str;
    /// What it needs installed (its emulator, the tools that link it and decode its log):
    /// `cargo xtask setup` installs it.
    fn needs(&self) -> Needs;
    /// Checks (without installing) what its checks, `emulate` and `cost` need: by default its
    /// [`Board::needs`].
    fn setup(&self) -> Result<()> {
        crate::setup::needs(&self.needs(), crate::setup::Mode::Check)
    }
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
    /// What it says in `cargo xtask <task> --help`, in its own terms (`None`: nothing). For a task
    /// only one board has (`demo`, `panics`, `uf2`), the first such board's text is the task's
    /// whole help, its first line the summary `cargo xtask --help` lists; for a task of several
    /// boards (`emulate`, `firmware-test`, `cost`), a paragraph of the task's help after its name.
    /// `emulate` lists the boards that say something of it.
    fn help(&self, _task: &str) -> Option<&'static str> {
        None
    }
    /// How its firmware runs with a command line, if it takes one (`None`: it takes none; its
    /// runs are chosen by the `ARENA_RUN` words of its ELF).
    fn command_line(&self) -> Option<CommandLine> {
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

/// The first board whose firmware takes a command line (where a user's crate plays its lineup
/// against its desktop binary), and how to run it.
pub(crate) fn with_command_line() -> Result<(&'static dyn Board, CommandLine)> {
    match BOARDS
        .iter()
        .find_map(|b| b.command_line().map(|run| (*b, run)))
    {
        Some(found) => Ok(found),
        None => bail!("no board's firmware takes a command line"),
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

/// The baseline board (the registry's first, what `cargo xtask cost` measures) and its rotation's
/// report, measured again (`cargo xtask cost --json`) when it is missing or older than the
/// board's firmware.
pub fn baseline() -> Result<(&'static dyn Board, Value)> {
    let board = BOARDS[0];
    let elf = board.build()?.join("arena");
    let path = crate::root().join("target").join(board.report());
    let fresh = match (std::fs::metadata(&path), std::fs::metadata(&elf)) {
        (Ok(c), Ok(e)) => c.modified()? >= e.modified()?,
        _ => false,
    };
    if !fresh {
        let out = std::process::Command::new(std::env::current_exe()?)
            .args(["cost", "--json"])
            .stderr(std::process::Stdio::inherit())
            .output()
            .with_context(|| {
                format!(
                    "running `cargo xtask cost --json` for the {} figures",
                    board.core().short
                )
            })?;
        ensure!(out.status.success(), "`cargo xtask cost --json` failed");
    }
    let text = std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
    Ok((board, serde_json::from_str(&text)?))
}

/// `board`'s rotation's report as `cost --board <name>` left it (`null` when it has not run).
pub fn measured(board: &dyn Board) -> Value {
    std::fs::read_to_string(crate::root().join("target").join(board.report()))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null)
}

/// Every board's target triple, in the registry's order (what `setup` installs and checks).
pub(crate) fn targets() -> Vec<&'static str> {
    BOARDS.iter().map(|b| b.target()).collect()
}

/// Every board's needs, in the registry's order (what `setup` installs, `firmware-test` checks).
pub(crate) fn needs() -> Vec<Needs> {
    BOARDS.iter().map(|b| b.needs()).collect()
}

#[cfg(test)]
mod tests {
    use super::BOARDS;
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The words of the boards that `text` says (case-insensitive).
    fn named_in(text: &str) -> Vec<&'static str> {
        let text = text.to_lowercase();
        BOARDS
            .iter()
            .flat_map(|b| b.words().iter().copied().chain([b.name()]))
            .filter(|w| text.contains(w))
            .collect()
    }

    /// Adding a board is a folder and one registry line: no module of xtask outside
    /// `boards/<b>/` names a board, and in `boards/mod.rs` only its `mod` lines and the registry.
    #[test]
    fn no_module_outside_a_boards_folder_names_a_board() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let mut wrong = Vec::new();
        for file in &files {
            let rel = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(file).unwrap();
            if rel == "boards/mod.rs" {
                // This file: its `mod` lines, the registry, and this test's own words (none).
                let outside = text
                    .lines()
                    .filter(|l| !l.starts_with("pub(crate) mod ") && !l.contains("static BOARDS"))
                    .filter(|l| !named_in(l).is_empty())
                    .map(|l| format!("{rel}: {l}"));
                wrong.extend(outside);
                continue;
            }
            // A board's own folder (`boards/<b>/...`); `boards/size.rs` and the like are checked.
            if rel.starts_with("boards/") && rel.matches('/').count() > 1 {
                continue;
            }
            let named = named_in(&text);
            if !named.is_empty() {
                wrong.push(format!("{rel} names {named:?}"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// The registry's boards are the folders of the repository's `boards/` with a Cargo.toml (a
    /// board folder without its registry line fails), and each has its folder here.
    #[test]
    fn the_registry_is_the_boards_folders() {
        let root = crate::root();
        let mut folders: Vec<String> = std::fs::read_dir(root.join("boards"))
            .unwrap()
            .flatten()
            .filter(|d| d.path().join("Cargo.toml").is_file())
            .map(|d| format!("boards/{}", d.file_name().to_string_lossy()))
            .collect();
        folders.sort();
        let mut registry: Vec<String> = BOARDS.iter().map(|b| b.folder().to_owned()).collect();
        registry.sort();
        assert_eq!(registry, folders);
        let mut names: Vec<&str> = BOARDS.iter().map(|b| b.name()).collect();
        names.dedup();
        assert_eq!(names.len(), BOARDS.len(), "two boards of one name");
    }

    /// Every tool a check looks for is one setup installs: each board's Debian packages and tools,
    /// and those of fuzz and mutants, are in setup's lists, each once.
    #[test]
    fn the_checked_parts_are_setups_lists() {
        let needs = super::needs();
        let (debian, crates) = (
            crate::setup::all_debian(&needs),
            crate::setup::all_crates(&needs),
        );
        for board in BOARDS {
            let n = board.needs();
            assert!(
                n.debian.iter().all(|p| debian.contains(p)),
                "{}",
                board.name()
            );
            assert!(
                n.crates.iter().all(|k| crates.contains(k)),
                "{}",
                board.name()
            );
        }
        assert!(crate::setup::DEBIAN.iter().all(|p| debian.contains(p)));
        assert_eq!(crate::setup::CRATES[0], "cargo-fuzz");
        assert_eq!(crate::setup::CRATES[1], "cargo-mutants");
        assert!(crates.ends_with(&crate::setup::CRATES));
        let once = |names: Vec<&str>| {
            names
                .iter()
                .all(|n| names.iter().filter(|m| *m == n).count() == 1)
        };
        assert!(once(debian.iter().map(|p| p.0).collect()));
        assert!(once(crates.clone()));
    }
}
