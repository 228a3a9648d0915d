//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;
arena_tests::suite!(
    ants,
    arena_core::games::ants::AntsMcu,
    seats = 4,
    turns = 0..120
);
