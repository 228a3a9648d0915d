//! The Raspberry Pi Pico firmware on the emulated RP2040 (`host/xtask/emulators/rp2040`, a Node harness
//! over rp2040js): building it, checking the harness's packages, running the release ELF with the
//! RTT log decoded by `defmt-print`, and the M0+ cost table.
//!
//! The harness is driven as a debug probe (`crate::drive`): every write of the RTT write offset
//! stops the core, xtask reads the log, and reads the OLED out at the instant the firmware logs
//! `frame m= t= k=` (so the picture is the GDDRAM as it was when the frame was announced); it stops
//! the run when match N starts.

mod board;
pub(crate) mod check;
pub(crate) mod mono;
pub(crate) mod uf2;
pub(crate) use board::RpPico;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Result;
use serde_json::Value;

use crate::{root, tools};

pub const BOARD: &str = "boards/rp-pico";
/// The file in target/ that `cost --board <name>` writes its report to.
pub const REPORT: &str = "cost-rp-pico.json";
pub const TARGET: &str = "thumbv6m-none-eabi";
/// The emulated Pico's harness (Node, rp2040js).
pub const EMULATOR: &str = "host/xtask/emulators/rp2040";
/// The lineup the Pico firmware plays (`boards/rp-pico/src/main.rs`).
pub type Lineup = arena_firmware::PicoArcade;

/// The harness's Node packages (`npm ci` from its committed lock file), installed or checked.
pub fn node_packages(mode: crate::setup::Mode) -> Result<()> {
    crate::setup::node_packages(EMULATOR, "the emulated Pico", mode)
}

/// Builds the board (the `arena` firmware that `cargo xtask flash --board rp-pico` flashes, and
/// `panic-test`); returns the release folder.
pub fn build() -> Result<PathBuf> {
    tools::targets(&[TARGET])?;
    tools::build_board(BOARD, TARGET)
}

/// One emulated run.
pub type Run<'a> = crate::emulator::Run<'a, Options<'a>>;

/// The options only the Pico's harness takes.
#[derive(Default)]
pub struct Options<'a> {
    /// Boot from this UF2 file (as the boot ROM writes it to flash) instead of the ELF's segments;
    /// the ELF still names the symbols.
    pub uf2: Option<&'a Path>,
    /// Emulated cycles without a log line before the harness gives up.
    pub silence: Option<u64>,
}

impl crate::emulator::Harness for Options<'_> {
    const BOARD: &'static str = "Pico";
    const SHORT: &'static str = "Pico";
    const BOOT: &'static str = "rp-pico:";
    const TAG: &'static str = "pico";
    const CANNOT_START: &'static str = "cannot start node (the emulated Pico)";

    fn silenced() -> Self {
        Options {
            silence: Some(500_000_000),
            ..Options::default()
        }
    }

    /// `node pico.mjs --target FILE [--uf2 FILE]` under `timeout`: driven as a probe, it takes
    /// nothing else.
    fn command(run: &Run<'_>, summary: &Path) -> Result<Command> {
        let script = root().join(EMULATOR).join("pico.mjs");
        let target = summary.with_extension("target.json");
        write_target(run.elf, run.own.uf2.is_none(), &target)?;
        let mut node = run.timeout();
        node.arg("node").arg(&script).arg("--target").arg(&target);
        if let Some(uf2) = run.own.uf2 {
            node.arg("--uf2").arg(uf2);
        }
        Ok(node)
    }

    fn silence(&self) -> u64 {
        self.silence.unwrap_or(1_000_000_000)
    }

    /// The OLED's frame buffers (`frame-NNNN.pgm`, 128x64) as PNGs four times their size.
    fn pictures(dir: &Path) -> Result<()> {
        crate::picture::frames_to_png(dir, PNG_SCALE).map(drop)
    }
}

/// How many times the OLED's 128x64 pixels are scaled in the PNG frames.
pub const PNG_SCALE: u32 = 4;

/// The log lines xtask acts on when it drives the harness, by the start of their defmt strings:
/// it marks the bus's frames at `start`/`digest`/`final`, stops after N `start`s, and reads the
/// OLED out at each `frame` (and, with `every`, at `digest`/`final`).
const FORMATS: [(&str, &str); 4] = [
    ("start", "start m="),
    ("frame", "frame m="),
    ("digest", "digest m="),
    ("final", "final m="),
];

/// The harness's `--target` file for `elf` (its segments unless the Pico boots from a UF2 file)
/// at `to`.
pub fn write_target(elf: &Path, segments: bool, to: &Path) -> Result<()> {
    let want = crate::probe::Wants {
        segments,
        formats: &FORMATS,
        ..Default::default()
    };
    crate::probe::write_target(elf, &want, to)
}

pub use crate::emulator::Ran;

/// Prints the M0+ table beside the baseline board's figures (`crate::boards::baseline`, the M3's);
/// writes target/cost-rp-pico.json.
pub fn print_cost(rows: &[Value], json_only: bool) -> Result<Value> {
    use crate::emulator::{leading_columns, min_median_max};
    let (base, m3) = crate::boards::baseline()?;
    let m3_rows = m3["matches"].as_array().cloned().unwrap_or_default();
    let (report, out) = crate::emulator::cost_report(
        REPORT,
        (
            "rp-pico (emulated: rp2040js 1.4.1)",
            "Cortex-M0+ cycles as rp2040js counts them (no flash wait states, no bus contention; I2C and the ROM functions take no emulated time)",
        ),
        rows,
        &[(base.core().key, &m3)],
        json_only,
    )?;
    let Some(out) = out else {
        return Ok(report);
    };
    println!(
        "{} {:>7} | {:>27} {:>10} | bots",
        leading_columns(None, "M0+ rules min/median/max", "cycles"),
        "stack",
        "M3 rules min/median/max",
        "bots med"
    );
    for r in rows {
        let m = r["match"].as_u64().unwrap_or(0);
        let m3 = m3_rows.iter().find(|x| x["match"].as_u64() == Some(m));
        let (m3_rules, m3_bots) = match m3 {
            Some(x) if x["game"] == r["game"] && x["config"] == r["config"] => (
                min_median_max(&x["instructions_per_turn"]),
                x["bots_instructions_per_turn"]["median"].to_string(),
            ),
            _ => ("(not in the QEMU lineup)".to_owned(), String::new()),
        };
        println!(
            "{} {:>7} | {:>27} {:>10} | {}",
            leading_columns(Some(r), "", "cycles"),
            r["stack_bytes"].to_string(),
            m3_rules,
            m3_bots,
            r["bots"].as_str().unwrap_or("?")
        );
    }
    println!(
        "(M0+: cycles per turn on the emulated RP2040, from SysTick on the 125 MHz core clock. rp2040js \
         charges each instruction its Cortex-M0+ cycles with no flash wait states and no bus \
         contention, and I2C and the ROM's memcpy/memset take no emulated time: read these as \
         Cortex-M0+ instruction-timing counts, not cycles on a real Pico. M3: instructions under \
         QEMU -icount. Stack: high-water mark in bytes. JSON in {})",
        out.display()
    );
    Ok(report)
}

/// `cargo xtask cost --board rp-pico`: the rotation on the emulated Pico, one match per lineup
/// entry, and its per-turn table beside the Cortex-M3's.
pub fn cost(json_only: bool) -> Result<Value> {
    crate::boards::Board::setup(&RpPico)?;
    let elf = build()?.join("arena");
    let matches = <Lineup as arena_firmware::Lineup>::LEN as u32;
    let rows = crate::emulator::rotation_cost(&elf, matches, 1500, Options::default(), "cycles")?;
    let report = print_cost(&rows, json_only)?;
    crate::cost::check_stack(&rows, "the Pico")?;
    Ok(report)
}
