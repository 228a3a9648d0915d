//! The 32 tiles, their two sides, and sets of tiles.
//!
//! The tile list is fixed by `rules/mammut.md` (the seed text never published one); ids are the
//! positions in [`TILES`]. With 32 tiles a set of tiles is one `u32` bitmask, so a hand, the middle and
//! "which side is up" are one word each: conservation is a few bit operations, and the state stays
//! small enough for the smallest board.

/// What one side of a tile shows. The order is the JSON order of the rules file and never changes
/// (it is hashed into the digest as its index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Side {
    Fire,
    Meat,
    Fur,
    Ivory,
    Axe,
    Bat,
    Opossum,
    Bunny,
    Buffalo,
    Squirrel,
    Beaver,
    Duck,
    Mystery,
    Clockwise,
    CounterClockwise,
}

/// The number of tile types (the seed text's "exactly 15 different types").
pub const SIDE_TYPES: usize = 15;

/// The number of different animals.
pub const ANIMALS: usize = 7;

impl Side {
    /// Every side, in index order.
    pub const ALL: [Side; SIDE_TYPES] = [
        Side::Fire,
        Side::Meat,
        Side::Fur,
        Side::Ivory,
        Side::Axe,
        Side::Bat,
        Side::Opossum,
        Side::Bunny,
        Side::Buffalo,
        Side::Squirrel,
        Side::Beaver,
        Side::Duck,
        Side::Mystery,
        Side::Clockwise,
        Side::CounterClockwise,
    ];

    /// The index of this side in [`Side::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Fire => "Fire",
            Side::Meat => "Meat",
            Side::Fur => "Fur",
            Side::Ivory => "Ivory",
            Side::Axe => "Axe",
            Side::Bat => "Bat",
            Side::Opossum => "Opossum",
            Side::Bunny => "Bunny",
            Side::Buffalo => "Buffalo",
            Side::Squirrel => "Squirrel",
            Side::Beaver => "Beaver",
            Side::Duck => "Duck",
            Side::Mystery => "Mystery",
            Side::Clockwise => "Clockwise",
            Side::CounterClockwise => "CounterClockwise",
        }
    }

    /// The side with this JSON name.
    pub fn from_name(name: &str) -> Option<Side> {
        Side::ALL.iter().copied().find(|s| s.name() == name)
    }

    pub const fn is_animal(self) -> bool {
        matches!(
            self,
            Side::Bat
                | Side::Opossum
                | Side::Bunny
                | Side::Buffalo
                | Side::Squirrel
                | Side::Beaver
                | Side::Duck
        )
    }

    /// This animal's bit in an animal set (`0` for sides that are not animals).
    pub const fn animal_bit(self) -> u8 {
        if self.is_animal() {
            // An animal is at or after Bat: the shift is in 0..8.
            match 1u8.checked_shl((self as u8).wrapping_sub(Side::Bat as u8) as u32) {
                Some(bit) => bit,
                None => 0,
            }
        } else {
            0
        }
    }
}

/// The number of physical tiles.
pub const TILE_COUNT: usize = 32;

// Sets of tiles are `u32` bitmasks: exactly one bit per tile.
const _: () = assert!(TILE_COUNT == u32::BITS as usize);

/// The tie-breaker tile's id.
pub const TIE_TILE: u8 = 0;

/// Both sides of every tile, by id (`rules/mammut.md`, "Tiles").
pub const TILES: [[Side; 2]; TILE_COUNT] = {
    use Side::*;
    [
        [Clockwise, CounterClockwise],
        [Bat, Fire],
        [Opossum, Meat],
        [Bunny, Fur],
        [Buffalo, Meat],
        [Squirrel, Ivory],
        [Beaver, Axe],
        [Duck, Fur],
        [Mystery, Fire],
        [Mystery, Meat],
        [Mystery, Fur],
        [Mystery, Ivory],
        [Mystery, Axe],
        [Mystery, Meat],
        [Fire, Meat],
        [Fire, Meat],
        [Fire, Fur],
        [Fire, Fur],
        [Fire, Ivory],
        [Fire, Axe],
        [Meat, Fur],
        [Meat, Fur],
        [Meat, Ivory],
        [Meat, Ivory],
        [Meat, Axe],
        [Fur, Ivory],
        [Fur, Ivory],
        [Fur, Axe],
        [Ivory, Axe],
        [Ivory, Axe],
        [Fur, Meat],
        [Fire, Axe],
    ]
};

/// Which side of every tile is up: bit `i` set means tile `i` shows its second side.
pub type Faces = u32;

/// The tiles whose first side is Mystery: turning them at scoring sets their bit.
pub const MYSTERY_TILES: TileSet = {
    let mut mask = 0u32;
    let mut bit = 1u32;
    let mut rest: &[[Side; 2]] = &TILES;
    while let [[first, _], tail @ ..] = rest {
        if matches!(first, Side::Mystery) {
            mask |= bit;
        }
        bit <<= 1;
        rest = tail;
    }
    TileSet(mask)
};

/// The side tile `tile` shows under `faces` (`None` for an unknown tile).
pub fn visible(tile: u8, faces: Faces) -> Option<Side> {
    let sides = TILES.get(tile as usize)?;
    let up = faces.checked_shr(tile as u32).unwrap_or(0) & 1;
    sides.get(up as usize).copied()
}

/// The faces after every Mystery tile is turned over (scoring).
pub const fn reveal(faces: Faces) -> Faces {
    faces | MYSTERY_TILES.0
}

/// A set of tiles, as a bitmask over tile ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TileSet(pub u32);

impl TileSet {
    pub const EMPTY: TileSet = TileSet(0);
    pub const ALL: TileSet = TileSet(u32::MAX);

    /// Only `tile` (empty for an unknown tile).
    pub const fn only(tile: u8) -> TileSet {
        if (tile as usize) < TILE_COUNT {
            TileSet(1 << tile)
        } else {
            TileSet::EMPTY
        }
    }

    pub const fn contains(self, tile: u8) -> bool {
        (tile as usize) < TILE_COUNT && self.0 & (1 << tile) != 0
    }

    #[must_use]
    pub const fn with(self, tile: u8) -> TileSet {
        TileSet(self.0 | TileSet::only(tile).0)
    }

    #[must_use]
    pub const fn without(self, tile: u8) -> TileSet {
        TileSet(self.0 & !TileSet::only(tile).0)
    }

    #[must_use]
    pub const fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    #[must_use]
    pub const fn minus(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    #[must_use]
    pub const fn and(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    pub const fn is_subset(self, other: TileSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest tile id in the set.
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8)
        }
    }

    /// The `n` lowest tile ids of the set (all of them if it has fewer).
    #[must_use]
    pub fn lowest(self, n: usize) -> TileSet {
        let mut out = TileSet::EMPTY;
        for tile in self.iter().take(n) {
            out = out.with(tile);
        }
        out
    }

    /// The tile ids in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut rest = self.0;
        core::iter::from_fn(move || {
            if rest == 0 {
                None
            } else {
                let tile = rest.trailing_zeros() as u8;
                rest &= rest.wrapping_sub(1);
                Some(tile)
            }
        })
    }

    /// The tiles of this set that show (after scoring's reveal, if `faces` is revealed) `side`.
    #[must_use]
    pub fn showing(self, side: Side, faces: Faces) -> TileSet {
        TileSet(self.0 & side_mask(side, faces).0)
    }
}

/// Every tile showing `side` under `faces`.
pub fn side_mask(side: Side, faces: Faces) -> TileSet {
    let mut mask = 0u32;
    for (i, sides) in TILES.iter().enumerate() {
        let up = (faces >> i) & 1;
        if sides.get(up as usize) == Some(&side) {
            mask |= 1 << i;
        }
    }
    TileSet(mask)
}

/// The tiles of every side under `faces`, indexed by [`Side::index`].
pub fn side_masks(faces: Faces) -> [TileSet; SIDE_TYPES] {
    let mut masks = [TileSet::EMPTY; SIDE_TYPES];
    for (i, sides) in TILES.iter().enumerate() {
        let up = (faces >> i) & 1;
        if let Some(side) = sides.get(up as usize) {
            if let Some(m) = masks.get_mut(side.index()) {
                *m = m.with(i as u8);
            }
        }
    }
    masks
}

/// The animals shown in `hand` under `faces`, as an animal set.
pub fn animals_in(hand: TileSet, faces: Faces) -> u8 {
    hand.iter()
        .filter_map(|t| visible(t, faces))
        .fold(0, |acc, s| acc | s.animal_bit())
}
