//! ColorFight: the grid in the seats' colours, mines and bases marked, attacks outlined in the
//! attacker's colour; on the right, each seat's cell count.
//!
//! On a 1-bit display each seat fills its cells with its own texture ([`mono_texture`]) and empty
//! cells stay blank. Cells too small for a marked centre (1 or 2 pixels: a 30 x 30 grid on the
//! 128x64 OLED) show a mine as one pixel in the alert colour (on a 1-bit display: the one pixel
//! that differs from the owner's texture).

use arena_core::games::colorfight::{Building, ColorFight, Kind};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

use crate::fmt_line;
use crate::palette::{mono_texture, Palette};
use crate::screen::{fill_seat, inset_square, px, shift, side_column, Canvas, Layout, Screen};

/// Characters of the side panel: "3 123".
pub const PANEL_CHARS: u32 = 6;

impl Screen for ColorFight {
    const SHORT: &'static str = "ColorFight";

    /// One tick is 100 ms: an answer within the tick.
    fn turn_limit_us(&self) -> u32 {
        100_000
    }

    fn draw_body<D: Canvas>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error> {
        let (w, h) = (self.width() as u32, self.height() as u32);
        let seats = self.players().len() as u32;
        let place = layout.grid_with_panel(w, h, PANEL_CHARS, seats);
        let (cell, origin) = (place.cell, place.origin);
        let mono = D::Color::DEPTH == 1;
        for (idx, c) in self
            .cells()
            .iter()
            .enumerate()
            .take(w.saturating_mul(h) as usize)
        {
            let (x, y) = self.coords(idx);
            let at = shift(
                origin,
                x.saturating_mul(px(cell)),
                y.saturating_mul(px(cell)),
            );
            let square = Rectangle::new(at, Size::new(cell, cell));
            let inner = inset_square(at, cell, 1);
            match c.owner_seat() {
                Some(s) => fill_seat(target, square, s, Point::zero())?,
                None if cell >= 3 && !mono => {
                    Pixel(shift(at, px(cell) / 2, px(cell) / 2), D::Color::dim()).draw(target)?
                }
                None => {}
            }
            if cell < 3 && c.kind != Kind::Normal {
                let lit = mono && c.owner_seat().is_some_and(|s| mono_texture(s, at.x, at.y));
                let color = if lit {
                    D::Color::background()
                } else {
                    D::Color::alert()
                };
                Pixel(at, color).draw(target)?;
            }
            if cell >= 3 {
                let centre = inset_square(at, cell, cell / 3);
                match c.kind {
                    Kind::Normal => {}
                    Kind::Gold => centre
                        .into_styled(PrimitiveStyle::with_fill(D::Color::text()))
                        .draw(target)?,
                    Kind::Energy => centre
                        .into_styled(PrimitiveStyle::with_fill(D::Color::alert()))
                        .draw(target)?,
                }
                if c.building != Building::None {
                    inner
                        .into_styled(PrimitiveStyle::with_stroke(D::Color::background(), 1))
                        .draw(target)?;
                }
            }
            if let Some(a) = c.attacker_seat() {
                let color = if c.owner_seat() == Some(a) {
                    D::Color::text()
                } else {
                    D::Color::seat(a)
                };
                square
                    .into_styled(PrimitiveStyle::with_stroke(color, 1))
                    .draw(target)?;
            }
        }
        if !layout.compact() {
            return Ok(());
        }
        let lines = self.players().iter().enumerate().map(|(seat, p)| {
            let color = if p.defeated {
                D::Color::dim()
            } else {
                D::Color::seat(seat)
            };
            (fmt_line!("{} {}", seat, p.cells), color)
        });
        side_column(target, place.panel, layout, lines)
    }
}

/// Without the `desktop` feature there is no side panel: the trait's defaults.
#[cfg(not(feature = "desktop"))]
impl crate::screen::SidePanel for ColorFight {}

/// The desktop's panel: each seat's land, purse, bases and mines; the legend.
#[cfg(feature = "desktop")]
mod desktop {
    use super::*;
    use crate::screen::desktop::Panel;
    use arena_core::games::colorfight::{Num, Variant, MAX_BASES};

    /// A fixed-point amount with one decimal, rounded down (`123.4`).
    pub struct Tenths(pub Num);

    impl core::fmt::Display for Tenths {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            // 32 fractional bits: tenths are `bits * 10 >> 32`, in i128 so nothing overflows.
            let tenths = i128::from(self.0.to_bits()).saturating_mul(10) >> 32;
            let sign = if tenths < 0 { "-" } else { "" };
            let t = tenths.unsigned_abs();
            write!(f, "{sign}{}.{}", t / 10, t % 10)
        }
    }

    impl crate::screen::SidePanel for ColorFight {
        fn seat_panel<D: Canvas>(&self, panel: &mut Panel<'_, D>) -> Result<(), D::Error> {
            let seat = panel.seat();
            let Some(p) = self.player(seat) else {
                return Ok(());
            };
            let text = D::Color::text();
            let mut first = fmt_line!("cells {}  score {}", p.cells, self.score(seat));
            if p.defeated {
                let _ = core::fmt::Write::write_fmt(
                    &mut first,
                    format_args!("  out at {}", p.defeated_at),
                );
            }
            panel.item(&first, text)?;
            panel.item(
                &fmt_line!("gold {}  energy {}", Tenths(p.gold), Tenths(p.energy)),
                text,
            )?;
            let building = if p.all_bases() > p.bases {
                " +1 built"
            } else {
                ""
            };
            let mut mines = fmt_line!("bases {}/{}{}", p.bases, MAX_BASES, building);
            if self.variant() == Variant::Conquest {
                let _ = core::fmt::Write::write_fmt(
                    &mut mines,
                    format_args!("  mines {}g {}e", p.gold_mines, p.energy_mines),
                );
            }
            panel.item(&mines, text)
        }

        fn seat_out(&self, seat: usize) -> bool {
            self.player(seat).is_some_and(|p| p.defeated)
        }

        fn legend<D: Canvas>(&self, panel: &mut Panel<'_, D>) -> Result<(), D::Error> {
            let cell = |t: &mut D, r: Rectangle| fill_seat(t, r, 0, Point::zero());
            panel.key("land, in its owner's colour", cell)?;
            if self.variant() == Variant::Conquest {
                let mine = |centre: D::Color| {
                    move |t: &mut D, r: Rectangle| {
                        cell(t, r)?;
                        inset_square(r.top_left, r.size.width, r.size.width / 3)
                            .into_styled(PrimitiveStyle::with_fill(centre))
                            .draw(t)
                    }
                };
                panel.key("gold mine (white centre)", mine(D::Color::text()))?;
                panel.key("energy mine (red centre)", mine(D::Color::alert()))?;
            }
            panel.key("base (dark inner frame)", |t, r| {
                cell(t, r)?;
                inset_square(r.top_left, r.size.width, 1)
                    .into_styled(PrimitiveStyle::with_stroke(D::Color::background(), 1))
                    .draw(t)
            })?;
            panel.key("under attack: attacker's frame", |t, r| {
                cell(t, r)?;
                r.into_styled(PrimitiveStyle::with_stroke(D::Color::seat(1), 1))
                    .draw(t)
            })?;
            panel.key("nobody's cell", crate::screen::centre_dot)
        }
    }
}
