//! Ballroom Blitz: the 10x10 ballroom with its 2x2 control block, each player a square in its
//! seat's colour (an outline once at 0 health); on the right, each seat's score and health.

use arena_core::games::ballroom::{Ballroom, BOARD, CONTROL_BEGIN, CONTROL_END};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

use crate::fmt_line;
use crate::palette::Palette;
use crate::screen::{fitted_text, inset_square, px, shift, Canvas, Layout, Screen};

/// Characters of the side panel: "3 12 5".
const PANEL_CHARS: u32 = 9;

impl Screen for Ballroom {
    const SHORT: &'static str = "Ballroom";

    fn draw_body<D: Canvas>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error> {
        let side = BOARD as u32;
        let place = layout.grid_with_panel(side, side, PANEL_CHARS, self.players().len() as u32);
        let (cell, origin) = (place.cell, place.origin);
        let at = |x: i32, y: i32| {
            shift(
                origin,
                x.saturating_mul(px(cell)),
                y.saturating_mul(px(cell)),
            )
        };
        let whole = cell.saturating_mul(side);
        Rectangle::new(origin, Size::new(whole, whole))
            .into_styled(PrimitiveStyle::with_stroke(D::Color::dim(), 1))
            .draw(target)?;
        let span = cell.saturating_mul((CONTROL_END - CONTROL_BEGIN + 1) as u32);
        Rectangle::new(at(CONTROL_BEGIN, CONTROL_BEGIN), Size::new(span, span))
            .into_styled(PrimitiveStyle::with_fill(D::Color::dim()))
            .draw(target)?;
        let inset = if cell >= 4 { 1 } else { 0 };
        for (seat, p) in self.players().iter().enumerate() {
            let square = inset_square(at(p.pos.x as i32, p.pos.y as i32), cell, inset);
            let style = if p.is_dead() {
                PrimitiveStyle::with_stroke(D::Color::seat(seat), 1)
            } else {
                PrimitiveStyle::with_fill(D::Color::seat(seat))
            };
            square.into_styled(style).draw(target)?;
        }
        let Point { x, mut y } = place.panel;
        for (seat, p) in self.players().iter().enumerate() {
            if y.saturating_add(layout.line_height()) > px(layout.size.height) {
                break;
            }
            fitted_text(
                target,
                &fmt_line!("{} {:>3}s {:>2}h", seat, p.score, p.health),
                Point::new(x, y),
                D::Color::seat(seat),
                layout,
            )?;
            y = y.saturating_add(layout.line_height());
        }
        Ok(())
    }
}
