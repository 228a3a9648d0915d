//! A competitor's bot, written once against the view API (`Bot<G>::act(&mut self, view)`), run as
//! a process that speaks the game's own `cmd:` protocol on stdin and stdout: what `arena play
//! --bot cmd:...` and `arena tournament --bot cmd:... --sandbox` talk to, and for Ants the official
//! AI Challenge protocol (the original engine's bots speak it too).
//!
//! Each turn the adapter reads the engine's message, builds the seat's view from it, calls the bot
//! and writes its action:
//! - [`tower_defense`]: the JSON-lines request (`{"turn","seat","variant","state"}`) rebuilt into a
//!   [`arena_core::games::tower_defense::TowerDefense`] state, the view `Open` over it. The state
//!   sent lacks only the gold put into each tower (`TowerView::invested`): the adapter follows it
//!   from turn to turn (what a build or an upgrade cost when the tower appeared or rose a level),
//!   exact from the first turn on.
//! - [`colorfight`]: the JSON-lines request (`{"tick","seat","variant","state","extra"}`, `extra`
//!   holding what the canonical state leaves out) rebuilt into a
//!   [`arena_core::games::colorfight::ColorFight`] state: every field but the seed and the random
//!   streams, which no protocol sends (`seed()` reads 0 there).
//! - [`ants`]: the text protocol's lines (the start block, then each turn's `w`/`f`/`h`/`a`/`d`
//!   lines up to `go`) kept as a [`arena_core::games::ants::Sight`], the view
//!   [`arena_core::games::ants::AntsView::from_sight`] over it. The players are numbered as the
//!   protocol numbers them (the bot's own seat is 0), and the number of players is those seen so
//!   far (the protocol sends it only at the end).
//!
//! Errors are small values ([`Error`]): a message the adapter cannot read ends the run with the
//! error (a process prints it on stderr and exits non-zero), never a panic.
//!
//! [`local`] plays a match in-process, as `arena` does (the same seeds for the game and its
//! built-in bots), to compare with the same bot run as a process.

#![warn(missing_docs)]

pub mod ants;
pub mod colorfight;
pub mod local;
pub mod tower_defense;

use std::fmt;
use std::io::{BufRead, Write};

/// Why the adapter stopped: the line (counted from 1) and what was wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// Reading the engine's messages failed (stdin closed with an error, or not UTF-8).
    Read,
    /// Writing the answer failed (the engine closed our stdout).
    Write,
    /// A line that is not JSON (Tower Defense, ColorFight).
    NotJson {
        /// The line, counted from 1.
        line: u64,
    },
    /// A field the message must have is missing or of another type.
    Missing {
        /// The line, counted from 1.
        line: u64,
        /// The field.
        field: &'static str,
    },
    /// A value the rules cannot hold, or a message of the wrong form.
    Bad {
        /// The line, counted from 1.
        line: u64,
        /// What is wrong.
        what: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::Read => f.write_str("cannot read the engine's messages on stdin"),
            Error::Write => f.write_str("cannot write the answer on stdout"),
            Error::NotJson { line } => write!(f, "line {line}: not a JSON message"),
            Error::Missing { line, field } => {
                write!(f, "line {line}: the message has no valid `{field}`")
            }
            Error::Bad { line, what } => write!(f, "line {line}: {what}"),
        }
    }
}

impl std::error::Error for Error {}

/// Reads lines one at a time, counting them (for the errors).
pub(crate) struct Lines<R> {
    input: R,
    buf: String,
    /// Lines read so far.
    pub(crate) number: u64,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(input: R) -> Self {
        Lines {
            input,
            buf: String::new(),
            number: 0,
        }
    }

    /// The next line's number and text without its end, `None` at the end of the input.
    pub(crate) fn next(&mut self) -> Result<Option<(u64, &str)>, Error> {
        self.buf.clear();
        match self.input.read_line(&mut self.buf) {
            Ok(0) => Ok(None),
            Ok(_) => {
                self.number += 1;
                Ok(Some((self.number, self.buf.trim_end_matches(['\n', '\r']))))
            }
            Err(_) => Err(Error::Read),
        }
    }
}

/// Writes `text` and a line end, and flushes (an unflushed answer is a time-out).
pub(crate) fn send(out: &mut impl Write, text: &str) -> Result<(), Error> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|_| Error::Write)
}

/// The JSON-lines loop of Tower Defense and ColorFight: each non-empty line read by `answer`,
/// whose text is written back as one line. Returns the answers written.
pub(crate) fn json_lines<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    mut answer: impl FnMut(&serde_json::Value, u64) -> Result<String, Error>,
) -> Result<u64, Error> {
    let mut lines = Lines::new(input);
    let mut answers = 0;
    while let Some((line, text)) = lines.next()? {
        if text.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|_| Error::NotJson { line })?;
        let reply = answer(&value, line)?;
        send(&mut output, &reply)?;
        answers += 1;
    }
    Ok(answers)
}

/// Field `key` of `v` as an integer of type `T`.
pub(crate) fn int<T: TryFrom<i64>>(
    v: &serde_json::Value,
    key: &'static str,
    line: u64,
) -> Result<T, Error> {
    v.get(key)
        .and_then(serde_json::Value::as_i64)
        .and_then(|n| T::try_from(n).ok())
        .ok_or(Error::Missing { line, field: key })
}

/// Item `i` of a JSON array as an integer of type `T`.
pub(crate) fn item<T: TryFrom<i64>>(
    v: &serde_json::Value,
    i: usize,
    field: &'static str,
    line: u64,
) -> Result<T, Error> {
    v.get(i)
        .and_then(serde_json::Value::as_i64)
        .and_then(|n| T::try_from(n).ok())
        .ok_or(Error::Missing { line, field })
}
