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

    /// 5 s an action, as the host gives a bot.
    fn turn_limit_us(&self) -> u32 {
        5_000_000
    }

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

/// Without the `desktop` feature there is no side panel: the trait's defaults.
#[cfg(not(feature = "desktop"))]
impl crate::screen::SidePanel for Mammut {}

#[cfg(feature = "desktop")]
impl crate::screen::SidePanel for Mammut {
    fn game_panel<D: Canvas>(
        &self,
        panel: &mut crate::screen::desktop::Panel<'_, D>,
    ) -> Result<(), D::Error> {
        let text = D::Color::text();
        panel.line(
            &fmt_line!(
                "Round {}/{}, {} tiles in the middle",
                self.round().min(ROUNDS),
                ROUNDS,
                self.middle().len()
            ),
            text,
        )?;
        match self.mover() {
            Some(seat) => panel.line(&fmt_line!("seat {seat} to move"), text),
            None => panel.line("game over", text),
        }
    }

    fn seat_panel<D: Canvas>(
        &self,
        panel: &mut crate::screen::desktop::Panel<'_, D>,
    ) -> Result<(), D::Error> {
        let seat = panel.seat();
        use arena_core::games::mammut::Side;
        let text = D::Color::text();
        let points = self.points().get(seat).copied().unwrap_or(0);
        let furs = self.furs().get(seat).copied().unwrap_or(0);
        let animals = self.animals().get(seat).map_or(0, |a| a.count_ones());
        panel.item(
            &fmt_line!("points {points}  furs {furs}  animals {animals}"),
            text,
        )?;
        if self.mover() == Some(seat) {
            panel.item("> to move", text)?;
        } else if self.is_removed(seat) {
            panel.item("x out of this round", text)?;
        }
        let hand = self.hand(seat);
        let mut line = heapless::String::<256>::new();
        let _ = core::fmt::Write::write_fmt(&mut line, format_args!("hand {}:", hand.len()));
        let mut sep = " ";
        for side in Side::ALL {
            let n = hand.showing(side, self.deal()).len();
            if n > 0 {
                let _ = core::fmt::Write::write_fmt(
                    &mut line,
                    format_args!("{sep}{} {n}", side.name()),
                );
                sep = ", ";
            }
        }
        panel.items(&line, D::Color::seat(seat))
    }

    fn seat_out(&self, seat: usize) -> bool {
        self.is_removed(seat)
    }

    fn legend<D: Canvas>(
        &self,
        panel: &mut crate::screen::desktop::Panel<'_, D>,
    ) -> Result<(), D::Error> {
        let text = D::Color::text();
        panel.line("left, a line a seat: p points,", text)?;
        panel.line("t tiles in hand, f furs;", text)?;
        panel.line("> the seat to move,", text)?;
        panel.line("x a seat out of this round", text)?;
        panel.line("a hand counts the sides its tiles", text)?;
        panel.line("show (Mystery until scoring)", text)
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
