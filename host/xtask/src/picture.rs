//! The emulators' frame buffers as the PNG frames xtask keeps: a harness hands back the panel's
//! picture as a binary PGM (`P5`, 8-bit gray, one byte a pixel: a monochrome OLED) or PPM (`P6`,
//! 8-bit RGB, three bytes a pixel: a colour LCD), and this is the one PNG writer: each pixel
//! scaled to a `scale` x `scale` block, 8-bit grayscale or RGB. Bad files give an error that says
//! what is wrong, never a panic.

use std::path::Path;

use anyhow::{Context, Result};

/// A binary PGM's or PPM's width, height, bytes a pixel (1 or 3) and pixels (rows top to bottom).
pub fn pnm(b: &[u8]) -> Result<(u32, u32, u32, &[u8]), String> {
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while b.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let start = at;
        while b.get(at).is_some_and(|c| !c.is_ascii_whitespace()) {
            at += 1;
        }
        if start == at {
            return Err(
                "a PGM/PPM header of fewer than 4 fields (P5|P6 WIDTH HEIGHT MAXVAL)".into(),
            );
        }
        fields.push(String::from_utf8_lossy(&b[start..at]).into_owned());
    }
    let channels = match fields[0].as_str() {
        "P5" => 1,
        "P6" => 3,
        m => {
            return Err(format!(
                "not a binary PGM or PPM (magic {m:?}, P5 or P6 expected)"
            ))
        }
    };
    let num = |i: usize, what: &str| {
        fields[i]
            .parse::<u32>()
            .map_err(|_| format!("the picture's {what} is no number: {:?}", fields[i]))
    };
    let (w, h, max) = (num(1, "width")?, num(2, "height")?, num(3, "maximum")?);
    if max != 255 {
        return Err(format!(
            "a picture with maximum {max} (8-bit, 255, expected)"
        ));
    }
    // One whitespace byte ends the header.
    let pixels = b.get(at + 1..).unwrap_or_default();
    let want = u64::from(w) * u64::from(h) * u64::from(channels);
    if want != pixels.len() as u64 || w == 0 || h == 0 {
        return Err(format!(
            "a {w}x{h} {} with {} bytes of pixels",
            fields[0],
            pixels.len()
        ));
    }
    Ok((w, h, channels, pixels))
}

/// The PGM or PPM `pnm_bytes` scaled `scale` times, as an 8-bit grayscale or RGB PNG at `png`.
pub fn png_of_pnm(pnm_bytes: &[u8], scale: u32, png: &Path) -> Result<()> {
    let (w, h, channels, pixels) = pnm(pnm_bytes).map_err(anyhow::Error::msg)?;
    let s = scale.max(1);
    let at = |x: u32, y: u32| (((y / s) * w + x / s) * channels) as usize;
    let saved = if channels == 1 {
        image::GrayImage::from_fn(w * s, h * s, |x, y| image::Luma([pixels[at(x, y)]]))
            .save_with_format(png, image::ImageFormat::Png)
    } else {
        image::RgbImage::from_fn(w * s, h * s, |x, y| {
            let i = at(x, y);
            image::Rgb([pixels[i], pixels[i + 1], pixels[i + 2]])
        })
        .save_with_format(png, image::ImageFormat::Png)
    };
    saved.with_context(|| png.display().to_string())
}

/// Every frame buffer the harness left in `dir` (`frame-NNNN.pgm` or `.ppm`) written as the PNG
/// its frames.jsonl names (`frame-NNNN.png`), scaled `scale` times; the buffers removed.
pub fn frames_to_png(dir: &Path, scale: u32) -> Result<usize> {
    let mut n = 0;
    let entries = std::fs::read_dir(dir).with_context(|| dir.display().to_string())?;
    let mut buffers: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgm" || x == "ppm"))
        .collect();
    buffers.sort();
    for p in buffers {
        let bytes = std::fs::read(&p).with_context(|| p.display().to_string())?;
        png_of_pnm(&bytes, scale, &p.with_extension("png"))
            .with_context(|| format!("{}: the frame buffer", p.display()))?;
        std::fs::remove_file(&p)?;
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pnm_header_and_pixels() {
        let mut b = b"P5\n3 2\n255\n".to_vec();
        b.extend([0, 200, 200, 0, 0, 200]);
        assert_eq!(pnm(&b), Ok((3, 2, 1, &[0, 200, 200, 0, 0, 200][..])));
        let mut b = b"P6 1 2 255 ".to_vec();
        b.extend([1, 2, 3, 4, 5, 6]);
        assert_eq!(pnm(&b), Ok((1, 2, 3, &[1, 2, 3, 4, 5, 6][..])));
    }

    #[test]
    fn bad_pictures_are_refused_with_a_reason() {
        let e = |b: &[u8]| pnm(b).unwrap_err();
        assert!(e(b"P4\n1 1\n255\n\x00").contains("P5 or P6 expected"));
        assert!(e(b"P6\n1 1\n255\n\x00").contains("a 1x1 P6 with 1 bytes"));
        assert!(e(b"P5\n1 1\n").contains("fewer than 4"));
        assert!(e(b"P5\nx 1\n255\n\x00").contains("width"));
        assert!(e(b"P5\n1 1\n65535\n\x00\x00").contains("maximum 65535"));
        assert!(e(b"P5\n2 2\n255\n\x00").contains("1 bytes of pixels"));
        assert!(e(b"").contains("fewer than 4"));
    }

    #[test]
    fn png_scales_each_pixel_to_a_block() {
        let dir = std::env::temp_dir().join(format!("xtask-picture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut b = b"P5\n2 1\n255\n".to_vec();
        b.extend([0, 180]);
        std::fs::write(dir.join("frame-0000.pgm"), &b).unwrap();
        assert_eq!(frames_to_png(&dir, 3).unwrap(), 1);
        assert!(!dir.join("frame-0000.pgm").exists());
        let img = image::open(dir.join("frame-0000.png")).unwrap();
        assert_eq!(img.color(), image::ColorType::L8);
        let g = img.to_luma8();
        assert_eq!(g.dimensions(), (6, 3));
        for y in 0..3 {
            let row: Vec<u8> = (0..6).map(|x| g.get_pixel(x, y).0[0]).collect();
            assert_eq!(row, [0, 0, 0, 180, 180, 180]);
        }
        let mut b = b"P6\n2 1\n255\n".to_vec();
        b.extend([255, 0, 0, 0, 0, 255]);
        std::fs::write(dir.join("frame-0001.ppm"), &b).unwrap();
        assert_eq!(frames_to_png(&dir, 2).unwrap(), 1);
        let rgb = image::open(dir.join("frame-0001.png")).unwrap();
        assert_eq!(rgb.color(), image::ColorType::Rgb8);
        let rgb = rgb.to_rgb8();
        assert_eq!(rgb.dimensions(), (4, 2));
        assert_eq!(rgb.get_pixel(1, 1).0, [255, 0, 0]);
        assert_eq!(rgb.get_pixel(2, 0).0, [0, 0, 255]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
