//! The `arena` subcommands, each written once for every game: they read the command line, call the
//! library, and print. The per-game subcommands are built from the command line's list of games
//! ([`GAMES`], from the one registry, [`arena_core::with_games!`]), each game's flags and help
//! from its file in [`crate::cli`].

pub mod play;
pub mod render;
pub mod tournament;
pub mod verify;

use crate::cli::GameCli;
use crate::error::Error;
use crate::replay::{Head, ReplayContext};
use anyhow::{bail, Context};
use std::io::Write;

/// One game, as the subcommands reach it.
pub struct Entry {
    /// The game's name, as on the command line (`arena play <name>`).
    pub name: &'static str,
    /// One line for `--help` and `arena bots` ([`GameCli::ABOUT`]).
    pub about: &'static str,
    /// The built-in bots' names, the default opponent first.
    pub bots: &'static [&'static str],
    /// What each built-in bot does, in the order of `bots` (`arena bots`).
    pub bot_notes: &'static [&'static str],
    /// What the game's replay file is, for `arena verify <game> --help`.
    pub replay_about: &'static str,
    /// The game as the library reaches it (replay detection and verification, formats).
    pub game: crate::games::Entry,
    /// `arena play <game>`'s clap command: the common flags and the game's own.
    pub play: fn() -> clap::Command,
    /// Runs `arena play <game>` on its parsed arguments.
    pub run_play: fn(&clap::ArgMatches) -> anyhow::Result<()>,
    /// `arena tournament <game>`'s clap command.
    pub tournament: fn() -> clap::Command,
    /// Runs `arena tournament <game>` on its parsed arguments.
    pub run_tournament: fn(&clap::ArgMatches) -> anyhow::Result<()>,
    /// Draws a replay of the game as `arena render` asks; returns the line saying what was written.
    pub render: fn(&render::Job<'_>) -> anyhow::Result<String>,
}

impl Entry {
    /// The entry of game `G`: its command-line facts and functions, each written once for every
    /// game.
    pub const fn of<G: GameCli + arena_viewer::Viewed>() -> Entry {
        Entry {
            name: G::NAME,
            about: G::ABOUT,
            bots: G::BOTS,
            bot_notes: G::BOT_NOTES,
            replay_about: G::REPLAY_ABOUT,
            game: crate::games::Entry::of::<G>(),
            play: play::command::<G>,
            run_play: play::run::<G>,
            tournament: tournament::command::<G>,
            run_tournament: tournament::run::<G>,
            render: render::render::<G>,
        }
    }
}

macro_rules! registry {
    ($($folder:ident: $game:ty),* $(,)?) => {
        /// Every game, in the order `arena` lists them.
        pub static GAMES: &[Entry] = &[$(Entry::of::<$game>()),*];
    };
}

arena_core::with_games!(registry);

/// The game called `name` (as on the command line).
pub fn by_name(name: &str) -> Option<&'static Entry> {
    GAMES.iter().find(|g| g.name == name)
}

/// The game whose replay starts with `head`.
pub fn detect(head: &Head) -> Result<&'static Entry, Error> {
    let game = crate::games::detect(head)?;
    by_name(game.name).ok_or_else(|| Error::UnknownGame {
        named: game.name.to_string(),
        games: GAMES.iter().map(|g| g.name).collect(),
    })
}

/// `arena render`: prints what was written.
pub fn render(args: &render::RenderArgs) -> anyhow::Result<()> {
    let name = args.file.display();
    let file = crate::replay::open(&args.file).with_context(|| format!("cannot read {name}"))?;
    let head = Head::read(file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let entry = detect(&head).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let map = args
        .map
        .as_ref()
        .map(|m| std::fs::read_to_string(m).with_context(|| format!("cannot read {}", m.display())))
        .transpose()?;
    if let Some(asked) = &args.ruleset {
        let rulesets = entry.game.rulesets;
        if !rulesets.contains(&asked.as_str()) {
            match rulesets {
                [] => bail!(
                    "--ruleset {asked}: {name} is {}, which has one ruleset",
                    entry.name
                ),
                _ => bail!(
                    "--ruleset {asked}: {name} is {}, whose rulesets are {}",
                    entry.name,
                    rulesets.join(", ")
                ),
            }
        }
    }
    let job = render::Job {
        args,
        ctx: ReplayContext {
            map,
            ruleset: args.ruleset.clone(),
        },
    };
    let summary = (entry.render)(&job).map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?;
    crate::outln!("{summary}");
    Ok(())
}

/// `arena bots`: every game and its built-in bots (the first is the default opponent).
pub fn list_bots(out: &mut dyn Write) -> std::io::Result<()> {
    for g in GAMES {
        writeln!(out, "{:<14} {}", g.name, g.bots.join(", "))?;
        for note in g.bot_notes {
            writeln!(out, "    {note}")?;
        }
    }
    Ok(())
}
