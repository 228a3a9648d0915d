//! Rules, decision 9: an external ColorFight bot busy attacking is still asked on the ticks where
//! it could build a base, and its build is taken (before, only the built-in bots could).

use crate::common::*;
use serde_json::Value;

#[test]
fn a_busy_external_bot_is_asked_when_it_could_build_and_its_build_is_taken() {
    let (dir, trace) = scratch("busy.jsonl");
    let r = Arena::play("colorfight")
        .bots(&[
            "cmd:python3 host/tests/bots/colorfight_builder.py",
            "random",
        ])
        .args(&["--size", "10x10", "--ticks", "1500", "--seed", "1"])
        .args(&["--state-every", "1", "--turn-ms", "1000"])
        .file("--bot-logs", dir.path())
        .replay(&trace)
        .report();
    assert_eq!(r["seats"][0]["faults"].as_array().unwrap().len(), 0, "{r}");
    let written = std::fs::read_to_string(&trace).unwrap();
    let mut lines = written
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let mut prev = lines.next().unwrap()["state"].clone();
    let (mut busy_builds, mut taken) = (0, 0);
    for line in lines {
        if line["actions"][0].get("build").is_some() {
            let busy =
                prev["players"][0]["busyUntil"].as_u64().unwrap() > line["tick"].as_u64().unwrap();
            if busy {
                busy_builds += 1;
                taken += usize::from(line["refused"][0] == 0);
            }
        }
        prev = line["state"].clone();
    }
    let log = std::fs::read_to_string(dir.path().join("0.stderr")).unwrap_or_default();
    let asked_busy = log
        .lines()
        .filter(|l| l.starts_with("asked while busy"))
        .count();
    assert!(asked_busy >= 1, "never asked while busy: {r}");
    // Asked while busy only when a build was possible: every such ask was a build, and taken.
    assert_eq!(busy_builds, asked_busy, "{log}");
    assert!(
        taken >= 1 && taken + 1 >= busy_builds,
        "{taken} of {busy_builds} builds taken"
    );
    verifies("colorfight", &trace, &[]);
}
