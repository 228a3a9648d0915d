//! `arena render`: a replay as pictures, through the boards' own screens.
//!
//! The file is re-played (and so checked) by its game's codec; every `every`-th state is drawn on a
//! canvas of the chosen display, as a board would draw it, then scaled up so a 128x64 screen can be
//! seen on a desktop. A GIF shows the match and ends on the result screen; a PNG shows one turn.

use crate::render::{Display, Label};
use crate::replay::{detect, Kind, Replayable};
use anyhow::{bail, Context};
use arena_core::games::ants::Ants;
use arena_core::games::ballroom::Ballroom;
use arena_core::games::colorfight::ColorFight;
use arena_core::games::mammut::Mammut;
use arena_core::games::tower_defense::TowerDefense;
use arena_firmware::Screen;
use clap::Args;
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbImage};
use std::path::{Path, PathBuf};

/// A GIF made with the default `--every` has at most this many frames of play.
pub const MAX_FRAMES: u64 = 300;

#[derive(Args, Clone, Debug)]
pub struct RenderArgs {
    /// The replay: a Tower Defense, ColorFight or Mammut trace, a Ballroom Blitz log or an Ants
    /// replay (the game is read from the file).
    #[arg(value_name = "REPLAY")]
    pub file: PathBuf,
    /// The map an Ants replay was played on (Ants replays are re-played on it, as by `arena verify
    /// ants`).
    #[arg(long, value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// Where the picture goes: `.gif` for the whole match, `.png` for one turn.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The display to draw for.
    #[arg(long, value_enum, default_value = "gray128x64")]
    pub display: Display,
    /// Every display pixel becomes N x N picture pixels (default: 4 on the 128x64 displays, else 1).
    #[arg(long, value_name = "N")]
    pub scale: Option<u32>,
    /// A GIF frame every N steps (default: enough to keep the GIF within 300 frames of play).
    #[arg(long, value_name = "N")]
    pub every: Option<u32>,
    /// Time per GIF frame, in milliseconds (the last state and the result stay longer).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub delay: u32,
    /// The turn a PNG shows: the state after T turns (default: the last state).
    #[arg(long, value_name = "T")]
    pub turn: Option<u32>,
}

/// What a picture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Gif,
    Png,
}

fn output(path: &Path) -> anyhow::Result<Output> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("gif") => Ok(Output::Gif),
        Some("png") => Ok(Output::Png),
        _ => bail!(
            "--out {}: the picture must be a .gif (the match) or a .png (one turn)",
            path.display()
        ),
    }
}

/// The map beside an Ants replay (`--map`), if given.
fn read_map(args: &RenderArgs) -> anyhow::Result<Option<String>> {
    args.map
        .as_ref()
        .map(|m| std::fs::read_to_string(m).with_context(|| format!("cannot read {}", m.display())))
        .transpose()
}

/// `arena render`: prints what was written.
pub fn render(args: &RenderArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let kind = detect(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let summary = match kind {
        Kind::TowerDefense => render_game::<TowerDefense>(&text, args),
        Kind::ColorFight => render_game::<ColorFight>(&text, args),
        Kind::Mammut => render_game::<Mammut>(&text, args),
        Kind::Ballroom => render_game::<Ballroom>(&text, args),
        Kind::Ants => render_game::<Ants>(&text, args),
    }
    .map_err(|e| anyhow::anyhow!("{}: {e:#}", args.file.display()))?;
    println!("{}", summary);
    Ok(())
}

/// Draws a replay of `G` as `args` asks; returns a one-line summary.
pub fn render_game<G: Replayable + Screen>(
    text: &str,
    args: &RenderArgs,
) -> anyhow::Result<String> {
    let kind = output(&args.out)?;
    let scale = args.scale.unwrap_or(args.display.default_scale()).max(1);
    match kind {
        Output::Png => {
            let map = read_map(args)?;
            let (image, turn) =
                frame_at::<G>(text, map.as_deref(), args.display, scale, args.turn)?;
            image
                .save(&args.out)
                .with_context(|| format!("cannot write {}", args.out.display()))?;
            Ok(format!(
                "{}: turn {turn}, {}x{}",
                args.out.display(),
                image.width(),
                image.height()
            ))
        }
        Output::Gif => {
            if args.turn.is_some() {
                bail!("--turn picks one frame: give a .png to --out");
            }
            let frames = gif::<G>(text, args, scale)?;
            Ok(format!("{}: {frames} frames", args.out.display()))
        }
    }
}

/// The picture of the state after `turn` turns (the last state for `None`), and that turn.
pub fn frame_at<G: Replayable + Screen>(
    text: &str,
    map: Option<&str>,
    display: Display,
    scale: u32,
    turn: Option<u32>,
) -> anyhow::Result<(RgbImage, u32)> {
    let mut found: Option<G> = None;
    let mut last: Option<G> = None;
    G::replay_with_map(text, map, &mut |g: &G| {
        if found.is_none() && turn == Some(g.turn()) {
            found = Some(g.clone());
        }
        if turn.is_none() {
            last = Some(g.clone());
        }
    })
    .map_err(anyhow::Error::msg)?;
    let meta = G::meta(text);
    let label = Label::new(G::NAME, &meta.config, meta.seed, &meta.bots);
    let state = match (turn, found, last) {
        (None, _, Some(g)) | (Some(_), Some(g), _) => g,
        (Some(t), None, _) => bail!("the replay never reaches turn {t}"),
        (None, _, None) => bail!("the replay holds no state"),
    };
    Ok((display.game(&state, &label.get(), scale), state.turn()))
}

fn gif_frame(image: RgbImage, ms: u32) -> Frame {
    let rgba = image::DynamicImage::ImageRgb8(image).into_rgba8();
    Frame::from_parts(rgba, 0, 0, Delay::from_numer_denom_ms(ms, 1))
}

/// Writes the GIF: every `every`-th state, the last one, then the result screen. Returns the number
/// of frames.
fn gif<G: Replayable + Screen>(text: &str, args: &RenderArgs, scale: u32) -> anyhow::Result<u64> {
    let every = match args.every {
        Some(n) => u64::from(n.max(1)),
        None => G::states(text).div_ceil(MAX_FRAMES).max(1),
    };
    let meta = G::meta(text);
    let map = read_map(args)?;
    let label = Label::new(G::NAME, &meta.config, meta.seed, &meta.bots);
    let file = std::fs::File::create(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let mut encoder = GifEncoder::new_with_speed(std::io::BufWriter::new(file), 10);
    encoder.set_repeat(Repeat::Infinite)?;
    let mut index = 0u64;
    let mut frames = 0u64;
    let mut last: Option<(G, bool)> = None;
    let mut error: Option<image::ImageError> = None;
    G::replay_with_map(text, map.as_deref(), &mut |g: &G| {
        let drawn = index.is_multiple_of(every);
        if drawn && error.is_none() {
            let image = args.display.game(g, &label.get(), scale);
            match encoder.encode_frame(gif_frame(image, args.delay)) {
                Ok(()) => frames += 1,
                Err(e) => error = Some(e),
            }
        }
        last = Some((g.clone(), drawn));
        index += 1;
    })
    .map_err(anyhow::Error::msg)?;
    if let Some(e) = error {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    let Some((end, drawn)) = last else {
        bail!("the replay holds no state");
    };
    let hold = args.delay.saturating_mul(10).max(1000);
    if !drawn {
        let image = args.display.game(&end, &label.get(), scale);
        encoder.encode_frame(gif_frame(image, hold))?;
        frames += 1;
    }
    let result = args.display.result(&end, &label.get(), scale);
    encoder.encode_frame(gif_frame(result, hold.saturating_mul(3)))?;
    frames += 1;
    Ok(frames)
}
