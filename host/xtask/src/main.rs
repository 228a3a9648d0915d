//! `cargo xtask <task>`: the glue that needs several targets, QEMU and host tools.
//!
//! - `demo`: install what is missing, build the QEMU firmware, play the whole rotation in QEMU with
//!   one line per match (the decoded log in `target/demo/log.txt`), save the emulated screen as PNG
//!   frames and an animated GIF under `target/demo/`;
//! - `test`: installs what a fresh machine lacks (beside clippy), then runs every check CI runs:
//!   formatting (every workspace), clippy, rustdoc, all tests, the server load test and the
//!   scale-out recipes on a quiet machine; then, side by side, the firmware checks (host and QEMU digests identical,
//!   screendumps equal to the host rendering, the panic screen and exit status, no unexplained
//!   panic path, the size limits and the cost budget, the emulated Pico and STM32F411) and the
//!   Python package, the viewer and report in chromium, every fuzz target for 4 s, the core's
//!   mutants on the lines changed against main;
//! - `cost`: instructions per turn of every lineup entry under `-icount shift=0`, with stack
//!   high-water mark and state size (`--json` for JSON only); `--board rp-pico`: cycles per turn on
//!   the emulated Pico (Cortex-M0+) beside them;
//! - `emulate rp-pico`: the Pico's release ELF on an emulated RP2040 with its SSD1306 (the Node
//!   harness in `boards/rp-pico/emulator`), the log decoded live, PNG frames and a GIF in
//!   `target/emulate/rp-pico/`;
//! - `size`: flash and static RAM of every board;
//! - `panics`: the panic paths left in the QEMU firmware, each with why it cannot fire;
//! - `load-test`: `arena serve colorfight` under hostile connections while a real client plays
//!   (see `load.rs`);
//! - `fuzz [--seconds N] [--jobs J] [TARGET...]`: the libFuzzer targets of `tests/fuzz`;
//! - `mutants [--diff] [FILE...]`: cargo-mutants over the core's game folders, or the mutants of the
//!   lines a change touches (see `mutants.rs`);
//! - `emulate stm32f411`: the Black Pill's release ELF on an emulated STM32F411CE with its ST7789
//!   (the Python harness over Unicorn in `boards/stm32f411/emulator`), frames in
//!   `target/emulate/stm32f411/`; `cost --board stm32f411`: Cortex-M4 instructions per turn;
//! - `uf2 --board rp-pico`: the Pico's UF2 file in `target/uf2/`;
//! - `flash --board rp-pico|stm32f411`: build and run on a real board with probe-rs; `--uf2` (Pico:
//!   copy the UF2 file onto the RPI-RP2 drive) or `--dfu` (Black Pill: dfu-util to the ROM's DFU
//!   bootloader) flash without a probe.

use anyhow::{bail, ensure, Context, Result};
use std::process::Command;

/// `println!` for this file and every module below: std's panics when stdout is a pipe whose reader
/// has gone (`cargo xtask lineup --help | head -1`); this drops what cannot be written, and the task
/// goes on to its end (its files and its exit status are what count).
macro_rules! println {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!`, likewise for stderr.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod check;
mod cost;
mod cost_pick;
mod cost_template;
mod demo;
mod dfu;
mod elf;
mod emulate;
mod emulator;
mod flash;
mod fuzz;
mod host;
mod load;
mod log;
mod mono;
mod mutants;
mod panics;
mod pico;
mod pico_check;
mod python;
mod qemu;
mod scale_out;
mod setup;
mod size;
mod steps;
mod stm32;
mod stm32_check;
// The boards' stack painting, tested here on the host (the boards build for their targets only).
#[cfg(test)]
#[path = "../../../boards/stack_area.rs"]
mod stack_area;
mod tally;
mod template;
mod tools;
mod uf2;

/// A task's error is printed as its message and causes (`error: ...: ...`), never with anyhow's
/// backtrace (which `RUST_BACKTRACE=1`, set on CI machines, would add to `main`'s `Err`).
fn main() -> std::process::ExitCode {
    match task(std::env::args().skip(1).collect()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn task(args: Vec<String>) -> Result<()> {
    // `cargo xtask lineup --help` once played the lineup: a task's --help is the help, not the task.
    let task = match args.iter().any(|a| a == "--help" || a == "-h") {
        true => Some("--help"),
        false => args.first().map(String::as_str),
    };
    match task {
        Some("test") => test(),
        // The Python package's step of `test` alone.
        Some("python-test") => python::run().map(|(p, f)| println!("{p} passed, {f} failed")),
        Some("setup") => setup::all(),
        Some("demo") => demo::run(
            number(&args, "--matches", demo::rotation())?,
            number(&args, "--snap", 10)?,
            args.iter().any(|a| a == "--verbose"),
        ),
        Some("firmware-test") => match flag(&args, "--board").as_deref() {
            None => {
                let mut clock = steps::Clock::default();
                let out = check::run(&mut clock);
                clock.report();
                out
            }
            Some("qemu-lm3s6965") => {
                let mut clock = steps::Clock::default();
                let out = check::qemu_board(&mut clock);
                clock.report();
                out
            }
            Some("rp-pico") => {
                setup::all().and_then(|_| pico_check::emulate(&pico_check::build()?))
            }
            Some("stm32f411") => {
                setup::stm32_board().and_then(|_| stm32_check::emulate(&stm32_check::build()?))
            }
            Some("template") => template::qemu_check(),
            Some(other) => bail!(
                "firmware-test --board {other}: qemu-lm3s6965, rp-pico, stm32f411 or template"
            ),
        },
        Some("cost") if flag(&args, "--game").is_some() => cost_pick::run(&args),
        Some("cost") => match flag(&args, "--board").as_deref() {
            None | Some("qemu-lm3s6965") => {
                cost::run(args.iter().any(|a| a == "--json")).map(|_| ())
            }
            Some("rp-pico") => pico::cost(args.iter().any(|a| a == "--json")).map(|_| ()),
            Some("stm32f411") => stm32::cost(args.iter().any(|a| a == "--json")).map(|_| ()),
            Some(other) => {
                bail!("cost --board {other}: qemu-lm3s6965 (the default), rp-pico or stm32f411")
            }
        },
        Some("emulate") => emulate::run(
            args.get(1).map(String::as_str),
            flag(&args, "--elf").as_deref().map(std::path::Path::new),
            number(&args, "--matches", 3)?,
            number(&args, "--snap", 10)?,
        ),
        Some("size") => size::run().map(|_| ()),
        Some("panics") => panics::run(flag(&args, "--elf").as_deref()),
        // By default the rotation once, as the help says (it played 10: its 8 entries, then 2 again).
        Some("lineup") => host::preview(number(&args, "--matches", demo::rotation())?),
        Some("soak") => soak(&args),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("mutants") => mutants::run(&args[1..]),
        Some("load-test") => load::run(&args[1..]),
        // load-test's attackers, in a process of their own.
        Some("load-gen") => load::generate(&args[1..]),
        Some("scale-out") => scale_out::run(flag(&args, "--arena").map(Into::into)),
        Some("flash") => match flag(&args, "--board") {
            Some(board) => flash::run(
                &board,
                args.iter().any(|a| a == "--uf2"),
                args.iter().any(|a| a == "--dfu"),
            ),
            None => bail!("flash needs --board rp-pico|stm32f411\n\n{HELP}"),
        },
        Some("uf2") => match flag(&args, "--board") {
            Some(board) => uf2::run(&board).map(|_| ()),
            None => bail!("uf2 needs --board rp-pico\n\n{HELP}"),
        },
        Some("-h") | Some("--help") | Some("help") | None => {
            println!("{HELP}");
            Ok(())
        }
        Some(other) => bail!("unknown task `{other}`\n\n{HELP}"),
    }
}

const HELP: &str = "cargo xtask <task>

tasks:
  demo [--matches N] [--snap N] [--verbose]
          bot-vs-bot matches in QEMU (lm3s6965evb), by default one of every entry of the rotation
          (`lineup`), one line per match (game, bots, result, turns, the rules' median cost); the
          whole decoded defmt log in target/demo/log.txt (--verbose prints it live); the emulated
          OLED saved every N turns (default 10) as PNG frames and an animated GIF in target/demo/
  test    install what is missing (thumb and wasm32 targets, llvm-tools, QEMU, Mono, chromium,
          defmt-print, flip-link, Node's packages, cargo-fuzz, cargo-mutants), then run every
          check CI runs: formatting (cargo fmt --all --check in every workspace: the root's, each
          board's, tests/fuzz's, python's), clippy, rustdoc, all tests, the server load test
          (same as load-test) and the docs' Slurm and GNU parallel recipes (same as scale-out,
          with the arena cargo test built) on a quiet machine; then the firmware checks (same as
          firmware-test; the boards' builds are the core's no_std build on thumbv6m, thumbv7m
          and thumbv7em) beside the Python package (same as python-test), the viewer and the
          report in headless chromium, and every fuzz target for 4 s, two at a time (same as
          fuzz --seconds 4 --jobs 2 --sanitizer none --dev), then the core's mutants on the lines
          the change touches against main (same as mutants --diff: on main itself, none); ends
          with the time each step took
  emulate rp-pico|stm32f411 [--matches N] [--snap N] [--elf FILE]
          the Pico's release ELF on an emulated RP2040 (rp2040js) with an SSD1306 on I2C0, or the
          Black Pill's on an emulated STM32F411CE (Unicorn, from PyPI into a venv under target/)
          with an ST7789 on SPI1; the defmt log decoded live, the screen saved every N turns (and
          each announced frame) as PNG frames and an animated GIF in target/emulate/<board>/;
          --elf FILE boots FILE instead (a user's firmware, e.g. from templates/rust-bot)
  firmware-test
          host vs QEMU: identical digests, screendumps equal to the host rendering, the OLED's
          bytes a game frame (a median under a quarter of a whole frame), the panic screen, no
          unexplained panic path; the size limits and the cost budget; then host vs
          the emulated Pico: identical digests, OLED frames equal to the host rendering at
          oled128x64, the panic in the log with a failure status, the stack per match (the Pico
          booted from its UF2 file); then the same on the emulated STM32F411 with its ST7789 at
          rgb240x240, its clock tree and the DFU image; templates/rust-bot (a user's crate) built
          for the three boards and its lineup in QEMU with every digest equal to its desktop
          binary's (--board qemu-lm3s6965|rp-pico|stm32f411|template: that part's checks alone)
  cost [--json] [--board rp-pico|stm32f411]
          instructions per turn in QEMU (-icount shift=0), stack high-water mark, state size;
          JSON also in target/cost.json. --board rp-pico: cycles per turn on the emulated Pico
          (Cortex-M0+) beside the QEMU Cortex-M3 figures; JSON in target/cost-rp-pico.json;
          --board stm32f411: instructions per turn on the emulated STM32F411 (Cortex-M4F), JSON
          in target/cost-stm32f411.json
  cost --game G [--bot B] [--vs X] [--board qemu-lm3s6965|rp-pico|stm32f411|all]
       [--template DIR] [--json]
          only the lineup entries playing G with B against X, each alone on each chip (the
          same match as in the rotation, its final digest checked against the host's; the
          Pico's and F411's ELF copied with ARENA_RUN words written over; a frame every 25
          turns): per turn of the rules, of the bots together and of each seat's bot
          min/median/p99/max, the bots' share of G's time limit at the chip's clock, the match's
          stack, each bot's stack high-water and flash bytes; JSON in target/cost-pick.json.
          --template DIR: the lineup of a user's crate (templates/rust-bot or a copy: its own
          board binaries, its desktop binary's digests; its cost.sh runs this); JSON in
          target/cost-template.json
  uf2 --board rp-pico
          the Pico's release ELF as a UF2 file: target/uf2/pocket-arena-rp-pico.uf2
  size    flash and static RAM of every board
  panics [--elf FILE]
          the panic paths left in the QEMU firmware (read off the ELF), each with why it cannot
          fire in the demo rotation; fails on any other (also part of test)
  lineup [--matches N]
          play the QEMU board's rotation on the host (by default once: one match of every entry;
          N matches go round it): turns, result and final state digest of each match (the
          digest the board logs as `final`)
  flash --board rp-pico|stm32f411 [--uf2 | --dfu]
          build and run on a real board (probe-rs run); --uf2 (rp-pico): copy the UF2 file onto
          the RPI-RP2 drive a Pico in BOOTSEL mode shows; --dfu (stm32f411): the raw image through
          the ROM's USB DFU bootloader with dfu-util
  soak [--matches N] [--seed S]
          the long run (not part of test): N seeded matches (default 10,000) across every game with
          built-in bots, in release mode, every game's invariants checked after every turn
  fuzz [--seconds N] [--jobs J] [--sanitizer address|none] [--dev] [TARGET...]
          each libFuzzer target of tests/fuzz, or those named, for N seconds (default 30), J at a
          time (default 1), with a table of executions and coverage at the end; needs the nightly
          toolchain, installs cargo-fuzz if missing; AddressSanitizer unless --sanitizer none;
          release builds unless --dev (unoptimised: built faster, fuzzed slower).
          `test` runs it with --seconds 4 --jobs 2 --sanitizer none --dev
  mutants [--diff] [--base REF] [--jobs J] [--timeout S] [--max N] [--budget MIN] [FILE...]
          mutation testing with cargo-mutants (installed if missing): arena-core's mutants, each
          tested by arena-core's tests; those of the game folders (core/src/games/, about 2,900:
          hours), or of the FILEs named; --diff: only those on the lines changed against the merge
          base with main (--base REF, else origin/main, else main; nothing changed: nothing run),
          at most N (default 20, spread over the list; 0: all) within MIN minutes (default 10);
          J builds at a time (default 1), S seconds a test run (default 5 times the unmutated
          run). Report in target/mutants/mutants.out/; fails on a missed mutant
  load-test [--arena FILE] [--ticks N] [--seed S] [--client \"CMD ARGS\"]
          the game server (`arena serve`, the HTTP one) on loopback: the same seeded game
          (default 300 ticks, seed 7) with host/examples/colorfight_http_bot.py against
          expander, alone, then under 300 connections sending half a header and 20 flooding
          malformed requests; fails unless the
          bot's accepted attacks under load are at least 90% of those alone, the clock's lateness
          p99 under load is at most 10 ms (unless the server's lock wait stayed under 1 ms and
          the wake-ups were late: the machine's scheduler, said but not failed), the peak RSS at
          most 128 MiB, no panic and both traces verify; a missed goal is tried once more
          (--arena: the arena to run, else a debug build; --client \"CMD ARGS\": another client,
          the URL added; part of test, about 65 s)
  scale-out [--arena FILE]
          the Slurm and GNU parallel recipes of docs/tournaments.md as written, as root: a one-node
          Slurm cluster on localhost (munged, slurmctld, slurmd) runs the sharded tournament as a
          job array, GNU parallel runs it on 2 cores, each merge compared with a single run
          (--arena: the arena to run, else a release build)
  python-test
          test's Python step alone: clippy over python/, the pocket_arena wheel built once
          (maturin --zig, manylinux2014 abi3, profile ci-wheel; maturin and ziglang in a venv
          under target/), installed into a fresh venv with pytest and supersuit, then
          python/tests there with the arena binary of a debug build
  setup   only install what is missing";

/// `cargo xtask soak`: the soak runner lives with the invariants it checks, in arena-tests.
fn soak(args: &[String]) -> Result<()> {
    let mut cmd = vec![
        "run",
        "--release",
        "-p",
        "arena-tests",
        "--bin",
        "soak",
        "--",
    ];
    cmd.extend(args.iter().skip(1).map(String::as_str));
    run("cargo", &cmd)
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn number(args: &[String], name: &str, default: u32) -> Result<u32> {
    match flag(args, name) {
        Some(v) => Ok(v.parse()?),
        None => Ok(default),
    }
}

/// Runs a command from the workspace root, failing on a non-zero exit.
pub fn run(program: &str, args: &[&str]) -> Result<()> {
    eprintln!("$ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(root())
        .status()
        .with_context(|| format!("cannot run {program}"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// `cargo fmt --all --check` in every workspace: the root's and those it excludes (each board, the
/// fuzz targets, Python), each a `Cargo.toml` git tracks with a `[workspace]` table. Every module
/// is declared by a plain `mod` line, so rustfmt reaches every `.rs` file of the repository
/// (host/tests/all/game_folders.rs checks that it does).
fn formatting() -> Result<()> {
    let out = Command::new("git")
        .args(["ls-files", "-z", "--", "*Cargo.toml"])
        .current_dir(root())
        .output()
        .context("cannot run git ls-files")?;
    ensure!(
        out.status.success(),
        "git ls-files failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = String::from_utf8_lossy(&out.stdout).into_owned();
    let workspaces: Vec<&str> = listed
        .split('\0')
        .filter(|m| {
            std::fs::read_to_string(root().join(m))
                .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
        })
        .collect();
    ensure!(
        !workspaces.is_empty(),
        "no workspace found under {}",
        root().display()
    );
    let failed: Vec<&str> = workspaces
        .iter()
        .copied()
        .filter(|m| run("cargo", &["fmt", "--all", "--check", "--manifest-path", m]).is_err())
        .collect();
    ensure!(
        failed.is_empty(),
        "not formatted (`cargo fmt --all --manifest-path M` formats them): {}",
        failed.join(", ")
    );
    Ok(())
}

/// The libraries that say `#![warn(missing_docs)]`.
const DOCUMENTED: [&str; 3] = ["arena-core", "arena-firmware", "arena-host"];

/// The API docs of the [`DOCUMENTED`] libraries, every feature on, with rustdoc's warnings (a
/// missing doc, a broken link) as errors.
fn api_docs() -> Result<()> {
    let packages = DOCUMENTED.iter().flat_map(|p| ["-p", p]);
    let args: Vec<&str> = ["doc", "--no-deps"]
        .into_iter()
        .chain(packages)
        .chain(["--all-features"])
        .collect();
    eprintln!("$ RUSTDOCFLAGS='-D warnings' cargo {}", args.join(" "));
    let status = Command::new("cargo")
        .args(args)
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(root())
        .status()
        .context("cannot run cargo doc")?;
    ensure!(status.success(), "rustdoc warned ({status})");
    Ok(())
}

/// The workspace root (xtask lives in host/xtask).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| ".".into())
}

/// The replay viewer's pages of every game in headless chromium: pixels equal `arena render`'s,
/// play and keys move on, nothing loaded from anywhere (tests/browser/viewer.py).
fn viewer_in_browser() -> Result<()> {
    // The binary `cargo test` has just built for the host's tests (a release build only for this
    // was minutes of CI; `cargo build` would build it again, in the dev profile).
    let arena = root().join("target/debug/arena");
    ensure!(
        arena.exists(),
        "no {}: run `cargo test` first",
        arena.display()
    );
    let golden = fuzz::golden();
    let work = root().join("target/xtask-viewer");
    run(
        "python3",
        &[
            "tests/browser/viewer.py",
            &arena.to_string_lossy(),
            &golden.to_string_lossy(),
            &work.to_string_lossy(),
        ],
    )
}

fn test() -> Result<()> {
    let mut clock = steps::Clock::default();
    // The targets first (clippy runs host/build.rs, which builds the viewer for wasm32); the rest
    // installs beside fmt and clippy: apt waits on the network and the CPU-bound installs fill the
    // cores clippy leaves idle, so a fresh machine's set-up costs little more than clippy alone.
    clock.step("set-up: targets", setup::targets)?;
    let installs = std::thread::spawn(|| {
        let start = std::time::Instant::now();
        (setup::rest(), start.elapsed())
    });
    clock.step("fmt", formatting)?;
    let lint = clock.step("clippy", || {
        run(
            "cargo",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        )
    });
    let Ok((installed, took)) = installs.join() else {
        bail!("the installs panicked");
    };
    clock.record("set-up (beside fmt and clippy)", took);
    installed?;
    lint?;
    clock.step("rustdoc", api_docs)?;
    // The core's no_std build for both thumb targets is the boards' builds below (the QEMU board
    // on thumbv7m, the Pico on thumbv6m, the STM32F411 on thumbv7em, each with defmt).
    let (mut passed, mut failed) = clock.step("cargo test", tally::cargo_test)?;
    // What measures time on the wall runs on a quiet machine: the server under hostile
    // connections (with the binary `cargo test` built), then the scale-out.
    clock.step("load test", || {
        let arena = root().join("target/debug/arena");
        load::run(&["--arena".into(), arena.to_string_lossy().into_owned()])
    })?;
    clock.step("scale-out", || {
        scale_out::run(Some(root().join("target/debug/arena")))
    })?;
    // From here on nothing reads a wall clock: the boards (built, then emulated, each emulator
    // on one core for minutes) run beside the Python package, the browsers and the fuzz targets,
    // and the two cores stay busy until the longest ends.
    let boards = std::thread::spawn(|| {
        let mut clock = steps::Clock::default();
        let out = check::run(&mut clock);
        (out, clock)
    });
    let rest = (|| {
        let (py_passed, py_failed) = clock.step("python", python::run)?;
        (passed, failed) = (passed + py_passed, failed + py_failed);
        clock.step("viewer in chromium", viewer_in_browser)?;
        clock.step("report in chromium", || {
            run("python3", &["tests/browser/report.py"])
        })?;
        // Every fuzz target briefly, two at a time: what a change broke in a decoder shows here.
        clock.step("fuzz", || {
            fuzz::run(&[
                "--seconds".into(),
                "4".into(),
                "--jobs".into(),
                "2".into(),
                "--sanitizer".into(),
                "none".into(),
                "--dev".into(),
            ])
        })?;
        // The core's mutants on the lines the change touches (none on main itself).
        clock.step("mutants of the change", || mutants::run(&["--diff".into()]))
    })();
    let Ok((boards, board_clock)) = boards.join() else {
        bail!("the boards' checks panicked");
    };
    clock.absorb("boards", &board_clock);
    rest?;
    boards?;
    clock.report();
    // One closing line for whoever reads the end of the log (CI): every test of the workspace.
    println!("{passed} passed, {failed} failed");
    Ok(())
}
