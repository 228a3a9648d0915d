//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;
arena_tests::suite!(
    tower_defense,
    arena_core::games::tower_defense::TowerDefense,
    seats = 2,
    turns = 0..400
);
