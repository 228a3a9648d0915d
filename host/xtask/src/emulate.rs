//! `cargo xtask emulate rp-pico [--matches N] [--snap N]`: the Pico's rotation on the emulated
//! RP2040 with its SSD1306, the defmt log decoded live, the OLED kept as PNG frames (every N-th turn
//! and every frame the firmware announces, result screens included) and an animated GIF in
//! `target/emulate/rp-pico/`. `--elf FILE` runs that ELF instead of the board's own (a user's
//! firmware built from templates/rust-bot: its board folders' cargo runner).

use std::fs::File;
use std::path::Path;

use anyhow::{bail, ensure, Context, Result};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame};

use crate::pico::{self, Run};
use crate::{log, qemu, root};

pub fn run(board: Option<&str>, elf: Option<&Path>, matches: u32, snap: u32) -> Result<()> {
    if let Some(elf) = elf {
        ensure!(elf.is_file(), "--elf {}: no such file", elf.display());
    }
    match board {
        Some("rp-pico") => {}
        Some("qemu-lm3s6965") => bail!("the QEMU board runs with `cargo xtask demo`"),
        Some("stm32f411") => return stm32(elf, matches, snap),
        Some(other) => bail!("unknown board {other}: emulate rp-pico|stm32f411"),
        None => bail!("emulate needs a board: `cargo xtask emulate rp-pico|stm32f411`"),
    }
    crate::setup::all()?;
    let elf = match elf {
        Some(elf) => elf.to_path_buf(),
        None => pico::build()?.join("arena"),
    };
    let dir = qemu::fresh_dir(&root().join("target/emulate/rp-pico"))?;
    let snap = snap.max(1);
    println!(
        "xtask: emulated Raspberry Pi Pico (rp2040js) with an SSD1306 on I2C0, {}; {matches} \
         matches, a frame every {snap} turns",
        elf.display()
    );
    let ran = Run {
        matches: Some(matches),
        frames: Some(&dir),
        every: Some(snap),
        echo: true,
        ..Run::new(&elf, 3600)
    }
    .go()?;
    finish(&ran, "Pico", &dir)
}

/// `cargo xtask emulate stm32f411`: the Black Pill's release ELF on the emulated STM32F411CE.
fn stm32(elf: Option<&Path>, matches: u32, snap: u32) -> Result<()> {
    crate::setup::stm32_board()?;
    let elf = match elf {
        Some(elf) => elf.to_path_buf(),
        None => crate::stm32::build()?.join("arena"),
    };
    let dir = qemu::fresh_dir(&root().join("target/emulate/stm32f411"))?;
    let snap = snap.max(1);
    println!(
        "xtask: emulated STM32F411CE (Unicorn) with an ST7789 on SPI1, {}; {matches} matches, \
         a frame every {snap} turns (the cost lines count nothing here: `cost --board stm32f411` \
         counts instructions)",
        elf.display()
    );
    let ran = crate::stm32::Run {
        matches: Some(matches),
        frames: Some(&dir),
        every: Some(snap),
        echo: true,
        ..crate::stm32::Run::new(&elf, 3600)
    }
    .go()?;
    finish(&ran, "STM32F411", &dir)
}

/// A board's run ended: fails unless it ended well; the frames in `dir` as an animated GIF.
fn finish(ran: &crate::emulator::Ran, board: &str, dir: &Path) -> Result<()> {
    ensure!(
        ran.status == 0,
        "the emulated {board} stopped: {}",
        ran.why()
    );
    let gif = dir.join("emulate.gif");
    write_gif(&ran.frames, &gif)?;
    println!(
        "xtask: {} frames in {}/frame-*.png, animation in {}",
        ran.frames.len(),
        dir.display(),
        gif.display()
    );
    Ok(())
}

/// An animated GIF of the frames: game frames quick, result screens held.
fn write_gif(
    frames: &[(Option<String>, std::path::PathBuf, serde_json::Value)],
    out: &Path,
) -> Result<()> {
    let file = File::create(out).with_context(|| format!("cannot write {}", out.display()))?;
    let mut gif = GifEncoder::new_with_speed(file, 30);
    gif.set_repeat(Repeat::Infinite)?;
    for (line, png, _) in frames {
        let img = image::open(png)
            .with_context(|| png.display().to_string())?
            .to_rgba8();
        let result = line.as_deref().and_then(|l| log::value(l, "k")) == Some("Result");
        let ms = if result { 2500 } else { 200 };
        gif.encode_frame(Frame::from_parts(
            img,
            0,
            0,
            Delay::from_numer_denom_ms(ms, 1),
        ))?;
    }
    Ok(())
}
