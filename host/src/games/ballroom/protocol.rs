//! The reference protocol over any line connection: the phase message before every step, one
//! reply line, `fin` at the end. A bot the engine has dropped hears nothing more.
//!
//! The deadline is the official engine's: it reads the seats in order, each with its own 2 s
//! socket time-out that starts when the previous seat's read ended ([`Clock::previous`]); a reply
//! that arrived before then is read at once. So a seat that answers 2.8 s after the phase message
//! is in time if the seat before it took 1.7 s.

use super::json::{parse_reply, phase_message};
use crate::game::End;
use crate::process::{Fault, Limits, Lines};
use crate::protocol::{preview, Answer, Budget, Clock, Protocol};
use arena_core::games::ballroom::{Action, Ballroom, Phase, Sent};
use arena_core::Seat;

/// An external bot spoken to as the official engine spoke to it: the phase message, one reply line,
/// `fin` at the end.
pub struct Reference {
    conn: Box<dyn Lines>,
    budget: Budget,
    /// The action the rules play for the last unreadable reply.
    instead: Option<Action>,
    /// Whether the last `ask` sent anything (a dropped or finished seat is not asked).
    asked: bool,
}

impl Reference {
    /// The reference protocol over `conn`, its time bank under `limits`.
    pub fn new(conn: Box<dyn Lines>, limits: Limits) -> Self {
        Reference {
            conn,
            budget: Budget::new(limits),
            instead: None,
            asked: false,
        }
    }
}

impl Protocol<Ballroom> for Reference {
    fn ask(&mut self, game: &Ballroom, seat: Seat) -> Result<(), Fault> {
        self.asked = game.phase().is_some() && game.player(seat).is_some_and(|p| p.connected);
        if self.asked {
            // Before the handshake nothing can be stale: the official engine takes the first
            // line a bot sent, even before `wake`, for its class (garbage there is a parse
            // error, a class sent early is the bot's class).
            if game.phase() != Some(Phase::Class) {
                let _ = self.conn.discard_stale();
            }
            for line in phase_message(game, seat).lines() {
                self.conn.send(line)?;
            }
        }
        Ok(())
    }

    fn answer(
        &mut self,
        game: &Ballroom,
        _seat: Seat,
        clock: &Clock,
    ) -> Result<Answer<Sent>, Fault> {
        let Some(phase) = game.phase().filter(|_| self.asked) else {
            return Ok(Answer::of(Action::Pass.into()));
        };
        let line = self.budget.read(self.conn.as_mut(), clock.previous)?.text;
        let sent = parse_reply(phase, &line).map_err(|f| {
            self.instead = Some(f.action());
            Fault::Garbage {
                why: format!("{f}: {}", preview(&line)),
            }
        })?;
        // `null` is how the reference reads a time-out or a closed socket: it drops the bot. Said
        // on purpose it is the same, and the report names it.
        if sent.action == Action::Null {
            self.instead = Some(Action::Null);
            return Err(Fault::Garbage {
                why: "answered null: the reference drops such a bot".into(),
            });
        }
        // A bot acts for its own seat only (rules decision 2): the `executor` it names is ignored
        // and the action is its own seat's (the reference trusted it and acted for that seat).
        // The result flags it sent stand where the engine's judgement does not set them.
        Ok(Answer::of(sent))
    }

    /// A time-out or a lost connection drops the bot (the reference's `null`); an unreadable reply
    /// plays what the reference plays for it.
    fn fault_move(&mut self, _game: &Ballroom, _seat: Seat, _fault: &Fault) -> Sent {
        self.instead.take().unwrap_or(Action::Null).into()
    }

    fn max_faults(&self) -> u32 {
        1
    }

    fn finish(&mut self, game: &Ballroom, seat: Seat, _end: &End<'_>) {
        if game.player(seat).is_some_and(|p| p.connected) {
            let _ = self.conn.send("fin");
        }
    }

    fn close(&mut self) {
        self.conn.close();
    }
}
