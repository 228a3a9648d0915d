//! `arena play tower-defense` and `arena tournament tower-defense`: the flags and help.

use crate::games::tower_defense::{PlayOptions, TournamentOptions};
use arena_core::games::tower_defense::{TowerDefense, Variant};
use clap::{Args, ValueEnum};

/// `--variant`: the rules' [`Variant`] as the command line spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// The symmetric game: two players, each defends a path and invades the other's.
    Duel,
    /// Defender against invader on one path (seat 0 invades, seat 1 defends).
    Siege,
}

impl VariantArg {
    /// The rules' variant.
    pub fn variant(self) -> Variant {
        match self {
            VariantArg::Duel => Variant::Duel,
            VariantArg::Siege => Variant::Siege,
        }
    }
}

/// `arena play tower-defense`'s own flags.
#[derive(Args, Clone, Debug)]
pub struct PlayFlags {
    /// Which game: Duel (symmetric) or Siege (defender against invader).
    #[arg(long, value_enum, default_value = "duel")]
    pub variant: VariantArg,
    /// Record the state in the replay every N turns (1 = every turn; long games make large files).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub state_every: u32,
}

/// `arena tournament tower-defense`'s own flags.
#[derive(Args, Clone, Debug)]
pub struct TournamentFlags {
    /// Duel: round robin with seats swapped; Siege: every defender against every invader.
    #[arg(long, value_enum, default_value = "duel")]
    pub variant: VariantArg,
}

game_cli! {
    TowerDefense {
        play: |f: &PlayFlags| PlayOptions {
            variant: f.variant.variant(),
            state_every: f.state_every,
        },
        tournament: |f: &TournamentFlags| TournamentOptions {
            variant: f.variant.variant(),
        },
        about: "Tower Defense (Duel: two players; Siege: invader against defender).",
        replay: "A Tower Defense trace (JSON lines: header, turn-0 state, one line per turn).",
        time_limit: "an average over each 100 turns: 10 ms a turn (Siege 15 ms)",
        bots: [
            "strong: builds or upgrades towers at the path's end while the opponent's invaders and gold outweigh its firepower, and spends the rest on invaders boosted against the strongest towers on their path (no look-ahead); in Siege plays its seat (seat 0 invader, seat 1 defender)",
            "random: random actions, a fair share of them refused (off the path, unaffordable); any seat",
            "builder: the controller's simpleTurretBuilder (towers in a row, then upgrades); Siege: the defender, seat 1",
            "army: the controller's simpleInvaderArmy (three towers, then invaders with every boost in HP); Siege: the invader, seat 0",
        ],
    }
}
