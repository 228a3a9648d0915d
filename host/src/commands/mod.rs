//! The `arena` subcommands, each written once for every game: they read the command line, call the
//! library, and print. The per-game subcommands are built from the registry ([`crate::games`]).

pub mod play;
pub mod render;
pub mod tournament;
pub mod verify;

use std::io::Write;

/// `arena bots`: every game and its built-in bots (the first is the default opponent).
pub fn list_bots(out: &mut dyn Write) -> std::io::Result<()> {
    for g in crate::games::GAMES {
        writeln!(out, "{:<14} {}", g.name, g.bots.join(", "))?;
        for note in g.bot_notes {
            writeln!(out, "    {note}")?;
        }
    }
    Ok(())
}
