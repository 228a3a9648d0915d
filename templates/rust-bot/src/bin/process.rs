//! The process route: this crate's bot for one game as a `cmd:` seat of `arena play` and `arena
//! tournament` (`--sandbox` included), speaking the game's own protocol on stdin and stdout
//! through `arena-adapter` (for Ants the official AI Challenge protocol, which the original
//! engine's bots speak too).
//!
//! ```text
//! process GAME                                  a cmd: seat: GAME is tower-defense, colorfight or ants
//! process GAME local SEED BOT... [map=FILE turns=N]
//!                                               one match in-process, as arena plays it with that
//!                                               seed (BOT: `own` for this crate's bot, or a built-in
//!                                               name; Ants needs its map and turns): prints
//!                                               `result turns=T digest=D ranks=R,.. scores=S,.. reason=...`
//! ```
//!
//! A message it cannot read is reported on stderr and the process exits with status 1.

use arena_adapter::local::{self, Player};
use arena_core::games::ants::{Ants, AntsParams, Map};
use arena_core::games::colorfight::{self as cf, ColorFight};
use arena_core::games::tower_defense::{self as td, TowerDefense};
use arena_core::{Bot, Roster};
use mybot::{Builder, Forager, Nearest};
use std::io::{stdin, stdout, BufWriter};
use std::process::ExitCode;

const USAGE: &str =
    "usage: process GAME (a cmd: seat), or process GAME local SEED BOT... [map=FILE turns=N] \
                     (GAME: tower-defense, colorfight, ants; BOT: own or a built-in name)";

/// The seats of `names` as local players: the first `own` is `bot`, the others built-in names.
fn players<'a, G: Roster>(names: &[&'static str], bot: &'a mut dyn Bot<G>) -> Vec<Player<'a, G>> {
    let mut own = Some(bot);
    let mut out = Vec::with_capacity(names.len());
    for &n in names {
        match (n, own.take()) {
            ("own", Some(b)) => out.push(Player::Own(b)),
            (_, b) => {
                own = b;
                out.push(Player::Builtin(n));
            }
        }
    }
    out
}

/// `arena`'s set-up of a tournament match for the game (the match's seed, its seats).
fn local_match(
    game: &str,
    seed: u64,
    names: &[&'static str],
    opts: &[(&str, &str)],
) -> Result<String, String> {
    let opt = |key: &str| opts.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let played = match game {
        "tower-defense" => {
            let mut bot = Builder::new(arena_core::rng::bot_seed(seed, 0));
            let params = td::Params::default();
            local::play::<TowerDefense>(&params, seed, &mut players(names, &mut bot), u32::MAX)
        }
        "colorfight" => {
            let mut bot = Nearest::new(0);
            let params = cf::Params {
                players: u8::try_from(names.len()).map_err(|_| "too many players")?,
                ..cf::Params::default()
            };
            local::play::<ColorFight>(&params, seed, &mut players(names, &mut bot), u32::MAX)
        }
        "ants" => {
            let map = opt("map").ok_or("ants needs map=FILE")?;
            let text = std::fs::read_to_string(map).map_err(|e| format!("{map}: {e}"))?;
            let map = Map::parse(&text).map_err(|e| format!("{map}: {e:?}"))?;
            let turns = opt("turns")
                .and_then(|t| t.parse().ok())
                .ok_or("ants needs turns=N")?;
            let mut params = AntsParams::new(map, turns);
            params.loadtime = 3000;
            // As arena's Ants tournaments seed a match: the engine seed, then the players'.
            let engine_seed = seed >> 1;
            let mut s = engine_seed;
            params.player_seed = (arena_core::rng::splitmix64(&mut s) >> 1) as i64;
            let mut bot = Forager::new(0);
            local::play::<Ants>(
                &params,
                engine_seed,
                &mut players(names, &mut bot),
                u32::MAX,
            )
        }
        _ => return Err(USAGE.into()),
    }
    .map_err(|e| e.to_string())?;
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    Ok(match played.outcome {
        Some(o) => {
            let ranks: Vec<i64> = o.ranks().iter().map(|&r| i64::from(r)).collect();
            format!(
                "result turns={} digest={} ranks={} scores={} reason={}",
                played.turns,
                played.digest,
                list(&ranks),
                list(o.scores()),
                o.reason
            )
        }
        None => format!(
            "result turns={} digest={} stopped",
            played.turns, played.digest
        ),
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, output) = (stdin().lock(), BufWriter::new(stdout().lock()));
    let served = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["tower-defense"] => {
            arena_adapter::tower_defense::play(&mut Builder::new(0), input, output)
        }
        ["colorfight"] => arena_adapter::colorfight::play(&mut Nearest::new(0), input, output),
        ["ants"] => arena_adapter::ants::play_desktop(&mut Forager::new(0), input, output),
        [game, "local", seed, ref rest @ ..] => {
            let (opts, bots): (Vec<&str>, Vec<&str>) = rest.iter().partition(|a| a.contains('='));
            let opts: Vec<(&str, &str)> = opts.iter().filter_map(|o| o.split_once('=')).collect();
            // Built-in names live as long as the process.
            let bots: Vec<&'static str> = bots
                .iter()
                .map(|b| &*String::leak((*b).to_owned()))
                .collect();
            let result = seed
                .parse()
                .map_err(|_| format!("SEED must be a whole number: {USAGE}"))
                .and_then(|seed| local_match(game, seed, &bots, &opts));
            return match result {
                Ok(line) => {
                    println!("{line}");
                    ExitCode::SUCCESS
                }
                Err(why) => {
                    eprintln!("process: {why}");
                    ExitCode::from(2)
                }
            };
        }
        _ => {
            eprintln!("process: {USAGE}");
            return ExitCode::from(2);
        }
    };
    match served {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("process: {e}");
            ExitCode::FAILURE
        }
    }
}
