//! Mammut: a table in text. The round and what lies in the middle, then one line per seat: points,
//! tiles in hand, furs; the seat to move is marked `>`, a seat out of the round `x`.
//!
//! Text only: the tiles themselves would not fit a 128x64 screen, and the counts are what the
//! scoring reads.

use arena_core::games::mammut::{Mammut, PLAYERS, ROUNDS};
use embedded_graphics::prelude::*;

use crate::fmt_line;
use crate::palette::Palette;
use crate::screen::{fitted_text, Layout, Screen};

impl Screen for Mammut {
    const SHORT: &'static str = "Mammut";

    fn draw_body<D>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error>
    where
        D: DrawTarget,
        D::Color: Palette,
    {
        let lh = layout.line_height();
        let mut y = layout.body.top_left.y + 1;
        let mut put = |target: &mut D, s: &str, color: D::Color| -> Result<(), D::Error> {
            if y + lh <= layout.size.height as i32 {
                fitted_text(target, s, Point::new(1, y), color, layout)?;
            }
            y += lh;
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
