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
fn a_replay_checked_on_a_map_asks_for_it() {
    let replay = path("ants", "rw04p_mixed_s5/replay.json");
    let out = arena(&["verify", &replay]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("--map MAP"), "{}", text(&out));
    let map = path("ants", "rw04p_mixed_s5/map.map");
    let out = arena(&["verify", &replay, "--map", &map]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_file_that_is_no_replay_is_refused() {
    let readme = workspace().join("README.md");
    let out = arena(&["verify", readme.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("not a replay"), "{}", text(&out));
}
