//! Colours by role, so one screen serves a 1-bit OLED, a 16-gray OLED and an RGB565 LCD.
//!
//! A screen never names a colour: it asks for the background, the text, a dim grid, or seat `n`'s
//! colour. On a 1-bit display seats cannot differ by colour, so screens also read [`Palette::DEPTH`]
//! and tell seats apart by shape (filled or outlined) there.

use embedded_graphics::pixelcolor::{BinaryColor, Gray4, GrayColor, Rgb565, RgbColor, WebColors};

pub trait Palette: embedded_graphics::pixelcolor::PixelColor {
    /// Bits per pixel: 1, 4 or 16.
    const DEPTH: u8;
    fn background() -> Self;
    fn text() -> Self;
    /// Grid lines and empty cells: visible but quiet.
    fn dim() -> Self;
    /// Seat `seat`'s colour (wraps around the palette).
    fn seat(seat: usize) -> Self;
    /// Something that needs attention (a panic message, a neutral unit).
    fn alert() -> Self;
}

impl Palette for BinaryColor {
    const DEPTH: u8 = 1;
    fn background() -> Self {
        BinaryColor::Off
    }
    fn text() -> Self {
        BinaryColor::On
    }
    fn dim() -> Self {
        BinaryColor::On
    }
    fn seat(_seat: usize) -> Self {
        BinaryColor::On
    }
    fn alert() -> Self {
        BinaryColor::On
    }
}

impl Palette for Gray4 {
    const DEPTH: u8 = 4;
    fn background() -> Self {
        Gray4::BLACK
    }
    fn text() -> Self {
        Gray4::WHITE
    }
    fn dim() -> Self {
        Gray4::new(3)
    }
    fn seat(seat: usize) -> Self {
        const LEVELS: [u8; 4] = [15, 8, 12, 6];
        Gray4::new(cycle(&LEVELS, seat, 15))
    }
    fn alert() -> Self {
        Gray4::new(10)
    }
}

impl Palette for Rgb565 {
    const DEPTH: u8 = 16;
    fn background() -> Self {
        Rgb565::BLACK
    }
    fn text() -> Self {
        Rgb565::WHITE
    }
    fn dim() -> Self {
        Rgb565::CSS_DIM_GRAY
    }
    fn seat(seat: usize) -> Self {
        const SEATS: [Rgb565; 4] = [
            Rgb565::CSS_DODGER_BLUE,
            Rgb565::CSS_ORANGE_RED,
            Rgb565::CSS_LIME_GREEN,
            Rgb565::CSS_GOLD,
        ];
        cycle(&SEATS, seat, Rgb565::WHITE)
    }
    fn alert() -> Self {
        Rgb565::RED
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
        assert_eq!(Rgb565::seat(4), Rgb565::seat(0));
        assert_ne!(BinaryColor::text(), BinaryColor::background());
    }
}
