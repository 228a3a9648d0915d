//! `arena play ballroom` and `arena tournament ballroom`: the flags and help.

use crate::games::ballroom::{PlayOptions, TournamentOptions, BASE_PORT};
use arena_core::games::ballroom::{Ballroom, Ruleset};
use clap::{Args, ValueEnum};

/// `--ruleset`: the rules' [`Ruleset`] as the command line spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesetArg {
    /// Exactly what the official engine (tag 1.6) does, quirks included.
    Engine,
    /// The rules as the challenge text wrote them.
    AsWritten,
}

/// `arena play ballroom`'s own flags.
#[derive(Args, Clone, Debug)]
pub struct PlayFlags {
    /// Which rules: the official engine's, quirks included, or the challenge text's.
    #[arg(long, value_enum, default_value = "engine")]
    pub ruleset: RulesetArg,
    /// Seats without a --bot wait for a bot to connect over TCP on `127.0.0.1:<port base>+seat`, as
    /// the official engine does (the official starter packs connect unchanged). `--bot tcp` does
    /// the same for one seat. With --tcp, --name names the seats in order, TCP seats included.
    #[arg(long)]
    pub tcp: bool,
    /// How long each TCP seat waits for its bot, in seconds, one seat after the other (the
    /// official engine's 15 s); a seat nobody connects to plays KNIGHT and the default actions.
    #[arg(long, value_name = "SECS", default_value_t = 15.0)]
    pub tcp_wait: f64,
    /// The first TCP port: seat i listens on PORT + i (the official engine's 29170); 0: each seat
    /// on a free port the system picks (each printed as the seat waits, and in the seat's name).
    #[arg(long, value_name = "PORT", default_value_t = BASE_PORT)]
    pub port_base: u16,
}

/// Tournaments play the engine ruleset.
#[derive(Args, Clone, Debug)]
pub struct TournamentFlags {
    /// Swiss rounds in one schedule (default: enough for a clear winner, log2 of the field plus
    /// one); `--games N` plays N schedules' worth of rounds.
    #[arg(long, value_name = "N")]
    pub rounds: Option<usize>,
}

game_cli! {
    Ballroom {
        play: |f: &PlayFlags| PlayOptions {
            ruleset: match f.ruleset {
                RulesetArg::Engine => Ruleset::Engine,
                RulesetArg::AsWritten => Ruleset::AsWritten,
            },
            tcp: f.tcp,
            tcp_wait: f.tcp_wait,
            port_base: f.port_base,
        },
        tournament: |f: &TournamentFlags| TournamentOptions { rounds: f.rounds },
        about: "Ballroom Blitz (MechMania 28): four players on a 10x10 grid, 100 turns of four phases.",
        replay: r#"A Ballroom Blitz game log in the official engine's format ({"names":[...],"turns":[...]})."#,
        time_limit: "2 s an answer, counted from the end of the previous seat's read, as the official engine reads the seats one after another",
        bots: [
            "strong: a Knight that holds the control block, walks in on the diagonal, buys a Hunter Scope, prefers kills",
            "holder: a Knight that walks to the control block and hits the weakest player in range",
            "random: a random legal reply (a reachable tile, a target in range, an affordable item)",
        ],
    }
}
