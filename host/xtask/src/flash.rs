//! `cargo xtask flash --board rp-pico|stm32f411`: build and run on a real board through probe-rs
//! (the board's cargo runner is `probe-rs run --chip ...`); without a probe, `--uf2` for the Pico
//! (`uf2`) and `--dfu` for the Black Pill (`dfu`).

use std::process::Command;

use anyhow::{bail, Result};

use crate::{root, tools};

pub fn run(board: &str, uf2: bool, dfu: bool) -> Result<()> {
    match (board, uf2, dfu) {
        (_, true, true) => bail!("--uf2 or --dfu, not both"),
        ("rp-pico", true, _) => return crate::uf2::flash(),
        ("stm32f411", _, true) => {
            return crate::dfu::flash(&crate::stm32::build()?.join("arena"));
        }
        (_, true, _) => bail!("--uf2 is for the rp-pico (the stm32f411 takes --dfu)"),
        (_, _, true) => bail!("--dfu is for the stm32f411 (the rp-pico takes --uf2)"),
        _ => {}
    }
    let (dir, target) = match board {
        "rp-pico" => ("boards/rp-pico", "thumbv6m-none-eabi"),
        "stm32f411" => ("boards/stm32f411", "thumbv7em-none-eabihf"),
        other => bail!("unknown board {other}: rp-pico or stm32f411"),
    };
    let dir = root().join(dir);
    if !dir.join("Cargo.toml").is_file() {
        bail!("{} is not in this checkout", dir.display());
    }
    if !tools::on_path("probe-rs") {
        bail!(
            "probe-rs is not installed: `cargo install probe-rs-tools --locked` (about 10 minutes), \
             plug in a debug probe (Picoprobe / ST-Link), then run this again"
        );
    }
    tools::targets(&[target])?;
    if !tools::on_path("flip-link") {
        bail!("flip-link (the boards' linker wrapper) is not installed: run `cargo xtask setup`");
    }
    let st = Command::new("cargo")
        .args(["run", "--release", "--bin", "arena"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .status()?;
    if !st.success() {
        bail!("probe-rs run failed ({st}): is the probe connected and the board powered? `probe-rs list` shows the probes it sees");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// `cargo run` in a board folder, as the README says, needs to know which binary to run when
    /// the board has more than one.
    #[test]
    fn every_board_with_several_binaries_names_the_one_cargo_run_runs() {
        let boards = crate::root().join("boards");
        let mut checked = 0;
        for dir in std::fs::read_dir(&boards).unwrap() {
            let manifest = dir.unwrap().path().join("Cargo.toml");
            let Ok(text) = std::fs::read_to_string(&manifest) else {
                continue;
            };
            let bins: Vec<&str> = text
                .split("[[bin]]")
                .skip(1)
                .filter_map(|b| b.lines().find_map(|l| l.strip_prefix("name = ")))
                .map(|n| n.trim_matches('"'))
                .collect();
            if bins.len() < 2 {
                continue;
            }
            let default = text
                .lines()
                .find_map(|l| l.strip_prefix("default-run = "))
                .map(|n| n.trim_matches('"'));
            assert!(
                default.is_some_and(|d| bins.contains(&d)),
                "{}: binaries {bins:?}, default-run {default:?}",
                manifest.display()
            );
            checked += 1;
        }
        assert!(
            checked >= 2,
            "the QEMU board and the Pico have two binaries each"
        );
    }
}
