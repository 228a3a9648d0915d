//! The QEMU board as xtask sees it (`crate::boards::Board`): its checks and cost table.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use serde_json::Value;

use super::{check, BOARD};
use crate::boards::{Board, Checks, CommandLine, Core};
use crate::rotation::Rotation;
use crate::setup::Needs;

/// QEMU's lm3s6965evb (Cortex-M3) with its SSD0323 OLED.
pub(crate) struct Qemu;

impl Board for Qemu {
    fn name(&self) -> &'static str {
        "qemu-lm3s6965"
    }
    fn called(&self) -> &'static str {
        "QEMU"
    }
    fn words(&self) -> &'static [&'static str] {
        &["qemu", "lm3s"]
    }
    fn folder(&self) -> &'static str {
        BOARD
    }
    fn target(&self) -> &'static str {
        "thumbv7m-none-eabi"
    }
    fn chip(&self) -> (u64, u64) {
        (256 * 1024, 64 * 1024)
    }
    fn core(&self) -> Core {
        Core {
            about:
                "Cortex-M3 (LM3S6965, 50 MHz; QEMU -icount: instructions, a lower bound on cycles)",
            mhz: 50,
            unit: "instructions",
            short: "M3",
            key: "qemu_cortex_m3",
        }
    }
    fn build(&self) -> Result<PathBuf> {
        super::build()
    }
    fn rotation(&self) -> Rotation {
        Rotation::of::<crate::host::Lineup>()
    }
    fn alone(&self, elf: &Path, first: u32) -> Result<Vec<Value>> {
        super::cost::alone(elf, first)
    }
    fn report(&self) -> &'static str {
        super::cost::REPORT
    }
    /// QEMU and defmt-print, the targets and llvm-tools.
    fn needs(&self) -> Needs {
        Needs {
            debian: &[("qemu-system-arm", "qemu-system-arm")],
            crates: &["defmt-print"],
            more: |mode| crate::setup::targets(&crate::boards::targets(), mode),
            about: "the boards' targets, wasm32 and llvm-tools (rustup)",
        }
    }
    fn checks(&self) -> Checks {
        Checks::Here(check::qemu_board)
    }
    fn cost(&self, json_only: bool) -> Result<()> {
        super::cost::run(json_only).map(drop)
    }
    fn demo(&self, matches: u32, snap: u32, verbose: bool) -> Option<Result<()>> {
        Some(super::demo::run(matches, snap, verbose))
    }
    fn panics(&self, elf: Option<&str>) -> Option<Result<()>> {
        Some(super::panics::run(elf))
    }
    fn help(&self, task: &str) -> Option<&'static str> {
        Some(match task {
            "demo" => DEMO,
            "panics" => PANICS,
            "firmware-test" => {
                "host vs QEMU: identical digests, screendumps equal to the host rendering, the \
                 OLED's bytes a game frame (a median under a quarter of a whole frame), the panic \
                 screen, no unexplained panic path; the size limits and the cost budget."
            }
            "cost" => {
                "(the default) instructions per turn in QEMU (-icount shift=0), stack high-water \
                 mark, state size; JSON also in target/cost.json."
            }
            _ => return None,
        })
    }
    fn command_line(&self) -> Option<CommandLine> {
        Some(super::cost::command_line)
    }
    fn on_a_desk(&self) -> bool {
        false
    }
    fn emulate(&self, _elf: Option<&Path>, _matches: u32, _snap: u32) -> Result<()> {
        bail!("the QEMU board runs with `cargo xtask demo`")
    }
}

/// `cargo xtask demo --help`.
const DEMO: &str = "\
Bot-vs-bot matches in QEMU, one line each; the OLED as PNG and GIF

First `cargo xtask setup`'s part for the QEMU board (it says so): what is missing of the
thumb targets, llvm-tools, QEMU and defmt-print is installed. Then plays bot-vs-bot matches
in QEMU (lm3s6965evb), by default one of every entry of the rotation (`lineup`), one line
per match (game, bots, result, turns, the rules' median cost); the whole decoded defmt log
in target/demo/log.txt (--verbose prints it live); the emulated OLED saved every N turns
(default 10) as PNG frames and an animated GIF in target/demo/.";

/// `cargo xtask panics --help`.
const PANICS: &str = "\
The panic paths left in the QEMU firmware, each explained

The panic paths left in the QEMU firmware (read off the ELF), each with why it cannot fire
in the demo rotation; fails on any other (also part of test).";
