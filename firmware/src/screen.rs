//! Screens: each game's state, the result between matches, and the panic message, on any display.
//!
//! A game implements [`Screen`] once: it draws its body inside the [`Layout`] it is given, with
//! colours by role from the [`Palette`]. The header (game, turn) and the result and panic screens are
//! shared. The layout adapts to the display: the small font on a 128x64 OLED, the large one on a
//! 240x240 LCD; the palette adapts to the colour depth.

use core::fmt::Write;

use arena_core::{Game, Outcome};
use embedded_graphics::mono_font::{ascii, MonoFont, MonoTextStyle};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{Line, PrimitiveStyle, Rectangle};
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};

use crate::palette::Palette;

/// A line of text, formatted without allocation (longer text is cut).
pub type Line64 = heapless::String<64>;

/// Formats into a [`Line64`], cutting what does not fit.
#[macro_export]
macro_rules! fmt_line {
    ($($arg:tt)*) => {{
        let mut s = $crate::screen::Line64::new();
        let _ = core::fmt::Write::write_fmt(&mut s, format_args!($($arg)*));
        s
    }};
}

/// Where things go on a display of a given size.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub size: Size,
    pub font: &'static MonoFont<'static>,
    /// The strip at the top: game and turn.
    pub header: Rectangle,
    /// What the game draws in.
    pub body: Rectangle,
}

impl Layout {
    pub fn of(size: Size) -> Layout {
        let font = if size.width >= 200 {
            &ascii::FONT_10X20
        } else {
            &ascii::FONT_5X8
        };
        let header_h = font.character_size.height.saturating_add(2);
        let header = Rectangle::new(Point::zero(), Size::new(size.width, header_h));
        let body = Rectangle::new(
            Point::new(0, header_h as i32),
            Size::new(size.width, size.height.saturating_sub(header_h)),
        );
        Layout {
            size,
            font,
            header,
            body,
        }
    }

    /// How many characters fit on one line.
    pub fn columns(&self) -> u32 {
        ratio(self.size.width, self.font.character_size.width)
    }

    /// Where a `cols` x `rows` grid of square cells and a text panel of `panel_chars` x
    /// `panel_lines` go in the body: the panel beside the grid or below it, whichever leaves the
    /// larger cell (beside on a wide 128x64 OLED, often below on a square LCD). The cell is at
    /// least 1 pixel.
    pub fn grid_with_panel(
        &self,
        cols: u32,
        rows: u32,
        panel_chars: u32,
        panel_lines: u32,
    ) -> GridPlace {
        let (cols, rows) = (cols.max(1), rows.max(1));
        let body = self.body;
        let (bw, bh) = (body.size.width, body.size.height);
        let panel_w = panel_chars
            .saturating_mul(self.font.character_size.width)
            .saturating_add(3);
        let panel_h = panel_lines
            .saturating_mul(self.line_height() as u32)
            .saturating_add(2);
        let beside = ratio(bw.saturating_sub(panel_w), cols).min(ratio(bh, rows));
        let below = ratio(bw, cols).min(ratio(bh.saturating_sub(panel_h), rows));
        if beside >= below {
            let cell = beside.max(1);
            let origin = shift(
                body.top_left,
                0,
                px(bh.saturating_sub(cell.saturating_mul(rows)) / 2),
            );
            GridPlace {
                cell,
                origin,
                panel: Point::new(
                    origin
                        .x
                        .saturating_add(px(cell.saturating_mul(cols)))
                        .saturating_add(3),
                    body.top_left.y.saturating_add(1),
                ),
            }
        } else {
            let cell = below.max(1);
            let origin = shift(
                body.top_left,
                px(bw.saturating_sub(cell.saturating_mul(cols)) / 2),
                0,
            );
            GridPlace {
                cell,
                origin,
                panel: Point::new(
                    body.top_left.x.saturating_add(1),
                    origin
                        .y
                        .saturating_add(px(cell.saturating_mul(rows)))
                        .saturating_add(2),
                ),
            }
        }
    }

    pub fn text_style<C: Palette>(&self, color: C) -> MonoTextStyle<'static, C> {
        MonoTextStyle::new(self.font, color)
    }

    pub fn line_height(&self) -> i32 {
        px(self.font.character_size.height).saturating_add(1)
    }
}

/// `p` moved by `(dx, dy)`; saturates at the ends of `i32`, far beyond any display.
pub fn shift(p: Point, dx: i32, dy: i32) -> Point {
    Point::new(p.x.saturating_add(dx), p.y.saturating_add(dy))
}

/// A length in pixels as a coordinate (saturating: no display is 2^31 pixels wide).
pub fn px(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// The square of side `cell` at `at`, shrunk by `inset` pixels on every side.
pub fn inset_square(at: Point, cell: u32, inset: u32) -> Rectangle {
    let side = cell.saturating_sub(inset.saturating_mul(2));
    Rectangle::new(shift(at, px(inset), px(inset)), Size::new(side, side))
}

/// `a / b` rounded down, `0` when `b` is `0`.
pub fn ratio(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(0)
}

/// Where [`Layout::grid_with_panel`] puts a grid and its panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridPlace {
    /// The side of a cell, in pixels.
    pub cell: u32,
    /// The grid's top-left corner.
    pub origin: Point,
    /// The panel's first line.
    pub panel: Point,
}

/// A game's picture of its own state.
pub trait Screen: Game {
    /// A short name for the header (a few letters: the header also shows the turn).
    const SHORT: &'static str;
    /// Draw the state inside `layout.body` (already cleared to the background).
    fn draw_body<D: Canvas>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error>;
}

/// What the screens draw on: any embedded-graphics target whose colour has a [`Palette`] (the
/// boards' OLEDs and LCDs, the host's canvases, `MockDisplay`).
pub trait Canvas: DrawTarget<Color: Palette> {}

impl<T: DrawTarget<Color: Palette>> Canvas for T {}

/// Draws `s` with its top-left corner at `at`, cut to what fits before the right edge (a side panel
/// must not spill off a small display, whatever a number grows to).
pub fn fitted_text<D>(
    target: &mut D,
    s: &str,
    at: Point,
    color: D::Color,
    layout: &Layout,
) -> Result<(), D::Error>
where
    D: Canvas,
{
    let room = px(layout.size.width).saturating_sub(at.x).max(0) as u32;
    let fits = ratio(room, layout.font.character_size.width) as usize;
    let mut cut = s.len().min(fits);
    // Index 0 is always a boundary: this stops there at the latest.
    while !s.is_char_boundary(cut) {
        cut = cut.saturating_sub(1);
    }
    let bottom = at.y.saturating_add(px(layout.font.character_size.height));
    if let (true, true, Some(head)) = (cut > 0, bottom <= px(layout.size.height), s.get(..cut)) {
        Text::with_baseline(head, at, layout.text_style(color), Baseline::Top).draw(target)?;
    }
    Ok(())
}

/// Who is playing what: what the header and the result screen print.
#[derive(Clone, Copy, Debug)]
pub struct MatchLabel<'a> {
    pub number: u32,
    pub game: &'static str,
    pub config: &'static str,
    pub seed: u64,
    pub bots: &'a [&'static str],
}

fn text<D>(
    target: &mut D,
    s: &str,
    at: Point,
    color: D::Color,
    layout: &Layout,
) -> Result<(), D::Error>
where
    D: Canvas,
{
    Text::with_baseline(s, at, layout.text_style(color), Baseline::Top).draw(target)?;
    Ok(())
}

/// The whole screen for a game in progress: header, then the game's body.
pub fn draw_game<G, D>(game: &G, label: &MatchLabel<'_>, target: &mut D) -> Result<(), D::Error>
where
    G: Screen,
    D: Canvas,
{
    let layout = Layout::of(target.bounding_box().size);
    target.clear(D::Color::background())?;
    text(
        target,
        G::SHORT,
        Point::new(1, 1),
        D::Color::text(),
        &layout,
    )?;
    let mut turn = Line64::new();
    let _ = write!(turn, "#{} t{}", label.number, game.turn());
    let right = TextStyleBuilder::new()
        .alignment(Alignment::Right)
        .baseline(Baseline::Top)
        .build();
    Text::with_text_style(
        &turn,
        Point::new(px(layout.size.width).saturating_sub(1), 1),
        layout.text_style(D::Color::text()),
        right,
    )
    .draw(target)?;
    let y = px(layout.header.size.height).saturating_sub(1);
    Line::new(
        Point::new(0, y),
        Point::new(px(layout.size.width).saturating_sub(1), y),
    )
    .into_styled(PrimitiveStyle::with_stroke(D::Color::dim(), 1))
    .draw(target)?;
    game.draw_body(target, &layout)
}

/// The screen between two matches: who played, who won, the scores and why it ended.
pub fn draw_result<D>(
    label: &MatchLabel<'_>,
    outcome: Option<&Outcome>,
    turns: u32,
    target: &mut D,
) -> Result<(), D::Error>
where
    D: Canvas,
{
    let layout = Layout::of(target.bounding_box().size);
    target.clear(D::Color::background())?;
    let lh = layout.line_height();
    let mut y: i32 = 1;
    // Most important first: a line that does not fit is left out.
    let bottom = layout.size.height as i32;
    let mut put = |target: &mut D, s: &str, color: D::Color| -> Result<(), D::Error> {
        if y.saturating_add(lh) <= bottom.saturating_add(1) {
            text(target, s, Point::new(1, y), color, &layout)?;
        }
        y = y.saturating_add(lh);
        Ok(())
    };
    put(
        target,
        &fmt_line!("Match {} {}", label.number, label.game),
        D::Color::text(),
    )?;
    let verdict = match outcome.map(|o| (o.winner(), o.reason)) {
        Some((Some(w), reason)) => fmt_line!(
            "Winner {} ({}) t{}: {}",
            w,
            label.bots.get(w).copied().unwrap_or("?"),
            turns,
            reason
        ),
        Some((None, reason)) => fmt_line!("Draw t{}: {}", turns, reason),
        None => fmt_line!("Stopped at turn {}", turns),
    };
    for chunk in wrap(&verdict, layout.columns() as usize) {
        put(target, chunk, D::Color::text())?;
    }
    let seats = outcome
        .map(|o| o.seats as usize)
        .unwrap_or(label.bots.len());
    for seat in 0..seats {
        let bot = label
            .bots
            .get(seat.checked_rem(label.bots.len()).unwrap_or(0))
            .copied()
            .unwrap_or("?");
        let s = match outcome.and_then(|o| o.scores().get(seat).copied()) {
            Some(score) => fmt_line!("{}: {} {}", seat, bot, score),
            None => fmt_line!("{}: {}", seat, bot),
        };
        put(target, &s, D::Color::seat(seat))?;
    }
    put(
        target,
        &fmt_line!("{} seed {}", label.config, label.seed),
        D::Color::dim(),
    )?;
    Ok(())
}

/// The panic screen: a title and the message, wrapped.
pub fn draw_panic<D>(message: &str, target: &mut D) -> Result<(), D::Error>
where
    D: Canvas,
{
    let layout = Layout::of(target.bounding_box().size);
    target.clear(D::Color::background())?;
    text(
        target,
        "PANIC",
        Point::new(1, 1),
        D::Color::alert(),
        &layout,
    )?;
    let lh = layout.line_height();
    let mut y = lh.saturating_add(1);
    for chunk in wrap(message, layout.columns() as usize) {
        if y.saturating_add(lh) > px(layout.size.height) {
            break;
        }
        text(target, chunk, Point::new(1, y), D::Color::text(), &layout)?;
        y = y.saturating_add(lh);
    }
    Ok(())
}

/// Cuts `s` into lines of at most `width` characters (ASCII; other characters count as one byte each
/// and a cut never falls inside one).
pub fn wrap(s: &str, width: usize) -> impl Iterator<Item = &str> {
    let width = width.max(1);
    let mut rest = s;
    core::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len().min(width);
        // Index 0 is always a boundary: this stops there at the latest.
        while !rest.is_char_boundary(cut) {
            cut = cut.saturating_sub(1);
        }
        if cut == 0 {
            cut = rest
                .chars()
                .next()
                .map(char::len_utf8)
                .unwrap_or(rest.len());
        }
        // `cut` is a boundary (above); the checked form keeps the panic path out of the firmware.
        let (head, tail) = rest.split_at_checked(cut)?;
        rest = tail;
        Some(head)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::mock_display::MockDisplay;
    use embedded_graphics::pixelcolor::{BinaryColor, Rgb565};

    #[test]
    fn layout_adapts_to_the_display() {
        let small = Layout::of(Size::new(128, 64));
        let big = Layout::of(Size::new(240, 240));
        assert!(big.font.character_size.width > small.font.character_size.width);
        assert_eq!(small.body.top_left.y as u32 + small.body.size.height, 64);
        // A wide OLED: the panel beside the grid; a square LCD: below it.
        let g = small.grid_with_panel(20, 12, 6, 4);
        assert!(g.cell * 20 + 6 * 5 <= 128 && g.cell * 12 <= small.body.size.height);
        assert!(
            g.panel.x >= g.origin.x + (g.cell * 20) as i32 && g.origin.y >= small.body.top_left.y
        );
        let g = big.grid_with_panel(20, 12, 6, 4);
        assert!(g.panel.y >= g.origin.y + (g.cell * 12) as i32);
        assert!(g.panel.y + 4 * big.line_height() <= 240 && g.cell * 20 <= 240);
        assert!(big.grid_with_panel(0, 0, 0, 0).cell >= 1);
    }

    #[test]
    fn wrap_cuts_at_width_and_char_boundaries() {
        let lines: heapless::Vec<&str, 8> = wrap("abcdefg", 3).collect();
        assert_eq!(lines.as_slice(), &["abc", "def", "g"]);
        let lines: heapless::Vec<&str, 8> = wrap("é1", 1).collect();
        assert_eq!(lines.as_slice(), &["é", "1"]);
    }

    #[test]
    fn result_and_panic_screens_draw_inside_the_display() {
        let label = MatchLabel {
            number: 3,
            game: "colorfight",
            config: "default",
            seed: 7,
            bots: &["greedy", "random"],
        };
        let o = Outcome::by_score(2, &[5, 9], "finish line");
        let mut d: MockDisplay<BinaryColor> = MockDisplay::new();
        d.set_allow_overdraw(true);
        d.set_allow_out_of_bounds_drawing(true);
        draw_result(&label, Some(&o), 12, &mut d).unwrap();
        assert!(d.affected_area().size.width > 0);
        let mut d: MockDisplay<Rgb565> = MockDisplay::new();
        d.set_allow_overdraw(true);
        d.set_allow_out_of_bounds_drawing(true);
        draw_panic("index out of bounds", &mut d).unwrap();
        assert_eq!(d.get_pixel(Point::new(0, 0)), Some(Rgb565::background()));
    }
}
