//! One screen per game, and the lineup the boards play.

pub mod colorfight;
pub mod tower_defense;

use arena_core::games::colorfight::{self as cf, ColorFight};
use arena_core::games::tower_defense::{self as td, TowerDefense};

use crate::lineup::{Entry, Lineup, Visit};

/// The board rotation: every game with a screen, in configurations that fit a Cortex-M3 with 64 KB
/// of RAM and end within the loop's default 2,000 turns (`cargo xtask lineup` plays it on the host).
pub struct Arcade;

const CF_CONQUEST: cf::Params = cf::Params {
    variant: cf::Variant::Conquest,
    width: 20,
    height: 12,
    players: 4,
    ticks: 600,
};

const CF_SKIRMISH: cf::Params = cf::Params {
    variant: cf::Variant::Skirmish,
    width: 20,
    height: 12,
    players: 2,
    ticks: 400,
};

const TD_DUEL: td::Params = td::Params {
    variant: td::Variant::Duel,
};
const TD_SIEGE: td::Params = td::Params {
    variant: td::Variant::Siege,
};

/// The lineup's entries, each with its game: `visit` dispatches on the game.
enum Params {
    Td(td::Params),
    Cf(cf::Params),
}

const ENTRIES: [(Entry, Params); 5] = [
    (
        Entry {
            config: "duel",
            bots: &["strong", "random"],
        },
        Params::Td(TD_DUEL),
    ),
    (
        Entry {
            config: "conquest-20x12",
            bots: &["strategist", "expander", "random", "strategist"],
        },
        Params::Cf(CF_CONQUEST),
    ),
    (
        Entry {
            config: "duel",
            bots: &["army", "strong"],
        },
        Params::Td(TD_DUEL),
    ),
    (
        Entry {
            config: "skirmish-20x12",
            bots: &["expander", "strategist"],
        },
        Params::Cf(CF_SKIRMISH),
    ),
    (
        Entry {
            config: "siege",
            bots: &["strong", "random"],
        },
        Params::Td(TD_SIEGE),
    ),
];

impl Lineup for Arcade {
    const LEN: usize = ENTRIES.len();
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out {
        let (entry, params) = &ENTRIES[index % ENTRIES.len()];
        match params {
            Params::Td(p) => visitor.visit::<TowerDefense>(entry, p),
            Params::Cf(p) => visitor.visit::<ColorFight>(entry, p),
        }
    }
}
