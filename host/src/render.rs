//! The boards' screens on the desktop: a canvas any screen draws on, its pixels as the emulator shows
//! them, and the same picture in a terminal.
//!
//! The canvas is the host's display: the firmware's screens draw on it exactly as on a board, so a
//! picture made here is what a board shows. Colours become RGB as QEMU's screendump of the OLED
//! makes them (4-bit gray `g` is `g * 17`), so a rendered frame can be compared with a screenshot.
//! The terminal view packs two pixel rows into one character row (the upper half block, foreground
//! for the top pixel, background for the bottom one) in ANSI 256-colour grays.

use arena_firmware::palette::Palette;
use arena_firmware::screen::{draw_game, draw_result, MatchLabel, Screen};
use embedded_graphics::pixelcolor::{BinaryColor, Gray4, GrayColor, Rgb565, Rgb888, RgbColor};
use embedded_graphics::prelude::{DrawTarget, OriginDimensions, Pixel, Size};
use std::io::Write;
use std::time::{Duration, Instant};

/// A colour as the desktop shows it.
pub trait ToRgb: Palette {
    fn to_rgb(self) -> [u8; 3];
}

impl ToRgb for BinaryColor {
    fn to_rgb(self) -> [u8; 3] {
        match self {
            BinaryColor::Off => [0; 3],
            BinaryColor::On => [255; 3],
        }
    }
}

impl ToRgb for Gray4 {
    fn to_rgb(self) -> [u8; 3] {
        let v = (self.luma() & 0x0f) * 17;
        [v; 3]
    }
}

impl ToRgb for Rgb565 {
    fn to_rgb(self) -> [u8; 3] {
        let c = Rgb888::from(self);
        [c.r(), c.g(), c.b()]
    }
}

/// A framebuffer of any colour, any size: the host's display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas<C> {
    width: u32,
    height: u32,
    pixels: Vec<C>,
}

impl<C: ToRgb> Canvas<C> {
    pub fn new(width: u32, height: u32) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![C::background(); width as usize * height as usize],
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The colour at `(x, y)`; `None` outside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<C> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.pixels
            .get(y as usize * self.width as usize + x as usize)
            .copied()
    }

    /// The picture in RGB, every pixel a `scale` x `scale` square (`scale` 0 counts as 1).
    pub fn to_image(&self, scale: u32) -> image::RgbImage {
        let s = scale.max(1);
        image::RgbImage::from_fn(self.width * s, self.height * s, |x, y| {
            image::Rgb(
                self.pixel(x / s, y / s)
                    .unwrap_or_else(C::background)
                    .to_rgb(),
            )
        })
    }
}

impl<C: ToRgb> OriginDimensions for Canvas<C> {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl<C: ToRgb> DrawTarget for Canvas<C> {
    type Color = C;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<C>>,
    {
        for Pixel(p, c) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height {
                let i = p.y as usize * self.width as usize + p.x as usize;
                if let Some(px) = self.pixels.get_mut(i) {
                    *px = c;
                }
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: C) -> Result<(), Self::Error> {
        self.pixels.fill(color);
        Ok(())
    }
}

/// The displays a picture can be made for: the boards' and a large one for the desktop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Display {
    /// 128x64 1-bit OLED (SSD1306 boards).
    Oled128x64,
    /// 128x64 16-gray OLED (SSD0323, the QEMU lm3s6965 board).
    Gray128x64,
    /// 240x240 RGB565 LCD.
    Rgb240x240,
    /// 480x480 RGB565, for a desktop window or a web page.
    Desktop,
}

/// Draws with `$draw` (a closure of `&mut Canvas<_>`) on a fresh canvas of the display's size and
/// colour, and returns the picture: one closure per colour, as a closure cannot be generic.
macro_rules! on_canvas {
    ($display:expr, $scale:expr, $draw:expr) => {{
        let (w, h) = $display.size();
        match $display {
            Display::Oled128x64 => paint::<BinaryColor>(w, h, $scale, $draw),
            Display::Gray128x64 => paint::<Gray4>(w, h, $scale, $draw),
            Display::Rgb240x240 | Display::Desktop => paint::<Rgb565>(w, h, $scale, $draw),
        }
    }};
}

impl Display {
    pub fn size(self) -> (u32, u32) {
        match self {
            Display::Oled128x64 | Display::Gray128x64 => (128, 64),
            Display::Rgb240x240 => (240, 240),
            Display::Desktop => (480, 480),
        }
    }

    /// The scale that makes a picture of this display visible on a desktop screen.
    pub fn default_scale(self) -> u32 {
        match self {
            Display::Oled128x64 | Display::Gray128x64 => 4,
            _ => 1,
        }
    }

    /// `state`'s screen on this display, in RGB (every pixel `scale` x `scale`).
    pub fn game<G: Screen>(self, state: &G, label: &MatchLabel<'_>, scale: u32) -> image::RgbImage {
        on_canvas!(self, scale, |c| draw_game(state, label, c))
    }

    /// The result screen after `end`, on this display, in RGB.
    pub fn result<G: Screen>(self, end: &G, label: &MatchLabel<'_>, scale: u32) -> image::RgbImage {
        on_canvas!(self, scale, |c| draw_result(label, end, end.turn(), c))
    }
}

fn paint<C: ToRgb>(
    w: u32,
    h: u32,
    scale: u32,
    draw: impl FnOnce(&mut Canvas<C>) -> Result<(), core::convert::Infallible>,
) -> image::RgbImage {
    let mut canvas = Canvas::new(w, h);
    let Ok(()) = draw(&mut canvas);
    canvas.to_image(scale)
}

/// What the header and the result screen print (the screens want `'static` strings: names read from
/// a file or the command line are interned, each distinct name kept once for the life of the
/// process, so a long tournament or a fuzzer does not grow with the number of matches).
#[derive(Clone, Debug)]
pub struct Label {
    pub number: u32,
    pub game: &'static str,
    pub config: &'static str,
    pub seed: u64,
    pub bots: Vec<&'static str>,
}

impl Label {
    pub fn new(game: &'static str, config: &str, seed: u64, bots: &[String]) -> Label {
        Label {
            number: 0,
            game,
            config: intern(config),
            seed,
            bots: bots.iter().map(|b| intern(b)).collect(),
        }
    }

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
