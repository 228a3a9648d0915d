//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;
