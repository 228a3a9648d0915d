//! `cargo xtask cost` (the QEMU board, the default): what a turn costs on the Cortex-M3, in
//! instructions.
//!
//! QEMU runs with `-icount shift=0`, so SysTick counts instructions and the figures are identical run
//! to run. One match per lineup entry; for each: instructions per turn of the rules' `step`
//! (min/median/max; the budget applies to its median) and of the bots' decisions, the stack
//! high-water mark (stack painting, the whole firmware's peak during the match) and the state size.
//! It fails when a median is over [`BUDGET`] or a stack high-water mark over its state's size plus
//! [`STACK_OVER_STATE`].

use anyhow::{ensure, Result};
use arena_firmware::Lineup;
use serde_json::json;

use crate::cost::{check_stack, STACK_OVER_STATE};
use crate::{host, log, root};

/// The file in target/ the rotation's report is written to.
pub const REPORT: &str = "cost.json";

/// The budget: median instructions per turn of the rules (`step`).
pub const BUDGET: u64 = 50_000;

/// One row of the text table.
fn table_line(r: &serde_json::Value) -> String {
    let i = &r["instructions_per_turn"];
    let b = &r["bots_instructions_per_turn"];
    format!(
        "{:<14} {:<15} {:>6} {:>8} {:>8} {:>8} {:>9} {:>9} {:>7} {:>6}  {}",
        r["game"].as_str().unwrap_or("?"),
        r["config"].as_str().unwrap_or("?"),
        r["turns"].to_string(),
        i["min"].to_string(),
        i["median"].to_string(),
        i["max"].to_string(),
        b["median"].to_string(),
        b["max"].to_string(),
        r["stack_bytes"].to_string(),
        r["state_bytes"].to_string(),
        r["bots"].as_str().unwrap_or("?")
    )
}

/// The firmware `elf` with `args` under `-icount shift=0` (SysTick counts instructions), stopped
/// after `timeout_s`: its exit status and decoded log.
pub fn command_line(
    elf: &std::path::Path,
    args: Vec<String>,
    timeout_s: u32,
) -> Result<(i32, Vec<String>)> {
    let ran = super::Run {
        icount: true,
        ..super::Run::new(elf, args, timeout_s)
    }
    .go()?;
    Ok((ran.status, ran.lines))
}

/// Match `first` alone on the firmware `elf` (`first=K matches=1 seats=1`), its cost row (with
/// the final digest it logged).
pub fn alone(elf: &std::path::Path, first: u32) -> Result<Vec<serde_json::Value>> {
    let args = vec![
        format!("first={first}"),
        "matches=1".into(),
        "digest=0".into(),
        "seats=1".into(),
        format!("frames={}", crate::rotation::FRAMES_EVERY),
    ];
    let (status, lines) = command_line(elf, args, 600)?;
    ensure!(status == 0, "QEMU firmware exited with {status}");
    Ok(crate::rotation::rows_with_finals(
        &lines,
        first,
        "instructions",
        false,
    ))
}

pub fn run(json_only: bool) -> Result<serde_json::Value> {
    crate::boards::Board::setup(&super::Qemu)?;
    let elf = super::build()?.join("arena");
    let matches = host::Lineup::LEN as u32;
    let args = vec![format!("matches={matches}"), "digest=0".into()];
    let ran = super::Run {
        icount: true,
        ..super::Run::new(&elf, args, 600)
    }
    .go()?;
    ensure!(ran.status == 0, "QEMU firmware exited with {}", ran.status);
    let rows = log::cost_rows(&ran.lines, matches, "instructions", false);
    let report = json!({ "board": "qemu-lm3s6965", "unit": "instructions (-icount shift=0)", "budget_median": BUDGET, "stack_budget_over_state": STACK_OVER_STATE, "matches": rows });
    let out = root().join("target").join(REPORT);
    std::fs::create_dir_all(root().join("target"))?;
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    if json_only {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{:<14} {:<15} {:>6} {:>8} {:>8} {:>8} {:>9} {:>9} {:>7} {:>6}  bots",
            "game",
            "config",
            "turns",
            "min",
            "median",
            "max",
            "bots med",
            "bots max",
            "stack",
            "state"
        );
        for r in &rows {
            println!("{}", table_line(r));
        }
        println!(
            "(instructions per turn under -icount shift=0: min/median/max of the rules' step, then \
             the bots' decisions; stack high-water mark and state in bytes, the stack's budget \
             the state + {STACK_OVER_STATE}; JSON in {})",
            out.display()
        );
    }
    for r in &rows {
        let median = r["instructions_per_turn"]["median"]
            .as_u64()
            .unwrap_or(u64::MAX);
        ensure!(
            median <= BUDGET,
            "{} {}: median {median} instructions per turn is over the budget of {BUDGET}",
            r["game"],
            r["config"]
        );
        ensure!(r["turns"].as_u64().unwrap_or(0) > 0, "no cost line for {r}");
    }
    check_stack(&rows, "the QEMU board")?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    /// Two entries of one game and config with other bots were two identical rows.
    #[test]
    fn rows_name_the_bots() {
        let row = |bots: &str| {
            let start = format!("INFO  start m=0 game=g config=duel seed=7 state=900 bots={bots}");
            super::table_line(&serde_json::json!({
                "game": "g", "config": "duel",
                "bots": crate::log::bots_of(&start),
            }))
        };
        let (a, b) = (
            row(r#"["strong", "random"]"#),
            row(r#"["army", "builder"]"#),
        );
        assert!(a.ends_with("strong vs random"), "{a}");
        assert!(b.ends_with("army vs builder"), "{b}");
    }
}
