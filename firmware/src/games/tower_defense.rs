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
use crate::screen::{piece, px, shift, side_column, Canvas, Layout, Screen};

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

    /// Rules 6: 10 ms a turn on average (Duel), 15 ms (Siege).
    fn turn_limit_us(&self) -> u32 {
        match self.variant() {
            arena_core::games::tower_defense::Variant::Siege => 15_000,
            _ => 10_000,
        }
    }

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
                    let tower = self.tower(b, pos);
                    draw_tower(target, square, tower.map(|t| t.kind), tower_color)?;
                    #[cfg(feature = "desktop")]
                    if !layout.compact() {
                        if let Some(t) = tower {
                            desktop::level(target, square, t.level, tower_color)?;
                        }
                    }
                } else if D::Color::DEPTH > 1 {
                    // The path as dim dots (left out on 1-bit displays, where they would look
                    // like invaders).
                    let mid = shift(at, px(cell) / 2, px(cell) / 2);
                    Pixel(mid, D::Color::dim()).draw(target)?;
                }
                if invaders & bit != 0 {
                    draw_invader(target, square, invader_color)?;
                    #[cfg(feature = "desktop")]
                    if !layout.compact() {
                        if let Some(i) = self.invader(b, pos) {
                            desktop::health(target, square, &i)?;
                        }
                    }
                }
            }
        }
        if !layout.compact() {
            return Ok(());
        }
        let lines = (0..seats).flat_map(|seat| {
            let (life, gold) = (self.life(seat), self.gold(seat));
            [fmt_line!("L{life}"), fmt_line!("G{gold}")].map(|text| (text, D::Color::seat(seat)))
        });
        side_column(target, place.panel, layout, lines)
    }
}

/// A tower in the cell `square`: an outline in its builder's colour, a bomb with a centre dot, a
/// stunner with a bar across (when the cell is large enough for them).
fn draw_tower<D: Canvas>(
    target: &mut D,
    square: Rectangle,
    kind: Option<TowerKind>,
    color: D::Color,
) -> Result<(), D::Error> {
    let (at, cell) = (square.top_left, square.size.width);
    square
        .into_styled(PrimitiveStyle::with_stroke(color, 1))
        .draw(target)?;
    if cell >= 5 {
        let mark = match kind {
            Some(TowerKind::Bomb) => Some(Size::new(1, 1)),
            Some(TowerKind::Stunner) => Some(Size::new(cell.saturating_sub(4), 1)),
            _ => None,
        };
        if let Some(size) = mark {
            let c = shift(at, px(cell) / 2, px(cell) / 2);
            let x0 = c.x.saturating_sub(px(size.width) / 2);
            Rectangle::new(Point::new(x0, c.y), size)
                .into_styled(PrimitiveStyle::with_fill(color))
                .draw(target)?;
        }
    }
    Ok(())
}

/// An invader in the cell `square`: a filled square in its spawner's colour.
fn draw_invader<D: Canvas>(
    target: &mut D,
    square: Rectangle,
    color: D::Color,
) -> Result<(), D::Error> {
    piece(square)
        .into_styled(PrimitiveStyle::with_fill(color))
        .draw(target)
}

/// Without the `desktop` feature there is no side panel: the trait's defaults.
#[cfg(not(feature = "desktop"))]
impl crate::screen::SidePanel for TowerDefense {}

/// The desktop's details: each tower's level, each invader's health and stun, and the panel.
#[cfg(feature = "desktop")]
mod desktop {
    use super::*;
    use crate::screen::desktop::{detail, Count, Panel};
    use arena_core::games::tower_defense::InvaderView;
    use embedded_graphics::mono_font::{ascii, MonoFont, MonoTextStyle};
    use embedded_graphics::text::{Baseline, Text};

    /// The font of the numbers inside a cell.
    const SMALL: &MonoFont<'static> = &ascii::FONT_6X10;

    /// `s` with its top-left corner at `at`, if it fits in `room` pixels across.
    fn small<D: Canvas>(
        target: &mut D,
        s: &str,
        at: Point,
        room: u32,
        color: D::Color,
    ) -> Result<(), D::Error> {
        let width = SMALL.character_size.width.saturating_mul(s.len() as u32);
        if width <= room {
            Text::with_baseline(s, at, MonoTextStyle::new(SMALL, color), Baseline::Top)
                .draw(target)?;
        }
        Ok(())
    }

    /// A tower's level, in its top-left corner (in a cell large enough: [`detail`]).
    pub fn level<D: Canvas>(
        target: &mut D,
        square: Rectangle,
        level: u32,
        color: D::Color,
    ) -> Result<(), D::Error> {
        let Some((at, cell)) = detail(square) else {
            return Ok(());
        };
        let room = cell.saturating_sub(4);
        small(target, &fmt_line!("{level}"), shift(at, 2, 2), room, color)
    }

    /// An invader's hit points left as a bar along its bottom (white over black), and `z` with
    /// the turns it stays stunned in its top-left corner (in a cell large enough: [`detail`]).
    pub fn health<D: Canvas>(
        target: &mut D,
        square: Rectangle,
        i: &InvaderView,
    ) -> Result<(), D::Error> {
        let Some((at, cell)) = detail(square) else {
            return Ok(());
        };
        let inner = cell.saturating_sub(4);
        let bar = shift(at, 2, px(cell).saturating_sub(5));
        Rectangle::new(bar, Size::new(inner, 3))
            .into_styled(PrimitiveStyle::with_fill(D::Color::background()))
            .draw(target)?;
        let filled = u64::from(inner)
            .saturating_mul(u64::from(i.hp))
            .checked_div(u64::from(i.maxhp))
            .unwrap_or(0)
            .min(u64::from(inner)) as u32;
        // A live invader shows at least one pixel of health.
        let filled = if i.hp > 0 { filled.max(1) } else { 0 };
        Rectangle::new(bar, Size::new(filled, 3))
            .into_styled(PrimitiveStyle::with_fill(D::Color::text()))
            .draw(target)?;
        if i.stun_time > 0 {
            let s = fmt_line!("z{}", i.stun_time);
            small(target, &s, shift(at, 2, 2), inner, D::Color::background())?;
        }
        Ok(())
    }

    /// At most this many invaders are listed per path, the furthest along first.
    pub const LEADERS: usize = 3;

    /// The panel line of one invader: where it is, its hit points, defence and stun.
    pub fn invader_line(i: &InvaderView) -> crate::screen::Line64 {
        let mut line = fmt_line!(
            "@{:<2} hp {}/{} def {}",
            i.pos,
            Count(u64::from(i.hp)),
            Count(u64::from(i.maxhp)),
            i.defense
        );
        if i.stun_time > 0 {
            let _ = core::fmt::Write::write_fmt(&mut line, format_args!(" stun {}", i.stun_time));
        }
        line
    }

    impl crate::screen::SidePanel for TowerDefense {
        fn seat_panel<D: Canvas>(&self, panel: &mut Panel<'_, D>) -> Result<(), D::Error> {
            let seat = panel.seat();
            let text = D::Color::text();
            let gold = Count(self.gold(seat));
            let income = self
                .players()
                .and_then(|p| p.get(seat))
                .map(|p| p.income)
                .or_else(|| {
                    self.siege()
                        .filter(|_| self.attacked_board(seat).is_some())
                        .map(|(a, _)| a.income)
                });
            let mut first = match self.defended_board(seat) {
                Some(_) => fmt_line!("life {}  gold {}", self.life(seat), gold),
                None => fmt_line!("gold {}", gold),
            };
            if let Some(income) = income {
                let _ = core::fmt::Write::write_fmt(&mut first, format_args!("  income {income}"));
            }
            panel.item(&first, text)?;
            if let Some(b) = self.defended_board(seat) {
                let mut kinds = [0u32; 3];
                let (mut count, mut top) = (0u32, 0u32);
                for t in self.towers(b) {
                    let k = match t.kind {
                        TowerKind::Turret => 0,
                        TowerKind::Stunner => 1,
                        TowerKind::Bomb => 2,
                    };
                    if let Some(n) = kinds.get_mut(k) {
                        *n = n.saturating_add(1);
                    }
                    count = count.saturating_add(1);
                    top = top.max(t.level);
                }
                let [turrets, stunners, bombs] = kinds;
                panel.item(
                    &fmt_line!("towers {count}: {turrets}T {stunners}S {bombs}B, top level {top}"),
                    text,
                )?;
            }
            if let Some(b) = self.attacked_board(seat) {
                let count = self.invaders(b).count();
                let side = match (self.boards(), b) {
                    (1, _) => "the",
                    (_, 0) => "the left",
                    _ => "the right",
                };
                panel.item(&fmt_line!("invaders {count} on {side} path"), text)?;
                for i in (0..SPACES)
                    .rev()
                    .filter_map(|p| self.invader(b, p))
                    .take(LEADERS)
                {
                    panel.item(&invader_line(&i), D::Color::seat(seat))?;
                }
            }
            Ok(())
        }

        fn legend<D: Canvas>(&self, panel: &mut Panel<'_, D>) -> Result<(), D::Error> {
            let (a, d) = (D::Color::seat(0), D::Color::seat(1));
            panel.key("invader, in its sender's colour", |t, r| {
                draw_invader(t, r, a)
            })?;
            let sample = InvaderView {
                pos: 0,
                hp: 2,
                maxhp: 3,
                defense: 0,
                stun_res: 0,
                stun_time: 0,
            };
            panel.key("white bar: hit points left", |t, r| {
                draw_invader(t, r, a)?;
                health(t, r, &sample)
            })?;
            panel.key("z2: stunned for 2 more turns", |t, r| {
                draw_invader(t, r, a)?;
                let stunned = InvaderView {
                    stun_time: 2,
                    ..sample
                };
                health(t, r, &stunned)
            })?;
            panel.key("turret, in its builder's colour", |t, r| {
                draw_tower(t, r, Some(TowerKind::Turret), d)
            })?;
            panel.key("stunner (bar across)", |t, r| {
                draw_tower(t, r, Some(TowerKind::Stunner), d)
            })?;
            panel.key("bomb (dot); number: level", |t, r| {
                draw_tower(t, r, Some(TowerKind::Bomb), d)?;
                level(t, r, 3, d)
            })?;
            panel.key("path, top left to bottom left", crate::screen::centre_dot)?;
            panel.line("the path snakes: right, left, ...", D::Color::text())?;
            if self.boards() > 1 {
                panel.line("left path: seat 0's invaders and", D::Color::text())?;
                panel.line("seat 1's towers; right: the reverse", D::Color::text())?;
            }
            Ok(())
        }
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
