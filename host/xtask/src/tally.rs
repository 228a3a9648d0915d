//! `cargo test --workspace`, shown as it runs, with the tests counted for one closing line.

use crate::root;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// What `cargo test` builds and runs: every test of the workspace, and no more. The workspace has
/// no doc tests and its one example (benches/examples) has no test: clippy (`--all-targets`) has
/// already checked both, and building them (with criterion for the example) was CI time for
/// nothing.
const TEST: [&str; 5] = ["test", "--workspace", "--lib", "--bins", "--tests"];

/// Runs every test of the workspace; returns (passed, failed) summed over all test binaries.
pub fn cargo_test() -> Result<(u64, u64)> {
    eprintln!("$ cargo {}", TEST.join(" "));
    let mut child = Command::new("cargo")
        .args(TEST)
        .current_dir(root())
        .stdout(Stdio::piped())
        .spawn()
        .context("cannot run cargo test")?;
    let (mut passed, mut failed) = (0, 0);
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line.context("reading cargo test's output")?;
            println!("{line}");
            if let Some((p, f)) = counts(&line) {
                passed += p;
                failed += f;
            }
        }
    }
    let status = child.wait()?;
    if !status.success() {
        bail!(
            "`cargo {}` failed ({status}): {passed} passed, {failed} failed",
            TEST.join(" ")
        );
    }
    Ok((passed, failed))
}

/// The counts of a libtest summary: `test result: ok. 12 passed; 0 failed; 0 ignored; ...`.
fn counts(line: &str) -> Option<(u64, u64)> {
    let rest = line.trim().strip_prefix("test result: ")?;
    let number = |word: &str| {
        rest.split(';')
            .find(|part| part.trim_end().ends_with(word))
            .and_then(|part| part.split_whitespace().rev().nth(1))
            .and_then(|n| n.parse::<u64>().ok())
    };
    Some((number("passed")?, number("failed")?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_libtest_summaries() {
        let line = "test result: ok. 12 passed; 3 failed; 1 ignored; 0 measured; 0 filtered out";
        assert_eq!(super::counts(line), Some((12, 3)));
        assert_eq!(super::counts("running 4 tests"), None);
    }
}
