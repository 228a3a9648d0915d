//! `arena play ballroom` end to end: the reference protocol over stdin/stdout and over TCP, faults,
//! and logs that verify.

mod common;
use common::*;
use std::process::Command;

#[test]
fn python_bot_over_stdin_plays_and_a_garbage_bot_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.json");
    let garbage = "cmd:read w; read s; echo '\"KNIGHT\"'; read l; echo '{not json'; sleep 5";
    let out = arena(&[
        "play",
        "ballroom",
        "--bot",
        "cmd:python3 host/examples/ballroom_bot.py",
        "--bot",
        "strong",
        "--bot",
        garbage,
        "--bot",
        "random",
        "--seed",
        "4",
        "--replay",
        log.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["turns"], 100);
    assert_eq!(
        report["seats"][0]["faults"].as_array().unwrap().len(),
        0,
        "{report}"
    );
    let faults = report["seats"][2]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{report}");
    assert!(
        faults[0]["what"]
            .as_str()
            .unwrap()
            .contains("malformed reply"),
        "{report}"
    );
    // The log is the official shape, and it verifies.
    let v = arena(&["verify", "ballroom", log.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v));
    let logged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(logged["turns"].as_array().unwrap().len(), 101);
    // The dropped bot is inactive in the log from its fault on, as the reference records it.
    assert_eq!(logged["turns"][1]["player_states"][2]["isActive"], false);
}

#[test]
fn a_bot_claiming_another_seat_is_reported_and_dropped() {
    // Seat 1 answers every phase as if it were seat 0.
    let claimer = "cmd:read w; read s; echo '\"KNIGHT\"'; while read l; do echo '{\"executor\":0,\"use\":false}'; done";
    let out = arena(&[
        "play", "ballroom", "--bot", "random", "--bot", claimer, "--bot", "random", "--bot",
        "random", "--seed", "8", "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let faults = report["seats"][1]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{report}");
    assert!(
        faults[0]["what"]
            .as_str()
            .unwrap()
            .contains("not its own seat 1"),
        "{report}"
    );
    assert_eq!(report["seats"][1]["disqualified_at"], 0);
    assert_eq!(report["turns"], 100);
}

#[test]
fn tcp_mode_accepts_bots_on_the_official_ports() {
    let engine = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "play",
            "ballroom",
            "--tcp",
            "--seed",
            "6",
            "--tcp-wait",
            "20",
            "--json",
        ])
        .current_dir(workspace())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut bots = Vec::new();
    for seat in 0..4u16 {
        let port = (29170 + seat).to_string();
        // The engine binds the ports one after the other: retry until each is up.
        let script = format!(
            "for i in $(seq 1 100); do python3 host/examples/ballroom_bot.py --tcp {port} 2>/dev/null && exit 0; sleep 0.1; done; exit 1"
        );
        bots.push(
            Command::new("sh")
                .args(["-c", &script])
                .current_dir(workspace())
                .spawn()
                .unwrap(),
        );
    }
    for mut b in bots {
        assert!(b.wait().unwrap().success());
    }
    let out = engine.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["turns"], 100);
    for seat in 0..4 {
        assert_eq!(
            report["seats"][seat]["bot"],
            format!("tcp:{}", 29170 + seat)
        );
        assert_eq!(report["seats"][seat]["faults"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn every_golden_log_verifies_through_the_cli() {
    let dir = golden("ballroom");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let v = arena(&["verify", "ballroom", path.to_str().unwrap()]);
            assert!(v.status.success(), "{}: {}", path.display(), text(&v));
            n += 1;
        }
    }
    assert_eq!(n, 17);
}
