//! One screen per game, and the lineup the boards play.

pub mod colorfight;

use arena_core::games::colorfight::{self as cf, ColorFight};

use crate::lineup::{Entry, Lineup, Visit};

/// The board rotation: every game with a screen, in configurations that fit a Cortex-M3 with 64 KB
/// of RAM and play in a few minutes of emulated time.
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

const ENTRIES: [(Entry, cf::Params); 2] = [
    (
        Entry {
            config: "conquest-20x12",
            bots: &["strategist", "expander", "random", "strategist"],
        },
        CF_CONQUEST,
    ),
    (
        Entry {
            config: "skirmish-20x12",
            bots: &["expander", "strategist"],
        },
        CF_SKIRMISH,
    ),
];

impl Lineup for Arcade {
    const LEN: usize = ENTRIES.len();
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out {
        let (entry, params) = &ENTRIES[index % ENTRIES.len()];
        visitor.visit::<ColorFight>(entry, params)
    }
}
