//! `arena verify <game> FILE`: re-play a replay and check everything it records.

use crate::game::HostGame;
use crate::replay::ReplayContext;
use crate::verify::{Difference, Verified};
use clap::{Arg, ArgMatches, Command};
use std::io::BufRead;
use std::path::PathBuf;

/// `arena verify <game>`: the file, and the map for games whose replays need it.
pub fn command(name: &'static str, about: &'static str, map: bool) -> Command {
    let cmd = Command::new(name).about(about).arg(
        Arg::new("file")
            .value_name("FILE")
            .required(true)
            .value_parser(clap::value_parser!(PathBuf))
            .help("The replay file."),
    );
    if !map {
        return cmd;
    }
    cmd.arg(
        Arg::new("map")
            .long("map")
            .value_name("MAP")
            .required(true)
            .value_parser(clap::value_parser!(PathBuf))
            .help("The map the game was played on (replays do not hold it)."),
    )
}

/// Re-plays `input` as a `G` replay without looking at its states.
pub fn check<G: HostGame>(
    input: &mut dyn BufRead,
    ctx: &ReplayContext,
) -> Result<Verified, Difference> {
    G::replay(input, ctx, &mut |_: &G| {})
}

/// The outcome of `arena verify`: the summary line, and whether the file verified.
pub fn run(entry: &crate::games::Entry, m: &ArgMatches) -> Result<String, String> {
    let Some(file) = m.get_one::<PathBuf>("file") else {
        return Err("no file given".into());
    };
    let map = match m.try_get_one::<PathBuf>("map").ok().flatten() {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read map {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let reader =
        std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut input = std::io::BufReader::new(reader);
    (entry.verify)(&mut input, &ReplayContext { map })
        .map(|ok| format!("{}: {ok}", file.display()))
        .map_err(|d| format!("{}: {d}", file.display()))
}
