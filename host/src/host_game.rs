//! [`HostGame`]: everything the desktop's library does with a game beyond playing one match, the
//! contracts together, so that what is written once for every game (tournaments, verification,
//! rendering) asks for one bound. A game implements the parts in its folder, one trait a module;
//! this is implemented for every game that implements them all. The match loop
//! ([`crate::play::play`]) asks only for [`crate::protocol::GameProtocol`] and [`Record`]; the
//! command line (`crate::cli::GameCli`), the viewer (`arena_viewer::Viewed`) and Python's
//! environments are separate impls beside these, none of them a part of this.

use crate::format::GameFormat;
use crate::record::Record;
use crate::setup::GameSetup;

/// A game as the desktop plays, records, verifies and ranks it: [`crate::game::Playable`] (the
/// match's steps and its JSON), [`crate::protocol::GameProtocol`] (speaking to bots), [`Record`]
/// (writing and reading a match), [`GameSetup`] (the match its options ask for) and [`GameFormat`]
/// (its tournament format).
pub trait HostGame: GameSetup + GameFormat + Record {}

impl<G: GameSetup + GameFormat + Record> HostGame for G {}
