//! `arena play ballroom` end to end: the reference protocol over stdin/stdout and over TCP, faults,
//! and logs that verify.

use crate::common::*;

#[test]
fn python_bot_over_stdin_plays_and_a_garbage_bot_is_dropped() {
    let garbage = "cmd:read w; read s; echo '\"KNIGHT\"'; read l; echo '{not json'; sleep 5";
    let (report, log) = Arena::play("ballroom")
        .bots(&[
            "cmd:python3 host/examples/ballroom_bot.py",
            "strong",
            garbage,
            "random",
        ])
        .args(&["--seed", "4"])
        .played("game.json");
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
    verifies("ballroom", &log, &[]);
    let logged = read_json(&log);
    assert_eq!(logged["turns"].as_array().unwrap().len(), 101);
    // The dropped bot is inactive in the log from its fault on, as the reference records it.
    assert_eq!(logged["turns"][1]["player_states"][2]["isActive"], false);
}

#[test]
fn every_golden_log_verifies_through_the_cli() {
    let dir = golden("ballroom");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            verifies("ballroom", &path, &[]);
            n += 1;
        }
    }
    assert_eq!(n, 17);
}

/// A log does not say its ruleset: an as-written match where random bots buy class items (10
/// gold, not 8) differs under the engine's rules, and verifies when verify is told the ruleset
/// play was given.
#[test]
fn an_as_written_log_verifies_under_the_ruleset_it_was_played_with() {
    let (_, log) = Arena::play("ballroom")
        .args(&["--ruleset", "as-written", "--seed", "1"])
        .bots(&["random", "random", "random", "random"])
        .played("as-written.json");
    let engine = Arena::verify("ballroom", &log).exits(1);
    assert!(engine.contains("turn"), "{engine}");
    let ok = Arena::verify("ballroom", &log)
        .args(&["--ruleset", "as-written"])
        .ok();
    assert!(
        text(&ok).contains("ok: 100 turns re-played"),
        "{}",
        text(&ok)
    );
    let bad = Arena::verify("ballroom", &log)
        .args(&["--ruleset", "written"])
        .exits(2);
    assert!(bad.contains("possible values: engine, as-written"), "{bad}");
    // `arena render` re-plays the log as verify does: under the engine's rules it stops where
    // verify stops; told the ruleset, it draws the match's last state.
    let png = log.with_extension("png");
    let render = |extra: &[&str]| {
        let mut args = vec!["render", arg(&log), "--out", arg(&png)];
        args.extend(extra);
        Arena::new(&args)
    };
    let engine = render(&[]).exits(2);
    assert!(engine.contains("turn"), "{engine}");
    let drawn = render(&["--ruleset", "as-written"]).ok();
    assert!(text(&drawn).contains(": turn 100, "), "{}", text(&drawn));
    assert!(image::open(&png).is_ok());
    let bad = render(&["--ruleset", "written"]).exits(2);
    assert!(
        bad.contains("--ruleset written: ")
            && bad.contains("whose rulesets are engine, as-written"),
        "{bad}"
    );
}
