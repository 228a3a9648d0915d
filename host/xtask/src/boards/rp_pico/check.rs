//! `cargo xtask firmware-test`, the Raspberry Pi Pico half: the release ELF that
//! `cargo xtask flash --board rp-pico` flashes, run on the emulated RP2040 (Cortex-M0+).
//!
//! 0. UF2: the emulated Pico boots from the UF2 file `cargo xtask uf2` writes (its blocks, as the
//!    boot ROM writes them in BOOTSEL mode), which holds exactly the ELF's flash pages.
//! 1. Digests: the Pico logs the state digest after every turn and at the end of each match of one
//!    whole rotation (every entry of the lineup, `Lineup::LEN` matches); the host plays the same
//!    matches through the same loop: identical lists.
//! 2. Pixels: each frame the Pico announces (`frame m= t= k=`) is the emulated SSD1306's picture at
//!    that instant; it equals the host's rendering of the same turn at oled128x64 (the same screens
//!    on a 1-bit canvas), pixel for pixel.
//! 3. Panic: `panic-test` panics once the board is up: the message is in the decoded log and the run
//!    ends in the HardFault that panic-probe takes, with a failure status.
//! 4. Stack: each match's high-water mark (`stack m= used= of=`), within its state + 12 KB (the
//!    budget the other boards hold it to).
//! 5. The harness: its own tests (`node --test`), and bad input (a truncated ELF, a file that is no
//!    ELF, a firmware that never logs) ends with a clear error and a non-zero status.
//!
//! Then the M0+ cost table beside the M3's.

use std::path::Path;
use std::process::Command;

use anyhow::{ensure, Context, Result};
use serde_json::Value;

use super::mono;
use super::{self as pico, Run};
use crate::{emulator, root, tools};

/// Everything before the emulator runs: Node's packages, the harness's own tests, the release
/// ELFs (this uses both cores; [`emulate`] mostly one, so it can run beside other checks).
pub fn build() -> Result<std::path::PathBuf> {
    harness()?;
    pico::build()
}

/// The checks on the emulated Pico, with the ELFs of [`build`].
pub fn emulate(release: &Path) -> Result<()> {
    emulator::timed::<pico::Options>(|| {
        let rows = rotation(&release.join("arena"))?;
        emulator::panic_test::<pico::Options>(&release.join("panic-test"))?;
        bad_input(&release.join("arena"), &release.join("panic-test"))?;
        pico::print_cost(&rows, false).map(drop)
    })
}

/// The harness: its Node packages there (`cargo xtask setup` installs them), its unit tests
/// passed (the ROM, the SSD1306 model, the target file, the probe's watchpoint and memory, the
/// frame buffer as PGM).
fn harness() -> Result<()> {
    pico::node_packages(crate::setup::Mode::Check)?;
    tools::status(
        Command::new("node")
            .args(["--test", "--test-reporter=dot", "test/"])
            .current_dir(root().join(pico::EMULATOR)),
    )
    .context("the emulator's own tests failed")
}

/// The UF2 file of `elf`, checked block by block against the ELF's flash pages.
fn uf2_of(elf: &Path, dir: &Path) -> Result<std::path::PathBuf> {
    use super::uf2;
    let file = dir.join("arena.uf2");
    uf2::write(elf, &file)?;
    let blocks =
        uf2::blocks(&std::fs::read(&file)?, uf2::RP2040_FAMILY).map_err(anyhow::Error::msg)?;
    let segments = crate::elf::load_segments(&std::fs::read(elf)?).map_err(anyhow::Error::msg)?;
    let mut written = 0;
    for s in &segments {
        for (i, b) in s.data.iter().enumerate() {
            let at = s.addr + i as u32;
            let page = blocks
                .iter()
                .find(|(a, data)| (*a..*a + data.len() as u32).contains(&at))
                .with_context(|| format!("no UF2 block holds 0x{at:08x}"))?;
            ensure!(
                page.1[(at - page.0) as usize] == *b,
                "the UF2 block for 0x{at:08x} differs from the ELF"
            );
            written += 1;
        }
    }
    println!(
        "xtask test: the UF2 file ({} blocks) holds the ELF's {written} bytes of flash; the emulated Pico boots from it",
        blocks.len()
    );
    Ok(file)
}

fn rotation(elf: &Path) -> Result<Vec<Value>> {
    let dir = tools::fresh_dir(&root().join("target/xtask-pico"))?;
    let uf2 = uf2_of(elf, &dir)?;
    let matches = <pico::Lineup as arena_firmware::Lineup>::LEN as u32;
    // The host plays the same matches on the other core while the emulator runs, as soon as the
    // Pico's boot line has said how it plays them.
    let (tap, lines) = std::sync::mpsc::channel::<String>();
    let host = emulator::host_side::<pico::Options, _>(lines, matches, mono::play::<pico::Lineup>);
    let ran = Run {
        matches: Some(matches),
        frames: Some(&dir),
        own: pico::Options {
            uf2: Some(&uf2),
            ..pico::Options::default()
        },
        tap: Some(tap),
        ..Run::new(elf, 1500)
    }
    .go()?;
    ensure!(
        ran.summary["loadedFrom"] == "uf2",
        "the emulated Pico did not boot from the UF2 file: {}",
        ran.summary["loadedFrom"]
    );
    ensure!(
        ran.status == 0,
        "the emulated Pico stopped before {matches} matches: {}",
        ran.why()
    );
    println!(
        "xtask test: the emulated Pico played {matches} matches in {:.0} s ({} emulated cycles)",
        ran.seconds, ran.summary["cycles"]
    );
    let want = emulator::host_played::<pico::Options, _>(host, &ran)?;
    let matched = emulator::same_matches::<pico::Options, _>(&ran, &want)?;
    println!(
        "xtask test: {matched} identical on the emulated Pico (Cortex-M0+, booted from the UF2 file) and the host"
    );
    emulator::same_frames::<pico::Options, _>(&ran, &want.frames)?;
    println!(
        "xtask test: {} OLED frames of the emulated Pico equal the host rendering at oled128x64",
        ran.frames.len()
    );
    pace(&ran)?;
    let rows = stacks(&ran, matches)?;
    bus(&ran.summary, &rows)?;
    Ok(rows)
}

/// The pace: the image keeps `TURNS_PER_SECOND` turns a second (its `ARENA_PACE`, as a real Pico
/// reads it), and the emulated run played flat out (the harness wrote 0 over it: `pace=0` in the
/// boot line), spending no emulated cycles waiting.
fn pace(ran: &pico::Ran) -> Result<()> {
    let want = arena_firmware::board::TURNS_PER_SECOND;
    let pace = &ran.summary["pace"];
    ensure!(
        pace["inImage"].as_u64() == Some(u64::from(want)),
        "the Pico's image keeps a pace of {} turns a second (ARENA_PACE), not the documented {want}",
        pace["inImage"]
    );
    let logged = ran
        .lines
        .iter()
        .find(|l| crate::log::message(l).starts_with("rp-pico:"))
        .and_then(|l| crate::log::num::<u32>(l, "pace"));
    ensure!(
        pace["set"].as_u64() == Some(0) && logged == Some(0),
        "the emulated Pico must play flat out: the harness set pace {}, the boot line says {logged:?}",
        pace["set"]
    );
    println!(
        "xtask test: the Pico's image keeps {want} turns a second (ARENA_PACE); the emulated run played at pace=0"
    );
    Ok(())
}

/// The OLED's I2C bus a frame at a time (address bytes included), as the harness counted it: per
/// match the median and max of a game frame, and the time at I2C0's 400 kHz (9 clocks a byte).
/// A median turn sends less than a quarter of the 1,024 bytes of the whole GDDRAM.
fn bus(s: &Value, rows: &[Value]) -> Result<()> {
    let bus = &s["bus"];
    let all = &bus["gameFrameBytes"];
    let median = all["median"].as_u64().unwrap_or(u64::MAX);
    ensure!(
        all["n"].as_u64().unwrap_or(0) > 0 && median < 256,
        "the Pico's game frames send a median of {median} I2C bytes: more than a quarter of the GDDRAM ({bus})"
    );
    let ms = |b: u64| b as f64 * 9.0 / 400_000.0 * 1000.0;
    println!(
        "xtask test: the OLED's I2C bus, {} game frames: median {median} bytes ({:.2} ms at 400 kHz), max {}; per match:",
        all["n"],
        ms(median),
        all["max"]
    );
    println!(
        "  {:<14} {:<15} {:>8} {:>8} {:>8} {:>9}",
        "game", "config", "median B", "max B", "bus ms", "result B"
    );
    for (i, m) in bus["matches"].as_array().into_iter().flatten().enumerate() {
        let row = rows.get(i);
        let b = &m["bytes"];
        println!(
            "  {:<14} {:<15} {:>8} {:>8} {:>8.2} {:>9}",
            row.and_then(|r| r["game"].as_str()).unwrap_or("?"),
            row.and_then(|r| r["config"].as_str()).unwrap_or("?"),
            b["median"].as_u64().unwrap_or(0),
            b["max"].as_u64().unwrap_or(0),
            ms(b["median"].as_u64().unwrap_or(0)),
            m["resultBytes"].as_u64().unwrap_or(0)
        );
    }
    Ok(())
}

/// The stack high-water mark and cost lines of every match: plausible, printed; the cost rows.
fn stacks(ran: &pico::Ran, matches: u32) -> Result<Vec<Value>> {
    let rows = emulator::cost_rows::<pico::Options>(ran, matches, "cycles")?;
    println!(
        "xtask test: stack high-water mark per match on the Pico (of {} bytes):",
        rows.first()
            .map(|r| r["stack_size"].clone())
            .unwrap_or_default()
    );
    for r in &rows {
        let (used, of) = (
            r["stack_bytes"].as_u64().unwrap_or(0),
            r["stack_size"].as_u64().unwrap_or(0),
        );
        ensure!(
            used > 0 && used < of,
            "match {}: no plausible stack line (used {used} of {of})",
            r["match"]
        );
        println!(
            "  {:<14} {:<15} {:>7} bytes",
            r["game"].as_str().unwrap_or("?"),
            r["config"].as_str().unwrap_or("?"),
            used
        );
    }
    crate::cost::check_stack(&rows, "the Pico")?;
    Ok(rows)
}

fn bad_input(elf: &Path, panic_elf: &Path) -> Result<()> {
    emulator::BadInput {
        name: "the emulator",
        dir: &root().join("target/xtask-pico"),
        elf,
        panic_elf,
        not_elf: &root().join(pico::EMULATOR).join("package.json"),
        silent: (elf, "1000"),
        timeout: "1",
    }
    .check(|elf, args| {
        let mut run = Run {
            own: pico::Options::default(),
            ..Run::new(elf, 60)
        };
        for pair in args.chunks(2) {
            match pair {
                ["--silence", n] => run.own.silence = Some(n.parse()?),
                ["--matches", n] => run.matches = Some(n.parse()?),
                ["--timeout", s] => run.timeout_s = s.parse()?,
                _ => anyhow::bail!("no such option for the Pico's run: {pair:?}"),
            }
        }
        let ran = run.go()?;
        Ok((
            Some(ran.status),
            format!("{}\n{}", ran.messages.join("\n"), ran.why()),
        ))
    })
}
