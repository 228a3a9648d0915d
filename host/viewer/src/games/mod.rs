//! What each game adds for the viewer: one file per game, as on every layer.

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
