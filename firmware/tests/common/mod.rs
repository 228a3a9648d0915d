//! What the firmware's integration tests share.
#![allow(dead_code, clippy::unwrap_used)]

use embedded_graphics::prelude::*;

/// A plain framebuffer of any colour and size that fails the test on any pixel drawn outside it.
pub struct Canvas<C> {
    pub size: Size,
    pub pixels: Vec<C>,
}

impl<C: PixelColor + Default> Canvas<C> {
    pub fn new(w: u32, h: u32) -> Self {
        Canvas {
            size: Size::new(w, h),
            pixels: vec![C::default(); (w * h) as usize],
        }
    }
}

impl<C: PixelColor> OriginDimensions for Canvas<C> {
    fn size(&self) -> Size {
        self.size
    }
}

impl<C: PixelColor> DrawTarget for Canvas<C> {
    type Color = C;
    type Error = core::convert::Infallible;
    fn draw_iter<I: IntoIterator<Item = Pixel<C>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        for Pixel(p, c) in pixels {
            assert!(
                p.x >= 0
                    && p.y >= 0
                    && (p.x as u32) < self.size.width
                    && (p.y as u32) < self.size.height,
                "pixel drawn outside the display at {p:?}"
            );
            self.pixels[(p.y as u32 * self.size.width + p.x as u32) as usize] = c;
        }
        Ok(())
    }
}

impl<C: PixelColor> Canvas<C> {
    pub fn at(&self, x: u32, y: u32) -> C {
        self.pixels[(y * self.size.width + x) as usize]
    }

    /// Whether any pixel of rows `ys` is `color`.
    pub fn row_has(&self, ys: core::ops::Range<u32>, color: C) -> bool {
        ys.flat_map(|y| (0..self.size.width).map(move |x| (x, y)))
            .any(|(x, y)| self.at(x, y) == color)
    }
}
