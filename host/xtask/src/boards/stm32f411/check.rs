//! `cargo xtask firmware-test`, the STM32F411 half: the release ELF that
//! `cargo xtask flash --board stm32f411` flashes, run on the emulated STM32F411CE (Cortex-M4F,
//! Unicorn) with its ST7789.
//!
//! 1. Digests: the F411 logs the state digest after every turn and at the end of each match of one
//!    whole rotation (every entry of its lineup, `Lineup::LEN` matches); the host plays the same
//!    matches through the same loop: identical lists.
//! 2. Pixels: each frame the F411 announces (`frame m= t= k=`) is the emulated ST7789's picture at
//!    that instant; it equals the host's rendering of the same turn at rgb240x240 (the same screens
//!    on an RGB565 240x240 canvas, `arena render --display rgb240x240`), pixel for pixel.
//! 3. The board: the clock tree the firmware set (100 MHz from the 25 MHz crystal through the PLL,
//!    3 flash wait states), SPI1's clock, the LCD's state (awake, on, inverted, RGB565).
//! 4. Stack: each match's high-water mark, within its state + 12 KB.
//! 5. Panic: `panic-test` panics once the board is up: the message is in the decoded log and the
//!    run ends in the HardFault that panic-probe takes, with a failure status.
//! 6. The harness: its own tests (`python -m unittest`), and bad input (a truncated ELF, a file that
//!    is no ELF: xtask refuses them before the harness starts; a firmware that never logs) ends
//!    with a clear error and a non-zero status.
//! 7. DFU: the raw image `flash --dfu` writes equals the ELF's flash contents.

use std::path::Path;
use std::process::Command;

use anyhow::{ensure, Context, Result};
use embedded_graphics::pixelcolor::{Rgb565, Rgb888, RgbColor};
use serde_json::Value;

use super::dfu;
use super::{self as stm32, Run};
use crate::{emulator, log, root, tools};

pub const SIDE: usize = 240;

/// The host's RGB565 240x240 canvas (the ST7789's), as `arena render --display rgb240x240` draws.
#[derive(Clone, PartialEq, Eq)]
pub struct RgbFrame {
    px: Vec<Rgb565>,
}

impl Default for RgbFrame {
    fn default() -> Self {
        RgbFrame {
            px: vec![Rgb565::BLACK; SIDE * SIDE],
        }
    }
}

impl RgbFrame {
    /// The colour at (x, y), widened to RGB888 as embedded-graphics does.
    pub fn rgb(&self, x: usize, y: usize) -> [u8; 3] {
        let c = Rgb888::from(self.px[y * SIDE + x]);
        [c.r(), c.g(), c.b()]
    }

    /// Pixel `(x, y)` to `color`; nothing outside the frame.
    fn set(&mut self, x: usize, y: usize, color: Rgb565) {
        if x < SIDE && y < SIDE {
            self.px[y * SIDE + x] = color;
        }
    }

    pub fn to_image(&self) -> image::RgbImage {
        image::RgbImage::from_fn(SIDE as u32, SIDE as u32, |x, y| {
            image::Rgb(self.rgb(x as usize, y as usize))
        })
    }
}

arena_firmware::frame_target!(RgbFrame, Rgb565, size: SIDE x SIDE);

/// The ST7789's pictures are the panel itself, 240x240 RGB.
impl emulator::HostFrame for RgbFrame {
    const DISPLAY: &'static str = "ST7789";

    fn differs(&self, picture: &image::DynamicImage) -> Result<Option<String>, String> {
        let at = compare(&picture.to_rgb8(), self)?;
        Ok(at.map(|(x, y, got, want)| format!("({x}, {y}): {got:?}, want {want:?}")))
    }

    fn picture(&self, _: &image::DynamicImage) -> image::DynamicImage {
        self.to_image().into()
    }
}

/// A differing pixel: `(x, y, got, want)`.
pub type Difference = (u32, u32, [u8; 3], [u8; 3]);

/// The first pixel where a 240x240 RGB picture differs from `frame`.
pub fn compare(png: &image::RgbImage, frame: &RgbFrame) -> Result<Option<Difference>, String> {
    if png.dimensions() != (SIDE as u32, SIDE as u32) {
        let (w, h) = png.dimensions();
        return Err(format!("a {w}x{h} picture, not 240x240"));
    }
    for (x, y, p) in png.enumerate_pixels() {
        let want = frame.rgb(x as usize, y as usize);
        if p.0 != want {
            return Ok(Some((x, y, p.0, want)));
        }
    }
    Ok(None)
}

/// Everything before the emulator runs: the harness's own tests, the release ELFs.
pub fn build() -> Result<std::path::PathBuf> {
    harness()?;
    stm32::build()
}

/// The checks on the emulated F411, with the ELFs of [`build`].
pub fn emulate(release: &Path) -> Result<()> {
    emulator::timed::<stm32::Options>(|| {
        let (rows, lines) = rotation(&release.join("arena"))?;
        registers_agree(&release.join("arena"), &lines)?;
        emulator::panic_test::<stm32::Options>(&release.join("panic-test"))?;
        bad_input(&release.join("arena"), &release.join("panic-test"))?;
        dfu_image(&release.join("arena"))?;
        crate::cost::check_stack(&rows, "the F411")
    })
}

/// The harness: its venv with Unicorn set up, its unit tests passed (the ST7789 model, the target
/// file's reader).
fn harness() -> Result<()> {
    stm32::venv(crate::setup::Mode::Check)?;
    tools::status(
        Command::new(stm32::python())
            .args(["-m", "unittest", "discover", "-q", "-s", "tests"])
            .current_dir(root().join(stm32::EMULATOR)),
    )
    .context("the STM32F411 emulator's own tests failed")
}

/// The rotation's checks; the per-match rows and the decoded log.
fn rotation(elf: &Path) -> Result<(Vec<Value>, Vec<String>)> {
    let dir = tools::fresh_dir(&root().join("target/xtask-stm32f411"))?;
    let matches = <stm32::Lineup as arena_firmware::Lineup>::LEN as u32;
    // The host plays the same matches on the other core while the emulator runs, once the boot
    // line has said how.
    let (tap, lines) = std::sync::mpsc::channel::<String>();
    let play = crate::host::play_on::<stm32::Lineup, RgbFrame>;
    let host = emulator::host_side::<stm32::Options, _>(lines, matches, play);
    let ran = Run {
        matches: Some(matches),
        frames: Some(&dir),
        tap: Some(tap),
        ..Run::new(elf, 1500)
    }
    .go()?;
    ensure!(
        ran.status == 0,
        "the emulated STM32F411 stopped before {matches} matches: {}",
        ran.why()
    );
    println!(
        "xtask test: the emulated STM32F411 played {matches} matches in {:.0} s ({} SPI bytes to the ST7789)",
        ran.seconds, ran.summary["spi"]["bytes"]
    );
    let want = emulator::host_played::<stm32::Options, _>(host, &ran)?;
    board_state(&ran.summary)?;

    let matched = emulator::same_matches::<stm32::Options, _>(&ran, &want)?;
    println!("xtask test: {matched} identical on the emulated STM32F411 (Cortex-M4F) and the host");

    emulator::same_frames::<stm32::Options, _>(&ran, &want.frames)?;
    println!(
        "xtask test: {} ST7789 frames of the emulated STM32F411 equal the host rendering at rgb240x240",
        ran.frames.len()
    );
    let rows = emulator::cost_rows::<stm32::Options>(&ran, matches, "instructions")?;
    bus(&ran.summary, &rows)?;
    println!("xtask test: stack high-water mark per match on the F411 (budget: state + 12 KB):");
    for r in &rows {
        println!(
            "  {:<14} {:<15} {:>7} bytes (state {})",
            r["game"].as_str().unwrap_or("?"),
            r["config"].as_str().unwrap_or("?"),
            r["stack_bytes"],
            r["state_bytes"]
        );
    }
    Ok((rows, ran.lines))
}

/// What the firmware set up, as the harness saw it: the clocks, SPI1, the LCD.
fn board_state(s: &Value) -> Result<()> {
    let clocks = &s["clocks"];
    ensure!(
        clocks["sysclk"] == 100_000_000 && clocks["hclk"] == 100_000_000,
        "the F411 runs at {} (HCLK {}), not 100 MHz: {clocks}",
        clocks["sysclk"],
        clocks["hclk"]
    );
    ensure!(
        clocks["source"]
            .as_str()
            .is_some_and(|src| src.starts_with("PLL (HSE 25 MHz")),
        "the F411's clock is not the PLL from the 25 MHz crystal: {clocks}"
    );
    let spi = s["spi"]["clockHz"].as_u64().unwrap_or(0);
    ensure!(
        spi > 0 && spi <= 62_500_000,
        "SPI1's clock {spi} Hz: the ST7789 takes at most 62.5 MHz (a 16 ns serial clock cycle)"
    );
    let lcd = &s["lcd"];
    ensure!(
        lcd["displayOn"] == true && lcd["sleeping"] == false && lcd["colmod"] == 0x55,
        "the ST7789 is not awake, on and in RGB565: {lcd}"
    );
    ensure!(
        lcd["warnings"].as_object().is_some_and(|w| w.is_empty())
            && s["warnings"].as_object().is_some_and(|w| w.is_empty()),
        "the emulated board warned: {} {}",
        s["warnings"],
        lcd["warnings"]
    );
    println!(
        "xtask test: the F411 set itself up as the board needs: {} ({} flash wait states), APB1 {} Hz, SPI1 at {spi} Hz, the ST7789 awake, on, inverted {}, RGB565",
        clocks["source"].as_str().unwrap_or("?"),
        clocks["flash_wait_states"],
        clocks["pclk1"],
        lcd["inverted"]
    );
    Ok(())
}

/// The LCD's bus a frame at a time, as the ST7789 model counted it (bytes, transactions, flicker
/// pixels: written with a colour neither the frame before nor the frame after shows): no flicker
/// at any frame of the rotation, and per match the bytes a turn and the bus time they take at
/// SPI1's clock. Prints the table docs/performance.md quotes.
fn bus(s: &Value, rows: &[Value]) -> Result<()> {
    let bus = &s["bus"];
    let spi_hz = s["spi"]["clockHz"].as_f64().unwrap_or(0.0);
    ensure!(spi_hz > 0.0, "no SPI1 clock in the summary");
    let frames = bus["frames"].as_u64().unwrap_or(0);
    ensure!(frames > 0, "the ST7789 model counted no frame: {bus}");
    ensure!(
        bus["flickerPixels"] == 0,
        "the LCD flickered: {} pixels over {frames} frames were written with a colour that neither the frame before nor the frame after shows; the first frames: {}",
        bus["flickerPixels"],
        bus["flickerFrames"]
    );
    let ms = |bytes: f64| bytes * 8.0 / spi_hz * 1000.0;
    let all = &bus["gameFrameBytes"];
    let median = all["median"].as_u64().unwrap_or(u64::MAX);
    ensure!(
        median < 10_240,
        "a game frame sends a median of {median} bytes to the ST7789: over 10 KB ({all})"
    );
    println!(
        "xtask test: the ST7789's bus, {frames} frames, 0 flicker pixels; a game frame sends a median of {median} bytes, max {}; per match (SPI1 at {:.0} MHz):",
        all["max"],
        spi_hz / 1e6
    );
    println!(
        "  {:<14} {:<15} {:>8} {:>8} {:>6} {:>8} {:>8} {:>9}",
        "game", "config", "median B", "max B", "trans.", "bus ms", "max ms", "result B"
    );
    for (i, m) in bus["matches"].as_array().into_iter().flatten().enumerate() {
        let row = rows.get(i);
        let b = &m["bytes"];
        let (med, max) = (
            b["median"].as_f64().unwrap_or(0.0),
            b["max"].as_f64().unwrap_or(0.0),
        );
        println!(
            "  {:<14} {:<15} {:>8} {:>8} {:>6} {:>8.2} {:>8.2} {:>9}",
            row.and_then(|r| r["game"].as_str()).unwrap_or("?"),
            row.and_then(|r| r["config"].as_str()).unwrap_or("?"),
            med as u64,
            max as u64,
            m["transactions"]["median"].as_u64().unwrap_or(0),
            ms(med),
            ms(max),
            m["resultBytes"].as_u64().unwrap_or(0)
        );
    }
    Ok(())
}

/// The first turns again with SPI1 modelled register by register (every byte through CR1, SR and
/// DR, as the chip takes them): the same log and the same pictures as the rotation's run, which
/// takes SPI1's bytes a slice at a time.
fn registers_agree(elf: &Path, rotation: &[String]) -> Result<()> {
    const FRAMES: u32 = 2;
    let dir = tools::fresh_dir(&root().join("target/xtask-stm32f411/registers"))?;
    let ran = Run {
        matches: Some(1),
        frames: Some(&dir),
        own: stm32::Options {
            frames_max: Some(FRAMES),
            spi_registers: true,
            ..stm32::Options::default()
        },
        ..Run::new(elf, 300)
    }
    .go()?;
    ensure!(
        ran.status == 0 && ran.summary["spi"]["path"] == "registers",
        "the register-by-register run stopped: {}",
        ran.why()
    );
    ensure!(
        ran.frames.len() == FRAMES as usize,
        "the register-by-register run announced {} frames, not {FRAMES}",
        ran.frames.len()
    );
    let slices = root().join("target/xtask-stm32f411");
    for (line, png, _) in &ran.frames {
        let other = slices.join(png.file_name().unwrap_or_default());
        let (a, b) = (image::open(png)?.to_rgb8(), image::open(&other)?.to_rgb8());
        ensure!(
            a == b,
            "{}: SPI1 register by register gives {}, a slice at a time {}: they differ",
            line.as_deref().unwrap_or("?"),
            png.display(),
            other.display()
        );
    }
    let digests = log::triples(&ran.lines, "digest");
    let want = log::triples(rotation, "digest");
    ensure!(
        !digests.is_empty() && want.starts_with(&digests),
        "the register-by-register run's digests are not the rotation's first ones"
    );
    println!(
        "xtask test: with SPI1 register by register ({} SPI bytes through DR), the first {FRAMES} frames and {} digests are those of the run that takes slices",
        ran.summary["spi"]["bytes"],
        digests.len()
    );
    Ok(())
}

/// The ELF with its reset handler's first instruction replaced by `b .`: a firmware that starts
/// and never logs.
fn silent_firmware(elf: &Path, out: &Path) -> Result<()> {
    let mut bytes = std::fs::read(elf)?;
    let segments = crate::elf::load_segments(&bytes).map_err(anyhow::Error::msg)?;
    let vectors = segments
        .iter()
        .find(|s| s.addr == dfu::FLASH)
        .context("no segment at the flash's start (the vector table)")?;
    let reset = u32::from_le_bytes(vectors.data[4..8].try_into()?) & !1;
    let seg = segments
        .iter()
        .find(|s| (s.addr..s.addr + s.data.len() as u32).contains(&reset))
        .context("the reset vector points into no segment")?;
    let at = seg.offset + (reset - seg.addr) as usize;
    bytes[at..at + 2].copy_from_slice(&0xE7FEu16.to_le_bytes());
    std::fs::write(out, bytes)?;
    Ok(())
}

fn bad_input(elf: &Path, panic_elf: &Path) -> Result<()> {
    let dir = root().join("target/xtask-stm32f411");
    let silent = dir.join("silent.elf");
    silent_firmware(elf, &silent)?;
    emulator::BadInput {
        name: "the F411 emulator",
        dir: &dir,
        elf,
        panic_elf,
        not_elf: &root().join(stm32::EMULATOR).join("requirements.txt"),
        silent: (&silent, "2"),
        timeout: "2",
    }
    .check(|elf, args| {
        let mut run = Run::new(elf, 60);
        for pair in args.chunks(2) {
            match pair {
                ["--silence", n] => run.own.silence_s = Some(n.parse()?),
                ["--matches", n] => run.matches = Some(n.parse()?),
                ["--timeout", s] => run.timeout_s = s.parse()?,
                _ => anyhow::bail!("no such option for the F411's run: {pair:?}"),
            }
        }
        let ran = run.go()?;
        Ok((
            Some(ran.status),
            format!("{}\n{}", ran.messages.join("\n"), ran.why()),
        ))
    })
}

/// The raw image `flash --board stm32f411 --dfu` writes is the ELF's flash contents.
fn dfu_image(elf: &Path) -> Result<()> {
    let out = root().join("target/xtask-stm32f411/dfu.bin");
    let n = dfu::make(elf, &out)?;
    println!(
        "xtask test: the DFU image (llvm-objcopy -O binary, {n} bytes from 0x{:08x}) equals the ELF's flash contents",
        dfu::FLASH
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::prelude::{DrawTarget, Pixel, Point, Primitive, Size};
    use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};
    use embedded_graphics::Drawable;

    #[test]
    fn compares_240x240_pictures_pixel_for_pixel() {
        let mut f = RgbFrame::default();
        Rectangle::new(Point::new(10, 20), Size::new(3, 2))
            .into_styled(PrimitiveStyle::with_fill(Rgb565::new(31, 10, 3)))
            .draw(&mut f)
            .unwrap();
        let png = f.to_image();
        assert_eq!(compare(&png, &f), Ok(None));
        // embedded-graphics' widening: 5 bits of 31 are 255, 6 bits of 10 are 40, 5 bits of 3 are 25.
        assert_eq!(png.get_pixel(10, 20).0, [255, 40, 25]);
        let mut other = f.clone();
        other
            .draw_iter([Pixel(Point::new(200, 100), Rgb565::WHITE)])
            .unwrap();
        assert_eq!(
            compare(&png, &other),
            Ok(Some((200, 100, [0, 0, 0], [255, 255, 255])))
        );
        assert!(compare(&image::RgbImage::new(10, 10), &f).is_err());
    }
}
