//! A game is a folder: outside its own files (`core/src/games/<game>/`, `host/src/games/<game>/`,
//! its flags in the command layer's `host/src/cli/<game>.rs`, `firmware/src/games/<game>.rs`,
//! `host/viewer/src/games/<game>.rs`), no source file's code names it but the registries (the
//! core's `with_games!` and the boards' lineup), so that adding a game touches no generic code.
//! Comments may name games (a crate doc's example does); test code, benches, examples and fuzz
//! targets may too.

use std::path::{Path, PathBuf};

/// The files a game may be named in besides its own: the registries.
const REGISTRIES: &[&str] = &["core/src/games/mod.rs", "firmware/src/games/mod.rs"];

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

/// A source file without its comment lines (`//`, `///`, `//!`).
fn code(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

macro_rules! folders {
    ($($folder:ident: $game:ty),* $(,)?) => {
        vec![$((stringify!($folder), <$game as arena_core::Game>::NAME, std::any::type_name::<$game>())),*]
    };
}

#[test]
fn only_the_registries_name_a_game_outside_its_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
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
    let games: Vec<(&str, &str, &str)> = arena_core::with_games!(folders);
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
                let text = code(&std::fs::read_to_string(f).ok()?);
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
