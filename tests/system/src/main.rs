//! The system tests: the whole `arena` binary on this machine, measured on the wall clock.
//!
//! - `load-test`: `arena serve colorfight` under hostile connections while a real client plays
//!   (`load`); `load-gen ADDR` is its attackers, in a process of their own;
//! - `scale-out`: the Slurm and GNU parallel recipes of docs/tournaments.md run as written, as
//!   root, on a one-node Slurm cluster (`scale_out`).
//!
//! `cargo xtask load-test` and `cargo xtask scale-out` run them (`cargo run -p arena-system-tests
//! -- <task> ...`), and so does `cargo xtask test`, after `cargo test`, alone on the machine.
//!
//! Why a crate of their own, and why a binary rather than a `[[test]]` target: they are tests, not
//! build tooling, so they do not belong in xtask; but they measure time on the wall (the load test's
//! lateness p99, the recipes' spans), take a minute or more, start daemons as root and need Slurm,
//! munge and GNU parallel (`cargo xtask setup` installs them). As a test target, `cargo test
//! --workspace` would run them among (and beside) every other test binary, on a busy machine and
//! without root; as a binary they run only when asked, one at a time. Their own logic (the recipes'
//! blocks, the goals, the tallies) has unit tests that `cargo test` runs as usual.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

/// `println!` that drops what a closed pipe cannot take, instead of panicking.
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

mod load;
mod scale_out;

/// The system tests of Pocket Arena (`cargo xtask load-test`, `cargo xtask scale-out`).
#[derive(Parser, Debug)]
#[command(disable_version_flag = true, subcommand_value_name = "TEST")]
struct Cli {
    #[command(subcommand)]
    test: Run,
}

#[derive(Subcommand, Debug)]
enum Run {
    /// `arena serve` under hostile connections while a bot plays (`cargo xtask load-test --help`).
    LoadTest(load::Args),
    /// load-test's attackers, in a process of their own (load-test starts it).
    #[command(hide = true)]
    LoadGen {
        /// The server's address.
        addr: std::net::SocketAddr,
    },
    /// The Slurm and GNU parallel recipes of docs/tournaments.md, as root.
    ScaleOut {
        /// The arena binary to run (default: a release build).
        #[arg(long, value_name = "FILE")]
        arena: Option<PathBuf>,
    },
}

/// An error is printed as its message and causes, without anyhow's backtrace.
fn main() -> std::process::ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return std::process::ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let out = match cli.test {
        Run::LoadTest(args) => load::run(args),
        Run::LoadGen { addr } => load::generate(addr),
        Run::ScaleOut { arena } => scale_out::run(arena),
    };
    match out {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The workspace root (this crate lives in tests/system).
fn root() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| ".".into())
}

/// Runs a command from the workspace root, failing on a non-zero exit.
fn run(program: &str, args: &[&str]) -> Result<()> {
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

/// Whether `program` is a file in a folder of PATH.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn each_test_parses_its_documented_lines() {
        let parse = |line: &str| Cli::try_parse_from(line.split_whitespace());
        assert!(matches!(
            parse("t load-test --arena a --ticks 30 --seed 2").map(|c| c.test),
            Ok(Run::LoadTest(load::Args {
                ticks: 30,
                seed: 2,
                ..
            }))
        ));
        assert!(matches!(
            parse("t load-test").map(|c| c.test),
            Ok(Run::LoadTest(load::Args {
                ticks: load::TICKS,
                seed: load::SEED,
                arena: None,
                client: None
            }))
        ));
        assert!(matches!(
            parse("t load-gen 127.0.0.1:9").map(|c| c.test),
            Ok(Run::LoadGen { .. })
        ));
        assert!(matches!(
            parse("t scale-out --arena x").map(|c| c.test),
            Ok(Run::ScaleOut { arena: Some(_) })
        ));
        for bad in ["t", "t load-gen", "t load-test --ticks many", "t frob"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
