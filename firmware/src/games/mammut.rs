//! Mammut: a table in text. The round and what lies in the middle, then one line per seat: points,
//! tiles in hand, furs; the seat to move is marked `>`, a seat out of the round `x`.
//!
//! Text only: the tiles themselves would not fit a 128x64 screen, and the counts are what the
//! scoring reads.

use arena_core::games::mammut::{Mammut, PLAYERS, ROUNDS};
use embedded_graphics::prelude::*;

use crate::fmt_line;
use crate::palette::Palette;
use crate::screen::{fitted_text, px, Canvas, Layout, Screen};

impl Screen for Mammut {
    const SHORT: &'static str = "Mammut";

    fn draw_body<D: Canvas>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error> {
        // Six lines (the round, five seats): tighten the spacing to the font's height if needed.
        const LINES: i32 = 1 + PLAYERS as i32;
        let lh = layout
            .line_height()
            .min(px(layout.body.size.height) / LINES)
            .max(px(layout.font.character_size.height));
        let mut y = layout.body.top_left.y.saturating_add(1);
        let mut put = |target: &mut D, s: &str, color: D::Color| -> Result<(), D::Error> {
            fitted_text(target, s, Point::new(1, y), color, layout)?;
            y = y.saturating_add(lh);
            Ok(())
        };
        put(
            target,
            &fmt_line!(
                "Round {}/{} middle {}",
                self.round().min(ROUNDS),
                ROUNDS,
                self.middle().len()
            ),
            D::Color::text(),
        )?;
        let mover = self.mover();
        for seat in 0..PLAYERS {
            let mark = if mover == Some(seat) {
                '>'
            } else if self.is_removed(seat) {
                'x'
            } else {
                ' '
            };
            let points = self.points().get(seat).copied().unwrap_or(0);
            let tiles = self.hand(seat).len();
            let furs = self.furs().get(seat).copied().unwrap_or(0);
            put(
                target,
                &fmt_line!("{mark}{seat} {points:>4}p {tiles:>2}t {furs:>2}f"),
                D::Color::seat(seat),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::frame::Gray4Frame;
    use crate::screen::{draw_game, MatchLabel};
    use arena_core::Game;
    use embedded_graphics::pixelcolor::Gray4;

    #[test]
    fn all_five_seats_fit_on_the_small_oled() {
        let game = Mammut::new(&arena_core::games::mammut::Params, 3).unwrap();
        let mut frame = Gray4Frame::new();
        let label = MatchLabel {
            number: 0,
            game: "mammut",
            config: "five",
            seed: 3,
            bots: &["a"],
        };
        draw_game(&game, &label, &mut frame).unwrap();
        // Seat 4's line is the last one: its colour shows in the bottom rows.
        let seat4 = Gray4::seat(4).luma();
        let bottom = (54..64).any(|y| (0..128).any(|x| frame.luma(x, y) == seat4));
        assert!(bottom, "seat 4 is drawn at the bottom of the screen");
    }
}
