//! Replay and trace readers under files made to exhaust them: a valid header followed by a 6 GB
//! sparse region (4 KB on disk) gets a clear error from `verify` and `render`, not an allocation
//! failure, and a 5 MB field is cut to a few hundred bytes in the error that names it.

use crate::common::*;
use std::path::Path;

/// The games whose replays are traces of JSON lines, and a match of each to start from.
fn traces() -> Vec<(&'static str, Arena)> {
    vec![
        (
            "tower-defense",
            Arena::play("tower-defense").args(&["--bot", "strong", "--bot", "random"]),
        ),
        (
            "colorfight",
            Arena::play("colorfight").args(&["--ticks", "20"]),
        ),
        ("mammut", mammut_against_builtins("greedy")),
    ]
}

/// A replay of `arena` (seed 1, played to the end).
fn played(arena: Arena, dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    arena.args(&["--seed", "1"]).replay(&path).ok();
    std::fs::read_to_string(&path).unwrap()
}

/// `text`, then `len` bytes of a sparse region: zeros the file system does not store.
fn sparse(path: &Path, text: &str, len: u64) {
    std::fs::write(path, text).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_len(text.len() as u64 + len).unwrap();
}

#[test]
fn a_valid_header_then_six_gigabytes_of_nothing_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (game, arena) in traces() {
        let replay = played(arena, dir.path(), &format!("{game}.jsonl"));
        let header = replay.lines().next().unwrap();
        let file = dir.path().join(format!("{game}-sparse.jsonl"));
        sparse(&file, &format!("{header}\n"), 6 << 30);
        for (what, out) in [
            ("verify GAME", Arena::verify(game, &file).run()),
            ("verify", Arena::new(&["verify", arg(&file)]).run()),
            (
                "render",
                Arena::new(&["render", arg(&file)])
                    .file("--out", &dir.path().join(format!("{game}.png")))
                    .run(),
            ),
        ] {
            let said = text(&out);
            if out.status.success() || out.status.code().is_none() {
                failures.push(format!("{game}, {what}: {} {said}", out.status));
            } else if !said.contains("longer than 64 MB") || said.contains("allocation") {
                failures.push(format!("{game}, {what}: not the line cap: {said}"));
            }
        }
    }
    // The formats written as one JSON document: the cap holds there too.
    for (game, start) in [
        ("ants", "{\"challenge\": \"ants\", \"x\": \""),
        ("ballroom", "{\"names\": \""),
    ] {
        let file = dir.path().join(format!("{game}-sparse.json"));
        let long = "a".repeat(1 << 20);
        let mut text = start.to_string();
        // 70 MB of one string: over the cap, whose error must come before the end of it.
        for _ in 0..70 {
            text.push_str(&long);
        }
        sparse(&file, &text, 0);
        let out = Arena::verify(game, &file).run();
        let said = crate::common::text(&out);
        if out.status.code() != Some(1) || !said.contains("longer than 64 MB") {
            failures.push(format!("{game}: {} {said}", out.status));
        }
    }
    assert_no_failures(&failures);
}

#[test]
fn a_five_megabyte_field_is_cut_in_the_error_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(5 << 20);
    let mut failures = Vec::new();
    for (game, arena) in traces() {
        let replay = played(arena, dir.path(), &format!("{game}.jsonl"));
        let mut lines: Vec<String> = replay.lines().map(str::to_string).collect();
        let mut refused = 0;
        // The header's own fields, and a step's: each given a 5 MB value in turn.
        for line in [0, 1] {
            let mut value: serde_json::Value = serde_json::from_str(&lines[line]).unwrap();
            let keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
            for key in keys {
                let was = value[&key].clone();
                value[&key] = serde_json::Value::String(long.clone());
                let saved = std::mem::replace(&mut lines[line], value.to_string());
                let file = dir.path().join(format!("{game}-long.jsonl"));
                std::fs::write(&file, lines.join("\n") + "\n").unwrap();
                lines[line] = saved;
                value[&key] = was;
                let out = Arena::verify(game, &file).run();
                let said = text(&out);
                // A field the re-play does not read (Mammut's bot names) may verify.
                refused += usize::from(!out.status.success());
                if said.len() > 1000 {
                    failures.push(format!(
                        "{game}, line {}, {key}: {} bytes of error: {}...",
                        line + 1,
                        said.len(),
                        &said[..200]
                    ));
                }
            }
        }
        if refused < 3 {
            failures.push(format!("{game}: only {refused} long fields refused"));
        }
    }
    assert_no_failures(&failures);
}
