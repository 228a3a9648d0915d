//! Ballroom Blitz: the 10x10 ballroom with its 2x2 control block, each player a square in its
//! seat's colour (an outline once at 0 health); on the right, each seat's score and health.

#[cfg(feature = "desktop")]
use arena_core::games::ballroom::Pos;
use arena_core::games::ballroom::{Ballroom, BOARD, CONTROL_BEGIN, CONTROL_END};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

use crate::fmt_line;
use crate::palette::Palette;
use crate::screen::{piece, px, shift, side_column, Canvas, Layout, Screen};

/// Characters of the side panel: "3 12 5".
const PANEL_CHARS: u32 = 9;

impl Screen for Ballroom {
    const SHORT: &'static str = "Ballroom";

    /// 2 s a phase, as in the reference engine.
    fn turn_limit_us(&self) -> u32 {
        2_000_000
    }

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
        let square = |x: i32, y: i32| Rectangle::new(at(x, y), Size::new(cell, cell));
        let whole = cell.saturating_mul(side);
        Rectangle::new(origin, Size::new(whole, whole))
            .into_styled(PrimitiveStyle::with_stroke(D::Color::dim(), 1))
            .draw(target)?;
        let span = cell.saturating_mul((CONTROL_END - CONTROL_BEGIN + 1) as u32);
        Rectangle::new(at(CONTROL_BEGIN, CONTROL_BEGIN), Size::new(span, span))
            .into_styled(PrimitiveStyle::with_fill(D::Color::dim()))
            .draw(target)?;
        #[cfg(feature = "desktop")]
        if !layout.compact() {
            for seat in 0..self.players().len() {
                let home = Pos::spawn(seat);
                desktop::home(target, square(home.x as i32, home.y as i32), seat)?;
            }
        }
        for (seat, p) in self.players().iter().enumerate() {
            let square = square(p.pos.x as i32, p.pos.y as i32);
            draw_player(target, square, seat, p.is_dead())?;
            #[cfg(feature = "desktop")]
            if !layout.compact() {
                desktop::player(target, square, p)?;
            }
        }
        if !layout.compact() {
            return Ok(());
        }
        let lines = self.players().iter().enumerate().map(|(seat, p)| {
            let text = fmt_line!("{} {:>3}s {:>2}h", seat, p.score, p.health);
            (text, D::Color::seat(seat))
        });
        side_column(target, place.panel, layout, lines)
    }
}

/// A player in the cell `square`: a square in its seat's colour, an outline at 0 health.
fn draw_player<D: Canvas>(
    target: &mut D,
    square: Rectangle,
    seat: usize,
    down: bool,
) -> Result<(), D::Error> {
    let style = if down {
        PrimitiveStyle::with_stroke(D::Color::seat(seat), 1)
    } else {
        PrimitiveStyle::with_fill(D::Color::seat(seat))
    };
    piece(square).into_styled(style).draw(target)
}

/// Without the `desktop` feature there is no side panel: the trait's defaults.
#[cfg(not(feature = "desktop"))]
impl crate::screen::SidePanel for Ballroom {}

/// The desktop's details (each player's class and health on its square, the home corners) and
/// its panel.
#[cfg(feature = "desktop")]
mod desktop {
    use super::*;
    use crate::screen::desktop::{detail, Panel, Words};
    use crate::screen::inset_square;
    use arena_core::games::ballroom::{Item, Player, CONTROL_POINTS};
    use embedded_graphics::mono_font::{ascii, MonoFont, MonoTextStyle};
    use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};

    /// A seat's home corner (where it comes back to full health): a thin outline in its colour.
    pub fn home<D: Canvas>(target: &mut D, square: Rectangle, seat: usize) -> Result<(), D::Error> {
        let cell = square.size.width;
        inset_square(square.top_left, cell, cell / 8)
            .into_styled(PrimitiveStyle::with_stroke(D::Color::seat(seat), 1))
            .draw(target)
    }

    /// A player's class letter in the middle of its square (in the background's colour, or in
    /// its own when it is down to an outline), and its health as a bar along the bottom, in a
    /// cell large enough for them ([`detail`]).
    pub fn player<D: Canvas>(
        target: &mut D,
        square: Rectangle,
        p: &Player,
    ) -> Result<(), D::Error> {
        let Some((at, cell)) = detail(square) else {
            return Ok(());
        };
        let font: &MonoFont<'static> = if cell >= 32 {
            &ascii::FONT_10X20
        } else {
            &ascii::FONT_6X10
        };
        let letter = p.class.name().get(..1).unwrap_or("?");
        let color = if p.is_dead() {
            D::Color::text()
        } else {
            D::Color::background()
        };
        let centre = shift(at, px(cell) / 2, px(cell) / 2);
        let style = TextStyleBuilder::new()
            .alignment(Alignment::Center)
            .baseline(Baseline::Middle)
            .build();
        Text::with_text_style(letter, centre, MonoTextStyle::new(font, color), style)
            .draw(target)?;
        let inner = cell.saturating_sub(6);
        let bar = shift(at, 3, px(cell).saturating_sub(7));
        Rectangle::new(bar, Size::new(inner, 3))
            .into_styled(PrimitiveStyle::with_fill(D::Color::background()))
            .draw(target)?;
        let max = p.stats().max_health.max(1) as u32;
        let health = p.health.max(0) as u32;
        let filled = inner
            .saturating_mul(health)
            .checked_div(max)
            .unwrap_or(0)
            .min(inner);
        Rectangle::new(bar, Size::new(filled, 3))
            .into_styled(PrimitiveStyle::with_fill(D::Color::text()))
            .draw(target)
    }

    impl crate::screen::SidePanel for Ballroom {
        fn seat_panel<D: Canvas>(&self, panel: &mut Panel<'_, D>) -> Result<(), D::Error> {
            let Some(p) = self.player(panel.seat()) else {
                return Ok(());
            };
            let text = D::Color::text();
            let stats = p.stats();
            panel.item(
                &fmt_line!(
                    "{} health {}/{} score {}",
                    Words(p.class.name()),
                    p.health,
                    stats.max_health,
                    p.score
                ),
                text,
            )?;
            let mut item = fmt_line!("gold {}  item {}", p.gold, Words(p.item.name()));
            if p.effect_timer > 0 && p.in_effect != Item::None {
                let _ = core::fmt::Write::write_fmt(
                    &mut item,
                    format_args!(" ({} on)", Words(p.in_effect.name())),
                );
            }
            panel.items(&item, text)?;
            panel.item(
                &fmt_line!(
                    "damage {} speed {} range {} at {},{}",
                    stats.damage,
                    stats.speed,
                    stats.range,
                    p.pos.x,
                    p.pos.y
                ),
                text,
            )
        }

        fn legend<D: Canvas>(&self, panel: &mut Panel<'_, D>) -> Result<(), D::Error> {
            let knight = Player::new(arena_core::games::ballroom::Class::Knight, 0);
            panel.key("player, K W A: knight wizard archer", |t, r| {
                draw_player(t, r, 0, false)
            })?;
            panel.key("white bar: health left", |t, r| {
                draw_player(t, r, 0, false)?;
                player(t, r, &knight)
            })?;
            panel.key("a player at 0 health", |t, r| draw_player(t, r, 0, true))?;
            panel.key("home corner: back to full health", |t, r| home(t, r, 0))?;
            panel.key(
                &fmt_line!("control block: {} points a turn", CONTROL_POINTS),
                |t, r| {
                    r.into_styled(PrimitiveStyle::with_fill(D::Color::dim()))
                        .draw(t)
                },
            )
        }
    }
}
