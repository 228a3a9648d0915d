//! `cargo xtask cost --template DIR --game G [--bot B] [--vs X] [--board ...|all]`: the cost
//! table of a user's crate (templates/rust-bot, or a copy of it), from its own board binaries.
//!
//! The lineup is the user's (`MyLineup`, which xtask does not link): its entries are read from the
//! crate's desktop binary (one `start` line a match, the lineup once). Each picked entry `K` plays
//! alone on each board (`Board::alone`), as in `cost --game` over the project's lineups: with
//! `first=K matches=1 seats=1` on a board that takes a command line, from a copy of the user's ELF
//! with its `ARENA_RUN` words written over on one that takes none; its final digest must equal the
//! desktop binary's for match `K`.
//! A seat's flash is its bot's code: the user's crate's symbols for a user's bot, the game's bots
//! module for a built-in (every built-in bot of the game together).

use std::path::Path;

use anyhow::{ensure, Context, Result};
use serde_json::{json, Value};

use crate::boards::Board;
use crate::cost_pick::{add_flash, pick_from, print_rows, table, Pick};
use crate::{log, template};

/// Fails unless each row's final digest is the desktop binary's for match `m` played alone.
fn same_final(dir: &Path, rows: &mut [Value], m: u32, board: &str) -> Result<()> {
    let lines = template::desktop_in(
        dir,
        &[
            format!("first={m}"),
            "matches=1".to_owned(),
            "digest=0".to_owned(),
        ],
    )?;
    let want = log::triples(&lines, "final")
        .first()
        .map(|f| f.2.to_string());
    for r in rows.iter_mut() {
        let got = r["final_digest"].as_str().map(str::to_owned);
        ensure!(
            got.is_some() && got == want,
            "match {m} on the {board}: final digest {got:?}, the desktop binary's {want:?}"
        );
        r["host_digest_equal"] = json!(true);
    }
    Ok(())
}

/// `cargo xtask cost --template DIR --game G ...` (the arguments as typed).
pub fn run_args(args: &[String]) -> Result<()> {
    let (pick, chips, json_only) = crate::cost_pick::parse(args)?;
    let Some(dir) = args
        .iter()
        .position(|a| a == "--template")
        .and_then(|i| args.get(i + 1))
    else {
        anyhow::bail!("cost --template DIR: the user's crate (templates/rust-bot or a copy of it)");
    };
    run(Path::new(dir), &pick, &chips, json_only)
}

/// `cargo xtask cost --template DIR ...`.
pub fn run(dir: &Path, pick: &Pick, chips: &[&dyn Board], json_only: bool) -> Result<()> {
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cost --template {}", dir.display()))?;
    let krate = template::crate_name(&dir)?;
    let picked = pick_from(
        template::user_entries(&dir)?,
        pick,
        &dir.display().to_string(),
    )?;
    let mut report = Vec::new();
    for chip in chips {
        let started = std::time::Instant::now();
        chip.setup()?;
        let elf = template::build_board_in(&dir, chip.name(), chip.target())?;
        let mut rows = Vec::new();
        for e in &picked {
            let mut got = chip.alone(&elf, e.index)?;
            same_final(&dir, &mut got, e.index, chip.name())?;
            add_flash(&mut got, &elf, &e.users, &krate)?;
            rows.extend(got);
        }
        crate::cost::check_stack(&rows, chip.name())?;
        if !json_only {
            print_rows(*chip, &rows, started.elapsed());
        }
        report.push(table(*chip, rows));
    }
    let report = json!({ "crate": krate, "dir": dir.display().to_string(), "game": pick.game, "bot": pick.bot, "vs": pick.vs, "boards": report });
    let out = crate::root().join("target/cost-template.json");
    std::fs::create_dir_all(crate::root().join("target"))?;
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    if json_only {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("(JSON in {})", out.display());
    }
    Ok(())
}
