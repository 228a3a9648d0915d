//! One screen per game, and the lineup the boards play.

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;

use arena_core::games::ballroom::{self as bb, Ballroom};
use arena_core::games::colorfight::{self as cf, ColorFight};
use arena_core::games::mammut::{self as mm, Mammut};
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
    respawn: cf::Respawn::Auto,
};

const CF_SKIRMISH: cf::Params = cf::Params {
    variant: cf::Variant::Skirmish,
    width: 20,
    height: 12,
    players: 2,
    ticks: 400,
    respawn: cf::Respawn::Auto,
};

const TD_DUEL: td::Params = td::Params {
    variant: td::Variant::Duel,
};
const TD_SIEGE: td::Params = td::Params {
    variant: td::Variant::Siege,
};

/// The lineup's entries, each with its game: `visit` dispatches on the game.
enum Params {
    /// Ants: the turns of a match on [`ants::MAP`] (its params are built at run time: a map is
    /// parsed, not a const).
    Ants(u16),
    Td(td::Params),
    Cf(cf::Params),
    Mm(mm::Params),
    Bb(bb::Params),
}

const ENTRIES_LEN: usize = 8;
const ENTRIES: [(Entry, Params); ENTRIES_LEN] = [
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
            config: "five",
            bots: &["cautious", "greedy", "random", "greedy", "cautious"],
        },
        Params::Mm(mm::Params),
    ),
    (
        Entry {
            config: "24x24",
            bots: &["hunter", "strong"],
        },
        Params::Ants(300),
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
            config: "engine",
            bots: &["strong", "holder", "random", "strong"],
        },
        Params::Bb(bb::Params {
            ruleset: bb::Ruleset::Engine,
            classes: None,
        }),
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
        let (entry, params) = ENTRIES.get(index % ENTRIES_LEN).unwrap_or(&ENTRIES[0]);
        match params {
            Params::Ants(turns) => match ants::params(*turns) {
                Some(p) => visitor.visit::<ants::AntsBoard>(entry, &p),
                None => visitor.skip(entry),
            },
            Params::Td(p) => visitor.visit::<TowerDefense>(entry, p),
            Params::Cf(p) => visitor.visit::<ColorFight>(entry, p),
            Params::Mm(p) => visitor.visit::<Mammut>(entry, p),
            Params::Bb(p) => visitor.visit::<Ballroom>(entry, p),
        }
    }
}
