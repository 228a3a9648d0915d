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
/// The file in target/ that `cost --board <name>` writes its report to.
pub const REPORT: &str = "cost-stm32f411.json";
pub const TARGET: &str = "thumbv7em-none-eabihf";
/// The emulated STM32F411's harness (Python over Unicorn).
pub const EMULATOR: &str = "host/xtask/emulators/stm32f411";
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
    venv_dir().join("bin/python")
}

/// The harness's venv (target/stm32f411-emulator/venv).
fn venv_dir() -> PathBuf {
    root().join("target/stm32f411-emulator/venv")
}

/// The harness's Python packages (Unicorn from PyPI, pinned in its requirements.txt) in the venv
/// under target/, installed or checked.
pub fn venv(mode: crate::setup::Mode) -> Result<()> {
    crate::setup::python_venv(
        EMULATOR,
        &venv_dir(),
        "the emulated STM32F411",
        "stm32",
        mode,
    )
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

/// Prints the Cortex-M4 table beside the baseline board's figures (`crate::boards::baseline`, the
/// M3's) and each other board's when measured (`cost --board <name>` run: the M0+'s); writes
/// target/cost-stm32f411.json.
pub fn print_cost(rows: &[Value], json_only: bool) -> Result<Value> {
    use crate::boards::{Board, BOARDS};
    let (base, m3) = crate::boards::baseline()?;
    // The baseline first (measured again when stale), then every other board but this one.
    let others = BOARDS
        .iter()
        .filter(|b| b.name() != base.name() && b.name() != Stm32f411.name())
        .map(|b| (*b, crate::boards::measured(*b)));
    let beside: Vec<(&dyn Board, Value)> = std::iter::once((base, m3)).chain(others).collect();
    let keyed: Vec<(&str, &Value)> = beside.iter().map(|(b, r)| (b.core().key, r)).collect();
    let (report, out) = crate::emulator::cost_report(
        REPORT,
        (
            "stm32f411 (emulated: Unicorn 2.1.4, Cortex-M4)",
            "Cortex-M4 instructions executed (DWT CYCCNT counts instructions in the emulator: no flash wait states, no bus timing, no pipeline)",
        ),
        rows,
        &keyed,
        json_only,
    )?;
    let Some(out) = out else {
        return Ok(report);
    };
    for line in table(rows, &beside) {
        println!("{line}");
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

/// The table's heading and rows: the M4's figures, then each board's of `beside` (its report, or
/// `null`) in a column of its own, its median a turn in its unit for the same game, configuration
/// and match (`-` where it has none).
fn table(rows: &[Value], beside: &[(&dyn crate::boards::Board, Value)]) -> Vec<String> {
    use crate::emulator::leading_columns;
    let heads: String = beside
        .iter()
        .map(|(b, _)| format!(" {:>8}", format!("{} med", b.core().short)))
        .collect();
    let mut lines = vec![format!(
        "{} {:>8} {:>7} |{heads} | bots",
        leading_columns(None, "M4 rules min/median/max", "instructions"),
        "stack",
        "state",
    )];
    for r in rows {
        let same = |x: &&Value| {
            x["game"] == r["game"] && x["config"] == r["config"] && x["match"] == r["match"]
        };
        let medians: String = beside
            .iter()
            .map(|(b, report)| {
                let per_turn = format!("{}_per_turn", b.core().unit);
                let rows = report["matches"].as_array().cloned().unwrap_or_default();
                let median = rows
                    .iter()
                    .find(same)
                    .map_or("-".to_owned(), |x| x[&per_turn]["median"].to_string());
                format!(" {median:>8}")
            })
            .collect();
        lines.push(format!(
            "{} {:>8} {:>7} |{medians} | {}",
            leading_columns(Some(r), "", "instructions"),
            r["stack_bytes"].to_string(),
            r["state_bytes"].to_string(),
            r["bots"].as_str().unwrap_or("?")
        ));
    }
    lines
}

/// `cargo xtask cost --board stm32f411`: the rotation on the emulated F411 with instructions
/// counted, one match per lineup entry, and its per-turn table beside the Cortex-M3's.
pub fn cost(json_only: bool) -> Result<Value> {
    crate::boards::Board::setup(&Stm32f411)?;
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::boards::BOARDS;

    /// A column per board beside, the baseline first, each its median in its own unit for the same
    /// match; `-` where a report has no such match or there is no report.
    #[test]
    fn the_table_has_a_column_per_board_beside() {
        let row = json!({ "game": "g", "config": "c", "match": 3, "stack_bytes": 900, "state_bytes": 100, "bots": "a vs b" });
        let base = BOARDS[0];
        let unit = format!("{}_per_turn", base.core().unit);
        let mut measured = row.clone();
        measured[&unit] = json!({ "median": 4321 });
        let beside = [
            (base, json!({ "matches": [measured] })),
            (BOARDS[1], serde_json::Value::Null),
        ];
        let lines = super::table(&[row], &beside);
        let heads = format!(
            "| {:>8} {:>8} | bots",
            format!("{} med", base.core().short),
            format!("{} med", BOARDS[1].core().short)
        );
        assert!(lines[0].ends_with(&heads), "{}", lines[0]);
        assert!(
            lines[1].ends_with("|     4321        - | a vs b"),
            "{}",
            lines[1]
        );
        assert_eq!(lines.len(), 2);
    }
}
