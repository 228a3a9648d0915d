//! What each game adds for the viewer, one file per game of the registry
//! ([`arena_core::with_games!`]): its [`Viewed`](crate::Viewed), and its canonical JSON, the host's
//! own `host/src/games/<game>/json.rs` compiled in, so that a state in the viewer reads exactly as
//! a bot and `arena verify` see it. Those JSON files depend on arena-core, serde and serde_json
//! only, and must stay so (this crate is in the workspace: a change that breaks that fails its
//! build).

/// A game's canonical JSON: the host's own codec, compiled in from the file `arena` uses.
macro_rules! host_json {
    ($file:literal) => {
        #[allow(dead_code)]
        #[path = $file]
        pub mod json;
    };
}

/// [`Viewed::begin`](crate::Viewed::begin) of a game set up from its params and seed alone
/// (`Start = (Params, u64)`).
macro_rules! begin_from_params_and_seed {
    () => {
        fn begin((params, seed): &Self::Start) -> Result<Box<Self>, Error> {
            Self::new(params, *seed).map(Box::new).map_err(setup)
        }
    };
}

/// [`Viewed::play`](crate::Viewed::play) of a game stepped with one action a seat
/// (`Part = Action`): the refusals, one line per seat.
macro_rules! play_one_action_a_seat {
    () => {
        fn play(&mut self, parts: &[Self::Part]) -> Vec<String> {
            let report = self.step(parts);
            crate::refusals(&report, self.seats())
        }
    };
}

/// What every game's file uses.
mod prelude {
    pub use super::{named, setup};
    pub use crate::code::{error, Error, Reader, Writer};
    pub use crate::Viewed;
    pub use arena_core::Game;
}

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;

use crate::code::{error, Error, Reader};

/// A name read from a script that must be one of `what`'s (`from_name` of a core enum).
pub fn named<T>(r: &mut Reader<'_>, what: &str, from: fn(&str) -> Option<T>) -> Result<T, Error> {
    let name = r.str()?;
    from(&name).ok_or_else(|| error(format!("{name:?} is not a {what}")))
}

/// A setup error as a script error.
pub fn setup(e: arena_core::SetupError) -> Error {
    error(format!("the match cannot be set up: {e}"))
}
