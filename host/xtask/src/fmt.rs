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
        files.extend(roots(&root.join(folder))?);
    }
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

/// The module files of `dir` that no `mod` line rustfmt can read declares: `dir/*.rs` (its
/// `mod.rs` and the games in one file) and each `dir/<game>/mod.rs`. rustfmt follows their own
/// `mod` lines to the rest, so no file is given twice.
fn roots(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            files.push(path.join("mod.rs"));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
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
    fn every_game_folder_is_given_by_its_roots() {
        for folder in GAME_FOLDERS {
            let roots = roots(&crate::root().join(folder)).unwrap();
            assert!(roots.iter().all(|f| f.is_file()), "{folder}: {roots:?}");
            assert!(
                roots.iter().any(|f| f.ends_with("games/mod.rs")),
                "{folder}: {roots:?}"
            );
        }
    }

    #[test]
    fn every_folder_whose_modules_a_macro_declares_is_listed() {
        // A `games/mod.rs` that declares its modules in a macro (`$(pub mod $folder;)*`).
        let root = crate::root();
        let mut declared = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if path.is_dir()
                    && !name.starts_with('.')
                    && name != "target"
                    && name != "node_modules"
                {
                    dirs.push(path);
                } else if path.ends_with("src/games/mod.rs")
                    && std::fs::read_to_string(&path).unwrap().contains("mod $")
                {
                    let folder = path.parent().unwrap().strip_prefix(&root).unwrap();
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
