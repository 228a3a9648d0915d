//! The stack budget every board's cost table is held to (each board's table is in its folder under
//! `boards/`; the reports a board's table stands beside, the baseline board's and the others',
//! are the registry's: `boards::baseline`, `boards::measured`).

use anyhow::{ensure, Result};

/// The stack budget: a match's stack high-water mark at most its state's size plus this (the
/// state built in place, once; the rest for the loop, the bots, the screen and the board).
pub const STACK_OVER_STATE: u64 = 12 * 1024;

/// Fails unless every match's stack high-water mark (the `stack_bytes` of a cost row) is within
/// its state's size plus [`STACK_OVER_STATE`] on `board`: one budget for every match on every
/// board, none held to a figure of its own.
pub fn check_stack(rows: &[serde_json::Value], board: &str) -> Result<()> {
    for r in rows {
        let (stack, state) = (
            r["stack_bytes"].as_u64().unwrap_or(0),
            r["state_bytes"].as_u64().unwrap_or(0),
        );
        let (game, config) = (
            r["game"].as_str().unwrap_or("?"),
            r["config"].as_str().unwrap_or("?"),
        );
        let budget = state.saturating_add(STACK_OVER_STATE);
        ensure!(stack > 0, "{game} {config}: no stack line on {board}");
        ensure!(
            stack <= budget,
            "{game} {config}: stack high-water {stack} B on {board}, over its budget of {budget} B (state {state} B + {STACK_OVER_STATE} B)"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A match within its state + 12 KB passes; one byte over, or with no stack line, fails.
    #[test]
    fn every_match_is_held_to_its_state_plus_the_budget() {
        let row = |stack: u64| serde_json::json!({ "game": "ants", "config": "tutorial1", "stack_bytes": stack, "state_bytes": 37_480 });
        let budget = 37_480 + super::STACK_OVER_STATE;
        assert!(super::check_stack(&[row(12_000), row(budget)], "a board").is_ok());
        let over = super::check_stack(&[row(12_000), row(budget + 1)], "a board");
        assert!(over.is_err_and(|e| e.to_string().contains("over its budget of 49768 B")));
        assert!(super::check_stack(&[row(0)], "a board").is_err());
    }
}
