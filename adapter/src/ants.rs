//! Ants: the official AI Challenge text protocol (`worker/engine.py`, `arena play ants --bot
//! cmd:...`): the start block up to `ready` (answered `go`), each turn's lines up to `go` (answered
//! with the orders and `go`), `end`. The lines are kept as an
//! [`arena_core::games::ants::Sight`] and the bot is given
//! [`arena_core::games::ants::AntsView::from_sight`] over it.
//!
//! The protocol numbers the players from the reader (itself 0, the others in the order it first
//! saw them): the view's seat is 0 and its owners are those numbers. It sends water once, when
//! first seen: the reader keeps it. It does not send the number of players before `end`: the
//! view's `players()` is those seen so far. Lines the protocol does not have are an error.

use crate::{send, Error, Lines};
use arena_core::games::ants::{Ant, AntsGame, AntsView, DeadAnt, Food, Hill, Sight};
use arena_core::Bot;
use std::fmt::Write as _;
use std::io::{BufRead, Write};

/// Where in the conversation the reader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before `turn 0`.
    Hello,
    /// In the start block, up to `ready`.
    Settings,
    /// Between two messages.
    Between,
    /// In a turn's lines, up to `go`.
    Turn,
    /// In the end message, up to `go`.
    End,
    /// After the end message.
    Done,
}

/// What a line completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The start block ended (`ready`): answer `go`.
    Ready,
    /// A turn's lines ended (`go`): answer the orders and `go`.
    Turn,
    /// The end message ended: the game is over.
    End,
}

/// The settings of the start block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `loadtime`, ms.
    pub loadtime: u32,
    /// `turntime`, ms.
    pub turntime: u32,
    /// `rows`.
    pub rows: u16,
    /// `cols`.
    pub cols: u16,
    /// `turns`.
    pub turns: u16,
    /// `viewradius2`.
    pub viewradius2: u16,
    /// `attackradius2`.
    pub attackradius2: u16,
    /// `spawnradius2`.
    pub spawnradius2: u16,
    /// `player_seed`.
    pub player_seed: i64,
}

/// Keeps what the protocol said: the settings, the water seen, this turn's lines.
#[derive(Clone, Debug)]
pub struct Reader {
    phase: Phase,
    /// The settings of the start block.
    pub settings: Settings,
    turn: u32,
    water: Vec<bool>,
    ants: Vec<Ant>,
    food: Vec<Food>,
    hills: Vec<Hill>,
    dead: Vec<DeadAnt>,
    players: usize,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            phase: Phase::Hello,
            settings: Settings::default(),
            turn: 0,
            water: Vec::new(),
            ants: Vec::new(),
            food: Vec::new(),
            hills: Vec::new(),
            dead: Vec::new(),
            players: 1,
        }
    }
}

/// The most players the protocol numbers (as the engine: 10).
const MAX_PLAYERS: usize = 10;

impl Reader {
    /// A reader before the start block.
    pub fn new() -> Self {
        Reader::default()
    }

    /// Reads one line (`line`: its number, for the errors); the event it completed, if any.
    pub fn feed(&mut self, text: &str, line: u64) -> Result<Option<Event>, Error> {
        let bad = |what| Error::Bad { line, what };
        let text = text.trim();
        let mut words = text.split_ascii_whitespace();
        let Some(key) = words.next() else {
            return Ok(None);
        };
        let args: Vec<&str> = words.collect();
        let number = |i: usize| -> Result<i64, Error> {
            args.get(i)
                .and_then(|a| a.parse::<i64>().ok())
                .ok_or(bad("a line whose values are not whole numbers"))
        };
        match (self.phase, key) {
            (Phase::Hello, "turn") if number(0)? == 0 && args.len() == 1 => {
                self.phase = Phase::Settings;
                Ok(None)
            }
            (Phase::Hello, _) => Err(bad("the protocol starts with `turn 0`")),
            (Phase::Settings, "ready") => {
                let s = &self.settings;
                if s.rows == 0 || s.cols == 0 {
                    return Err(bad("no `rows` or `cols` in the start block"));
                }
                let squares = usize::from(s.rows) * usize::from(s.cols);
                self.water = vec![false; squares];
                self.phase = Phase::Between;
                Ok(Some(Event::Ready))
            }
            (Phase::Settings, _) => {
                let n = number(0)?;
                let s = &mut self.settings;
                let small = |n: i64| u16::try_from(n).map_err(|_| bad("a setting out of range"));
                let ms = |n: i64| u32::try_from(n).map_err(|_| bad("a time out of range"));
                match key {
                    "loadtime" => s.loadtime = ms(n)?,
                    "turntime" => s.turntime = ms(n)?,
                    "rows" => s.rows = small(n)?,
                    "cols" => s.cols = small(n)?,
                    "turns" => s.turns = small(n)?,
                    "viewradius2" => s.viewradius2 = small(n)?,
                    "attackradius2" => s.attackradius2 = small(n)?,
                    "spawnradius2" => s.spawnradius2 = small(n)?,
                    "player_seed" => s.player_seed = n,
                    _ => return Err(bad("a setting the protocol does not have")),
                }
                Ok(None)
            }
            (Phase::Between, "turn") => {
                let n = number(0)?;
                self.turn = u32::try_from(n.saturating_sub(1)).map_err(|_| bad("turn 0 again"))?;
                self.clear();
                self.phase = Phase::Turn;
                Ok(None)
            }
            (Phase::Between, "end") => {
                self.clear();
                self.phase = Phase::End;
                Ok(None)
            }
            (Phase::Between, _) => Err(bad("expected `turn N` or `end`")),
            (Phase::Turn | Phase::End, "go") => {
                if self.phase == Phase::End {
                    self.phase = Phase::Done;
                    return Ok(Some(Event::End));
                }
                self.phase = Phase::Between;
                Ok(Some(Event::Turn))
            }
            (Phase::End, "players" | "score" | "status" | "playerturns") => Ok(None),
            (Phase::Turn | Phase::End, "w" | "f" | "a" | "h" | "d") => self.fact(key, &args, line),
            (Phase::Turn | Phase::End, _) => Err(bad("a line the protocol does not have")),
            (Phase::Done, _) => Err(bad("a line after the end")),
        }
    }

    fn clear(&mut self) {
        self.ants.clear();
        self.food.clear();
        self.hills.clear();
        self.dead.clear();
    }

    /// A `w`, `f`, `a`, `h` or `d` line.
    fn fact(&mut self, key: &str, args: &[&str], line: u64) -> Result<Option<Event>, Error> {
        let bad = |what| Error::Bad { line, what };
        let owned = matches!(key, "a" | "h" | "d");
        if args.len() != if owned { 3 } else { 2 } {
            return Err(bad("a map line of the wrong length"));
        }
        let at = |i: usize| args.get(i).and_then(|a| a.parse::<usize>().ok());
        let (Some(row), Some(col)) = (at(0), at(1)) else {
            return Err(bad("a row or column that is not a whole number"));
        };
        let (rows, cols) = (
            usize::from(self.settings.rows),
            usize::from(self.settings.cols),
        );
        if row >= rows || col >= cols {
            return Err(bad("a square off the map"));
        }
        let sq = u16::try_from(row * cols + col).map_err(|_| bad("a map over 65,536 squares"))?;
        if !owned {
            match key {
                "w" => {
                    if let Some(w) = self.water.get_mut(usize::from(sq)) {
                        *w = true;
                    }
                }
                _ => self.food.push(Food {
                    id: 0,
                    sq,
                    start_turn: 0,
                }),
            }
            return Ok(None);
        }
        let owner = at(2)
            .filter(|&o| o < MAX_PLAYERS)
            .ok_or(bad("an owner that is no player"))?;
        self.players = self.players.max(owner + 1);
        // `owner < MAX_PLAYERS`, 10.
        let owner = owner as u8;
        match key {
            "a" => self.ants.push(Ant {
                id: 0,
                sq,
                owner,
                spawn_turn: 0,
                order: 0,
            }),
            "h" => self.hills.push(Hill {
                sq,
                owner,
                last_touched: 0,
                end_turn: None,
                killed_by: None,
                raze_points: false,
            }),
            _ => self.dead.push(DeadAnt {
                id: 0,
                sq,
                owner,
                order: 0,
            }),
        }
        Ok(None)
    }

    /// What the protocol has said so far, for a view.
    pub fn sight(&self) -> Sight<'_> {
        let s = &self.settings;
        Sight {
            turn: self.turn,
            rows: s.rows,
            cols: s.cols,
            players: self.players,
            turns: s.turns,
            viewradius2: s.viewradius2,
            attackradius2: s.attackradius2,
            spawnradius2: s.spawnradius2,
            player_seed: s.player_seed,
            water: &self.water,
            ants: &self.ants,
            food: &self.food,
            hills: &self.hills,
            dead: &self.dead,
            finished: self.phase == Phase::Done,
        }
    }
}

/// Plays `bot` over the official protocol on `input` and `output` until `end` (or the input
/// ends). Returns the turns answered.
pub fn play<
    B,
    R,
    W,
    const SQ: usize,
    const A: usize,
    const F: usize,
    const H: usize,
    const O: usize,
>(
    bot: &mut B,
    input: R,
    mut output: W,
) -> Result<u64, Error>
where
    B: Bot<AntsGame<SQ, A, F, H, O>>,
    R: BufRead,
    W: Write,
{
    let mut lines = Lines::new(input);
    let mut reader = Reader::new();
    let mut turns = 0;
    let mut answer = String::new();
    while let Some((line, text)) = lines.next()? {
        match reader.feed(text, line)? {
            None => {}
            Some(Event::Ready) => send(&mut output, "go")?,
            Some(Event::Turn) => {
                let sight = reader.sight();
                let view: AntsView<'_, SQ, A, F, H, O> = AntsView::from_sight(&sight, 0);
                let orders = bot.act(&view);
                answer.clear();
                for o in &orders {
                    let dir = char::from(o.dir.letter().to_ascii_uppercase());
                    let _ = writeln!(answer, "o {} {} {dir}", o.row, o.col);
                }
                answer.push_str("go");
                send(&mut output, &answer)?;
                turns += 1;
            }
            Some(Event::End) => break,
        }
    }
    Ok(turns)
}

/// [`play`] at the desktop's capacities ([`arena_core::games::ants::Ants`]: every official map):
/// what a bot's process on the desktop plays.
pub fn play_desktop<B, R, W>(bot: &mut B, input: R, output: W) -> Result<u64, Error>
where
    B: Bot<arena_core::games::ants::Ants>,
    R: BufRead,
    W: Write,
{
    play(bot, input, output)
}
