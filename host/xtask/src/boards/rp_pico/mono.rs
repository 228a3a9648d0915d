//! The host side of the Pico checks: the same lineup through the same match loop, drawn by the same
//! screens on a 1-bit 128x64 canvas (`arena render --display oled128x64`'s colours), recording what
//! the Pico logs and the frames its SSD1306 shows.

use arena_firmware::RunConfig;
use embedded_graphics::pixelcolor::BinaryColor;

pub use arena_firmware::frame::{HEIGHT, WIDTH};

/// A 128x64 1-bit canvas.
#[derive(Clone, PartialEq, Eq)]
pub struct MonoFrame {
    on: Vec<bool>,
}

impl Default for MonoFrame {
    fn default() -> Self {
        MonoFrame {
            on: vec![false; WIDTH * HEIGHT],
        }
    }
}

impl MonoFrame {
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < WIDTH && y < HEIGHT && self.on[y * WIDTH + x]
    }

    /// Pixel `(x, y)` to `color`; nothing outside the frame.
    fn set(&mut self, x: usize, y: usize, color: BinaryColor) {
        if x < WIDTH && y < HEIGHT {
            self.on[y * WIDTH + x] = color.is_on();
        }
    }

    /// The frame as a gray PNG the way the emulated OLED writes it: `scale` times, on pixels at
    /// `level`.
    pub fn to_image(&self, scale: u32, level: u8) -> image::GrayImage {
        image::GrayImage::from_fn(WIDTH as u32 * scale, HEIGHT as u32 * scale, |x, y| {
            let on = self.get((x / scale) as usize, (y / scale) as usize);
            image::Luma([if on { level } else { 0 }])
        })
    }
}

arena_firmware::frame_target!(MonoFrame, BinaryColor);

/// The SSD1306's pictures are gray, the frame scaled up, every on pixel at one level.
impl crate::emulator::HostFrame for MonoFrame {
    const DISPLAY: &'static str = "OLED";

    fn differs(&self, picture: &image::DynamicImage) -> Result<Option<String>, String> {
        let at = compare(&picture.to_luma8(), self)?;
        let want = |on: bool| if on { "on" } else { "off" };
        Ok(at.map(|(x, y, got, on)| format!("({x}, {y}): level {got}, want {}", want(on))))
    }

    fn picture(&self, like: &image::DynamicImage) -> image::DynamicImage {
        self.to_image(like.width() / WIDTH as u32, 255).into()
    }
}

/// What the Pico would log and show, recorded on the host.
pub type MonoRecorder = crate::host::Recorder<MonoFrame>;

/// Plays `cfg` of lineup `L` on the host at oled128x64.
pub fn play<L: arena_firmware::Lineup>(cfg: &RunConfig) -> MonoRecorder {
    crate::host::play_on::<L, MonoFrame>(cfg)
}

/// The first pixel where a PNG of the emulated OLED (`scale` times 128x64, gray, on pixels all at
/// one level above 0) differs from `frame`: `(x, y, got, want_on)`.
pub fn compare(
    png: &image::GrayImage,
    frame: &MonoFrame,
) -> Result<Option<(u32, u32, u8, bool)>, String> {
    let (w, h) = png.dimensions();
    if w % WIDTH as u32 != 0 || w / WIDTH as u32 == 0 || h * 2 != w {
        return Err(format!("a {w}x{h} picture is not 128x64 scaled"));
    }
    let scale = w / WIDTH as u32;
    let level = png.pixels().map(|p| p.0[0]).max().unwrap_or(0);
    for (x, y, p) in png.enumerate_pixels() {
        let want = frame.get((x / scale) as usize, (y / scale) as usize);
        let got = p.0[0];
        if got != if want { level.max(1) } else { 0 } {
            return Ok(Some((x / scale, y / scale, got, want)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_graphics::prelude::{DrawTarget, Pixel, Point};

    #[test]
    fn compares_scaled_pictures_pixel_for_pixel() {
        let mut f = MonoFrame::default();
        f.draw_iter([
            Pixel(Point::new(3, 2), BinaryColor::On),
            Pixel(Point::new(-1, 2), BinaryColor::On),
            Pixel(Point::new(127, 64), BinaryColor::On),
        ])
        .unwrap();
        assert!(f.get(3, 2) && !f.get(127, 63));
        let png = f.to_image(4, 163);
        assert_eq!(compare(&png, &f), Ok(None));
        let mut other = f.clone();
        other
            .draw_iter([Pixel(Point::new(100, 60), BinaryColor::On)])
            .unwrap();
        assert_eq!(compare(&png, &other), Ok(Some((100, 60, 0, true))));
        assert!(compare(&image::GrayImage::new(10, 10), &f).is_err());
        // A blank picture equals a blank frame, whatever the on level would have been.
        let blank = MonoFrame::default();
        assert_eq!(compare(&blank.to_image(2, 255), &blank), Ok(None));
    }
}
