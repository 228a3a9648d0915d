//! `cargo xtask firmware-test` (and `test`'s boards' step): every board's checks (each board's
//! part is its `Board::checks`, in its folder under `boards/`), and the user's crate
//! (templates/rust-bot) built for every board beside the board's own firmware.

use anyhow::{bail, Result};

use crate::boards::{Checks, BOARDS};
use crate::steps::Clock;

/// Builds every board's firmware and runs every check. The boards whose checks run on an emulator
/// (one core, minutes each) are built first, the longest run first, and each starts at once on a
/// thread of its own; the others' checks run on this thread while the emulators do.
pub fn run(clock: &mut Clock) -> Result<()> {
    // Every board's set-up is checked first (nothing is half-built when something is missing).
    for board in BOARDS {
        board.setup()?;
    }
    let mut beside: Vec<_> = BOARDS
        .iter()
        .filter_map(|b| match b.checks() {
            Checks::Beside {
                build_step,
                beside_step,
                rank,
                build,
                check,
            } => Some((*b, build_step, beside_step, rank, build, check)),
            Checks::Here(_) => None,
        })
        .collect();
    beside.sort_by_key(|&(.., rank, _, _)| std::cmp::Reverse(rank));
    let mut threads = Vec::new();
    let mut failed = Ok(());
    for (board, build_step, beside_step, _, build, check) in beside {
        let built = clock.step(build_step, || {
            let release = build()?;
            crate::template::build_board(board.name(), board.target())?;
            Ok(release)
        });
        match built {
            Ok(release) => threads.push((
                board,
                beside_step,
                std::thread::spawn(move || {
                    let start = std::time::Instant::now();
                    (check(&release), start.elapsed())
                }),
            )),
            // The first failed build ends the builds; what was started is still waited for.
            Err(e) => {
                failed = Err(e);
                break;
            }
        }
    }
    // The user's crate on the board without an emulator of ours, then the others' own checks.
    let mut here = crate::template::steps(clock);
    for board in BOARDS {
        if let Checks::Here(checks) = board.checks() {
            here = here.and_then(|()| checks(clock));
        }
    }
    // Every thread is waited for, whatever failed: no emulator is left running.
    let mut outs = Vec::new();
    for (board, beside_step, thread) in threads {
        let Ok((out, took)) = thread.join() else {
            bail!("the emulated {}'s checks panicked", board.name());
        };
        clock.record(beside_step, took);
        outs.push(out);
    }
    here?;
    failed?;
    outs.into_iter().collect::<Result<()>>()?;
    println!("xtask test: all checks passed");
    Ok(())
}

/// `cargo xtask firmware-test --board B`: that board's checks alone.
pub fn one(board: &str) -> Result<()> {
    match crate::boards::named(board)?.checks() {
        Checks::Here(checks) => {
            let mut clock = Clock::default();
            let out = checks(&mut clock);
            clock.report();
            out
        }
        Checks::Beside { build, check, .. } => {
            crate::boards::named(board)?.setup()?;
            check(&build()?)
        }
    }
}
