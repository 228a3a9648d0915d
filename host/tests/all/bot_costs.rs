//! What a bot's choices cost it, as the report tells it: a pass is not a refusal, refusals are
//! summed by reason, a time-out names the limit it went over, and the end of the match is EOF on
//! the bot's stdin.

use crate::common::*;

#[test]
fn the_ballroom_example_bots_passes_are_not_refusals() {
    let example = "cmd:python3 host/examples/ballroom_bot.py";
    let play = Arena::play("ballroom")
        .bots(&[example, "strong", "holder", "random"])
        .args(&["--seed", "1"]);
    let r = play.report();
    let seat = &r["seats"][0];
    let passes = seat["passes"].as_u64().unwrap();
    // It attacks itself whenever nobody is in range and buys nothing: the phase's default.
    assert!(passes >= 100, "{seat}");
    let refused = seat["refused"].as_u64().unwrap();
    let by: u64 = seat["refused_by"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(by, refused, "every refusal has its reason: {seat}");
    assert!(
        seat["refused_by"].get("attack out of range").is_none(),
        "a self-attack is a pass: {seat}"
    );
    let text_report = text(&play.run());
    assert!(
        text_report.contains(&format!("passes {passes}")),
        "{text_report}"
    );
}

/// The report of `bot` playing Tower Defense for `turns` turns (seed 2) against the default.
fn tower_defense_alone(bot: &str, turns: &str) -> serde_json::Value {
    Arena::play("tower-defense")
        .bots(&[bot])
        .args(&["--max-turns", turns, "--seed", "2"])
        .report()
}

#[test]
fn refusals_are_summed_by_reason() {
    // Builds on position 200 of a 100-space board, every turn.
    let bot = r#"cmd:while read l; do echo '{"action":"build","type":"turret","pos":200}'; done"#;
    let r = tower_defense_alone(bot, "20");
    let seat = &r["seats"][0];
    let builds = &seat["refused_by"]
        ["build refused (bad type or position, too little gold, or a tower there)"];
    assert_eq!(builds.as_u64(), seat["refused"].as_u64(), "{seat}");
    assert!(seat["refused"].as_u64().unwrap() >= 19, "{seat}");
    assert_eq!(seat["passes"], 0, "{seat}");
}

#[test]
fn a_time_out_names_the_limit_it_went_over() {
    // 20 ms a turn against Tower Defense's 10 ms average over 100 turns: half-way through the
    // window the bank is spent.
    let bot = "cmd:while read l; do sleep 0.02; echo null; done";
    let r = tower_defense_alone(bot, "70");
    let faults = r["seats"][0]["faults"].as_array().unwrap();
    let first = faults
        .iter()
        .find(|f| f["kind"] == "timeout")
        .unwrap_or_else(|| panic!("no time-out: {r}"));
    let what = first["what"].as_str().unwrap();
    assert!(
        what.starts_with(
            "time-out: over the 10 ms average of 100 turns (1,000 ms for answers 1-100): "
        ),
        "{what}"
    );
    assert!(!what.contains("after 0 ms"), "{what}");
}

#[test]
fn the_help_says_how_the_time_limit_is_counted() {
    let help = text(&Arena::play("tower-defense").args(&["--help"]).run());
    assert!(help.contains("average over each 100 turns"), "{help}");
    assert!(help.contains("the limit it went over"), "{help}");
}

#[test]
fn the_end_of_the_match_is_eof_on_the_bots_stdin() {
    let (_dir, mark) = scratch("eof");
    let bot = format!(
        "cmd:while read l; do echo null; done; echo saw-eof > {}",
        arg(&mark)
    );
    Arena::play("tower-defense")
        .bots(&[&bot])
        .args(&["--max-turns", "5"])
        .ok();
    let said = std::fs::read_to_string(&mark).unwrap_or_default();
    assert_eq!(
        said.trim(),
        "saw-eof",
        "the bot was killed before it read EOF"
    );
}

#[test]
fn json_bots_are_told_the_variant() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().to_str().unwrap();
    let bot = "cmd:while read l; do echo null; done";
    for (game, variant, extra) in [
        (
            "tower-defense",
            "siege",
            &["--variant", "siege", "--max-turns", "2"][..],
        ),
        (
            "colorfight",
            "skirmish",
            &["--variant", "skirmish", "--ticks", "2"][..],
        ),
    ] {
        Arena::play(game)
            .bots(&[bot])
            .args(&["--bot-logs", logs])
            .args(extra)
            .ok();
        let sent = std::fs::read_to_string(dir.path().join("0.input")).unwrap();
        let first: serde_json::Value = serde_json::from_str(sent.lines().next().unwrap()).unwrap();
        assert_eq!(first["variant"], variant, "{game}: {first}");
    }
}

#[test]
fn our_own_traces_keep_the_reason_of_every_refusal() {
    let (_dir, trace) = scratch("cf.jsonl");
    let off_grid = r#"cmd:while read l; do echo '{"attack":[99,99]}'; done"#;
    Arena::play("colorfight")
        .bots(&[off_grid, "expander"])
        .args(&["--size", "8x8", "--ticks", "5"])
        .replay(&trace)
        .ok();
    let written = std::fs::read_to_string(&trace).unwrap();
    let refused: Vec<serde_json::Value> = written
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|l: &serde_json::Value| l["refused"][0] == 1)
        .collect();
    assert!(!refused.is_empty(), "{written}");
    for l in &refused {
        assert_eq!(l["why"][0], "cell off the grid", "{l}");
    }
    Arena::new(&["verify", arg(&trace)]).ok();
    // A reason the rules do not give is a difference.
    let tampered = written.replacen("cell off the grid", "busy attacking", 1);
    std::fs::write(&trace, tampered).unwrap();
    let said = Arena::new(&["verify", arg(&trace)]).exits(1);
    assert!(said.contains("why[0]"), "{said}");
}
