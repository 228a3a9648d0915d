//! The displays a match can be drawn for, and one canvas for all of them: the boards' three and
//! the desktop's. `arena render` (PNG, GIF) and the page draw through [`Display::game`], so a
//! picture on the host and the page's canvas are the same pixels by construction; the browser
//! test checks that the WebAssembly build keeps them so.

use arena_firmware::palette::Palette;
use arena_firmware::screen::{draw_game, draw_result, MatchLabel, Screen};
use embedded_graphics::pixelcolor::{BinaryColor, Gray4, GrayColor, Rgb565, Rgb888, RgbColor};
use embedded_graphics::prelude::{DrawTarget, OriginDimensions, Pixel, Size};

/// Draws with `$draw` (a closure of `&mut Canvas<_>`) on a fresh canvas of the display's size and
/// colour: one closure per colour, as a closure cannot be generic.
macro_rules! on_canvas {
    ($display:expr, $draw:expr) => {{
        let (w, h) = $display.size();
        match $display {
            Display::Oled128x64 => paint::<BinaryColor>(w, h, $draw),
            Display::Gray128x64 => paint::<Gray4>(w, h, $draw),
            Display::Rgb240x240 | Display::Desktop => paint::<Rgb565>(w, h, $draw),
        }
    }};
}

/// A colour as the desktop shows it: as QEMU's screendump shows the OLED (4-bit gray `g` is
/// `g * 17`), RGB565 widened as embedded-graphics does.
pub trait ToRgb: Palette {
    fn to_rgb(self) -> [u8; 3];
}

impl ToRgb for BinaryColor {
    fn to_rgb(self) -> [u8; 3] {
        match self {
            BinaryColor::Off => [0; 3],
            BinaryColor::On => [255; 3],
        }
    }
}

impl ToRgb for Gray4 {
    fn to_rgb(self) -> [u8; 3] {
        let v = (self.luma() & 0x0f) * 17;
        [v; 3]
    }
}

impl ToRgb for Rgb565 {
    fn to_rgb(self) -> [u8; 3] {
        let c = Rgb888::from(self);
        [c.r(), c.g(), c.b()]
    }
}

/// A display to draw for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Display {
    /// 128x64 1-bit OLED (SSD1306 boards).
    Oled128x64,
    /// 128x64 16-gray OLED (SSD0323, the QEMU lm3s6965 board).
    Gray128x64,
    /// 240x240 RGB565 LCD.
    Rgb240x240,
    /// 960x600 RGB565, for a desktop window or a web page: the board on the left, each seat's
    /// bot name and numbers and a legend on the right (the firmware's desktop layout).
    Desktop,
}

impl Display {
    pub const ALL: [Display; 4] = [
        Display::Oled128x64,
        Display::Gray128x64,
        Display::Rgb240x240,
        Display::Desktop,
    ];

    /// The name `--display` takes.
    pub fn name(self) -> &'static str {
        match self {
            Display::Oled128x64 => "oled128x64",
            Display::Gray128x64 => "gray128x64",
            Display::Rgb240x240 => "rgb240x240",
            Display::Desktop => "desktop",
        }
    }

    pub fn from_name(name: &str) -> Option<Display> {
        Display::ALL.into_iter().find(|d| d.name() == name)
    }

    pub fn size(self) -> (u32, u32) {
        match self {
            Display::Oled128x64 | Display::Gray128x64 => (128, 64),
            Display::Rgb240x240 => (240, 240),
            Display::Desktop => (960, 600),
        }
    }

    /// `state`'s screen on this display.
    pub fn game<G: Screen>(self, state: &G, label: &MatchLabel<'_>) -> Picture {
        on_canvas!(self, |c| draw_game(state, label, c))
    }

    /// The result screen after `end`.
    pub fn result<G: Screen>(self, end: &G, label: &MatchLabel<'_>) -> Picture {
        on_canvas!(self, |c| draw_result(label, end, end.turn(), c))
    }
}

fn paint<C: ToRgb>(
    w: u32,
    h: u32,
    draw: impl FnOnce(&mut Canvas<C>) -> Result<(), core::convert::Infallible>,
) -> Picture {
    let mut canvas = Canvas::new(w, h);
    let Ok(()) = draw(&mut canvas);
    canvas.picture()
}

/// A drawn screen in RGB, row by row, three bytes a pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Picture {
    /// The pixel at `(x, y)`.
    pub fn at(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        let p = self.rgb.get(i..i + 3)?;
        Some([p[0], p[1], p[2]])
    }

    /// Four bytes a pixel (opaque), as a browser's canvas holds them.
    pub fn rgba(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.rgb.len() / 3 * 4);
        for p in self.rgb.chunks_exact(3) {
            out.extend_from_slice(p);
            out.push(255);
        }
        out
    }
}

/// A framebuffer of any colour, any size: the desktop's display (the host's pictures and the
/// page's canvas), on which the firmware's screens draw exactly as on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas<C> {
    width: u32,
    height: u32,
    pixels: Vec<C>,
    /// Pixels drawn outside, which a board's display would drop: a screen should draw none.
    clipped: usize,
}

impl<C: ToRgb> Canvas<C> {
    pub fn new(width: u32, height: u32) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![C::background(); width as usize * height as usize],
            clipped: 0,
        }
    }

    /// How many pixels were drawn outside the canvas (and dropped).
    pub fn clipped(&self) -> usize {
        self.clipped
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The colour at `(x, y)`; `None` outside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<C> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.pixels
            .get(y as usize * self.width as usize + x as usize)
            .copied()
    }

    pub fn picture(&self) -> Picture {
        Picture {
            width: self.width,
            height: self.height,
            rgb: self.pixels.iter().flat_map(|c| c.to_rgb()).collect(),
        }
    }
}

impl<C: ToRgb> OriginDimensions for Canvas<C> {
    fn size(&self) -> Size {
        Size::new(self.width, self.height)
    }
}

impl<C: ToRgb> DrawTarget for Canvas<C> {
    type Color = C;
    type Error = core::convert::Infallible;

    fn draw_iter<I>(&mut self, pixels: I) -> Result<(), Self::Error>
    where
        I: IntoIterator<Item = Pixel<C>>,
    {
        for Pixel(p, c) in pixels {
            if p.x >= 0 && p.y >= 0 && (p.x as u32) < self.width && (p.y as u32) < self.height {
                let i = p.y as usize * self.width as usize + p.x as usize;
                if let Some(px) = self.pixels.get_mut(i) {
                    *px = c;
                }
            } else {
                self.clipped += 1;
            }
        }
        Ok(())
    }

    fn clear(&mut self, color: C) -> Result<(), Self::Error> {
        self.pixels.fill(color);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::prelude::Point;

    #[test]
    fn a_pixel_outside_is_counted_and_dropped() {
        let mut canvas = Canvas::<BinaryColor>::new(4, 2);
        let on = BinaryColor::On;
        let drawn = [(1, 1), (4, 0), (-1, 0), (0, 2)].map(|(x, y)| Pixel(Point::new(x, y), on));
        canvas.draw_iter(drawn).unwrap();
        assert_eq!(canvas.clipped(), 3);
        assert_eq!(canvas.pixel(1, 1), Some(on));
        let lit = (0..4).flat_map(|x| (0..2).map(move |y| (x, y)));
        assert_eq!(
            lit.filter(|&(x, y)| canvas.pixel(x, y) == Some(on)).count(),
            1
        );
    }
}
