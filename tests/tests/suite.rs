//! The generic suite, run over every game.
#![allow(unused_imports)]
use arena_tests::games::*;

use arena_core::games::colorfight::ColorFight;
arena_tests::suite!(colorfight, ColorFight, seats = 8, turns = 0..400);
