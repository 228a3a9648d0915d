//! The user's crate, templates/rust-bot, in `cargo xtask test`: its firmware built for every board
//! beside the board's own (in the board's target: the same profile and flags, so it reuses the
//! board's compiled dependencies), and its bots played on the first board whose firmware takes a
//! command line (`boards::with_command_line`) with every digest equal to its desktop binary's (the
//! firmware's match loop run in-process on the host).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{ensure, Context, Result};

use crate::rotation::Listed;

use crate::{log, root, tools};

/// The template, from the project's root.
pub const DIR: &str = "templates/rust-bot";
/// Its firmware binary in each board folder.
const BIN: &str = "mybot";
/// Matches played on the board: the template's lineup once (four entries).
const MATCHES: u32 = 4;

/// Builds the template's firmware for `board` (a folder of boards/ and of the template's boards/)
/// into the project's board target; returns the ELF.
pub fn build_board(board: &str, target: &str) -> Result<PathBuf> {
    build_board_in(&root().join(DIR), board, target)
}

/// [`build_board`] of a user's crate in `dir` (the template or a copy of it): its board folder's
/// binary (the first `[[bin]]` name of its Cargo.toml, `mybot` in the template).
pub fn build_board_in(dir: &Path, board: &str, target: &str) -> Result<PathBuf> {
    let target_dir = root().join("boards").join(board).join("target");
    let folder = dir.join("boards").join(board);
    let bin = bin_name(&folder.join("Cargo.toml")).unwrap_or_else(|| BIN.to_owned());
    eprintln!("xtask: building {}", folder.display());
    tools::status(
        Command::new("cargo")
            .args(["build", "--release", "--bin", &bin])
            .current_dir(&folder)
            .env("CARGO_TARGET_DIR", &target_dir)
            .env_remove("RUSTFLAGS"),
    )?;
    Ok(target_dir.join(target).join("release").join(bin))
}

/// The first `name = "..."` after `[[bin]]` in the manifest `path` (or, with `[package]`, the
/// package's name).
fn manifest_name(path: &Path, table: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let after = text.split(table).nth(1)?;
    after
        .lines()
        .take_while(|l| !l.trim_start().starts_with("[[") || l.trim() == table)
        .find_map(|l| {
            let (key, value) = l.split_once('=')?;
            (key.trim() == "name").then(|| value.trim().trim_matches('"').to_owned())
        })
}

fn bin_name(manifest: &Path) -> Option<String> {
    manifest_name(manifest, "[[bin]]")
}

/// The crate name of the user's crate in `dir` (its package's name, `-` as `_`): the path its
/// bots' symbols start with.
pub fn crate_name(dir: &Path) -> Result<String> {
    let manifest = dir.join("Cargo.toml");
    manifest_name(&manifest, "[package]")
        .map(|n| n.replace('-', "_"))
        .with_context(|| format!("no package name in {}", manifest.display()))
}

/// The entries of the user's lineup, from its desktop binary's `start` lines (the lineup once),
/// each seat a user's bot or a built-in as its `lineup` lines say (`entry m= users=[true,
/// false]`).
pub fn user_entries(dir: &Path) -> Result<Vec<Listed>> {
    let lines = desktop_in(dir, &["digest=0".to_owned()])?;
    let listed = desktop_in(dir, &["lineup".to_owned()])?;
    let users: BTreeMap<u32, Vec<bool>> = listed
        .iter()
        .filter(|l| log::kind(l) == "entry")
        .filter_map(|l| {
            let seats = log::field(l, "users")
                .trim_matches(|c| c == '[' || c == ']')
                .split(", ")
                .map(|u| u == "true")
                .collect();
            Some((log::num::<u32>(l, "m")?, seats))
        })
        .collect();
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let entries: Vec<Listed> = lines
        .iter()
        .filter(|l| log::kind(l) == "start")
        .filter_map(|l| {
            let index = log::num::<u32>(l, "m")?;
            let game = leak(log::value(l, "game")?.to_owned());
            let bots: Vec<&'static str> = log::bots_of(l)
                .split(" vs ")
                .map(|b| leak(b.to_owned()))
                .collect();
            Some(Listed {
                index,
                game,
                config: leak(log::value(l, "config")?.to_owned()),
                bots: Box::leak(bots.into_boxed_slice()),
                users: users.get(&index).cloned().unwrap_or_default(),
            })
        })
        .collect();
    ensure!(
        !entries.is_empty(),
        "the desktop binary of {} started no match",
        dir.display()
    );
    Ok(entries)
}

/// Builds the template's desktop binaries, the in-process one and the process one, in one cargo
/// run (their compiles run side by side); returns the template's folder.
fn build_desktop() -> Result<PathBuf> {
    let dir = root().join(DIR);
    tools::status(
        Command::new("cargo")
            .args(["build", "--release", "--bin", "desktop", "--bin", "process"])
            .current_dir(&dir)
            .env_remove("RUSTFLAGS"),
    )?;
    Ok(dir)
}

/// The desktop binary's log of `args` (`matches=N digest=N`), built first with the process
/// binary (the template's own target).
fn desktop(args: &[String]) -> Result<Vec<String>> {
    desktop_in(&build_desktop()?, args)
}

/// [`desktop`] of the user's crate in `dir`.
pub fn desktop_in(dir: &Path, args: &[String]) -> Result<Vec<String>> {
    let dir = dir.to_path_buf();
    tools::status(
        Command::new("cargo")
            .args(["build", "--release", "--bin", "desktop"])
            .current_dir(&dir)
            .env_remove("RUSTFLAGS"),
    )?;
    let out = Command::new(dir.join("target/release/desktop"))
        .args(args)
        .output()
        .context("cannot start the template's desktop binary")?;
    ensure!(
        out.status.success(),
        "the template's desktop binary failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// `firmware-test`'s part for the user's crate, each a step of `clock`: [`board_check`], then
/// [`tournaments`].
pub fn steps(clock: &mut crate::steps::Clock) -> Result<()> {
    let (board, _) = crate::boards::with_command_line()?;
    // A step's name lives as long as the clock's report: made once a run.
    let step: &'static str = Box::leak(format!("template on {}", board.called()).into_boxed_str());
    clock.step(step, board_check)?;
    clock.step("template's process, sandboxed", tournaments)
}

/// `cargo xtask firmware-test --board template`: [`board_check`], then [`tournaments`].
pub fn firmware_test() -> Result<()> {
    board_check().and_then(|()| tournaments())
}

/// Builds the template's firmware for the first board that takes a command line
/// (`boards::with_command_line`) and plays its lineup there: every digest (one a turn) and
/// each match's game and configuration as the desktop binary's; each match's stack high-water
/// within the stack and its cost row logged, with a row for every seat (its bot's cost a turn,
/// stack and flash bytes: a user's bot's from the crate's symbols).
pub fn board_check() -> Result<()> {
    let (board, command_line) = crate::boards::with_command_line()?;
    let on = board.called();
    let elf = build_board(board.name(), board.target())?;
    let args = vec![format!("matches={MATCHES}"), "digest=1".to_owned()];
    let mut board_args = args.clone();
    board_args.push("seats=1".to_owned());
    // Instructions counted: the seats' costs are instructions.
    let (status, lines) = command_line(&elf, board_args, 300)?;
    ensure!(
        status == 0,
        "the template's {on} firmware exited with {status}"
    );
    let host = desktop(&args)?;
    let started: Vec<(u32, String, String, ())> = host
        .iter()
        .filter(|l| log::kind(l) == "start")
        .filter_map(|l| {
            Some((
                log::num(l, "m")?,
                log::value(l, "game")?.to_owned(),
                log::value(l, "config")?.to_owned(),
                (),
            ))
        })
        .collect();
    ensure!(
        started.len() == MATCHES as usize,
        "the desktop binary started {} matches, not {MATCHES}",
        started.len()
    );
    let said = log::same_matches(
        &lines,
        &format!("{on} board"),
        &log::triples(&host, "digest"),
        &log::triples(&host, "final"),
        &started,
    )?;
    println!("xtask test: {DIR} on {on} and its desktop binary: {said} identical");
    seat_rows(&lines, &elf, on)?;
    for m in 0..MATCHES {
        let line = |kind: &str| {
            lines
                .iter()
                .find(|l| log::kind(l) == kind && log::num::<u32>(l, "m") == Some(m))
        };
        let stack = line("stack")
            .and_then(|l| Some((log::num::<u32>(l, "used")?, log::num::<u32>(l, "of")?)));
        let Some((used, of)) = stack else {
            anyhow::bail!("no stack line for the template's match {m} on {on}");
        };
        ensure!(
            used < of,
            "the template's match {m} used {used} of {of} bytes of stack"
        );
        ensure!(
            line("cost")
                .and_then(|l| log::num::<u32>(l, "bots_median"))
                .is_some(),
            "no cost line with the bots' median for the template's match {m} on {on}"
        );
    }
    Ok(())
}

/// Each match of the template's run on board `on` (`lines`, with `seats=1`) has a row for every
/// seat: its turns, its bot's stack and flash bytes (the firmware `elf`'s symbols: a user's bot's
/// are the crate's), one of them this crate's bot.
fn seat_rows(lines: &[String], elf: &Path, on: &str) -> Result<()> {
    let dir = root().join(DIR);
    let entries = user_entries(&dir)?;
    let krate = crate_name(&dir)?;
    for m in 0..MATCHES {
        let users = entries
            .iter()
            .find(|e| e.index == m)
            .map(|e| e.users.clone())
            .unwrap_or_default();
        ensure!(
            users.contains(&true),
            "the desktop binary's lineup names no bot of {krate} in match {m}"
        );
        let mut rows = log::cost_rows_of(lines, std::iter::once(m), "instructions", false);
        crate::cost_pick::add_flash(&mut rows, elf, &users, &krate)?;
        let seats = rows
            .first()
            .and_then(|r| r["seats"].as_array())
            .cloned()
            .unwrap_or_default();
        ensure!(
            seats.len() >= 2,
            "the template's match {m} on {on} logged {} seats' rows",
            seats.len()
        );
        for seat in &seats {
            let n = |k: &str| seat[k].as_u64().unwrap_or(0);
            ensure!(
                n("turns") > 0 && n("stack_bytes") > 0 && n("flash_bytes") > 0,
                "the template's match {m} on {on}: a seat's row without turns, stack or flash: {seat}"
            );
        }
        ensure!(
            seats.iter().any(|s| s["flash_of"] == krate.as_str()),
            "the template's match {m}: no seat's flash is {krate}'s"
        );
        println!(
            "xtask test: {DIR} match {m} on {on}, per seat: {}",
            seats
                .iter()
                .map(|s| format!(
                    "{} {} instructions a turn (median), stack {} B, flash {} B",
                    s["bot"].as_str().unwrap_or("?"),
                    s["instructions_per_turn"]["median"],
                    s["stack_bytes"],
                    s["flash_bytes"]
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    Ok(())
}

/// A sandboxed tournament of the template's process binary.
struct Tournament {
    /// The game, as `arena tournament` names it.
    game: String,
    /// The built-in entrants (the process is entrant 0).
    builtins: Vec<String>,
    /// More arguments of `arena tournament`.
    extra: Vec<String>,
}

/// The sandboxed tournaments the template lists in its `tournaments.txt`: for each game, its
/// built-in entrants beside the template's process binary (entrant 0), and more arguments of
/// `arena tournament`.
fn tournament_plan() -> Result<Vec<Tournament>> {
    let file = root().join(DIR).join("tournaments.txt");
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let golden = crate::fuzz::golden().to_string_lossy().into_owned();
    let mut plan = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, tail) = line.split_once(" -- ").unwrap_or((line, ""));
        let mut words = head.split_whitespace().map(str::to_owned);
        let game = words.next().context("an empty line in tournaments.txt")?;
        let builtins: Vec<String> = words.collect();
        ensure!(
            !builtins.is_empty(),
            "{file:?}: {game} has no built-in entrant"
        );
        let extra = (tail.split_whitespace())
            .map(|w| w.replace("{golden}", &golden))
            .collect();
        plan.push(Tournament {
            game,
            builtins,
            extra,
        });
    }
    ensure!(!plan.is_empty(), "{} lists no tournament", file.display());
    Ok(plan)
}

/// `process GAME local`'s result line as (turns, ranks, scores, reason).
fn local_result(line: &str) -> Option<(u64, Vec<i64>, Vec<i64>, String)> {
    let (head, reason) = line.strip_prefix("result ")?.split_once(" reason=")?;
    let field = |key: &str| {
        head.split_whitespace()
            .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
    };
    let list = |v: &str| {
        v.split(',')
            .map(str::parse)
            .collect::<Result<Vec<i64>, _>>()
            .ok()
    };
    Some((
        field("turns")?.parse().ok()?,
        list(field("ranks")?)?,
        list(field("scores")?)?,
        reason.to_owned(),
    ))
}

/// A results file's integers at `key` of match `m`.
fn ints(m: &serde_json::Value, key: &str) -> Option<Vec<i64>> {
    m.get(key)?
        .as_array()?
        .iter()
        .map(serde_json::Value::as_i64)
        .collect()
}

/// The template's process binary (its bot for each game as a `cmd:` seat, through arena-adapter)
/// in `arena tournament GAME --sandbox` against built-in bots, for each game its
/// `tournaments.txt` lists;
/// each match then played in-process by `process GAME local` with the match's seed: the turns,
/// ranks, scores and reason of every match must be equal, and the process seat must have no time-out
/// and no crash. The tournaments' tables are printed, with the time each took. Needs the `arena`
/// binary `cargo test` builds (target/debug/arena).
pub fn tournaments() -> Result<()> {
    let arena = root().join("target/debug/arena");
    ensure!(
        arena.exists(),
        "no {}: run `cargo test` or `cargo build -p arena-host` first",
        arena.display()
    );
    let process = build_desktop()?.join("target/release/process");
    let work = root().join("target/xtask-template");
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    for t in tournament_plan()? {
        let (game, builtins, extra) = (t.game.as_str(), &t.builtins, &t.extra);
        let results = work.join(format!("{game}.json"));
        let mut cmd = Command::new(&arena);
        cmd.args(["tournament", game, "--sandbox", "--seed", "1", "--quiet"])
            // Time limits far above the bots' (the check is the results, on a busy machine).
            .args(["--turn-ms", "2000", "--results-json"])
            .arg(&results)
            .arg("--bot")
            .arg(format!("cmd:{} {game}", process.display()));
        for b in builtins {
            cmd.args(["--bot", b]);
        }
        cmd.args(extra);
        let start = std::time::Instant::now();
        let out = cmd.output().context("cannot run arena tournament")?;
        let took = start.elapsed();
        ensure!(
            out.status.success(),
            "arena tournament {game} --sandbox failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        println!("{}", String::from_utf8_lossy(&out.stdout).trim_end());
        let text = std::fs::read(&results)
            .with_context(|| format!("cannot read {}", results.display()))?;
        let json: serde_json::Value = serde_json::from_slice(&text)?;
        let matches = json
            .get("results")
            .and_then(serde_json::Value::as_array)
            .context("a results file without results")?;
        ensure!(!matches.is_empty(), "the {game} tournament played no match");
        for m in matches {
            same_in_process(&process, &t, m)?;
        }
        println!(
            "xtask test: {DIR}'s process in `arena tournament {game} --sandbox`: {} matches in {:.1} s, each result equal to the same match in-process",
            matches.len(),
            took.as_secs_f64()
        );
    }
    Ok(())
}

/// Match `m` of tournament `t` played in-process by `process GAME local` with its seed and seats:
/// the same turns, ranks, scores and reason, and no time-out or crash of the process seat.
fn same_in_process(process: &std::path::Path, t: &Tournament, m: &serde_json::Value) -> Result<()> {
    let (game, builtins, extra) = (t.game.as_str(), &t.builtins, &t.extra);
    let seed = m.get("seed").and_then(serde_json::Value::as_u64);
    let seats = ints(m, "seats");
    let (Some(seed), Some(seats)) = (seed, seats) else {
        anyhow::bail!("a {game} result without its seed or seats: {m}");
    };
    let mut local = Command::new(process);
    local.args([game, "local", &seed.to_string()]);
    for (seat, &entrant) in seats.iter().enumerate() {
        if entrant == 0 {
            let faults = &m["faults"][seat];
            ensure!(
                faults["timeouts"] == 0 && faults["crashes"] == 0,
                "{game} seed {seed}: the process seat {seat} had faults: {faults}"
            );
            local.arg("own");
        } else {
            let name = usize::try_from(entrant - 1)
                .ok()
                .and_then(|i| builtins.get(i));
            local.arg(name.context("a seat of no entrant")?);
        }
    }
    // `process GAME local` takes the map and turns as map=FILE turns=N.
    for pair in extra.chunks(2) {
        if let [flag, value] = pair {
            if let Some(key @ ("map" | "turns")) = flag.strip_prefix("--") {
                local.arg(format!("{key}={value}"));
            }
        }
    }
    let out = local
        .output()
        .context("cannot run the process binary's local match")?;
    let line = String::from_utf8_lossy(&out.stdout);
    let got = local_result(line.trim()).with_context(|| {
        format!(
            "{game} seed {seed}: no result from the local match: {line} {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let want = (
        m.get("turns").and_then(serde_json::Value::as_u64),
        ints(m, "rank"),
        ints(m, "score"),
        m.get("reason").and_then(serde_json::Value::as_str),
    );
    ensure!(
        (
            Some(got.0),
            Some(&got.1),
            Some(&got.2),
            Some(got.3.as_str())
        ) == (want.0, want.1.as_ref(), want.2.as_ref(), want.3),
        "{game} seed {seed}: the process played {want:?}, the same bot in-process {got:?}"
    );
    Ok(())
}
