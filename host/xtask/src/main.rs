//! `cargo xtask <task>`: the glue that needs several targets, emulators and host tools. The tasks, their
//! options and their help are the command line's (`cli`): `cargo xtask --help` lists them,
//! `cargo xtask <task> --help` says what one does.

use anyhow::{bail, ensure, Context, Result};
use cli::Task;
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

mod boards;
mod check;
mod cli;
mod cost;
mod cost_pick;
mod cost_template;
mod drive;
mod elf;
mod emulate;
mod emulator;
mod flash;
mod fuzz;
mod host;
mod log;
mod mutants;
mod picture;
mod probe;
mod python;
mod rotation;
mod rtt;
mod setup;
mod steps;
// The boards' stack painting, tested here on the host (the boards build for their targets only).
#[cfg(test)]
#[path = "../../../boards/stack_area.rs"]
mod stack_area;
mod tally;
mod template;
mod tools;

/// A task's error is printed as its message and causes (`error: ...: ...`), never with anyhow's
/// backtrace (which `RUST_BACKTRACE=1`, set on CI machines, would add to `main`'s `Err`). A
/// command line clap refuses is said as clap says it (exit status 2); `--help` is printed by clap,
/// which drops what a closed pipe cannot take.
fn main() -> std::process::ExitCode {
    let cli = match cli::parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return std::process::ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match task(cli.task) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn task(task: Option<Task>) -> Result<()> {
    match task {
        Some(Task::Test) => test(),
        // The Python package's step of `test` alone.
        Some(Task::PythonTest) => python::run().map(|(p, f)| println!("{p} passed, {f} failed")),
        Some(Task::TemplateTournaments) => template::tournaments(),
        Some(Task::Setup) => setup::run(&boards::targets(), &boards::needs()),
        Some(Task::Demo(d)) => boards::first("demo", |b| b.demo(d.matches, d.snap, d.verbose)),
        Some(Task::FirmwareTest(f)) => firmware_test(f.board.as_deref()),
        Some(Task::Cost(c)) if c.template.is_some() => cost_template::run_args(&c.pick_args()),
        Some(Task::Cost(c)) if c.game.is_some() => cost_pick::run(&c.pick_args()),
        Some(Task::Cost(c)) => match c.board.as_deref() {
            // The default: the first board of the registry.
            None => boards::BOARDS[0].cost(c.json),
            Some(b) => boards::named(b)?.cost(c.json),
        },
        Some(Task::Emulate(e)) => {
            if let Some(elf) = &e.elf {
                ensure!(elf.is_file(), "--elf {}: no such file", elf.display());
            }
            boards::named(&e.board)?.emulate(e.elf.as_deref(), e.matches, e.snap.max(1))
        }
        Some(Task::Size) => boards::size::run().map(|_| ()),
        Some(Task::Panics(p)) => boards::first("panics", |b| b.panics(p.elf.as_deref())),
        Some(Task::Lineup(l)) => host::preview(l.matches),
        Some(Task::Soak(s)) => soak(&s),
        Some(Task::Fuzz(o)) => fuzz::run(o),
        Some(Task::Mutants(m)) => mutants::run(m),
        Some(Task::LoadTest(l)) => system_test("load-test", &l.args()),
        Some(Task::ScaleOut(s)) => system_test("scale-out", &s.args()),
        Some(Task::Flash(f)) => flash::run(&f.board, f.uf2, f.dfu),
        Some(Task::Uf2(u)) => flash::image_file(&u.board, "--uf2").map(drop),
        None => {
            use std::io::Write as _;
            let help = cli::command().render_long_help();
            let _ = writeln!(std::io::stdout(), "{help}");
            Ok(())
        }
    }
}

/// `cargo xtask firmware-test [--board B]`: every board's checks, or one part's (a board's, or
/// the user's crate's: `template`).
fn firmware_test(board: Option<&str>) -> Result<()> {
    match board {
        None => {
            let mut clock = steps::Clock::default();
            let out = check::run(&mut clock);
            clock.report();
            out
        }
        Some("template") => template::firmware_test(),
        Some(b) if boards::BOARDS.iter().any(|x| x.name() == b) => check::one(b),
        Some(other) => bail!(
            "firmware-test --board {other}: {} or template",
            boards::names(", ")
        ),
    }
}

/// `cargo xtask load-test` and `scale-out`: the system tests, in their crate (tests/system), given
/// the task's options as typed.
fn system_test(test: &str, args: &[String]) -> Result<()> {
    let mut cmd = vec!["run", "--quiet", "-p", "arena-system-tests", "--", test];
    cmd.extend(args.iter().map(String::as_str));
    run("cargo", &cmd)
}

/// `--arena` with the binary `cargo test` has just built: what `test` runs the system tests on.
fn arena_under_test() -> [String; 2] {
    let arena = root().join("target/debug/arena");
    ["--arena".into(), arena.to_string_lossy().into_owned()]
}

/// `cargo xtask soak`: the soak runner lives with the invariants it checks, in arena-tests.
fn soak(o: &cli::Soak) -> Result<()> {
    let options = [("--matches", o.matches), ("--seed", o.seed)];
    let values: Vec<(&str, String)> = options
        .iter()
        .filter_map(|(name, v)| Some((*name, (*v)?.to_string())))
        .collect();
    let mut cmd = vec![
        "run",
        "--release",
        "-p",
        "arena-tests",
        "--bin",
        "soak",
        "--",
    ];
    for (name, v) in &values {
        cmd.extend([*name, v.as_str()]);
    }
    run("cargo", &cmd)
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
const DOCUMENTED: [&str; 4] = [
    "arena-core",
    "arena-firmware",
    "arena-host",
    "arena-adapter",
];

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
    println!(
        "xtask test: first `cargo xtask setup` (what is missing is installed): the rustup targets, \
         then the rest beside fmt and clippy"
    );
    let mut clock = steps::Clock::default();
    // The targets first (clippy runs host/build.rs, which builds the viewer for wasm32); the rest
    // installs beside fmt and clippy: apt waits on the network and the CPU-bound installs fill the
    // cores clippy leaves idle, so a fresh machine's set-up costs little more than clippy alone.
    clock.step("set-up: targets", || {
        setup::install_targets(&boards::targets())
    })?;
    let installs = std::thread::spawn(|| {
        let start = std::time::Instant::now();
        (setup::install_rest(&boards::needs()), start.elapsed())
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
    // The core's no_std build for the thumb targets is the boards' builds below (each board on its
    // own target, each with defmt).
    let (mut passed, mut failed) = clock.step("cargo test", tally::cargo_test)?;
    // What measures time on the wall runs on a quiet machine: the server under hostile
    // connections (with the binary `cargo test` built), then the scale-out.
    clock.step("load test", || {
        system_test("load-test", &arena_under_test())
    })?;
    clock.step("scale-out", || {
        system_test("scale-out", &arena_under_test())
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
            fuzz::run(fuzz::Options {
                seconds: 4,
                jobs: 2,
                sanitizer: "none".into(),
                dev: true,
                targets: Vec::new(),
            })
        })?;
        // The core's mutants on the lines the change touches (none on main itself).
        clock.step("mutants of the change", || {
            mutants::run(mutants::Args {
                diff: true,
                base: None,
                jobs: 1,
                timeout: None,
                max: None,
                budget: None,
                files: Vec::new(),
            })
        })
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
