//! Who sits at the table: a built-in bot, a program started for the match, or a bot that connects
//! over TCP; each external one behind its game's protocol.

use arena_core::Roster;
use std::time::Duration;

/// Why a bot as given cannot play: not one of the game's, or a program that cannot start.
#[derive(Debug, thiserror::Error)]
pub enum BadBot {
    #[error("`cmd:` needs a command line after it")]
    NoCommand,
    /// Neither a built-in bot of `game` nor `cmd:`.
    #[error(
        "unknown bot `{name}` for {game}: built-in bots are {}; an external bot is `cmd:<command line>`",
        bots.join(", ")
    )]
    Unknown {
        game: &'static str,
        name: String,
        bots: &'static [&'static str],
    },
    /// A program's path that is no executable file.
    #[error("{0}: no such executable file")]
    NoFile(String),
    /// A program's name that is not on PATH.
    #[error("not found (`{0}` is not a program on PATH)")]
    NotOnPath(String),
    /// No shell to look for the program with.
    #[error("cannot run sh to look for `{word}`: {error}")]
    NoShell { word: String, error: std::io::Error },
}

/// A bot named on the command line: a built-in name, `cmd:<command line>`, or a bot that connects
/// over TCP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    Builtin(String),
    Command(String),
    /// Listen on 127.0.0.1:`port` for up to `wait`; on `bound` if the port was taken already
    /// (`--port-base 0`: ports the system chose).
    Tcp {
        port: u16,
        wait: Duration,
        bound: Option<Bound>,
    },
}

/// A listener bound when the plan was made, shared by the plan's copies.
#[derive(Clone, Debug)]
pub struct Bound(pub std::sync::Arc<std::net::TcpListener>);

impl Bound {
    /// A listener on a free port of 127.0.0.1 and its port.
    pub fn free() -> std::io::Result<(Bound, u16)> {
        let l = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        let port = l.local_addr()?.port();
        Ok((Bound(std::sync::Arc::new(l)), port))
    }
}

/// Two specs are the same listener, not two listeners on one port.
impl PartialEq for Bound {
    fn eq(&self, other: &Bound) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Bound {}

impl BotSpec {
    /// Reads a `--bot` argument for game `G`, checking built-in names.
    pub fn parse<G: Roster>(text: &str) -> Result<BotSpec, BadBot> {
        if let Some(cmd) = text.strip_prefix("cmd:") {
            if cmd.trim().is_empty() {
                return Err(BadBot::NoCommand);
            }
            return Ok(BotSpec::Command(cmd.to_string()));
        }
        if G::BOTS.contains(&text) {
            Ok(BotSpec::Builtin(text.to_string()))
        } else {
            Err(BadBot::Unknown {
                game: G::NAME,
                name: text.to_string(),
                bots: G::BOTS,
            })
        }
    }

    /// The game's default opponent.
    pub fn default_for<G: Roster>() -> BotSpec {
        BotSpec::Builtin(G::BOTS.first().copied().unwrap_or("random").into())
    }

    /// A program that cannot start is found before the match, not after a whole match played
    /// without it: the command line's first word must be something the shell can run (a
    /// builtin, a keyword, a program on PATH or a path to one). A first word the shell would
    /// read otherwise (an assignment, a quote, a redirection) is left to the shell.
    pub fn check_start(&self) -> Result<(), BadBot> {
        let BotSpec::Command(cmd) = self else {
            return Ok(());
        };
        let Some(word) = cmd.split_whitespace().next() else {
            return Ok(());
        };
        let plain = |c: char| c.is_ascii_alphanumeric() || "_-./+".contains(c);
        if !word.chars().all(plain) {
            return Ok(());
        }
        let found = std::process::Command::new("sh")
            .args(["-c", "command -v -- \"$1\" >/dev/null", "sh", word])
            .stdin(std::process::Stdio::null())
            .status()
            .map_err(|error| BadBot::NoShell {
                word: word.to_string(),
                error,
            })?;
        if found.success() {
            Ok(())
        } else if word.contains('/') {
            Err(BadBot::NoFile(word.to_string()))
        } else {
            Err(BadBot::NotOnPath(word.to_string()))
        }
    }

    /// The bot as it was given (`cmd:<command line>`, `tcp:<port>`).
    pub fn label(&self) -> String {
        match self {
            BotSpec::Builtin(n) => n.clone(),
            BotSpec::Command(c) => format!("cmd:{c}"),
            BotSpec::Tcp { port, .. } => format!("tcp:{port}"),
        }
    }

    /// The name reports, replays and tables show when none is given: a built-in bot's name; for a
    /// command, what the AI Challenge's playgame.py names it (`get_cmd_name`): the file name of
    /// the last word of the command line that is an existing path (`python3 /abs/HunterBot.py`
    /// is `HunterBot.py`), else the command as given.
    pub fn name(&self) -> String {
        match self {
            BotSpec::Command(c) => c
                .split_whitespace()
                .rev()
                .map(std::path::Path::new)
                .filter(|p| p.exists())
                .find_map(|p| p.file_name())
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.label()),
            _ => self.label(),
        }
    }
}
