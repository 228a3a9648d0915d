//! `arena verify <game> FILE`: re-play a replay and check everything it records.

use super::Entry;
use crate::error::Error;
use crate::replay::ReplayContext;
use crate::verify::{Difference, Verified};
use clap::{Arg, ArgMatches, Command};
use std::path::{Path, PathBuf};

/// `--partial`: a file that stops before the match's end is otherwise a failure, since a file
/// cut short (a crash, a full disk, a copy stopped half-way) verifies as far as it goes.
pub fn partial_arg() -> Arg {
    Arg::new("partial")
        .long("partial")
        .action(clap::ArgAction::SetTrue)
        .help("Accept a file whose match does not finish (one played with --max-turns): without it, such a file is checked as far as it goes and exits 1, saying the match does not finish in it.")
}

/// `arena verify <game>`: the file, and the map for games whose replays need it.
pub fn command(
    name: &'static str,
    about: &'static str,
    map: bool,
    rulesets: &'static [&'static str],
) -> Command {
    let mut cmd = Command::new(name).about(about).arg(partial_arg()).arg(
        Arg::new("file")
            .value_name("FILE")
            .required(true)
            .value_parser(clap::value_parser!(PathBuf))
            .help("The replay file."),
    );
    if let Some(first) = rulesets.first() {
        cmd = cmd.arg(
            Arg::new("ruleset")
                .long("ruleset")
                .value_name("RULESET")
                .value_parser(clap::builder::PossibleValuesParser::new(rulesets))
                .help(format!("The ruleset the match was played under (arena play's --ruleset; the file does not say). Default: {first}.")),
        );
    }
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

/// Why `arena verify` did not verify a file; every kind exits with [`Unverified::EXIT`].
#[derive(Debug, thiserror::Error)]
pub enum Unverified {
    /// No FILE argument.
    #[error("no file given")]
    NoFile,
    /// The file cannot be opened or read.
    #[error("cannot read {}: {error}", file.display())]
    Read {
        /// The file, as given.
        file: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The `--map` file cannot be read.
    #[error("cannot read map {}: {error}", map.display())]
    ReadMap {
        /// The map, as given.
        map: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// The file's start names no game here, or is no replay.
    #[error("{}: {error}", file.display())]
    Undetected {
        /// The file, as given.
        file: PathBuf,
        /// Why: no game's start, or no replay at all.
        error: Error,
    },
    /// A map given for a game whose replays are re-played without one.
    #[error("{}: {kind} is re-played without a map: leave --map out", file.display())]
    NoMapTaken {
        /// The file, as given.
        file: PathBuf,
        /// What the game's files are ("a ... trace"), from its replay description.
        kind: String,
    },
    /// A file of another game than the one named.
    #[error(
        "{}: this is {is}, not {not} (arena verify {game} FILE, or arena verify FILE)",
        file.display()
    )]
    OtherGame {
        /// The file, as given.
        file: PathBuf,
        /// What the file is ("a ... trace", from its game's replay description).
        is: String,
        /// What the game named takes, in the same words.
        not: String,
        /// The game the file is of, as `arena verify` names it: the command to use instead.
        game: &'static str,
    },
    /// Where the file and its re-play part ways.
    #[error("{}: {difference}", file.display())]
    Differs {
        /// The file, as given.
        file: PathBuf,
        /// The first thing the re-play contradicts: line, turn, field path, expected and got.
        difference: Difference,
    },
    /// A file that verifies as far as it goes and stops before the end of the match.
    #[error(
        "{}: {verified}; but the match does not finish in this file (last turn {}): a file cut \
         short, or a match stopped early (--partial accepts it)",
        file.display(),
        verified.turns
    )]
    Unfinished {
        /// The file, as given.
        file: PathBuf,
        /// What did verify, up to the file's last turn.
        verified: Box<Verified>,
    },
}

impl Unverified {
    /// `arena verify`'s exit status when a file does not verify.
    pub const EXIT: u8 = 1;
}

/// The game a file is a replay of, read off its start.
fn detect(file: &Path) -> Result<&'static Entry, Unverified> {
    let reader = crate::replay::open(file).map_err(|error| Unverified::Read {
        file: file.to_path_buf(),
        error,
    })?;
    crate::replay::Head::read(reader)
        .map_err(Error::from)
        .and_then(|head| super::detect(&head))
        .map_err(|error| Unverified::Undetected {
            file: file.to_path_buf(),
            error,
        })
}

/// `arena verify FILE [--map MAP]`: the game is the one the file's start names, as for render.
pub fn run_detected(m: &ArgMatches) -> Result<String, Unverified> {
    let Some(file) = m.get_one::<PathBuf>("file") else {
        return Err(Unverified::NoFile);
    };
    let entry = detect(file)?;
    if !entry.game.map_beside && m.get_one::<PathBuf>("map").is_some() {
        return Err(Unverified::NoMapTaken {
            file: file.clone(),
            kind: kind(entry),
        });
    }
    run(entry, m)
}

/// The outcome of `arena verify`: the summary line, or why the file did not verify.
pub fn run(entry: &Entry, m: &ArgMatches) -> Result<String, Unverified> {
    let Some(file) = m.get_one::<PathBuf>("file") else {
        return Err(Unverified::NoFile);
    };
    let map = match m.try_get_one::<PathBuf>("map").ok().flatten() {
        Some(path) => Some(
            std::fs::read_to_string(path).map_err(|error| Unverified::ReadMap {
                map: path.clone(),
                error,
            })?,
        ),
        None => None,
    };
    // A file of another game gets a clear refusal rather than its first field-by-field difference.
    if let Ok(other) = detect(file) {
        if other.name != entry.name {
            return Err(Unverified::OtherGame {
                file: file.clone(),
                is: kind(other),
                not: kind(entry),
                game: other.name,
            });
        }
    }
    let mut input = crate::replay::open(file).map_err(|error| Unverified::Read {
        file: file.clone(),
        error,
    })?;
    let ruleset = m.try_get_one::<String>("ruleset").ok().flatten().cloned();
    let ctx = ReplayContext { map, ruleset };
    let verified =
        (entry.game.verify)(&mut input, &ctx).map_err(|difference| Unverified::Differs {
            file: file.clone(),
            difference,
        })?;
    let partial = m.try_get_one::<bool>("partial").ok().flatten() == Some(&true);
    if !verified.over && !partial {
        return Err(Unverified::Unfinished {
            file: file.clone(),
            verified: Box::new(verified),
        });
    }
    Ok(format!("{}: {verified}", file.display()))
}
