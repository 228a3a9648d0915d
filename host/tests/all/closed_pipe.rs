//! A closed output pipe (`arena ... | head -1`, `| true`) never makes a command panic: it stops
//! printing quietly, ends with its own status, and every file it writes is complete.

use crate::common::*;
use std::process::Stdio;

/// Runs `cmd` with stdout a pipe whose reader is gone before anything is written (the `| true`
/// case; `| head -1` is the same once head has its line). Returns the status and stderr.
fn with_closed_stdout(cmd: &Arena) -> (std::process::ExitStatus, String) {
    let mut child = cmd
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for arena");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{cmd}: {stderr}");
    assert!(!stderr.contains("Broken pipe"), "{cmd}: {stderr}");
    (out.status, stderr)
}

#[test]
fn play_stops_quietly_with_its_replay_complete() {
    let (dir, log) = scratch("game.json");
    let (status, _) =
        with_closed_stdout(&Arena::play("ballroom").args(&["--seed", "3"]).replay(&log));
    assert!(status.success(), "{status}");
    let logged = read_json(&log);
    assert_eq!(logged["turns"].as_array().unwrap().len(), 101);
    verifies("ballroom", &log, &[]);

    let map = golden("ants").join("maps/tutorial1.map");
    let replay = dir.path().join("ants.json");
    let ants = ants_on(&map, &["hunter", "hold"])
        .args(&["--seed", "2", "--turns", "60"])
        .replay(&replay);
    let (status, _) = with_closed_stdout(&ants);
    assert!(status.success(), "{status}");
    verifies("ants", &replay, &["--map", arg(&map)]);

    // Watching: frames go to stdout while the match is played.
    let trace = dir.path().join("td.jsonl");
    let watched = Arena::play("tower-defense")
        .args(&[
            "--seed",
            "1",
            "--max-turns",
            "50",
            "--watch",
            "--watch-fps",
            "1000",
        ])
        .replay(&trace);
    let (status, _) = with_closed_stdout(&watched);
    assert!(status.success(), "{status}");
    // Stopped at 50 turns on purpose (--partial), but with all 50 in the file.
    let said = verifies("tower-defense", &trace, &["--partial"]);
    assert!(said.contains("ok: 50 turns re-played"), "{said}");
}

#[test]
fn tournament_and_merge_stop_quietly_with_their_results_complete() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: &str| dir.path().join(format!("shard-{i}.json"));
    for i in ["0", "1"] {
        let path = shard(i);
        let shard = Arena::tournament("tower-defense")
            .bots(&["strong", "random", "army"])
            .args(&["--seed", "2", "--quiet", "--shard", &format!("{i}/2")])
            .file("--results-json", &path);
        let (status, _) = with_closed_stdout(&shard);
        assert!(status.success(), "{status}");
        let r = read_json(&path);
        assert_eq!(r["results"].as_array().unwrap().len(), 3, "{r}");
    }
    let merged = dir.path().join("merged.json");
    let merge = Arena::new(&["merge", arg(&shard("0")), arg(&shard("1"))]);
    let (status, _) = with_closed_stdout(&merge.file("--results-json", &merged));
    assert!(status.success(), "{status}");
    let r = read_json(&merged);
    assert_eq!(r["results"].as_array().unwrap().len(), 6);
    assert_eq!(r["standings"].as_array().unwrap().len(), 3);
}

#[test]
fn listing_verifying_and_rendering_stop_quietly() {
    let (status, _) = with_closed_stdout(&Arena::new(&["bots"]));
    assert!(status.success(), "{status}");
    let log = golden("ballroom").join("seed1.json");
    let (status, _) = with_closed_stdout(&Arena::verify("ballroom", &log));
    assert!(status.success(), "{status}");
    let (dir, png) = scratch("t.png");
    let render = Arena::new(&["render", arg(&log)]).file("--out", &png);
    let (status, _) = with_closed_stdout(&render);
    assert!(status.success(), "{status}");
    assert!(image::open(&png).is_ok());
    // A file that does not verify still says so by its status.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"names\":[],\"turns\":[]}").unwrap();
    let (status, _) = with_closed_stdout(&Arena::verify("ballroom", &bad));
    assert_eq!(status.code(), Some(1));
}
