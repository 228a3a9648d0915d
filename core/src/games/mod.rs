//! The games, one folder each, and the one list of them. See the crate docs for the checklist a
//! new game follows.

/// The registry: every game, each `folder: type`, in the order `arena` lists them. Calls
/// `$then! { ... }` with the list, so that every layer's list of games (the modules here, the
/// host's commands, the viewer, the long runs, the fuzz targets) is written from this one.
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

macro_rules! folders {
    ($($folder:ident: $game:ty),* $(,)?) => {
        $(pub mod $folder;)*
    };
}

with_games!(folders);
