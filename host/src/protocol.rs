//! How the engine talks to an external bot: each game's protocol adapter implements [`Protocol`]
//! over a line connection ([`Lines`]); most games use [`JsonLines`] as it is.
//!
//! A step is asked in two halves so that bots think at the same time, as in the originals: the
//! match loop first [`Protocol::ask`]s every seat that moves, then collects each
//! [`Protocol::answer`] in seat order. Each protocol reads its own deadline off the [`Clock`]:
//! from its own request (the JSON-lines games), from the moment every seat was asked (a turn time
//! all bots share), or from the previous seat's answer (an original that reads seats one by one).

use crate::game::{End, Plan, Playable};
use crate::process::{Exceeded, Fault, Limits, Line, Lines};
use arena_core::{Seat, SeatSet};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Speaking to bots: the time they get, the protocol an external bot speaks, what a bot that is
/// dropped (or missing) plays.
pub trait GameProtocol: Playable {
    /// The original's time limit for an external bot: per answer, averaged over this many answers.
    fn time_limit(params: &Self::Params) -> (Duration, u32);
    /// The conversation with an external bot at `seat` (default: JSON lines).
    fn protocol(conn: Box<dyn Lines>, plan: &Plan<Self>, _seat: Seat) -> Box<dyn Protocol<Self>> {
        Box::new(JsonLines::new(conn, plan.limits))
    }
    /// The variant, for games that have several, as the JSON-lines request names it: a bot is
    /// told which rules it plays rather than left to guess them from the state's shape.
    fn variant_name(&self) -> Option<&'static str> {
        None
    }
    /// The request line of the JSON-lines protocol for `seat`, or `None` when it is not asked
    /// now (it passes).
    fn request(&self, seat: Seat) -> Option<String> {
        let mut line =
            serde_json::json!({"turn": self.turn(), "seat": seat, "state": self.state_json(seat)});
        if let (Some(v), Some(m)) = (self.variant_name(), line.as_object_mut()) {
            m.insert("variant".into(), v.into());
        }
        Some(line.to_string())
    }
    /// What `seat` sent in this state, as an action (default: [`Playable::action_from_json`]), for
    /// games whose original read an answer differently by seat or variant.
    fn read_action(&self, _seat: Seat, value: &Value) -> Self::Action {
        Self::action_from_json(value)
    }
    /// Bots dropped before the first step.
    fn drop_at_start(&mut self, _seats: SeatSet) {}
    /// What a seat plays whose bot the engine has dropped, or that has none (default: a pass).
    fn gone_move(&self, _seat: Seat) -> Self::Move {
        Self::Move::default()
    }
    /// For games whose rules remove a player for a part of the match only (a round): which part
    /// this is. Whenever it changes between two steps, every seat whose program the engine dropped
    /// is started again, with a new protocol, and plays on; its faults stay in the report, and no
    /// drop is a disqualification. `None` (the default): a dropped bot is out for the match.
    fn rejoin_epoch(&self) -> Option<u32> {
        None
    }
}

/// When a step's requests went out and answers came in.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// When this seat was asked.
    pub asked: Instant,
    /// When the last seat of the step was asked.
    pub all_asked: Instant,
    /// When the previous seat's answer was read (`all_asked` for the first seat read).
    pub previous: Instant,
}

impl Clock {
    /// A clock for one seat asked now (tests, and protocols that read on their own).
    pub fn now() -> Clock {
        let now = Instant::now();
        Clock {
            asked: now,
            all_asked: now,
            previous: now,
        }
    }
}

/// A bot's answer: what it plays, and what it got wrong without losing the answer (lines of a
/// many-line answer that could not be read, late lines thrown away before it). Each note is
/// reported; those that are refusals ([`Fault::is_refusal`]) count as refused actions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer<M> {
    /// What the bot plays this step.
    pub mv: M,
    /// What it got wrong without losing the answer, each reported with the step.
    pub notes: Vec<Fault>,
}

impl<M> Answer<M> {
    /// An answer of `mv` with nothing to report.
    pub fn of(mv: M) -> Self {
        Answer {
            mv,
            notes: Vec::new(),
        }
    }
}

/// A game's conversation with one external bot.
pub trait Protocol<G: Playable> {
    /// Before the first step: what the bot is told (the game's settings, in some protocols).
    fn hello(&mut self, _game: &G, _seat: Seat) -> Result<(), Fault> {
        Ok(())
    }
    /// Before the first step, after every seat's `hello`: the bot says it is ready.
    fn ready(&mut self, _game: &G, _seat: Seat, _clock: &Clock) -> Result<(), Fault> {
        Ok(())
    }
    /// Sends what the bot needs to move now.
    fn ask(&mut self, game: &G, seat: Seat) -> Result<(), Fault>;
    /// Reads the answer to the last `ask`.
    fn answer(&mut self, game: &G, seat: Seat, clock: &Clock) -> Result<Answer<G::Move>, Fault>;
    /// What is played for a seat whose answer was lost to `fault` (default: a pass).
    fn fault_move(&mut self, _game: &G, _seat: Seat, _fault: &Fault) -> G::Move {
        G::Move::default()
    }
    /// Faults after which the engine drops the bot.
    fn max_faults(&self) -> u32;
    /// The seat is out, or the game is over: say goodbye if the protocol has a way to.
    fn finish(&mut self, _game: &G, _seat: Seat, _end: &End<'_>) {}
    /// Ends the connection: kills and reaps the process behind it.
    fn close(&mut self);
}

/// The time bank of the JSON-lines games: every window of `window` answers gives `window *
/// per_turn` to spend, which is how the original challenges stated their limits ("10 ms per turn
/// on average over 100 turns"); the first answer also gets the start-up allowance (interpreters
/// take a while to start).
#[derive(Clone, Debug)]
pub struct Budget {
    limits: Limits,
    bank: Duration,
    answers: u32,
    started: bool,
}

impl Budget {
    /// A bank under `limits`, empty until the first answer is opened.
    pub fn new(limits: Limits) -> Self {
        Budget {
            limits,
            bank: Duration::ZERO,
            answers: 0,
            started: false,
        }
    }

    /// The limits the bank is kept under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Opens the next answer: its deadline for a request sent at `asked` (`None`: no limit).
    pub fn open(&mut self, asked: Instant) -> Option<Instant> {
        let window = self.limits.window.max(1);
        if self.answers.is_multiple_of(window) {
            self.bank = self.limits.per_turn * window;
        }
        self.answers = self.answers.wrapping_add(1);
        let mut allowance = self.bank;
        if !self.started {
            allowance += self.limits.startup;
        }
        (!self.limits.no_timeout).then(|| asked + allowance)
    }

    /// Charges the answer to a request sent at `asked` that came at `done` (or was given up then).
    pub fn charge(&mut self, asked: Instant, done: Instant) {
        let spent = done.saturating_duration_since(asked);
        if self.started {
            self.bank = self.bank.saturating_sub(spent);
        } else {
            self.bank = self
                .bank
                .saturating_sub(spent.saturating_sub(self.limits.startup));
            self.started = true;
        }
    }

    /// Reads one line for a request sent at `asked`, charging the time it took.
    pub fn read(&mut self, conn: &mut dyn Lines, asked: Instant) -> Result<Line, Fault> {
        let deadline = self.open(asked);
        let got = conn.recv_until(deadline);
        let done = match &got {
            Ok(line) => line.at,
            Err(_) => Instant::now(),
        };
        self.charge(asked, done);
        got.map_err(|f| self.explain(f))
    }

    /// A time-out of the answer just charged, with the limit it went over.
    pub fn explain(&self, fault: Fault) -> Fault {
        let Fault::Timeout { waited_ms, .. } = fault else {
            return fault;
        };
        let ms = |d: Duration| d.as_millis().min(u128::from(u64::MAX)) as u64;
        let window = self.limits.window.max(1);
        let over = if window == 1 {
            Exceeded::PerAnswer {
                ms: ms(self.limits.per_turn),
            }
        } else {
            let into = self.answers.saturating_sub(1) % window;
            Exceeded::Average {
                per_turn_ms: ms(self.limits.per_turn),
                window,
                first: self.answers.saturating_sub(into),
                spent_ms: ms((self.limits.per_turn * window).saturating_sub(self.bank)),
            }
        };
        Fault::Timeout {
            waited_ms,
            over: Some(over),
        }
    }
}

/// The protocol of the games whose bots speak JSON lines: one request line ([`GameProtocol::request`])
/// when the seat is to move, one action line back in the game's canonical action JSON (`null` to
/// pass).
///
/// Answers carry no turn number, so the protocol counts the answers it is owed: a request that
/// timed out is still owed one, and the first line after it (whenever it comes: before the next
/// request, or while the next answer is awaited) is that late answer. It is thrown away and
/// reported ([`Fault::Late`]), never taken as the answer to a later request.
pub struct JsonLines {
    conn: Box<dyn Lines>,
    budget: Budget,
    asked: Option<Instant>,
    /// Answers owed to requests that timed out.
    owed: u32,
    /// Late lines thrown away before the current request was sent, to report with its answer.
    late: Vec<Fault>,
}

impl JsonLines {
    /// The JSON-lines protocol over `conn`, its time bank under `limits`.
    pub fn new(conn: Box<dyn Lines>, limits: Limits) -> Self {
        JsonLines {
            conn,
            budget: Budget::new(limits),
            asked: None,
            owed: 0,
            late: Vec::new(),
        }
    }

    /// A late line, as reported.
    fn late(text: &str) -> Fault {
        Fault::Late {
            line: preview(text),
        }
    }

    /// Reads the answer to the request sent at `asked`, throwing away the late answers owed to
    /// earlier requests first; a time-out leaves this answer owed.
    fn read_answer(&mut self, asked: Instant) -> (Result<Line, Fault>, Vec<Fault>) {
        let mut late = std::mem::take(&mut self.late);
        let deadline = self.budget.open(asked);
        let got = loop {
            match self.conn.recv_until(deadline) {
                Ok(line) if self.owed > 0 => {
                    self.owed -= 1;
                    late.push(JsonLines::late(&line.text));
                }
                other => break other,
            }
        };
        let done = match &got {
            Ok(line) => line.at,
            Err(_) => Instant::now(),
        };
        self.budget.charge(asked, done);
        if let Err(Fault::Timeout { .. }) = got {
            self.owed = self.owed.saturating_add(1);
        }
        (got.map_err(|f| self.budget.explain(f)), late)
    }
}

impl<G: GameProtocol> Protocol<G> for JsonLines
where
    G::Move: From<G::Action>,
{
    fn ask(&mut self, game: &G, seat: Seat) -> Result<(), Fault> {
        self.asked = None;
        let Some(request) = game.request(seat) else {
            return Ok(());
        };
        // Lines that came in since the last answer: late answers owed to requests that timed out
        // (reported with the next answer), or lines nobody asked for (dropped).
        let stale = self.conn.discard_stale() as u32;
        let late = stale.min(self.owed);
        self.owed -= late;
        for _ in 0..late {
            self.late
                .push(JsonLines::late("(arrived before the next request)"));
        }
        self.conn.send(&request)?;
        self.asked = Some(Instant::now());
        Ok(())
    }

    fn answer(&mut self, game: &G, seat: Seat, _clock: &Clock) -> Result<Answer<G::Move>, Fault> {
        // A seat that was not asked (a bot still busy with its last move) passes.
        let Some(asked) = self.asked.take() else {
            return Ok(Answer::default());
        };
        let (got, notes) = self.read_answer(asked);
        // Late lines thrown away before a fault are reported with the next answer.
        let line = got.inspect_err(|_| self.late.extend(notes.iter().cloned()))?;
        let value: serde_json::Value = match serde_json::from_str(line.text.trim()) {
            Ok(v) => v,
            Err(e) => {
                self.late.extend(notes);
                return Err(Fault::Garbage {
                    why: format!("{e}: {}", preview(&line.text)),
                });
            }
        };
        Ok(Answer {
            mv: game.read_action(seat, &value).into(),
            notes,
        })
    }

    fn max_faults(&self) -> u32 {
        self.budget.limits().max_faults
    }

    fn close(&mut self) {
        self.conn.close();
    }
}

/// The first characters of a line, for a report.
pub fn preview(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if s.len() < line.len() {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::BotProcess;

    #[test]
    fn the_bank_averages_over_the_window() {
        let limits = Limits {
            startup: Duration::ZERO,
            per_turn: Duration::from_millis(100),
            window: 4,
            ..Limits::default()
        };
        // One slow answer (250 ms) fits in a bank of 4 x 100 ms; the next three share what is left.
        let mut bot = BotProcess::spawn(
            "read a; sleep 0.25; echo 1; while read a; do echo $a; done",
            None,
            limits,
        )
        .unwrap();
        let mut budget = Budget::new(limits);
        bot.send("a").unwrap();
        assert_eq!(budget.read(&mut bot, Instant::now()).unwrap().text, "1");
        bot.send("b").unwrap();
        assert_eq!(budget.read(&mut bot, Instant::now()).unwrap().text, "b");
        // Charged from the request to the line's arrival, not to when the engine got round to
        // reading: the engine reads half a second late (an echo arrives well before that even on
        // a loaded machine), and the line still carries the moment it came.
        let asked = Instant::now();
        bot.send("c").unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let reading = Instant::now();
        let line = budget.read(&mut bot, asked).unwrap();
        assert_eq!(line.text, "c");
        assert!(line.at < reading, "stamped when read, not when it came");
    }

    #[test]
    fn a_time_out_names_the_limit_it_went_over() {
        let ms = Duration::from_millis;
        let mut budget = Budget::new(Limits {
            startup: Duration::ZERO,
            per_turn: ms(10),
            window: 100,
            ..Limits::default()
        });
        // 51 answers of 20 ms spend the window's 1,000 ms: the 51st finds nothing left.
        let t0 = Instant::now();
        for _ in 0..51 {
            budget.open(t0);
            budget.charge(t0, t0 + ms(20));
        }
        let timeout = Fault::Timeout {
            waited_ms: 0,
            over: None,
        };
        assert_eq!(
            budget.explain(timeout.clone()).to_string(),
            "time-out: over the 10 ms average of 100 turns (1,000 ms for answers 1-100): \
             1,000 ms spent, waited 0 ms"
        );
        let mut each = Budget::new(Limits {
            per_turn: ms(2_500),
            window: 1,
            ..Limits::default()
        });
        each.open(t0);
        each.charge(t0, t0 + ms(2_500));
        assert_eq!(
            each.explain(timeout).to_string(),
            "time-out: over the 2,500 ms limit per answer, waited 0 ms"
        );
        assert_eq!(crate::process::thousands(1_234_567), "1,234,567");
        assert_eq!(crate::process::thousands(999), "999");
    }

    #[test]
    fn without_a_limit_there_is_no_deadline() {
        let mut budget = Budget::new(Limits {
            no_timeout: true,
            ..Limits::default()
        });
        assert_eq!(budget.open(Instant::now()), None);
        let mut budget = Budget::new(Limits {
            startup: Duration::from_secs(2),
            per_turn: Duration::from_millis(10),
            window: 100,
            ..Limits::default()
        });
        let now = Instant::now();
        assert_eq!(budget.open(now), Some(now + Duration::from_millis(3000)));
    }
}
