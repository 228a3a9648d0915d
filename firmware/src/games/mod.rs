//! One screen per game, and the lineup the boards play.

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;

use arena_core::games::ants::AntsMcu;
use arena_core::games::ballroom::{self as bb, Ballroom};
use arena_core::games::colorfight::{self as cf, ColorFight};
use arena_core::games::mammut::{self as mm, Mammut};
use arena_core::games::tower_defense::{self as td, TowerDefense};

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
const BB_ENGINE: bb::Params = bb::Params {
    ruleset: bb::Ruleset::Engine,
    classes: None,
};

crate::lineup! {
    /// The board rotation: every game with a screen, in configurations that fit a Cortex-M3 with
    /// 64 KB of RAM (`cargo xtask lineup` plays it on the host). A match not over after the loop's
    /// default 2,000 turns is stopped: the first Siege match (strong invader, random defender) is,
    /// under the entries' own seeds.
    pub Arcade {
        TowerDefense: "duel", ["strong", "random"], Some(TD_DUEL);
        ColorFight: "conquest-20x12", ["strategist", "expander", "random", "strategist"], Some(CF_CONQUEST);
        Mammut: "five", ["cautious", "greedy", "random", "greedy", "cautious"], Some(mm::Params);
        ants::AntsBoard: "24x24", ["hunter", "strong"], ants::params(300);
        TowerDefense: "duel", ["army", "strong"], Some(TD_DUEL);
        Ballroom: "engine", ["strong", "holder", "random", "strong"], Some(BB_ENGINE);
        ColorFight: "skirmish-20x12", ["expander", "strategist"], Some(CF_SKIRMISH);
        TowerDefense: "siege", ["strong", "random"], Some(TD_SIEGE);
    }
}

crate::lineup! {
    /// Ants on an official map (tutorial1) in the core's MCU build: for the boards with the RAM
    /// (the Pico's 264 KB; the QEMU board's 64 KB cannot hold its 37.5 KB state with the rest).
    pub OfficialMaps {
        AntsMcu: "tutorial1", ["hunter", "strong"], ants::official_params(300);
    }
}

/// The Pico's rotation: the boards' rotation, then the official maps.
pub type PicoArcade = crate::lineup::Then<Arcade, OfficialMaps>;

/// The STM32F411's rotation: the Pico's (its 128 KB of RAM holds Ants on tutorial1 too).
pub type F411Arcade = PicoArcade;
