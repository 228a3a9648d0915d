//! `arena verify <game> FILE`: re-play a replay and check everything it records.

use super::Entry;
use crate::replay::ReplayContext;
use clap::{Arg, ArgMatches, Command};
use std::path::PathBuf;

/// `--partial`: a file that stops before the match's end is otherwise a failure, since a file
/// cut short (a crash, a full disk, a copy stopped half-way) verifies as far as it goes.
pub fn partial_arg() -> Arg {
    Arg::new("partial")
        .long("partial")
        .action(clap::ArgAction::SetTrue)
        .help("Accept a file whose match does not finish (one played with --max-turns): without it, such a file is checked as far as it goes and exits 1, saying the match does not finish in it.")
}

/// `arena verify <game>`: the file, and the map for games whose replays need it.
pub fn command(name: &'static str, about: &'static str, map: bool) -> Command {
    let cmd = Command::new(name).about(about).arg(partial_arg()).arg(
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
            .value_parser(clap::value_parser!(PathBuf))
            .help("The map the game was played on (default: the one the replay holds); a map that is not the replay's is refused, saying how they differ."),
    )
}

/// What a game's files are, from the opening words of its replay description ("a ... trace").
fn kind(entry: &Entry) -> String {
    let about = entry.replay_about;
    let end = [" (", " in ", ",", "."]
        .iter()
        .filter_map(|p| about.find(p))
        .min()
        .unwrap_or(about.len());
    let (first, rest) = about[..end].split_at(1);
    first.to_lowercase() + rest
}

/// The game a file is a replay of, read off its start.
fn detect(file: &std::path::Path) -> Result<&'static Entry, String> {
    let reader =
        std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    crate::replay::Head::read(std::io::BufReader::new(reader))
        .and_then(|head| super::detect(&head))
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// `arena verify FILE [--map MAP]`: the game is the one the file's start names, as for render.
pub fn run_detected(m: &ArgMatches) -> Result<String, String> {
    let Some(file) = m.get_one::<PathBuf>("file") else {
        return Err("no file given".into());
    };
    let entry = detect(file)?;
    if !entry.game.map_beside && m.get_one::<PathBuf>("map").is_some() {
        return Err(format!(
            "{}: {} is re-played without a map: leave --map out",
            file.display(),
            kind(entry)
        ));
    }
    run(entry, m)
}

/// The outcome of `arena verify`: the summary line, and whether the file verified.
pub fn run(entry: &Entry, m: &ArgMatches) -> Result<String, String> {
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
    // A file of another game gets a clear refusal rather than its first field-by-field difference.
    if let Ok(other) = detect(file) {
        if other.name != entry.name {
            return Err(format!(
                "{}: this is {}, not {} (arena verify {} FILE, or arena verify FILE)",
                file.display(),
                kind(other),
                kind(entry),
                other.name
            ));
        }
    }
    let reader =
        std::fs::File::open(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut input = std::io::BufReader::new(reader);
    let ok = (entry.game.verify)(&mut input, &ReplayContext { map })
        .map_err(|d| format!("{}: {d}", file.display()))?;
    let partial = m.try_get_one::<bool>("partial").ok().flatten() == Some(&true);
    if !ok.over && !partial {
        return Err(format!(
            "{}: {ok}; but the match does not finish in this file (last turn {}): a file cut short, \
             or a match stopped early (--partial accepts it)",
            file.display(),
            ok.turns
        ));
    }
    Ok(format!("{}: {ok}", file.display()))
}
