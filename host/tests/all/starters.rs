//! The original bot APIs of the two games whose bots were not programs: a Mammut bot in C#
//! against the seed's `Player` class (compiled with Debian's mono-mcs, run with mono) and a Tower
//! Defense bot in JavaScript against the controller's own bot interface (run with Node), both
//! through their adapters in host/examples/, playing whole matches against the built-in bots.

use crate::common::*;
use arena_host::games::tower_defense::json::action_from_json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles `bot` (C# source) with the seed's API and the adapter into `out`.
fn compile_csharp(bot: &Path, out: &Path) {
    let dir = workspace().join("host/examples/mammut_csharp");
    let mcs = Command::new("mcs")
        .arg(format!("-out:{}", out.display()))
        .args(["Player.cs", "Tile.cs", "Adapter.cs"])
        .arg(bot)
        .current_dir(&dir)
        .output();
    let mcs = match mcs {
        Ok(o) => o,
        Err(e) => panic!(
            "cannot run mcs ({e}): the C# starter's test needs Debian's mono-mcs \
             (apt-get install mono-mcs, or `cargo xtask setup`)"
        ),
    };
    assert!(mcs.status.success(), "mcs failed: {}", text(&mcs));
    let mono = Command::new("mono").arg("--version").output();
    assert!(
        mono.is_ok_and(|o| o.status.success()),
        "cannot run mono: the C# starter's test needs Debian's mono-runtime (apt-get install mono-mcs)"
    );
}

/// The report of a Mammut match of `exe` against the built-in bots, its trace written to `trace`.
fn csharp_against_builtins(exe: &Path, trace: &Path) -> serde_json::Value {
    mammut_against_builtins(&format!("cmd:mono {}", exe.display()))
        .args(&["--seed", "12"])
        .replay(trace)
        .report()
}

#[test]
fn a_csharp_bot_written_against_the_seeds_player_class_plays_mammut() {
    let (dir, exe) = scratch("SampleBot.exe");
    compile_csharp(
        &workspace().join("host/examples/mammut_csharp/SampleBot.cs"),
        &exe,
    );
    let trace = dir.path().join("m.jsonl");
    let r = csharp_against_builtins(&exe, &trace);
    assert_eq!(r["reason"], "five rounds played", "{r}");
    let seat = &r["seats"][0];
    assert_eq!(seat["bot"], "SampleBot.exe");
    assert_eq!(seat["faults"], serde_json::json!([]), "{r}");
    assert_eq!(seat["refused"], 0, "{r}");
    // It took tiles (and maybe stole) in every round.
    let written = std::fs::read_to_string(&trace).unwrap();
    let taken = written
        .lines()
        .filter(|l| l.contains("\"seat\":0") && l.contains("\"refused\":false"))
        .count();
    assert!(taken >= 5, "{taken} accepted actions");
    verifies("mammut", &trace, &[]);
}

#[test]
fn a_csharp_bot_choosing_illegally_is_asked_once_more_then_has_an_empty_hand() {
    // Always a tile that does not exist, or an exception every other call: each is refused, asked
    // once more, refused again, and the player sits out the round with an empty hand.
    let (dir, source) = scratch("Cheater.cs");
    std::fs::write(
        &source,
        r#"using System;
using System.Collections.Generic;
public class Cheater : Player
{
    int calls;
    public Cheater(int id) : base(id) {}
    public override List<int> ChooseTiles(Dictionary<int, List<Tile>> otherPlayers, List<Tile> center)
    {
        calls++;
        if (calls % 2 == 0) throw new Exception("no idea");
        return new List<int> { 99 };
    }
}
"#,
    )
    .unwrap();
    let exe = dir.path().join("Cheater.exe");
    compile_csharp(&source, &exe);
    let trace = dir.path().join("m.jsonl");
    let r = csharp_against_builtins(&exe, &trace);
    assert_eq!(r["reason"], "five rounds played", "{r}");
    assert_eq!(r["seats"][0]["refused"], 10, "two a round: {r}");
    assert_eq!(r["seats"][0]["disqualified_at"], serde_json::Value::Null);
    verifies("mammut", &trace, &[]);
}

/// `arena play tower-defense` of a JS bot through the adapter (`name` in `file`) against `random`.
fn js_bot_against_random(file: &str, name: &str) -> Arena {
    let bot = format!("cmd:node host/examples/tower_defense_js/adapter.js {file} {name}");
    Arena::play("tower-defense").bots(&[&bot, "random"])
}

#[test]
fn a_javascript_bot_written_for_the_controller_plays_tower_defense() {
    let (r, trace) = js_bot_against_random(
        "host/examples/tower_defense_js/sample_bot.js",
        "wallAndWave",
    )
    .args(&["--seed", "4", "--max-turns", "2000", "--turn-ms", "50"])
    .played("td.jsonl");
    assert_eq!(r["seats"][0]["faults"], serde_json::json!([]), "{r}");
    assert_eq!(r["seats"][0]["bot"], "sample_bot.js", "{r}");
    let written = std::fs::read_to_string(&trace).unwrap();
    assert!(written.contains("\"action\":\"build\""), "it never built");
    assert!(written.contains("\"action\":\"spawn\""), "it never spawned");
    verifies("tower-defense", &trace, &["--partial"]);
}

#[test]
fn the_adapter_shows_a_bot_what_the_controller_showed_it() {
    // The controller called its bots after the turn's towers fired, invaders moved and income was
    // paid, with turnNumber already the new turn's: a bot that answers with what it sees shows it.
    // Here a bot builds at the space numbered by what it saw (turn, its gold mod 100) on two turns:
    // at turn 0 it sees turnNumber 1 and 500 gold; at turn 9, gold 450 + the income of turn 10.
    let (dir, bot) = scratch("probe.js");
    std::fs::write(
        &bot,
        "function probe() {\n\
           return function (turnNumber, me, notme, attacking, defending) {\n\
             if (turnNumber === 1) return {action: 'build', type: 'turret', pos: 1 + me.gold % 100};\n\
             if (turnNumber === 10) return {action: 'build', type: 'turret', pos: me.gold % 100};\n\
             return null;\n\
           };\n\
         }\n",
    )
    .unwrap();
    let trace = dir.path().join("td.jsonl");
    let r = js_bot_against_random(arg(&bot), "probe")
        .args(&["--seed", "1", "--max-turns", "12", "--turn-ms", "100"])
        .replay(&trace)
        .report();
    assert_eq!(r["seats"][0]["faults"], serde_json::json!([]), "{r}");
    let actions: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .skip(2)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["actions"][0].clone())
        .collect();
    // Turn 1: 500 gold, so pos 1. Turn 10: 500 - 50 (the build) + 10 (income at turn 10) = 460.
    assert_eq!(actions[0]["pos"], 1, "{actions:?}");
    assert_eq!(actions[9]["pos"], 60, "{actions:?}");
}

/// The controller's sample bots, as `(file, builder, army)`: our controller-style restatement of
/// them (host/tests/bots/td_controller_samples.js), and, when a checkout of the controller is at
/// hand (`TD_CONTROLLER`, as ../shared/ref/tower-defense/README.md sets it up), the controller's
/// own `simpleTurretBuilder` and `simpleInvaderArmy`, cut unmodified from its 2018-05-19
/// tower-defense.js into `dir`. CI has no checkout (none of its code is in the project or in
/// ../shared), so there it checks the adapter with the restatement.
fn controller_samples(dir: &Path) -> Vec<(String, &'static str, &'static str)> {
    let mut samples = vec![(
        "host/tests/bots/td_controller_samples.js".to_string(),
        "turretBuilder",
        "invaderArmy",
    )];
    let Some(checkout) = std::env::var_os("TD_CONTROLLER") else {
        return samples;
    };
    let checkout = PathBuf::from(checkout);
    let final_js = checkout.join("final/tower-defense.js");
    let code = if final_js.exists() {
        std::fs::read_to_string(&final_js).unwrap()
    } else {
        let commit = "a7bce428358d9a568c6a2c9c62ba16249c835cdf:tower-defense.js";
        let out = Command::new("git")
            .arg("-C")
            .arg(&checkout)
            .args(["show", commit])
            .output()
            .unwrap();
        assert!(out.status.success(), "TD_CONTROLLER: {}", text(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let start = code.find("function simpleTurretBuilder()").unwrap();
    let end = code.find("function newGame()").unwrap();
    let file = dir.join("controller_samples.js");
    std::fs::write(&file, &code[start..end]).unwrap();
    samples.push((
        file.to_str().unwrap().to_string(),
        "simpleTurretBuilder",
        "simpleInvaderArmy",
    ));
    samples
}

#[test]
fn the_controllers_sample_bots_replay_the_golden_builder_army_game_through_the_adapter() {
    // The first 10,000 turns of the controller's 100,000-turn game between its two samples: every
    // action as the controller's bots chose it, every recorded state (one each 500 turns) equal.
    // Both files are read a line at a time: a test process holding hundreds of MB would be
    // counted in the memory of every process the other tests fork meanwhile (hostile_bots).
    const TURNS: usize = 10_000;
    let lines = |path: &Path| {
        let file = std::fs::File::open(path).unwrap();
        std::io::BufRead::lines(std::io::BufReader::new(file))
            .skip(2)
            .map(|l| serde_json::from_str::<serde_json::Value>(&l.unwrap()).unwrap())
    };
    let golden = golden("tower-defense").join("builder-army-full.jsonl");
    let (dir, trace) = scratch("td.jsonl");
    for (file, builder, army) in controller_samples(dir.path()) {
        let adapter = |name: &str| {
            format!("cmd:node host/examples/tower_defense_js/adapter.js {file} {name}")
        };
        let r = Arena::play("tower-defense")
            .bots(&[&adapter(builder), &adapter(army)])
            .args(&["--max-turns", &TURNS.to_string(), "--turn-ms", "5000"])
            .replay(&trace)
            .report();
        for seat in [0, 1] {
            assert_eq!(
                r["seats"][seat]["faults"],
                serde_json::json!([]),
                "{file}: {r}"
            );
        }
        let (mut turns, mut states) = (0, 0);
        for (theirs, ours) in lines(&golden).zip(lines(&trace)) {
            let turn = &theirs["turn"];
            assert_eq!(&ours["turn"], turn);
            for seat in [0, 1] {
                assert_eq!(
                    action_from_json(&ours["actions"][seat]),
                    action_from_json(&theirs["actions"][seat]),
                    "{file}: turn {turn}, seat {seat}"
                );
            }
            if theirs.get("players").is_some() {
                assert_eq!(
                    (&ours["players"], &ours["boards"]),
                    (&theirs["players"], &theirs["boards"]),
                    "{file}: the state after turn {turn}"
                );
                states += 1;
            }
            turns += 1;
        }
        assert_eq!((turns, states), (TURNS, TURNS / 500), "{file}");
        assert_eq!(lines(&trace).count(), TURNS, "{file}: the trace's length");
    }
}
