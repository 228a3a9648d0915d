//! Who plays a seat as the match runs: a built-in bot, an external bot behind its game's protocol,
//! or nobody (dropped, or never started).

use crate::error::{Error, Result};
use crate::game::Plan;
use crate::process::{BotProcess, Fault, Line, Lines, TcpBot};
use crate::protocol::{Protocol, Speak};
use crate::seats::{BotSpec, Bound};
use arena_core::Seat;
use std::io::Write;
use std::time::Instant;

/// Who plays a seat.
pub enum Driver<G: Speak> {
    /// A bot in this process, given its seat's view: a built-in bot, or any `Bot<G>`.
    Builtin(Box<dyn arena_core::Bot<G>>),
    External(Box<dyn Protocol<G>>),
    /// Dropped by the engine, or never started.
    Gone,
}

/// Seat `seat` of `plan`'s match; a program that cannot be started, or a TCP bot that does not
/// connect in time, is a seat already gone, with the fault that says why (the match goes on
/// without it, as the official engines play a seat nobody took). `start` counts the times the
/// seat's program was started before (its logs are `<seat>.stderr`, then `<seat>-<start>.stderr`).
pub fn driver<G: Speak>(
    plan: &Plan<G>,
    seat: Seat,
    start: u32,
) -> Result<(Driver<G>, Option<Fault>)> {
    let stem = if start == 0 {
        seat.to_string()
    } else {
        format!("{seat}-{start}")
    };
    let Some(spec) = plan.bots.get(seat) else {
        return Ok((Driver::Gone, None));
    };
    let conn: Box<dyn Lines> = match spec {
        BotSpec::Builtin(name) => {
            let bot =
                G::bot(name, arena_core::rng::bot_seed(plan.seed, seat)).ok_or_else(|| {
                    Error::NoSuchBot {
                        game: G::NAME,
                        name: name.clone(),
                    }
                })?;
            return Ok((Driver::Builtin(Box::new(bot)), None));
        }
        BotSpec::Command(cmd) => {
            if let Some(dir) = &plan.log_dir {
                std::fs::create_dir_all(dir).map_err(|error| Error::File {
                    doing: "create",
                    path: dir.clone(),
                    error,
                })?;
            }
            let log = plan
                .log_dir
                .as_ref()
                .map(|d| d.join(format!("{stem}.stderr")));
            match BotProcess::spawn(cmd, log.as_deref(), plan.limits) {
                Ok(p) => Box::new(p),
                Err(e) => {
                    let why = format!("cannot start `{cmd}`: {e}");
                    return Ok((Driver::Gone, Some(Fault::Spawn { why })));
                }
            }
        }
        BotSpec::Tcp { port, wait, bound } => {
            crate::errln!("seat {seat}: waiting for a bot on 127.0.0.1:{port}");
            let accepted = match bound {
                Some(Bound(listener)) => TcpBot::accept_on(listener, *wait, &plan.limits),
                None => TcpBot::accept(*port, *wait, &plan.limits),
            };
            match accepted {
                Ok(bot) => Box::new(bot),
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                    crate::errln!("seat {seat}: {e}: the seat plays without a bot");
                    let why = e.to_string();
                    return Ok((Driver::Gone, Some(Fault::Spawn { why })));
                }
                Err(error) => {
                    return Err(Error::Seat {
                        seat,
                        what: format!("127.0.0.1:{port}"),
                        error,
                    })
                }
            }
        }
    };
    let conn = match &plan.log_dir {
        Some(dir) => {
            let path = dir.join(format!("{stem}.input"));
            let log = std::fs::File::create(&path).map_err(|error| Error::File {
                doing: "write",
                path: path.clone(),
                error,
            })?;
            Box::new(Logged { inner: conn, log }) as Box<dyn Lines>
        }
        None => conn,
    };
    Ok((Driver::External(G::protocol(conn, plan, seat)), None))
}

/// A connection that keeps everything sent to the bot in a file (`--bot-logs`), as the official
/// official engines' input logs do.
struct Logged {
    inner: Box<dyn Lines>,
    log: std::fs::File,
}

impl Lines for Logged {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let _ = self
            .log
            .write_all(line.as_bytes())
            .and_then(|_| self.log.write_all(b"\n"));
        self.inner.send(line)
    }
    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        self.inner.recv_until(deadline)
    }
    fn discard_stale(&mut self) -> usize {
        self.inner.discard_stale()
    }
    fn close(&mut self) {
        self.inner.close()
    }
}
