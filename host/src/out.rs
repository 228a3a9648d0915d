//! Printing without panicking on a closed pipe: every command's stdout and stderr go through here.
//!
//! `println!` panics when stdout is a pipe whose reader has gone (`arena play ... | head -1`:
//! "failed printing to stdout: Broken pipe"). Here a failed write to stdout marks stdout closed and
//! nothing more is printed to it; the command goes on with its real work (the match, the
//! tournament, the results file), so every file it writes is complete, and `main` then ends
//! quietly with the command's own status. A failed write to stderr is dropped (there is nowhere
//! left to say so).
//!
//! Why not restore the default SIGPIPE action, as C tools have it: the signal would kill `arena`
//! at its first write after the reader left, before it had killed its bots' process groups or
//! written the end of a replay or a results file (a tournament prints its table before writing
//! its results, a watched match prints frames while it plays).

use std::borrow::Cow;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether a write to stdout has failed (its reader is gone): nothing more is written to it.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Writes to stdout, unless it is closed; a failed write closes it.
pub fn write_out(args: fmt::Arguments<'_>) {
    if stdout_closed() {
        return;
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    if lock.write_fmt(args).and_then(|_| lock.flush()).is_err() {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Writes to stderr; a failure is dropped.
pub fn write_err(args: fmt::Arguments<'_>) {
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    let _ = lock.write_fmt(args).and_then(|_| lock.flush());
}

/// A [`Write`] for stdout that follows the same rule (for code written against `Write`): writes
/// to a closed stdout succeed and go nowhere.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !stdout_closed() {
            let mut out = std::io::stdout().lock();
            if out.write_all(buf).is_err() {
                STDOUT_CLOSED.store(true, Ordering::Relaxed);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !stdout_closed() && std::io::stdout().lock().flush().is_err() {
            STDOUT_CLOSED.store(true, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// `print!` that never panics (see the module docs).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write_out(format_args!($($arg)*)) };
}

/// `println!` that never panics (see the module docs).
#[macro_export]
macro_rules! outln {
    () => { $crate::out::write_out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write_out(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` that never panics (see the module docs).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => { $crate::out::write_err(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Text from a bot or a client (its output, a fault's text, a name) made safe for a terminal:
/// every control character but the newline and the tab (C0, DEL and the C1 range, which would
/// move the cursor, retitle the window or answer back) is written as an escape (`\x1b`,
/// `\u{9b}`), so a text report shows what the bot sent and never runs it.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !unsafe_char(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_controls("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            escape_controls("\u{1b}[2J\u{1b}]0;title\u{7}\r\u{7f}\u{9b}31m é"),
            "\\x1b[2J\\x1b]0;title\\x07\\x0d\\x7f\\u{9b}31m é"
        );
    }
}
