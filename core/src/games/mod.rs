//! The games, one folder each, and the one list of them. See the crate docs for the checklist a
//! new game follows.

/// The registry: every game, each `folder: type`, in the order `arena` lists them. Calls
/// `$then! { ... }` with the list, so that every layer's list of games (the host's commands and
/// formats, the viewer, Python's environments, the long runs, the fuzz targets) is written from
/// this one. The modules are not: each layer declares its games' modules with plain
/// `pub mod <folder>;` lines (below, and in the host's, the command line's, the viewer's and the
/// firmware's `mod.rs`), so that rustfmt, grep and cargo-mutants see every file, and
/// `host/tests/all/game_folders.rs` fails when a layer's list differs from this one.
#[macro_export]
macro_rules! with_games {
    ($then:ident) => {
        $then! {
            tower_defense: $crate::games::tower_defense::TowerDefense,
            colorfight: $crate::games::colorfight::ColorFight,
            mammut: $crate::games::mammut::Mammut,
            ballroom: $crate::games::ballroom::Ballroom,
            ants: $crate::games::ants::Ants,
        }
    };
}

pub mod ants;
pub mod ballroom;
pub mod colorfight;
pub mod mammut;
pub mod tower_defense;
