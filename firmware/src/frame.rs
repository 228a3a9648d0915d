//! A 128x64, 16-gray framebuffer laid out as the SSD0323 wants it.
//!
//! Two pixels a byte, the left one in the high nibble, 64 bytes a row: a board flushes
//! [`Gray4Frame::bytes`] to the controller in one go, and the host reads [`Gray4Frame::luma`] to
//! compare with a screenshot of the emulated OLED.

use embedded_graphics::pixelcolor::{Gray4, GrayColor};

/// Pixels a row.
pub const WIDTH: usize = 128;
/// Rows.
pub const HEIGHT: usize = 64;
const ROW_BYTES: usize = WIDTH / 2;

#[derive(Clone, PartialEq, Eq)]
/// A 128x64 frame of 4-bit grays, two pixels a byte, the left one in the high nibble.
pub struct Gray4Frame {
    buf: [u8; ROW_BYTES * HEIGHT],
}

impl Default for Gray4Frame {
    fn default() -> Self {
        Self::new()
    }
}

impl Gray4Frame {
    /// A black frame.
    pub const fn new() -> Self {
        Gray4Frame {
            buf: [0; ROW_BYTES * HEIGHT],
        }
    }

    /// The frame in the controller's order: rows top to bottom, high nibble = left pixel.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The gray level (0..=15) at `(x, y)`; 0 outside the frame.
    pub fn luma(&self, x: usize, y: usize) -> u8 {
        if x >= WIDTH || y >= HEIGHT {
            return 0;
        }
        let byte = self.buf.get(byte_index(x, y)).copied().unwrap_or(0);
        if x.is_multiple_of(2) {
            byte >> 4
        } else {
            byte & 0x0f
        }
    }

    /// Pixel `(x, y)` to `color`; nothing outside the frame.
    fn set(&mut self, x: usize, y: usize, color: Gray4) {
        if x >= WIDTH || y >= HEIGHT {
            return;
        }
        if let Some(byte) = self.buf.get_mut(byte_index(x, y)) {
            let level = color.luma() & 0x0f;
            *byte = if x.is_multiple_of(2) {
                (*byte & 0x0f) | (level << 4)
            } else {
                (*byte & 0xf0) | level
            };
        }
    }
}

/// Makes `$frame` a [`WIDTH`] x [`HEIGHT`] embedded-graphics `DrawTarget` of `$color` (or
/// `size: W x H` after the colour for another size): every pixel drawn at non-negative coordinates
/// goes to its `set(x, y, color)` (which ignores those past the edges); a `clear` that fills its
/// storage in one go may follow. The host's 1-bit frame (xtask's `MonoFrame`) and its RGB565
/// 240x240 one (xtask's `RgbFrame`) are ones too; the crate that calls it needs
/// embedded-graphics.
#[macro_export]
macro_rules! frame_target {
    ($frame:ty, $color:ty, size: $w:tt x $h:tt $(, $clear:item)?) => {
        impl embedded_graphics::prelude::OriginDimensions for $frame {
            fn size(&self) -> embedded_graphics::prelude::Size {
                embedded_graphics::prelude::Size::new($w as u32, $h as u32)
            }
        }

        impl embedded_graphics::prelude::DrawTarget for $frame {
            type Color = $color;
            type Error = core::convert::Infallible;

            fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
            where
                I: IntoIterator<Item = embedded_graphics::prelude::Pixel<Self::Color>>,
            {
                for embedded_graphics::prelude::Pixel(p, c) in pixels {
                    if p.x >= 0 && p.y >= 0 {
                        self.set(p.x as usize, p.y as usize, c);
                    }
                }
                Ok(())
            }

            $($clear)?
        }
    };
    ($frame:ty, $color:ty $(, $clear:item)?) => {
        $crate::frame_target!(
            $frame,
            $color,
            size: ($crate::frame::WIDTH) x ($crate::frame::HEIGHT)
            $(, $clear)?
        );
    };
}

frame_target!(
    Gray4Frame,
    Gray4,
    fn clear(&mut self, color: Self::Color) -> Result<(), Self::Error> {
        let l = color.luma() & 0x0f;
        self.buf.fill((l << 4) | l);
        Ok(())
    }
);

/// The byte holding pixel `(x, y)`: two pixels a byte, rows of [`ROW_BYTES`]. Callers check
/// `x < WIDTH` and `y < HEIGHT`, so it never saturates; a bad one misses `buf`.
fn byte_index(x: usize, y: usize) -> usize {
    y.saturating_mul(ROW_BYTES).saturating_add(x / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::prelude::{DrawTarget, Pixel, Point};

    #[test]
    fn left_pixel_is_the_high_nibble_and_offscreen_is_ignored() {
        let mut f = Gray4Frame::new();
        let px = [
            Pixel(Point::new(0, 0), Gray4::new(0xA)),
            Pixel(Point::new(1, 0), Gray4::new(0x3)),
            Pixel(Point::new(127, 63), Gray4::new(0xF)),
            Pixel(Point::new(-1, 5), Gray4::new(0xF)),
            Pixel(Point::new(128, 5), Gray4::new(0xF)),
        ];
        f.draw_iter(px).unwrap();
        assert_eq!(f.bytes()[0], 0xA3);
        assert_eq!(f.luma(127, 63), 0xF);
        assert_eq!(f.bytes()[ROW_BYTES * HEIGHT - 1], 0x0F);
        assert_eq!(f.bytes().iter().filter(|&&b| b != 0).count(), 2);
        f.clear(Gray4::new(5)).unwrap();
        assert_eq!(f.bytes()[100], 0x55);
    }
}
