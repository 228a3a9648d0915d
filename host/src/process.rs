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

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
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
        }
    }
}

/// Something a bot did wrong. The match goes on; the report names each one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No answer within the time left in its bank.
    Timeout { waited_ms: u64 },
    /// The process closed its stdout (exited or crashed).
    Exited { status: String },
    /// A line over the length limit (it was discarded).
    LineTooLong { limit: usize },
    /// A line that is not UTF-8.
    BadUtf8,
    /// A line that the game's protocol cannot read.
    Garbage { why: String },
    /// The process could not be started.
    Spawn { why: String },
    /// A readable order the rules refuse (`<line> # <the original's reason>`); the rest of the
    /// answer stands.
    Invalid { why: String },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout { waited_ms } => write!(f, "time-out after {waited_ms} ms"),
            Fault::Exited { status } => write!(f, "exited ({status})"),
            Fault::LineTooLong { limit } => write!(f, "line longer than {limit} bytes"),
            Fault::BadUtf8 => write!(f, "line is not UTF-8"),
            Fault::Garbage { why } => write!(f, "unreadable answer: {why}"),
            Fault::Spawn { why } => write!(f, "could not start: {why}"),
            Fault::Invalid { why } => write!(f, "invalid order: {why}"),
        }
    }
}

impl Fault {
    /// A short kind for tables: `timeout`, `crash`, `invalid`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Timeout { .. } => "timeout",
            Fault::Exited { .. } | Fault::Spawn { .. } => "crash",
            Fault::LineTooLong { .. }
            | Fault::BadUtf8
            | Fault::Garbage { .. }
            | Fault::Invalid { .. } => "invalid",
        }
    }
}

/// What the reader thread saw.
enum Event {
    Line(String, Instant),
    TooLong,
    BadUtf8,
    Eof,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    to_bot: Option<SyncSender<Vec<u8>>>,
    from_bot: Receiver<Event>,
    threads: Vec<JoinHandle<()>>,
    limits: Limits,
    gone: Option<Fault>,
}

impl BotProcess {
    /// Starts `command` with `sh -c` in a new process group. stderr goes to `stderr_log` (capped at
    /// `limits.max_log` bytes) or is discarded.
    pub fn spawn(command: &str, stderr_log: Option<&Path>, limits: Limits) -> io::Result<Self> {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr_log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .process_group(0);
        let mut child = cmd.spawn()?;
        let mut threads = Vec::new();

        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let (line_tx, from_bot) = mpsc::sync_channel(16);
        let max_line = limits.max_line;
        threads.push(std::thread::spawn(move || {
            read_lines(stdout, max_line, line_tx)
        }));

        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let (to_bot, write_rx) = mpsc::sync_channel::<Vec<u8>>(64);
        threads.push(std::thread::spawn(move || {
            for bytes in write_rx {
                if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
        }));

        if let (Some(path), Some(mut stderr)) = (stderr_log, child.stderr.take()) {
            let mut file = std::fs::File::create(path)?;
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
            from_bot,
            threads,
            limits,
            gone: None,
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
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match &self.to_bot {
            Some(tx) => match tx.try_send(bytes) {
                Ok(()) => Ok(()),
                // The bot is not reading: the line is lost, the bot will time out.
                Err(mpsc::TrySendError::Full(_)) => Ok(()),
                Err(mpsc::TrySendError::Disconnected(_)) => Err(self.exited()),
            },
            None => Err(self.exited()),
        }
    }

    /// Waits for one line until `deadline` (`None`: for ever); the line and when it arrived. A line
    /// already waiting is returned even when the deadline has passed.
    pub fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        if let Some(f) = &self.gone {
            return Err(f.clone());
        }
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
            Ok(Event::TooLong) => Err(Fault::LineTooLong {
                limit: self.limits.max_line,
            }),
            Ok(Event::BadUtf8) => Err(Fault::BadUtf8),
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout {
                waited_ms: start.elapsed().as_millis() as u64,
            }),
        }
    }

    /// Drops answers that arrived after their deadline, so they are not taken for the next one.
    pub fn discard_stale(&mut self) {
        while let Ok(event) = self.from_bot.try_recv() {
            if let Event::Eof = event {
                self.exited();
                break;
            }
        }
    }

    /// Kills the process group and reaps the child. Safe to call more than once.
    pub fn kill(&mut self) {
        self.to_bot = None;
        let pid = self.child.id() as i32;
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The I/O threads end when the pipes close. They are not joined: a grandchild that left the
        // process group could hold a pipe open for ever, and the engine must not wait for it.
        self.threads.clear();
        if self.gone.is_none() {
            self.gone = Some(Fault::Exited {
                status: "killed by the engine".into(),
            });
        }
    }

    /// Records that the bot is gone, with its exit status if it has one.
    fn exited(&mut self) -> Fault {
        if let Some(f) = &self.gone {
            return f.clone();
        }
        let status = match self.child.try_wait() {
            Ok(Some(s)) => s.to_string(),
            _ => "closed its output".into(),
        };
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
    pub text: String,
    pub at: Instant,
}

/// A line-based connection to a bot: a child process, or a TCP peer.
pub trait Lines {
    /// Sends one line (a newline is added).
    fn send(&mut self, line: &str) -> Result<(), Fault>;
    /// The next line, waiting until `deadline` (`None`: for ever).
    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault>;
    /// Drops lines that arrived after their deadline, so they are not taken for the next answer.
    fn discard_stale(&mut self) {}
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
    fn discard_stale(&mut self) {
        BotProcess::discard_stale(self)
    }
    fn close(&mut self) {
        self.kill();
    }
}

/// A bot that connects to the engine over TCP (as the MechMania 28 starter packs do): the engine
/// listens on 127.0.0.1:`port` and waits for one connection.
pub struct TcpBot {
    reader: BufReader<std::net::TcpStream>,
    writer: std::net::TcpStream,
    max_line: usize,
    gone: bool,
}

impl TcpBot {
    /// Listens on 127.0.0.1:`port` until a bot connects or `wait` passes.
    pub fn accept(port: u16, wait: Duration, limits: &Limits) -> io::Result<TcpBot> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        listener.set_nonblocking(true)?;
        let start = Instant::now();
        let stream = loop {
            match listener.accept() {
                Ok((s, _)) => break s,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if start.elapsed() > wait {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            format!(
                                "no bot connected to 127.0.0.1:{port} within {} s",
                                wait.as_secs()
                            ),
                        ));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(e),
            }
        };
        stream.set_nonblocking(false)?;
        stream.set_nodelay(true)?;
        Ok(TcpBot {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            max_line: limits.max_line,
            gone: false,
        })
    }
}

impl Lines for TcpBot {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if self.gone {
            return Err(Fault::Exited {
                status: "disconnected".into(),
            });
        }
        let r = self
            .writer
            .write_all(line.as_bytes())
            .and_then(|_| self.writer.write_all(b"\n"))
            .and_then(|_| self.writer.flush());
        r.map_err(|e| {
            self.gone = true;
            Fault::Exited {
                status: format!("disconnected ({e})"),
            }
        })
    }

    fn recv_until(&mut self, deadline: Option<Instant>) -> Result<Line, Fault> {
        if self.gone {
            return Err(Fault::Exited {
                status: "disconnected".into(),
            });
        }
        // A zero read time-out means none at all to the socket: a deadline already past still
        // reads what is there, for at least a millisecond.
        let timeout = deadline.map(|d| {
            d.saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1))
        });
        let _ = self.reader.get_ref().set_read_timeout(timeout);
        let start = Instant::now();
        let mut buf = Vec::new();
        match (&mut self.reader)
            .take(self.max_line as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) => {
                self.gone = true;
                Err(Fault::Exited {
                    status: "disconnected".into(),
                })
            }
            Ok(_) if buf.last() != Some(&b'\n') && buf.len() > self.max_line => {
                // The rest of the line cannot be skipped reliably on a socket: drop the bot.
                self.gone = true;
                Err(Fault::LineTooLong {
                    limit: self.max_line,
                })
            }
            Ok(_) => {
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                let at = Instant::now();
                String::from_utf8(buf)
                    .map(|text| Line { text, at })
                    .map_err(|_| Fault::BadUtf8)
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                // A partial line was lost with the time-out: the stream is out of step, so drop it.
                self.gone = true;
                Err(Fault::Timeout {
                    waited_ms: start.elapsed().as_millis() as u64,
                })
            }
            Err(e) => {
                self.gone = true;
                Err(Fault::Exited {
                    status: format!("disconnected ({e})"),
                })
            }
        }
    }

    fn close(&mut self) {
        self.gone = true;
        let _ = self.writer.shutdown(std::net::Shutdown::Both);
    }
}
