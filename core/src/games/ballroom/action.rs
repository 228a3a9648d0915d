//! What a bot can send, and what the engine records having done with it.
//!
//! One [`Action`] is one bot's reply for one phase. It can hold anything a bot could send (any
//! `i32` destination or target, an action of the wrong phase, a timeout, a line that does not
//! parse), because refusing it is the rules' job, not the caller's. The records keep the fields the
//! reference writes into its log and its `last_actions`, flags included.

use super::types::{Class, Item};

/// One bot's reply for the current phase.
///
/// There is no executor: a bot only acts for its own seat (rules decision 2; the reference trusted
/// the `executor` field). Re-playing an official log whose bots acted for other seats takes
/// [`Reply`]s instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Action {
    /// The reference's default action for the phase (what a disconnected bot plays): class
    /// KNIGHT, `use=false`, move to own spawn, attack self, buy NONE. The seat stays connected.
    #[default]
    Pass,
    /// The reference read `null` (timeout, EOF, or the text `null`): the connection is dropped for
    /// good, the default action is played now and from then on, and `isActive` becomes false, except
    /// when this happens in MOVE or the handshake, where the reference forgets to clear the flag
    /// (it is cleared by the next phase, which reads `null` again).
    Null,
    /// A line the reference could not parse (bad JSON, unknown enum name): dropped like `Null`,
    /// and `isActive` becomes false in every phase. In the handshake the reference crashes; we play
    /// the default (KNIGHT) and keep the seat (rules decision 2).
    Malformed,
    /// Handshake: the starting class.
    Class(Class),
    /// USE: whether to use the held item.
    Use(bool),
    /// MOVE: the requested destination, any `i32` pair (the engine snaps what it cannot reach).
    Move {
        /// Column, as sent.
        x: i32,
        /// Row, as sent.
        y: i32,
    },
    /// ATTACK: the target player index, any `i32` (outside 0..3 is an invalid attack).
    Attack {
        /// The target's player index, as sent.
        target: i32,
    },
    /// BUY: the item to buy (NONE is the default buy, which is not free under the engine ruleset).
    Buy(Item),
}

/// One reply as the official engine executes it: `action` for the player `executor` names.
/// Only re-plays of official logs use another executor than the sender's own seat
/// ([`super::Ballroom::step_replies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Reply {
    /// The player the action is executed for (0..3).
    pub executor: u8,
    /// What is executed.
    pub action: Action,
}

/// A USE action as executed: `{"executor":i,"use":b,"isValid":v}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UseRecord {
    /// Whether the player used its item.
    pub used: bool,
    /// Whether the reference found the action valid.
    pub valid: bool,
}

/// A MOVE action as executed: the requested destination (the actual one is in the player state).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MoveRecord {
    /// The requested destination's x (any `i32`).
    pub x: i32,
    /// The requested destination's y (any `i32`).
    pub y: i32,
    /// Whether the reference found the action valid.
    pub valid: bool,
}

/// An ATTACK action as executed. `damage` is the attacker's effective damage, or 0 when the
/// attack was nullified by a shield or named a player outside 0..3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AttackRecord {
    /// The target player index as sent (any `i32`).
    pub target: i32,
    /// Whether the reference found the action valid.
    pub valid: bool,
    /// The damage dealt (see [`AttackRecord`]).
    pub damage: u8,
    /// Whether the target's shield nullified the attack.
    pub nullified: bool,
}

/// A BUY action as executed. `bought` is not in the reference log: it says whether gold changed
/// hands (buying NONE can be valid without buying anything).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BuyRecord {
    /// The item asked for.
    pub item: Item,
    /// Whether the reference found the action valid.
    pub valid: bool,
    /// Whether gold changed hands.
    pub bought: bool,
}

/// The actions of the turn in progress (or of the last complete turn), per phase, by seat.
/// A phase's entries are overwritten when that phase is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TurnRecord {
    /// USE phase, by seat.
    pub uses: [UseRecord; 4],
    /// MOVE phase, by seat.
    pub moves: [MoveRecord; 4],
    /// ATTACK phase, by seat.
    pub attacks: [AttackRecord; 4],
    /// BUY phase, by seat.
    pub buys: [BuyRecord; 4],
}
