//! UF2 files for the Raspberry Pi Pico (Microsoft's USB Flashing Format, as the RP2040's boot ROM
//! takes it in BOOTSEL mode): 512-byte blocks, each with two start magics, flags (0x2000: a family
//! id is present), the target address, a 256-byte payload, its block number and the block count,
//! the RP2040's family id and an end magic. The payloads are the ELF's loadable segments at their
//! load addresses, in 256-byte pages of flash (bytes of a page no segment writes are 0, as
//! elf2uf2 and picotool leave them).
//!
//! `cargo xtask uf2 --board rp-pico` writes `target/uf2/pocket-arena-rp-pico.uf2`;
//! `cargo xtask flash --board rp-pico --uf2` copies it onto a mounted RPI-RP2 drive.

use std::path::{Path, PathBuf};

use anyhow::{bail, ensure, Context, Result};

use crate::elf::{self, Segment};

pub const MAGIC_START0: u32 = 0x0A32_4655;
pub const MAGIC_START1: u32 = 0x9E5D_5157;
pub const MAGIC_END: u32 = 0x0AB1_6F30;
pub const FLAG_FAMILY_ID: u32 = 0x0000_2000;
pub const RP2040_FAMILY: u32 = 0xE48B_FF56;
pub const PAYLOAD: usize = 256;
pub const BLOCK: usize = 512;
/// The RP2040's flash window (XIP), as its boot ROM accepts UF2 blocks for it.
pub const FLASH: u32 = 0x1000_0000;
pub const FLASH_SIZE: u32 = 16 * 1024 * 1024;

/// The UF2 image of `segments` for `family`: one block per 256-byte page any segment writes.
pub fn from_segments(segments: &[Segment], family: u32) -> Result<Vec<u8>, String> {
    let mut pages: std::collections::BTreeMap<u32, [u8; PAYLOAD]> = Default::default();
    for s in segments {
        let (a, n) = (u64::from(s.addr), s.data.len() as u64);
        if a < u64::from(FLASH) || a + n > u64::from(FLASH) + u64::from(FLASH_SIZE) {
            return Err(format!(
                "a loadable segment at 0x{:08x} ({n} bytes) is not in the RP2040's flash (0x{FLASH:08x}..)",
                s.addr
            ));
        }
        for (i, byte) in s.data.iter().enumerate() {
            let addr = s.addr + i as u32;
            let page = addr & !(PAYLOAD as u32 - 1);
            pages.entry(page).or_insert([0; PAYLOAD])[(addr - page) as usize] = *byte;
        }
    }
    let count = pages.len() as u32;
    let mut out = Vec::with_capacity(pages.len() * BLOCK);
    for (number, (addr, payload)) in pages.iter().enumerate() {
        let mut block = [0u8; BLOCK];
        let words = [
            MAGIC_START0,
            MAGIC_START1,
            FLAG_FAMILY_ID,
            *addr,
            PAYLOAD as u32,
            number as u32,
            count,
            family,
        ];
        for (i, w) in words.iter().enumerate() {
            block[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        block[32..32 + PAYLOAD].copy_from_slice(payload);
        block[BLOCK - 4..].copy_from_slice(&MAGIC_END.to_le_bytes());
        out.extend_from_slice(&block);
    }
    Ok(out)
}

/// The blocks of a UF2 file as `(target address, payload)`, each checked (magics, flags, family,
/// payload size, numbering): what a boot ROM would write.
pub fn blocks(file: &[u8], family: u32) -> Result<Vec<(u32, Vec<u8>)>, String> {
    if file.is_empty() || !file.len().is_multiple_of(BLOCK) {
        return Err(format!(
            "{} bytes: not a whole number of 512-byte UF2 blocks",
            file.len()
        ));
    }
    let word = |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let count = file.len() / BLOCK;
    let mut out = Vec::with_capacity(count);
    for (n, b) in file.chunks(BLOCK).enumerate() {
        if word(b, 0) != MAGIC_START0
            || word(b, 4) != MAGIC_START1
            || word(b, BLOCK - 4) != MAGIC_END
        {
            return Err(format!("block {n}: no UF2 magic"));
        }
        if word(b, 8) & FLAG_FAMILY_ID == 0 || word(b, 28) != family {
            return Err(format!(
                "block {n}: family 0x{:08x} (flags 0x{:08x}), not 0x{family:08x}",
                word(b, 28),
                word(b, 8)
            ));
        }
        let size = word(b, 16) as usize;
        if size > 476 {
            return Err(format!("block {n}: a payload of {size} bytes"));
        }
        if word(b, 20) as usize != n || word(b, 24) as usize != count {
            return Err(format!(
                "block {n}: numbered {} of {}, in a file of {count} blocks",
                word(b, 20),
                word(b, 24)
            ));
        }
        out.push((word(b, 12), b[32..32 + size].to_vec()));
    }
    Ok(out)
}

/// Where `cargo xtask uf2` writes the board's UF2 file.
pub fn path(board: &str) -> PathBuf {
    crate::root()
        .join("target/uf2")
        .join(format!("pocket-arena-{board}.uf2"))
}

/// Writes the UF2 file of `elf` (the rp-pico firmware) to `out`; its size in bytes.
pub fn write(elf: &Path, out: &Path) -> Result<usize> {
    let bytes = std::fs::read(elf).with_context(|| format!("cannot read {}", elf.display()))?;
    let segments =
        elf::load_segments(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", elf.display()))?;
    let uf2 = from_segments(&segments, RP2040_FAMILY)
        .map_err(|e| anyhow::anyhow!("{}: {e}", elf.display()))?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(out, &uf2).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(uf2.len())
}

/// `cargo xtask uf2 --board rp-pico`: builds the firmware and writes its UF2 file.
pub fn run(board: &str) -> Result<PathBuf> {
    ensure!(
        board == "rp-pico",
        "uf2 --board {board}: only the rp-pico takes UF2 files (the stm32f411 flashes with `flash --board stm32f411 --dfu`)"
    );
    let elf = crate::pico::build()?.join("arena");
    let out = path(board);
    let n = write(&elf, &out)?;
    println!(
        "xtask: {} ({} blocks of 512 bytes, {} bytes of flash), from {}",
        out.display(),
        n / BLOCK,
        n / BLOCK * PAYLOAD,
        elf.display()
    );
    Ok(out)
}

/// The mounted drive a Pico in BOOTSEL mode shows (it holds INFO_UF2.TXT), if any.
pub fn rpi_rp2_drive() -> Option<PathBuf> {
    let user = std::env::var("USER").unwrap_or_default();
    let mut candidates = vec![
        PathBuf::from("/media").join(&user).join("RPI-RP2"),
        PathBuf::from("/run/media").join(&user).join("RPI-RP2"),
        PathBuf::from("/media/RPI-RP2"),
        PathBuf::from("/mnt/RPI-RP2"),
        PathBuf::from("/Volumes/RPI-RP2"),
    ];
    for parent in ["/media", "/run/media"] {
        if let Ok(dirs) = std::fs::read_dir(parent) {
            candidates.extend(dirs.flatten().map(|d| d.path().join("RPI-RP2")));
        }
    }
    candidates
        .into_iter()
        .find(|d| d.join("INFO_UF2.TXT").is_file())
}

/// `cargo xtask flash --board rp-pico --uf2`: the UF2 file copied onto the RPI-RP2 drive.
pub fn flash() -> Result<()> {
    let file = run("rp-pico")?;
    let Some(drive) = rpi_rp2_drive() else {
        bail!(
            "no RPI-RP2 drive is mounted. Hold the Pico's BOOTSEL button while you plug it in \
             (or while you tap RUN to ground), release it: the Pico shows a USB drive named \
             RPI-RP2; mount it if your system does not, then run this again. Or copy {} onto \
             the drive yourself.",
            file.display()
        );
    };
    let dest = drive.join("pocket-arena-rp-pico.uf2");
    std::fs::copy(&file, &dest)
        .with_context(|| format!("cannot copy {} to {}", file.display(), dest.display()))?;
    println!(
        "xtask: copied to {}: the Pico writes it to flash, leaves BOOTSEL mode and starts the rotation",
        dest.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::tests::elf;

    #[test]
    fn blocks_carry_the_elf_pages_with_the_rp2040_family() {
        let data: Vec<u8> = (0..300u32).map(|i| i as u8).collect();
        let f = elf(&[(1, 0x1000_0000, &data), (1, 0x1000_1010, b"xy")]);
        let segments = elf::load_segments(&f).unwrap();
        let uf2 = from_segments(&segments, RP2040_FAMILY).unwrap();
        // 300 bytes span two pages; the 2 bytes at 0x10001010 a third.
        assert_eq!(uf2.len(), 3 * BLOCK);
        let first = &uf2[..BLOCK];
        assert_eq!(&first[..4], &MAGIC_START0.to_le_bytes());
        assert_eq!(&first[4..8], &MAGIC_START1.to_le_bytes());
        assert_eq!(&first[8..12], &0x2000u32.to_le_bytes());
        assert_eq!(&first[12..16], &0x1000_0000u32.to_le_bytes());
        assert_eq!(&first[16..20], &256u32.to_le_bytes());
        assert_eq!(&first[24..28], &3u32.to_le_bytes());
        assert_eq!(&first[28..32], &0xE48B_FF56u32.to_le_bytes());
        assert_eq!(&first[508..], &0x0AB1_6F30u32.to_le_bytes());
        let back = blocks(&uf2, RP2040_FAMILY).unwrap();
        assert_eq!(back[0], (0x1000_0000, data[..256].to_vec()));
        let mut second = data[256..].to_vec();
        second.resize(256, 0);
        assert_eq!(back[1], (0x1000_0100, second));
        let mut third = vec![0u8; 256];
        third[0x10..0x12].copy_from_slice(b"xy");
        assert_eq!(back[2], (0x1000_1000, third));
        for (n, b) in uf2.chunks(BLOCK).enumerate() {
            assert_eq!(&b[20..24], &(n as u32).to_le_bytes());
        }
    }

    #[test]
    fn segments_outside_flash_and_bad_files_are_refused() {
        let f = elf(&[(1, 0x2000_0000, b"ram")]);
        let segments = elf::load_segments(&f).unwrap();
        assert!(from_segments(&segments, RP2040_FAMILY)
            .unwrap_err()
            .contains("not in the RP2040's flash"));
        let good = from_segments(
            &elf::load_segments(&elf(&[(1, 0x1000_0000, b"abc")])).unwrap(),
            RP2040_FAMILY,
        )
        .unwrap();
        assert!(blocks(&good[..500], RP2040_FAMILY)
            .unwrap_err()
            .contains("whole number"));
        assert!(blocks(&good, 0xE48B_FF57).unwrap_err().contains("family"));
        let mut bad = good.clone();
        bad[0] ^= 1;
        assert!(blocks(&bad, RP2040_FAMILY).unwrap_err().contains("magic"));
    }
}
