//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;
arena_tests::suite!(
    mammut,
    arena_core::games::mammut::Mammut,
    seats = 5,
    turns = 0..400
);
