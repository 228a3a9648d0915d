//! The fixed tables of the game: classes, items, stat sets, board positions and phases.
//!
//! Names are the reference engine's enum names, because bots send and receive them verbatim.

/// The board is `BOARD` × `BOARD` tiles.
pub const BOARD: i32 = 10;
/// Number of players; the reference engine hard-codes four.
pub const PLAYERS: usize = 4;
/// Turns in a game (`Config.TURNS`).
pub const TURNS: u8 = 100;
/// First and last coordinate of the 2×2 control block: `(BOARD-1)/2` and one more.
pub const CONTROL_BEGIN: i32 = (BOARD - 1) / 2;
/// The last coordinate of the control block.
pub const CONTROL_END: i32 = CONTROL_BEGIN + 1;
/// Points for ending a turn on a control tile.
pub const CONTROL_POINTS: u16 = 2;

/// Which rules text to follow where the public rules and the reference engine disagree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Ruleset {
    /// The official engine (MechMania-28/Engine 1.6), quirks included.
    #[default]
    Engine,
    /// The public rules text: class items cost 10, a shield stops the strongest attack on its user,
    /// buying nothing costs nothing.
    AsWritten,
}

impl Ruleset {
    /// The name on the command line: `engine` or `as-written`.
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Engine => "engine",
            Ruleset::AsWritten => "as-written",
        }
    }

    /// The ruleset named `name` ([`Ruleset::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Ruleset> {
        match name {
            "engine" => Some(Ruleset::Engine),
            "as-written" => Some(Ruleset::AsWritten),
            _ => None,
        }
    }
}

/// A stat set (`StatSet`): max health, damage, speed, range. Small signed integers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StatSet {
    /// Maximum health.
    pub max_health: i32,
    /// Damage per attack.
    pub damage: i32,
    /// Tiles per move (Manhattan).
    pub speed: i32,
    /// Attack range (Chebyshev).
    pub range: i32,
}

impl StatSet {
    /// A stat set from its four numbers.
    pub const fn new(max_health: i32, damage: i32, speed: i32, range: i32) -> StatSet {
        StatSet {
            max_health,
            damage,
            speed,
            range,
        }
    }

    /// The sum of two stat sets, stat by stat.
    pub const fn plus(self, o: StatSet) -> StatSet {
        StatSet {
            // Java int addition.
            max_health: self.max_health.wrapping_add(o.max_health),
            damage: self.damage.wrapping_add(o.damage),
            speed: self.speed.wrapping_add(o.speed),
            range: self.range.wrapping_add(o.range),
        }
    }
}

/// A character class (`CharacterClass`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Class {
    /// The reference's default class (null or timed-out handshake).
    #[default]
    Knight,
    /// Health 6, damage 5, speed 3, range 2.
    Wizard,
    /// Health 3, damage 3, speed 4, range 3.
    Archer,
}

impl Class {
    /// The three classes, in the reference's order.
    pub const ALL: [Class; 3] = [Class::Knight, Class::Wizard, Class::Archer];

    /// The class's base stats.
    pub const fn stats(self) -> StatSet {
        match self {
            Class::Knight => StatSet::new(9, 6, 2, 1),
            Class::Wizard => StatSet::new(6, 5, 3, 2),
            Class::Archer => StatSet::new(3, 3, 4, 3),
        }
    }

    /// The reference's name (`KNIGHT`, `WIZARD`, `ARCHER`).
    pub const fn name(self) -> &'static str {
        match self {
            Class::Knight => "KNIGHT",
            Class::Wizard => "WIZARD",
            Class::Archer => "ARCHER",
        }
    }

    /// The class named `name` ([`Class::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The class's index in the reference's declaration order.
    pub const fn index(self) -> u8 {
        self as u8
    }
}

/// An item (`Item`), in the reference's declaration order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Item {
    /// Used: shields its user for the turn (what it stops depends on the [`Ruleset`]).
    Shield,
    /// Held: every hit on its holder does 5 damage (the Wizard's base), whatever the attacker's damage.
    ProcrusteanIron,
    /// Used: turns its user into a Knight.
    HeavyBroadsword,
    /// Used: turns its user into a Wizard.
    MagicStaff,
    /// Used: turns its user into an Archer.
    SteelTippedArrow,
    /// Held: speed +1.
    AnemoiWings,
    /// Held: range +1.
    HunterScope,
    /// Held: damage +2.
    RallyBanner,
    /// Used: damage +4 for a turn.
    StrengthPotion,
    /// Used: speed +2 for a turn.
    SpeedPotion,
    /// Used: range +2 for a turn.
    DexterityPotion,
    /// Holding nothing. Also a buyable "item" (the default buy), which the engine prices at 100.
    #[default]
    None,
}

impl Item {
    /// Every item, in the reference's declaration order, [`Item::None`] last.
    pub const ALL: [Item; 12] = [
        Item::Shield,
        Item::ProcrusteanIron,
        Item::HeavyBroadsword,
        Item::MagicStaff,
        Item::SteelTippedArrow,
        Item::AnemoiWings,
        Item::HunterScope,
        Item::RallyBanner,
        Item::StrengthPotion,
        Item::SpeedPotion,
        Item::DexterityPotion,
        Item::None,
    ];

    /// The stat bonus while in effect (timed items) or while held (permanent items).
    pub const fn bonus(self) -> StatSet {
        match self {
            Item::AnemoiWings => StatSet::new(0, 0, 1, 0),
            Item::HunterScope => StatSet::new(0, 0, 0, 1),
            Item::RallyBanner => StatSet::new(0, 2, 0, 0),
            Item::StrengthPotion => StatSet::new(0, 4, 0, 0),
            Item::SpeedPotion => StatSet::new(0, 0, 2, 0),
            Item::DexterityPotion => StatSet::new(0, 0, 0, 2),
            _ => StatSet::new(0, 0, 0, 0),
        }
    }

    /// The reference's `effectTimer`: -1 permanent (passive, cannot be used), 0 one-shot, 1 one turn.
    pub const fn timer(self) -> i8 {
        match self {
            Item::Shield | Item::StrengthPotion | Item::SpeedPotion | Item::DexterityPotion => 1,
            Item::HeavyBroadsword | Item::MagicStaff | Item::SteelTippedArrow => 0,
            _ => -1,
        }
    }

    /// Whether the item is passive (held, never used).
    pub const fn is_permanent(self) -> bool {
        self.timer() == -1
    }

    /// The class a class-change item turns its user into.
    pub const fn class_change(self) -> Option<Class> {
        match self {
            Item::HeavyBroadsword => Some(Class::Knight),
            Item::MagicStaff => Some(Class::Wizard),
            Item::SteelTippedArrow => Some(Class::Archer),
            _ => None,
        }
    }

    /// Price under `ruleset`. The engine charges 8 for class items (the text says 10) and 100 for
    /// NONE (the text has no price for buying nothing: free).
    pub const fn cost(self, ruleset: Ruleset) -> u16 {
        match (self, ruleset) {
            (Item::None, Ruleset::Engine) => 100,
            (Item::None, Ruleset::AsWritten) => 0,
            (
                Item::HeavyBroadsword | Item::MagicStaff | Item::SteelTippedArrow,
                Ruleset::AsWritten,
            ) => 10,
            (Item::StrengthPotion | Item::SpeedPotion | Item::DexterityPotion, _) => 5,
            _ => 8,
        }
    }

    /// The reference's name (`SHIELD`, ..., `NONE`).
    pub const fn name(self) -> &'static str {
        match self {
            Item::Shield => "SHIELD",
            Item::ProcrusteanIron => "PROCRUSTEAN_IRON",
            Item::HeavyBroadsword => "HEAVY_BROADSWORD",
            Item::MagicStaff => "MAGIC_STAFF",
            Item::SteelTippedArrow => "STEEL_TIPPED_ARROW",
            Item::AnemoiWings => "ANEMOI_WINGS",
            Item::HunterScope => "HUNTER_SCOPE",
            Item::RallyBanner => "RALLY_BANNER",
            Item::StrengthPotion => "STRENGTH_POTION",
            Item::SpeedPotion => "SPEED_POTION",
            Item::DexterityPotion => "DEXTERITY_POTION",
            Item::None => "NONE",
        }
    }

    /// The item named `name` ([`Item::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<Item> {
        Item::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The item's index in the reference's declaration order.
    pub const fn index(self) -> u8 {
        self as u8
    }
}

/// A tile. Player positions are always on the board; requested destinations are `i32` (see
/// [`super::Action::Move`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Pos {
    /// Column, 0 at the left.
    pub x: i8,
    /// Row, 0 at the top.
    pub y: i8,
}

impl Pos {
    /// The tile at column `x`, row `y`.
    pub const fn new(x: i8, y: i8) -> Pos {
        Pos { x, y }
    }

    /// `Utility.spawnPoints`, clockwise from the top-left corner.
    pub const fn spawn(seat: usize) -> Pos {
        match seat {
            0 => Pos::new(0, 0),
            1 => Pos::new(9, 0),
            2 => Pos::new(9, 9),
            _ => Pos::new(0, 9),
        }
    }

    /// Whether the tile is one of the 2×2 control block's.
    pub const fn on_control(self) -> bool {
        let (x, y) = (self.x as i32, self.y as i32);
        CONTROL_BEGIN <= x && x <= CONTROL_END && CONTROL_BEGIN <= y && y <= CONTROL_END
    }

    /// Manhattan distance (movement).
    pub const fn manhattan(self, o: Pos) -> i32 {
        // Both at most 255, so the sum is exact.
        (self.x.abs_diff(o.x) as i32).saturating_add(self.y.abs_diff(o.y) as i32)
    }

    /// Chebyshev distance (attack range).
    pub const fn chebyshev(self, o: Pos) -> i32 {
        let dx = self.x.abs_diff(o.x) as i32;
        let dy = self.y.abs_diff(o.y) as i32;
        if dx > dy {
            dx
        } else {
            dy
        }
    }
}

/// The phases of the game, in play order. `Class` happens once, before turn 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Phase {
    /// The handshake: every bot names its starting class.
    Class,
    #[default]
    /// Every bot may use its held item.
    Use,
    /// Every bot moves.
    Move,
    /// Every bot attacks.
    Attack,
    /// Every bot may buy an item.
    Buy,
}

impl Phase {
    /// The reference's `GamePhaseType` name; `CLASS` for the handshake, which the reference
    /// has no phase (nor phase message) for.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Class => "CLASS",
            Phase::Use => "USE",
            Phase::Move => "MOVE",
            Phase::Attack => "ATTACK",
            Phase::Buy => "BUY",
        }
    }

    /// The phase before this one within a turn (`None` for USE and the handshake).
    pub const fn previous(self) -> Option<Phase> {
        match self {
            Phase::Class | Phase::Use => None,
            Phase::Move => Some(Phase::Use),
            Phase::Attack => Some(Phase::Move),
            Phase::Buy => Some(Phase::Attack),
        }
    }

    /// The phase's index in play order (the handshake is 0).
    pub const fn index(self) -> u8 {
        self as u8
    }
}
