//! The boards' screens on the desktop: a canvas any screen draws on, its pixels as the emulator shows
//! them, and the same picture in a terminal.
//!
//! The canvas is the host's display: the firmware's screens draw on it exactly as on a board, so a
//! picture made here is what a board shows. Colours become RGB as QEMU's screendump of the OLED
//! makes them (4-bit gray `g` is `g * 17`), so a rendered frame can be compared with a screenshot.
//! The terminal view packs two pixel rows into one character row (the upper half block, foreground
//! for the top pixel, background for the bottom one) in ANSI 256-colour grays.

use arena_firmware::screen::{draw_game, draw_result, MatchLabel, Screen};
use embedded_graphics::pixelcolor::Gray4;
use std::io::Write;
use std::time::{Duration, Instant};

pub use arena_viewer::display::{Canvas, Display, Picture, ToRgb};

/// A drawn screen as an image, every pixel a `scale` x `scale` square (`scale` 0 counts as 1).
pub fn image_of(picture: &Picture, scale: u32) -> image::RgbImage {
    let s = scale.max(1);
    image::RgbImage::from_fn(picture.width * s, picture.height * s, |x, y| {
        image::Rgb(picture.at(x / s, y / s).unwrap_or([0; 3]))
    })
}

/// The scale that makes a picture of `display` visible on a desktop screen.
pub fn default_scale(display: Display) -> u32 {
    match display {
        Display::Oled128x64 | Display::Gray128x64 => 4,
        _ => 1,
    }
}

/// What the header and the result screen print (the screens want `'static` strings: names read from
/// a file or the command line are interned, each distinct name kept once for the life of the
/// process, so a long tournament or a fuzzer does not grow with the number of matches).
#[derive(Clone, Debug)]
pub struct Label {
    /// The match's number in a lineup (0 outside one).
    pub number: u32,
    /// The game's name.
    pub game: &'static str,
    /// The configuration as labels show it (`duel`, a map's name), interned.
    pub config: &'static str,
    /// The match's seed.
    pub seed: u64,
    /// The bots' names, by seat, interned.
    pub bots: Vec<&'static str>,
}

impl Label {
    /// The label of a match of `game` configured `config`, seeded `seed`, `bots` by seat; number 0.
    pub fn new(game: &'static str, config: &str, seed: u64, bots: &[String]) -> Label {
        Label {
            number: 0,
            game,
            config: intern(config),
            seed,
            bots: bots.iter().map(|b| intern(b)).collect(),
        }
    }

    /// The label as the firmware's screens take it.
    pub fn get(&self) -> MatchLabel<'_> {
        MatchLabel {
            number: self.number,
            game: self.game,
            config: self.config,
            seed: self.seed,
            bots: &self.bots,
        }
    }
}

/// Every name a [`Label`] has held, each stored once. Found by the `render_replay` fuzz target:
/// the labels used to leak their names anew for every replay drawn.
static NAMES: std::sync::Mutex<std::collections::BTreeSet<&'static str>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// `name` as a `'static` string, allocated the first time it is seen only.
fn intern(name: &str) -> &'static str {
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&kept) = names.get(name) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(kept);
    kept
}

/// The ANSI 256-colour index nearest to gray `v`: black (16), the 24-step gray ramp (232..=255,
/// `8 + 10 i`) or white (231).
pub fn ansi_gray(v: u8) -> u8 {
    let mut best = (v.abs_diff(0), 16u8);
    let white = (v.abs_diff(255), 231u8);
    if white.0 < best.0 {
        best = white;
    }
    for i in 0..24u8 {
        let d = v.abs_diff(8 + 10 * i);
        if d < best.0 {
            best = (d, 232 + i);
        }
    }
    best.1
}

fn gray_of(rgb: [u8; 3]) -> u8 {
    let [r, g, b] = rgb.map(u32::from);
    ((r * 299 + g * 587 + b * 114) / 1000) as u8
}

/// The canvas as terminal text: one character row per two pixel rows, each character the upper
/// half block with the top pixel as foreground and the bottom one as background (ANSI 256-colour
/// grays); colours are only sent when they change, and every row ends with a reset.
pub fn half_blocks<C: ToRgb>(canvas: &Canvas<C>) -> String {
    half_blocks_within(canvas, canvas.width())
}

/// [`half_blocks`] at most `columns` wide: a wider canvas is shrunk to `columns` pixels across and
/// as many fewer down (square pixels, as half blocks make them), each the average gray of the
/// pixels it covers, because a line longer than the terminal wraps and the next frame, drawn over
/// this one, smears.
pub fn half_blocks_within<C: ToRgb>(canvas: &Canvas<C>, columns: u32) -> String {
    let (w, h) = (canvas.width(), canvas.height());
    let out_w = w.min(columns.max(1));
    let out_h = if out_w == w {
        h
    } else {
        (h * out_w).div_ceil(w.max(1))
    };
    // Source pixels `[i * n / m, (i + 1) * n / m)`, at least one.
    let span = |i: u32, n: u32, m: u32| {
        let start = i * n / m.max(1);
        start..((i + 1) * n / m.max(1)).max(start + 1)
    };
    let gray = |x: u32, y: u32| {
        let (xs, ys) = (span(x, w, out_w), span(y, h, out_h));
        let (mut sum, mut count) = (0u32, 0u32);
        for sy in ys {
            for sx in xs.clone() {
                let c = canvas.pixel(sx, sy).unwrap_or_else(C::background);
                sum += u32::from(gray_of(c.to_rgb()));
                count += 1;
            }
        }
        ansi_gray((sum / count.max(1)) as u8)
    };
    let mut out = String::new();
    for row in 0..out_h.div_ceil(2) {
        let (mut fg, mut bg) = (None, None);
        for x in 0..out_w {
            let top = gray(x, 2 * row);
            let bottom = if 2 * row + 1 < out_h {
                gray(x, 2 * row + 1)
            } else {
                ansi_gray(gray_of(C::background().to_rgb()))
            };
            if fg != Some(top) {
                out.push_str(&format!("\x1b[38;5;{top}m"));
                fg = Some(top);
            }
            if bg != Some(bottom) {
                out.push_str(&format!("\x1b[48;5;{bottom}m"));
                bg = Some(bottom);
            }
            out.push('\u{2580}');
        }
        out.push_str("\x1b[0m\n");
    }
    out
}

/// The width the terminal view may take: `$COLUMNS` when it is a positive number (what a shell
/// sets, and what a test or a script can set), else the width of the terminal `stderr` or stdout
/// is, else 80 (not a terminal: a pipe or a file, read later in an unknown terminal).
pub fn terminal_columns(stderr: bool) -> u32 {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u32>().ok())
        .filter(|&n| n > 0)
    {
        return n;
    }
    let term = if stderr {
        console::Term::stderr()
    } else {
        console::Term::stdout()
    };
    term.size_checked()
        .map_or(DEFAULT_COLUMNS, |(_, cols)| u32::from(cols).max(1))
}

/// The terminal width assumed when there is no terminal to ask.
pub const DEFAULT_COLUMNS: u32 = 80;

/// Shows a match live in a terminal: the 16-gray 128x64 screen after every `every` steps, at most
/// `fps` frames a second (the match waits for the frame: that is what makes it watchable), each
/// frame drawn over the last, at most `columns` wide.
pub struct Watcher<G> {
    label: Label,
    every: u64,
    columns: u32,
    gap: Duration,
    last: Option<Instant>,
    steps: u64,
    rows: u32,
    out: Box<dyn Write>,
    _game: std::marker::PhantomData<fn(&G)>,
}

impl<G: Screen> Watcher<G> {
    /// A watcher that writes to `out` every `every` steps, at most `fps` frames a second, at most
    /// `columns` wide.
    pub fn new(label: Label, fps: u32, every: u32, columns: u32, out: Box<dyn Write>) -> Self {
        Watcher {
            label,
            every: u64::from(every.max(1)),
            columns,
            gap: Duration::from_secs(1) / fps.max(1),
            last: None,
            steps: 0,
            rows: 0,
            out,
            _game: std::marker::PhantomData,
        }
    }

    fn show(&mut self, text: &str) {
        if let Some(last) = self.last {
            let next = last + self.gap;
            let now = Instant::now();
            if next > now {
                std::thread::sleep(next - now);
            }
        }
        self.last = Some(Instant::now());
        let mut frame = String::new();
        if self.rows > 0 {
            frame.push_str(&format!("\x1b[{}A\r", self.rows));
        }
        frame.push_str(text);
        self.rows = text.matches('\n').count() as u32;
        // A closed terminal must not stop the match: what cannot be shown is dropped.
        let _ = self
            .out
            .write_all(frame.as_bytes())
            .and_then(|_| self.out.flush());
    }

    fn draw_game(&mut self, g: &G) {
        let mut canvas = Canvas::<Gray4>::new(128, 64);
        let Ok(()) = draw_game(g, &self.label.get(), &mut canvas);
        self.show(&half_blocks_within(&canvas, self.columns));
    }
}

impl<G: Screen> crate::record::Watch<G> for Watcher<G> {
    fn start(&mut self, game: &G) {
        self.draw_game(game);
    }

    fn step(&mut self, game: &G) {
        self.steps += 1;
        if self.steps.is_multiple_of(self.every) || game.is_over() {
            self.draw_game(game);
        }
    }

    fn end(&mut self, game: &G) {
        if !self.steps.is_multiple_of(self.every) && !game.is_over() {
            self.draw_game(game);
        }
        let mut canvas = Canvas::<Gray4>::new(128, 64);
        let Ok(()) = draw_result(&self.label.get(), game, game.turn(), &mut canvas);
        self.show(&half_blocks_within(&canvas, self.columns));
    }
}
