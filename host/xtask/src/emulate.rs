//! `cargo xtask emulate BOARD [--matches N] [--snap N]`: the board's rotation on its emulated chip
//! (the board's `Board::emulate`, in its folder under `boards/`), the defmt log decoded live, the
//! screen kept as PNG frames (every N-th turn and every frame the firmware announces, result screens
//! included) and an animated GIF in `target/emulate/<board>/`. `--elf FILE` runs that ELF instead
//! of the board's own (a user's firmware built from templates/rust-bot: its board folders' cargo
//! runner).

use std::fs::File;
use std::path::Path;

use anyhow::{ensure, Context, Result};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame};

use crate::log;

/// A board's run ended: fails unless it ended well; the frames in `dir` as an animated GIF.
pub fn finish(ran: &crate::emulator::Ran, board: &str, dir: &Path) -> Result<()> {
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
