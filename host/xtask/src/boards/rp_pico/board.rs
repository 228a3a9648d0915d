//! The Raspberry Pi Pico as xtask sees it (`crate::boards::Board`): its checks, cost table,
//! emulated runs and UF2 file.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::{check, uf2, Run, BOARD, TARGET};
use crate::boards::{Board, Checks, Core, Image};
use crate::root;
use crate::rotation::Rotation;
use crate::setup::Needs;

/// The Raspberry Pi Pico (RP2040, Cortex-M0+) with an SSD1306 OLED on I2C0.
pub(crate) struct RpPico;

impl Board for RpPico {
    fn name(&self) -> &'static str {
        "rp-pico"
    }
    fn called(&self) -> &'static str {
        "Pico"
    }
    fn help(&self, task: &str) -> Option<&'static str> {
        Some(match task {
            "emulate" => {
                "the Pico's release ELF on an emulated RP2040 (rp2040js, the Node harness in \
                 host/xtask/emulators/rp2040) with an SSD1306 on I2C0."
            }
            "firmware-test" => {
                "host vs the emulated Pico: identical digests, OLED frames equal to the host \
                 rendering at oled128x64, the panic in the log with a failure status, the stack \
                 per match (the Pico booted from its UF2 file)."
            }
            "cost" => {
                "cycles per turn on the emulated Pico (Cortex-M0+) beside the QEMU Cortex-M3 \
                 figures; JSON in target/cost-rp-pico.json."
            }
            "uf2" => {
                "The Pico's release ELF as a UF2 file in target/uf2/\n\n\
                 The Pico's release ELF as a UF2 file: target/uf2/pocket-arena-rp-pico.uf2."
            }
            _ => return None,
        })
    }
    fn words(&self) -> &'static [&'static str] {
        &["pico", "rp2040"]
    }
    fn folder(&self) -> &'static str {
        BOARD
    }
    fn target(&self) -> &'static str {
        TARGET
    }
    fn chip(&self) -> (u64, u64) {
        (2048 * 1024, 264 * 1024)
    }
    fn core(&self) -> Core {
        Core {
            about: "Cortex-M0+ (RP2040, 125 MHz; rp2040js cycles)",
            mhz: 125,
            unit: "cycles",
            short: "M0+",
            key: "rp2040_cortex_m0plus",
        }
    }
    fn build(&self) -> Result<PathBuf> {
        super::build()
    }
    fn rotation(&self) -> Rotation {
        Rotation::of::<super::Lineup>()
    }
    fn alone(&self, elf: &Path, first: u32) -> Result<Vec<Value>> {
        let own = super::Options::default();
        crate::rotation::emulated_entry(elf, first, 1500, own, "cycles")
    }
    fn report(&self) -> &'static str {
        super::REPORT
    }
    /// Node and npm for the harness, its Node packages, defmt-print and flip-link.
    fn needs(&self) -> Needs {
        Needs {
            debian: &[("node", "nodejs"), ("npm", "npm")],
            crates: &["defmt-print", "flip-link"],
            more: super::node_packages,
            about: "the emulated Pico's Node packages (npm ci from the committed lock file)",
        }
    }
    /// Every board's needs: its cost table stands beside the baseline board's figures, and its
    /// checks ran beside every other board's.
    fn setup(&self) -> Result<()> {
        crate::setup::all(&crate::boards::needs())
    }
    fn checks(&self) -> Checks {
        Checks::Beside {
            build_step: "Pico build",
            beside_step: "Pico (beside)",
            rank: 1,
            build: check::build,
            check: check::emulate,
        }
    }
    fn cost(&self, json_only: bool) -> Result<()> {
        super::cost(json_only).map(drop)
    }
    /// `cargo xtask emulate rp-pico`: the Pico's release ELF on the emulated RP2040.
    fn emulate(&self, elf: Option<&Path>, matches: u32, snap: u32) -> Result<()> {
        self.setup()?;
        let elf = match elf {
            Some(elf) => elf.to_path_buf(),
            None => super::build()?.join("arena"),
        };
        let dir = crate::tools::fresh_dir(&root().join("target/emulate/rp-pico"))?;
        println!(
            "xtask: emulated Raspberry Pi Pico (rp2040js) with an SSD1306 on I2C0, {}; {matches} \
             matches, a frame every {snap} turns",
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
        crate::emulate::finish(&ran, "Pico", &dir)
    }
    fn image(&self) -> Option<Image> {
        Some(Image {
            flag: "--uf2",
            about: "copy the UF2 file onto the RPI-RP2 drive (no probe)",
            how: "copy the UF2 file onto the RPI-RP2 drive a Pico in BOOTSEL mode shows",
            write: || uf2::run("rp-pico"),
            flash: uf2::flash,
        })
    }
}
