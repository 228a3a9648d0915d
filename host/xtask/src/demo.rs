//! `cargo xtask demo`: a rotation of matches in QEMU, watched live through the defmt log, kept as PNG
//! frames and an animated GIF of the emulated OLED.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame};

use crate::{log, qemu, root, tools};

pub fn run(matches: u32, snap: u32) -> Result<()> {
    tools::qemu_board()?;
    let release = qemu::build()?;
    let elf = release.join("arena");
    let dir = qemu::fresh_dir(&root().join("target/demo"))?;
    let args = vec![
        format!("matches={matches}"),
        format!("snap={}", snap.max(1)),
        "digest=10".to_owned(),
        "hold=ack".to_owned(),
    ];
    println!(
        "xtask: QEMU lm3s6965evb, {matches} matches, a frame every {} turns",
        snap.max(1)
    );
    let ran = qemu::Run {
        elf: &elf,
        args,
        icount: false,
        timeout_s: 600,
        snapshots: Some(&dir),
        echo: true,
    }
    .go()?;
    anyhow::ensure!(
        ran.status == 0,
        "the firmware exited with status {}",
        ran.status
    );
    let gif = dir.join("demo.gif");
    write_gif(&ran.frames, &gif)?;
    for (_, png) in &ran.frames {
        let _ = std::fs::remove_file(png.with_file_name(ack_name(png)));
    }
    println!(
        "xtask: {} frames in {}/frame-*.png, animation in {}",
        ran.frames.len(),
        dir.display(),
        gif.display()
    );
    Ok(())
}

fn ack_name(png: &Path) -> String {
    let stem = png
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .trim_start_matches("frame-")
        .trim_start_matches('0');
    format!("ack-{}", if stem.is_empty() { "0" } else { stem })
}

/// An animated GIF of the frames: game frames quick, result screens held.
fn write_gif(frames: &[(String, std::path::PathBuf)], out: &Path) -> Result<()> {
    let file = File::create(out).with_context(|| format!("cannot write {}", out.display()))?;
    let mut gif = GifEncoder::new_with_speed(file, 30);
    gif.set_repeat(Repeat::Infinite)?;
    for (msg, png) in frames {
        let img = image::open(png)?.to_rgba8();
        let ms = if log::value(msg, "k") == Some("Result") {
            2500
        } else {
            200
        };
        gif.encode_frame(Frame::from_parts(
            img,
            0,
            0,
            Delay::from_numer_denom_ms(ms, 1),
        ))?;
    }
    Ok(())
}
