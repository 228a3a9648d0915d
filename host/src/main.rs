//! `arena`: play Pocket Arena's games on the desktop.

use arena_host::commands::GAMES;
use arena_host::commands::{self, render::RenderArgs, tournament::MergeArgs};
use arena_host::games;
use clap::{Args, Command, FromArgMatches};
use std::process::ExitCode;

const ABOUT: &str =
    "Pocket Arena: king-of-the-hill bot games, the same rules on a microcontroller and here.";

/// A command with a subcommand per game.
fn per_game(name: &'static str, about: &'static str) -> Command {
    Command::new(name)
        .about(about)
        .subcommand_value_name("GAME")
        .subcommand_required(true)
        .arg_required_else_help(true)
}

fn cli() -> Command {
    let mut play = per_game(
        "play",
        "Play one match and print the result, the seed and why the game ended.",
    );
    let mut verify = Command::new("verify")
        .about("Re-play a trace or replay and check every recorded state; exit 1 at the first difference.")
        .long_about(
            "Re-play a trace or replay and check every recorded state; exit 1 at the first \
             difference.\n\n`arena verify FILE` finds the game from the file's start, as `render` \
             does; `arena verify GAME FILE` names it (a file of another game is refused).",
        )
        .override_usage("arena verify [GAME] FILE [--map MAP]")
        .subcommand_value_name("GAME")
        .args_conflicts_with_subcommands(true)
        .arg_required_else_help(true)
        .arg(
            clap::Arg::new("file")
                .value_name("FILE")
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("The replay file, when no GAME is named: its game is read off its start."),
        )
        .arg(
            clap::Arg::new("map")
                .long("map")
                .value_name("MAP")
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("The map the replay was played on, for games whose replays name one (default: the one it holds; another map is refused, saying how they differ)."),
        )
        .arg(commands::verify::partial_arg());
    let mut tournament = per_game(
        "tournament",
        "Play a tournament in the format the original challenge announced, with ratings and faults.",
    );
    let mut serve = per_game(
        "serve",
        "Run the original server's network API for a game whose original was a server, so its original clients play against the engine.",
    );
    for s in arena_host::cli::SERVERS {
        serve = serve.subcommand((s.command)());
    }
    for g in GAMES {
        play = play.subcommand((g.play)());
        verify = verify.subcommand(commands::verify::command(
            g.name,
            g.replay_about,
            g.game.map_beside,
            g.game.rulesets,
        ));
        tournament = tournament.subcommand((g.tournament)());
    }
    Command::new("arena")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .long_about(format!(
            "{ABOUT}\n\nBots are built-in names (see `arena bots`) or `cmd:<command line>`: any \
             program speaking the game's protocol over stdin/stdout (see host/examples/)."
        ))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(play)
        .subcommand(verify)
        .subcommand(tournament)
        .subcommand(serve)
        // The about after the arguments: a derived struct's doc would otherwise stand for it.
        .subcommand(RenderArgs::augment_args(Command::new("render")).about(
            "Draw a replay through the boards' screens: a GIF of the match, or a PNG of one turn.",
        ))
        .subcommand(MergeArgs::augment_args(Command::new("merge")).about(
            "Combine the results of tournament shards (--shard) into one table, as a single run would give.",
        ))
        .subcommand(Command::new("bots").about("List the games and their built-in bots."))
}

fn main() -> ExitCode {
    // SIGINT, SIGTERM and SIGHUP end every bot with arena, and leave replays on a whole line.
    if let Err(e) = arena_host::process::end_on_signals() {
        arena_host::errln!("arena: cannot watch for signals: {e}");
        return ExitCode::from(2);
    }
    let matches = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidSubcommand => {
            let _ = e.print();
            arena_host::errln!("\ngames: {}", games::names().join(", "));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    let result = match matches.subcommand() {
        Some(("play", m)) => match m.subcommand() {
            Some((name, m)) => commands::by_name(name).map_or(Ok(()), |g| (g.run_play)(m)),
            None => Ok(()),
        },
        Some(("verify", m)) => {
            let verified = match m.subcommand() {
                Some((name, m)) => match commands::by_name(name) {
                    Some(g) => commands::verify::run(g, m),
                    None => return ExitCode::from(2),
                },
                None => commands::verify::run_detected(m),
            };
            return match verified {
                Ok(summary) => {
                    arena_host::outln!("{summary}");
                    ExitCode::SUCCESS
                }
                Err(unverified) => {
                    arena_host::outln!("{unverified}");
                    ExitCode::from(commands::verify::Unverified::EXIT)
                }
            };
        }
        Some(("tournament", m)) => match m.subcommand() {
            Some((name, m)) => commands::by_name(name).map_or(Ok(()), |g| (g.run_tournament)(m)),
            None => Ok(()),
        },
        Some(("serve", m)) => match m.subcommand() {
            Some((name, m)) => arena_host::cli::SERVERS
                .iter()
                .find(|s| s.name == name)
                .map_or(Ok(()), |s| (s.run)(m)),
            None => Ok(()),
        },
        Some(("render", m)) => RenderArgs::from_arg_matches(m)
            .map_err(anyhow::Error::from)
            .and_then(|a| commands::render(&a)),
        Some(("merge", m)) => MergeArgs::from_arg_matches(m)
            .map_err(anyhow::Error::from)
            .and_then(|a| commands::tournament::merge(&a)),
        Some(("bots", _)) => {
            commands::list_bots(&mut arena_host::out::Stdout).map_err(anyhow::Error::from)
        }
        _ => Ok(()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            arena_host::errln!("arena: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_consistent() {
        super::cli().debug_assert();
    }
}
