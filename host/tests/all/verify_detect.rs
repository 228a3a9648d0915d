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
        let out = arena(&["verify", &path(game, file)]);
        assert!(out.status.success(), "{game}: {}", text(&out));
        assert!(text(&out).contains(": ok: "), "{}", text(&out));
    }
}

#[test]
fn a_file_of_another_game_is_named_for_what_it_is() {
    let td = path("tower-defense", "random-random-1.jsonl");
    let out = arena(&["verify", "ballroom", &td]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("this is a Tower Defense trace, not a Ballroom Blitz game log"),
        "{t}"
    );
    let bb = path("ballroom", "seed1.json");
    let out = arena(&["verify", "mammut", &bb]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("this is a Ballroom Blitz game log, not a Mammut trace"),
        "{}",
        text(&out)
    );
}

#[test]
fn an_ants_replay_is_checked_on_the_map_it_holds() {
    for game in ["rw04p_mixed_s5", "maze03p_s9", "tut_hunter_greedy_s7"] {
        let replay = path("ants", &format!("{game}/replay.json"));
        let out = arena(&["verify", &replay]);
        assert!(out.status.success(), "{game}: {}", text(&out));
        let map = path("ants", &format!("{game}/map.map"));
        let out = arena(&["verify", "ants", &replay, "--map", &map]);
        assert!(out.status.success(), "{game}: {}", text(&out));
    }
}

#[test]
fn an_ants_replay_checked_on_another_map_says_the_maps_differ() {
    let replay = path("ants", "rw04p_mixed_s5/replay.json");
    let other = path("ants", "maps/tutorial1.map");
    let out = arena(&["verify", &replay, "--map", &other]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
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
    let out = arena(&["verify", name]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("ok: 298 turns re-played"),
        "it verifies what it has: {t}"
    );
    assert!(
        t.contains("the match does not finish in this file (last turn 298)"),
        "{t}"
    );
    let out = arena(&["verify", "tower-defense", name, "--partial"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_file_that_is_no_replay_is_refused() {
    let readme = workspace().join("README.md");
    let out = arena(&["verify", readme.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("not a replay"), "{}", text(&out));
}
