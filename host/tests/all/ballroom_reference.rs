//! `arena play ballroom` where the official engine's behaviour was measured against ours
//! (../shared/ref/ballroom/robustness.sh): TCP seats on any ports, a seat nobody connects to,
//! the per-seat reading deadlines, the turn numbers of faults, `--max-turns`, `executor`, and
//! official logs that file actions by executor.

use crate::common::*;
use serde_json::{json, Value};
use std::process::Command;

/// `arena play ballroom --tcp` on ports the system picks (`--port-base 0`), with the Python
/// example bot at each seat of `bots` (the others get none), started as the engine says its seat
/// waits; the engine's ports, by seat.
fn tcp_game(bots: &[u16], extra: &[&str]) -> (std::process::Output, Vec<u16>) {
    let mut started = Vec::new();
    let out = tcp_game_with(extra, |seat, ports| {
        if bots.contains(&(seat as u16)) {
            started.push(example_bot(ports[seat]));
        }
    });
    for mut b in started {
        assert!(b.wait().unwrap().success());
    }
    out
}

/// The Python example bot, over TCP to `port`.
fn example_bot(port: u16) -> std::process::Child {
    Command::new("python3")
        .args(["host/examples/ballroom_bot.py", "--tcp", &port.to_string()])
        .current_dir(workspace())
        .spawn()
        .unwrap()
}

/// `arena play ballroom --tcp --port-base 0` with `extra`, calling `arrive(seat, ports)` when the
/// engine says seat `seat` waits (`ports`: the ports so far, by seat); its output and ports.
fn tcp_game_with(
    extra: &[&str],
    mut arrive: impl FnMut(usize, &[u16]),
) -> (std::process::Output, Vec<u16>) {
    use std::io::BufRead;
    let mut engine = Arena::play("ballroom")
        .args(&["--tcp", "--port-base", "0", "--seed", "6", "--json"])
        .args(extra)
        .command()
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = engine.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut std::io::BufReader::new(stdout), &mut out).unwrap();
        out
    });
    let mut stderr = Vec::new();
    let mut ports = Vec::new();
    for line in std::io::BufReader::new(engine.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        stderr.extend_from_slice(line.as_bytes());
        stderr.push(b'\n');
        let Some(port) = line.strip_prefix(&format!(
            "seat {}: waiting for a bot on 127.0.0.1:",
            ports.len()
        )) else {
            continue;
        };
        ports.push(port.parse::<u16>().unwrap());
        arrive(ports.len() - 1, &ports);
    }
    let status = engine.wait().unwrap();
    let out = std::process::Output {
        status,
        stdout: reader.join().unwrap(),
        stderr,
    };
    assert_eq!(ports.len(), 4, "{}", text(&out));
    (out, ports)
}

#[test]
fn tcp_mode_accepts_bots_on_the_ports_given() {
    let (out, ports) = tcp_game(&[0, 1, 2, 3], &["--tcp-wait", "20"]);
    let report = report(&out);
    assert_eq!(report["turns"], 100);
    for seat in 0..4 {
        assert_eq!(report["seats"][seat]["bot"], format!("tcp:{}", ports[seat]));
        assert_eq!(report["seats"][seat]["faults"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn a_tcp_seat_nobody_connects_to_plays_knight_with_the_default_actions() {
    // As the official engine: it waits for seat 2 (here 5 s instead of 15: enough for the bot of
    // seat 0 to start on a loaded machine), then goes on to seat 3; seat 2 plays KNIGHT and the
    // default actions, and the game and its log complete.
    let (_dir, log) = scratch("game.json");
    let (out, _) = tcp_game(
        &[0, 1, 3],
        &["--tcp-wait", "5", "--replay", log.to_str().unwrap()],
    );
    let report = report(&out);
    assert_eq!(report["turns"], 100);
    let faults = report["seats"][2]["faults"].as_array().unwrap();
    assert!(
        faults[0]["what"]
            .as_str()
            .unwrap()
            .contains("no bot connected"),
        "{report}"
    );
    for seat in [0, 1, 3] {
        assert_eq!(
            report["seats"][seat]["faults"].as_array().unwrap().len(),
            0,
            "{report}"
        );
    }
    plays_defaults_from_turn_1(&read_json(&log), 2, "KNIGHT", json!({"x": 9, "y": 9}));
    verifies("ballroom", &log, &[]);
}

/// In a game's log, seat `seat` has class `class`, and from turn 1 on is inactive, at its
/// `spawn`, and plays the default actions: what the official engine plays for a dropped bot.
fn plays_defaults_from_turn_1(logged: &Value, seat: usize, class: &str, spawn: Value) {
    let turns = logged["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 101);
    assert_eq!(turns[0]["player_states"][seat]["class"], class);
    assert_eq!(turns[0]["player_states"][seat]["isActive"], true);
    for t in &turns[1..] {
        let p = &t["player_states"][seat];
        assert_eq!(p["isActive"], false, "seat {seat}");
        assert_eq!(p["position"], spawn, "seat {seat} at its spawn");
        assert_eq!(t["use_actions"][seat]["use"], false);
        assert_eq!(t["buy_actions"][seat]["item"], "NONE");
    }
}

#[test]
fn tcp_seats_hold_against_a_second_connection_garbage_silence_and_an_early_class() {
    // As the official engine (MechMania-28/Engine, networking/Server.java and GameEngine.java):
    // each port accepts one connection, and a second one to it is never spoken to; the class is
    // the first line a bot sent, even before `wake` (garbage there crashed that engine: here,
    // rules decision 2, the bot is dropped); a bot that never speaks times out after 2 s and is
    // dropped. A dropped bot plays the default actions and hears nothing more (its socket is
    // closed); the others play on.
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let (_dir, log) = scratch("game.json");
    let mut bots = Vec::new();
    let mut peers: Vec<(usize, TcpStream)> = Vec::new();
    let mut second = None;
    let connect = |port: u16| TcpStream::connect(("127.0.0.1", port)).unwrap();
    let (out, _) = tcp_game_with(
        &["--tcp-wait", "5", "--replay", log.to_str().unwrap()],
        |seat, ports| match seat {
            0 => bots.push(example_bot(ports[0])),
            1 => {
                // Seat 0's bot is in (the engine went on to seat 1): connect to its port again.
                second = Some(TcpStream::connect(("127.0.0.1", ports[0])));
                let mut s = connect(ports[1]);
                s.write_all(b"\x00\xff GET / HTTP/1.1\r\n{not json\n")
                    .unwrap();
                peers.push((1, s));
            }
            2 => peers.push((2, connect(ports[2]))),
            _ => {
                let mut s = connect(ports[3]);
                s.write_all(b"\"ARCHER\"\n").unwrap();
                peers.push((3, s));
            }
        },
    );
    for mut b in bots {
        assert!(b.wait().unwrap().success());
    }
    let report = report(&out);
    assert_eq!(report["turns"], 100, "{report}");
    assert_eq!(report["seats"][0]["faults"], json!([]), "{report}");
    let fault = |seat: usize| {
        let f = &report["seats"][seat]["faults"][0];
        assert_eq!(
            report["seats"][seat]["disqualified_at"], f["turn"],
            "{report}"
        );
        (
            f["turn"].as_u64().unwrap(),
            f["kind"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(fault(1), (0, "invalid".into()), "garbage: {report}");
    assert_eq!(fault(2), (0, "timeout".into()), "silence: {report}");
    assert_eq!(fault(3), (1, "timeout".into()), "no USE answer: {report}");
    // What each heard: its handshake, then the engine closed the connection.
    for (seat, mut s) in peers {
        s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let mut heard = Vec::new();
        s.read_to_end(&mut heard).unwrap();
        let heard = String::from_utf8_lossy(&heard);
        let handshake = format!("wake\n{seat}\n");
        match seat {
            // The early class was its answer: it was asked for its first action too.
            3 => assert!(
                heard.starts_with(&handshake) && heard.contains(r#""next_phase":"USE""#),
                "{heard}"
            ),
            _ => assert_eq!(heard, handshake),
        }
    }
    // The second connection to seat 0's port was never spoken to (refused, reset or silent).
    if let Some(Ok(mut s)) = second {
        s.set_read_timeout(Some(std::time::Duration::from_secs(1)))
            .unwrap();
        let heard = s.read(&mut [0; 64]);
        assert!(!matches!(heard, Ok(n) if n > 0), "{heard:?}");
    }
    let logged = read_json(&log);
    plays_defaults_from_turn_1(&logged, 1, "KNIGHT", json!({"x": 9, "y": 0}));
    plays_defaults_from_turn_1(&logged, 2, "KNIGHT", json!({"x": 9, "y": 9}));
    plays_defaults_from_turn_1(&logged, 3, "ARCHER", json!({"x": 0, "y": 9}));
    verifies("ballroom", &log, &[]);
}

/// `arena play ballroom --seed SEED` with the phase test bot (given `args`) at seat 1 and `random`
/// elsewhere.
fn phase_bot_at_seat_1(args: &str, seed: &str) -> Arena {
    let bot = test_bot("ballroom_phase_bot.py", args);
    Arena::play("ballroom")
        .bots(&["random", &bot, "random", "random"])
        .args(&["--seed", seed])
}

#[test]
fn a_bot_naming_another_executor_plays_for_its_own_seat() {
    // Seat 1 names executor 0 in every action: rules decision 2 ignores it, and the action is seat
    // 1's own (the reference would have moved player 0). It is neither dropped nor faulted.
    let (report, log) = phase_bot_at_seat_1("--executor 0", "8").played("game.json");
    assert_eq!(report["turns"], 100);
    assert_eq!(report["seats"][1]["faults"], json!([]), "{report}");
    assert_eq!(report["seats"][1]["disqualified_at"], Value::Null);
    let logged = read_json(&log);
    // Its first move, one step from its spawn (9,0), is its own.
    let turn1 = &logged["turns"][1];
    assert_eq!(turn1["move_actions"][1]["executor"], 1);
    assert_eq!(
        turn1["player_states"][1]["position"],
        json!({"x": 8, "y": 0})
    );
    assert_eq!(turn1["player_states"][1]["isActive"], true);
    verifies("ballroom", &log, &[]);
}

#[test]
fn verify_reads_an_official_log_that_files_actions_by_executor() {
    // The official engine files each action under the executor it names and leaves the entry of a
    // player it executed nothing for as it was (null in turn 1). Such a log is read as written:
    // a null entry is a player nothing was executed for, and where the log cannot say what was
    // done (a reply it overwrote), verify says so instead of stumbling on the null.
    let golden = std::fs::read_to_string(golden("ballroom").join("seed1.json")).unwrap();
    let mut log: Value = serde_json::from_str(&golden).unwrap();
    for key in [
        "use_actions",
        "move_actions",
        "attack_actions",
        "buy_actions",
    ] {
        log["turns"][1][key][3] = Value::Null;
    }
    let (_dir, path) = scratch("official.json");
    std::fs::write(&path, log.to_string()).unwrap();
    let said = Arena::verify("ballroom", &path).exits(1);
    assert!(!said.contains("not an int"), "{said}");
    assert!(said.contains("turn 1: player_states[3]"), "{said}");
    assert!(
        said.contains(
            "holds no action for use_actions[3], move_actions[3], attack_actions[3], buy_actions[3]"
        ),
        "{said}"
    );
    // An executor other than its entry's index is not what the official engine writes.
    let mut log: Value = serde_json::from_str(&golden).unwrap();
    log["turns"][2]["move_actions"][2]["executor"] = json!(0);
    std::fs::write(&path, log.to_string()).unwrap();
    let said = text(&Arena::verify("ballroom", &path).run());
    assert!(
        said.contains("turn 2: move_actions[2].executor: expected 0"),
        "{said}"
    );
}

#[test]
fn a_seat_answering_late_is_in_time_when_the_seat_before_it_was_slow() {
    // The reference reads the seats one after the other, each with its own time limit from the
    // end of the previous seat's read. With 4 s a phase: seat 0 answers its 5th phase after 2.0 s
    // and seat 1 after 4.5 s from the message (over 4 s from the message, but 2.5 s after seat 0):
    // both are in time, by 2 s and 1.5 s, margins a loaded machine does not eat. Seat 3 answers
    // after 9.5 s, 5 s after seat 1: a time-out (load only makes it later).
    let sleeper = |secs: &str| test_bot("ballroom_phase_bot.py", &format!("--sleep 5 {secs}"));
    let (report, log) = Arena::play("ballroom")
        .bots(&[&sleeper("2.0"), &sleeper("4.5"), "random", &sleeper("9.5")])
        .args(&["--turn-ms", "4000", "--seed", "3"])
        .played("game.json");
    assert_eq!(report["turns"], 100);
    for seat in [0, 1] {
        assert_eq!(report["seats"][seat]["faults"], json!([]), "{report}");
    }
    let faults = report["seats"][3]["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{report}");
    assert_eq!(faults[0]["kind"], "timeout", "{report}");
    // The 5th phase answer is turn 2's USE.
    assert_eq!(report["seats"][3]["disqualified_at"], 2, "{report}");
    verifies("ballroom", &log, &[]);
}

#[test]
fn faults_are_reported_at_the_turn_the_log_shows() {
    // Garbage in reply to the "turn":11 MOVE message: turn 11 in the report, as the reference
    // counts, and the default action in the log's turn 11.
    let (report, log) = phase_bot_at_seat_1("--garbage 11 MOVE", "2").played("game.json");
    let seat = &report["seats"][1];
    assert_eq!(seat["disqualified_at"], 11, "{report}");
    assert_eq!(seat["faults"][0]["turn"], 11, "{report}");
    let logged = read_json(&log);
    assert_eq!(logged["turns"][10]["player_states"][1]["isActive"], true);
    let t11 = &logged["turns"][11];
    assert_eq!(t11["player_states"][1]["isActive"], false);
    // The default move: to its own spawn.
    assert_eq!(
        t11["move_actions"][1]["destination"],
        json!({"x": 9, "y": 0})
    );
}

#[test]
fn max_turns_counts_turns_not_phases() {
    for (game, max, turns) in [
        ("ballroom", "4", 4),
        ("ballroom", "25", 25),
        ("ballroom", "250", 100),
        ("tower-defense", "7", 7),
    ] {
        let r = Arena::play(game)
            .args(&["--seed", "1", "--max-turns", max])
            .report();
        assert_eq!(r["turns"], turns, "{game} --max-turns {max}: {r}");
    }
}

/// Official logs of games where a bot acted for another seat (tests/data/ballroom/README.md).
fn acting_for_another_seat(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ballroom")
        .join(name)
}

#[test]
fn verify_accepts_official_logs_where_a_bot_acts_for_another_seat() {
    // otherseat.json: bot 3 names executor 0 all game, so the log never shows bot 0's replies
    // (executed for player 0 before bot 3's); verify finds replies that give every recorded
    // state and flag. rotated.json: each bot acts for the next seat, and ATTACK's queue order
    // (bots 0..3 read in turn) decides ties of damage.
    for (name, scores) in [
        ("otherseat.json", "scores 27 25 27 0"),
        ("rotated.json", "scores 27 26 33 50"),
    ] {
        let said = verifies("ballroom", &acting_for_another_seat(name), &[]);
        assert!(said.contains("ok: 100 turns re-played"), "{said}");
        assert!(said.contains(scores), "{said}");
    }
}

#[test]
fn verify_refuses_a_tampered_official_log_naming_turn_and_field() {
    let (_dir, path) = scratch("tampered.json");
    // One recorded value changed in each log: a player state, and an attack's flags where no bot
    // could have set them (the engine invalidates an attack out of range whatever the bot sent,
    // and sets the damage of an attack it judges).
    let cases = [
        (
            "otherseat.json",
            "/turns/37/player_states/2/gold",
            json!(8),
            "turn 37: player_states[2].gold: expected 8, got 7",
        ),
        (
            "rotated.json",
            "/turns/32/attack_actions/2/isValid",
            json!(true),
            "turn 32: attack_actions[2].isValid: expected true, got false",
        ),
        (
            "rotated.json",
            "/turns/32/attack_actions/1/damage",
            json!(7),
            "turn 32: attack_actions[1].damage: expected 7, got 6",
        ),
    ];
    for (name, pointer, value, message) in cases {
        let mut log = read_json(&acting_for_another_seat(name));
        let field = log.pointer_mut(pointer).unwrap();
        assert_ne!(*field, value, "{name}: the tampered value is a change");
        *field = value;
        std::fs::write(&path, log.to_string()).unwrap();
        let said = Arena::verify("ballroom", &path).exits(1);
        assert!(said.contains(message), "{name}: {said}");
    }
}

#[test]
fn verify_accepts_flags_only_a_bot_could_have_set_and_names_them() {
    // The official engine keeps a bot's `isValid: false` on a valid action and its `nullified` and
    // `damage` where its judgement sets neither (rules, Protocol): such a log verifies, and the
    // report names the values that only the bots' flags explain.
    let (_dir, path) = scratch("flags.json");
    let mut log = read_json(&acting_for_another_seat("rotated.json"));
    let turn = &mut log["turns"][32];
    turn["attack_actions"][0]["isValid"] = json!(false);
    turn["attack_actions"][3]["nullified"] = json!(true);
    turn["move_actions"][1]["isValid"] = json!(false);
    std::fs::write(&path, log.to_string()).unwrap();
    let said = verifies("ballroom", &path, &[]);
    assert!(said.contains("scores 27 26 33 50"), "{said}");
    assert!(
        said.contains("3 logged flags stand as bots sent them")
            && said.contains("turn 32 move_actions[1].isValid, turn 32 attack_actions[0].isValid"),
        "{said}"
    );
}

#[test]
fn trailing_bytes_are_ignored_and_flags_a_bot_sends_stand_where_the_engine_sets_none() {
    // Seat 1 writes `{"x":1}` after every action (the official engine reads the first JSON value:
    // the bot is not dropped), sends `isValid: false` with every action, and in ATTACK
    // `damage: 99, nullified: true` on player 7 (no player: the engine invalidates it and sets no
    // damage). Seat 0 is the same bot without any of it, its input kept to read `last_actions`.
    let (_dir, logs) = scratch("logs");
    let odd = test_bot("ballroom_phase_bot.py", "--trailing --flags --target 7");
    let plain = test_bot("ballroom_phase_bot.py", "");
    let (report, log) = Arena::play("ballroom")
        .bots(&[&plain, &odd, "random", "random"])
        .args(&["--seed", "5"])
        .file("--bot-logs", &logs)
        .played("game.json");
    assert_eq!(report["seats"][1]["faults"], json!([]), "{report}");
    assert_eq!(
        report["seats"][1]["refused"], 100,
        "the 100 attacks on no player: {report}"
    );
    let logged = read_json(&log);
    let turn1 = &logged["turns"][1];
    assert_eq!(turn1["player_states"][1]["isActive"], true);
    // Its first move, one step from its spawn (9,0), was made; the log says what the bot said.
    assert_eq!(
        turn1["player_states"][1]["position"],
        json!({"x": 8, "y": 0})
    );
    assert_eq!(
        turn1["move_actions"][1],
        json!({"executor": 1, "destination": {"x": 8, "y": 0}, "isValid": false})
    );
    assert_eq!(
        turn1["use_actions"][1],
        json!({"executor": 1, "use": false, "isValid": false})
    );
    assert_eq!(
        turn1["buy_actions"][1],
        json!({"executor": 1, "item": "NONE", "isValid": false})
    );
    for t in 1..=100 {
        assert_eq!(
            logged["turns"][t]["attack_actions"][1],
            json!({"executor": 1, "target": 7, "isValid": false, "damage": 99, "nullified": true}),
            "turn {t}"
        );
    }
    // Seat 0 read the same values in the next phase's `last_actions`.
    let input = std::fs::read_to_string(logs.join("0.input")).unwrap();
    let after_attack = input
        .lines()
        .find(|l| l.contains(r#""turn":1,"last_phase":"ATTACK""#))
        .expect("the message after turn 1's ATTACK");
    assert!(
        after_attack
            .contains(r#"{"executor":1,"target":7,"isValid":false,"damage":99,"nullified":true}"#),
        "{after_attack}"
    );
    let said = verifies("ballroom", &log, &[]);
    assert!(
        said.contains("logged flags stand as bots sent them"),
        "{said}"
    );
}

#[test]
fn tcp_seats_are_named_in_order_and_names_without_tcp_say_how() {
    // With --tcp, the names go to the seats in order, the TCP seats after the bots given
    // included; nobody connects to those (within 0.1 s), so they play the defaults.
    let (report, log) = Arena::play("ballroom")
        .args(&[
            "--tcp",
            "--port-base",
            "0",
            "--tcp-wait",
            "0.1",
            "--seed",
            "2",
        ])
        .bots(&["strong"])
        .args(&["--name", "alice", "--name", "bob", "--name", "carol"])
        .played("named.json");
    let names: Vec<&str> = report["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    assert_eq!(&names[..3], ["alice", "bob", "carol"], "{report}");
    assert!(names[3].starts_with("tcp:"), "the seat not named: {report}");
    let logged = read_json(&log);
    assert_eq!(
        logged["names"].as_array().unwrap()[..3],
        [json!("alice"), json!("bob"), json!("carol")]
    );
    for seat in 1..4 {
        assert_eq!(report["seats"][seat]["faults"][0]["turn"], 0, "{report}");
    }
    // Five names for four seats, and names past the bots without --tcp: refused, saying how.
    let said = Arena::play("ballroom")
        .args(&["--tcp", "--port-base", "0"])
        .args(&[
            "--name", "a", "--name", "b", "--name", "c", "--name", "d", "--name", "e",
        ])
        .exits(2);
    assert!(
        said.contains("a Ballroom Blitz match has 4 seats"),
        "{said}"
    );
    let said = Arena::play("ballroom")
        .args(&["--name", "a", "--name", "b"])
        .exits(2);
    assert!(
        said.contains("add --tcp") && said.contains("--bot tcp"),
        "{said}"
    );
}
