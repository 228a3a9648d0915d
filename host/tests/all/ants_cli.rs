//! `arena play ants` and `arena verify ants` end to end, with the real binary and real bot
//! processes: the Python starter bot, bots that hang, crash or write garbage, replays that verify,
//! no process left behind, and every golden game verified through the CLI.

use crate::common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A map of the golden Ants data.
fn golden_map(name: &str) -> String {
    let map = golden("ants").join(name);
    assert!(map.is_file(), "{} missing", map.display());
    arg(&map).to_string()
}

fn tutorial_map() -> String {
    golden_map("maps/tutorial1.map")
}

/// The 4-player map of a golden game (60 x 116).
fn four_player_map() -> String {
    golden_map("rw04p_mixed_s5/map.map")
}

/// Plays a match with `--json` and a replay in a temporary folder; returns the report, the
/// replay and its file.
fn play(map: &str, bots: &[&str], extra: &[&str]) -> (Value, Value, TempPath) {
    played(ants_on(Path::new(map), bots).args(extra))
}

/// `bot` against the hunter on the tutorial map, with the bots' logs (`--bot-logs`): the report,
/// the replay, and what `bot` was sent, which must be byte for byte what the official engine sends
/// for that game (the hunter, built in, has no input log); the replay must verify.
fn against_hunter_logged(bot: &str, extra: &[&str]) -> (Value, Value, String) {
    let (_logs_dir, logs) = scratch("logs");
    let map = tutorial_map();
    let bots = [bot, "hunter"];
    let (report, replay, file) = played(
        ants_on(Path::new(&map), &bots)
            .args(extra)
            .file("--bot-logs", &logs),
    );
    assert_verifies(&file, &map);
    let sent = sent_as_official(&logs, &file, &map);
    assert!(
        !logs.join("1.input").exists(),
        "built-in bots have no input log"
    );
    (report, replay, sent)
}

/// `bot` against the official HoldBot on the tutorial map, as [`play`]; its replay checked to verify.
fn against_hold(bot: &str, extra: &[&str]) -> (Value, Value) {
    let map = tutorial_map();
    let (report, replay, file) = play(&map, &[bot, "hold"], extra);
    assert_verifies(&file, &map);
    (report, replay)
}

fn played(cmd: Arena) -> (Value, Value, TempPath) {
    let (report, file) = cmd.played("game.json");
    let replay = read_json(&file);
    (report, replay, file)
}

/// What seat 0 was sent, as its input log in `logs` holds it: byte for byte what the official
/// engine sends for the game of `replay` on `map` (the feed that reproduces the golden bot input
/// logs).
fn sent_as_official(logs: &Path, replay: &Path, map: &str) -> String {
    let sent = std::fs::read_to_string(logs.join("0.input")).unwrap();
    let official = arena_host::games::ants::bot_input(
        &std::fs::read_to_string(replay).unwrap(),
        &std::fs::read_to_string(map).unwrap(),
    )
    .unwrap();
    assert_eq!(sent, official[0]);
    sent
}

fn assert_verifies(replay: &Path, map: &str) {
    let said = verifies("ants", replay, &["--map", map]);
    assert!(said.contains(": ok:"), "{said}");
}

/// Processes (not zombies) whose command line holds `marker`, after a grace period (generous:
/// every caller expects none, so it only ever runs out when a process really is left).
fn left_behind(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let path = entry.path();
            let Ok(cmd) = std::fs::read(path.join("cmdline")) else {
                continue;
            };
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            let zombie = std::fs::read_to_string(path.join("stat"))
                .map(|s| {
                    s.rsplit(')')
                        .next()
                        .unwrap_or("")
                        .trim_start()
                        .starts_with('Z')
                })
                .unwrap_or(true);
            if cmd.contains(marker) && !zombie {
                found.push(format!("{}: {cmd}", path.display()));
            }
        }
        if found.is_empty() || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn faults(report: &Value, seat: usize) -> Vec<String> {
    report["seats"][seat]["faults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["what"].as_str().unwrap().to_string())
        .collect()
}

/// Ants of `owner` in a replay: `[row, col, spawn, end, owner, moves]`.
fn ants_of(replay: &Value, owner: u64) -> Vec<Value> {
    replay["replaydata"]["ants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a[4] == owner)
        .cloned()
        .collect()
}

/// Whether any of `ants` (as [`ants_of`] gives them) ever moved.
fn any_moved(ants: &[Value]) -> bool {
    ants.iter()
        .any(|a| a[5].as_str().unwrap().bytes().any(|c| c != b'-'))
}

#[test]
fn python_starter_bot_plays_a_builtin_bot_and_the_replay_verifies() {
    let marker = "ants-starter-marker-1";
    let python = format!("cmd:python3 host/examples/ants_bot.py {marker}");
    let extra = [
        "--turns",
        "50",
        "--engine-seed",
        "2",
        "--player-seed",
        "-42",
    ];
    let (report, replay, sent) = against_hunter_logged(&python, &extra);
    assert_eq!(report["turns"], 50, "{report}");
    assert_eq!(report["reason"], "turn limit reached", "{report}");
    assert!(faults(&report, 0).is_empty(), "{report}");
    assert_eq!(report["seats"][0]["disqualified_at"], Value::Null);
    assert_eq!(
        replay["status"],
        serde_json::json!(["survived", "survived"])
    );
    assert_eq!(replay["playerturns"], serde_json::json!([50, 50]));
    assert_eq!(replay["replaydata"]["revision"], 3);
    assert_eq!(replay["replaydata"]["engine_seed"], 2);
    assert_eq!(replay["replaydata"]["player_seed"], -42);
    assert_eq!(replay["playernames"][1], "hunter");
    // The starter bot moved its ants and gathered food (more ants than its one start ant).
    let ours = ants_of(&replay, 0);
    assert!(ours.len() > 1, "{ours:?}");
    assert!(any_moved(&ours), "{ours:?}");
    // The bot was sent, byte for byte, what the official engine sends for this game.
    assert!(
        sent.starts_with("turn 0\nloadtime 3000\nturntime 1000\n"),
        "{sent}"
    );
    assert!(sent.contains("\nplayer_seed -42\nready\n"), "{sent}");
    assert!(sent.ends_with("go\n") && sent.contains("\nend\nplayers 2\n"));
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

#[test]
fn a_hanging_bot_times_out_its_ants_stay_and_the_game_goes_on() {
    let map = four_player_map();
    // Answers `ready` and four turns, then hangs on turn 5.
    let hang = "cmd:n=0; while read l; do case $l in ready|go) n=$((n+1)); \
                [ $n -eq 6 ] && sleep 31.4159265; echo go;; esac; done";
    let (report, replay, file) = play(
        &map,
        &[hang, "hold", "hold", "hold"],
        &["--turns", "12", "--turntime", "500", "--engine-seed", "5"],
    );
    assert_eq!(report["turns"], 12, "the game goes on: {report}");
    assert_eq!(report["seats"][0]["disqualified_at"], 5, "{report}");
    let f = &report["seats"][0]["faults"];
    assert_eq!(f.as_array().unwrap().len(), 1, "{report}");
    assert_eq!(f[0]["kind"], "timeout", "{report}");
    assert_eq!(f[0]["turn"], 5, "{report}");
    assert_eq!(replay["status"][0], "timeout");
    assert_eq!(replay["playerturns"][0], 5);
    assert_eq!(replay["status"][1], "survived");
    assert_eq!(report["status"], replay["status"]);
    // Its ants stay on the board to the end, never moving.
    let ants = ants_of(&replay, 0);
    assert!(!ants.is_empty());
    for a in &ants {
        assert_eq!(a[3], 13, "{a}");
        assert!(a[5].as_str().unwrap().bytes().all(|c| c == b'-'), "{a}");
    }
    // Killed by the engine: its hill costs it a point, as the official kill_player does.
    let scores = replay["replaydata"]["scores"][0].as_array().unwrap();
    assert!(
        scores.last().unwrap().as_i64() < scores[0].as_i64(),
        "{scores:?}"
    );
    assert_verifies(&file, &map);
    assert_eq!(left_behind("31.4159265"), Vec::<String>::new());
}

#[test]
fn a_bot_that_exits_at_start_is_crashed_at_turn_0() {
    let map = tutorial_map();
    let (report, replay, file) = play(
        &map,
        &["cmd:exit 0", "hunter"],
        &["--engine-seed", "8", "--loadtime", "1000"],
    );
    // Two players: the other one is the lone survivor at once, as in the official engine.
    assert_eq!(report["turns"], 0, "{report}");
    assert_eq!(report["winner"], 1, "{report}");
    assert_eq!(report["reason"], "lone survivor", "{report}");
    assert_eq!(report["seats"][0]["faults"][0]["kind"], "crash", "{report}");
    assert_eq!(replay["status"], serde_json::json!(["crashed", "survived"]));
    assert_eq!(replay["playerturns"], serde_json::json!([0, 0]));
    assert_verifies(&file, &map);
}

#[test]
fn a_bot_that_crashes_mid_game_is_killed_and_the_others_play_on() {
    let map = four_player_map();
    let marker = "ants-crash-marker-2";
    let crash = format!(
        "cmd:n=0; while read l; do case $l in ready|go) n=$((n+1)); \
         [ $n -eq 4 ] && exit 3; echo go;; esac; done # {marker}"
    );
    let python = format!("cmd:python3 host/examples/ants_bot.py {marker}");
    let (report, replay, file) = play(
        &map,
        &["hold", &crash, &python, "hold"],
        &["--turns", "10", "--engine-seed", "6"],
    );
    assert_eq!(report["turns"], 10, "{report}");
    assert_eq!(report["seats"][1]["disqualified_at"], 3, "{report}");
    let what = faults(&report, 1);
    assert_eq!(what.len(), 1, "{report}");
    // The exit status when the child is reaped in time, else "closed its output".
    assert!(what[0].starts_with("exited ("), "{report}");
    assert_eq!(report["seats"][1]["faults"][0]["kind"], "crash", "{report}");
    assert_eq!(
        replay["status"],
        serde_json::json!(["survived", "crashed", "survived", "survived"])
    );
    assert_eq!(replay["playerturns"], serde_json::json!([10, 3, 10, 10]));
    assert!(faults(&report, 2).is_empty(), "{report}");
    assert_verifies(&file, &map);
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

#[test]
fn garbage_orders_are_reported_with_the_official_reasons_and_ignored() {
    let (_dir, bot) = scratch("garbage.py");
    // Orders its own ants twice (duplicate), plus every kind of bad line.
    std::fs::write(
        &bot,
        r#"import sys
ants = []
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == 'ready':
        print('go', flush=True)
    elif w[0] == 'a' and w[3] == '0':
        ants.append((w[1], w[2]))
    elif w[0] == 'go':
        out = []
        for r, c in ants:
            out += ['o %s %s n' % (r, c), 'o %s %s s' % (r, c)]
        out += ['o 0 0 x', 'hello', 'o 1 2', 'o a b n', 'o 999 999 n', 'o 0 0 n', 'o -1 0 n']
        sys.stdout.write('\n'.join(out) + '\n')
        sys.stdout.buffer.write(b'\xff\xfe\n')
        sys.stdout.write('go\n')
        sys.stdout.flush()
        ants = []
"#,
    )
    .unwrap();
    let garbage = format!("cmd:python3 {}", bot.display());
    let (report, replay) = against_hold(&garbage, &["--turns", "5", "--engine-seed", "2"]);
    assert_eq!(report["turns"], 5, "{report}");
    assert_eq!(
        report["seats"][0]["disqualified_at"],
        Value::Null,
        "{report}"
    );
    let what = faults(&report, 0).join("\n");
    for reason in [
        "o 0 0 x # invalid direction",
        "hello # unknown action",
        "o 1 2 # incorrectly formatted order",
        "o a b n # invalid row or col",
        "o 999 999 n # out of bounds",
        "o 0 0 n # not player ant",
        "# duplicate order",
        "not UTF-8",
    ] {
        assert!(what.contains(reason), "no `{reason}` in:\n{what}");
    }
    // Per turn: 7 bad lines, an unreadable one, and per ant a duplicate (or a blocked move).
    let refused = report["seats"][0]["refused"].as_u64().unwrap();
    assert!(refused >= 5 * 9, "{report}");
    assert_eq!(
        replay["status"],
        serde_json::json!(["survived", "survived"])
    );
    // The valid orders were played all the same.
    let ours = ants_of(&replay, 0);
    assert!(any_moved(&ours), "{ours:?}");
}

#[test]
fn the_number_of_bots_must_match_the_map() {
    let map = tutorial_map();
    let t = ants_on(Path::new(&map), &["hunter"]).exits(2);
    assert!(t.contains("2-player map"), "{t}");
}

#[test]
fn every_golden_game_verifies_through_the_cli() {
    let mut n = 0;
    for entry in std::fs::read_dir(golden("ants")).unwrap() {
        let dir = entry.unwrap().path();
        let replay = dir.join("replay.json");
        if replay.is_file() {
            assert_verifies(&replay, dir.join("map.map").to_str().unwrap());
            n += 1;
        }
    }
    assert_eq!(n, 5);
}

#[test]
fn a_tampered_replay_fails_and_names_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let game = golden("ants").join("tut_hunter_greedy_s7");
    let map = game.join("map.map");
    let mut replay = read_json(&game.join("replay.json"));
    let s = &mut replay["replaydata"]["scores"][0][50];
    *s = (s.as_i64().unwrap() + 1).into();
    let file = dir.path().join("tampered.json");
    std::fs::write(&file, replay.to_string()).unwrap();
    let t = Arena::verify("ants", &file).file("--map", &map).exits(1);
    assert!(t.contains("turn 50: scores[0]: expected"), "{t}");
}

#[test]
fn a_bot_flooding_orders_without_go_times_out() {
    let marker = "ants-flood-marker-3";
    let flood = format!("cmd:read l; echo go; yes 'o 1 1 n # {marker}'");
    let (report, replay) = against_hold(&flood, &["--turntime", "100", "--engine-seed", "4"]);
    assert_eq!(report["turns"], 1, "{report}");
    assert_eq!(
        report["seats"][0]["faults"][0]["kind"], "timeout",
        "{report}"
    );
    assert_eq!(replay["status"], serde_json::json!(["timeout", "survived"]));
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

#[test]
fn the_starter_bot_answers_go_whatever_it_is_sent() {
    use std::io::Write;
    let mut child = Command::new("python3")
        .arg(workspace().join("host/examples/ants_bot.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("python3");
    let mut input = Vec::new();
    input.extend_from_slice(b"turn 0\nrows x\ncols 5\nplayer_seed zz\nready\n");
    input.extend_from_slice(b"turn 1\na 1 q 0\nf\n\xff\xfe\nh 1 1\na 0 0 0\nw 0 1\nf 1 0\ngo\n");
    input.extend_from_slice(b"turn 2\na 3 3 0\na 3 3 0\nzzz 1 2 3 4 5\ngo\n");
    input.extend_from_slice(b"end\nplayers 2\nscore 1 1\ngo\nturn 3\ngo\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // `go` for ready and for each of the two turns, nothing after `end`.
    assert_eq!(lines.iter().filter(|l| **l == "go").count(), 3, "{text}");
    assert_eq!(lines.last(), Some(&"go"), "{text}");
    assert!(
        lines
            .iter()
            .all(|l| *l == "go" || (l.starts_with("o ") && l.split(' ').count() == 4)),
        "{text}"
    );
}

#[test]
fn an_eliminated_bot_hears_end_as_the_official_engine_says_it() {
    let marker = "ants-idle-marker-4";
    // Never moves: the hunter razes its hill and kills its ants.
    let idle = format!("cmd:while read l; do case $l in ready|go) echo go;; esac; done # {marker}");
    let extra = ["--turns", "200", "--engine-seed", "3"];
    let (report, replay, sent) = against_hunter_logged(&idle, &extra);
    assert_eq!(report["winner"], 1, "{report}");
    assert_eq!(replay["status"][0], "eliminated", "{report}");
    assert!(sent.contains("\nend\nplayers 2\n"), "{sent}");
    assert_eq!(left_behind(marker), Vec::<String>::new());
}

#[test]
fn a_replay_whose_header_contradicts_the_map_and_game_is_refused() {
    // What playgame.py writes for a game on this 4-player map: challenge "ants", replayformat
    // "json", revision 3, players 4, four player names.
    let dir = tempfile::tempdir().unwrap();
    let game = golden("ants").join("rw04p_mixed_s5");
    let map = game.join("map.map");
    let original = read_json(&game.join("replay.json"));
    let cases: [(&str, Value, &str); 5] = [
        (
            "/replaydata/players",
            5.into(),
            "replaydata.players: expected 4",
        ),
        (
            "/replaydata/revision",
            2.into(),
            "replaydata.revision: expected 3",
        ),
        ("/challenge", "tron".into(), "challenge: expected \"ants\""),
        (
            "/replayformat",
            "storage".into(),
            "replayformat: expected \"json\"",
        ),
        (
            "/playernames",
            serde_json::json!(["a", "b", "c"]),
            "playernames: expected 4 names",
        ),
    ];
    for (path, value, said) in cases {
        let mut replay = original.clone();
        *replay.pointer_mut(path).unwrap() = value;
        let file = dir.path().join("changed.json");
        std::fs::write(&file, replay.to_string()).unwrap();
        let t = Arena::verify("ants", &file).file("--map", &map).exits(1);
        assert!(t.contains(said), "{path}: {t}");
    }
    // The golden replay itself is what playgame.py writes.
    assert_verifies(&game.join("replay.json"), map.to_str().unwrap());
}

#[test]
fn bots_are_named_as_playgame_names_them_or_as_given() {
    // playgame.py names a bot after the last file of its command line: `HunterBot.py`, not
    // `cmd:python3 /abs/path/HunterBot.py` (the official visualizer shows the name).
    let map = tutorial_map();
    let starter = workspace().join("host/examples/ants_bot.py");
    let python = format!("cmd:python3 {}", starter.display());
    let (report, replay, _) = play(&map, &[&python, "hunter"], &["--turns", "20"]);
    assert_eq!(
        replay["playernames"],
        serde_json::json!(["ants_bot.py", "hunter"])
    );
    assert_eq!(report["seats"][0]["bot"], "ants_bot.py");
    // --name, one per --bot, in the report and the replay.
    let (report, replay, _) = play(
        &map,
        &[&python, "hunter"],
        &["--turns", "20", "--name", "Starter", "--name", "Hunter"],
    );
    assert_eq!(
        replay["playernames"],
        serde_json::json!(["Starter", "Hunter"])
    );
    assert_eq!(report["seats"][1]["bot"], "Hunter");
    let too_many = ants_on(Path::new(&map), &["hunter", "hold"])
        .args(&["--name", "a", "--name", "b", "--name", "c"])
        .exits(2);
    assert!(too_many.contains("--name"), "{too_many}");
}
