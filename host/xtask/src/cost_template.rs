//! `cargo xtask cost --template DIR --game G [--bot B] [--vs X] [--board ...|all]`: the cost
//! table of a user's crate (templates/rust-bot, or a copy of it), from its own board binaries.
//!
//! The lineup is the user's (`MyLineup`, which xtask does not link): its entries are read from the
//! crate's desktop binary (one `start` line a match, the lineup once). Each picked entry `K` plays
//! alone on each chip, as in `cost --game` over the project's lineups: on QEMU with `first=K
//! matches=1 seats=1`, on the emulated Pico and F411 from a copy of the user's ELF with its
//! `ARENA_RUN` words written over; its final digest must equal the desktop binary's for match `K`.
//! A seat's flash is its bot's code: the user's crate's symbols for a user's bot, the game's bots
//! module for a built-in (every built-in bot of the game together).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{ensure, Context, Result};
use serde_json::{json, Value};

use crate::cost_pick::{add_flash, pick_from, print_rows, Chip, Listed, Pick};
use crate::{log, template};

/// The entries of the user's lineup, from its desktop binary's `start` lines (the lineup once),
/// each seat a user's bot or a built-in as its `lineup` lines say (`entry m= users=[true,
/// false]`).
pub fn user_entries(dir: &Path) -> Result<Vec<Listed>> {
    let lines = template::desktop_in(dir, &["digest=0".to_owned()])?;
    let listed = template::desktop_in(dir, &["lineup".to_owned()])?;
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

/// `cargo xtask cost --template DIR ...`.
pub fn run(dir: &Path, pick: &Pick, chips: &[&Chip], json_only: bool) -> Result<()> {
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cost --template {}", dir.display()))?;
    let krate = template::crate_name(&dir)?;
    let picked = pick_from(user_entries(&dir)?, pick, &dir.display().to_string())?;
    let mut report = Vec::new();
    for chip in chips {
        let started = std::time::Instant::now();
        let mut rows = Vec::new();
        match chip.board {
            "qemu-lm3s6965" => {
                crate::setup::board()?;
                let elf = template::build_board_in(&dir, chip.board, "thumbv7m-none-eabi")?;
                for e in &picked {
                    let mut got = crate::cost_pick::qemu_entry(&elf, e.index)?;
                    same_final(&dir, &mut got, e.index, chip.board)?;
                    add_flash(&mut got, &elf, &e.users, &krate)?;
                    rows.extend(got);
                }
            }
            "rp-pico" => {
                crate::setup::all()?;
                let elf = template::build_board_in(&dir, chip.board, crate::pico::TARGET)?;
                for e in &picked {
                    let own = crate::pico::Options::default();
                    let mut got =
                        crate::cost_pick::emulated_entry(&elf, e.index, 1500, own, "cycles")?;
                    same_final(&dir, &mut got, e.index, chip.board)?;
                    add_flash(&mut got, &elf, &e.users, &krate)?;
                    rows.extend(got);
                }
            }
            _ => {
                crate::setup::stm32_board()?;
                let elf = template::build_board_in(&dir, chip.board, crate::stm32::TARGET)?;
                for e in &picked {
                    let own = crate::stm32::Options {
                        count: true,
                        ..crate::stm32::Options::default()
                    };
                    let mut got =
                        crate::cost_pick::emulated_entry(&elf, e.index, 3000, own, "instructions")?;
                    same_final(&dir, &mut got, e.index, chip.board)?;
                    add_flash(&mut got, &elf, &e.users, &krate)?;
                    rows.extend(got);
                }
            }
        }
        crate::cost::check_stack(&rows, chip.board)?;
        if !json_only {
            print_rows(chip, &rows, started.elapsed());
        }
        report.push(json!({ "board": chip.board, "core": chip.core, "mhz": chip.mhz, "unit": chip.unit, "matches": rows }));
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
