//! Who plays a seat as the match runs: a built-in bot, an external bot behind its game's protocol,
//! or nobody (dropped, or never started).

use crate::error::{Error, Result};
use crate::game::Plan;
use crate::process::{BotProcess, Fault, Line, Lines, TcpBot};
use crate::protocol::{GameProtocol, Protocol};
use crate::seats::{BotSpec, Bound};
use crate::turn_time::CpuClock;
use arena_core::Seat;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Who plays a seat.
pub enum Driver<G: GameProtocol> {
    /// A bot in this process, given its seat's view: a built-in bot, or any `Bot<G>`.
    Builtin(Box<dyn arena_core::Bot<G>>),
    External(Box<dyn Protocol<G>>),
    /// Dropped by the engine, or never started.
    Gone,
}

/// When an external bot's last line arrived (stamped by the reader), for its time a turn.
pub type Stamp = Arc<Mutex<Option<Instant>>>;

/// A seat's driver and what times its turns: the CPU clock to read (a program's processes, a
/// built-in bot's thread) and, for an external bot, when its last line arrived.
pub struct Seated<G: GameProtocol> {
    /// Who plays the seat.
    pub driver: Driver<G>,
    /// Why the seat is gone already, if it is.
    pub fault: Option<Fault>,
    /// Whose CPU time the seat's turns take.
    pub cpu: Option<CpuClock>,
    /// When the external bot's last line arrived.
    pub stamp: Option<Stamp>,
}

impl<G: GameProtocol> Seated<G> {
    fn gone(fault: Option<Fault>) -> Self {
        Seated {
            driver: Driver::Gone,
            fault,
            cpu: None,
            stamp: None,
        }
    }
}

/// Seat `seat` of `plan`'s match; a program that cannot be started, or a TCP bot that does not
/// connect in time, is a seat already gone, with the fault that says why (the match goes on
/// without it, as the official engines play a seat nobody took). `start` counts the times the
/// seat's program was started before (its logs are `<seat>.stderr`, then `<seat>-<start>.stderr`).
pub fn driver<G: GameProtocol>(plan: &Plan<G>, seat: Seat, start: u32) -> Result<Seated<G>> {
    let stem = if start == 0 {
        seat.to_string()
    } else {
        format!("{seat}-{start}")
    };
    let Some(spec) = plan.bots.get(seat) else {
        return Ok(Seated::gone(None));
    };
    let mut cpu = None;
    let conn: Box<dyn Lines> = match spec {
        BotSpec::Builtin(name) => {
            let bot =
                G::bot(name, arena_core::rng::bot_seed(plan.seed, seat)).ok_or_else(|| {
                    Error::NoSuchBot {
                        game: G::NAME,
                        name: name.clone(),
                    }
                })?;
            return Ok(Seated {
                driver: Driver::Builtin(Box::new(bot)),
                fault: None,
                cpu: Some(CpuClock::Thread),
                stamp: None,
            });
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
                Ok(p) => {
                    cpu = i32::try_from(p.pid()).ok().map(CpuClock::Tree);
                    Box::new(p)
                }
                Err(e) => {
                    let why = format!("cannot start `{cmd}`: {e}");
                    return Ok(Seated::gone(Some(Fault::Spawn { why })));
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
                    return Ok(Seated::gone(Some(Fault::Spawn { why })));
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
    let stamp: Stamp = Arc::default();
    let conn = Box::new(Stamped {
        inner: conn,
        stamp: stamp.clone(),
    });
    Ok(Seated {
        driver: Driver::External(G::protocol(conn, plan, seat)),
        fault: None,
        cpu,
        stamp: Some(stamp),
    })
}

/// A connection that notes when each line read arrived, for the bot's time a turn.
struct Stamped {
    inner: Box<dyn Lines>,
    stamp: Stamp,
}

impl Lines for Stamped {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.inner.send(line)
    }
    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        let line = self.inner.recv_until(deadline)?;
        if let Ok(mut at) = self.stamp.lock() {
            *at = Some(line.at);
        }
        Ok(line)
    }
    fn discard_stale(&mut self) -> usize {
        self.inner.discard_stale()
    }
    fn close(&mut self) {
        self.inner.close()
    }
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
