//! The QEMU board's part of `firmware-test`: what must hold between the host and the board.
//!
//! 1. Digests: the QEMU firmware logs the state digest after every turn and at the end of a fixed
//!    list of matches; the host plays the same matches through the same loop: identical lists.
//! 2. Pixels: the screendumps of the announced frames equal the host's rendering of the same state
//!    through the same screen code, scaled x4.
//! 3. Panic: a deliberately panicking firmware shows the message on the OLED (compared with the host
//!    rendering too) and in the log, and QEMU exits non-zero.
//! 4. Size and cost: the QEMU firmware fits the LM3S6965; the median turn is within budget.
//! 5. Panic paths: the firmware's machine code calls no panic but the explained ones (`panics`).

use anyhow::{bail, ensure, Result};
use arena_firmware::{Gray4Frame, RunConfig};

use crate::steps::Clock;
use crate::{host, log, root};

/// The fixed list: the first `MATCHES` matches of the rotation, seeds 0 to 5 (the rotation puts
/// every game with a screen among its first six entries).
const MATCHES: u32 = 6;
/// Snapshot every this many turns (and each result screen).
const SNAP: u32 = 25;

/// The QEMU board's checks (`firmware-test --board qemu-lm3s6965` runs these alone): its build,
/// digests, screendumps and OLED bytes, the panic screen, the panic paths, the size limits of every
/// board and the cost budget. (The user's crate on QEMU is a part of its own: `template`.)
pub fn qemu_board(clock: &mut Clock) -> Result<()> {
    let release = clock.step("QEMU build", super::build)?;
    clock.step("QEMU digests", || {
        digests_and_pixels(&release.join("arena"))
    })?;
    clock.step("QEMU panic", || panic_screen(&release.join("panic-test")))?;
    clock.step("panic paths", || {
        super::panics::check(&release.join("arena"))
    })?;
    clock.step("size", crate::boards::size::run)?;
    clock.step("cost", || super::cost::run(false)).map(drop)
}

fn digests_and_pixels(elf: &std::path::Path) -> Result<()> {
    let dir = super::fresh_dir(&root().join("target/xtask-check"))?;
    let cfg = RunConfig {
        matches: Some(MATCHES),
        digest_every: 1,
        snapshot_every: SNAP,
        ..RunConfig::default()
    };
    let args = vec![
        format!("matches={MATCHES}"),
        "digest=1".into(),
        format!("snap={SNAP}"),
        "hold=ack".to_owned(),
    ];
    let ran = super::Run {
        snapshots: Some(&dir),
        ..super::Run::new(elf, args, 300)
    }
    .go()?;
    ensure!(ran.status == 0, "QEMU firmware exited with {}", ran.status);
    let want = host::play(&cfg);

    let (digests, finals) = log::same_digests(
        &ran.lines,
        "QEMU",
        "the QEMU log",
        &want.digests,
        &want.finals,
    )?;
    println!(
        "xtask test: {} digests of {} matches identical on QEMU and the host",
        digests + finals,
        finals
    );

    ensure!(
        ran.frames.len() == want.frames.len(),
        "QEMU announced {} frames, the host {}",
        ran.frames.len(),
        want.frames.len()
    );
    for ((msg, png), ((m, t, result), frame)) in ran.frames.iter().zip(&want.frames) {
        let key = (log::num::<u32>(msg, "m"), log::num::<u32>(msg, "t"));
        ensure!(
            key == (Some(*m), Some(*t)),
            "frame order: QEMU {msg}, host m={m} t={t} result={result}"
        );
        same_pixels(png, frame, msg)?;
    }
    println!(
        "xtask test: {} screendumps equal the host rendering",
        ran.frames.len()
    );
    oled_bytes(&ran.lines, &want.started)
}

/// The bytes a game frame put on the OLED's SSI0 (commands and data), per match, as the firmware
/// counted them (`oled m= frames= min= median= max=`): printed, and the median game frame of the
/// whole run under a quarter of the 4,102 bytes a whole frame takes (the window's 6 command bytes
/// and 4,096 of data, what every frame sent before only the changes were).
fn oled_bytes(lines: &[String], started: &[(u32, String, String, String)]) -> Result<()> {
    let rows: Vec<(u32, u32, u32, u32, u32)> = lines
        .iter()
        .filter(|l| log::message(l).starts_with("oled m="))
        .filter_map(|l| {
            Some((
                log::num(l, "m")?,
                log::num(l, "frames")?,
                log::num(l, "min")?,
                log::num(l, "median")?,
                log::num(l, "max")?,
            ))
        })
        .collect();
    ensure!(
        rows.len() == started.len(),
        "QEMU logged the OLED's bytes of {} matches, it played {}",
        rows.len(),
        started.len()
    );
    let mut medians: Vec<u32> = rows.iter().map(|r| r.3).collect();
    medians.sort_unstable();
    let median = medians.get(medians.len().saturating_sub(1) / 2).copied();
    println!("xtask test: the QEMU OLED's SSI0 bytes a game frame (commands included; a whole frame, as every frame sent before, is 4,102):");
    println!(
        "  {:<14} {:<15} {:>7} {:>7} {:>8} {:>7}",
        "game", "config", "frames", "min B", "median B", "max B"
    );
    for (m, frames, min, med, max) in &rows {
        let (game, config) = started
            .iter()
            .find(|s| s.0 == *m)
            .map_or(("?", "?"), |s| (s.1.as_str(), s.2.as_str()));
        println!("  {game:<14} {config:<15} {frames:>7} {min:>7} {med:>8} {max:>7}");
    }
    ensure!(
        median.is_some_and(|m| m < 4102 / 4),
        "the QEMU OLED's game frames send a median (of the matches' medians) of {median:?} bytes: not under a quarter of a whole frame"
    );
    Ok(())
}

fn same_pixels(png: &std::path::Path, frame: &Gray4Frame, what: &str) -> Result<()> {
    let img = image::open(png)?.to_rgb8();
    if let Some((x, y, got, level)) = compare(&img, frame) {
        let want = png.with_extension("host.png");
        to_image(frame).save(&want)?;
        bail!(
            "{what}: screendump {} differs from the host rendering {} at ({x}, {y}): {got:?}, want level {level}",
            png.display(),
            want.display()
        );
    }
    Ok(())
}

fn panic_screen(elf: &std::path::Path) -> Result<()> {
    let dir = super::fresh_dir(&root().join("target/xtask-panic"))?;
    let ran = super::Run {
        snapshots: Some(&dir),
        ..super::Run::new(elf, vec!["hold=ack".to_owned()], 60)
    }
    .go()?;
    ensure!(
        ran.status != 0,
        "a panic must end QEMU with a failure status"
    );
    let Some(msg) = ran
        .lines
        .iter()
        .find_map(|l| log::message(l).strip_prefix("panic: "))
    else {
        bail!("no panic message in the log: {:?}", ran.lines);
    };
    ensure!(
        msg.contains("index out of bounds"),
        "unexpected panic message {msg}"
    );
    let Some((_, png)) = ran.frames.first() else {
        bail!("the panic screen was not announced");
    };
    let mut frame = Gray4Frame::new();
    let _ = arena_firmware::screen::draw_panic(msg, &mut frame);
    same_pixels(png, &frame, "panic screen")?;
    println!(
        "xtask test: panic shown on the OLED and in the log, exit status {}",
        ran.status
    );
    Ok(())
}

/// The RGB value QEMU's SSD0323 screendump gives gray level `level` (0..=15).
fn qemu_gray(level: u8) -> u8 {
    level * 17
}

/// Compares a 512x256 screendump with a frame scaled x4; the first differing pixel, if any.
fn compare(png: &image::RgbImage, frame: &Gray4Frame) -> Option<(u32, u32, [u8; 3], u8)> {
    if png.dimensions() != (512, 256) {
        return Some((png.width(), png.height(), [0; 3], 0));
    }
    for (x, y, p) in png.enumerate_pixels() {
        let level = frame.luma((x / 4) as usize, (y / 4) as usize);
        let want = qemu_gray(level);
        if p.0 != [want; 3] {
            return Some((x, y, p.0, level));
        }
    }
    None
}

/// A frame scaled x4 as QEMU shows it.
fn to_image(frame: &Gray4Frame) -> image::RgbImage {
    image::RgbImage::from_fn(512, 256, |x, y| {
        image::Rgb([qemu_gray(frame.luma((x / 4) as usize, (y / 4) as usize)); 3])
    })
}
