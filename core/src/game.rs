//! The one game API every game implements, and the bot API every built-in bot implements.

use crate::digest::Digest;
use crate::outcome::{Decision, Outcome};
use crate::seat::{Seat, SeatSet, MAX_SEATS};

/// Why a game could not be set up. Small and `Copy`, like every error in the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SetupError {
    /// A parameter is out of its documented range.
    Invalid(&'static str),
    /// The parameters need more room than this build's capacity consts give.
    Capacity(&'static str),
    /// A map could not be read: 1-based line and column, and what was wrong.
    Map {
        /// The line, counted from 1.
        line: u32,
        /// The column, counted from 1.
        column: u32,
        /// What was wrong there.
        what: &'static str,
    },
}

impl core::fmt::Display for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SetupError::Invalid(what) => write!(f, "invalid parameters: {what}"),
            SetupError::Capacity(what) => write!(f, "over capacity: {what}"),
            SetupError::Map { line, column, what } => {
                write!(f, "map line {line}, column {column}: {what}")
            }
        }
    }
}

impl core::error::Error for SetupError {}

/// What a step did with the actions it was given.
///
/// Refusing an action is a rule, not an error: the seat passes instead, and the count is kept
/// for the match report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StepReport {
    /// Actions (or, for games with many orders per turn, orders) refused this step, per seat.
    pub refused: [u16; MAX_SEATS],
}

impl StepReport {
    /// Counts one refused action (or order) for `seat`; a seat out of range is not counted.
    pub fn refuse(&mut self, seat: Seat) {
        if let Some(r) = self.refused.get_mut(seat) {
            *r = r.saturating_add(1);
        }
    }

    /// Refused actions of every seat, summed.
    pub fn total_refused(&self) -> u32 {
        self.refused.iter().map(|&r| r as u32).sum()
    }
}

/// A game: its state, and the rules that move it on.
///
/// The description (`Params`) is separate from the state (`Self`). `init` (and `new`, which is
/// `blank` then `init`) validates the params and takes an explicit seed for everything random.
/// `step` takes one action per seat (seats that are not
/// in [`Game::to_move`] are ignored; missing actions are passes) and never panics, whatever the
/// actions hold. Once [`Game::outcome`] is `Some`, `step` changes nothing.
pub trait Game: Clone {
    /// The game's name on the command line and in logs: lower case, words joined by dashes.
    const NAME: &'static str;
    /// Map, variant, sizes.
    type Params: Clone;
    /// One seat's move for one turn. `Default` is the pass.
    type Action: Clone + Default + PartialEq + core::fmt::Debug;

    /// A state with no game in it yet, for [`Game::init`] to set up where it is to live (a
    /// board's match loop, the host's box): no validation, nothing random.
    fn blank() -> Self;
    /// Sets `self` up as [`Game::new`] does, in place, so that a large state is never moved
    /// through the stack. After an error `self` holds no game (init it again before use).
    fn init(&mut self, params: &Self::Params, seed: u64) -> Result<(), SetupError>;
    /// A new game: [`Game::blank`] then [`Game::init`].
    fn new(params: &Self::Params, seed: u64) -> Result<Self, SetupError> {
        let mut game = Self::blank();
        game.init(params, seed)?;
        Ok(game)
    }
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// Turns played so far.
    fn turn(&self) -> u32;
    /// Who is to move: every seat in simultaneous games, one seat in sequential games, none once over.
    fn to_move(&self) -> SeatSet;
    /// Plays one turn (or, in a sequential game, one seat's move) with one action per seat.
    fn step(&mut self, actions: &[Self::Action]) -> StepReport;
    /// How the game ended, once it is over; `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// Feed the whole state into `d`, field by field.
    fn hash_into(&self, d: &mut Digest);

    /// What one seat may know of the state, the only thing a [`Bot`] is given: the whole state in
    /// an open game ([`crate::view::Open`]), the fog of war's view in Ants, the public table in
    /// Mammut. A borrow of the state, built without allocation (no copy of the state either).
    type View<'a>
    where
        Self: 'a;

    /// Seat `seat`'s view of the state this turn.
    fn view(&self, seat: Seat) -> Self::View<'_>;

    /// A stable hash of the whole state: equal on every target for the same match.
    fn digest(&self) -> u64 {
        let mut d = Digest::new();
        self.hash_into(&mut d);
        d.finish()
    }

    /// What decided the outcome's ranking, for reports and the result screen; `None` while the
    /// game goes on. The default, for a game ranked by its scores alone, names the numbers "score".
    fn decision(&self) -> Option<Decision> {
        self.outcome().map(|o| Decision::by_score(&o, "score"))
    }

    /// Whether the game is over ([`Game::outcome`] is `Some`).
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// A bot: given what its seat may know ([`Game::View`], which knows its seat and turn), the
/// seat's action. A bot that wants memory (water seen in Ants, the hills it found) keeps it in
/// itself.
pub trait Bot<G: Game> {
    /// The action of the seat whose view `view` is.
    fn act(&mut self, view: &G::View<'_>) -> G::Action;

    /// [`Bot::act`], the action written into `out`: a match loop whose actions are large (Ants'
    /// orders) calls this, so that a bot that overrides it writes its action where the loop holds
    /// it, with no copy of it on the stack.
    fn act_into(&mut self, view: &G::View<'_>, out: &mut G::Action) {
        *out = self.act(view);
    }
}

/// A borrowed bot is a bot: a built-in bot and a user's bot sit in one match as
/// `&mut dyn Bot<G>`s (or any mix of `&mut B`).
impl<G: Game, B: Bot<G> + ?Sized> Bot<G> for &mut B {
    fn act(&mut self, view: &G::View<'_>) -> G::Action {
        (**self).act(view)
    }
    fn act_into(&mut self, view: &G::View<'_>, out: &mut G::Action) {
        (**self).act_into(view, out)
    }
}

/// The built-in bots of a game, by name. Every built-in bot is deterministic for its seed.
pub trait Roster: Game {
    /// The type of every built-in bot of the game (one enum over the styles).
    type Bot: Bot<Self>;
    /// Names accepted by [`Roster::bot`], the first being the default opponent.
    const BOTS: &'static [&'static str];
    /// The bot named `name`, seeded with `seed`; `None` for a name not in [`Roster::BOTS`].
    fn bot(name: &str, seed: u64) -> Option<Self::Bot>;

    /// One step played by `bots` (one per seat, in seat order), as [`step_with_bots`] plays it:
    /// the bots of the seats to move decide, each between `on(Moment::Acting(seat))` and
    /// `on(Moment::Acted(seat))`, then `on(Moment::Decided)`, then the rules step (a board's match
    /// loop times each seat's bot and the rules apart). Only the first `N` seats act,
    /// the others pass: `N` bounds the room the actions take, all held at once on the caller's
    /// stack. A game whose actions are large overrides this to hold less (Ants: one buffer of
    /// orders for every seat together).
    fn step_bots<const N: usize, B: Bot<Self>>(
        &mut self,
        bots: &mut [B],
        mut on: impl FnMut(Moment),
    ) -> StepReport {
        let mut actions: heapless::Vec<Self::Action, N> = heapless::Vec::new();
        decide(self, bots, &mut actions, &mut on);
        on(Moment::Decided);
        step_alone(self, &actions)
    }
}

/// Where a turn played by [`Roster::step_bots`] is, told to its caller: a board's match loop reads
/// its clock at each, to time every seat's bot apart from the others and from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The bot of this seat is about to decide (its view not built yet).
    Acting(Seat),
    /// The bot of this seat has decided (its action held where the rules will take it).
    Acted(Seat),
    /// Every seat has decided; the rules step next.
    Decided,
}

/// Every seat's action from its bot (the pass for seats not to move or without a bot), for the
/// first `N` seats. Out of line, like [`step_alone`]: a board's match loop does not reserve the
/// bots' working memory and the rules' in one frame.
#[inline(never)]
fn decide<G: Game, B: Bot<G>, const N: usize>(
    game: &G,
    bots: &mut [B],
    actions: &mut heapless::Vec<G::Action, N>,
    on: &mut impl FnMut(Moment),
) {
    let movers = game.to_move();
    for seat in 0..game.seats().min(N) {
        let action = match bots.get_mut(seat) {
            Some(bot) if movers.contains(seat) => {
                on(Moment::Acting(seat));
                let action = bot.act(&game.view(seat));
                on(Moment::Acted(seat));
                action
            }
            _ => G::Action::default(),
        };
        // Cannot fail: at most N pushes.
        let _ = actions.push(action);
    }
}

/// The rules' step, out of line (see [`decide`]).
#[inline(never)]
fn step_alone<G: Game>(game: &mut G, actions: &[G::Action]) -> StepReport {
    game.step(actions)
}

/// Plays one step with one bot per seat: what a match loop does each turn.
pub fn step_with_bots<G: Game, B: Bot<G>>(game: &mut G, bots: &mut [B]) -> StepReport {
    let mut actions: heapless::Vec<G::Action, MAX_SEATS> = heapless::Vec::new();
    decide(game, bots, &mut actions, &mut |_| ());
    game.step(&actions)
}

#[cfg(test)]
mod tests {
    use super::SetupError;
    use core::fmt::Write as _;

    /// What `error` displays, written without allocating (the core's tests keep to `no_std` too).
    fn shown(error: &dyn core::error::Error) -> heapless::String<64> {
        let mut text = heapless::String::new();
        let _ = write!(text, "{error}");
        text
    }

    #[test]
    fn setup_errors_are_errors_that_say_what_went_wrong() {
        let map = SetupError::Map {
            line: 3,
            column: 7,
            what: "unknown square",
        };
        let error: &dyn core::error::Error = &map;
        assert!(error.source().is_none());
        assert_eq!(shown(error), "map line 3, column 7: unknown square");
        let error: &dyn core::error::Error = &SetupError::Capacity("too many seats");
        assert_eq!(shown(error), "over capacity: too many seats");
    }
}
