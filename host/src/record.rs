//! What watches a match as it is played: the game's replay writer ([`Recorder`], written line by
//! line so that a crash loses nothing recorded) and the live view ([`Watch`]).

use crate::error::Error;
use crate::game::{Plan, Playable, Standing, Summary};
use crate::process::Fault;
use crate::replay::{Head, ReplayContext, Visit};
use crate::verify::{Difference, Verified};
use arena_core::{Seat, SeatSet, StepReport};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Writing and reading a match: the game's replay format, how its files are recognised and
/// re-played, and what its reports add.
pub trait Record: Playable {
    /// The extension of this game's replay files.
    const REPLAY_EXT: &'static str;
    /// Whether a replay can be re-played on a map given beside it.
    const MAP_BESIDE: bool = false;
    /// The rulesets a replay may have been played under, for formats that do not record it
    /// (the default first); empty when the file says or there is one.
    const RULESETS: &'static [&'static str] = &[];
    /// Writes the game's replay format as a match is played.
    type Recorder: Recorder<Self>;
    /// What a report adds for this game, from the end of the match.
    fn summary(_game: &Self, _plan: &Plan<Self>, _standings: &[Standing]) -> Summary {
        Summary::default()
    }
    /// Whether a replay file that starts with `head` is one of this game's (default: its first
    /// line names the game, as the traces of this desktop do).
    fn detect(head: &Head) -> bool {
        head.str("game") == Some(Self::NAME)
    }
    /// Re-plays a replay, checking everything it records, and hands `each` the first state and
    /// the state after every step.
    fn replay(
        input: &mut dyn BufRead,
        ctx: &ReplayContext,
        each: &mut dyn Visit<Self>,
    ) -> Result<Verified, Difference>;
    /// About how many states [`Record::replay`] hands out, read without re-playing (to space the
    /// frames of a picture): one a line for line-based traces.
    fn states(input: &mut dyn BufRead) -> u64 {
        input
            .lines()
            .map_while(Result::ok)
            .filter(|l| !l.trim().is_empty())
            .count() as u64
    }
}

/// [`Record::replay`] re-played by `$format::replay`, for formats that need nothing beside the
/// file.
macro_rules! replay_from {
    ($format:ident) => {
        fn replay(
            input: &mut dyn std::io::BufRead,
            _ctx: &$crate::replay::ReplayContext,
            each: &mut dyn $crate::replay::Visit<Self>,
        ) -> Result<$crate::verify::Verified, $crate::verify::Difference> {
            $format::replay(input, each)
        }
    };
}
pub(crate) use replay_from;

/// One step as the observers of a match see it.
pub struct Step<'a, G: Playable> {
    /// `turn()` before the step.
    pub turn: u32,
    /// Who was to move.
    pub movers: SeatSet,
    /// One move per seat (passes for seats that were not to move).
    pub moves: &'a [G::Move],
    /// The core's report of the step: the actions refused, by seat.
    pub report: &'a StepReport,
    /// The reason of each refusal ([`crate::game::Stepped::why`]), for formats that keep them.
    pub why: &'a [(arena_core::Seat, &'static str)],
}

/// Writes a game's replay format while the match is played.
pub trait Recorder<G: Playable> {
    /// A recorder for `plan`'s match.
    fn new(plan: &Plan<G>) -> Self
    where
        Self: Sized;
    /// The start of the match (header, first state).
    fn begin(&mut self, game: &G, plan: &Plan<G>, out: &mut LineWriter);
    /// The engine dropped the bot at `seat` during `turn` (before that turn's step).
    fn dropped(&mut self, _seat: Seat, _turn: u32, _fault: &Fault) {}
    /// After every step.
    fn step(&mut self, game: &G, step: &Step<'_, G>, out: &mut LineWriter);
    /// The end of the match (formats written whole are written here).
    fn end(&mut self, _game: &G, _plan: &Plan<G>, _out: &mut LineWriter) {}
}

/// Which steps a trace records the state after: every `plan.record_every` turns, and the last.
#[derive(Clone, Copy, Debug)]
pub struct Every(u32);

impl Every {
    /// The steps `plan` asks to record ([`Plan::record_every`]).
    pub fn of<G: Playable>(plan: &Plan<G>) -> Self {
        Every::new(plan.record_every)
    }

    /// Every `n` steps (0 is taken as 1).
    pub fn new(n: u32) -> Self {
        Every(n.max(1))
    }

    /// Whether the state `game` reached by a step is recorded.
    pub fn due<G: arena_core::Game>(self, game: &G) -> bool {
        game.turn().is_multiple_of(self.0) || game.is_over()
    }
}

/// Someone looking at the match as it is played (`arena play --watch`).
pub trait Watch<G> {
    /// Before the first step.
    fn start(&mut self, game: &G);
    /// After every step.
    fn step(&mut self, game: &G);
    /// After the last step.
    fn end(&mut self, game: &G);
}

/// Writes lines to a file as they come, flushing each, so a crash loses nothing written. With no
/// file it writes nothing (and the recorder can skip building what it would write).
pub struct LineWriter {
    out: Option<std::io::BufWriter<std::fs::File>>,
    /// The file written to, if any.
    pub path: Option<PathBuf>,
    /// The first error writing it, if any: the match goes on, its replay incomplete.
    pub error: Option<String>,
}

impl LineWriter {
    /// Creates the file at `path` (none: a writer that writes nothing).
    pub fn create(path: Option<&Path>) -> Result<Self, Error> {
        let out = match path {
            Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
                |error| Error::File {
                    doing: "write replay",
                    path: p.to_path_buf(),
                    error,
                },
            )?)),
            None => None,
        };
        Ok(LineWriter {
            out,
            path: path.map(Path::to_path_buf),
            error: None,
        })
    }

    /// Whether anything is written (a recorder need not build what goes nowhere).
    pub fn is_open(&self) -> bool {
        self.out.is_some()
    }

    /// Writes one line of text (a newline is added) and flushes it.
    pub fn text(&mut self, line: &str) {
        self.write(|out| out.write_all(line.as_bytes()));
    }

    /// Writes `value` as one line of JSON and flushes it.
    pub fn line(&mut self, value: &serde_json::Value) {
        self.write(|out| serde_json::to_writer(out, value).map_err(std::io::Error::other));
    }

    /// Writes a line with `put`, then the newline, and flushes; the first error is kept.
    fn write(
        &mut self,
        put: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
    ) {
        if let Some(out) = &mut self.out {
            // A signal ending arena waits for the line to be whole.
            let r = crate::process::whole_line(|| {
                put(out)
                    .and_then(|_| out.write_all(b"\n"))
                    .and_then(|_| out.flush())
            });
            if let Err(e) = r {
                self.error.get_or_insert(e.to_string());
            }
        }
    }
}
