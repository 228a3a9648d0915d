//! `cargo xtask demo`: a rotation of matches in QEMU, watched live through the defmt log, kept as PNG
//! frames and an animated GIF of the emulated OLED.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame};

use crate::{log, root};

pub fn run(matches: u32, snap: u32, verbose: bool) -> Result<()> {
    println!(
        "xtask demo: first `cargo xtask setup`'s part for the QEMU board (the thumb targets, \
         llvm-tools, QEMU, defmt-print: what is missing)"
    );
    crate::setup::needs(
        &crate::boards::Board::needs(&super::Qemu),
        crate::setup::Mode::Install,
    )?;
    let release = super::build()?;
    let elf = release.join("arena");
    let dir = crate::tools::fresh_dir(&root().join("target/demo"))?;
    let args = vec![
        format!("matches={matches}"),
        format!("snap={}", snap.max(1)),
        "digest=10".to_owned(),
        "hold=ack".to_owned(),
    ];
    let whole = if matches == crate::host::rotation() {
        " (the whole rotation: every entry of `cargo xtask lineup` once)"
    } else {
        ""
    };
    println!(
        "xtask: QEMU lm3s6965evb, {matches} matches{whole}, a frame every {} turns",
        snap.max(1)
    );
    let summary = Summary::default();
    let tap = |line: &str| {
        if let Some(text) = summary.line(line, matches) {
            println!("{text}");
        }
    };
    let ran = super::Run {
        snapshots: Some(&dir),
        echo: verbose,
        tap: if verbose { None } else { Some(&tap) },
        ..super::Run::new(&elf, args, 1800)
    }
    .go()?;
    let log_file = dir.join("log.txt");
    std::fs::write(&log_file, ran.lines.join("\n") + "\n")?;
    anyhow::ensure!(
        ran.status == 0,
        "the firmware exited with status {} (its log: {})",
        ran.status,
        log_file.display()
    );
    let gif = dir.join("demo.gif");
    write_gif(&ran.frames, &gif)?;
    for (_, png) in &ran.frames {
        let _ = std::fs::remove_file(png.with_file_name(ack_name(png)));
    }
    println!(
        "xtask: {} frames in {}/frame-*.png, animation in {}, the whole decoded log in {} (--verbose prints it live)",
        ran.frames.len(),
        dir.display(),
        gif.display(),
        log_file.display()
    );
    Ok(())
}

/// One readable line per match from the decoded log: the `start`, `result` and `cost` lines of
/// each match.
#[derive(Default)]
struct Summary {
    start: std::cell::RefCell<String>,
    result: std::cell::RefCell<String>,
}

impl Summary {
    fn line(&self, line: &str, matches: u32) -> Option<String> {
        let msg = log::message(line);
        match log::kind(line) {
            "start" => *self.start.borrow_mut() = msg.to_owned(),
            "result" => *self.result.borrow_mut() = msg.to_owned(),
            "cost" => {
                return Some(describe(
                    &self.start.borrow(),
                    &self.result.borrow(),
                    msg,
                    matches,
                ))
            }
            _ if line.starts_with("ERROR") || line.starts_with("WARN") => {
                return Some(line.to_owned())
            }
            _ => {}
        }
        None
    }
}

fn describe(start: &str, result: &str, cost: &str, matches: u32) -> String {
    let number: u32 = log::field(start, "m").parse().unwrap_or(0);
    let bots = log::bots_of(start);
    let outcome = if result.contains("stopped") || result.is_empty() {
        "stopped at the turn limit".to_owned()
    } else {
        format!(
            "ranks {} scores {} ({})",
            log::field(result, "ranks"),
            log::field(result, "scores"),
            log::field(result, "reason")
        )
    };
    format!(
        "match {}/{matches}: {} {}, {bots}: {outcome}, {} turns, the rules' median {} SysTick ticks a turn",
        number + 1,
        log::field(start, "game"),
        log::field(start, "config"),
        log::field(cost, "turns"),
        log::field(cost, "median"),
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_is_one_readable_line() {
        let s = Summary::default();
        let m = |l: &str| s.line(l, 8);
        assert_eq!(
            m("INFO  start m=0 game=g config=duel seed=7 state=900 bots=[\"strong\", \"random\"]"),
            None
        );
        assert_eq!(m("INFO  digest m=0 t=10 d=5"), None);
        assert_eq!(m("INFO  result m=0 turns=757 ranks=[0, 1] scores=[93, 0] reason=life reached 0 refused=0"), None);
        assert_eq!(
            m("INFO  cost m=0 game=g turns=757 min=1 median=3294 max=9 total=5 bots_min=1 bots_median=2 bots_max=3").as_deref(),
            Some("match 1/8: g duel, strong vs random: ranks [0, 1] scores [93, 0] (life reached 0), 757 turns, the rules' median 3294 SysTick ticks a turn")
        );
        assert_eq!(m("ERROR panic: x").as_deref(), Some("ERROR panic: x"));
    }
}
