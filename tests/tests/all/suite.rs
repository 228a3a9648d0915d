//! The generic suite, run over every game of the host registry and the board build of Ants; and
//! the check that every registered game is in the suite, the soak and the fuzz targets.

use arena_tests::suites;

arena_core::with_games!(suites);
arena_tests::suite!(ants_board_build, arena_core::games::ants::AntsMcu);

/// The fuzz targets every game has, `<kind>_<folder>` (see tests/fuzz/README.md).
const FUZZ_KINDS: [&str; 3] = ["action", "verify", "game"];

/// The `[[bin]]` names of tests/fuzz/Cargo.toml.
fn fuzz_targets() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/Cargo.toml");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut in_bin = false;
    let mut names = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let (true, Some(value)) = (in_bin, line.strip_prefix("name = ")) {
            names.push(value.trim_matches('"').to_string());
        }
    }
    names
}

#[test]
fn every_registered_game_is_in_the_suite_the_soak_and_the_fuzz_targets_and_only_they() {
    let targets = fuzz_targets();
    let soaked: Vec<&str> = arena_tests::soak::GAMES.iter().map(|g| g.name).collect();
    let mut missing = Vec::new();
    for game in arena_host::games::GAMES {
        if !SUITE_GAMES.contains(&game.name) {
            missing.push(format!("{}: not in the generic suite", game.name));
        }
        if !soaked.contains(&game.name) {
            missing.push(format!("{}: not in the soak", game.name));
        }
        let folder = game.name.replace('-', "_");
        for kind in FUZZ_KINDS {
            let target = format!("{kind}_{folder}");
            if !targets.contains(&target) {
                missing.push(format!("{}: no fuzz target {target}", game.name));
            }
        }
    }
    let folders: Vec<String> = arena_host::games::GAMES
        .iter()
        .map(|g| g.name.replace('-', "_"))
        .collect();
    for target in &targets {
        let of_kind = FUZZ_KINDS
            .iter()
            .find_map(|kind| target.strip_prefix(kind)?.strip_prefix('_'));
        if let Some(folder) = of_kind.filter(|f| !folders.iter().any(|g| g == f)) {
            missing.push(format!("fuzz target {target}: no registered game {folder}"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert_eq!(soaked.len(), arena_host::games::GAMES.len(), "{soaked:?}");
}
