//! The official protocol (`worker/engine.py`): the start block and `ready`, each turn's view up to
//! `go` and the orders back up to `go`, all bots thinking at the same time under one deadline;
//! `end` with the scores. A bot that times out or crashes is killed (its ants stay and stop).

use super::feed::{end_scores, SeatFeed};
use crate::game::{End, Finish, Standing};
use crate::process::{Exceeded, Fault, Lines};
use crate::protocol::{preview, Answer, Clock, Protocol};
use arena_core::games::ants::{parse_order, Ants, Order, OrderError, HOST_ORDERS};
use arena_core::{Seat, SeatSet};
use std::time::{Duration, Instant};

/// Order lines kept per bot per turn (the official engine reads at most 40,000 after the deadline).
pub const MAX_LINES: usize = 40_000;

/// The orders of one answer, with the line each came from, and the lines refused while parsing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotAnswer {
    /// The orders read, in the order they came.
    pub orders: Vec<Order>,
    /// `lines[i]` is the (stripped) line `orders[i]` was read from.
    pub lines: Vec<String>,
    /// Lines refused by the parser, with the official reason.
    pub invalid: Vec<(String, OrderError)>,
    /// Whether `go` was seen.
    pub complete: bool,
}

impl BotAnswer {
    /// Reads lines until `go` (case-insensitive, stripped), as `get_moves` does.
    pub fn read<'a>(lines: impl IntoIterator<Item = &'a str>) -> BotAnswer {
        let mut a = BotAnswer::default();
        for raw in lines {
            let line = raw.trim();
            if line.eq_ignore_ascii_case("go") {
                a.complete = true;
                break;
            }
            match parse_order(line) {
                Ok(Some(o)) => {
                    a.orders.push(o);
                    a.lines.push(line.to_lowercase());
                }
                Ok(None) => {}
                Err(why) => a.invalid.push((line.to_lowercase(), why)),
            }
        }
        a
    }

    /// The official log line for a refused order: `"<line> # <reason>"`.
    pub fn describe(line: &str, why: OrderError) -> String {
        format!("{line} # {}", why.reason())
    }
}

/// The official conversation with one bot.
pub struct Official {
    conn: Box<dyn Lines>,
    feed: Option<SeatFeed>,
    /// Time to answer `ready` and each turn, in milliseconds (`None`: no limit).
    loadtime: Option<u32>,
    turntime: Option<u32>,
}

impl Official {
    /// The playgame.py protocol over `conn`: `loadtime` to answer `ready`, `turntime` each turn, in
    /// milliseconds (`None`: no limit).
    pub fn new(conn: Box<dyn Lines>, loadtime: Option<u32>, turntime: Option<u32>) -> Self {
        Official {
            conn,
            feed: None,
            loadtime,
            turntime,
        }
    }

    fn send(&mut self, text: &str) -> Result<(), Fault> {
        self.conn.send(text.trim_end_matches('\n'))
    }

    fn feed(&mut self, game: &Ants, seat: Seat) -> &mut SeatFeed {
        self.feed.get_or_insert_with(|| SeatFeed::new(game, seat))
    }

    /// Reads lines until `go` or the deadline, as `get_moves` does: what was already written is
    /// read after the deadline too (as the engine's last read does), but a bot that floods without
    /// `go` is late, not an endless loop.
    fn collect(&mut self, from: Instant, ms: Option<u32>) -> Result<Answer<BotAnswer>, Fault> {
        let deadline = ms.map(|ms| from + Duration::from_millis(u64::from(ms)));
        let timeout = || Fault::Timeout {
            waited_ms: from.elapsed().as_millis() as u64,
            over: ms.map(|ms| Exceeded::PerAnswer { ms: u64::from(ms) }),
        };
        let mut lines = Vec::new();
        let mut notes = Vec::new();
        let mut late = 0;
        loop {
            if deadline.is_some_and(|d| Instant::now() > d) {
                late += 1;
                if late > MAX_LINES {
                    return Err(timeout());
                }
            }
            match self.conn.recv_until(deadline) {
                Ok(line) if line.text.trim().eq_ignore_ascii_case("go") => break,
                Ok(line) => {
                    if lines.len() < MAX_LINES {
                        lines.push(line.text);
                    }
                }
                Err(f @ (Fault::LineTooLong { .. } | Fault::BadUtf8 | Fault::Garbage { .. })) => {
                    if notes.len() < MAX_LINES {
                        notes.push(f)
                    }
                }
                Err(Fault::Timeout { .. }) => return Err(timeout()),
                Err(f) => return Err(f),
            }
        }
        let answer = BotAnswer::read(lines.iter().map(String::as_str));
        notes.extend(answer.invalid.iter().map(|(line, why)| invalid(line, *why)));
        Ok(Answer { mv: answer, notes })
    }
}

/// A refused order as the report shows it: the line and the official reason.
pub fn invalid(line: &str, why: OrderError) -> Fault {
    Fault::Invalid {
        why: BotAnswer::describe(&preview(line), why),
        reason: why.reason(),
    }
}

/// The status the official engine gives a seat, and the last turn it played.
pub fn status(s: &Standing) -> (&'static str, u32) {
    match (&s.dropped, s.out) {
        (Some((t, Fault::Timeout { .. })), _) => ("timeout", *t),
        (Some((t, _)), _) => ("crashed", *t),
        (None, Some(t)) => ("eliminated", t),
        (None, None) => ("survived", s.last_turn),
    }
}

impl Protocol<Ants> for Official {
    fn hello(&mut self, game: &Ants, seat: Seat) -> Result<(), Fault> {
        self.feed(game, seat);
        self.send(&SeatFeed::start_text(game))
    }

    fn ready(&mut self, _game: &Ants, _seat: Seat, clock: &Clock) -> Result<(), Fault> {
        self.collect(clock.all_asked, self.loadtime).map(drop)
    }

    fn ask(&mut self, game: &Ants, seat: Seat) -> Result<(), Fault> {
        let text = self.feed(game, seat).turn_text(game);
        self.send(&text)
    }

    fn answer(
        &mut self,
        _game: &Ants,
        _seat: Seat,
        clock: &Clock,
    ) -> Result<Answer<BotAnswer>, Fault> {
        self.collect(clock.all_asked, self.turntime)
    }

    fn max_faults(&self) -> u32 {
        1
    }

    fn finish(&mut self, game: &Ants, seat: Seat, end: &End<'_>) {
        let scores = end_scores(game, end.why == Finish::Over);
        let (status, turns): (Vec<String>, Vec<u32>) = end
            .standings
            .iter()
            .map(|s| {
                let (status, turn) = status(s);
                (status.to_string(), turn)
            })
            .unzip();
        let text = self
            .feed(game, seat)
            .end_text(game, &scores, &status, &turns);
        let _ = self.send(&text);
    }

    fn close(&mut self) {
        self.conn.close();
    }
}

/// The orders of a built-in bot, as the answer an external bot would give.
impl From<heapless::Vec<Order, HOST_ORDERS>> for BotAnswer {
    fn from(orders: heapless::Vec<Order, HOST_ORDERS>) -> Self {
        builtin_answer(&orders)
    }
}

/// The orders an answer gives, as far as a board's capacity holds them.
impl From<BotAnswer> for heapless::Vec<Order, HOST_ORDERS> {
    fn from(answer: BotAnswer) -> Self {
        answer.orders.into_iter().take(HOST_ORDERS).collect()
    }
}

/// The orders of a built-in bot as the answer an external one would give.
pub fn builtin_answer(orders: &[Order]) -> BotAnswer {
    BotAnswer {
        lines: orders
            .iter()
            .map(|o| format!("o {} {} {}", o.row, o.col, o.dir.letter() as char))
            .collect(),
        orders: orders.to_vec(),
        invalid: Vec::new(),
        complete: true,
    }
}

/// Plays one turn with these answers, killing `dropped` first; the refusals other than a blocked
/// move are noted with their line.
pub fn play_answers(
    game: &mut Ants,
    answers: &[BotAnswer],
    dropped: SeatSet,
) -> crate::game::Stepped {
    let slices: Vec<&[Order]> = answers.iter().map(|a| a.orders.as_slice()).collect();
    let mut notes = Vec::new();
    let mut reasons = Vec::new();
    let report = game.play_turn(&slices, dropped, |p, i, why| {
        reasons.push((p, why.reason()));
        if why != OrderError::MoveBlocked {
            let line = answers
                .get(p)
                .and_then(|a| a.lines.get(i))
                .map_or("?", String::as_str);
            notes.push((p, invalid(line, why)));
        }
    });
    crate::game::Stepped {
        report,
        notes,
        why: reasons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::games::ants::Dir;

    #[test]
    fn reads_until_go_and_keeps_refusals() {
        let a = BotAnswer::read(["o 1 2 N", "", "# hi", "x 1 2 n", "o 3 4 w", "GO", "o 5 5 n"]);
        assert!(a.complete);
        assert_eq!(a.orders.len(), 2);
        assert_eq!(
            a.orders[0],
            Order {
                row: 1,
                col: 2,
                dir: Dir::N
            }
        );
        assert_eq!(a.lines[1], "o 3 4 w");
        assert_eq!(
            a.invalid,
            vec![("x 1 2 n".to_string(), OrderError::UnknownAction)]
        );
        assert_eq!(
            BotAnswer::describe("x 1 2 n", OrderError::UnknownAction),
            "x 1 2 n # unknown action"
        );
    }
}
