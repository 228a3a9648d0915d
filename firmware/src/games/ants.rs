//! Ants: the map with water dim, food as bright dots, each ant a square in its seat's colour and
//! each standing hill an outline in it; on the right (or below), each seat's score and ant count.
//! On a 1-bit display each ant is its seat's pattern over at least 2 x 2 pixels (a 1-pixel ant is
//! the same for every seat), each hill the negative of it ([`mono_hill`]) and water a pattern of
//! its own ([`mono_water`]), all counted from the cell's corner, so that they look the same in
//! every cell whatever its size; a map larger than the screen shows several squares a cell.
//!
//! The board plays [`AntsBoard`], a 24 x 24 capacity chosen here through the core's const
//! generics (the core's own MCU build, 48 x 48, is 37.5 KB of state: more than a 64 KB
//! Cortex-M3 can hold twice while `new` builds it), on [`MAP`].

use arena_core::games::ants::{AntsGame, AntsMcuParams, Map, Params};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

use crate::fmt_line;
use crate::palette::{mono_texture, Palette};
use crate::screen::{
    fill_pattern, fill_seat, fitted_text, inset_square, px, shift, Canvas, GridPlace, Layout,
    Screen,
};

/// Squares, ants, food, hills and orders per seat of the board build.
pub const SQUARES: usize = 24 * 24;
/// Ants alive at once (the board build's capacity).
pub const ANTS: usize = 64;
/// Food on the map at once.
pub const FOOD: usize = 64;
/// Hills on a map.
pub const HILLS: usize = 4;
/// Orders one seat may give in one turn.
pub const ORDERS: usize = 64;

/// Ants as the boards play it.
pub type AntsBoard = AntsGame<SQUARES, ANTS, FOOD, HILLS, ORDERS>;
/// The params of Ants as the boards play it.
pub type AntsBoardParams = Params<SQUARES, HILLS>;

/// A 24 x 24 two-player map with two hills each, symmetric under a half turn (what the official
/// food placement needs).
pub const MAP: &str = "rows 24\ncols 24\nplayers 2\n\
m ........................\n\
m ........................\n\
m ............%...........\n\
m ...0........%...........\n\
m ............%...........\n\
m ........................\n\
m ......%%%%%%%%..........\n\
m ........................\n\
m ........................\n\
m ..0.............%.......\n\
m .......%........%.......\n\
m .......%.......%%%%.....\n\
m .....%%%%.......%.......\n\
m .......%........%.......\n\
m .......%.............1..\n\
m ........................\n\
m ........................\n\
m ..........%%%%%%%%......\n\
m ........................\n\
m ...........%............\n\
m ...........%........1...\n\
m ...........%............\n\
m ........................\n\
m ........................\n";

/// The board's match: [`MAP`] for `turns` turns, the official defaults otherwise. Out of line:
/// the parser's temporaries stay in its own frame, not in the match loop's.
#[inline(never)]
pub fn params(turns: u16) -> Option<AntsBoardParams> {
    Map::parse(MAP).ok().map(|map| Params::new(map, turns))
}

/// The official map tutorial1 (43 rows x 39 columns), from the golden data at build time (see
/// firmware/build.rs): the rotation of the boards with the RAM for the core's MCU build plays it.
#[cfg(golden)]
pub const OFFICIAL_MAP: &str = include_str!(concat!(
    env!("ARENA_GOLDEN_DIR"),
    "/ants/maps/tutorial1.map"
));
/// No golden data at build time: no official map.
#[cfg(not(golden))]
pub const OFFICIAL_MAP: &str = "";

/// The official-map match: [`OFFICIAL_MAP`] for `turns` turns in the core's MCU build (37.5 KB of
/// state). `None` when the map was not there at build time.
#[inline(never)]
pub fn official_params(turns: u16) -> Option<AntsMcuParams> {
    Map::parse(OFFICIAL_MAP)
        .ok()
        .map(|map| Params::new(map, turns))
}

/// Whether pixel `(x, y)` of water, counted from its cell's corner, is lit on a 1-bit display:
/// all but one of each 2 x 2, a texture no seat's ants have (seat 0's are solid, as water was).
pub fn mono_water(x: i32, y: i32) -> bool {
    !(x.rem_euclid(2) == 1 && y.rem_euclid(2) == 0)
}

/// Whether pixel `(x, y)` of seat `seat`'s hill, counted from its cell's corner, is lit on a
/// 1-bit display. Every hill leaves the corner dark, which every ant texture and the water light:
/// no hill looks like an ant or like water. Seats 0 to 3 (the boards' matches) get the dense ones.
pub fn mono_hill(seat: usize, x: i32, y: i32) -> bool {
    let (x, y) = (x.rem_euclid(2), y.rem_euclid(2));
    match seat % 6 {
        // Solid ants, a hill solid but for its corner.
        0 => x != 0 || y != 0,
        // The negatives of the diagonal, the top row and the left column.
        1..=3 => !mono_texture(seat, x, y),
        // The negatives of the dot and of seat 5's texture are seat 0's hill and the food's
        // dot: a dot each.
        4 => x == 1 && y == 0,
        _ => x == 0 && y == 1,
    }
}

/// Characters of the panel: "1 12p 34a".
const PANEL_CHARS: u32 = 9;

/// Where `game`'s map and panel go on a display of `depth` bits a pixel: cells of at least 2 x 2
/// on a 1-bit display, where an ant's pattern is all that tells its seat; a map too large for
/// the body shows several squares per cell, and the panel stays on the screen.
pub fn place<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    game: &AntsGame<SQ, A, F, H, O>,
    layout: &Layout,
    depth: u8,
) -> GridPlace {
    let min_cell = if depth == 1 { 2 } else { 1 };
    layout.grid_with_panel_min(
        game.cols() as u32,
        game.rows() as u32,
        PANEL_CHARS,
        game.players() as u32,
        min_cell,
    )
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Screen
    for AntsGame<SQ, A, F, H, O>
{
    const SHORT: &'static str = "Ants";

    /// The match's `turntime` (the rules' settings: 1,000 ms unless set).
    fn turn_limit_us(&self) -> u32 {
        self.turntime().saturating_mul(1000)
    }

    fn draw_body<D: Canvas>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error> {
        let (rows, cols) = (self.rows() as u32, self.cols() as u32);
        let place = place(self, layout, D::Color::DEPTH);
        let cell = place.cell;
        let at = |sq: usize| {
            let sq = sq as u32;
            let (r, c) = (sq.checked_div(cols), sq.checked_rem(cols));
            place.at(c.unwrap_or(0), r.unwrap_or(0))
        };
        let square = |sq: usize| Rectangle::new(at(sq), Size::new(cell, cell));
        for sq in 0..rows.saturating_mul(cols) as usize {
            if !self.is_water(sq) {
                continue;
            }
            if D::Color::DEPTH == 1 {
                fill_pattern(target, square(sq), at(sq), D::Color::dim(), mono_water)?;
            } else {
                square(sq)
                    .into_styled(PrimitiveStyle::with_fill(D::Color::dim()))
                    .draw(target)?;
            }
        }
        let centre = |sq: usize| shift(at(sq), px(cell) / 2, px(cell) / 2);
        for f in self.food() {
            if layout.compact() {
                Pixel(centre(f.sq as usize), D::Color::text()).draw(target)?;
            } else {
                draw_food(target, at(f.sq as usize), cell)?;
            }
        }
        // An outline tells a hill from an ant by its hollow middle, from 3 pixels a cell (at 1
        // nothing can); at 2, and on a 1-bit display where seats differ by pattern alone, a hill
        // is its seat's hill texture.
        let outline = D::Color::DEPTH > 1 && cell != 2;
        for h in self.hills().iter().filter(|h| h.end_turn.is_none()) {
            let (hill, seat) = (square(h.sq as usize), h.owner as usize);
            if outline {
                hill.into_styled(PrimitiveStyle::with_stroke(D::Color::seat(seat), 1))
                    .draw(target)?;
            } else {
                let lit = |x, y| mono_hill(seat, x, y);
                fill_pattern(target, hill, hill.top_left, D::Color::seat(seat), lit)?;
            }
        }
        let inset = if cell >= 4 { 1 } else { 0 };
        for a in self.ants() {
            let ant = inset_square(at(a.sq as usize), cell, inset);
            fill_seat(target, ant, a.owner as usize, ant.top_left)?;
        }
        if !layout.compact() {
            return Ok(());
        }
        let Point { x, mut y } = place.panel;
        for seat in 0..self.players() {
            let color = if self.is_alive(seat) {
                D::Color::seat(seat)
            } else {
                D::Color::dim()
            };
            let text = fmt_line!("{} {}p {}a", seat, self.score(seat), self.ant_count(seat));
            fitted_text(target, &text, Point::new(x, y), color, layout)?;
            y = y.saturating_add(layout.line_height());
        }
        Ok(())
    }
}

/// Food on the desktop: a white square in the middle of its cell (a board shows one pixel).
fn draw_food<D: Canvas>(target: &mut D, at: Point, cell: u32) -> Result<(), D::Error> {
    inset_square(at, cell, cell / 3)
        .into_styled(PrimitiveStyle::with_fill(D::Color::text()))
        .draw(target)
}

/// Without the `desktop` feature there is no side panel: the trait's defaults.
#[cfg(not(feature = "desktop"))]
impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    crate::screen::SidePanel for AntsGame<SQ, A, F, H, O>
{
}

#[cfg(feature = "desktop")]
impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    crate::screen::SidePanel for AntsGame<SQ, A, F, H, O>
{
    fn game_panel<D: Canvas>(
        &self,
        panel: &mut crate::screen::desktop::Panel<'_, D>,
    ) -> Result<(), D::Error> {
        panel.line(
            &fmt_line!(
                "{} x {} map, {} food on it",
                self.cols(),
                self.rows(),
                self.food().len()
            ),
            D::Color::text(),
        )
    }

    fn seat_panel<D: Canvas>(
        &self,
        panel: &mut crate::screen::desktop::Panel<'_, D>,
    ) -> Result<(), D::Error> {
        let seat = panel.seat();
        let hills = self
            .hills()
            .iter()
            .filter(|h| h.owner as usize == seat && h.end_turn.is_none())
            .count();
        let text = D::Color::text();
        panel.item(
            &fmt_line!(
                "ants {}  hills {}  score {}",
                self.ant_count(seat),
                hills,
                self.score(seat)
            ),
            text,
        )?;
        let state = if self.is_killed(seat) {
            "  (stopped)"
        } else if !self.is_alive(seat) {
            "  (no ants)"
        } else {
            ""
        };
        panel.item(
            &fmt_line!("food to spawn {}{}", self.hive_food(seat), state),
            text,
        )
    }

    fn seat_out(&self, seat: usize) -> bool {
        !self.is_alive(seat)
    }

    fn legend<D: Canvas>(
        &self,
        panel: &mut crate::screen::desktop::Panel<'_, D>,
    ) -> Result<(), D::Error> {
        panel.key("ant, in its player's colour", |t, r| {
            let ant = inset_square(r.top_left, r.size.width, 1);
            fill_seat(t, ant, 0, ant.top_left)
        })?;
        panel.key("hill (frame)", |t, r| {
            r.into_styled(PrimitiveStyle::with_stroke(D::Color::seat(0), 1))
                .draw(t)
        })?;
        panel.key("food", |t, r| draw_food(t, r.top_left, r.size.width))?;
        panel.key("water", |t, r| {
            r.into_styled(PrimitiveStyle::with_fill(D::Color::dim()))
                .draw(t)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::Game;

    /// On a 1-bit display, in a 2 x 2 cell: six seats' ants and hills, the water and a food's
    /// dot (at the cell's middle) are fourteen different pictures.
    #[test]
    fn every_1_bit_texture_differs() {
        let picture = |lit: &dyn Fn(i32, i32) -> bool| {
            [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| lit(x, y))
        };
        let mut all = [[false; 4]; 14];
        for seat in 0..6 {
            all[seat] = picture(&|x, y| mono_texture(seat, x, y));
            all[6 + seat] = picture(&|x, y| mono_hill(seat, x, y));
        }
        all[12] = picture(&mono_water);
        all[13] = picture(&|x, y| x == 1 && y == 1);
        for (i, a) in all.iter().enumerate() {
            for b in &all[..i] {
                assert_ne!(a, b, "picture {i}");
            }
        }
    }

    #[test]
    fn the_board_map_sets_up_a_two_player_game() {
        let p = params(200);
        assert!(p.is_some(), "MAP parses");
        let g = p.and_then(|p| AntsBoard::new(&p, 1).ok());
        assert_eq!(
            g.map(|g| g.players()),
            Some(2),
            "MAP is accepted by the rules"
        );
    }
}
