//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;

use arena_core::games::colorfight::ColorFight;
arena_tests::suite!(colorfight, ColorFight, seats = 8, turns = 0..400);
arena_tests::suite!(
    tower_defense,
    arena_core::games::tower_defense::TowerDefense,
    seats = 2,
    turns = 0..400
);
arena_tests::suite!(
    mammut,
    arena_core::games::mammut::Mammut,
    seats = 5,
    turns = 0..400
);
arena_tests::suite!(
    ballroom,
    arena_core::games::ballroom::Ballroom,
    seats = 4,
    turns = 0..450
);
arena_tests::suite!(
    ants,
    arena_core::games::ants::AntsMcu,
    seats = 4,
    turns = 0..120
);
