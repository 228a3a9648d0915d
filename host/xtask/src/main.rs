//! `cargo xtask`: the glue that needs several targets, QEMU and host tools.
//!
//! - `demo`: install what is missing, build the QEMU firmware, play a rotation of matches in QEMU with
//!   the defmt log decoded live, save the emulated screen as PNG frames and an animated GIF under
//!   `target/demo/`;
//! - `test`: the cross-platform checks (host and QEMU digests identical, screendumps equal to the host
//!   rendering, the panic screen and exit status), the size limits and the cost budget;
//! - `cost`: instructions per turn of every lineup entry under `-icount shift=0`, with stack
//!   high-water mark and state size (`--json` for JSON only);
//! - `size`: flash and static RAM of every board;
//! - `flash --board rp-pico|stm32f411`: build and run on a real board with probe-rs.

mod check;
mod cost;
mod demo;
mod flash;
mod host;
mod log;
mod qemu;
mod size;
mod tools;

use std::path::PathBuf;

use anyhow::{bail, Result};

/// The repository's root (host/xtask/../..).
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(|p| p.parent())
        .map(PathBuf::from)
        .unwrap_or(manifest)
}

const USAGE: &str = "usage: cargo xtask <demo [--matches N] [--snap N] | test | cost [--json] | size | flash --board rp-pico|stm32f411>";

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

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        bail!("{USAGE}");
    };
    match cmd.as_str() {
        "demo" => demo::run(number(&args, "--matches", 3)?, number(&args, "--snap", 1)?),
        "test" => check::run(),
        "cost" => cost::run(args.iter().any(|a| a == "--json")).map(|_| ()),
        "size" => size::run().map(|_| ()),
        "flash" => match flag(&args, "--board") {
            Some(board) => flash::run(&board),
            None => bail!("{USAGE}"),
        },
        _ => bail!("{USAGE}"),
    }
}
