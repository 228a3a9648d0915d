//! `cargo xtask flash --board B`: build and run on a real board through probe-rs (the board's cargo
//! runner is `probe-rs run --chip ...`); without a probe, the board's image (`Board::image`: a UF2
//! file, a DFU download) written by the board's own code.

use std::process::Command;

use anyhow::{bail, ensure, Result};

use crate::boards::{Board, BOARDS};

use crate::{root, tools};

pub fn run(board: &str, uf2: bool, dfu: bool) -> Result<()> {
    let b = crate::boards::named(board)?;
    let real = |b: &&dyn Board| b.on_a_desk();
    ensure!(
        real(&b),
        "{board} is emulated only: flash takes {}",
        crate::boards::names_where(real, " or ")
    );
    if uf2 || dfu {
        ensure!(!(uf2 && dfu), "--uf2 or --dfu, not both");
        let flag = if uf2 { "--uf2" } else { "--dfu" };
        // Who takes which image, for the message when this board does not take `flag`.
        let takes = |flag: &str| {
            BOARDS
                .iter()
                .filter(|b| b.image().is_some_and(|i| i.flag == flag))
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return match b.image() {
            Some(image) if image.flag == flag => (image.flash)(),
            Some(image) => bail!(
                "{flag} is for the {} (the {board} takes {})",
                takes(flag),
                image.flag
            ),
            None => bail!(
                "{flag} is for the {} (the {board} takes neither)",
                takes(flag)
            ),
        };
    }
    let (dir, target) = (b.folder(), b.target());
    let dir = root().join(dir);
    if !dir.join("Cargo.toml").is_file() {
        bail!("{} is not in this checkout", dir.display());
    }
    if !tools::on_path("probe-rs") {
        bail!(
            "probe-rs is not installed: `cargo install probe-rs-tools --locked` (about 10 minutes), \
             plug in a debug probe, then run this again"
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

/// `cargo xtask uf2 --board B` (`flag` `--uf2`): the board's image file written alone.
pub fn image_file(board: &str, flag: &str) -> Result<std::path::PathBuf> {
    let b = crate::boards::named(board)?;
    match b.image() {
        Some(image) if image.flag == flag => (image.write)(),
        other => {
            let takes =
                crate::boards::names_where(|b| b.image().is_some_and(|i| i.flag == flag), " or ");
            let instead = match other {
                Some(i) => format!(
                    " (the {board} flashes with `flash --board {board} {}`)",
                    i.flag
                ),
                None => String::new(),
            };
            bail!(
                "{} --board {board}: only the {takes} takes {} files{instead}",
                &flag[2..],
                flag[2..].to_uppercase()
            )
        }
    }
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
        assert!(checked >= 2, "two boards (at least) have two binaries each");
    }
}
