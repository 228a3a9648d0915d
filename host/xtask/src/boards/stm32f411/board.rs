//! The STM32F411 Black Pill as xtask sees it (`crate::boards::Board`): its checks, cost table,
//! emulated runs and DFU image.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::{check, dfu, Run, BOARD, TARGET};
use crate::boards::{Board, Checks, Core, Image};
use crate::root;
use crate::rotation::Rotation;
use crate::setup::Needs;

/// The STM32F411CE Black Pill (Cortex-M4F) with an ST7789 LCD on SPI1.
pub(crate) struct Stm32f411;

impl Board for Stm32f411 {
    fn name(&self) -> &'static str {
        "stm32f411"
    }
    fn called(&self) -> &'static str {
        "STM32F411"
    }
    fn help(&self, task: &str) -> Option<&'static str> {
        Some(match task {
            "emulate" => {
                "the Black Pill's release ELF on an emulated STM32F411CE (Unicorn, from PyPI into \
                 a venv under target/, the Python harness in host/xtask/emulators/stm32f411) with an \
                 ST7789 on SPI1."
            }
            "firmware-test" => {
                "host vs the emulated STM32F411: identical digests, the ST7789's frames equal to \
                 the host rendering at rgb240x240, the panic in the log with a failure status, the \
                 stack per match, its clock tree and the DFU image."
            }
            "cost" => {
                "instructions per turn on the emulated STM32F411 (Cortex-M4F) beside the QEMU \
                 Cortex-M3 figures (and the Pico's Cortex-M0+, when measured); JSON in \
                 target/cost-stm32f411.json."
            }
            _ => return None,
        })
    }
    fn words(&self) -> &'static [&'static str] {
        &["stm32", "f411"]
    }
    fn folder(&self) -> &'static str {
        BOARD
    }
    fn target(&self) -> &'static str {
        TARGET
    }
    fn chip(&self) -> (u64, u64) {
        (512 * 1024, 128 * 1024)
    }
    fn core(&self) -> Core {
        Core {
            about:
                "Cortex-M4F (STM32F411, 100 MHz; emulated: instructions, a lower bound on cycles)",
            mhz: 100,
            unit: "instructions",
            short: "M4",
            key: "stm32f411_cortex_m4",
        }
    }
    fn build(&self) -> Result<PathBuf> {
        super::build()
    }
    fn rotation(&self) -> Rotation {
        Rotation::of::<super::Lineup>()
    }
    fn alone(&self, elf: &Path, first: u32) -> Result<Vec<Value>> {
        let own = super::Options {
            count: true,
            ..super::Options::default()
        };
        crate::rotation::emulated_entry(elf, first, 3000, own, "instructions")
    }
    fn report(&self) -> &'static str {
        super::REPORT
    }
    /// defmt-print, flip-link and the harness's venv.
    fn needs(&self) -> Needs {
        Needs {
            debian: &[],
            crates: &["defmt-print", "flip-link"],
            more: super::venv,
            about: "the emulated STM32F411's venv (pip)",
        }
    }
    fn checks(&self) -> Checks {
        // The longest emulated run (one core, minutes): built and started first.
        Checks::Beside {
            build_step: "STM32F411 build",
            beside_step: "STM32F411 (beside)",
            rank: 2,
            build: check::build,
            check: check::emulate,
        }
    }
    fn cost(&self, json_only: bool) -> Result<()> {
        super::cost(json_only).map(drop)
    }
    /// `cargo xtask emulate stm32f411`: the Black Pill's release ELF on the emulated STM32F411CE.
    fn emulate(&self, elf: Option<&Path>, matches: u32, snap: u32) -> Result<()> {
        self.setup()?;
        let elf = match elf {
            Some(elf) => elf.to_path_buf(),
            None => super::build()?.join("arena"),
        };
        let dir = crate::tools::fresh_dir(&root().join("target/emulate/stm32f411"))?;
        println!(
            "xtask: emulated STM32F411CE (Unicorn) with an ST7789 on SPI1, {}; {matches} matches, \
             a frame every {snap} turns (the cost lines count nothing here: `cost --board stm32f411` \
             counts instructions)",
            elf.display()
        );
        let ran = Run {
            matches: Some(matches),
            frames: Some(&dir),
            every: Some(snap),
            echo: true,
            ..Run::new(&elf, 3600)
        }
        .go()?;
        crate::emulate::finish(&ran, "STM32F411", &dir)
    }
    fn image(&self) -> Option<Image> {
        Some(Image {
            flag: "--dfu",
            about: "the raw image through the ROM's USB DFU bootloader with dfu-util (no probe)",
            how: "the raw image through the ROM's USB DFU bootloader with dfu-util",
            write: dfu_file,
            flash: flash_dfu,
        })
    }
}

/// `cargo xtask flash --board stm32f411 --dfu`: the release ELF's raw image through the ROM's DFU
/// bootloader.
fn flash_dfu() -> Result<()> {
    dfu::flash(&super::build()?.join("arena"))
}

/// The DFU image (the release ELF's flash contents) written alone.
fn dfu_file() -> Result<std::path::PathBuf> {
    let elf = super::build()?.join("arena");
    let out = dfu::image_path();
    let n = dfu::make(&elf, &out)?;
    println!("xtask: {} ({n} bytes)", out.display());
    Ok(out)
}
