//! Tower Defense: each path of 100 spaces folded into a 10 x 10 serpentine (row 0 left to right,
//! row 1 right to left...), so the path stays continuous on a small screen; Duel's two paths side by
//! side. A tower is an outline in its builder's colour (a bomb also gets a centre dot, a stunner a
//! bar), an invader a filled square in its spawner's colour; on the right, each seat's life and
//! gold.
//!
//! On a 1-bit display invaders are filled and towers outlined, whoever owns them.

use arena_core::games::tower_defense::{TowerDefense, TowerKind, SPACES};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

use crate::fmt_line;
use crate::palette::Palette;
use crate::screen::{fitted_text, inset_square, px, shift, Canvas, Layout, Screen};

const SIDE: u32 = 10;
const SIDE_LEN: usize = SIDE as usize;
/// Characters of the side panel: "L100", "G1234".
const PANEL_CHARS: u32 = 6;

/// Where space `pos` of a path sits in its 10 x 10 serpentine.
pub fn fold(pos: usize) -> (u32, u32) {
    let row = (pos / SIDE_LEN) as u32;
    let col = (pos % SIDE_LEN) as u32;
    let x = if row.is_multiple_of(2) {
        col
    } else {
        (SIDE - 1).saturating_sub(col)
    };
    (x, row)
}

impl Screen for TowerDefense {
    const SHORT: &'static str = "TD";

    fn draw_body<D: Canvas>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error> {
        let boards = self.boards() as u32;
        let cols = SIDE
            .saturating_mul(boards)
            .saturating_add(boards.saturating_sub(1));
        let place = layout.grid_with_panel(cols, SIDE, PANEL_CHARS, 4);
        let (cell, origin) = (place.cell, place.origin);
        let seats = 2;
        let spawner = |b: usize| (0..seats).find(|&s| self.attacked_board(s) == Some(b));
        let builder = |b: usize| (0..seats).find(|&s| self.defended_board(s) == Some(b));
        for b in 0..boards as usize {
            let left = shift(
                origin,
                px((b as u32).saturating_mul(SIDE + 1).saturating_mul(cell)),
                0,
            );
            let invader_color = D::Color::seat(spawner(b).unwrap_or(0));
            let tower_color = D::Color::seat(builder(b).unwrap_or(1));
            let (invaders, towers) = self.masks(b);
            for pos in 0..SPACES {
                let (x, y) = fold(pos);
                let at = shift(left, px(x.saturating_mul(cell)), px(y.saturating_mul(cell)));
                let square = Rectangle::new(at, Size::new(cell, cell));
                let bit = 1u128 << pos;
                if towers & bit != 0 {
                    square
                        .into_styled(PrimitiveStyle::with_stroke(tower_color, 1))
                        .draw(target)?;
                    if cell >= 5 {
                        let mark = match self.tower(b, pos).map(|t| t.kind) {
                            Some(TowerKind::Bomb) => Some(Size::new(1, 1)),
                            Some(TowerKind::Stunner) => Some(Size::new(cell.saturating_sub(4), 1)),
                            _ => None,
                        };
                        if let Some(size) = mark {
                            let c = shift(at, px(cell) / 2, px(cell) / 2);
                            let x0 = c.x.saturating_sub(px(size.width) / 2);
                            Rectangle::new(Point::new(x0, c.y), size)
                                .into_styled(PrimitiveStyle::with_fill(tower_color))
                                .draw(target)?;
                        }
                    }
                } else if D::Color::DEPTH > 1 {
                    // The path as dim dots (left out on 1-bit displays, where they would look
                    // like invaders).
                    let mid = shift(at, px(cell) / 2, px(cell) / 2);
                    Pixel(mid, D::Color::dim()).draw(target)?;
                }
                if invaders & bit != 0 {
                    let inset = if cell >= 4 { 1 } else { 0 };
                    inset_square(at, cell, inset)
                        .into_styled(PrimitiveStyle::with_fill(invader_color))
                        .draw(target)?;
                }
            }
        }
        let Point { x, mut y } = place.panel;
        for seat in 0..seats {
            for text in [
                fmt_line!("L{}", self.life(seat)),
                fmt_line!("G{}", self.gold(seat)),
            ] {
                if y.saturating_add(layout.line_height()) > px(layout.size.height) {
                    break;
                }
                fitted_text(
                    target,
                    &text,
                    Point::new(x, y),
                    D::Color::seat(seat),
                    layout,
                )?;
                y = y.saturating_add(layout.line_height());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fold_is_a_continuous_serpentine() {
        assert_eq!(fold(0), (0, 0));
        assert_eq!(fold(9), (9, 0));
        assert_eq!(fold(10), (9, 1));
        assert_eq!(fold(19), (0, 1));
        assert_eq!(fold(99), (0, 9));
        for p in 1..SPACES {
            let (a, b) = (fold(p - 1), fold(p));
            let step = a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
            assert_eq!(step, 1, "spaces {} and {p} are neighbours", p - 1);
        }
    }
}
