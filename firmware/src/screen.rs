//! Screens: each game's state, the result between matches, and the panic message, on any display.
//!
//! A game implements [`Screen`] once: it draws its body inside the [`Layout`] it is given, with
//! colours by role from the [`Palette`]. The header (game, turn) and the result and panic screens are
//! shared. The layout adapts to the display: the small font on a 128x64 OLED, the large one on a
//! 240x240 LCD; the palette adapts to the colour depth.

use core::fmt::Write;

use arena_core::Game;
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
    /// The display's size.
    pub size: Size,
    /// The font of every text.
    pub font: &'static MonoFont<'static>,
    /// The strip at the top: game and turn.
    pub header: Rectangle,
    /// What the game draws in.
    pub body: Rectangle,
    /// The desktop's side panel (each seat's name and numbers, the legend), right of the body;
    /// `None` on the boards' displays, which draw exactly as they did before it existed.
    pub side: Option<Rectangle>,
}

impl Layout {
    /// The layout of a display of `size`.
    pub fn of(size: Size) -> Layout {
        #[cfg(feature = "desktop")]
        if size.width >= desktop::WIDTH && size.height >= desktop::HEIGHT {
            return desktop::layout(size);
        }
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
            side: None,
        }
    }

    /// How many characters fit on one line.
    pub fn columns(&self) -> u32 {
        ratio(self.size.width, self.font.character_size.width)
    }

    /// Where a `cols` x `rows` grid of square cells and a text panel of `panel_chars` x
    /// `panel_lines` go in the body: the panel beside the grid or below it, whichever leaves the
    /// larger cell (beside on a wide 128x64 OLED, often below on a square LCD). The cell is at
    /// least 1 pixel; see [`Layout::grid_with_panel_min`] for a grid larger than the body.
    pub fn grid_with_panel(
        &self,
        cols: u32,
        rows: u32,
        panel_chars: u32,
        panel_lines: u32,
    ) -> GridPlace {
        self.grid_with_panel_min(cols, rows, panel_chars, panel_lines, 1)
    }

    /// [`Layout::grid_with_panel`] with cells of at least `min_cell` pixels (a 1-bit screen needs
    /// 2 x 2 to tell seats apart by pattern). A grid that does not fit at that size shows
    /// [`GridPlace::squares`] x `squares` squares per cell rather than spill over the panel or off
    /// the display: the panel's numbers are what a person reads, the map can be coarser.
    pub fn grid_with_panel_min(
        &self,
        cols: u32,
        rows: u32,
        panel_chars: u32,
        panel_lines: u32,
        min_cell: u32,
    ) -> GridPlace {
        let (cols, rows) = (cols.max(1), rows.max(1));
        let body = self.body;
        let (bw, bh) = (body.size.width, body.size.height);
        if let Some(side) = self.side {
            // The numbers are in the side panel: the grid takes the whole body, centred.
            let fit = Fit::of(cols, rows, bw, bh, min_cell);
            let (origin, _) = fit.place(cols, rows, body, true, true);
            return fit.grid(origin, side.top_left);
        }
        let panel_w = panel_chars
            .saturating_mul(self.font.character_size.width)
            .saturating_add(3);
        let panel_h = panel_lines
            .saturating_mul(self.line_height() as u32)
            .saturating_add(2);
        let fit = |w: u32, h: u32| Fit::of(cols, rows, w, h, min_cell);
        let beside = fit(bw.saturating_sub(panel_w), bh);
        let below = fit(bw, bh.saturating_sub(panel_h));
        if (beside.squares, below.cell) <= (below.squares, beside.cell) {
            let (origin, grid) = beside.place(cols, rows, body, false, true);
            beside.grid(
                origin,
                Point::new(
                    origin.x.saturating_add(px(grid.width)).saturating_add(3),
                    body.top_left.y.saturating_add(1),
                ),
            )
        } else {
            let (origin, grid) = below.place(cols, rows, body, true, false);
            below.grid(
                origin,
                Point::new(
                    body.top_left.x.saturating_add(1),
                    origin.y.saturating_add(px(grid.height)).saturating_add(2),
                ),
            )
        }
    }

    /// Text in this layout's font and `color`.
    pub fn text_style<C: Palette>(&self, color: C) -> MonoTextStyle<'static, C> {
        MonoTextStyle::new(self.font, color)
    }

    /// Draws `s` in this layout's font with its top-left corner at `at`.
    pub fn text<D: Canvas>(
        &self,
        target: &mut D,
        s: &str,
        at: Point,
        color: D::Color,
    ) -> Result<(), D::Error> {
        Text::with_baseline(s, at, self.text_style(color), Baseline::Top).draw(target)?;
        Ok(())
    }

    /// Pixels from one line of text to the next.
    pub fn line_height(&self) -> i32 {
        px(self.font.character_size.height).saturating_add(1)
    }

    /// Whether the game draws its own few numbers in the body (the boards' displays), rather
    /// than leaving them to the desktop's side panel.
    pub fn compact(&self) -> bool {
        self.side.is_none()
    }
}

/// `p` moved by `(dx, dy)`; saturates at the ends of `i32`, far beyond any display.
pub fn shift(p: Point, dx: i32, dy: i32) -> Point {
    Point::new(p.x.saturating_add(dx), p.y.saturating_add(dy))
}

/// Fills `square` in seat `seat`'s colour; on a 1-bit display, in its texture
/// ([`mono_texture`](crate::palette::mono_texture)) counted from `anchor` and on the background,
/// so that what was under it (water, a hill) cannot fill its gaps (the origin keeps a region's
/// texture seamless across cells; a square's own corner gives every small mark the same pattern
/// wherever it stands).
pub fn fill_seat<D: Canvas>(
    target: &mut D,
    square: Rectangle,
    seat: usize,
    anchor: Point,
) -> Result<(), D::Error> {
    if D::Color::DEPTH == 1 {
        fill_pattern(target, square, anchor, D::Color::seat(seat), |dx, dy| {
            crate::palette::mono_texture(seat, dx, dy)
        })
    } else {
        square
            .into_styled(PrimitiveStyle::with_fill(D::Color::seat(seat)))
            .draw(target)
    }
}

/// Fills `square` with `color` where `lit(dx, dy)` holds, `(dx, dy)` counted from `anchor`, and
/// with the background elsewhere. The textures are of period 2: a wrapped difference keeps its
/// parity.
pub fn fill_pattern<D: Canvas>(
    target: &mut D,
    square: Rectangle,
    anchor: Point,
    color: D::Color,
    lit: impl Fn(i32, i32) -> bool,
) -> Result<(), D::Error> {
    target.draw_iter(square.points().map(|p| {
        let (dx, dy) = (p.x.wrapping_sub(anchor.x), p.y.wrapping_sub(anchor.y));
        let color = if lit(dx, dy) {
            color
        } else {
            D::Color::background()
        };
        Pixel(p, color)
    }))
}

/// A length in pixels as a coordinate (saturating: no display is 2^31 pixels wide).
pub fn px(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// A legend mark: one dim pixel in the middle of `square` (an empty cell, a bare path).
pub fn centre_dot<D: Canvas>(target: &mut D, square: Rectangle) -> Result<(), D::Error> {
    Pixel(
        shift(
            square.top_left,
            px(square.size.width) / 2,
            px(square.size.height) / 2,
        ),
        D::Color::dim(),
    )
    .draw(target)
}

/// The square of side `cell` at `at`, shrunk by `inset` pixels on every side.
pub fn inset_square(at: Point, cell: u32, inset: u32) -> Rectangle {
    let side = cell.saturating_sub(inset.saturating_mul(2));
    Rectangle::new(shift(at, px(inset), px(inset)), Size::new(side, side))
}

/// A piece standing in the cell `square` (a player, an invader): the cell, less a margin of a
/// pixel where the cell is 4 pixels or more.
pub fn piece(square: Rectangle) -> Rectangle {
    let cell = square.size.width;
    let inset = if cell >= 4 { 1 } else { 0 };
    inset_square(square.top_left, cell, inset)
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
    /// Squares of the grid per cell side: 1 unless the grid is larger than the body at the
    /// smallest cell, then a cell shows `squares` x `squares` of them.
    pub squares: u32,
    /// The grid's top-left corner.
    pub origin: Point,
    /// The panel's first line.
    pub panel: Point,
}

impl GridPlace {
    /// The top-left corner of the cell that shows square (`col`, `row`).
    pub fn at(&self, col: u32, row: u32) -> Point {
        let cell_of = |i: u32| px(ratio(i, self.squares).saturating_mul(self.cell));
        shift(self.origin, cell_of(col), cell_of(row))
    }
}

/// The cell, and squares per cell, of a grid in a room of `w` x `h` pixels.
struct Fit {
    cell: u32,
    squares: u32,
}

impl Fit {
    fn of(cols: u32, rows: u32, w: u32, h: u32, min_cell: u32) -> Fit {
        let min_cell = min_cell.max(1);
        let cell = ratio(w, cols).min(ratio(h, rows));
        if cell >= min_cell {
            return Fit { cell, squares: 1 };
        }
        // The fewest squares per cell that fit; a room narrower than one cell gets one cell.
        let per = |n: u32, room: u32| {
            let cells = ratio(room, min_cell).max(1);
            n.div_ceil(cells)
        };
        Fit {
            cell: min_cell,
            squares: per(cols, w).max(per(rows, h)).max(1),
        }
    }

    /// Where a grid of `cols` x `rows` squares at this fit starts in `room` (centred across its
    /// width if `across`, down its height if `down`, else at its edge), and its size in pixels.
    fn place(
        &self,
        cols: u32,
        rows: u32,
        room: Rectangle,
        across: bool,
        down: bool,
    ) -> (Point, Size) {
        let grid = Size::new(
            self.cell.saturating_mul(cols.div_ceil(self.squares)),
            self.cell.saturating_mul(rows.div_ceil(self.squares)),
        );
        let centre = |free: u32, used: u32, yes: bool| {
            if yes {
                px(free.saturating_sub(used) / 2)
            } else {
                0
            }
        };
        let origin = shift(
            room.top_left,
            centre(room.size.width, grid.width, across),
            centre(room.size.height, grid.height, down),
        );
        (origin, grid)
    }

    fn grid(&self, origin: Point, panel: Point) -> GridPlace {
        GridPlace {
            cell: self.cell,
            squares: self.squares,
            origin,
            panel,
        }
    }
}

/// What a game writes in the desktop's side panel beside its body: its numbers, where a board's
/// small screen has no room for them. One definition whatever the features: every method has a
/// default that writes nothing, so `impl SidePanel for MyGame {}` is a whole impl; the `desktop`
/// feature only adds methods (with those defaults), never a required one, so enabling it breaks
/// no impl.
pub trait SidePanel {
    /// The desktop panel: lines about the whole game (the round, what lies in the middle),
    /// above the seats. Default: none.
    #[cfg(feature = "desktop")]
    fn game_panel<D: Canvas>(&self, panel: &mut desktop::Panel<'_, D>) -> Result<(), D::Error> {
        let _ = panel;
        Ok(())
    }

    /// The desktop panel: the numbers of its seat ([`desktop::Panel::seat`]), under its name.
    /// Default: none (the name alone).
    #[cfg(feature = "desktop")]
    fn seat_panel<D: Canvas>(&self, panel: &mut desktop::Panel<'_, D>) -> Result<(), D::Error> {
        let _ = panel;
        Ok(())
    }

    /// Whether `seat` is out of the game (its name is then dimmed). Default: never.
    fn seat_out(&self, seat: usize) -> bool {
        let _ = seat;
        false
    }

    /// The desktop panel's legend: a [`desktop::Panel::key`] for every mark the body draws.
    /// Default: no legend.
    #[cfg(feature = "desktop")]
    fn legend<D: Canvas>(&self, panel: &mut desktop::Panel<'_, D>) -> Result<(), D::Error> {
        let _ = panel;
        Ok(())
    }
}

/// A game's picture of its own state.
pub trait Screen: Game + SidePanel {
    /// A short name for the header (a few letters: the header also shows the turn).
    const SHORT: &'static str;
    /// The time a bot has for one turn under the game's rules (`rules/<game>.md`), in
    /// microseconds; 0 when the rules give none. The cost report shows a bot's turn as a share of
    /// it at the chip's clock.
    fn turn_limit_us(&self) -> u32 {
        0
    }
    /// Draw the state inside `layout.body` (already cleared to the background). On the desktop
    /// ([`Layout::side`] is set) the numbers go in the side panel instead, and the body may show
    /// more detail (the cells are larger).
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
    let head = fitting(s, layout.size.width, at.x, layout.font);
    let bottom = at.y.saturating_add(px(layout.font.character_size.height));
    if !head.is_empty() && bottom <= px(layout.size.height) {
        layout.text(target, head, at, color)?;
    }
    Ok(())
}

/// The longest head of `s` in `font` that fits between `x` and `width` (cut at a character
/// boundary: ASCII, as [`wrap`] counts).
fn fitting<'s>(s: &'s str, width: u32, x: i32, font: &MonoFont<'_>) -> &'s str {
    let room = px(width).saturating_sub(x).max(0) as u32;
    let mut cut = s.len().min(ratio(room, font.character_size.width) as usize);
    // Index 0 is always a boundary: this stops there at the latest.
    while !s.is_char_boundary(cut) {
        cut = cut.saturating_sub(1);
    }
    s.get(..cut).unwrap_or("")
}

/// The compact layout's column of numbers beside the board: `lines` from `at` down, each in its
/// colour, as many as fit above the bottom.
pub fn side_column<D, I>(
    target: &mut D,
    at: Point,
    layout: &Layout,
    lines: I,
) -> Result<(), D::Error>
where
    D: Canvas,
    I: IntoIterator<Item = (Line64, D::Color)>,
{
    let mut y = at.y;
    for (text, color) in lines {
        if y.saturating_add(layout.line_height()) > px(layout.size.height) {
            break;
        }
        fitted_text(target, &text, Point::new(at.x, y), color, layout)?;
        y = y.saturating_add(layout.line_height());
    }
    Ok(())
}

/// Who is playing what: what the header and the result screen print.
#[derive(Clone, Copy, Debug)]
pub struct MatchLabel<'a> {
    /// The match's number in the lineup.
    pub number: u32,
    /// The game's name.
    pub game: &'static str,
    /// The lineup entry's configuration label.
    pub config: &'static str,
    /// The match's seed.
    pub seed: u64,
    /// The bots' names, by seat.
    pub bots: &'a [&'static str],
}

/// The header: `left` at the left, `right` at the right, a dim line under them.
fn header<D: Canvas>(
    target: &mut D,
    left: &str,
    right: &str,
    layout: &Layout,
) -> Result<(), D::Error> {
    layout.text(target, left, Point::new(1, 1), D::Color::text())?;
    let align = TextStyleBuilder::new()
        .alignment(Alignment::Right)
        .baseline(Baseline::Top)
        .build();
    Text::with_text_style(
        right,
        Point::new(px(layout.size.width).saturating_sub(1), 1),
        layout.text_style(D::Color::text()),
        align,
    )
    .draw(target)?;
    let y = px(layout.header.size.height).saturating_sub(1);
    Line::new(
        Point::new(0, y),
        Point::new(px(layout.size.width).saturating_sub(1), y),
    )
    .into_styled(PrimitiveStyle::with_stroke(D::Color::dim(), 1))
    .draw(target)?;
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
    #[cfg(feature = "desktop")]
    if layout.side.is_some() {
        return desktop::draw_game(game, label, target, &layout);
    }
    let turn = fmt_line!("#{} t{}", label.number, game.turn());
    header(target, G::SHORT, &turn, &layout)?;
    game.draw_body(target, &layout)
}

/// A part of the result screen: what it says and how [`draw_result`] may fit it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Title,
    Verdict,
    Seat(usize),
    End,
}

/// The result screen's lines, in order, each word-wrapped to `cols` (a seat's line is cut
/// instead: one line a seat, so that every seat is on the screen).
fn result_lines<G: Game>(
    label: &MatchLabel<'_>,
    game: &G,
    turns: u32,
    cols: usize,
    mut emit: impl FnMut(&str, Part),
) {
    let wrapped = |s: &str, part: Part, emit: &mut dyn FnMut(&str, Part)| {
        wrap(s, cols).for_each(|l| emit(l, part))
    };
    wrapped(
        &fmt_line!(
            "#{} {} {} seed {}",
            label.number,
            label.game,
            label.config,
            label.seed
        ),
        Part::Title,
        &mut emit,
    );
    let outcome = game.outcome();
    let decision = game.decision();
    let mut verdict = heapless::String::<128>::new();
    let _ = match &decision {
        Some(d) => write!(verdict, "{}", d.verdict()),
        None => write!(verdict, "stopped at turn {turns}"),
    };
    wrapped(&verdict, Part::Verdict, &mut emit);
    let seats = outcome
        .map(|o| o.seats as usize)
        .unwrap_or(label.bots.len());
    for seat in 0..seats {
        let bot = label
            .bots
            .get(seat.checked_rem(label.bots.len()).unwrap_or(0))
            .copied()
            .unwrap_or("?");
        // The bot's name before the numbers: a line longer than the screen is cut at its end, and
        // a defeated seat's numbers ("... defeated t863") used to push the name off it.
        let line = match &decision {
            Some(d) => fmt_line!("{} {} {}", seat, bot, d.seat(seat)),
            None => fmt_line!("{} {}", seat, bot),
        };
        emit(&line, Part::Seat(seat));
    }
    let end = match &outcome {
        Some(o) if !o.reason.is_empty() => {
            fmt_line!("{} at turn {}", o.reason, turns)
        }
        _ => fmt_line!("turn {}", turns),
    };
    wrapped(&end, Part::End, &mut emit);
}

/// The screen between two matches: who played, what decided the ranking (the core's
/// [`arena_core::Decision`], in its own words), each seat's numbers, why and when it ended.
/// Every seat gets a line, and every line is in full contrast: when they do not all fit, the lines
/// close up to the font's height, then the verdict's tail and the closing line give way.
///
/// Out of line: its lines and the decision stay in its own frame, gone before the next match,
/// not in the match loop's frame under every turn (the stack high-water).
#[inline(never)]
pub fn draw_result<G, D>(
    label: &MatchLabel<'_>,
    game: &G,
    turns: u32,
    target: &mut D,
) -> Result<(), D::Error>
where
    G: Game,
    D: Canvas,
{
    let layout = Layout::of(target.bounding_box().size);
    target.clear(D::Color::background())?;
    let cols = ratio(
        layout.size.width.saturating_sub(1),
        layout.font.character_size.width,
    );
    let (mut title, mut verdict, mut seats, mut end) = (0i32, 0i32, 0i32, 0i32);
    result_lines(label, game, turns, cols as usize, |_, part| {
        let n = match part {
            Part::Title => &mut title,
            Part::Verdict => &mut verdict,
            Part::Seat(_) => &mut seats,
            Part::End => &mut end,
        };
        *n = n.saturating_add(1);
    });
    let height = px(layout.size.height);
    let loose = layout.line_height();
    let tight = px(layout.font.character_size.height);
    let all = title
        .saturating_add(verdict)
        .saturating_add(seats)
        .saturating_add(end);
    let lh = if all.saturating_mul(loose) <= height.saturating_add(1) {
        loose
    } else {
        tight.max(1)
    };
    let room = height.checked_div(lh).unwrap_or(0);
    // Title and seats always; the verdict's first line next; what is left to the rest.
    let fixed = title.saturating_add(seats);
    let verdict_room = room.saturating_sub(fixed).clamp(1, verdict.max(1));
    let end_room = room.saturating_sub(fixed).saturating_sub(verdict_room);
    let (mut y, mut verdict_left, mut end_left) = (0i32, verdict_room, end_room);
    let mut result = Ok(());
    result_lines(label, game, turns, cols as usize, |line, part| {
        let (show, color) = match part {
            Part::Title => (true, D::Color::text()),
            Part::Verdict => (verdict_left > 0, D::Color::text()),
            Part::Seat(s) => (true, D::Color::seat(s)),
            Part::End => (end_left > 0, D::Color::text()),
        };
        match part {
            Part::Verdict => verdict_left = verdict_left.saturating_sub(1),
            Part::End => end_left = end_left.saturating_sub(1),
            _ => {}
        }
        if show && result.is_ok() {
            result = fitted_text(target, line, Point::new(1, y), color, &layout);
            y = y.saturating_add(lh);
        }
    });
    result
}

/// The panic screen: a title and the message, wrapped.
pub fn draw_panic<D>(message: &str, target: &mut D) -> Result<(), D::Error>
where
    D: Canvas,
{
    let layout = Layout::of(target.bounding_box().size);
    target.clear(D::Color::background())?;
    layout.text(target, "PANIC", Point::new(1, 1), D::Color::alert())?;
    let lh = layout.line_height();
    let mut y = lh.saturating_add(1);
    for chunk in wrap(message, layout.columns() as usize) {
        if y.saturating_add(lh) > px(layout.size.height) {
            break;
        }
        layout.text(target, chunk, Point::new(1, y), D::Color::text())?;
        y = y.saturating_add(lh);
    }
    Ok(())
}

/// Cuts `s` into lines of at most `width` characters, between words where it can (a word longer
/// than a line is cut; ASCII: other characters count as one byte each and a cut never falls inside
/// one). The spaces at a cut are dropped.
pub fn wrap(s: &str, width: usize) -> impl Iterator<Item = &str> {
    let width = width.max(1);
    let mut rest = s;
    core::iter::from_fn(move || {
        rest = rest.trim_start_matches(' ');
        if rest.is_empty() {
            return None;
        }
        let mut cut = rest.len().min(width);
        // Index 0 is always a boundary: this stops there at the latest.
        while !rest.is_char_boundary(cut) {
            cut = cut.saturating_sub(1);
        }
        if cut < rest.len() {
            // The last space at or before the cut, if the line has one: a break between words.
            // A byte search: `str::rfind` goes through `memrchr`, whose slicing is a panic path
            // in the firmware (a space byte is always a character boundary).
            let space = rest
                .as_bytes()
                .get(..cut.saturating_add(1))
                .and_then(|h| h.iter().rposition(|&b| b == b' '));
            if let Some(space) = space.filter(|&i| i > 0) {
                cut = space;
            }
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
        Some(head.trim_end_matches(' '))
    })
}

/// The desktop layout, for a display far larger than a board's (`arena render --display
/// desktop`, the viewer page): the header names the game, its configuration and seed; the board
/// picture fills the left; on the right a panel gives each seat's bot name in its colour with
/// the numbers that matter in its game (written by the game's [`SidePanel::seat_panel`]), and a
/// legend of what the picture's colours and marks mean ([`SidePanel::legend`]).
///
/// Behind the `desktop` feature (the host and the viewer turn it on): the boards' builds do not
/// hold it, and [`Layout::of`] only chooses it for a display at least [`desktop::WIDTH`] x [`desktop::HEIGHT`].
#[cfg(feature = "desktop")]
pub mod desktop {
    use super::*;

    /// The smallest display that gets the desktop layout (a board's is at most 240 wide).
    pub const WIDTH: u32 = 640;
    /// The smallest display height that gets the desktop layout.
    pub const HEIGHT: u32 = 400;
    /// The side panel's width (37 characters of [`FONT`]).
    pub const SIDE_WIDTH: u32 = 340;
    /// The panel's text, and the names in bold.
    pub const FONT: &MonoFont<'static> = &ascii::FONT_9X15;
    /// The seats' names.
    pub const BOLD: &MonoFont<'static> = &ascii::FONT_9X15_BOLD;
    /// A text line's height, and a legend line's (its mark is a [`SWATCH`] square).
    pub const LINE: i32 = 16;
    /// A legend line's height.
    pub const KEY_LINE: i32 = 18;
    /// The side of a name's colour square and of a legend mark.
    pub const SWATCH: u32 = 16;
    /// Where a panel line starts, and where the text after a mark (and a seat's numbers) starts.
    pub const MARGIN: i32 = 6;
    /// Where the text after a mark (and a seat's numbers) starts.
    pub const INDENT: i32 = 28;
    /// Space between the parts of the panel.
    pub const GAP: i32 = 6;
    /// The smallest cell that shows what is drawn inside it (a number, a health bar).
    pub const DETAIL: u32 = 16;

    /// The corner and side of the cell `square`, if it is large enough to show what is drawn
    /// inside it ([`DETAIL`]).
    pub fn detail(square: Rectangle) -> Option<(Point, u32)> {
        let cell = square.size.width;
        (cell >= DETAIL).then_some((square.top_left, cell))
    }

    /// The desktop layout of a display of `size`: the header's large font, the body on the
    /// left with a margin, the side panel on the right.
    pub fn layout(size: Size) -> Layout {
        let font = &ascii::FONT_10X20;
        let header_h = font.character_size.height.saturating_add(2);
        let below = size.height.saturating_sub(header_h);
        let side_w = SIDE_WIDTH.min(size.width / 2);
        let left_w = size.width.saturating_sub(side_w).saturating_sub(2);
        let header = Rectangle::new(Point::zero(), Size::new(size.width, header_h));
        let body = Rectangle::new(
            Point::new(4, px(header_h).saturating_add(4)),
            Size::new(left_w.saturating_sub(8), below.saturating_sub(8)),
        );
        let side = Rectangle::new(
            Point::new(px(size.width.saturating_sub(side_w)), px(header_h)),
            Size::new(side_w, below),
        );
        Layout {
            size,
            font,
            header,
            body,
            side: Some(side),
        }
    }

    /// The whole desktop screen of a game in progress.
    pub(super) fn draw_game<G, D>(
        game: &G,
        label: &MatchLabel<'_>,
        target: &mut D,
        layout: &Layout,
    ) -> Result<(), D::Error>
    where
        G: Screen,
        D: Canvas,
    {
        let title = fmt_line!("{} {} seed {}", label.game, label.config, label.seed);
        let turn = fmt_line!("#{} turn {}", label.number, game.turn());
        header(target, &title, &turn, layout)?;
        game.draw_body(target, layout)?;
        let Some(side) = layout.side else {
            return Ok(());
        };
        let x = side.top_left.x.saturating_sub(2);
        let bottom = px(layout.size.height).saturating_sub(1);
        Line::new(Point::new(x, side.top_left.y), Point::new(x, bottom))
            .into_styled(PrimitiveStyle::with_stroke(D::Color::dim(), 1))
            .draw(target)?;
        let mut panel = Panel::new(target, side);
        game.game_panel(&mut panel)?;
        for seat in 0..game.seats() {
            panel.gap();
            let bot = label
                .bots
                .get(seat.checked_rem(label.bots.len()).unwrap_or(0))
                .copied()
                .unwrap_or("?");
            // A name longer than the line is cut, not dropped (a whole `{bot}` that does not
            // fit would leave the line without it).
            let mut name = fmt_line!("{seat} ");
            for c in bot.chars() {
                if name.push(c).is_err() {
                    break;
                }
            }
            panel.name(seat, &name, game.seat_out(seat))?;
            game.seat_panel(&mut panel)?;
        }
        panel.gap();
        panel.title("Legend", D::Color::text())?;
        game.legend(&mut panel)
    }

    /// The side panel, written from the top a line at a time. A line that would run past the
    /// bottom is left out (and counted in [`Panel::cut`]); text is cut at the right edge.
    pub struct Panel<'t, D: Canvas> {
        target: &'t mut D,
        area: Rectangle,
        y: i32,
        cut: u32,
        seat: usize,
    }

    impl<'t, D: Canvas> Panel<'t, D> {
        /// An empty panel drawing on `target` inside `area`.
        pub fn new(target: &'t mut D, area: Rectangle) -> Self {
            let y = area.top_left.y.saturating_add(GAP);
            Panel {
                target,
                area,
                y,
                cut: 0,
                seat: 0,
            }
        }

        /// Lines left out for want of room.
        pub fn cut(&self) -> u32 {
            self.cut
        }

        /// The seat whose lines the panel is writing: the one of the last [`Panel::name`].
        pub fn seat(&self) -> usize {
            self.seat
        }

        /// The top of the next line.
        pub fn y(&self) -> i32 {
            self.y
        }

        /// Whether a line of `height` still fits; counts it as cut if not.
        fn room(&mut self, height: i32) -> bool {
            let bottom = self
                .area
                .top_left
                .y
                .saturating_add(px(self.area.size.height));
            let fits = self.y.saturating_add(height) <= bottom;
            if !fits {
                self.cut = self.cut.saturating_add(1);
            }
            fits
        }

        /// `s` at `x` (from the panel's left) on the current line in `style`, cut at the right
        /// edge.
        fn put(
            &mut self,
            x: i32,
            s: &str,
            style: MonoTextStyle<'static, D::Color>,
        ) -> Result<(), D::Error> {
            let head = fitting(s, self.area.size.width, x, style.font);
            if !head.is_empty() {
                let at = Point::new(self.area.top_left.x.saturating_add(x), self.y);
                Text::with_baseline(head, at, style, Baseline::Top).draw(self.target)?;
            }
            Ok(())
        }

        /// One line of text at `x` in `font`, if there is room for it.
        fn text_line(
            &mut self,
            x: i32,
            s: &str,
            font: &'static MonoFont<'static>,
            color: D::Color,
        ) -> Result<(), D::Error> {
            if self.room(LINE) {
                self.put(x, s, MonoTextStyle::new(font, color))?;
                self.y = self.y.saturating_add(LINE);
            }
            Ok(())
        }

        /// A heading in bold at the margin.
        pub fn title(&mut self, s: &str, color: D::Color) -> Result<(), D::Error> {
            self.text_line(MARGIN, s, BOLD, color)
        }

        /// A line at the margin.
        pub fn line(&mut self, s: &str, color: D::Color) -> Result<(), D::Error> {
            self.text_line(MARGIN, s, FONT, color)
        }

        /// A line of a seat's numbers, indented under its name.
        pub fn item(&mut self, s: &str, color: D::Color) -> Result<(), D::Error> {
            self.text_line(INDENT, s, FONT, color)
        }

        /// [`Panel::item`] over as many lines as `s` needs, broken between words.
        pub fn items(&mut self, s: &str, color: D::Color) -> Result<(), D::Error> {
            let room = px(self.area.size.width).saturating_sub(INDENT).max(0) as u32;
            let cols = ratio(room, FONT.character_size.width) as usize;
            for line in wrap(s, cols) {
                self.item(line, color)?;
            }
            Ok(())
        }

        /// Seat `seat`'s name line: a square of its colour, then `name` in bold in its colour
        /// (dim when it is `out` of the game). The lines that follow are its own ([`Panel::seat`]).
        pub fn name(&mut self, seat: usize, name: &str, out: bool) -> Result<(), D::Error> {
            self.seat = seat;
            let color = if out {
                D::Color::dim()
            } else {
                D::Color::seat(seat)
            };
            self.marked(name, MonoTextStyle::new(BOLD, color), |t, square| {
                fill_seat(t, square, seat, square.top_left)
            })
        }

        /// A legend line: `mark` draws in the [`SWATCH`] square it is given (as the body draws
        /// that thing in a cell), then `s` says what it means.
        pub fn key(
            &mut self,
            s: &str,
            mark: impl FnOnce(&mut D, Rectangle) -> Result<(), D::Error>,
        ) -> Result<(), D::Error> {
            self.marked(s, MonoTextStyle::new(FONT, D::Color::text()), mark)
        }

        /// A line with a mark, if there is room for it: `mark` draws in the [`SWATCH`] square at
        /// the margin, then `s` follows in `style`.
        fn marked(
            &mut self,
            s: &str,
            style: MonoTextStyle<'static, D::Color>,
            mark: impl FnOnce(&mut D, Rectangle) -> Result<(), D::Error>,
        ) -> Result<(), D::Error> {
            if !self.room(KEY_LINE) {
                return Ok(());
            }
            let square = Rectangle::new(
                Point::new(self.area.top_left.x.saturating_add(MARGIN), self.y),
                Size::new(SWATCH, SWATCH),
            );
            mark(self.target, square)?;
            self.y = self.y.saturating_add(1);
            self.put(INDENT, s, style)?;
            self.y = self.y.saturating_add(KEY_LINE.saturating_sub(1));
            Ok(())
        }

        /// Space between two parts.
        pub fn gap(&mut self) {
            self.y = self.y.saturating_add(GAP);
        }
    }

    /// A count, short: in full below 100,000, else in thousands (`123k`) or millions (`45M`),
    /// rounded down.
    #[derive(Clone, Copy, Debug)]
    pub struct Count(pub u64);

    impl core::fmt::Display for Count {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            match self.0 {
                n if n < 100_000 => write!(f, "{n}"),
                n if n < 100_000_000 => write!(f, "{}k", n / 1_000),
                n => write!(f, "{}M", n / 1_000_000),
            }
        }
    }

    /// A name in capitals with underscores (`SPEED_POTION`) as words (`speed potion`).
    #[derive(Clone, Copy, Debug)]
    pub struct Words<'a>(pub &'a str);

    impl core::fmt::Display for Words<'_> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            for c in self.0.chars() {
                let c = if c == '_' {
                    ' '
                } else {
                    c.to_ascii_lowercase()
                };
                f.write_char(c)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::mock_display::MockDisplay;
    use embedded_graphics::pixelcolor::{Gray4, Rgb565};

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

    /// Every seat's line on the 128x64 result screen shows its bot's name, a defeated seat's
    /// too (its numbers, "defeated t...", pushed the name past the screen's edge).
    #[test]
    #[allow(clippy::unwrap_used)]
    fn the_result_screen_shows_every_seats_bot_name() {
        use arena_core::games::tower_defense::{Params, TowerDefense};
        use arena_core::{rng::bot_seed, step_with_bots, Roster};
        let names = ["strong", "random"];
        let mut g = TowerDefense::new(&Params::default(), 3).unwrap();
        let mut bots: heapless::Vec<_, 2> = names
            .iter()
            .enumerate()
            .filter_map(|(s, n)| TowerDefense::bot(n, bot_seed(3, s)))
            .collect();
        while !g.is_over() {
            step_with_bots(&mut g, &mut bots);
        }
        let d = g.decision().unwrap();
        assert!(d.defeated.iter().flatten().count() > 0, "nobody defeated");
        let label = MatchLabel {
            number: 1,
            game: "tower-defense",
            config: "duel",
            seed: 3,
            bots: &names,
        };
        let layout = Layout::of(Size::new(128, 64));
        let cols = ratio(127, layout.font.character_size.width) as usize;
        let mut seats = 0;
        result_lines(&label, &g, g.turn(), cols, |line, part| {
            if let Part::Seat(s) = part {
                let shown = fitting(line, 128, 1, layout.font);
                assert!(
                    shown.contains(names[s]),
                    "seat {s}: {line:?} shows {shown:?}"
                );
                seats += 1;
            }
        });
        assert_eq!(seats, 2);
    }

    #[test]
    fn wrap_cuts_at_width_and_char_boundaries() {
        let lines: heapless::Vec<&str, 8> = wrap("abcdefg", 3).collect();
        assert_eq!(lines.as_slice(), &["abc", "def", "g"]);
        let lines: heapless::Vec<&str, 8> = wrap("é1", 1).collect();
        assert_eq!(lines.as_slice(), &["é", "1"]);
        // Between words where it can: "five rounds" is never "fi / ve rounds".
        let lines: heapless::Vec<&str, 8> = wrap("Draw t45: five rounds played", 12).collect();
        assert_eq!(lines.as_slice(), &["Draw t45:", "five rounds", "played"]);
    }

    /// A display of any size that counts the pixels drawn outside it instead of dropping them,
    /// and notes the lowest row drawn in the text colour.
    struct Bounded {
        size: Size,
        outside: u32,
        lowest_text: i32,
    }

    impl OriginDimensions for Bounded {
        fn size(&self) -> Size {
            self.size
        }
    }

    impl DrawTarget for Bounded {
        type Color = Gray4;
        type Error = core::convert::Infallible;
        fn draw_iter<I: IntoIterator<Item = Pixel<Gray4>>>(
            &mut self,
            pixels: I,
        ) -> Result<(), Self::Error> {
            for Pixel(p, c) in pixels {
                let (w, h) = (px(self.size.width), px(self.size.height));
                if p.x < 0 || p.y < 0 || p.x >= w || p.y >= h {
                    self.outside += 1;
                } else if c == Gray4::text() {
                    self.lowest_text = self.lowest_text.max(p.y);
                }
            }
            Ok(())
        }
    }

    /// A message far longer than any screen holds, with a word longer than any line.
    const LONG_PANIC: &str = "panicked at core/src/games/some_game/turn.rs:123:45: index out of \
        bounds: the len is 3 but the index is 7; a_word_longer_than_any_line_of_any_display_at_all \
        and then many more words, so that the message runs well past the bottom of every screen \
        the boards have, the small and the large, which must cut it rather than draw off the edge";

    #[test]
    fn the_panic_screen_draws_inside_the_display() {
        // The mock display refuses (panics on) any pixel outside its 64 x 64.
        let mut d: MockDisplay<Rgb565> = MockDisplay::new();
        d.set_allow_overdraw(true);
        draw_panic(LONG_PANIC, &mut d).unwrap();
        assert_eq!(d.get_pixel(Point::new(0, 0)), Some(Rgb565::background()));
        // The boards' displays and a smaller one: nothing outside, and the message fills the
        // screen down to its last text line.
        for (w, h) in [(128, 64), (240, 240), (96, 32)] {
            let mut d = Bounded {
                size: Size::new(w, h),
                outside: 0,
                lowest_text: -1,
            };
            draw_panic(LONG_PANIC, &mut d).unwrap();
            assert_eq!(d.outside, 0, "{w} x {h}: pixels drawn outside the display");
            let layout = Layout::of(Size::new(w, h));
            assert!(
                d.lowest_text >= px(h).saturating_sub(2 * layout.line_height()),
                "{w} x {h}: the message stops at row {} of {h}",
                d.lowest_text
            );
        }
    }
}
