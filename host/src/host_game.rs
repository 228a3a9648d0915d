//! [`HostGame`]: everything the desktop needs of a game beyond its rules, the contracts together,
//! so that what is written once for every game (the match loop, tournaments, verification,
//! rendering) asks for one bound. A game implements the parts in its folder, one trait a concern;
//! this is implemented for every game that implements them all.

use crate::format::Compete;
use crate::record::Record;
use crate::setup::Arrange;

/// A game as the desktop plays, records, verifies and ranks it: [`crate::game::Playable`] (the
/// match's steps and its JSON), [`crate::protocol::Speak`] (speaking to bots), [`Record`]
/// (writing and reading a match), [`Arrange`] (the match its options ask for) and [`Compete`]
/// (its tournament format).
pub trait HostGame: Arrange + Compete + Record {}

impl<G: Arrange + Compete + Record> HostGame for G {}
