//! What each bot receives: the official protocol text, per-bot fog of war and owner numbering.

/// Placeholder until the feed is written.
pub struct BotFeed;

pub fn bot_input() {}
