//! `cargo xtask <task>`: the glue that needs several targets and tools.
//!
//! - `test`: installs what a fresh machine lacks, then runs every check CI runs.

use anyhow::{bail, Context, Result};
use std::process::Command;

mod setup;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("setup") => setup::all(),
        Some("-h") | Some("--help") | Some("help") | None => {
            println!("{HELP}");
            Ok(())
        }
        Some(other) => bail!("unknown task `{other}`\n\n{HELP}"),
    }
}

const HELP: &str = "cargo xtask <task>

tasks:
  test    install what is missing (thumb targets, llvm-tools, QEMU, defmt-print), then run every
          check CI runs: formatting, clippy, the core on thumbv6m and thumbv7m, all tests
  setup   only install what is missing";

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

/// The workspace root (xtask lives in host/xtask).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| ".".into())
}

fn test() -> Result<()> {
    setup::all()?;
    run("cargo", &["fmt", "--all", "--check"])?;
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
    )?;
    for target in ["thumbv6m-none-eabi", "thumbv7m-none-eabi"] {
        run(
            "cargo",
            &[
                "build",
                "-p",
                "arena-core",
                "--features",
                "defmt",
                "--target",
                target,
            ],
        )?;
    }
    run("cargo", &["test", "--workspace"])?;
    Ok(())
}
