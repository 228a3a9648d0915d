//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;
arena_tests::suite!(
    ballroom,
    arena_core::games::ballroom::Ballroom,
    seats = 4,
    turns = 0..450
);
