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
            serde_json::Value::Object(row)
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

/// Fails unless `board`'s log (`where_`: "the QEMU log") has digests and they, and its final
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
}
