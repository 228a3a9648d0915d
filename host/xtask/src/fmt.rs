//! `cargo xtask fmt`: `cargo fmt`, and rustfmt over the game folders, which `cargo fmt` does not
//! reach: each layer declares its games' modules in a macro (from `with_games!`, the one
//! registry), and rustfmt follows only the `mod` lines it can read.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The layers whose `src/games/` modules are declared by the registry's macro.
const GAME_FOLDERS: [&str; 3] = ["core/src/games", "host/src/games", "host/viewer/src/games"];

/// Formats the workspace, or with `check` fails where a file is not formatted.
pub fn run(check: bool) -> Result<()> {
    let mode: &[&str] = if check { &["--check"] } else { &[] };
    crate::run("cargo", &[&["fmt", "--all"], mode].concat())?;
    let root = crate::root();
    let edition = edition(&root.join("Cargo.toml"))?;
    let mut files = Vec::new();
    for folder in GAME_FOLDERS {
        sources(&root.join(folder), &mut files)?;
    }
    files.sort();
    let files: Vec<String> = files
        .iter()
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["--edition", edition.as_str()];
    args.extend(mode);
    args.extend(files.iter().map(String::as_str));
    crate::run("rustfmt", &args)
}

/// The workspace's edition (`edition = "..."` in the root manifest), as `cargo fmt` passes it.
fn edition(manifest: &Path) -> Result<String> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("cannot read {}", manifest.display()))?;
    edition_in(&text).with_context(|| format!("no edition in {}", manifest.display()))
}

fn edition_in(manifest: &str) -> Option<String> {
    manifest
        .lines()
        .filter_map(|l| l.trim().strip_prefix("edition"))
        .filter_map(|rest| rest.trim().strip_prefix('='))
        .map(|v| v.trim().trim_matches('"').to_string())
        .next()
}

/// Every `.rs` file under `dir` (build outputs left out).
fn sources(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.ends_with("target") || path.ends_with("node_modules") {
            continue;
        }
        if path.is_dir() {
            sources(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edition_is_read_from_the_manifest() {
        let manifest = "[workspace.package]\neditions_note = 1\nedition = \"2021\"\n";
        assert_eq!(edition_in(manifest).as_deref(), Some("2021"));
        assert_eq!(edition_in("[package]\nname = \"x\"\n"), None);
        assert!(edition(&crate::root().join("Cargo.toml")).is_ok());
    }

    #[test]
    fn every_folder_whose_modules_a_macro_declares_is_listed() {
        // A `games/mod.rs` that declares its modules in a macro (`$(pub mod $folder;)*`).
        let root = crate::root();
        let mut declared = Vec::new();
        for layer in ["core", "firmware", "host", "tests", "benches"] {
            let mut files = Vec::new();
            sources(&root.join(layer), &mut files).unwrap();
            for f in files.iter().filter(|f| f.ends_with("src/games/mod.rs")) {
                if std::fs::read_to_string(f).unwrap().contains("mod $") {
                    let folder = f.parent().unwrap().strip_prefix(&root).unwrap();
                    declared.push(folder.to_string_lossy().into_owned());
                }
            }
        }
        declared.sort();
        let mut listed = GAME_FOLDERS.map(String::from).to_vec();
        listed.sort();
        assert_eq!(declared, listed);
    }
}
