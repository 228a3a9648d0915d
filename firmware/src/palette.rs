//! Colours by role, so one screen serves a 1-bit OLED, a 16-gray OLED and an RGB565 LCD.
//!
//! A screen never names a colour: it asks for the background, the text, a dim grid, or seat `n`'s
//! colour. On a 1-bit display seats cannot differ by colour, so screens also read [`Palette::DEPTH`]
//! and tell seats apart by shape (filled or outlined) there.

use embedded_graphics::pixelcolor::{BinaryColor, Gray4, GrayColor, Rgb565, RgbColor, WebColors};

/// The colours the screens use, for each kind of display (1-bit, 4-bit gray, RGB565).
pub trait Palette: embedded_graphics::pixelcolor::PixelColor {
    /// Bits per pixel: 1, 4 or 16.
    const DEPTH: u8;
    /// What the screen is cleared to.
    fn background() -> Self;
    /// Text.
    fn text() -> Self;
    /// Grid lines and empty cells: visible but quiet.
    fn dim() -> Self;
    /// Seat `seat`'s colour (wraps around the palette).
    fn seat(seat: usize) -> Self;
    /// Something that needs attention (a panic message, a neutral unit).
    fn alert() -> Self;
}

/// Implements [`Palette`] for each colour type of the table below, one row a type: its depth,
/// its background, text, dim and alert colours, and its seats' colours (seat `n` gets entry `n`
/// modulo their count).
macro_rules! palettes {
    ($($color:ty: $depth:literal, $background:expr, $text:expr, $dim:expr, $alert:expr, $seats:expr;)*) => {$(
        impl Palette for $color {
            const DEPTH: u8 = $depth;
            fn background() -> Self {
                $background
            }
            fn text() -> Self {
                $text
            }
            fn dim() -> Self {
                $dim
            }
            fn seat(seat: usize) -> Self {
                cycle(&$seats, seat, $text)
            }
            fn alert() -> Self {
                $alert
            }
        }
    )*};
}

palettes! {
    // type      depth  background        text             dim                   alert            seats
    BinaryColor: 1,     BinaryColor::Off, BinaryColor::On, BinaryColor::On,      BinaryColor::On, [BinaryColor::On];
    Gray4:       4,     Gray4::BLACK,     Gray4::WHITE,    Gray4::new(3),        Gray4::new(10),  GRAY_SEATS;
    Rgb565:      16,    Rgb565::BLACK,    Rgb565::WHITE,   Rgb565::CSS_DIM_GRAY, Rgb565::RED,     RGB_SEATS;
}

/// The gray seats: ten levels apart from the background, `dim` and `alert`, so that every seat of
/// a full table (MAX_SEATS) differs from every other.
const GRAY_SEATS: [Gray4; 10] = [
    Gray4::new(15),
    Gray4::new(8),
    Gray4::new(12),
    Gray4::new(6),
    Gray4::new(13),
    Gray4::new(5),
    Gray4::new(11),
    Gray4::new(7),
    Gray4::new(14),
    Gray4::new(9),
];

/// The colour seats.
const RGB_SEATS: [Rgb565; 10] = [
    Rgb565::CSS_DODGER_BLUE,
    Rgb565::CSS_ORANGE_RED,
    Rgb565::CSS_LIME_GREEN,
    Rgb565::CSS_GOLD,
    Rgb565::CSS_MAGENTA,
    Rgb565::CSS_CYAN,
    Rgb565::CSS_SANDY_BROWN,
    Rgb565::CSS_MEDIUM_PURPLE,
    Rgb565::CSS_PINK,
    Rgb565::CSS_OLIVE,
];

/// Whether pixel `(x, y)` is lit in seat `seat`'s texture on a 1-bit display, where seats cannot
/// differ by colour: solid, checkered, striped across, striped down, dotted, and so on. Every
/// texture lights at least one pixel of every 2 x 2 block, so a seat's land shows however small
/// its cells (an outline, as before, vanishes at 1 or 2 pixels a cell).
pub fn mono_texture(seat: usize, x: i32, y: i32) -> bool {
    let (x, y) = (x.rem_euclid(2), y.rem_euclid(2));
    match seat % 6 {
        0 => true,
        1 => x == y,
        2 => y == 0,
        3 => x == 0,
        4 => x == 0 && y == 0,
        _ => !(x == 1 && y == 1),
    }
}

/// `items[i % len]`, or `fallback` for an empty list.
fn cycle<T: Copy>(items: &[T], i: usize, fallback: T) -> T {
    i.checked_rem(items.len())
        .and_then(|i| items.get(i))
        .copied()
        .unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_differ_where_the_depth_allows() {
        assert_ne!(Gray4::seat(0), Gray4::seat(1));
        assert_ne!(Rgb565::seat(0), Rgb565::seat(1));
        assert_ne!(Gray4::seat(0), Gray4::background());
        assert_eq!(Rgb565::seat(10), Rgb565::seat(0));
        // A full table's seats all differ, on both colour displays.
        for a in 0..arena_core::MAX_SEATS {
            for b in 0..a {
                assert_ne!(Gray4::seat(a), Gray4::seat(b), "gray seats {a} and {b}");
                assert_ne!(Rgb565::seat(a), Rgb565::seat(b), "colour seats {a} and {b}");
            }
            assert_ne!(Gray4::seat(a), Gray4::dim());
            assert_ne!(Gray4::seat(a), Gray4::background());
        }
        assert_ne!(BinaryColor::text(), BinaryColor::background());
    }
}
