//! Reading the decoded defmt log: `LEVEL message`, the message made of `key=value` words.

/// Starts `defmt-print` decoding `elf`'s frames from `frames` (as a probe-rs user sees them,
/// `LEVEL message`); the process and its decoded lines.
pub fn decode(
    elf: &std::path::Path,
    frames: impl Into<std::process::Stdio>,
) -> anyhow::Result<(std::process::Child, std::process::ChildStdout)> {
    use anyhow::Context;
    let mut print = std::process::Command::new("defmt-print")
        .args(["--log-format", "{L} {s}", "-e"])
        .arg(elf)
        .stdin(frames)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("cannot start defmt-print")?;
    let decoded = print.stdout.take().context("no defmt-print stdout")?;
    Ok((print, decoded))
}

/// Reads the decoded log to its end: each line printed when `echo`, handed to `each` as it comes;
/// all of them.
pub fn read_lines(
    decoded: impl std::io::Read,
    echo: bool,
    mut each: impl FnMut(&str) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<String>> {
    use std::io::BufRead;
    let mut lines = Vec::new();
    for line in std::io::BufReader::new(decoded).lines() {
        let line = line?;
        if echo {
            println!("{line}");
        }
        each(&line)?;
        lines.push(line);
    }
    Ok(lines)
}

/// The message of a decoded line (`INFO  digest m=0 ...` gives `digest m=0 ...`).
pub fn message(line: &str) -> &str {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some(("TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR", rest)) => rest.trim_start(),
        _ => line,
    }
}

/// The event word of a message (`digest`).
pub fn kind(line: &str) -> &str {
    message(line).split_whitespace().next().unwrap_or("")
}

/// The value of `key=` in a message, up to the next space.
pub fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    message(line)
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

pub fn num<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    value(line, key).and_then(|v| v.parse().ok())
}

/// The per-match figures of a run's log: the `cost`, `start` and `stack` lines of match m, the
/// cost per turn in `unit`s (`instructions`, `cycles`), with the stack's size if `stack_size`.
pub fn cost_rows(
    lines: &[String],
    matches: u32,
    unit: &str,
    stack_size: bool,
) -> Vec<serde_json::Value> {
    cost_rows_of(lines, 0..matches, unit, stack_size)
}

/// [`cost_rows`] of the matches numbered `numbers` (a run that started at `first=N`).
pub fn cost_rows_of(
    lines: &[String],
    numbers: impl Iterator<Item = u32>,
    unit: &str,
    stack_size: bool,
) -> Vec<serde_json::Value> {
    use serde_json::json;
    let find = |kind_: &str, m: u32| {
        lines
            .iter()
            .find(|l| kind(l) == kind_ && num::<u32>(l, "m") == Some(m))
            .cloned()
            .unwrap_or_default()
    };
    numbers
        .map(|m| {
            let (start, cost, stack) = (find("start", m), find("cost", m), find("stack", m));
            let n = |l: &str, k: &str| num::<u64>(l, k).unwrap_or(0);
            let mut row = serde_json::Map::new();
            row.insert("match".into(), json!(m));
            row.insert("game".into(), json!(value(&start, "game").unwrap_or("?")));
            row.insert("config".into(), json!(value(&start, "config").unwrap_or("?")));
            row.insert("bots".into(), json!(bots_of(&start)));
            row.insert("turns".into(), json!(n(&cost, "turns")));
            for (key, prefix) in [(format!("{unit}_per_turn"), ""), (format!("bots_{unit}_per_turn"), "bots_")] {
                let figure = |k: &str| n(&cost, &format!("{prefix}{k}"));
                row.insert(
                    key,
                    json!({ "min": figure("min"), "median": figure("median"), "p99": figure("p99"), "max": figure("max") }),
                );
            }
            row.insert("stack_bytes".into(), json!(n(&stack, "used")));
            if stack_size {
                row.insert("stack_size".into(), json!(n(&stack, "of")));
            }
            row.insert("state_bytes".into(), json!(n(&start, "state")));
            row.insert("limit_us".into(), json!(n(&cost, "limit_us")));
            let seats = seat_rows(lines, m, unit);
            if !seats.is_empty() {
                row.insert("seats".into(), json!(seats));
            }
            serde_json::Value::Object(row)
        })
        .collect()
}

/// Min, median (the lower one for an even count), p99 (nearest rank) and max of `v`, as the
/// firmware's `CostStats` gives them (here over every turn); all 0 for none.
pub fn four(v: &mut [u64]) -> serde_json::Value {
    v.sort_unstable();
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    let rank = (v.len() * 99).div_ceil(100).max(1);
    serde_json::json!({
        "min": at(0),
        "median": at(v.len().saturating_sub(1) / 2),
        "p99": at(rank - 1),
        "max": v.last().copied().unwrap_or(0),
    })
}

/// Each seat's figures in match `m` from its `seat s= c= stack=` lines (a board run with
/// `seats`: one line a seat a turn, after the match's `start` line and before the next's): the
/// seat, its bot's name (from the start line's bots, cycled over the seats), the turns it decided,
/// its cost a turn in `unit`s (min / median / p99 / max over every turn) and its bot's stack
/// high-water in bytes. Empty when the run logged no seat lines.
pub fn seat_rows(lines: &[String], m: u32, unit: &str) -> Vec<serde_json::Value> {
    let Some(from) = lines
        .iter()
        .position(|l| kind(l) == "start" && num::<u32>(l, "m") == Some(m))
    else {
        return Vec::new();
    };
    let start = &lines[from];
    let names: Vec<String> = field(start, "bots")
        .trim_matches(|c| c == '[' || c == ']')
        .split(", ")
        .map(|b| b.trim_matches('"').to_owned())
        .filter(|b| !b.is_empty())
        .collect();
    let mut seats: std::collections::BTreeMap<usize, (Vec<u64>, u64)> = Default::default();
    for l in lines[from + 1..].iter().take_while(|l| kind(l) != "start") {
        if kind(l) != "seat" {
            continue;
        }
        let (Some(s), Some(c)) = (num::<usize>(l, "s"), num::<u64>(l, "c")) else {
            continue;
        };
        let e = seats.entry(s).or_default();
        e.0.push(c);
        e.1 = e.1.max(num::<u64>(l, "stack").unwrap_or(0));
    }
    seats
        .into_iter()
        .map(|(seat, (mut costs, stack))| {
            let bot = names
                .get(seat % names.len().max(1))
                .cloned()
                .unwrap_or_else(|| "?".into());
            serde_json::json!({
                "seat": seat,
                "bot": bot,
                "turns": costs.len(),
                format!("{unit}_per_turn"): four(&mut costs),
                "stack_bytes": stack,
            })
        })
        .collect()
}

/// A digest line's match, turn and digest (`m=`, `t=`, `d=`).
pub type Triple = (u32, u32, u64);

/// The [`Triple`]s of the `kind` lines (`digest`, `final`).
pub fn triples(lines: &[String], kind_: &str) -> Vec<Triple> {
    lines
        .iter()
        .filter(|l| kind(l) == kind_)
        .filter_map(|l| Some((num(l, "m")?, num(l, "t")?, num(l, "d")?)))
        .collect()
}

/// Fails unless `board`'s log (`where_`: "the board's log", in messages) has digests and they, and its final
/// digests, are the host's; how many digests and final digests it logged.
pub fn same_digests(
    lines: &[String],
    board: &str,
    where_: &str,
    digests: &[Triple],
    finals: &[Triple],
) -> anyhow::Result<(usize, usize)> {
    let got = triples(lines, "digest");
    let got_finals = triples(lines, "final");
    anyhow::ensure!(!got.is_empty(), "no digest in {where_}");
    if let Some(i) = (0..got.len().max(digests.len())).find(|&i| got.get(i) != digests.get(i)) {
        anyhow::bail!(
            "digest {i} differs: {board} {:?}, host {:?}",
            got.get(i),
            digests.get(i)
        );
    }
    anyhow::ensure!(
        got_finals == finals,
        "final digests differ: {board} {got_finals:?}, host {finals:?}"
    );
    Ok((got.len(), got_finals.len()))
}

/// Fails unless `board`'s log has the host's digests and final digests (`same_digests`) and
/// started the host's matches (`started`: `(match, game, config, _)` as the host played them);
/// the line that says so.
pub fn same_matches<T>(
    lines: &[String],
    board: &str,
    digests: &[Triple],
    finals: &[Triple],
    started: &[(u32, String, String, T)],
) -> anyhow::Result<String> {
    let (digests, finals) =
        same_digests(lines, board, &format!("the {board}'s log"), digests, finals)?;
    let played: Vec<_> = started
        .iter()
        .map(|(m, g, c, _)| (*m, g.clone(), c.clone()))
        .collect();
    let got: Vec<(u32, String, String)> = lines
        .iter()
        .filter(|l| kind(l) == "start")
        .filter_map(|l| {
            Some((
                num(l, "m")?,
                value(l, "game")?.to_owned(),
                value(l, "config")?.to_owned(),
            ))
        })
        .collect();
    anyhow::ensure!(
        got == played,
        "the {board} played {got:?}, the host {played:?}"
    );
    let names: Vec<String> = got.iter().map(|(_, g, c)| format!("{g} {c}")).collect();
    Ok(format!(
        "{} digests of {finals} matches ({})",
        digests + finals,
        names.join(", ")
    ))
}

/// The text of `msg` between `key=` and the next ` word=` (values may hold spaces: `[0, 1]`).
pub fn field<'a>(msg: &'a str, key: &str) -> &'a str {
    let Some(at) = msg.find(&format!(" {key}=")) else {
        return "";
    };
    let rest = &msg[at + key.len() + 2..];
    let end = rest
        .match_indices(' ')
        .map(|(i, _)| i)
        .find(|&i| {
            let word = &rest[i + 1..];
            word.find('=').is_some_and(|e| {
                word[..e]
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_')
                    && e > 0
            })
        })
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The bots of a match as people read them (`strong vs random`), from its `start` line: the
/// demo's lines and the cost tables name them, since one game and config can play twice.
pub fn bots_of(start: &str) -> String {
    field(start, "bots")
        .trim_matches(|c| c == '[' || c == ']')
        .replace('"', "")
        .replace(", ", " vs ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decoded_lines() {
        let l = "INFO  digest m=3 t=20 d=123";
        assert_eq!(kind(l), "digest");
        assert_eq!(num::<u32>(l, "t"), Some(20));
        assert_eq!(num::<u64>(l, "d"), Some(123));
        assert_eq!(value(l, "x"), None);
        assert_eq!(message("ERROR panic: boom"), "panic: boom");
    }

    #[test]
    fn each_seats_lines_make_its_row_in_its_match() {
        let lines: Vec<String> = [
            r#"INFO  start m=4 game=g config=duel seed=1 state=9 bots=["mine", "strong"]"#,
            "INFO  seat s=0 c=30 stack=100",
            "INFO  seat s=1 c=7 stack=40",
            "INFO  digest m=4 t=1 d=5",
            "INFO  seat s=0 c=10 stack=300",
            "INFO  seat s=1 c=9 stack=20",
            "INFO  seat s=0 c=20 stack=200",
            r#"INFO  start m=5 game=g config=duel seed=2 state=9 bots=["a", "b"]"#,
            "INFO  seat s=0 c=99999 stack=9999",
        ]
        .iter()
        .map(|l| l.to_string())
        .collect();
        let rows = seat_rows(&lines, 4, "cycles");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["bot"], "mine");
        assert_eq!(rows[0]["turns"], 3);
        assert_eq!(
            rows[0]["cycles_per_turn"],
            serde_json::json!({ "min": 10, "median": 20, "p99": 30, "max": 30 })
        );
        assert_eq!(rows[0]["stack_bytes"], 300);
        assert_eq!(
            (rows[1]["bot"].as_str(), rows[1]["stack_bytes"].as_u64()),
            (Some("strong"), Some(40))
        );
        assert!(seat_rows(&lines, 7, "cycles").is_empty());
        assert_eq!(seat_rows(&lines, 5, "cycles")[0]["turns"], 1);
    }

    #[test]
    fn four_figures_as_the_firmware_gives_them() {
        let mut v: Vec<u64> = (1..=200).rev().collect();
        assert_eq!(
            four(&mut v),
            serde_json::json!({ "min": 1, "median": 100, "p99": 198, "max": 200 })
        );
        assert_eq!(four(&mut [])["max"], 0);
    }
}
