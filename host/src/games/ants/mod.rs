//! Ants on the desktop: the official replay format (revision 3), conformance checks against the
//! official engine's replays, and the text each bot receives (official protocol).
//!
//! The core keeps only the living state; [`Recorder`] follows a game turn by turn and keeps the
//! history the replay needs (every ant's moves, every food, score and hive history).

mod feed;
mod protocol;
mod replay;
mod verify;

pub use feed::{bot_input, BotFeed};
pub use protocol::BotAnswer;
pub use replay::{play_builtin, play_recorded, Recorder, ReplayMeta};
pub use verify::{
    kills_from_replay, orders_from_replay, params_from_replay, rerun, rerun_with, verify_replay,
    Kill, Mismatch, VerifyReport,
};
