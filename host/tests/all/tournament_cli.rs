//! `arena tournament` and `arena merge`: results independent of --jobs, shards that merge into the
//! same table as one run, replays kept, no process left behind.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

fn tournament(dir: &Path, name: &str, extra: &[&str]) -> (PathBuf, Output) {
    let file = dir.join(name);
    let out = Arena::tournament("tower-defense")
        .bots(&["strong", "random", "army"])
        .args(&["--seed", "11", "--quiet"])
        .file("--results-json", &file)
        .args(extra)
        .ok();
    (file, out)
}

/// `arena merge A B --results-json OUT`, which must succeed.
fn merge(a: &str, b: &str, out: &str) -> Output {
    Arena::new(&["merge", a, b, "--results-json", out]).ok()
}

#[test]
fn results_do_not_depend_on_jobs_and_shards_merge_into_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (one, out) = tournament(dir.path(), "one.json", &["--jobs", "1"]);
    let (two, _) = tournament(dir.path(), "two.json", &["--jobs", "2"]);
    let one = untimed(read_json(&one));
    assert_eq!(one, untimed(read_json(&two)));
    let table = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        table.contains("wins") && table.contains("mu-3sigma"),
        "{table}"
    );

    let (a, _) = tournament(dir.path(), "a.json", &["--shard", "0/2"]);
    let (b, _) = tournament(dir.path(), "b.json", &["--shard", "1/2"]);
    assert_eq!(read_json(&a)["results"].as_array().unwrap().len(), 3);
    let merged = dir.path().join("merged.json");
    let m = merge(arg(&a), arg(&b), arg(&merged));
    assert_eq!(untimed(read_json(&merged)), one);
    // The printed tables are the same too, up to the time a turn (measured, and there).
    let untimed_text = |out: &Output| {
        let t = String::from_utf8_lossy(&out.stdout).to_string();
        let at = t.find("\ntime a turn").expect("a time a turn table");
        t[..at].to_string()
    };
    assert_eq!(untimed_text(&m), untimed_text(&out));
}

#[test]
fn merge_refuses_missing_shards_unless_partial_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: usize| {
        tournament(
            dir.path(),
            &format!("s{i}.json"),
            &["--shard", &format!("{i}/3")],
        )
        .0
    };
    let (s0, s2) = (shard(0), shard(2));
    let merged = dir.path().join("merged.json");
    // One of three missing: refused, naming it, and nothing written.
    let said = Arena::new(&["merge", arg(&s0), arg(&s2)])
        .file("--results-json", &merged)
        .exits(2);
    assert!(
        said.contains("shards missing: 1/3") && said.contains("--partial"),
        "{said}"
    );
    assert!(!merged.exists());
    // A shard given twice would count its matches twice.
    let said = Arena::new(&["merge", arg(&s0), arg(&s0), arg(&s2)]).exits(2);
    assert!(said.contains("given twice"), "{said}");
    // --partial merges what is there, and says what is missing.
    let out = Arena::new(&["merge", arg(&s0), arg(&s2), "--partial"])
        .file("--results-json", &merged)
        .ok();
    assert!(text(&out).contains("missing 1/3"), "{}", text(&out));
    let r = read_json(&merged);
    let n = |f: &Path| read_json(f)["results"].as_array().unwrap().len();
    assert_eq!(r["results"].as_array().unwrap().len(), n(&s0) + n(&s2));
    // With the third, the merge is whole again.
    let s1 = shard(1);
    Arena::new(&["merge", arg(&s0), arg(&s1), arg(&s2)]).ok();
}

#[test]
fn round_robin_swaps_seats_and_ranks_the_strong_bot_first() {
    let (dir, replays) = scratch("replays");
    let (file, _) = tournament(dir.path(), "r.json", &["--replays", arg(&replays)]);
    let r = read_json(&file);
    let results = r["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    assert_eq!(r["standings"][0]["bot"], "strong");
    // Every replay was kept, and verifies.
    for m in results {
        let path = m["replay"].as_str().unwrap();
        verifies("tower-defense", Path::new(path), &[]);
    }
    assert_eq!(std::fs::read_dir(&replays).unwrap().count(), 6);
}

#[test]
fn a_tournament_without_seed_draws_one_at_random_and_writes_it_to_be_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let file = dir.path().join(name);
        let out = Arena::tournament("tower-defense")
            .bots(&["strong", "random", "army"])
            .args(&["--quiet"])
            .args(extra)
            .file("--results-json", &file)
            .ok();
        (
            untimed(read_json(&file)),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (a, said) = run("a.json", &[]);
    let (b, _) = run("b.json", &[]);
    let seed = a["seed"].as_u64().unwrap();
    // Two draws of 64 bits from the system: equal once in 2^64 runs.
    assert_ne!(
        seed,
        b["seed"].as_u64().unwrap(),
        "the same seed drawn twice"
    );
    assert!(
        said.contains(&format!("tournament seed {seed}")) && said.contains("--seed"),
        "{said}"
    );
    // Passed back, the seed plays the same tournament.
    let (again, said) = run("again.json", &["--seed", &seed.to_string()]);
    assert_eq!(again, a);
    assert!(!said.contains("drawn at random"), "{said}");
    // A shard must name the seed: shards drawing their own would not merge into one tournament.
    let refused = Arena::tournament("tower-defense")
        .bots(&["strong", "random"])
        .args(&["--shard", "0/2"])
        .exits(2);
    assert!(refused.contains("--seed"), "{refused}");
}

#[test]
fn siege_plays_every_defender_against_every_invader() {
    let (_dir, file) = scratch("s.json");
    let out = Arena::tournament("tower-defense")
        .args(&["--variant", "siege"])
        .bots(&["strong", "army"])
        .args(&["--seed", "1", "--quiet"])
        .file("--results-json", &file)
        .ok();
    let r = read_json(&file);
    let seats: Vec<Vec<u64>> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(seats, vec![vec![0, 1], vec![1, 0]]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("defender avg"));
}

/// Whether process `pid` still runs (a zombie waiting for its parent to reap it does not).
fn running(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn external_bots_in_a_tournament_leave_no_process_behind() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    // A bot that starts a child of its own, answers a few turns, then hangs in another child.
    // Every instance (one per match) writes its own pid and its children's to `pids`.
    let bot = format!(
        "cmd:sh -c 'echo $$ >> \"$0\"; sleep 300 & echo $! >> \"$0\"; n=0; while read l; do n=$((n+1)); \
         if [ $n -gt 20 ]; then sleep 300 & echo $! >> \"$0\"; wait; fi; echo null; done' {}",
        pids.display()
    );
    let file = dir.path().join("z.json");
    Arena::tournament("tower-defense")
        .bots(&[&bot, "strong"])
        .args(&["--turn-ms", "5", "--seed", "1", "--quiet"])
        .file("--results-json", &file)
        .ok();
    let r = read_json(&file);
    assert!(
        r["ratings"][0]["faults"]["timeouts"].as_u64().unwrap() > 0,
        "{r}"
    );
    let pids = std::fs::read_to_string(&pids).unwrap();
    let pids: Vec<&str> = pids.lines().collect();
    // Two matches (one per side), each: the shell, its first child and the one it hangs in.
    assert_eq!(pids.len(), 6, "{pids:?}");
    // SIGKILL is delivered at once, but a loaded machine may take a moment to tear a process down
    // (the wait ends as soon as they are gone: the cap is only reached when one is left).
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut left: Vec<&str> = pids.clone();
    while !left.is_empty() && std::time::Instant::now() < until {
        left.retain(|pid| running(pid));
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        left.is_empty(),
        "processes left running: {left:?} of {pids:?}"
    );
}

#[test]
fn shard_and_bot_errors_are_clear() {
    let t = Arena::tournament("tower-defense")
        .bots(&["strong", "random"])
        .args(&["--shard", "2/2"])
        .exits(2);
    assert!(t.contains("0 <= I < N"), "{t}");
    let t = text(
        &Arena::tournament("tower-defense")
            .bots(&["strong", "nope"])
            .run(),
    );
    assert!(t.contains("unknown bot `nope`"), "{t}");
}

#[test]
fn a_swiss_tournament_sharded_round_by_round_merges_into_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let base = Arena::tournament("ballroom")
        .bots(&["strong", "holder", "random", "random"])
        .bots(&["strong", "holder", "random", "holder"])
        .args(&["--rounds", "2", "--seed", "5", "--quiet"]);
    let run = |extra: &[&str]| base.clone().args(extra).ok();
    run(&["--results-json", &d("whole.json")]);
    let whole = untimed(read_json(&dir.path().join("whole.json")));
    assert_eq!(
        whole["results"].as_array().unwrap().len(),
        4,
        "two rounds of two tables"
    );
    // Round 1 in two shards, merged; then round 2 in two shards after it, merged.
    run(&["--shard", "0/2", "--results-json", &d("r1a.json")]);
    run(&["--shard", "1/2", "--results-json", &d("r1b.json")]);
    merge(&d("r1a.json"), &d("r1b.json"), &d("r1.json"));
    run(&[
        "--shard",
        "0/2",
        "--after",
        &d("r1.json"),
        "--results-json",
        &d("r2a.json"),
    ]);
    run(&[
        "--shard",
        "1/2",
        "--after",
        &d("r1.json"),
        "--results-json",
        &d("r2b.json"),
    ]);
    merge(&d("r2a.json"), &d("r2b.json"), &d("r2.json"));
    assert_eq!(untimed(read_json(&dir.path().join("r2.json"))), whole);
}

#[test]
fn ants_tournament_rates_many_player_matches_and_shards_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let maps = golden("ants").join("maps");
    let m1 = maps.join("tutorial1.map");
    let m4 = maps.join("multi_hill_maze_04p_02.map");
    let base = Arena::tournament("ants")
        .file("--map", &m1)
        .file("--map", &m4)
        .bots(&["hunter", "hold", "strong"])
        .args(&["--turns", "60", "--seed", "2", "--quiet"]);
    let run = |extra: &[&str]| base.clone().args(extra).ok();
    run(&["--jobs", "2", "--results-json", &d("whole.json")]);
    let whole = untimed(read_json(&dir.path().join("whole.json")));
    let results = whole["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    // The 4-player map seats four: with three bots, one plays twice.
    assert_eq!(results[1]["seats"].as_array().unwrap().len(), 4);
    assert!(whole["standings"][0]["columns"][0][0] == "mu-3sigma");
    run(&["--shard", "0/2", "--results-json", &d("a.json")]);
    run(&["--shard", "1/2", "--results-json", &d("b.json")]);
    merge(&d("a.json"), &d("b.json"), &d("m.json"));
    assert_eq!(untimed(read_json(&dir.path().join("m.json"))), whole);
}

#[test]
fn names_given_with_the_bots_name_them_in_tables_results_and_replays() {
    let (dir, replays) = scratch("replays");
    let starter = workspace().join("host/examples/tower_defense_bot.py");
    let python = format!("cmd:python3 {}", starter.display());
    let file = dir.path().join("r.json");
    let out = Arena::tournament("tower-defense")
        .bots(&["strong", &python, "random"])
        .args(&[
            "--name",
            "Strong",
            "--seed",
            "3",
            "--turn-ms",
            "50",
            "--quiet",
        ])
        .file("--replays", &replays)
        .file("--results-json", &file)
        .ok();
    let r = read_json(&file);
    // The first is named; the others keep their default names (playgame.py's for a command).
    assert_eq!(
        r["names"],
        serde_json::json!(["Strong", "tower_defense_bot.py", "random"])
    );
    let table: Vec<&str> = r["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["bot"].as_str().unwrap())
        .collect();
    for name in ["Strong", "tower_defense_bot.py", "random"] {
        assert!(table.contains(&name), "{table:?}");
    }
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        printed.contains("Strong") && !printed.contains("cmd:"),
        "{printed}"
    );
    for m in r["results"].as_array().unwrap() {
        let trace = std::fs::read_to_string(m["replay"].as_str().unwrap()).unwrap();
        let header: serde_json::Value =
            serde_json::from_str(trace.lines().next().unwrap()).unwrap();
        let bots = header["header"]["bots"].as_array().unwrap();
        assert!(
            bots.iter()
                .all(|b| !b.as_str().unwrap().starts_with("cmd:")),
            "{header}"
        );
    }
}
