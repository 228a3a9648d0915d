//! A closed output pipe (`arena ... | head -1`, `| true`) never makes a command panic: it stops
//! printing quietly, ends with its own status, and every file it writes is complete.

use crate::common::*;
use std::process::{Command, Stdio};

/// Runs `arena args` with stdout a pipe whose reader is gone before anything is written (the
/// `| true` case; `| head -1` is the same once head has its line). Returns the status and stderr.
fn with_closed_stdout(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(workspace())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for arena");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    (out.status, stderr)
}

#[test]
fn play_stops_quietly_with_its_replay_complete() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.json");
    let (status, _) = with_closed_stdout(&[
        "play",
        "ballroom",
        "--seed",
        "3",
        "--replay",
        log.to_str().unwrap(),
    ]);
    assert!(status.success(), "{status}");
    let logged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(logged["turns"].as_array().unwrap().len(), 101);
    let v = arena(&["verify", "ballroom", log.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v));

    let map = golden("ants").join("maps/tutorial1.map");
    let replay = dir.path().join("ants.json");
    let (status, _) = with_closed_stdout(&[
        "play",
        "ants",
        "--map",
        map.to_str().unwrap(),
        "--bot",
        "hunter",
        "--bot",
        "hold",
        "--seed",
        "2",
        "--turns",
        "60",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert!(status.success(), "{status}");
    let v = arena(&[
        "verify",
        "ants",
        replay.to_str().unwrap(),
        "--map",
        map.to_str().unwrap(),
    ]);
    assert!(v.status.success(), "{}", text(&v));

    // Watching: frames go to stdout while the match is played.
    let trace = dir.path().join("td.jsonl");
    let (status, _) = with_closed_stdout(&[
        "play",
        "tower-defense",
        "--seed",
        "1",
        "--max-turns",
        "50",
        "--watch",
        "--watch-fps",
        "1000",
        "--replay",
        trace.to_str().unwrap(),
    ]);
    assert!(status.success(), "{status}");
    let v = arena(&[
        "verify",
        "tower-defense",
        trace.to_str().unwrap(),
        "--partial",
    ]);
    assert!(v.status.success(), "{}", text(&v));
}

#[test]
fn tournament_and_merge_stop_quietly_with_their_results_complete() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: &str| dir.path().join(format!("shard-{i}.json"));
    for i in ["0", "1"] {
        let path = shard(i);
        let (status, _) = with_closed_stdout(&[
            "tournament",
            "tower-defense",
            "--bot",
            "strong",
            "--bot",
            "random",
            "--bot",
            "army",
            "--seed",
            "2",
            "--quiet",
            "--shard",
            &format!("{i}/2"),
            "--results-json",
            path.to_str().unwrap(),
        ]);
        assert!(status.success(), "{status}");
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(r["results"].as_array().unwrap().len(), 3, "{r}");
    }
    let merged = dir.path().join("merged.json");
    let (status, _) = with_closed_stdout(&[
        "merge",
        shard("0").to_str().unwrap(),
        shard("1").to_str().unwrap(),
        "--results-json",
        merged.to_str().unwrap(),
    ]);
    assert!(status.success(), "{status}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    assert_eq!(r["results"].as_array().unwrap().len(), 6);
    assert_eq!(r["standings"].as_array().unwrap().len(), 3);
}

#[test]
fn listing_verifying_and_rendering_stop_quietly() {
    let (status, _) = with_closed_stdout(&["bots"]);
    assert!(status.success(), "{status}");
    let log = golden("ballroom").join("seed1.json");
    let (status, _) = with_closed_stdout(&["verify", "ballroom", log.to_str().unwrap()]);
    assert!(status.success(), "{status}");
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("t.png");
    let (status, _) = with_closed_stdout(&[
        "render",
        log.to_str().unwrap(),
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(status.success(), "{status}");
    assert!(image::open(&png).is_ok());
    // A file that does not verify still says so by its status.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"names\":[],\"turns\":[]}").unwrap();
    let (status, _) = with_closed_stdout(&["verify", "ballroom", bad.to_str().unwrap()]);
    assert_eq!(status.code(), Some(1));
}
