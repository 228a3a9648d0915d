//! A game is a folder: outside its own files (`core/src/games/<game>/`, `host/src/games/<game>/`,
//! its flags in the command layer's `host/src/cli/<game>.rs`, `firmware/src/games/<game>.rs`,
//! `host/viewer/src/games/<game>.rs`), no source file's code names it but the registries (the
//! core's `with_games!` and the boards' lineup) and the one plain `pub mod <game>;` line of each
//! layer's module list, so that adding a game touches no generic code.
//! Comments may name games (a crate doc's example does); test code, benches, examples and fuzz
//! targets may too.
//!
//! Each layer's module list is the registry: the `pub mod` lines of every file in [`LAYERS`] (and
//! the Python package's game modules) name exactly the registry's folders, so a game missing from
//! one layer, or a folder no registry knows, fails here. And those lines are plain, never inside a
//! macro, so that rustfmt, grep and cargo-mutants reach every file: rustfmt, run over every
//! workspace of the repository, reaches every `.rs` file git tracks.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The files a game may be named in besides its own: the registries.
const REGISTRIES: &[&str] = &["core/src/games/mod.rs", "firmware/src/games/mod.rs"];

/// Each layer's list of its games' modules, one plain `pub mod <folder>;` line a game.
const LAYERS: &[&str] = &[
    "core/src/games/mod.rs",
    "host/src/games/mod.rs",
    "host/src/cli/mod.rs",
    "host/viewer/src/games/mod.rs",
    "firmware/src/games/mod.rs",
];

/// The most files outside a game's folders that may name it (the measure: the registries).
const MOST: usize = 3;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if ![
                "tests",
                "target",
                "node_modules",
                "fuzz",
                "benches",
                "examples",
            ]
            .contains(&name.as_str())
            {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The spellings of a game's name: its folder, its command-line name, its type, and the type's
/// words ("TowerDefense": "Tower Defense").
fn spellings(folder: &str, name: &str, ty: &str) -> Vec<String> {
    let ty = ty.rsplit("::").next().unwrap_or(ty).to_string();
    let mut words = String::new();
    for (i, c) in ty.char_indices() {
        if i > 0 && c.is_uppercase() {
            words.push(' ');
        }
        words.push(c);
    }
    vec![folder.into(), name.into(), ty, words]
}

fn names(text: &str, spelling: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(spelling).any(|(at, _)| {
        !word(text[..at].chars().next_back()) && !word(text[at + spelling.len()..].chars().next())
    })
}

/// A source file without its comment lines (`//`, `///`, `//!`), and, in a layer's module list
/// ([`LAYERS`]), without its plain `mod` lines (the test below holds those to the registry).
fn code(rel: &str, text: &str) -> String {
    let layer = LAYERS.contains(&rel);
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .filter(|l| !(layer && module(l).is_some()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module a line declares, if it is a plain top-level `mod x;` or `pub mod x;` (not an inline
/// `mod x { ... }`, nor an indented line, as inside a macro).
fn module(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("pub ").unwrap_or(line);
    let name = rest.strip_prefix("mod ")?.trim_end().strip_suffix(';')?;
    name.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(name)
}

/// The modules a file declares with plain lines.
fn modules(text: &str) -> BTreeSet<String> {
    text.lines().filter_map(module).map(String::from).collect()
}

/// How a layer's modules differ from the registry's folders (nothing when they are equal).
fn differences(layer: &str, modules: &BTreeSet<String>, folders: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for missing in folders.difference(modules) {
        out.push(format!(
            "{layer}: no module {missing}, a game of the registry"
        ));
    }
    for extra in modules.difference(folders) {
        out.push(format!(
            "{layer}: module {extra} is no game of the registry"
        ));
    }
    out
}

/// Each game of the registry: its folder, its command-line name, its type's name.
macro_rules! games {
    ($($folder:ident: $game:ty),* $(,)?) => {
        vec![$((stringify!($folder), <$game as arena_core::Game>::NAME, std::any::type_name::<$game>())),*]
    };
}

/// The repository's root.
fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}

/// The registry's folders.
fn folders() -> BTreeSet<String> {
    let games: Vec<(&str, &str, &str)> = arena_core::with_games!(games);
    games.iter().map(|(f, _, _)| f.to_string()).collect()
}

#[test]
fn only_the_registries_name_a_game_outside_its_folders() {
    let root = root();
    let mut files = Vec::new();
    for dir in [
        "core/src",
        "host/src",
        "host/viewer/src",
        "host/xtask/src",
        "firmware/src",
        "firmware/build.rs",
        "boards",
    ] {
        let path = root.join(dir);
        if path.is_file() {
            files.push(path);
        } else {
            sources(&path, &mut files);
        }
    }
    assert!(
        files.len() > 50,
        "{} source files under {}",
        files.len(),
        root.display()
    );
    let games: Vec<(&str, &str, &str)> = arena_core::with_games!(games);
    assert!(games.len() >= 5);
    let mut report = Vec::new();
    for (folder, name, ty) in games {
        let own = [
            format!("core/src/games/{folder}/"),
            format!("host/src/games/{folder}/"),
            format!("firmware/src/games/{folder}.rs"),
            format!("firmware/src/games/{folder}/"),
            format!("host/viewer/src/games/{folder}.rs"),
            format!("host/src/cli/{folder}.rs"),
        ];
        let spelled = spellings(folder, name, ty);
        let naming: Vec<String> = files
            .iter()
            .filter_map(|f| {
                let rel = f
                    .strip_prefix(&root)
                    .ok()?
                    .to_string_lossy()
                    .replace('\\', "/");
                if own.iter().any(|o| rel.starts_with(o.as_str())) {
                    return None;
                }
                let text = code(&rel, &std::fs::read_to_string(f).ok()?);
                spelled.iter().any(|s| names(&text, s)).then_some(rel)
            })
            .collect();
        for r in REGISTRIES {
            assert!(
                naming.iter().any(|n| n == r),
                "{folder}: the registry {r} does not name it"
            );
        }
        if naming.len() > MOST {
            report.push(format!(
                "{folder} ({}): {}",
                naming.len(),
                naming.join(", ")
            ));
        }
    }
    assert!(
        report.is_empty(),
        "games named outside their folders in more than {MOST} files:\n{}",
        report.join("\n")
    );
}

#[test]
fn every_layer_declares_the_registrys_games_with_plain_mod_lines() {
    let root = root();
    let folders = folders();
    assert!(folders.len() >= 5, "{folders:?}");
    let mut report = Vec::new();
    for layer in LAYERS {
        let path = root.join(layer);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        report.extend(differences(layer, &modules(&text), &folders));
    }
    // The Python package: one module a game, `python/pocket_arena/<folder>.py`, saying `GAME = `.
    let package = root.join("python/pocket_arena");
    let python: BTreeSet<String> = std::fs::read_dir(&package)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", package.display()))
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path())
                .is_ok_and(|t| t.lines().any(|l| l.starts_with("GAME = ")))
        })
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".py").map(String::from)
        })
        .collect();
    report.extend(differences("python/pocket_arena", &python, &folders));
    assert!(
        report.is_empty(),
        "a layer's games differ from the registry's:\n{}",
        report.join("\n")
    );
}

#[test]
fn a_layer_without_one_of_the_games_is_told() {
    // The check above on the core's list with one line taken out, and with one line too many.
    let folders = folders();
    let text = std::fs::read_to_string(root().join(LAYERS[0])).unwrap();
    assert!(differences(LAYERS[0], &modules(&text), &folders).is_empty());
    let without: String = text
        .lines()
        .filter(|l| *l != "pub mod mammut;")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        differences(LAYERS[0], &modules(&without), &folders),
        [format!(
            "{}: no module mammut, a game of the registry",
            LAYERS[0]
        )]
    );
    let with = format!("{text}\npub mod chess;\n");
    assert_eq!(
        differences(LAYERS[0], &modules(&with), &folders),
        [format!(
            "{}: module chess is no game of the registry",
            LAYERS[0]
        )]
    );
    // Indented (inside a macro) or inline, a line declares no module of the list.
    assert_eq!(module("    pub mod json;"), None);
    assert_eq!(module("mod prelude {"), None);
    assert_eq!(module("pub mod ants;"), Some("ants"));
}

/// The files `cargo fmt --all` reaches in the workspace whose manifest is `manifest` (its
/// `Formatting <file>` lines; a file that is not formatted still counts as reached).
fn reached(root: &Path, manifest: &Path) -> Result<BTreeSet<PathBuf>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["fmt", "--all", "--manifest-path"])
        .arg(manifest)
        .args(["--", "--check", "-v"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run cargo fmt: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let files: BTreeSet<PathBuf> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Formatting "))
        .filter_map(|f| Path::new(f).canonicalize().ok())
        .collect();
    if files.is_empty() {
        return Err(format!(
            "cargo fmt over {} reached no file ({}): {}",
            manifest.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(files)
}

#[test]
fn rustfmt_reaches_every_rust_file_git_tracks() {
    let root = root();
    let git = |pattern: &str| -> Vec<String> {
        let out = Command::new("git")
            .args(["ls-files", "-z", "--", pattern])
            .current_dir(&root)
            .output()
            .unwrap_or_else(|e| panic!("cannot run git: {e}"));
        assert!(
            out.status.success(),
            "git ls-files in {}: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .split('\0')
            .filter(|f| !f.is_empty())
            .map(String::from)
            .collect()
    };
    // Every workspace: the root's, and those it excludes (each board, the fuzz targets, Python).
    let workspaces: Vec<String> = git("*Cargo.toml")
        .into_iter()
        .filter(|m| {
            std::fs::read_to_string(root.join(m))
                .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
        })
        .collect();
    assert!(workspaces.len() >= 2, "workspaces: {workspaces:?}");
    let mut reach = BTreeSet::new();
    for manifest in &workspaces {
        reach.extend(reached(&root, &root.join(manifest)).unwrap_or_else(|e| panic!("{e}")));
    }
    let tracked = git("*.rs");
    assert!(tracked.len() > 200, "{} files", tracked.len());
    let missed: Vec<&String> = tracked
        .iter()
        .filter(|f| {
            root.join(f)
                .canonicalize()
                .map_or(true, |p| !reach.contains(&p))
        })
        .collect();
    eprintln!(
        "rustfmt reaches {} of the {} .rs files git tracks, over {} workspaces",
        tracked.len() - missed.len(),
        tracked.len(),
        workspaces.len()
    );
    assert!(
        missed.is_empty(),
        "{} .rs files that `cargo fmt --all` reaches in no workspace (a module declared inside a \
         macro, or a workspace without `[workspace]`?):\n{}",
        missed.len(),
        missed
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
