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

/// The result flags a bot sent with its action (rules/ballroom-blitz.md, Protocol).
///
/// `isValid`, `damage` and `nullified` are fields of the official engine's action classes, so
/// Jackson fills them from a bot's reply like any other field; the engine's judgement then only
/// ever invalidates (`isValid` false), nullifies (`nullified` true) or sets `damage` (an attack on
/// a player 0..3 that no shield stopped). Where its judgement does not set a flag, the bot's value
/// is what the engine logs and shows every bot in the next `last_actions`. The flags never change
/// the game: nothing reads them but the log and the messages.
///
/// They count only with an action the bot sent for the phase: a default action played instead
/// (a time-out, an unreadable reply, a dropped bot) carries [`Flags::NONE`], as the engine's
/// default actions do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Flags {
    /// `isValid` as sent (the engine's initial value, true, when the bot sent none).
    pub valid: bool,
    /// `damage` as sent (ATTACK only; 0 when the bot sent none).
    pub damage: i32,
    /// `nullified` as sent (ATTACK only; false when the bot sent none).
    pub nullified: bool,
}

impl Flags {
    /// No flag sent: the values the engine's action classes start with.
    pub const NONE: Flags = Flags {
        valid: true,
        damage: 0,
        nullified: false,
    };
}

impl Default for Flags {
    fn default() -> Self {
        Flags::NONE
    }
}

/// One seat's reply with the result flags it sent: what a desktop match plays for a seat
/// ([`super::Ballroom::step_sent`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Sent {
    /// The action.
    pub action: Action,
    /// The flags that came with it.
    pub flags: Flags,
}

impl From<Action> for Sent {
    fn from(action: Action) -> Sent {
        Sent {
            action,
            flags: Flags::NONE,
        }
    }
}

impl From<Sent> for Action {
    fn from(sent: Sent) -> Action {
        sent.action
    }
}

/// One reply as the official engine executes it: `action` for the player `executor` names, with
/// the flags the bot sent. Only re-plays of official logs use another executor than the sender's
/// own seat ([`super::Ballroom::step_replies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Reply {
    /// The player the action is executed for (0..3).
    pub executor: u8,
    /// What is executed.
    pub action: Action,
    /// The result flags the bot sent with it ([`Flags::NONE`]: none).
    pub flags: Flags,
}

/// A USE action as executed: `{"executor":i,"use":b,"isValid":v}`. The flags of every record are
/// what the engine logs: its judgement where it sets one, the bot's [`Flags`] elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UseRecord {
    /// Whether the player used its item.
    pub used: bool,
    /// `isValid`: false if the reference found the action invalid or the bot sent false.
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
    /// `isValid`: false if the reference found the action invalid or the bot sent false.
    pub valid: bool,
}

/// An ATTACK action as executed. `damage` is the attacker's effective damage where the engine sets
/// it (the target is a player 0..3 and no shield stopped the attack); where it does not (nullified,
/// or a target outside 0..3) it is the bot's `damage`, 0 unless the bot sent one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AttackRecord {
    /// The target player index as sent (any `i32`).
    pub target: i32,
    /// `isValid`: false if the reference found the action invalid or the bot sent false.
    pub valid: bool,
    /// `damage` (see [`AttackRecord`]): any Java `int` a bot sends.
    pub damage: i32,
    /// `nullified`: true if the target's shield nullified the attack or the bot sent true.
    pub nullified: bool,
}

/// A BUY action as executed. `bought` is not in the reference log: it says whether gold changed
/// hands (buying NONE can be valid without buying anything).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BuyRecord {
    /// The item asked for.
    pub item: Item,
    /// `isValid`: false if the reference found the action invalid or the bot sent false.
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
