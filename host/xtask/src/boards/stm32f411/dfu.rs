//! DFU for the STM32F411 Black Pill: the chip's ROM bootloader speaks USB DFU (hold BOOT0, tap
//! NRST), and Debian's `dfu-util` writes a raw image to its flash. The image is the ELF's flash
//! contents made by `llvm-objcopy -O binary` (llvm-tools), from the lowest loaded address to the
//! highest, gaps zero; it must start at the flash's first byte (0x08000000), where dfu-util is
//! told to write it and where the chip boots from.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{anyhow, bail, ensure, Context, Result};

use crate::{elf, root, tools};

pub const FLASH: u32 = 0x0800_0000;
pub const FLASH_SIZE: u32 = 512 * 1024;
/// The USB id of the STM32 ROM's DFU bootloader.
pub const DFU_ID: &str = "0483:df11";

/// Where `flash --dfu` writes the raw image.
pub fn image_path() -> PathBuf {
    root().join("target/dfu/pocket-arena-stm32f411.bin")
}

/// The raw image of `elf` in `out` (llvm-objcopy -O binary), checked against the ELF.
pub fn make(elf: &Path, out: &Path) -> Result<usize> {
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    tools::status(
        Command::new(tools::llvm_tool("llvm-objcopy")?)
            .args(["-O", "binary"])
            .arg(elf)
            .arg(out),
    )?;
    same_as_elf(elf, out)
}

/// Fails unless `bin` holds exactly the flash contents the ELF's loadable segments give, starting
/// at 0x08000000 (gaps zero, as objcopy fills them); its length.
pub fn same_as_elf(elf_path: &Path, bin: &Path) -> Result<usize> {
    let bytes =
        std::fs::read(elf_path).with_context(|| format!("cannot read {}", elf_path.display()))?;
    let segments =
        elf::load_segments(&bytes).map_err(|e| anyhow!("{}: {e}", elf_path.display()))?;
    let (start, want) = elf::flash_image(&segments, FLASH, FLASH_SIZE, 0)
        .map_err(|e| anyhow!("{}: {e}", elf_path.display()))?;
    ensure!(
        start == FLASH,
        "{}: the image would start at 0x{start:08x}, not at the flash's start 0x{FLASH:08x}",
        elf_path.display()
    );
    let got = std::fs::read(bin).with_context(|| format!("cannot read {}", bin.display()))?;
    if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
        bail!(
            "{} differs from the ELF's flash contents at 0x{:08x} (image {} bytes, ELF {} bytes)",
            bin.display(),
            FLASH as usize + i,
            got.len(),
            want.len()
        );
    }
    Ok(got.len())
}

/// `cargo xtask flash --board stm32f411 --dfu`.
pub fn flash(elf: &Path) -> Result<()> {
    let out = image_path();
    let n = make(elf, &out)?;
    println!(
        "xtask: {} ({n} bytes), the ELF's flash contents from 0x{FLASH:08x}",
        out.display()
    );
    if !tools::on_path("dfu-util") {
        bail!(
            "dfu-util is not installed: `sudo apt-get install dfu-util` (Debian, Ubuntu), then run \
             this again; or flash {} with any DFU tool at 0x{FLASH:08x}",
            out.display()
        );
    }
    let list = Command::new("dfu-util")
        .arg("-l")
        .output()
        .context("cannot run dfu-util -l")?;
    let listed = String::from_utf8_lossy(&list.stdout);
    if !listed.contains(DFU_ID) {
        bail!(
            "no STM32 in DFU mode ({DFU_ID}) on USB. Put the Black Pill in its ROM bootloader: \
             hold BOOT0, tap NRST, release BOOT0 (with the board on USB-C), then run this again \
             (`dfu-util -l` lists what it sees; on Linux it may need a udev rule or sudo)"
        );
    }
    let addr = format!("0x{FLASH:08x}:leave");
    tools::status(
        Command::new("dfu-util")
            .args(["-a", "0", "-s", &addr, "-D"])
            .arg(&out),
    )
    .context("dfu-util failed")?;
    println!("xtask: flashed; the chip leaves the bootloader and starts the rotation");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::tests::elf;

    #[test]
    fn an_image_equals_the_elf_flash_contents_or_the_difference_is_named() {
        let dir = root().join("target/xtask-dfu-test");
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.elf");
        std::fs::write(
            &f,
            elf(&[(1, 0x0800_0000, b"vect"), (1, 0x0800_0008, b"data")]),
        )
        .unwrap();
        let bin = dir.join("a.bin");
        std::fs::write(&bin, b"vect\0\0\0\0data").unwrap();
        assert_eq!(same_as_elf(&f, &bin).unwrap(), 12);
        std::fs::write(&bin, b"vect\0\0\0\0dat").unwrap();
        let e = same_as_elf(&f, &bin).unwrap_err().to_string();
        assert!(e.contains("at 0x0800000b"), "{e}");
        // An image that would not start at the flash's start is refused.
        std::fs::write(&f, elf(&[(1, 0x0800_0100, b"late")])).unwrap();
        let e = same_as_elf(&f, &bin).unwrap_err().to_string();
        assert!(e.contains("not at the flash's start"), "{e}");
    }
}
