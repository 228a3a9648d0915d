//! `arena tournament --report` and `arena merge --report`: the page's standings are the results',
//! its head-to-head matrix adds up to the matches played, its faults are the results', every
//! match links to a replay that exists, nothing is loaded from anywhere, a bot's name can not
//! inject anything, and the page does not depend on --jobs or on shards.

use crate::common::*;
use std::path::{Path, PathBuf};

const EVIL: &str = "<script>alert(1)</script>";
const EVIL_TEXT: &str = "&lt;script&gt;alert(1)&lt;/script&gt;";

/// A Tower Defense round robin with replays and a report in `dir/out/NAME.html`; the results'
/// JSON and the page.
fn tournament(dir: &Path, name: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let json = dir.join(format!("{name}.json"));
    let report = dir.join("out").join(format!("{name}.html"));
    Arena::tournament("tower-defense")
        .bots(&["strong", "random", "army"])
        .args(&["--name", "strong", "--name", EVIL, "--name", "army"])
        .args(&["--seed", "5", "--quiet"])
        .file("--replays", &dir.join("replays"))
        .file("--results-json", &json)
        .file("--report", &report)
        .args(extra)
        .ok();
    (untimed(read_json(&json)), without_times(&read(&report)))
}

/// The page without its time a turn (measured: the one part that differs from run to run),
/// which must be there.
fn without_times(page: &str) -> String {
    let start = page
        .find("<h2>Time a turn</h2>")
        .expect("a time a turn table");
    let end = start + page[start..].find("</p>\n").expect("its note") + 5;
    format!("{}{}", &page[..start], &page[end..])
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text between `from` and the next `to` after it.
fn between<'a>(s: &'a str, from: &str, to: &str) -> &'a str {
    let start = s.find(from).unwrap_or_else(|| panic!("no {from}")) + from.len();
    let end = s[start..]
        .find(to)
        .unwrap_or_else(|| panic!("no {to} after {from}"));
    &s[start..start + end]
}

/// The rows (after the header) of the table `id`, each a list of its cells' text.
fn rows(page: &str, id: &str) -> Vec<Vec<String>> {
    let table = between(page, &format!("<table id=\"{id}\""), "</table>");
    table
        .split("<tr>")
        .skip(2)
        .map(|row| {
            row.split("<t")
                .skip(1)
                .map(|cell| between(cell, ">", "</").to_string())
                .collect()
        })
        .collect()
}

/// The numbers of every `data-KEY="N"` in the text.
fn data(s: &str, key: &str) -> u64 {
    let pat = format!("data-{key}=\"");
    s.split(&pat)
        .skip(1)
        .map(|x| x[..x.find('"').unwrap()].parse::<u64>().unwrap())
        .sum()
}

/// What a name looks like in the page.
fn escaped(name: &str) -> String {
    name.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[test]
fn the_report_shows_the_results_and_links_every_replay() {
    let dir = tempfile::tempdir().unwrap();
    let (results, page) = tournament(dir.path(), "one", &["--jobs", "1"]);
    let played = results["results"].as_array().unwrap().len();
    assert_eq!(played, 6);
    // Nothing loaded from anywhere, nothing run, the name is text.
    assert!(page.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    assert!(!page.contains("://"), "an address in the page");
    assert!(
        !page.to_lowercase().contains("<script"),
        "a script in the page"
    );
    assert!(page.contains(EVIL_TEXT));

    // The standings in the results' order, with their TrueSkill ratings.
    let standings = rows(&page, "standings");
    let order: Vec<String> = standings.iter().map(|r| r[1].clone()).collect();
    let want: Vec<String> = results["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| escaped(r["bot"].as_str().unwrap()))
        .collect();
    assert_eq!(order, want);
    for row in &standings {
        let rating = results["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| escaped(r["bot"].as_str().unwrap()) == row[1])
            .unwrap();
        let mu = rating["mu"].as_f64().unwrap();
        assert_eq!(row[row.len() - 3], format!("{mu:.2}"), "{row:?}");
    }

    // Head to head: a duel is one pair, seen from both sides.
    let h2h = between(&page, "<table id=\"h2h\"", "</table>");
    assert_eq!(
        data(h2h, "w") + data(h2h, "d") + data(h2h, "l"),
        2 * played as u64
    );
    assert_eq!(data(h2h, "w"), data(h2h, "l"));

    // Faults by kind, as the results count them (the random bot's refused actions).
    let faults = rows(&page, "faults");
    assert_eq!(faults.len(), 3);
    for rating in results["ratings"].as_array().unwrap() {
        let name = escaped(rating["bot"].as_str().unwrap());
        let row = faults.iter().find(|r| r[0] == name).unwrap();
        for (i, kind) in ["timeouts", "crashes", "invalid"].iter().enumerate() {
            assert_eq!(
                row[i + 1],
                rating["faults"][kind].to_string(),
                "{name} {kind}"
            );
        }
    }
    let evil = faults.iter().find(|r| r[0] == EVIL_TEXT).unwrap();
    assert_ne!(evil[3], "0", "the random bot's invalid actions are counted");

    // Every match, linked to its replay by a path relative to the page.
    let links: Vec<PathBuf> = page
        .split("<a class=\"replay\" href=\"")
        .skip(1)
        .map(|s| dir.path().join("out").join(&s[..s.find('"').unwrap()]))
        .collect();
    assert_eq!(links.len(), played);
    for l in &links {
        assert!(l.is_file(), "{} is no file", l.display());
        assert!(l.starts_with(dir.path().join("out/../replays")));
    }
    // The plot: a solid and a dashed line per bot.
    assert_eq!(page.matches("<path class=\"mu\"").count(), 3);
    assert_eq!(page.matches("<path class=\"cons\"").count(), 3);

    // The same page for --jobs 2 (the ratings' course is computed in schedule order).
    let (_, two) = tournament(dir.path(), "two", &["--jobs", "2"]);
    assert_eq!(two, page);
}

#[test]
fn merged_shards_report_as_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (_, single) = tournament(dir.path(), "single", &[]);
    tournament(dir.path(), "a", &["--shard", "0/2"]);
    tournament(dir.path(), "b", &["--shard", "1/2"]);
    let merged = dir.path().join("out/merged.html");
    Arena::new(&[
        "merge",
        arg(&dir.path().join("a.json")),
        arg(&dir.path().join("b.json")),
    ])
    .file("--report", &merged)
    .ok();
    assert_eq!(without_times(&read(&merged)), single);
}

#[test]
fn a_report_without_replays_lists_the_matches_unlinked() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.html");
    Arena::tournament("mammut")
        .bots(&["cautious", "greedy", "random", "greedy", "cautious"])
        .args(&["--seed", "2", "--quiet"])
        .file("--report", &report)
        .ok();
    let page = read(&report);
    let matches = rows(&page, "matches");
    assert!(!matches.is_empty());
    assert!(!page.contains("<a "));
    // Five seats a match: each match is ten pairs, seen from both sides.
    let h2h = between(&page, "<table id=\"h2h\"", "</table>");
    let pairs = data(h2h, "w") + data(h2h, "d") + data(h2h, "l");
    assert_eq!(pairs, 20 * matches.len() as u64);
}
