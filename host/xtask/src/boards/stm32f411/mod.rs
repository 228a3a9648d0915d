//! The STM32F411 Black Pill firmware on the emulated STM32F411CE (`host/xtask/emulators/stm32f411`,
//! a Python harness over the Unicorn engine, installed from PyPI into a venv under target/):
//! building it, running the release ELF with the RTT log decoded by `defmt-print`, the LCD's
//! frames, and the Cortex-M4 cost table.
//!
//! The harness is driven as a debug probe (`crate::drive`): its pin events carry the RTT write
//! offset, and a run stops where it changed, the LCD fed the SPI bytes before that point only;
//! xtask reads the log and reads the LCD out at the instant the firmware logs `frame m= t= k=`
//! (so the picture is the panel as it was when the frame was announced), and stops the run when
//! match N starts.

mod board;
pub(crate) mod check;
pub(crate) mod dfu;
pub(crate) use board::Stm32f411;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Result;
use serde_json::Value;

use crate::{root, tools};

pub const BOARD: &str = "boards/stm32f411";
pub const TARGET: &str = "thumbv7em-none-eabihf";
pub use crate::setup::F411_EMULATOR as EMULATOR;
/// The lineup the F411 firmware plays (`boards/stm32f411/src/main.rs`).
pub type Lineup = arena_firmware::F411Arcade;

/// Builds the board (the `arena` firmware that `cargo xtask flash --board stm32f411` flashes, and
/// `panic-test`); returns the release folder.
pub fn build() -> Result<PathBuf> {
    tools::targets(&[TARGET])?;
    tools::build_board(BOARD, TARGET)
}

/// The venv's Python (with Unicorn), as `setup` installs it.
pub fn python() -> PathBuf {
    crate::setup::stm32_venv().join("bin/python")
}

/// Where the harness compiles its C fast path.
fn build_dir() -> PathBuf {
    root().join("target/stm32f411-emulator/build")
}

/// One emulated run.
pub type Run<'a> = crate::emulator::Run<'a, Options>;

/// The options only the F411's harness takes.
#[derive(Default)]
pub struct Options {
    /// Seconds without a log line before the harness gives up.
    pub silence_s: Option<u32>,
    /// DWT CYCCNT counts instructions (slower): for the cost table.
    pub count: bool,
    /// SPI1 register by register instead of a slice at a time (slow).
    pub spi_registers: bool,
    /// Stop once this many frames have been announced.
    pub frames_max: Option<u32>,
}

impl crate::emulator::Harness for Options {
    const BOARD: &'static str = "STM32F411";
    const SHORT: &'static str = "F411";
    const BOOT: &'static str = "stm32f411:";
    const TAG: &'static str = "f411";
    const CANNOT_START: &'static str = "cannot start the emulated STM32F411 (python)";

    fn silenced() -> Self {
        Options {
            silence_s: Some(30),
            ..Options::default()
        }
    }

    /// `python f411.py --target FILE --build DIR [--count] [--spi-registers]` under `timeout`:
    /// driven as a probe, it takes nothing else.
    fn command(run: &Run<'_>, summary: &Path) -> Result<Command> {
        let script = root().join(EMULATOR).join("f411.py");
        let target = summary.with_extension("target.json");
        write_target(run.elf, &target)?;
        let mut cmd = run.timeout();
        cmd.arg(python())
            .arg(&script)
            .arg("--target")
            .arg(&target)
            .arg("--build")
            .arg(build_dir());
        let own = &run.own;
        if own.count {
            cmd.arg("--count");
        }
        if own.spi_registers {
            cmd.arg("--spi-registers");
        }
        Ok(cmd)
    }

    /// The instructions are not counted without `count`: only the wall clock tells silence.
    fn silence(&self) -> u64 {
        u64::MAX
    }

    fn silence_s(&self) -> Option<u32> {
        Some(self.silence_s.unwrap_or(60))
    }

    fn frames_max(&self) -> Option<u32> {
        self.frames_max
    }

    /// The LCD's frame buffers (`frame-NNNN.ppm`, 240x240 RGB) as PNGs of the same size.
    fn pictures(dir: &Path) -> Result<()> {
        crate::picture::frames_to_png(dir, 1).map(drop)
    }
}

/// The log lines xtask acts on when it drives the harness, by the start of their defmt strings:
/// it marks the bus's frames at `start`/`digest`/`final`, stops after N `start`s, and reads the
/// LCD out at each `frame` (and, with `every`, at `digest`/`final`).
const FORMATS: [(&str, &str); 4] = [
    ("start", "start m="),
    ("frame", "frame m="),
    ("digest", "digest m="),
    ("final", "final m="),
];

/// The one routine stm32f4xx-hal sends SPI bytes through (`spi_write`): the harness takes each
/// slice at its entry (SPI1 register by register when the ELF has no single such routine).
const SPI_WRITE: [&str; 2] = ["stm32f4xx_hal3spi", "9spi_write"];

/// The harness's `--target` file for `elf` at `to`: the segments, `_SEGGER_RTT`, the log lines
/// xtask acts on, `spi_write`, and the functions' names (for naming a PC in a fault).
pub fn write_target(elf: &Path, to: &Path) -> Result<()> {
    let want = crate::probe::Wants {
        segments: true,
        formats: &FORMATS,
        functions: &[("spi_write", &SPI_WRITE)],
        names: true,
    };
    crate::probe::write_target(elf, &want, to)
}

/// The Cortex-M0+ report, when `cargo xtask cost --board rp-pico` has left one.
fn m0_report() -> Value {
    std::fs::read_to_string(root().join("target/cost-rp-pico.json"))
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null)
}

/// Prints the Cortex-M4 table beside the M3's (and the M0+'s when measured); writes
/// target/cost-stm32f411.json.
pub fn print_cost(rows: &[Value], json_only: bool) -> Result<Value> {
    use crate::emulator::leading_columns;
    let m3 = crate::boards::rp_pico::m3_report()?;
    let m0 = m0_report();
    let m3_rows = m3["matches"].as_array().cloned().unwrap_or_default();
    let m0_rows = m0["matches"].as_array().cloned().unwrap_or_default();
    let (report, out) = crate::emulator::cost_report(
        "cost-stm32f411.json",
        (
            "stm32f411 (emulated: Unicorn 2.1.4, Cortex-M4)",
            "Cortex-M4 instructions executed (DWT CYCCNT counts instructions in the emulator: no flash wait states, no bus timing, no pipeline)",
        ),
        rows,
        &[("qemu_cortex_m3", &m3), ("rp2040_cortex_m0plus", &m0)],
        json_only,
    )?;
    let Some(out) = out else {
        return Ok(report);
    };
    println!(
        "{} {:>8} {:>7} | {:>8} {:>8} | bots",
        leading_columns(None, "M4 rules min/median/max", "instructions"),
        "stack",
        "state",
        "M3 med",
        "M0+ med"
    );
    for r in rows {
        let same = |x: &&Value| {
            x["game"] == r["game"] && x["config"] == r["config"] && x["match"] == r["match"]
        };
        let m3 = m3_rows.iter().find(same).map_or("-".to_owned(), |x| {
            x["instructions_per_turn"]["median"].to_string()
        });
        let m0 = m0_rows.iter().find(same).map_or("-".to_owned(), |x| {
            x["cycles_per_turn"]["median"].to_string()
        });
        println!(
            "{} {:>8} {:>7} | {:>8} {:>8} | {}",
            leading_columns(Some(r), "", "instructions"),
            r["stack_bytes"].to_string(),
            r["state_bytes"].to_string(),
            m3,
            m0,
            r["bots"].as_str().unwrap_or("?")
        );
    }
    println!(
        "(M4: instructions per turn on the emulated STM32F411, from DWT CYCCNT, which the emulator \
         advances by one per instruction executed: no flash wait states, no bus or pipeline timing, \
         so read these as Cortex-M4 instruction counts, not cycles on a real Black Pill. M3: \
         instructions under QEMU -icount; M0+: rp2040js cycles (`cost --board rp-pico`, when run). \
         Stack: high-water mark in bytes, budget the state + {} B. JSON in {})",
        crate::cost::STACK_OVER_STATE,
        out.display()
    );
    Ok(report)
}

/// `cargo xtask cost --board stm32f411`: the rotation on the emulated F411 with instructions
/// counted, one match per lineup entry, and its per-turn table beside the Cortex-M3's.
pub fn cost(json_only: bool) -> Result<Value> {
    crate::setup::stm32_board()?;
    let elf = build()?.join("arena");
    let matches = <Lineup as arena_firmware::Lineup>::LEN as u32;
    let count = Options {
        count: true,
        ..Options::default()
    };
    let rows = crate::emulator::rotation_cost(&elf, matches, 3000, count, "instructions")?;
    let report = print_cost(&rows, json_only)?;
    crate::cost::check_stack(&rows, "the F411")?;
    Ok(report)
}
