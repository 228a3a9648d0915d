//! A match played in-process as `arena play` and `arena tournament` play it: the game set up with
//! the match's seed, each built-in bot seeded with `arena_core::rng::bot_seed(seed, seat)`, every
//! seat that is to move asked each step. With the same seed, a bot played here and the same bot
//! played as a process through this crate's adapter give the same match (what CI checks).

use arena_core::{Bot, Outcome, Roster, Seat, SetupError};

/// Who sits at a seat.
pub enum Player<'a, G: Roster> {
    /// A bot of one's own.
    Own(&'a mut dyn Bot<G>),
    /// A built-in bot, by name.
    Builtin(&'static str),
}

/// How a match played in-process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The game's turn (`Game::turn`) at the end: what `arena` reports as the match's turns.
    pub turns: u32,
    /// The outcome (`None` if `max_steps` stopped it first).
    pub outcome: Option<Outcome>,
    /// The final state's digest.
    pub digest: u64,
}

/// Why a match could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalError {
    /// The game refused its params.
    Setup(SetupError),
    /// No built-in bot of that name.
    NoSuchBot(&'static str),
}

impl core::fmt::Display for LocalError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LocalError::Setup(e) => write!(f, "the game refused its params: {e:?}"),
            LocalError::NoSuchBot(name) => write!(f, "no built-in bot `{name}`"),
        }
    }
}

impl std::error::Error for LocalError {}

/// Plays one match of `params` with `seed`, seat `i` played by `players[i]`, at most `max_steps`
/// steps.
pub fn play<G: Roster>(
    params: &G::Params,
    seed: u64,
    players: &mut [Player<'_, G>],
    max_steps: u32,
) -> Result<Played, LocalError> {
    let mut game = Box::new(G::blank());
    game.init(params, seed).map_err(LocalError::Setup)?;
    enum Seated<'a, G: Roster> {
        Own(&'a mut dyn Bot<G>),
        Builtin(G::Bot),
    }
    let mut seats: Vec<Seated<'_, G>> = Vec::with_capacity(players.len());
    for (seat, p) in players.iter_mut().enumerate() {
        seats.push(match p {
            Player::Own(bot) => Seated::Own(&mut **bot),
            Player::Builtin(name) => Seated::Builtin(
                G::bot(name, arena_core::rng::bot_seed(seed, seat))
                    .ok_or(LocalError::NoSuchBot(name))?,
            ),
        });
    }
    let mut actions: Vec<G::Action> = (0..seats.len()).map(|_| G::Action::default()).collect();
    let mut steps = 0;
    while !game.is_over() && steps < max_steps {
        let movers = game.to_move();
        for (seat, s) in seats.iter_mut().enumerate() {
            let Some(action) = actions.get_mut(seat) else {
                continue;
            };
            *action = G::Action::default();
            if !movers.contains(seat as Seat) {
                continue;
            }
            let view = game.view(seat);
            match s {
                Seated::Own(bot) => bot.act_into(&view, action),
                Seated::Builtin(bot) => bot.act_into(&view, action),
            }
        }
        game.step(&actions);
        steps += 1;
    }
    Ok(Played {
        turns: game.turn(),
        outcome: game.outcome(),
        digest: game.digest(),
    })
}
