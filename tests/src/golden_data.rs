//! Where the golden data written by the original engines is found. Shared with arena-host's
//! integration tests (`host/tests/all/common`, through `#[path]`): arena-tests depends on
//! arena-host, so those tests cannot use this crate.

use std::path::PathBuf;

/// The folder of golden data for `game` (`tower-defense`, `ants`...): `$ARENA_GOLDEN/<game>` if set,
/// else `../shared/golden/<game>` beside the project. Missing data is a test failure with a clear
/// message, never a skip.
pub fn golden(game: &str) -> PathBuf {
    let root = match std::env::var_os("ARENA_GOLDEN") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden"),
    };
    let dir = root.join(game);
    assert!(
        dir.is_dir(),
        "golden data for {game} not found at {}: put ../shared beside the project or set ARENA_GOLDEN",
        dir.display()
    );
    dir
}

/// Every file in a golden folder with the given extension, sorted by name.
pub fn golden_files(game: &str, ext: &str) -> Vec<PathBuf> {
    let dir = golden(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} files in {}", dir.display());
    files
}
