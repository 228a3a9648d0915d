//! `arena verify FILE` finds the game as `render` does; a file of another game is refused by what
//! it is, not by its first differing field.

use crate::common::*;

fn path(game: &str, file: &str) -> String {
    golden(game).join(file).to_str().unwrap().to_owned()
}

#[test]
fn verify_finds_the_game_from_the_file() {
    for (game, file) in [
        ("tower-defense", "random-random-1.jsonl"),
        ("ballroom", "seed1.json"),
    ] {
        let said = text(&Arena::new(&["verify", &path(game, file)]).ok());
        assert!(said.contains(": ok: "), "{said}");
    }
}

#[test]
fn a_file_of_another_game_is_named_for_what_it_is() {
    let td = path("tower-defense", "random-random-1.jsonl");
    let t = Arena::new(&["verify", "ballroom", &td]).exits(1);
    assert!(
        t.contains("this is a Tower Defense trace, not a Ballroom Blitz game log"),
        "{t}"
    );
    let bb = path("ballroom", "seed1.json");
    let t = Arena::new(&["verify", "mammut", &bb]).exits(1);
    assert!(
        t.contains("this is a Ballroom Blitz game log, not a Mammut trace"),
        "{t}"
    );
}

#[test]
fn an_ants_replay_is_checked_on_the_map_it_holds() {
    for game in ["rw04p_mixed_s5", "maze03p_s9", "tut_hunter_greedy_s7"] {
        let replay = path("ants", &format!("{game}/replay.json"));
        Arena::new(&["verify", &replay]).ok();
        let map = path("ants", &format!("{game}/map.map"));
        Arena::new(&["verify", "ants", &replay, "--map", &map]).ok();
    }
}

#[test]
fn an_ants_replay_checked_on_another_map_says_the_maps_differ() {
    let replay = path("ants", "rw04p_mixed_s5/replay.json");
    let other = path("ants", "maps/tutorial1.map");
    let t = Arena::new(&["verify", &replay, "--map", &other]).exits(1);
    assert!(t.contains("the maps differ"), "{t}");
    assert!(
        t.contains("for 4 players, this one 43x39 for 2 players"),
        "{t}"
    );
}

/// The first `lines` lines of a golden Tower Defense trace, as a file cut short.
fn cut(lines: usize) -> tempfile::NamedTempFile {
    let whole = std::fs::read_to_string(path("tower-defense", "random-random-1.jsonl")).unwrap();
    let mut file = tempfile::NamedTempFile::new().unwrap();
    let kept: Vec<&str> = whole.lines().take(lines).collect();
    assert_eq!(kept.len(), lines, "the golden trace is longer");
    std::io::Write::write_all(&mut file, (kept.join("\n") + "\n").as_bytes()).unwrap();
    file
}

#[test]
fn a_replay_cut_short_says_the_match_does_not_finish_in_it() {
    // The header, the turn-0 state, then turns 1 to 298.
    let file = cut(300);
    let name = file.path().to_str().unwrap();
    let t = Arena::new(&["verify", name]).exits(1);
    assert!(
        t.contains("ok: 298 turns re-played"),
        "it verifies what it has: {t}"
    );
    assert!(
        t.contains("the match does not finish in this file (last turn 298)"),
        "{t}"
    );
    Arena::new(&["verify", "tower-defense", name, "--partial"]).ok();
}

#[test]
fn a_file_that_is_no_replay_is_refused() {
    let readme = workspace().join("README.md");
    let t = Arena::new(&["verify", arg(&readme)]).exits(1);
    assert!(t.contains("not a replay"), "{t}");
}
