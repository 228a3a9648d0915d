//! `arena render`: a replay as pictures, through the boards' own screens.
//!
//! The file is re-played (and so checked) by its game's reader; every `every`-th state is drawn on
//! a canvas of the chosen display, as a board would draw it, then scaled up so a 128x64 screen can
//! be seen on a desktop. A GIF shows the match and ends on the result screen; a PNG shows one turn.
//! An HTML page ([`crate::viewer`]) holds the whole match and plays it in a browser.

use crate::host_game::HostGame;
use crate::render::{default_scale, image_of, Display, Label};
use crate::replay::{Meta, ReplayContext, Visit};
use anyhow::{bail, Context};
use clap::Args;
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, RgbImage};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// A GIF made with the default `--every` has at most this many frames of play.
pub const MAX_FRAMES: u64 = 300;

/// `arena render`'s arguments: the replay, the picture and how to draw it.
#[derive(Args, Clone, Debug)]
pub struct RenderArgs {
    /// The replay: a trace, an official log or an official replay of any game (the game is read
    /// from the file).
    #[arg(value_name = "REPLAY")]
    pub file: PathBuf,
    /// The map the match was played on, for games whose replays name one (default: the one the
    /// replay holds; a map that is not that one is refused, as `arena verify` refuses it).
    #[arg(long, value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// The ruleset the match was played under, for a game that has more than one (Ballroom Blitz:
    /// engine, as-written; `arena play`'s --ruleset, which the file does not say). Default: the
    /// game's first, as `arena verify` takes it.
    #[arg(long, value_name = "RULESET")]
    pub ruleset: Option<String>,
    /// Where the picture goes: `.gif` for the whole match, `.png` for one turn, `.html` for a
    /// viewer page that plays, pauses and steps through the match in a browser (one file, no
    /// network; `--display` is its default display, `--turn` the turn it opens at).
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
    /// The turn a PNG shows: the state after T turns (default: the last state); the turn a page
    /// opens at (default: the first).
    #[arg(long, value_name = "T")]
    pub turn: Option<u32>,
}

/// One picture to make: what was asked, and what the replay needs beside it.
pub struct Job<'a> {
    /// What `arena render` was asked.
    pub args: &'a RenderArgs,
    /// What the replay needs beside it: the map given with `--map`, read, and the ruleset.
    pub ctx: ReplayContext,
}

impl Job<'_> {
    fn open(&self) -> anyhow::Result<std::io::BufReader<crate::replay::LineCap<std::fs::File>>> {
        crate::replay::open(&self.args.file)
            .with_context(|| format!("cannot read {}", self.args.file.display()))
    }
}

/// What a picture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    Gif,
    Png,
    Html,
}

fn output(path: &Path) -> anyhow::Result<Output> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("gif") => Ok(Output::Gif),
        Some("png") => Ok(Output::Png),
        Some("html" | "htm") => Ok(Output::Html),
        _ => bail!(
            "--out {}: the picture must be a .gif (the match), a .png (one turn) or an .html (the viewer)",
            path.display()
        ),
    }
}

/// Draws a replay of `G` as the job asks; returns a one-line summary.
pub fn render<G: HostGame + arena_viewer::Viewed>(job: &Job<'_>) -> anyhow::Result<String> {
    let args = job.args;
    let kind = output(&args.out)?;
    let scale = args.scale.unwrap_or(default_scale(args.display)).max(1);
    match kind {
        Output::Html => {
            let page =
                crate::viewer::page::<G>(&mut job.open()?, &job.ctx, args.display, args.turn)?;
            std::fs::write(&args.out, &page.html)
                .with_context(|| format!("cannot write {}", args.out.display()))?;
            Ok(format!(
                "{}: a viewer of {} states, {} KB",
                args.out.display(),
                page.states,
                page.html.len().div_ceil(1024)
            ))
        }
        Output::Png => {
            let (image, turn) =
                frame_at::<G>(&mut job.open()?, &job.ctx, args.display, scale, args.turn)?;
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
            let every = match args.every {
                Some(n) => u64::from(n.max(1)),
                None => G::states(&mut job.open()?).div_ceil(MAX_FRAMES).max(1),
            };
            let frames = gif::<G>(job, every, scale)?;
            Ok(format!("{}: {frames} frames", args.out.display()))
        }
    }
}

fn label_of<G: HostGame>(meta: &Meta) -> Label {
    Label::new(G::NAME, &meta.config, meta.seed, &meta.bots)
}

/// Keeps the state after `turn` turns (or the last one).
struct Pick<G> {
    turn: Option<u32>,
    meta: Meta,
    found: Option<G>,
}

impl<G: HostGame> Visit<G> for Pick<G> {
    fn meta(&mut self, meta: &Meta) {
        self.meta = meta.clone();
    }
    fn state(&mut self, g: &G) {
        match self.turn {
            Some(t) if self.found.is_none() && g.turn() == t => self.found = Some(g.clone()),
            None => self.found = Some(g.clone()),
            _ => {}
        }
    }
}

/// The picture of the state after `turn` turns (the last state for `None`), and that turn.
pub fn frame_at<G: HostGame>(
    input: &mut dyn BufRead,
    ctx: &ReplayContext,
    display: Display,
    scale: u32,
    turn: Option<u32>,
) -> anyhow::Result<(RgbImage, u32)> {
    let mut pick = Pick::<G> {
        turn,
        meta: Meta::default(),
        found: None,
    };
    G::replay(input, ctx, &mut pick).map_err(|d| anyhow::anyhow!("{d}"))?;
    let label = label_of::<G>(&pick.meta);
    let Some(state) = pick.found else {
        match turn {
            Some(t) => bail!("the replay never reaches turn {t}"),
            None => bail!("the replay holds no state"),
        }
    };
    Ok((
        image_of(&display.game(&state, &label.get()), scale),
        state.turn(),
    ))
}

fn gif_frame(image: RgbImage, ms: u32) -> Frame {
    let rgba = image::DynamicImage::ImageRgb8(image).into_rgba8();
    Frame::from_parts(rgba, 0, 0, Delay::from_numer_denom_ms(ms, 1))
}

/// Draws every `every`-th state into the GIF, and keeps the last one.
struct Frames<'a, G, W: std::io::Write> {
    encoder: GifEncoder<W>,
    args: &'a RenderArgs,
    scale: u32,
    every: u64,
    label: Label,
    index: u64,
    frames: u64,
    last: Option<(G, bool)>,
    error: Option<image::ImageError>,
}

impl<G: HostGame, W: std::io::Write> Visit<G> for Frames<'_, G, W> {
    fn meta(&mut self, meta: &Meta) {
        self.label = label_of::<G>(meta);
    }
    fn state(&mut self, g: &G) {
        let drawn = self.index.is_multiple_of(self.every);
        if drawn && self.error.is_none() {
            let image = image_of(&self.args.display.game(g, &self.label.get()), self.scale);
            match self.encoder.encode_frame(gif_frame(image, self.args.delay)) {
                Ok(()) => self.frames += 1,
                Err(e) => self.error = Some(e),
            }
        }
        self.last = Some((g.clone(), drawn));
        self.index += 1;
    }
}

/// Writes the GIF: every `every`-th state, the last one, then the result screen. Returns the number
/// of frames.
fn gif<G: HostGame>(job: &Job<'_>, every: u64, scale: u32) -> anyhow::Result<u64> {
    let args = job.args;
    let file = std::fs::File::create(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let mut encoder = GifEncoder::new_with_speed(std::io::BufWriter::new(file), 10);
    encoder.set_repeat(Repeat::Infinite)?;
    let mut frames = Frames::<G, _> {
        encoder,
        args,
        scale,
        every,
        label: label_of::<G>(&Meta::default()),
        index: 0,
        frames: 0,
        last: None,
        error: None,
    };
    G::replay(&mut job.open()?, &job.ctx, &mut frames).map_err(|d| anyhow::anyhow!("{d}"))?;
    if let Some(e) = frames.error {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    let Some((end, drawn)) = frames.last.take() else {
        bail!("the replay holds no state");
    };
    let hold = args.delay.saturating_mul(10).max(1000);
    if !drawn {
        let image = image_of(&args.display.game(&end, &frames.label.get()), scale);
        frames.encoder.encode_frame(gif_frame(image, hold))?;
        frames.frames += 1;
    }
    let result = image_of(&args.display.result(&end, &frames.label.get()), scale);
    frames
        .encoder
        .encode_frame(gif_frame(result, hold.saturating_mul(3)))?;
    Ok(frames.frames + 1)
}
