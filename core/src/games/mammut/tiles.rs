//! The 32 tiles, their two sides, and sets of tiles.
//!
//! The tile list is fixed by `rules/mammut.md` (the seed text never published one): [`TILES`] is
//! the composition, physical tile `k` having the sides `TILES[k]`. The ids players see and act on
//! are dealt to the physical tiles at random at the start of every round ([`Deal`]), so an id says
//! nothing of a Mystery tile's hidden side. With 32 tiles a set of tile ids is one `u32` bitmask,
//! so a hand, the middle and "which side is up" are one word each: conservation is a few bit
//! operations, and the state stays small enough for the smallest board.

/// What one side of a tile shows. The order is the JSON order of the rules file and never changes
/// (it is hashed into the digest as its index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Side {
    /// Fire: the player with the fewest loses 5 points.
    Fire,
    /// Meat: the three players with the most get 8, 5, 2.
    Meat,
    /// Fur: cumulative fur points, and the round's most and fewest gain and lose the round number.
    Fur,
    /// Ivory: 2 points each.
    Ivory,
    /// Axe: 1 point each, 3 in the last round.
    Axe,
    /// The Bat, an animal (tile 1, a Fire on its other side).
    Bat,
    /// The Opossum, an animal (tile 2, a Meat on its other side).
    Opossum,
    /// The Bunny, an animal (tile 3, a Fur on its other side).
    Bunny,
    /// The Buffalo, an animal (tile 4, a Meat on its other side).
    Buffalo,
    /// The Squirrel, an animal (tile 5, a Ivory on its other side).
    Squirrel,
    /// The Beaver, an animal (tile 6, a Axe on its other side).
    Beaver,
    /// The Duck, an animal (tile 7, a Fur on its other side).
    Duck,
    /// A Mystery tile's hidden side until scoring turns it.
    Mystery,
    /// The tie-breaker tile: tie order runs clockwise.
    Clockwise,
    /// The tie-breaker tile: tie order runs counter-clockwise.
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

    /// Whether the side is one of the seven animals.
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

/// The tie-breaker tile's index in [`TILES`] (its id changes every round: [`Deal::tie_tile`]).
pub const TIE_TILE: u8 = 0;

/// Both sides of every physical tile (`rules/mammut.md`, "Tiles"), in the rules file's order.
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

/// Which side of every tile is up: bit `i` set means the tile with id `i` shows its second side.
pub type Faces = u32;

/// The physical tiles (indices into [`TILES`]) whose first side is Mystery.
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

/// One round's deal: which physical tile each id names, and which side of each is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Deal {
    /// `kinds[id]`: the physical tile (an index into [`TILES`]) the id names this round.
    kinds: [u8; TILE_COUNT],
    faces: Faces,
}

impl Default for Deal {
    fn default() -> Self {
        Deal::identity(0)
    }
}

impl Deal {
    /// A deal naming physical tile `kinds[id]` by `id`. `kinds` should be a permutation of
    /// `0..32`; an entry out of range names no tile (it shows nothing and scores nothing).
    pub const fn new(kinds: [u8; TILE_COUNT], faces: Faces) -> Deal {
        Deal { kinds, faces }
    }

    /// Id `i` names physical tile `i` (the rules file's order; for tests and pictures).
    pub fn identity(faces: Faces) -> Deal {
        let mut kinds = [0u8; TILE_COUNT];
        for (i, k) in kinds.iter_mut().enumerate() {
            *k = i as u8;
        }
        Deal { kinds, faces }
    }

    /// `kinds()[id]`: the physical tile each id names.
    pub const fn kinds(&self) -> &[u8; TILE_COUNT] {
        &self.kinds
    }

    /// Which side of every id is up.
    pub const fn faces(&self) -> Faces {
        self.faces
    }

    /// Both sides of the tile with id `id` (`None` for an unknown id).
    pub fn sides(&self, id: u8) -> Option<[Side; 2]> {
        let kind = *self.kinds.get(id as usize)?;
        TILES.get(kind as usize).copied()
    }

    /// The side the tile with id `id` shows (`None` for an unknown id).
    pub fn visible(&self, id: u8) -> Option<Side> {
        let sides = self.sides(id)?;
        let up = self.faces.checked_shr(id as u32).unwrap_or(0) & 1;
        sides.get(up as usize).copied()
    }

    /// The ids of the tiles whose first side is Mystery.
    pub fn mystery(&self) -> TileSet {
        let mut set = TileSet::EMPTY;
        for (id, &kind) in self.kinds.iter().enumerate() {
            if MYSTERY_TILES.contains(kind) {
                set = set.with(id as u8);
            }
        }
        set
    }

    /// The deal after every Mystery tile is turned over (scoring).
    #[must_use]
    pub fn revealed(&self) -> Deal {
        Deal {
            kinds: self.kinds,
            faces: self.faces | self.mystery().0,
        }
    }

    /// The tie-breaker tile's id this round.
    pub fn tie_tile(&self) -> u8 {
        self.kinds
            .iter()
            .position(|&k| k == TIE_TILE)
            .map_or(u8::MAX, |id| id as u8)
    }

    /// The ids of every tile showing `side`.
    pub fn side_mask(&self, side: Side) -> TileSet {
        self.side_masks()
            .get(side.index())
            .copied()
            .unwrap_or_default()
    }

    /// The ids of the tiles showing each side, indexed by [`Side::index`].
    pub fn side_masks(&self) -> [TileSet; SIDE_TYPES] {
        let mut masks = [TileSet::EMPTY; SIDE_TYPES];
        for id in 0..TILE_COUNT as u8 {
            if let Some(side) = self.visible(id) {
                if let Some(m) = masks.get_mut(side.index()) {
                    *m = m.with(id);
                }
            }
        }
        masks
    }

    /// The animals `hand` shows, as an animal set.
    pub fn animals_in(&self, hand: TileSet) -> u8 {
        hand.iter()
            .filter_map(|id| self.visible(id))
            .fold(0, |acc, s| acc | s.animal_bit())
    }
}

/// A set of tiles, as a bitmask over tile ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TileSet(pub u32);

impl TileSet {
    crate::seat::bit_set_ops!(TileSet, u8, tile => tile as usize, TILE_COUNT);

    /// Every tile id (and the ids above [`TILE_COUNT`], which no tile has).
    pub const ALL: TileSet = TileSet(u32::MAX);

    #[must_use]
    /// The tiles in either set.
    pub const fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    #[must_use]
    /// The tiles in `self` and not in `other`.
    pub const fn minus(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    #[must_use]
    /// The tiles in both sets.
    pub const fn and(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    /// Whether every tile of `self` is in `other`.
    pub const fn is_subset(self, other: TileSet) -> bool {
        self.0 & !other.0 == 0
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

    /// The tiles of this set that show `side` under `deal`.
    #[must_use]
    pub fn showing(self, side: Side, deal: &Deal) -> TileSet {
        TileSet(self.0 & deal.side_mask(side).0)
    }
}
