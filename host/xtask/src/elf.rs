//! The loadable segments of a 32-bit little-endian ELF, at their load addresses: what a probe
//! writes to flash, and so what a UF2 file or a DFU image must hold. Bad input gives an error that
//! says what is wrong, never a panic.

/// One loadable segment with file contents: its load (physical) address and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub addr: u32,
    /// Where its bytes start in the file.
    pub offset: usize,
    pub data: Vec<u8>,
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| {
            format!(
                "offset {at} is past the end of the file ({} bytes)",
                b.len()
            )
        })
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| {
            format!(
                "offset {at} is past the end of the file ({} bytes)",
                b.len()
            )
        })
}

/// The `PT_LOAD` segments with data (file size above 0), in file order.
pub fn load_segments(b: &[u8]) -> Result<Vec<Segment>, String> {
    if b.get(..4) != Some(b"\x7fELF") {
        return Err("no ELF magic (\\x7fELF) at the start: not an ELF file".into());
    }
    if b.get(4) != Some(&1) || b.get(5) != Some(&1) {
        return Err("not a 32-bit little-endian ELF".into());
    }
    let phoff = u32_at(b, 28)? as usize;
    let phentsize = u16_at(b, 42)? as usize;
    let phnum = u16_at(b, 44)? as usize;
    if phnum > 0 && phentsize < 32 {
        return Err(format!(
            "program header entries of {phentsize} bytes (32 expected)"
        ));
    }
    let mut out = Vec::new();
    for i in 0..phnum {
        let p = phoff.saturating_add(i.saturating_mul(phentsize));
        if u32_at(b, p)? != 1 {
            continue;
        }
        let offset = u32_at(b, p + 4)? as usize;
        let paddr = u32_at(b, p + 12)?;
        let filesz = u32_at(b, p + 16)? as usize;
        if filesz == 0 {
            continue;
        }
        let data = b
            .get(offset..offset.saturating_add(filesz))
            .ok_or_else(|| {
                format!("segment {i} (at 0x{paddr:08x}) runs past the end of the file")
            })?;
        out.push(Segment {
            addr: paddr,
            offset,
            data: data.to_vec(),
        });
    }
    if out.is_empty() {
        return Err("no loadable segment with data".into());
    }
    Ok(out)
}

/// The bytes of flash `[start, start + size)` that the segments write, as one image from the
/// lowest written address to the highest (gaps `fill`); its start address. Fails when a segment
/// lies outside that flash.
pub fn flash_image(
    segments: &[Segment],
    start: u32,
    size: u32,
    fill: u8,
) -> Result<(u32, Vec<u8>), String> {
    let end = u64::from(start) + u64::from(size);
    for s in segments {
        let (a, n) = (u64::from(s.addr), s.data.len() as u64);
        if a < u64::from(start) || a + n > end {
            return Err(format!(
                "a loadable segment at 0x{:08x} ({n} bytes) is not in flash (0x{start:08x}, {size} bytes)",
                s.addr
            ));
        }
    }
    let low = segments.iter().map(|s| s.addr).min().unwrap_or(start);
    let high = segments
        .iter()
        .map(|s| s.addr as usize + s.data.len())
        .max()
        .unwrap_or(low as usize);
    let mut image = vec![fill; high - low as usize];
    for s in segments {
        let o = (s.addr - low) as usize;
        image[o..o + s.data.len()].copy_from_slice(&s.data);
    }
    Ok((low, image))
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A minimal ELF: a header and one program header per `(type, paddr, data)`.
    pub fn elf(segments: &[(u32, u32, &[u8])]) -> Vec<u8> {
        let mut b = vec![0u8; 52];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 1;
        b[5] = 1;
        b[18] = 40;
        b[28..32].copy_from_slice(&52u32.to_le_bytes());
        b[42..44].copy_from_slice(&32u16.to_le_bytes());
        b[44..46].copy_from_slice(&(segments.len() as u16).to_le_bytes());
        let mut data_at = 52 + 32 * segments.len();
        let mut tail = Vec::new();
        for (kind, paddr, data) in segments {
            let mut p = [0u8; 32];
            p[..4].copy_from_slice(&kind.to_le_bytes());
            p[4..8].copy_from_slice(&(data_at as u32).to_le_bytes());
            p[8..12].copy_from_slice(&paddr.to_le_bytes());
            p[12..16].copy_from_slice(&paddr.to_le_bytes());
            p[16..20].copy_from_slice(&(data.len() as u32).to_le_bytes());
            p[20..24].copy_from_slice(&(data.len() as u32).to_le_bytes());
            b.extend_from_slice(&p);
            tail.extend_from_slice(data);
            data_at += data.len();
        }
        b.extend_from_slice(&tail);
        b
    }

    #[test]
    fn reads_loadable_segments_and_makes_one_flash_image() {
        let f = elf(&[
            (1, 0x1000_0000, b"abcd"),
            (4, 0, b"note"),
            (1, 0x1000_0008, b"ef"),
        ]);
        let s = load_segments(&f).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].addr, 0x1000_0008);
        let (at, image) = flash_image(&s, 0x1000_0000, 0x100, 0).unwrap();
        assert_eq!(at, 0x1000_0000);
        assert_eq!(image, b"abcd\0\0\0\0ef");
        let err = flash_image(&s, 0x0800_0000, 0x100, 0).unwrap_err();
        assert!(err.contains("not in flash"), "{err}");
    }

    #[test]
    fn bad_files_give_errors() {
        assert!(load_segments(b"not an elf")
            .unwrap_err()
            .contains("no ELF magic"));
        let f = elf(&[(1, 0x1000_0000, b"abcd")]);
        assert!(load_segments(&f[..60])
            .unwrap_err()
            .contains("past the end"));
        assert!(load_segments(&f[..f.len() - 1])
            .unwrap_err()
            .contains("runs past the end"));
        assert!(load_segments(&elf(&[]))
            .unwrap_err()
            .contains("no loadable segment"));
    }
}
