//! A display that sends only what changed.
//!
//! The screens draw every frame whole (they clear to the background, then draw): on a panel drawn
//! directly that clear is a blink, and every pixel crosses the bus every frame. A [`DiffFrame`] takes
//! the frame in memory instead, four bits a pixel (an index into the few colours the
//! [`Palette`](crate::palette::Palette) roles give, at most [`COLORS`]), beside what the panel shows
//! now; [`DiffFrame::flush`] then hands the board only the rectangles whose pixels differ, each pixel
//! once and in its final colour. No pixel ever shows an intermediate colour, and a turn that moves
//! one piece sends two cells and the turn counter.
//!
//! Why whole frames at four bits (two of them: the one drawn, the one shown), rather than memory per
//! cell or per text field, or a band re-rendered and compared: the screens stay as they are (every
//! display, the host's renderings included, draws the same pixels through the same code), the
//! frame is drawn once (a band buffer draws the whole screen once per band), and the comparison is
//! exact (a band compared against hashes of the last frame is not). Its cost is RAM: a 240x240 frame
//! is 28,800 bytes, the pair 57,600, which the STM32F411's 128 KB holds beside its largest match
//! (Ants on tutorial1: 47.8 KB of stack, its budget 49.8 KB; 1.6 KB of other statics).
//!
//! A 1-bit display needs less: a [`PageFrame`] keeps the frame in the SSD1306's own layout (pages
//! of 8 rows, a byte a column), 1 KB for 128x64, and its copy of what the panel shows, and sends
//! each page's run from its first to its last changed column. The QEMU board's 16-gray SSD0323
//! draws into a [`Gray4Frame`](crate::Gray4Frame), already the controller's layout; a
//! [`Gray4Shown`] beside it (4 KB) sends the windows of bytes and rows that changed.
//!
//! How the changes are cut into rectangles: the frame is compared in groups of [`GROUP`] pixels
//! (four bytes) a row, a band of [`BAND`] rows at a time; each run of changed groups in a band
//! becomes a rectangle as tall as the rows in the band where that run changed, and a rectangle
//! continues down into the next band when the run there has the same columns and starts on its
//! first row. The unchanged pixels inside a rectangle are sent again with the colour they already
//! show (never another one).

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

/// The most distinct colours a frame can hold (four bits a pixel).
pub const COLORS: usize = 16;
/// Pixels a column group: the unit of comparison across a row (four bytes).
pub const GROUP: usize = 8;
/// Rows a band: the unit of comparison down the frame.
pub const BAND: usize = 4;

/// The rectangles a band carries into the next (more are sent at once).
const RUNS: usize = 16;

/// A `W` x `H` frame of colour `C`, four bits a pixel, drawn in memory and sent as its changes.
/// `N` is `W * H / 2` (checked when it is built); `W` is a multiple of [`GROUP`], at most 256.
pub struct DiffFrame<C, const W: usize, const H: usize, const N: usize> {
    /// The frame being drawn.
    next: [u8; N],
    /// What the panel shows, as far as this frame knows (see `known`).
    shown: [u8; N],
    /// Whether `shown` is what the panel shows: not before the first flush (a panel holds noise
    /// at power-on) nor after [`DiffFrame::invalidate`].
    known: bool,
    /// The colours, by index.
    colors: heapless::Vec<C, COLORS>,
    /// The last colour looked up and its index (text and patterns draw runs of one colour).
    last: Option<(C, u8)>,
    /// Pixels drawn in a colour beyond the first [`COLORS`] (shown as colour 0 instead).
    overflow: u32,
}

/// What a [`DiffFrame::flush`] sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flushed {
    /// Rectangles sent.
    pub rects: u32,
    /// Pixels sent (each once).
    pub pixels: u32,
}

impl<C: PixelColor, const W: usize, const H: usize, const N: usize> Default
    for DiffFrame<C, W, H, N>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<C: PixelColor, const W: usize, const H: usize, const N: usize> DiffFrame<C, W, H, N> {
    const SHAPE: () = assert!(
        W.is_multiple_of(GROUP) && W / GROUP <= 64 && W > 0 && N == W * H / 2,
        "a DiffFrame is W x H with W a multiple of GROUP, at most 64 groups, and N = W * H / 2"
    );
    const ROW: usize = W / 2;

    /// An empty frame that knows nothing of the panel: the first flush sends every pixel.
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::SHAPE;
        DiffFrame {
            next: [0; N],
            shown: [0; N],
            known: false,
            colors: heapless::Vec::new(),
            last: None,
            overflow: 0,
        }
    }

    /// Forget what the panel shows (it was reset, or drawn by someone else): the next flush sends
    /// every pixel.
    pub fn invalidate(&mut self) {
        self.known = false;
    }

    /// Pixels drawn so far in a colour beyond the first [`COLORS`] (each shown as the first colour
    /// instead): 0 unless a screen uses more colours than the palette's roles.
    pub fn overflow(&self) -> u32 {
        self.overflow
    }

    /// The colour of pixel `(x, y)` of the frame being drawn; `None` outside it.
    pub fn pixel(&self, x: usize, y: usize) -> Option<C> {
        if x >= W || y >= H {
            return None;
        }
        let i = nibble(&self.next, y.saturating_mul(Self::ROW), x);
        self.colors.get(usize::from(i)).copied()
    }

    /// The index of `color`, added to the table if new.
    fn index(&mut self, color: C) -> u8 {
        if let Some((c, i)) = self.last {
            if c == color {
                return i;
            }
        }
        let i = match self.colors.iter().position(|&c| c == color) {
            Some(i) => i as u8,
            None => match self.colors.push(color) {
                Ok(()) => self.colors.len().saturating_sub(1) as u8,
                Err(_) => {
                    self.overflow = self.overflow.saturating_add(1);
                    0
                }
            },
        };
        self.last = Some((color, i));
        i
    }

    /// Fills columns `x0..x1` of row `y` with index `i` (clipped by the caller).
    fn fill_row(&mut self, y: usize, x0: usize, x1: usize, i: u8) {
        let row = y.saturating_mul(Self::ROW);
        let (mut x0, mut x1) = (x0, x1);
        if x0 % 2 == 1 && x0 < x1 {
            set_nibble(&mut self.next, row, x0, i);
            x0 = x0.saturating_add(1);
        }
        if x1 % 2 == 1 && x0 < x1 {
            x1 = x1.saturating_sub(1);
            set_nibble(&mut self.next, row, x1, i);
        }
        if x0 < x1 {
            let (a, b) = (row.saturating_add(x0 / 2), row.saturating_add(x1 / 2));
            if let Some(bytes) = self.next.get_mut(a..b) {
                bytes.fill(i.wrapping_mul(0x11));
            }
        }
    }

    /// Sends the rectangles where the frame drawn differs from what the panel shows (every pixel
    /// the first time), each with its pixels row by row in their final colours, to `send`; then
    /// the panel is taken to show this frame. Stops at `send`'s first error (the panel is then
    /// no longer known: the next flush sends everything).
    pub fn flush<E>(
        &mut self,
        mut send: impl FnMut(Rectangle, Pixels<'_, C>) -> Result<(), E>,
    ) -> Result<Flushed, E> {
        let mut out = Flushed::default();
        // Rectangles that may continue into the next band: (first group, last group, top, bottom).
        let mut open: heapless::Vec<(usize, usize, usize, usize), RUNS> = heapless::Vec::new();
        let mut band = 0;
        while band < H {
            let rows = BAND.min(H.saturating_sub(band));
            let mut masks = [0u64; BAND];
            for (r, mask) in masks.iter_mut().enumerate().take(rows) {
                *mask = self.changed_groups(band.saturating_add(r));
            }
            let all = masks.iter().fold(0, |a, m| a | m);
            let mut carried: heapless::Vec<(usize, usize, usize, usize), RUNS> =
                heapless::Vec::new();
            for (g0, g1) in Runs(all) {
                let bits = run_bits(g0, g1);
                let first = masks.iter().position(|m| m & bits != 0).unwrap_or(0);
                let last = masks.iter().rposition(|m| m & bits != 0).unwrap_or(first);
                let (top, bottom) = (band.saturating_add(first), band.saturating_add(last));
                let joined = open
                    .iter()
                    .position(|&(a, b, _, end)| a == g0 && b == g1 && end.saturating_add(1) == top);
                let rect = match joined {
                    Some(k) => {
                        let (_, _, t, _) = open.swap_remove(k);
                        (g0, g1, t, bottom)
                    }
                    None => (g0, g1, top, bottom),
                };
                if let Err(rect) = carried.push(rect) {
                    self.emit(rect, &mut send, &mut out)?;
                }
            }
            while let Some(rect) = open.pop() {
                self.emit(rect, &mut send, &mut out)?;
            }
            open = carried;
            band = band.saturating_add(BAND);
        }
        while let Some(rect) = open.pop() {
            self.emit(rect, &mut send, &mut out)?;
        }
        self.known = true;
        Ok(out)
    }

    /// The column groups of row `y` that differ from what the panel shows (all, unknown).
    fn changed_groups(&self, y: usize) -> u64 {
        let groups = W / GROUP;
        if !self.known {
            return run_bits(0, groups.saturating_sub(1));
        }
        let row = y.saturating_mul(Self::ROW);
        let end = row.saturating_add(Self::ROW);
        let (Some(next), Some(shown)) = (self.next.get(row..end), self.shown.get(row..end)) else {
            return 0;
        };
        let mut mask = 0u64;
        for (g, (a, b)) in next
            .chunks(GROUP / 2)
            .zip(shown.chunks(GROUP / 2))
            .enumerate()
        {
            if a != b {
                mask |= 1 << g;
            }
        }
        mask
    }

    /// The columns `lo..hi` of groups `g0..=g1` on rows `top..=bottom` that hold a change (all of
    /// them while the panel is unknown).
    fn columns(&self, g0: usize, g1: usize, top: usize, bottom: usize) -> (usize, usize) {
        let x0 = g0.saturating_mul(GROUP);
        let x1 = g1.saturating_add(1).saturating_mul(GROUP).min(W);
        if !self.known {
            return (x0, x1);
        }
        let (mut lo, mut hi) = (x1, x0);
        for y in top..=bottom {
            let row = y.saturating_mul(Self::ROW);
            let differs = |x: usize| nibble(&self.next, row, x) != nibble(&self.shown, row, x);
            if let Some(x) = (x0..lo).find(|&x| differs(x)) {
                lo = x;
            }
            if let Some(x) = (hi..x1).rev().find(|&x| differs(x)) {
                hi = x.saturating_add(1);
            }
        }
        if lo < hi {
            (lo, hi)
        } else {
            (x0, x1)
        }
    }

    /// Sends one rectangle (groups `g0..=g1`, rows `top..=bottom`, narrowed to the columns that
    /// changed) and takes the panel to show it.
    fn emit<E>(
        &mut self,
        (g0, g1, top, bottom): (usize, usize, usize, usize),
        send: &mut impl FnMut(Rectangle, Pixels<'_, C>) -> Result<(), E>,
        out: &mut Flushed,
    ) -> Result<(), E> {
        let (x0, x1) = self.columns(g0, g1, top, bottom);
        let (w, h) = (
            x1.saturating_sub(x0),
            bottom.saturating_add(1).saturating_sub(top),
        );
        let rect = Rectangle::new(
            Point::new(x0 as i32, top as i32),
            Size::new(w as u32, h as u32),
        );
        let pixels = Pixels {
            bytes: &self.next,
            colors: &self.colors,
            row: W / 2,
            x0,
            x1,
            x: x0,
            y: top,
            bottom,
        };
        if let Err(e) = send(rect, pixels) {
            self.known = false;
            return Err(e);
        }
        // The whole groups: outside `x0..x1` they held no change.
        let (b0, b1) = (
            g0.saturating_mul(GROUP / 2),
            g1.saturating_add(1)
                .saturating_mul(GROUP / 2)
                .min(Self::ROW),
        );
        for y in top..=bottom {
            let row = y.saturating_mul(Self::ROW);
            let (a, b) = (row.saturating_add(b0), row.saturating_add(b1));
            if let (Some(src), Some(dst)) = (self.next.get(a..b), self.shown.get_mut(a..b)) {
                dst.copy_from_slice(src);
            }
        }
        out.rects = out.rects.saturating_add(1);
        out.pixels = out.pixels.saturating_add(w.saturating_mul(h) as u32);
        Ok(())
    }
}

/// The pixels of one rectangle of a [`DiffFrame::flush`], row by row, in their final colours.
pub struct Pixels<'a, C> {
    bytes: &'a [u8],
    colors: &'a [C],
    row: usize,
    x0: usize,
    x1: usize,
    x: usize,
    y: usize,
    bottom: usize,
}

impl<C: PixelColor> Iterator for Pixels<'_, C> {
    type Item = C;

    fn next(&mut self) -> Option<C> {
        if self.y > self.bottom || self.x0 >= self.x1 {
            return None;
        }
        let i = nibble(self.bytes, self.y.saturating_mul(self.row), self.x);
        self.x = self.x.saturating_add(1);
        if self.x >= self.x1 {
            self.x = self.x0;
            self.y = self.y.saturating_add(1);
        }
        // Every index in the frame was handed out by the table (0 when it is empty: a frame
        // never drawn shows its first colour, or black).
        self.colors
            .get(usize::from(i))
            .or(self.colors.first())
            .copied()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = if self.y > self.bottom {
            0
        } else {
            let rows = self.bottom.saturating_sub(self.y);
            let w = self.x1.saturating_sub(self.x0);
            rows.saturating_mul(w)
                .saturating_add(self.x1.saturating_sub(self.x))
        };
        (left, Some(left))
    }
}

/// The nibble of pixel `x` in the row starting at byte `row`: the left pixel is the high one.
fn nibble(bytes: &[u8], row: usize, x: usize) -> u8 {
    let b = bytes.get(row.saturating_add(x / 2)).copied().unwrap_or(0);
    if x.is_multiple_of(2) {
        b >> 4
    } else {
        b & 0x0f
    }
}

fn set_nibble(bytes: &mut [u8], row: usize, x: usize, i: u8) {
    if let Some(b) = bytes.get_mut(row.saturating_add(x / 2)) {
        *b = if x.is_multiple_of(2) {
            (*b & 0x0f) | (i << 4)
        } else {
            (*b & 0xf0) | (i & 0x0f)
        };
    }
}

/// Bits `g0..=g1` set (`g1` < 64).
fn run_bits(g0: usize, g1: usize) -> u64 {
    let upto = if g1 >= 63 {
        u64::MAX
    } else {
        (1u64 << g1.saturating_add(1)).wrapping_sub(1)
    };
    let below = if g0 >= 64 {
        u64::MAX
    } else {
        (1u64 << g0).wrapping_sub(1)
    };
    upto & !below
}

/// The runs of set bits of a mask, lowest first, as (first bit, last bit).
struct Runs(u64);

impl Iterator for Runs {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        if self.0 == 0 {
            return None;
        }
        let g0 = self.0.trailing_zeros();
        let ones = (self.0 >> g0).trailing_ones();
        let g1 = g0.saturating_add(ones).saturating_sub(1);
        self.0 &= !run_bits(g0 as usize, g1 as usize);
        Some((g0 as usize, g1 as usize))
    }
}

impl<C: PixelColor, const W: usize, const H: usize, const N: usize> OriginDimensions
    for DiffFrame<C, W, H, N>
{
    fn size(&self) -> Size {
        Size::new(W as u32, H as u32)
    }
}

impl<C: PixelColor, const W: usize, const H: usize, const N: usize> DrawTarget
    for DiffFrame<C, W, H, N>
{
    type Color = C;
    type Error = core::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<C>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, c) in pixels {
            if let (Ok(x), Ok(y)) = (usize::try_from(p.x), usize::try_from(p.y)) {
                if x < W && y < H {
                    let i = self.index(c);
                    set_nibble(&mut self.next, y.saturating_mul(Self::ROW), x, i);
                }
            }
        }
        Ok(())
    }

    fn fill_solid(&mut self, area: &Rectangle, color: C) -> Result<(), Self::Error> {
        let area = area.intersection(&self.bounding_box());
        let Some(end) = area.bottom_right() else {
            return Ok(());
        };
        let i = self.index(color);
        let (x0, x1) = (area.top_left.x as usize, (end.x as usize).saturating_add(1));
        for y in area.top_left.y as usize..=end.y as usize {
            self.fill_row(y, x0, x1, i);
        }
        Ok(())
    }

    fn clear(&mut self, color: C) -> Result<(), Self::Error> {
        let i = self.index(color);
        self.next.fill(i.wrapping_mul(0x11));
        Ok(())
    }
}

/// A `W`-column 1-bit frame in the SSD1306's layout (pages of 8 rows, a byte a column, bit 0 the
/// top row; `N` is `W` x the pages), drawn in memory beside what the panel shows, and sent as the
/// changed columns of each page that changed ([`PageFrame::flush`]).
pub struct PageFrame<const W: usize, const N: usize> {
    next: [u8; N],
    shown: [u8; N],
    known: bool,
}

impl<const W: usize, const N: usize> Default for PageFrame<W, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize, const N: usize> PageFrame<W, N> {
    const SHAPE: () = assert!(
        W > 0 && W <= 256 && N.is_multiple_of(W) && N / W <= 256,
        "a PageFrame is W columns by N / W pages"
    );

    /// An empty frame that knows nothing of the panel: the first flush sends every page whole.
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::SHAPE;
        PageFrame {
            next: [0; N],
            shown: [0; N],
            known: false,
        }
    }

    /// Forget what the panel shows: the next flush sends every page whole.
    pub fn invalidate(&mut self) {
        self.known = false;
    }

    /// Whether pixel `(x, y)` of the frame being drawn is on; `None` outside it.
    pub fn pixel(&self, x: usize, y: usize) -> Option<bool> {
        if x >= W {
            return None;
        }
        let byte = self.next.get((y / 8).saturating_mul(W).saturating_add(x))?;
        Some(byte >> (y % 8) & 1 == 1)
    }

    /// For each page that differs from what the panel shows (every page the first time): `send`
    /// gets the page, its first changed column and the bytes from there to its last changed
    /// column; then the panel is taken to show this frame. The data bytes sent, or `send`'s first
    /// error (the panel is then no longer known: the next flush sends everything).
    pub fn flush<E>(
        &mut self,
        mut send: impl FnMut(u8, u8, &[u8]) -> Result<(), E>,
    ) -> Result<u32, E> {
        let mut bytes = 0u32;
        for page in 0..N.checked_div(W).unwrap_or(0) {
            let start = page.saturating_mul(W);
            let end = start.saturating_add(W);
            let (Some(next), Some(shown)) =
                (self.next.get(start..end), self.shown.get_mut(start..end))
            else {
                continue;
            };
            let range = if self.known {
                let first = next.iter().zip(shown.iter()).position(|(a, b)| a != b);
                let last = next.iter().zip(shown.iter()).rposition(|(a, b)| a != b);
                first.zip(last)
            } else {
                Some((0, W.saturating_sub(1)))
            };
            let Some((x0, x1)) = range else {
                continue;
            };
            let Some(run) = next.get(x0..=x1) else {
                continue;
            };
            if let Err(e) = send(page as u8, x0 as u8, run) {
                self.known = false;
                return Err(e);
            }
            if let Some(dst) = shown.get_mut(x0..=x1) {
                dst.copy_from_slice(run);
            }
            bytes = bytes.saturating_add(run.len() as u32);
        }
        self.known = true;
        Ok(bytes)
    }
}

impl<const W: usize, const N: usize> OriginDimensions for PageFrame<W, N> {
    fn size(&self) -> Size {
        Size::new(
            W as u32,
            N.checked_div(W).unwrap_or(0).saturating_mul(8) as u32,
        )
    }
}

impl<const W: usize, const N: usize> DrawTarget for PageFrame<W, N> {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<BinaryColor>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, c) in pixels {
            if let (Ok(x), Ok(y)) = (usize::try_from(p.x), usize::try_from(p.y)) {
                if x < W {
                    let at = (y / 8).saturating_mul(W).saturating_add(x);
                    if let Some(byte) = self.next.get_mut(at) {
                        let bit = 1u8 << (y % 8);
                        *byte = if c.is_on() { *byte | bit } else { *byte & !bit };
                    }
                }
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: BinaryColor) -> Result<(), Self::Error> {
        self.next.fill(if color.is_on() { 0xff } else { 0 });
        Ok(())
    }
}

/// Rows a [`Gray4Shown`] compares at a time: each band sends a window per run of changed groups.
pub const WINDOW_ROWS: usize = 8;
/// Bytes (two pixels each) a [`Gray4Shown`] compares as one across a row: eight pixels.
const GRAY4_GROUP: usize = 4;
const GRAY4_ROW: usize = crate::frame::WIDTH / 2;
const GRAY4_BYTES: usize = GRAY4_ROW * crate::frame::HEIGHT;

/// A window of an SSD0323's memory: byte columns `col0..=col1` (two pixels a byte) of rows
/// `row0..=row1`, the controller's column and row address commands (0x15, 0x75) exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The first byte column (0..=63).
    pub col0: u8,
    /// The last byte column.
    pub col1: u8,
    /// The first row (0..=63).
    pub row0: u8,
    /// The last row.
    pub row1: u8,
}

impl Window {
    /// The data bytes the window takes.
    pub fn bytes(&self) -> u32 {
        let w = u32::from(self.col1.saturating_sub(self.col0)).saturating_add(1);
        let h = u32::from(self.row1.saturating_sub(self.row0)).saturating_add(1);
        w.saturating_mul(h)
    }

    /// The window's rows cut out of a [`Gray4Frame`](crate::Gray4Frame)'s bytes, top to bottom:
    /// what goes to the controller after the window's commands.
    pub fn rows<'a>(&self, frame: &'a [u8]) -> impl Iterator<Item = &'a [u8]> + 'a {
        let (c0, c1) = (usize::from(self.col0), usize::from(self.col1));
        (usize::from(self.row0)..=usize::from(self.row1)).filter_map(move |y| {
            let row = y.saturating_mul(GRAY4_ROW);
            frame.get(row.saturating_add(c0)..=row.saturating_add(c1))
        })
    }
}

/// What an SSD0323 shows of a [`Gray4Frame`](crate::Gray4Frame) (the QEMU board's OLED), so that
/// [`Gray4Shown::flush`] sends only the windows that changed. The frame is already in the
/// controller's layout (two pixels a byte, 64 bytes a row) and the controller writes any window of
/// byte columns and rows, so the copy is the 4 KB the controller holds; the frame is compared
/// [`WINDOW_ROWS`] rows at a time, and each run of changed groups of eight pixels in such a band
/// becomes one window from its first to its last changed byte and row.
pub struct Gray4Shown {
    shown: [u8; GRAY4_BYTES],
    known: bool,
}

impl Default for Gray4Shown {
    fn default() -> Self {
        Self::new()
    }
}

impl Gray4Shown {
    /// Knows nothing of the panel: the first flush sends the whole frame as one window.
    pub const fn new() -> Self {
        Gray4Shown {
            shown: [0; GRAY4_BYTES],
            known: false,
        }
    }

    /// Forget what the panel shows: the next flush sends the whole frame.
    pub fn invalidate(&mut self) {
        self.known = false;
    }

    /// For each window of `frame` that differs from what the panel shows (the whole frame the
    /// first time), `send` gets the window and the frame's bytes (its data is
    /// [`Window::rows`] of them); then the panel is taken to show `frame`. The data bytes sent,
    /// or `send`'s first error (the panel is then no longer known).
    pub fn flush<E>(
        &mut self,
        frame: &crate::Gray4Frame,
        mut send: impl FnMut(Window, &[u8]) -> Result<(), E>,
    ) -> Result<u32, E> {
        let next = frame.bytes();
        let last = (GRAY4_ROW.saturating_sub(1)) as u8;
        let bottom = (crate::frame::HEIGHT.saturating_sub(1)) as u8;
        if !self.known {
            let all = Window {
                col0: 0,
                col1: last,
                row0: 0,
                row1: bottom,
            };
            send(all, next)?;
            self.shown.copy_from_slice(next);
            self.known = true;
            return Ok(all.bytes());
        }
        let mut sent = 0u32;
        let mut band = 0;
        while band < crate::frame::HEIGHT {
            let rows = WINDOW_ROWS.min(crate::frame::HEIGHT.saturating_sub(band));
            let mut masks = [0u64; WINDOW_ROWS];
            for (r, mask) in masks.iter_mut().enumerate().take(rows) {
                *mask = self.changed(next, band.saturating_add(r));
            }
            let all = masks.iter().fold(0, |a, m| a | m);
            for (g0, g1) in Runs(all) {
                let bits = run_bits(g0, g1);
                let first = masks.iter().position(|m| m & bits != 0).unwrap_or(0);
                let lowest = masks.iter().rposition(|m| m & bits != 0).unwrap_or(first);
                let (top, end) = (band.saturating_add(first), band.saturating_add(lowest));
                let (b0, b1) = (
                    g0.saturating_mul(GRAY4_GROUP),
                    g1.saturating_add(1).saturating_mul(GRAY4_GROUP),
                );
                // The first and last bytes that changed, on any row of the window.
                let (mut lo, mut hi) = (b1, b0);
                for y in top..=end {
                    let row = y.saturating_mul(GRAY4_ROW);
                    let differs = |b: usize| {
                        let at = row.saturating_add(b);
                        next.get(at) != self.shown.get(at)
                    };
                    if let Some(b) = (b0..lo).find(|&b| differs(b)) {
                        lo = b;
                    }
                    if let Some(b) = (hi..b1).rev().find(|&b| differs(b)) {
                        hi = b.saturating_add(1);
                    }
                }
                if lo >= hi {
                    continue;
                }
                let window = Window {
                    col0: lo as u8,
                    col1: hi.saturating_sub(1) as u8,
                    row0: top as u8,
                    row1: end as u8,
                };
                if let Err(e) = send(window, next) {
                    self.known = false;
                    return Err(e);
                }
                for y in top..=end {
                    let row = y.saturating_mul(GRAY4_ROW);
                    let (a, b) = (row.saturating_add(lo), row.saturating_add(hi));
                    if let (Some(src), Some(dst)) = (next.get(a..b), self.shown.get_mut(a..b)) {
                        dst.copy_from_slice(src);
                    }
                }
                sent = sent.saturating_add(window.bytes());
            }
            band = band.saturating_add(WINDOW_ROWS);
        }
        Ok(sent)
    }

    /// The groups of row `y` of `next` that differ from what the panel shows.
    fn changed(&self, next: &[u8], y: usize) -> u64 {
        let row = y.saturating_mul(GRAY4_ROW);
        let end = row.saturating_add(GRAY4_ROW);
        let (Some(a), Some(b)) = (next.get(row..end), self.shown.get(row..end)) else {
            return 0;
        };
        let mut mask = 0u64;
        for (g, (x, y)) in a.chunks(GRAY4_GROUP).zip(b.chunks(GRAY4_GROUP)).enumerate() {
            if x != y {
                mask |= 1 << g;
            }
        }
        mask
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    extern crate std;
    use super::*;
    use embedded_graphics::pixelcolor::Rgb565;
    use std::{vec, vec::Vec};

    type Small = DiffFrame<Rgb565, 32, 24, 384>;

    /// A panel: what it shows, and how often each pixel was written in the last flush.
    struct Panel {
        px: Vec<Option<Rgb565>>,
        writes: Vec<u32>,
    }

    impl Panel {
        fn new() -> Self {
            Panel {
                px: vec![None; 32 * 24],
                writes: vec![0; 32 * 24],
            }
        }
        fn take(&mut self, f: &mut Small) -> Flushed {
            self.writes.iter_mut().for_each(|w| *w = 0);
            let (px, writes) = (&mut self.px, &mut self.writes);
            f.flush(|r, colors| {
                let mut n = 0;
                for (p, c) in r.points().zip(colors) {
                    let i = p.y as usize * 32 + p.x as usize;
                    px[i] = Some(c);
                    writes[i] += 1;
                    n += 1;
                }
                assert_eq!(n, r.size.width * r.size.height, "{r:?}: a pixel a point");
                Ok::<(), ()>(())
            })
            .unwrap()
        }
        fn matches(&self, f: &Small) -> bool {
            (0..24).all(|y| (0..32).all(|x| self.px[y * 32 + x] == f.pixel(x, y)))
        }
    }

    #[test]
    fn the_first_flush_sends_all_then_only_what_changed() {
        let mut f = Small::new();
        let mut panel = Panel::new();
        f.clear(Rgb565::BLACK).unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(3, 2), Size::new(5, 4)),
            Rgb565::RED,
        )
        .unwrap();
        let sent = panel.take(&mut f);
        assert_eq!(sent.pixels, 32 * 24);
        assert!(panel.matches(&f));
        // The same frame again: nothing.
        f.clear(Rgb565::BLACK).unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(3, 2), Size::new(5, 4)),
            Rgb565::RED,
        )
        .unwrap();
        assert_eq!(panel.take(&mut f), Flushed::default());
        // One pixel moves: the two pixels alone, a rectangle each.
        f.clear(Rgb565::BLACK).unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(3, 2), Size::new(5, 4)),
            Rgb565::RED,
        )
        .unwrap();
        Pixel(Point::new(3, 2), Rgb565::BLACK).draw(&mut f).unwrap();
        Pixel(Point::new(20, 17), Rgb565::GREEN)
            .draw(&mut f)
            .unwrap();
        let sent = panel.take(&mut f);
        assert_eq!(
            sent,
            Flushed {
                rects: 2,
                pixels: 2
            }
        );
        assert!(panel.matches(&f));
        assert!(panel.writes.iter().all(|&w| w <= 1));
        assert_eq!(f.overflow(), 0);
    }

    #[test]
    fn rectangles_continue_across_bands_and_split_at_gaps() {
        let mut f = Small::new();
        let mut panel = Panel::new();
        f.clear(Rgb565::BLACK).unwrap();
        panel.take(&mut f);
        // A column 8 wide from row 4 to row 19 (three bands): one rectangle; a block past an
        // unchanged group on rows 22-23: another.
        f.fill_solid(
            &Rectangle::new(Point::new(8, 4), Size::new(8, 16)),
            Rgb565::BLUE,
        )
        .unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(31, 22), Size::new(1, 2)),
            Rgb565::BLUE,
        )
        .unwrap();
        let sent = panel.take(&mut f);
        assert_eq!(
            sent,
            Flushed {
                rects: 2,
                pixels: 8 * 16 + 2
            }
        );
        assert!(panel.matches(&f));
    }

    #[test]
    fn odd_edges_and_clipping_fill_exactly() {
        let mut f = Small::new();
        f.clear(Rgb565::BLACK).unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(-3, 1), Size::new(8, 1)),
            Rgb565::RED,
        )
        .unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(7, 3), Size::new(3, 1)),
            Rgb565::RED,
        )
        .unwrap();
        f.fill_solid(
            &Rectangle::new(Point::new(30, 23), Size::new(9, 9)),
            Rgb565::RED,
        )
        .unwrap();
        let red = |x, y| f.pixel(x, y) == Some(Rgb565::RED);
        assert!((0..5).all(|x| red(x, 1)) && !red(5, 1));
        assert!(!red(6, 3) && red(7, 3) && red(8, 3) && red(9, 3) && !red(10, 3));
        assert!(red(30, 23) && red(31, 23) && !red(29, 23));
        assert_eq!(f.pixel(32, 0), None);
    }

    #[test]
    fn more_colours_than_the_table_are_counted_not_lost_silently() {
        let mut f = Small::new();
        for i in 0..20u8 {
            Pixel(Point::new(i as i32, 0), Rgb565::new(i, 0, 0))
                .draw(&mut f)
                .unwrap();
        }
        assert_eq!(f.overflow(), 4);
        assert_eq!(f.pixel(15, 0), Some(Rgb565::new(15, 0, 0)));
    }

    #[test]
    fn a_failed_send_forgets_the_panel() {
        let mut f = Small::new();
        let mut panel = Panel::new();
        f.clear(Rgb565::BLACK).unwrap();
        panel.take(&mut f);
        Pixel(Point::new(1, 1), Rgb565::RED).draw(&mut f).unwrap();
        assert_eq!(f.flush(|_, _| Err(())), Err(()));
        assert_eq!(panel.take(&mut f).pixels, 32 * 24);
    }

    #[test]
    fn a_page_frame_sends_the_changed_columns_of_the_changed_pages() {
        let mut f: PageFrame<16, 32> = PageFrame::new();
        let mut panel = [0u8; 32];
        let mut take = |f: &mut PageFrame<16, 32>| {
            let mut sent = Vec::new();
            let bytes = f
                .flush(|page, x0, run| {
                    let at = page as usize * 16 + x0 as usize;
                    panel[at..at + run.len()].copy_from_slice(run);
                    sent.push((page, x0, run.len()));
                    Ok::<(), ()>(())
                })
                .unwrap();
            (bytes, sent, panel)
        };
        f.clear(BinaryColor::Off).unwrap();
        let (bytes, sent, _) = take(&mut f);
        assert_eq!((bytes, sent), (32, vec![(0, 0, 16), (1, 0, 16)]));
        // Row 9 (page 1, bit 1) at columns 3 and 7: that page, columns 3 to 7.
        f.clear(BinaryColor::Off).unwrap();
        Pixel(Point::new(3, 9), BinaryColor::On)
            .draw(&mut f)
            .unwrap();
        Pixel(Point::new(7, 9), BinaryColor::On)
            .draw(&mut f)
            .unwrap();
        let (bytes, sent, shown) = take(&mut f);
        assert_eq!((bytes, sent), (5, vec![(1, 3, 5)]));
        assert_eq!((shown[16 + 3], shown[16 + 7], shown[16 + 4]), (2, 2, 0));
        assert_eq!(f.pixel(7, 9), Some(true));
        // The same again: nothing.
        f.clear(BinaryColor::Off).unwrap();
        Pixel(Point::new(3, 9), BinaryColor::On)
            .draw(&mut f)
            .unwrap();
        Pixel(Point::new(7, 9), BinaryColor::On)
            .draw(&mut f)
            .unwrap();
        assert_eq!(take(&mut f).0, 0);
    }

    /// An SSD0323 as QEMU models it: a window's data fills it row by row.
    fn oled_take(
        panel: &mut [u8; 4096],
        shown: &mut Gray4Shown,
        f: &crate::Gray4Frame,
    ) -> (u32, Vec<Window>) {
        let mut windows = Vec::new();
        let sent = shown
            .flush(f, |w, bytes| {
                let data: Vec<u8> = w.rows(bytes).flatten().copied().collect();
                assert_eq!(data.len() as u32, w.bytes(), "{w:?}");
                let mut i = 0;
                for y in w.row0..=w.row1 {
                    for c in w.col0..=w.col1 {
                        panel[y as usize * 64 + c as usize] = data[i];
                        i += 1;
                    }
                }
                windows.push(w);
                Ok::<(), ()>(())
            })
            .unwrap();
        (sent, windows)
    }

    #[test]
    fn a_gray4_frame_sends_the_windows_that_changed() {
        use embedded_graphics::pixelcolor::Gray4;
        let mut f = crate::Gray4Frame::new();
        let mut shown = Gray4Shown::new();
        let mut panel = [0xA5u8; 4096];
        f.clear(Gray4::new(1)).unwrap();
        let (sent, windows) = oled_take(&mut panel, &mut shown, &f);
        assert_eq!((sent, windows.len()), (4096, 1));
        assert_eq!(&panel[..], f.bytes());
        // Nothing changed: nothing sent.
        assert_eq!(oled_take(&mut panel, &mut shown, &f), (0, vec![]));
        // Pixels 3 and 12 of row 9 (bytes 1 and 6, two groups: one window from byte 1 to 6),
        // pixel 127 of rows 62 and 63 (byte 63), and pixel 64 of row 20.
        for (x, y) in [(3, 9), (12, 9), (127, 62), (127, 63), (64, 20)] {
            Pixel(Point::new(x, y), Gray4::new(9)).draw(&mut f).unwrap();
        }
        let (sent, windows) = oled_take(&mut panel, &mut shown, &f);
        assert_eq!(
            windows,
            vec![
                Window {
                    col0: 1,
                    col1: 6,
                    row0: 9,
                    row1: 9
                },
                Window {
                    col0: 32,
                    col1: 32,
                    row0: 20,
                    row1: 20
                },
                Window {
                    col0: 63,
                    col1: 63,
                    row0: 62,
                    row1: 63
                },
            ]
        );
        assert_eq!(sent, 6 + 1 + 2);
        assert_eq!(&panel[..], f.bytes());
        // Two runs in one band with an unchanged group between: two windows.
        Pixel(Point::new(0, 40), Gray4::new(2))
            .draw(&mut f)
            .unwrap();
        Pixel(Point::new(40, 41), Gray4::new(2))
            .draw(&mut f)
            .unwrap();
        let (sent, windows) = oled_take(&mut panel, &mut shown, &f);
        assert_eq!(
            windows,
            vec![
                Window {
                    col0: 0,
                    col1: 0,
                    row0: 40,
                    row1: 40
                },
                Window {
                    col0: 20,
                    col1: 20,
                    row0: 41,
                    row1: 41
                },
            ]
        );
        assert_eq!(sent, 2);
        assert_eq!(&panel[..], f.bytes());
    }

    #[test]
    fn a_gray4_send_that_fails_sends_all_next_time() {
        use embedded_graphics::pixelcolor::Gray4;
        let mut f = crate::Gray4Frame::new();
        let mut shown = Gray4Shown::new();
        let mut panel = [0u8; 4096];
        oled_take(&mut panel, &mut shown, &f);
        Pixel(Point::new(5, 5), Gray4::new(3)).draw(&mut f).unwrap();
        assert_eq!(shown.flush(&f, |_, _| Err(())), Err(()));
        assert_eq!(oled_take(&mut panel, &mut shown, &f).0, 4096);
        shown.invalidate();
        assert_eq!(oled_take(&mut panel, &mut shown, &f).0, 4096);
        assert_eq!(&panel[..], f.bytes());
    }
}
