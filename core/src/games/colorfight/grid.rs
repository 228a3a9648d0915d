//! What a cell of the grid holds, packed small: 900 of them must fit a microcontroller's RAM.

/// What a cell yields to its owner (Conquest places mines; Skirmish has none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kind {
    #[default]
    /// Yields nothing.
    Normal,
    /// A gold mine: gold to its owner every tick.
    Gold,
    /// An energy mine: energy to its owner every tick.
    Energy,
}

impl Kind {
    /// The canonical JSON name: `normal`, `gold` or `energy`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Normal => "normal",
            Kind::Gold => "gold",
            Kind::Energy => "energy",
        }
    }
    const fn code(self) -> u8 {
        match self {
            Kind::Normal => 0,
            Kind::Gold => 1,
            Kind::Energy => 2,
        }
    }
}

/// A base on a cell: finished, or being built (it counts towards the limit either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Building {
    #[default]
    /// No base.
    None,
    /// A finished base.
    Base,
    /// A base under construction.
    Building,
}

impl Building {
    /// The canonical JSON name: `none`, `base` or `building`.
    pub const fn name(self) -> &'static str {
        match self {
            Building::None => "none",
            Building::Base => "base",
            Building::Building => "building",
        }
    }
    const fn code(self) -> u8 {
        match self {
            Building::None => 0,
            Building::Base => 1,
            Building::Building => 2,
        }
    }
}

/// The `owner`/`attacker` tag of `seat`: seat + 1 (seats are below `MAX_PLAYERS`, so it never
/// saturates).
pub(crate) const fn seat_tag(seat: usize) -> u8 {
    (seat as u8).saturating_add(1)
}

/// One cell. `owner` and `attacker` are seat + 1, 0 for nobody (as in the canonical JSON).
/// `taken_at` is the tick the cell was last taken or defended; `done_at` the tick its attack
/// completes (0 when nobody attacks it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Cell {
    /// The owner's tag: seat + 1, 0 for nobody.
    pub owner: u8,
    /// What the cell yields.
    pub kind: Kind,
    /// The base on it, if any.
    pub building: Building,
    /// The attacker's tag: seat + 1, 0 when nobody attacks it.
    pub attacker: u8,
    /// The tick it was last taken or defended.
    pub taken_at: u32,
    /// The tick the attack on it completes, 0 when nobody attacks it.
    pub done_at: u32,
}

impl Cell {
    /// `Cell::default()`, as a constant.
    pub const EMPTY: Cell = Cell {
        owner: 0,
        kind: Kind::Normal,
        building: Building::None,
        attacker: 0,
        taken_at: 0,
        done_at: 0,
    };

    /// The owner's seat, if any.
    pub const fn owner_seat(&self) -> Option<usize> {
        match self.owner.checked_sub(1) {
            Some(s) => Some(s as usize),
            None => None,
        }
    }

    /// The attacker's seat, if any.
    pub const fn attacker_seat(&self) -> Option<usize> {
        match self.attacker.checked_sub(1) {
            Some(s) => Some(s as usize),
            None => None,
        }
    }

    pub(crate) fn hash_into(&self, d: &mut crate::Digest) {
        d.u8(self.owner)
            .u8(self.kind.code())
            .u8(self.building.code())
            .u8(self.attacker)
            .u32(self.taken_at)
            .u32(self.done_at);
    }
}
