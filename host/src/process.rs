//! Bot processes: the one place every game's `cmd:` bots go through.
//!
//! A bot is a child process in its own process group, so that killing it also kills whatever it
//! spawned. Its stdout is read by a thread that frames lines with a length limit (a 10 MB line costs
//! at most `max_line` bytes of memory); its stdin is written by another thread, so a bot that stops
//! reading cannot block the engine; its stderr goes to a log file (capped) or nowhere. Every way out
//! (normal end, fault, disqualification, panic in the engine) kills the group and reaps the child:
//! that is [`Drop`] for [`BotProcess`].
//!
//! A line is stamped with the moment it arrived, so a protocol that reads several bots one after
//! the other charges each only for its own time. How much time a bot has is the protocol's
//! business ([`crate::protocol::Budget`]): here a read waits until a deadline, or for ever.
//!
//! [`Lines`] is what a protocol talks to: a child process, or a TCP peer ([`TcpBot`]).
//!
//! Every running bot is also in a process-wide registry, so that a signal ending `arena` ends them
//! too: [`end_on_signals`] starts a thread that, on SIGINT, SIGTERM or SIGHUP, kills every bot's
//! process group and sandbox, removes the sandboxes' cgroups, lets every match being recorded stop
//! where it is and write what it has ([`ending`], [`OpenReplay`]: the formats written whole at the
//! end write their file then), waits for any replay line being written to be whole
//! ([`whole_line`]) and exits with 128 + the signal's number.

use crate::sandbox::{capped_status, Caps, Jail};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Time and size limits for one bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Extra time for the first answer.
    pub startup: Duration,
    /// Average time allowed per answer...
    pub per_turn: Duration,
    /// ...over windows of this many turns (1 = a hard limit per turn).
    pub window: u32,
    /// Wait for ever (debugging a bot).
    pub no_timeout: bool,
    /// Longest line accepted from the bot, in bytes.
    pub max_line: usize,
    /// Faults after which the bot is disqualified (it passes for the rest of the match).
    pub max_faults: u32,
    /// Most bytes of stderr kept in the bot's log file.
    pub max_log: u64,
    /// Run the bot in a sandbox with these caps (`--sandbox`).
    pub sandbox: Option<Caps>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            startup: Duration::from_secs(2),
            per_turn: Duration::from_millis(10),
            window: 100,
            no_timeout: false,
            max_line: 1 << 20,
            max_faults: 10,
            max_log: 10 << 20,
            sandbox: None,
        }
    }
}

/// How long a bot has to exit by itself once its stdin is closed, before its process group is
/// killed.
pub const END_GRACE: Duration = Duration::from_millis(100);

/// How often a sandboxed bot's caps are looked at while the engine waits for it.
const CAP_POLL: Duration = Duration::from_millis(100);

/// Something a bot did wrong. The match goes on; the report names each one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No answer within the time left in its bank; `over` says which limit, when the protocol
    /// knows it (a bare "time-out after 0 ms" tells a bot's author nothing).
    Timeout {
        /// How long the bot was waited for, in milliseconds.
        waited_ms: u64,
        /// The limit the wait went over, when the protocol knows it.
        over: Option<Exceeded>,
    },
    /// The process closed its stdout (exited or crashed).
    Exited {
        /// How it ended: its exit status as the system tells it, "closed its output", or "killed by
        /// the engine".
        status: String,
    },
    /// A line over the length limit (it was discarded).
    LineTooLong {
        /// The longest line accepted, in bytes ([`Limits::max_line`]).
        limit: usize,
    },
    /// A line that is not UTF-8.
    BadUtf8,
    /// A line that the game's protocol cannot read.
    Garbage {
        /// What the protocol could not read, in its words.
        why: String,
    },
    /// The process could not be started.
    Spawn {
        /// Why it could not start.
        why: String,
    },
    /// A readable order the rules refuse (`<line> # <the original's reason>`); the rest of the
    /// answer stands. `reason` is the reason alone, which reports sum refusals by.
    Invalid {
        /// The refused line and the original's reason, as the report prints it.
        why: String,
        /// The reason alone, which reports sum refusals by.
        reason: &'static str,
    },
    /// A line that came after its request had timed out: it answers that request, so it is thrown
    /// away rather than taken for the answer to a later one. Not a fault of its own (the time-out
    /// was counted), so it is reported but neither refused nor counted towards dropping the bot.
    Late {
        /// The late line, as read.
        line: String,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout {
                waited_ms,
                over: None,
            } => write!(f, "time-out after {} ms", thousands(*waited_ms)),
            Fault::Timeout {
                waited_ms,
                over: Some(over),
            } => write!(f, "time-out: {over}, waited {} ms", thousands(*waited_ms)),
            Fault::Exited { status } => write!(f, "exited ({status})"),
            Fault::LineTooLong { limit } => write!(f, "line longer than {limit} bytes"),
            Fault::BadUtf8 => write!(f, "line is not UTF-8"),
            Fault::Garbage { why } => write!(f, "unreadable answer: {why}"),
            Fault::Spawn { why } => write!(f, "could not start: {why}"),
            Fault::Invalid { why, .. } => write!(f, "invalid order: {why}"),
            Fault::Late { line } => write!(
                f,
                "late answer to a request that had timed out, thrown away: {line}"
            ),
        }
    }
}

/// The time limit an answer went over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// A limit on each answer on its own.
    PerAnswer {
        /// The limit, in milliseconds.
        ms: u64,
    },
    /// An average over a window of answers (answers `first..first + window` share `window *
    /// per_turn_ms`): `spent_ms` of it is spent, this answer's wait included.
    Average {
        /// The average allowed per answer, in milliseconds.
        per_turn_ms: u64,
        /// The answers the window holds.
        window: u32,
        /// The window's first answer, counted from 1 over the match.
        first: u32,
        /// The window's time spent so far, in milliseconds.
        spent_ms: u64,
    },
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exceeded::PerAnswer { ms } => {
                write!(f, "over the {} ms limit per answer", thousands(ms))
            }
            Exceeded::Average {
                per_turn_ms,
                window,
                first,
                spent_ms,
            } => write!(
                f,
                "over the {} ms average of {window} turns ({} ms for answers {first}-{}): {} ms spent",
                thousands(per_turn_ms),
                thousands(per_turn_ms.saturating_mul(u64::from(window))),
                first.saturating_add(window.saturating_sub(1)),
                thousands(spent_ms)
            ),
        }
    }
}

/// `2040` as `2,040`: time-outs are read by people.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Fault {
    /// A short kind for tables: `timeout`, `crash`, `invalid`, `late`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Timeout { .. } => "timeout",
            Fault::Late { .. } => "late",
            Fault::Exited { .. } | Fault::Spawn { .. } => "crash",
            Fault::LineTooLong { .. }
            | Fault::BadUtf8
            | Fault::Garbage { .. }
            | Fault::Invalid { .. } => "invalid",
        }
    }

    /// What a report sums refusals by: an invalid order's own reason, else the fault's kind.
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::Invalid { reason, .. } => reason,
            other => other.kind(),
        }
    }

    /// Whether this fault counts as a refused action when it is a note of an answer (a late line
    /// thrown away does not: the bot's answer to this request stands).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, Fault::Late { .. })
    }
}

/// What a reader thread saw.
enum Event {
    Line(String, Instant),
    TooLong,
    BadUtf8,
    Eof,
}

/// The lines a reader thread framed, stamped with their arrival: the receiving half shared by
/// processes and TCP peers.
struct Inbox {
    from_bot: Receiver<Event>,
    max_line: usize,
}

/// What [`Inbox::recv_until`] found besides a line.
enum Missing {
    Fault(Fault),
    Eof,
}

impl Inbox {
    /// Starts a thread framing `input` into lines of at most `max_line` bytes.
    fn start(input: impl Read + Send + 'static, max_line: usize) -> (Inbox, JoinHandle<()>) {
        let (line_tx, from_bot) = mpsc::sync_channel(16);
        let thread = std::thread::spawn(move || read_lines(input, max_line, line_tx));
        (Inbox { from_bot, max_line }, thread)
    }

    /// The next line, waiting until `deadline` (`None`: for ever). A line already waiting is
    /// returned even when the deadline has passed.
    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Missing> {
        let start = Instant::now();
        let event = match deadline {
            None => self
                .from_bot
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .from_bot
                .recv_timeout(d.saturating_duration_since(start)),
        };
        match event {
            Ok(Event::Line(text, at)) => Ok(Line { text, at }),
            Ok(Event::TooLong) => Err(Missing::Fault(Fault::LineTooLong {
                limit: self.max_line,
            })),
            Ok(Event::BadUtf8) => Err(Missing::Fault(Fault::BadUtf8)),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Err(Missing::Eof),
            Err(RecvTimeoutError::Timeout) => Err(Missing::Fault(Fault::Timeout {
                waited_ms: start.elapsed().as_millis() as u64,
                over: None,
            })),
        }
    }

    /// Drops what has arrived: the number of lines (unreadable ones included), and whether the
    /// connection ended.
    fn discard(&mut self) -> (usize, bool) {
        let mut lines = 0;
        while let Ok(event) = self.from_bot.try_recv() {
            match event {
                Event::Eof => return (lines, true),
                _ => lines += 1,
            }
        }
        (lines, false)
    }
}

/// A bot in the registry: its process group, and its sandbox.
struct Live {
    group: i32,
    jail: Option<Arc<Jail>>,
}

/// Every bot process alive in this `arena`, for the signal handler to end.
struct Registry {
    /// Set by the signal handler: no bot starts any more.
    closed: bool,
    next: u64,
    live: BTreeMap<u64, Live>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    closed: false,
    next: 0,
    live: BTreeMap::new(),
});

/// Held (shared) while a line of a replay or trace is written, and taken for good by the signal
/// handler before it exits: `arena` never ends half-way through a line.
static LINES: RwLock<()> = RwLock::new(());

fn registry() -> MutexGuard<'static, Registry> {
    // A thread that panicked holding the lock left the map as it was: still right.
    REGISTRY
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `write` (one whole line of a file that must end on a whole line) so that a signal ending
/// `arena` waits for it to finish.
pub fn whole_line<R>(write: impl FnOnce() -> R) -> R {
    let _writing = LINES
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    write()
}

/// How long the signal handler waits for a replay line being written to be whole, and for the
/// matches being recorded to write what they have.
const LINE_WAIT: Duration = Duration::from_secs(5);

/// Set by the signal handler: every match stops at the step it is in and ends its replay.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Matches whose replay is open and not yet ended.
static OPEN_REPLAYS: AtomicUsize = AtomicUsize::new(0);

/// Whether a signal is ending `arena`: a match stops at the step it is in (not playing it) and
/// ends its replay with what is whole.
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// Held by a match from before its replay is created until the replay is ended (its last line,
/// or the whole file of a format written at the end): the signal handler waits (a few seconds at
/// most) until none is held. Dropping it while a signal is ending `arena` does not return.
pub struct OpenReplay(());

impl OpenReplay {
    /// A match's replay is about to be opened.
    pub fn new() -> Self {
        OPEN_REPLAYS.fetch_add(1, Ordering::SeqCst);
        OpenReplay(())
    }
}

impl Default for OpenReplay {
    fn default() -> Self {
        Self::new()
    }
}

/// The replay is ended (or the match failed). Once a signal is ending `arena`, the match's thread
/// stops here for good (the signal handler ends the process): nothing after the match (a
/// tournament's next match, its results) is done with a match cut short.
impl Drop for OpenReplay {
    fn drop(&mut self) {
        OPEN_REPLAYS.fetch_sub(1, Ordering::SeqCst);
        while ending() {
            std::thread::park_timeout(Duration::from_secs(60));
        }
    }
}

/// The signals that end `arena` and every bot it runs.
pub const ENDING_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Starts the thread that, on SIGINT, SIGTERM or SIGHUP, ends every bot (sandboxed or not) and
/// then `arena`, with exit status 128 + the signal's number. Called once, by `main`.
pub fn end_on_signals() -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(ENDING_SIGNALS)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                ENDING.store(true, Ordering::SeqCst);
                end_every_bot();
                // Every match being recorded stops and writes what it has (a replay written whole
                // at the end is written now), a few seconds at most.
                let until = Instant::now() + LINE_WAIT;
                while OPEN_REPLAYS.load(Ordering::SeqCst) > 0 && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(2));
                }
                // No line of a replay is left half-written: wait for the one being written (a
                // few seconds at most: a write stuck on a full pipe must not keep arena alive),
                // and let no other start.
                let until = Instant::now() + LINE_WAIT;
                let _no_more = loop {
                    match LINES.try_write() {
                        Ok(guard) => break Some(guard),
                        Err(std::sync::TryLockError::Poisoned(e)) => break Some(e.into_inner()),
                        Err(std::sync::TryLockError::WouldBlock) if Instant::now() < until => {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                        Err(std::sync::TryLockError::WouldBlock) => break None,
                    }
                };
                crate::errln!(
                    "arena: ended by {}: every bot was ended with it",
                    signal_name(signal)
                );
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

fn signal_name(signal: i32) -> String {
    nix::sys::signal::Signal::try_from(signal)
        .map_or_else(|_| format!("signal {signal}"), |s| s.as_str().to_string())
}

/// Kills every registered bot's process group and sandbox and removes the sandboxes' cgroups; no
/// bot starts after this.
pub fn end_every_bot() {
    let live = {
        let mut reg = registry();
        reg.closed = true;
        std::mem::take(&mut reg.live)
    };
    for bot in live.values() {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(bot.group),
            nix::sys::signal::Signal::SIGKILL,
        );
        if let Some(jail) = &bot.jail {
            jail.kill_all();
        }
    }
    for jail in live.values().filter_map(|b| b.jail.as_ref()) {
        jail.release();
    }
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    to_bot: Option<SyncSender<Vec<u8>>>,
    inbox: Inbox,
    threads: Vec<JoinHandle<()>>,
    gone: Option<Fault>,
    /// The bot's sandbox (dropped after the bot is killed; the registry holds it too).
    jail: Option<Arc<Jail>>,
    /// Its key in the registry.
    id: u64,
}

impl BotProcess {
    /// Starts `command` with `sh -c` in a new process group, in a sandbox if `limits.sandbox`
    /// says so. stderr goes to `stderr_log` (capped at `limits.max_log` bytes) or is discarded.
    pub fn spawn(command: &str, stderr_log: Option<&Path>, limits: Limits) -> io::Result<Self> {
        use std::os::unix::process::CommandExt;
        // Made before the bot starts: a bot started and then given up would be left running.
        let log = stderr_log.map(std::fs::File::create).transpose()?;
        // Held until the bot is registered: the signal handler ends every bot started, and no bot
        // starts after it.
        let mut reg = registry();
        if reg.closed {
            return Err(io::Error::other("arena is ending (signal)"));
        }
        let jail = limits.sandbox.map(Jail::new).transpose()?.map(Arc::new);
        let mut cmd = match &jail {
            Some(jail) => jail.command(command)?,
            None => {
                let mut cmd = Command::new("sh");
                cmd.arg("-c").arg(command);
                cmd
            }
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr_log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .process_group(0);
        let mut child = cmd.spawn()?;
        let id = reg.next;
        reg.next += 1;
        reg.live.insert(
            id,
            Live {
                group: child.id() as i32,
                jail: jail.clone(),
            },
        );
        drop(reg);
        let mut threads = Vec::new();

        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let (inbox, reader) = Inbox::start(stdout, limits.max_line);
        threads.push(reader);

        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let (to_bot, writer) = start_writer(stdin);
        threads.push(writer);

        if let (Some(mut file), Some(mut stderr)) = (log, child.stderr.take()) {
            let cap = limits.max_log;
            threads.push(std::thread::spawn(move || {
                let _ = io::copy(&mut (&mut stderr).take(cap), &mut file);
                // Past the cap, keep draining so the bot never blocks on a full pipe.
                let _ = io::copy(&mut stderr, &mut io::sink());
            }));
        }

        Ok(BotProcess {
            child,
            to_bot: Some(to_bot),
            inbox,
            threads,
            gone: None,
            jail,
            id,
        })
    }

    /// The process id (of the process group's leader).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        if let Some(f) = &self.gone {
            return Err(f.clone());
        }
        match &self.to_bot {
            Some(tx) if queue_line(tx, line) => Ok(()),
            _ => Err(self.exited()),
        }
    }

    /// Waits for one line until `deadline` (`None`: for ever); the line and when it arrived. A line
    /// already waiting is returned even when the deadline has passed.
    pub fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        if let Some(f) = &self.gone {
            return Err(f.clone());
        }
        let got = if self.jail.is_some() {
            self.recv_jailed(deadline)
        } else {
            self.inbox.recv_until(deadline)
        };
        match got {
            Ok(line) => Ok(line),
            Err(Missing::Fault(f @ Fault::Timeout { .. })) => {
                Err(self.stopped_by_cap().unwrap_or(f))
            }
            Err(Missing::Fault(f)) => Err(f),
            Err(Missing::Eof) => Err(self.exited()),
        }
    }

    /// [`Inbox::recv_until`] for a sandboxed bot, looking at its caps every [`CAP_POLL`] while it
    /// waits: a bot stopped by its process cap (a fork bomb, alive but stuck) is named at once,
    /// not after its time bank has run out.
    fn recv_jailed(&mut self, deadline: Option<Instant>) -> Result<Line, Missing> {
        let start = Instant::now();
        loop {
            let slice = Instant::now() + CAP_POLL;
            let until = deadline.map_or(slice, |d| d.min(slice));
            match self.inbox.recv_until(Some(until)) {
                Err(Missing::Fault(Fault::Timeout { .. }))
                    if deadline.is_none_or(|d| until < d) =>
                {
                    if let Some(f) = self.stopped_by_cap() {
                        return Err(Missing::Fault(f));
                    }
                }
                Err(Missing::Fault(Fault::Timeout { over, .. })) => {
                    return Err(Missing::Fault(Fault::Timeout {
                        waited_ms: start.elapsed().as_millis() as u64,
                        over,
                    }))
                }
                other => return other,
            }
        }
    }

    /// A bot that ran into its sandbox's process or memory cap is stopped: killed, with a fault
    /// naming the cap.
    fn stopped_by_cap(&mut self) -> Option<Fault> {
        let cap = self.jail.as_ref()?.tripped()?;
        let fault = Fault::Exited {
            status: format!("stopped by the sandbox's {cap}"),
        };
        self.gone = Some(fault.clone());
        self.kill();
        Some(fault)
    }

    /// Drops the lines that have arrived (answers to requests that timed out, or lines nobody
    /// asked for), so they are not taken for the next answer; returns how many.
    pub fn discard_stale(&mut self) -> usize {
        let (lines, eof) = self.inbox.discard();
        if eof {
            self.exited();
        }
        lines
    }

    /// Kills the process group and reaps the child. Safe to call more than once.
    pub fn kill(&mut self) {
        // EOF on its stdin first, and a moment to exit by itself (a bot may save what it learnt,
        // or flush a log), then the whole process group goes, whatever it left running.
        self.to_bot = None;
        let until = Instant::now() + END_GRACE;
        while self.gone.is_none() && Instant::now() < until {
            match self.child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                _ => break,
            }
        }
        let pid = self.child.id() as i32;
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
        // Out of the registry once its group is killed, before it is reaped (after which its
        // group id may be another's).
        registry().live.remove(&self.id);
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(jail) = &self.jail {
            jail.kill_all();
        }
        // The I/O threads end when the pipes close. They are not joined: a grandchild that left the
        // process group could hold a pipe open for ever, and the engine must not wait for it.
        self.threads.clear();
        if self.gone.is_none() {
            self.gone = Some(Fault::Exited {
                status: "killed by the engine".into(),
            });
        }
    }

    /// The exit status of a bot whose output has closed, waiting up to 50 ms for it (the status
    /// names a cap that stopped it).
    fn wait_briefly(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + Duration::from_millis(50);
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
                _ => return None,
            }
        }
    }

    /// Records that the bot is gone, with its exit status if it has one.
    fn exited(&mut self) -> Fault {
        if let Some(f) = &self.gone {
            return f.clone();
        }
        let exit = match self.child.try_wait() {
            Ok(Some(s)) => Some(s),
            // The output closes a moment before the process is gone.
            _ if self.jail.is_some() => self.wait_briefly(),
            _ => None,
        };
        let mut status = exit.map_or_else(|| "closed its output".into(), |s| s.to_string());
        if let Some(jail) = &self.jail {
            let cap =
                capped_status(exit.and_then(|s| s.code()), jail.caps()).or_else(|| jail.tripped());
            if let Some(cap) = cap {
                status = format!("stopped by the sandbox's {cap}: {status}");
            }
        }
        let fault = Fault::Exited { status };
        self.gone = Some(fault.clone());
        fault
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Starts a thread writing what is queued to `output` (so a bot that stops reading cannot block the
/// engine); it ends when the queue is dropped or a write fails.
fn start_writer(mut output: impl Write + Send + 'static) -> (SyncSender<Vec<u8>>, JoinHandle<()>) {
    let (to_bot, write_rx) = mpsc::sync_channel::<Vec<u8>>(64);
    let thread = std::thread::spawn(move || {
        for bytes in write_rx {
            if output
                .write_all(&bytes)
                .and_then(|_| output.flush())
                .is_err()
            {
                break;
            }
        }
    });
    (to_bot, thread)
}

/// Queues `line` and a newline for the writer thread: `false` once the writer has ended. A bot
/// that is not reading loses the line (it will time out).
fn queue_line(tx: &SyncSender<Vec<u8>>, line: &str) -> bool {
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    !matches!(tx.try_send(bytes), Err(mpsc::TrySendError::Disconnected(_)))
}

/// Frames the bot's stdout into lines of at most `max` bytes.
fn read_lines(stdout: impl Read, max: usize, tx: SyncSender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = max as u64 + 1;
        match (&mut reader).take(limit).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                let _ = tx.send(Event::Eof);
                return;
            }
            Ok(_) => {}
        }
        let event = if buf.last() != Some(&b'\n') && buf.len() > max {
            // Skip the rest of the long line without keeping it.
            loop {
                let chunk = match reader.fill_buf() {
                    Ok(c) if !c.is_empty() => c,
                    _ => {
                        let _ = tx.send(Event::TooLong);
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                };
                if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
                    reader.consume(i + 1);
                    break;
                }
                let n = chunk.len();
                reader.consume(n);
            }
            Event::TooLong
        } else {
            if buf.last() == Some(&b'\n') {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
            }
            match String::from_utf8(std::mem::take(&mut buf)) {
                Ok(s) => Event::Line(s, Instant::now()),
                Err(_) => Event::BadUtf8,
            }
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}

/// A line from a bot, and when it arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line, without its end of line (`\n` or `\r\n`).
    pub text: String,
    /// When it arrived: read as soon as it was sent, stamped by the reader thread, not when the
    /// match reads it.
    pub at: Instant,
}

/// A line-based connection to a bot: a child process, or a TCP peer.
pub trait Lines {
    /// Sends one line (a newline is added).
    fn send(&mut self, line: &str) -> Result<(), Fault>;
    /// The next line, waiting until `deadline` (`None`: for ever).
    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault>;
    /// Drops the lines that have arrived and were not read (answers to requests that timed out,
    /// lines nobody asked for), so they are not taken for the next answer; returns how many.
    fn discard_stale(&mut self) -> usize {
        0
    }
    /// Ends the connection (kills and reaps a process).
    fn close(&mut self);
}

impl Lines for BotProcess {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        BotProcess::send(self, line)
    }
    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        BotProcess::recv_until(self, deadline)
    }
    fn discard_stale(&mut self) -> usize {
        BotProcess::discard_stale(self)
    }
    fn close(&mut self) {
        self.kill();
    }
}

/// A bot that connects to the engine over TCP (as the MechMania 28 starter packs do): the engine
/// listens on 127.0.0.1:`port` and waits for one connection. Lines are framed by a reader thread
/// and written by a writer thread, as for a process, so a time-out loses nothing: a line that
/// arrives late is there for the protocol to recognise, and one cut in two by a time-out is read
/// whole later.
pub struct TcpBot {
    stream: std::net::TcpStream,
    to_bot: Option<SyncSender<Vec<u8>>>,
    inbox: Inbox,
    gone: bool,
}

impl TcpBot {
    /// Listens on 127.0.0.1:`port` until a bot connects or `wait` passes.
    pub fn accept(port: u16, wait: Duration, limits: &Limits) -> io::Result<TcpBot> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        TcpBot::accept_on(&listener, wait, limits)
    }

    /// Waits on a listener already bound (port 0: one the system chose, so that nothing else
    /// can take it between choosing and listening) until a bot connects or `wait` passes.
    pub fn accept_on(
        listener: &std::net::TcpListener,
        wait: Duration,
        limits: &Limits,
    ) -> io::Result<TcpBot> {
        listener.set_nonblocking(true)?;
        let start = Instant::now();
        let stream = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if start.elapsed() > wait {
                        let at = listener.local_addr()?;
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            format!("no bot connected to {at} within {} s", wait.as_secs_f64()),
                        ));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(e),
            }
        };
        TcpBot::over(stream, limits)
    }

    /// A bot on a connection already made.
    pub fn over(stream: std::net::TcpStream, limits: &Limits) -> io::Result<TcpBot> {
        stream.set_nonblocking(false)?;
        stream.set_nodelay(true)?;
        let (inbox, _reader) = Inbox::start(stream.try_clone()?, limits.max_line);
        let (to_bot, _writer) = start_writer(stream.try_clone()?);
        // The threads end when the socket is shut down (close, or drop).
        Ok(TcpBot {
            stream,
            to_bot: Some(to_bot),
            inbox,
            gone: false,
        })
    }

    fn disconnected() -> Fault {
        Fault::Exited {
            status: "disconnected".into(),
        }
    }
}

impl Lines for TcpBot {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        match &self.to_bot {
            Some(tx) if !self.gone && queue_line(tx, line) => Ok(()),
            _ => {
                self.gone = true;
                Err(TcpBot::disconnected())
            }
        }
    }

    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        if self.gone {
            return Err(TcpBot::disconnected());
        }
        match self.inbox.recv_until(deadline) {
            Ok(line) => Ok(line),
            Err(Missing::Fault(f)) => Err(f),
            Err(Missing::Eof) => {
                self.gone = true;
                Err(TcpBot::disconnected())
            }
        }
    }

    fn discard_stale(&mut self) -> usize {
        let (lines, eof) = self.inbox.discard();
        self.gone |= eof;
        lines
    }

    fn close(&mut self) {
        self.gone = true;
        self.to_bot = None;
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

impl Drop for TcpBot {
    fn drop(&mut self) {
        self.close();
    }
}
