//! Time a turn for every seat (`arena play`, `arena tournament`): median, p99 and max on the wall
//! and in CPU time (an external bot's processes, a built-in bot's thread). Times are measured, so
//! these tests check the figures' structure and a lower bound on a bot's own known work only.

use crate::common::*;

/// A bot that spends 20 ms of its own CPU time on every turn, then passes (Tower Defense's JSON
/// lines: `null`).
const BUSY: &str = r#"cmd:python3 -c "
import sys, time
for line in sys.stdin:
    t = time.process_time()
    while time.process_time() - t < 0.02:
        pass
    print('null', flush=True)
""#;

/// `(median, p99, max)` of one measure of a seat's `time`, in microseconds, checked in order.
fn ordered(seat: &serde_json::Value, measure: &str) -> (f64, f64, f64) {
    let m = &seat["time"][measure];
    let f = |k: &str| {
        m[k].as_f64()
            .unwrap_or_else(|| panic!("no {measure}.{k}: {seat}"))
    };
    let (median, p99, max) = (f("median_us"), f("p99_us"), f("max_us"));
    assert!(median <= p99 && p99 <= max, "{measure}: {seat}");
    (median, p99, max)
}

#[test]
fn every_seat_of_a_match_has_its_time_a_turn() {
    let r = Arena::play("tower-defense")
        .bots(&["strong", "random"])
        .args(&["--seed", "3", "--max-turns", "50"])
        .report();
    for seat in r["seats"].as_array().unwrap() {
        assert_eq!(seat["time"]["wall"]["turns"], 50, "{seat}");
        assert_eq!(seat["time"]["cpu"]["turns"], 50, "{seat}");
        assert_eq!(seat["time"]["cpu_of"], "thread", "{seat}");
        ordered(seat, "wall");
        ordered(seat, "cpu");
    }
    let said = text(
        &Arena::play("tower-defense")
            .bots(&["strong", "random"])
            .args(&["--seed", "3", "--max-turns", "50"])
            .ok(),
    );
    assert_eq!(said.matches("time a turn: wall ").count(), 2, "{said}");
    assert!(said.contains("cpu (thread) "), "{said}");
}

#[test]
fn a_program_that_works_20_ms_a_turn_shows_it_in_cpu_time() {
    let r = Arena::play("tower-defense")
        .bots(&[BUSY, "random"])
        .args(&["--seed", "3", "--max-turns", "8", "--no-timeout"])
        .report();
    let seat = &r["seats"][0];
    assert_eq!(seat["faults"].as_array().unwrap().len(), 0, "{seat}");
    assert_eq!(seat["time"]["cpu_of"], "process", "{seat}");
    assert_eq!(seat["time"]["wall"]["turns"], 8, "{seat}");
    assert_eq!(seat["time"]["cpu"]["turns"], 8, "{seat}");
    let (cpu, _, _) = ordered(seat, "cpu");
    let (wall, _, _) = ordered(seat, "wall");
    // Its own work: at least 20 ms of CPU time every turn, so at least that on the wall.
    assert!(cpu >= 19_000.0, "{seat}");
    assert!(wall >= 19_000.0, "{seat}");
    // The built-in bot beside it did not get the program's time.
    let (other, _, _) = ordered(&r["seats"][1], "cpu");
    assert!(other < cpu, "{r}");
}

#[test]
fn a_tournament_reports_each_bots_time_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (json, html) = (dir.path().join("r.json"), dir.path().join("r.html"));
    let out = Arena::tournament("tower-defense")
        .bots(&["strong", "random"])
        .args(&["--seed", "4", "--quiet"])
        .file("--results-json", &json)
        .file("--report", &html)
        .ok();
    let r = read_json(&json);
    let totals = r["time_a_turn"].as_array().unwrap();
    assert_eq!(totals.len(), 2);
    for (i, t) in totals.iter().enumerate() {
        assert_eq!(t["bot"], r["names"][i], "{t}");
        let turns: u64 = r["results"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| {
                let seats = m["seats"].as_array().unwrap().clone();
                let times = m["times"].as_array().unwrap().clone();
                seats.into_iter().zip(times)
            })
            .filter(|(b, _)| b.as_u64() == Some(i as u64))
            .map(|(_, t)| t["wall"]["turns"].as_u64().unwrap())
            .sum();
        assert!(turns > 0, "{t}");
        assert_eq!(t["wall"]["turns"].as_u64(), Some(turns), "{t}");
        ordered(&serde_json::json!({ "time": t }), "wall");
        ordered(&serde_json::json!({ "time": t }), "cpu");
    }
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("time a turn"), "{table}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<table id=\"times\">"), "{page}");
    assert_eq!(page.matches("<td>thread</td>").count(), 2, "{page}");
}
