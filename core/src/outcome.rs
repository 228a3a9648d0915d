//! How a game ended: ranks, scores and the reason, for any number of seats.

use crate::seat::{Seat, MAX_SEATS};

/// The result of a finished game.
///
/// `rank[s]` is 0 for the winner(s); seats that tie share a rank (standard competition ranking:
/// 0, 1, 1, 3). `score[s]` is the game's own score (life, points, turns lasted...), signed so that
/// every game fits. `reason` says why the game ended, in words a match report can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Outcome {
    /// Seats at the table.
    pub seats: u8,
    /// Each seat's rank: 0 for the winner(s), ties sharing a rank.
    pub rank: [u8; MAX_SEATS],
    /// Each seat's score in the game's own measure.
    pub score: [i64; MAX_SEATS],
    /// Why the game ended, in words.
    pub reason: &'static str,
}

impl Outcome {
    /// An outcome ranked by `score`, higher is better, ties sharing a rank.
    pub fn by_score(seats: usize, score: &[i64], reason: &'static str) -> Outcome {
        let n = seats.min(MAX_SEATS).min(score.len());
        let mut out = Outcome {
            seats: n as u8,
            rank: [0; MAX_SEATS],
            score: [0; MAX_SEATS],
            reason,
        };
        let score = score.get(..n).unwrap_or_default();
        for ((slot, rank), &mine) in out.score.iter_mut().zip(out.rank.iter_mut()).zip(score) {
            *slot = mine;
            *rank = score.iter().filter(|&&o| o > mine).count() as u8;
        }
        out
    }

    /// The single winner, or `None` for a shared first place (a draw).
    pub fn winner(&self) -> Option<Seat> {
        let mut firsts = self
            .ranks()
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r == 0)
            .map(|(s, _)| s);
        match (firsts.next(), firsts.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }

    /// Whether no single seat won.
    pub fn is_draw(&self) -> bool {
        self.winner().is_none()
    }

    /// The ranks of the seats at the table.
    pub fn ranks(&self) -> &[u8] {
        self.rank.get(..self.seats as usize).unwrap_or_default()
    }

    /// The scores of the seats at the table.
    pub fn scores(&self) -> &[i64] {
        self.score.get(..self.seats as usize).unwrap_or_default()
    }
}

/// How many numbers a ranking compares per seat before its tie-break (at most two in every game,
/// e.g. life, then gold).
pub const DECISION_KEYS: usize = 2;

/// Why a finished game ranked its seats as it did: the rule, the numbers it compared, who was
/// defeated and when. An [`Outcome`] says *who* won; a report that says only that leaves a reader
/// guessing (a win at 0 to 0 life, a 299 ranked below a 103), so each game states its reasons here
/// and the host's reports and the board's result screen print them through [`Decision::verdict`],
/// [`Decision::rule`] and [`Decision::seat`]: the wording is written once, here. Built from the
/// state after the ranking is made: nothing here feeds back into the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Seats at the table.
    pub seats: u8,
    /// As in [`Outcome::rank`].
    pub rank: [u8; MAX_SEATS],
    /// The ranking rule in words, for a game whose rule is not "the numbers, in order" (Siege).
    /// Empty: [`Decision::rule`] says it from `keys`.
    pub rule: &'static str,
    /// A seat not defeated ranks above every defeated one, whatever the numbers.
    pub survivors_first: bool,
    /// The names of the numbers compared, in order, higher first; `""` for an unused key.
    pub keys: [&'static str; DECISION_KEYS],
    /// Each seat's numbers, in the order of `keys`.
    pub values: [[i64; DECISION_KEYS]; MAX_SEATS],
    /// The turn at which each seat was defeated.
    pub defeated: [Option<u32>; MAX_SEATS],
    /// What orders seats the numbers leave tied ("a seeded lot"); `""`: they share the rank.
    pub tiebreak: &'static str,
}

impl Decision {
    /// The decision behind `outcome`, with no numbers yet: the game fills `values` and `defeated`.
    pub fn of(outcome: &Outcome, keys: [&'static str; DECISION_KEYS]) -> Decision {
        Decision {
            seats: outcome.seats,
            rank: outcome.rank,
            rule: "",
            survivors_first: false,
            keys,
            values: [[0; DECISION_KEYS]; MAX_SEATS],
            defeated: [None; MAX_SEATS],
            tiebreak: "",
        }
    }

    /// A ranking by `outcome`'s scores alone, under the name `key`.
    pub fn by_score(outcome: &Outcome, key: &'static str) -> Decision {
        let mut d = Decision::of(outcome, [key, ""]);
        for (v, &s) in d.values.iter_mut().zip(outcome.scores()) {
            v[0] = s;
        }
        d
    }

    /// Seat `seat`'s numbers and defeat (a seat past the table is ignored).
    pub fn set(&mut self, seat: Seat, values: [i64; DECISION_KEYS], defeated: Option<u32>) {
        if let (Some(v), Some(d)) = (self.values.get_mut(seat), self.defeated.get_mut(seat)) {
            *v = values;
            *d = defeated;
        }
    }

    fn keys(&self) -> impl Iterator<Item = (usize, &'static str)> + '_ {
        self.keys
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, k)| !k.is_empty())
    }

    fn value(&self, seat: Seat, key: usize) -> i64 {
        self.values
            .get(seat)
            .and_then(|v| v.get(key))
            .copied()
            .unwrap_or(0)
    }

    fn defeat(&self, seat: Seat) -> Option<u32> {
        self.defeated.get(seat).copied().flatten()
    }

    fn ranks(&self) -> &[u8] {
        self.rank.get(..self.seats as usize).unwrap_or_default()
    }

    /// The best seat after `first` (the lowest rank, then the lowest seat): whom the winner beat.
    fn runner_up(&self, first: Seat) -> Option<Seat> {
        self.ranks()
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != first)
            .min_by_key(|&(s, &r)| (r, s))
            .map(|(s, _)| s)
    }

    /// The ranking rule, in words: "ranked by life, then gold; a tie for first is a draw".
    pub fn rule(&self) -> impl core::fmt::Display + '_ {
        Rule(self)
    }

    /// What decided first place, with the numbers: "seat 0 wins on gold, 120 to 80 (life tied
    /// at 0)", "draw: seats 1 and 3 tie on points at 12".
    pub fn verdict(&self) -> impl core::fmt::Display + '_ {
        Verdict(self)
    }

    /// Seat `seat`'s numbers and defeat: "life 0 gold 120", "score 299 defeated t312".
    pub fn seat(&self, seat: Seat) -> impl core::fmt::Display + '_ {
        SeatLine(self, seat)
    }
}

struct Rule<'a>(&'a Decision);
struct Verdict<'a>(&'a Decision);
struct SeatLine<'a>(&'a Decision, Seat);

impl core::fmt::Display for Rule<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let d = self.0;
        if !d.rule.is_empty() {
            return f.write_str(d.rule);
        }
        f.write_str("ranked by ")?;
        let mut then = "";
        if d.survivors_first {
            f.write_str("not defeated first")?;
            then = ", then ";
        }
        for (_, k) in d.keys() {
            write!(f, "{then}{k}")?;
            then = ", then ";
        }
        match d.tiebreak {
            "" => f.write_str("; a tie for first is a draw"),
            t => write!(f, "{then}{t}"),
        }
    }
}

impl core::fmt::Display for Verdict<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let d = self.0;
        let mut firsts = d.ranks().iter().enumerate().filter(|&(_, &r)| r == 0);
        let Some((w, _)) = firsts.next() else {
            return f.write_str("no ranking");
        };
        if firsts.next().is_some() {
            f.write_str("draw: seats ")?;
            let tied = d.ranks().iter().enumerate().filter(|&(_, &r)| r == 0);
            for (i, (s, _)) in tied.enumerate() {
                write!(f, "{}{s}", if i == 0 { "" } else { ", " })?;
            }
            f.write_str(" tie")?;
            for (i, (k, name)) in d.keys().enumerate() {
                let sep = if i == 0 { " on" } else { "," };
                write!(f, "{sep} {name} {}", d.value(w, k))?;
            }
            return Ok(());
        }
        write!(f, "seat {w} wins")?;
        let Some(r) = d.runner_up(w) else {
            return Ok(());
        };
        if d.survivors_first && d.defeat(w).is_none() {
            if let Some(t) = d.defeat(r) {
                return write!(f, ": seat {r} was defeated at turn {t}");
            }
        }
        if !d.rule.is_empty() {
            return Ok(());
        }
        let decisive = d.keys().find(|&(k, _)| d.value(w, k) != d.value(r, k));
        match decisive {
            Some((k, name)) => {
                write!(f, " on {name}, {} to {}", d.value(w, k), d.value(r, k))?;
                let mut tied = d.keys().take_while(|&(i, _)| i < k).peekable();
                if tied.peek().is_some() {
                    f.write_str(" (")?;
                    for (i, (j, name)) in tied.enumerate() {
                        let sep = if i == 0 { "" } else { ", " };
                        write!(f, "{sep}{name} tied at {}", d.value(w, j))?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
            None => {
                write!(f, " over seat {r} by {}", d.tiebreak)?;
                for (i, (k, name)) in d.keys().enumerate() {
                    let sep = if i == 0 { ":" } else { "," };
                    write!(f, "{sep} {name} tied at {}", d.value(w, k))?;
                }
                Ok(())
            }
        }
    }
}

impl core::fmt::Display for SeatLine<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let (d, s) = (self.0, self.1);
        let mut sep = "";
        for (k, name) in d.keys() {
            write!(f, "{sep}{name} {}", d.value(s, k))?;
            sep = " ";
        }
        if let Some(t) = d.defeat(s) {
            write!(f, "{sep}defeated t{t}")?;
        }
        Ok(())
    }
}

/// What a value shows, written as the result screen writes it: into a fixed buffer (the core's
/// tests allocate no more than the core does).
#[cfg(test)]
pub(crate) fn shown(value: impl core::fmt::Display) -> heapless::String<128> {
    let mut out = heapless::String::new();
    let written = core::fmt::Write::write_fmt(&mut out, format_args!("{value}"));
    assert!(written.is_ok(), "more than 128 bytes");
    out
}

/// Asserts what `why` says: its verdict, seat `seat.0`'s line (`seat.1`) and its rule.
#[cfg(test)]
pub(crate) fn assert_says(why: &Decision, verdict: &str, seat: (Seat, &str), rule: &str) {
    assert_eq!(shown(why.verdict()), verdict);
    assert_eq!(shown(why.seat(seat.0)), seat.1);
    assert_eq!(shown(why.rule()), rule);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_ties_and_skip() {
        let o = Outcome::by_score(4, &[5, 9, 5, 1], "test");
        assert_eq!(o.ranks(), &[1, 0, 1, 3]);
        assert_eq!(o.winner(), Some(1));
        let d = Outcome::by_score(2, &[3, 3], "test");
        assert!(d.is_draw());
    }

    #[test]
    fn a_shared_first_place_names_the_tied_seats_and_their_number() {
        let o = Outcome::by_score(5, &[7, 12, 3, 12, 9], "five rounds played");
        let why = Decision::by_score(&o, "points");
        assert_eq!(shown(why.verdict()), "draw: seats 1, 3 tie on points 12");
        assert_eq!(shown(why.seat(4)), "points 9");
    }

    #[test]
    fn a_win_on_a_survivor_rule_names_the_defeated_runner_up() {
        let o = Outcome {
            seats: 2,
            rank: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            score: [0; MAX_SEATS],
            reason: "time is up",
        };
        let mut why = Decision::of(&o, ["score", ""]);
        why.survivors_first = true;
        why.tiebreak = "a seeded lot";
        why.set(0, [299, 0], Some(312));
        why.set(1, [103, 0], None);
        assert_eq!(
            shown(why.verdict()),
            "seat 1 wins: seat 0 was defeated at turn 312"
        );
        why.set(0, [103, 0], None);
        assert_eq!(
            shown(why.verdict()),
            "seat 1 wins over seat 0 by a seeded lot: score tied at 103"
        );
    }
}
