//! A seat's view of Ants: the fog of war, what the official text protocol sends that seat.
//!
//! As in the official engine (`ants.py`: `update_vision`, `get_player_state`), a seat sees the
//! squares within `viewradius2` of one of its own ants, and of those: water, food, live ants (its
//! own and others'), hills not razed, and the ants that died there last turn. The protocol sends
//! water once, when first seen: the view shows the water in sight every turn, and a bot that
//! wants the water it saw before keeps it itself. Owners are seats (the protocol numbers the
//! players from the reader, `0` being itself: a renaming). The view's fields are private: nothing
//! outside the fog can be read through it.

use super::map::WATER;
use super::state::{wrap, Ant, AntsGame, DeadAnt, Food, Hill};
use crate::game::Game;
use crate::seat::Seat;

/// What the text protocol tells a seat, borrowed from whoever read it: the facts an [`AntsView`]
/// is built from outside the engine ([`AntsView::from_sight`]), without allocation. Squares are
/// row-major (`row * cols + col`); owners are as the reader numbers them (the protocol's own
/// numbering puts the reader at 0: give `seat` 0 then).
#[derive(Clone, Copy, Debug)]
pub struct Sight<'a> {
    /// Turns played so far: the protocol's `turn N` minus one (0 at `turn 1`).
    pub turn: u32,
    /// `rows`.
    pub rows: u16,
    /// `cols`.
    pub cols: u16,
    /// Players in the game. The protocol does not send it before `end`: a reader gives the
    /// players it has seen so far.
    pub players: usize,
    /// `turns`.
    pub turns: u16,
    /// `viewradius2`.
    pub viewradius2: u16,
    /// `attackradius2`.
    pub attackradius2: u16,
    /// `spawnradius2`.
    pub spawnradius2: u16,
    /// `player_seed`.
    pub player_seed: i64,
    /// Water seen so far, by square (`w` lines are sent once, when first seen: a reader keeps
    /// them); squares past its end are not known as water.
    pub water: &'a [bool],
    /// This turn's `a` lines: live ants (the view reads their `sq` and `owner` only).
    pub ants: &'a [Ant],
    /// This turn's `f` lines: food (the view reads `sq` only).
    pub food: &'a [Food],
    /// This turn's `h` lines: hills not razed (the view reads `sq` and `owner`, and shows those
    /// whose `killed_by` is `None`).
    pub hills: &'a [Hill],
    /// This turn's `d` lines: the ants that died last turn (the view reads `sq` and `owner`).
    pub dead: &'a [DeadAnt],
    /// Whether the game is over (`end` was read).
    pub finished: bool,
}

/// Where a view's facts come from: the engine's state, or what the protocol sent; and the seat
/// (a byte beside the tag: the view stays two words, as when it was the state and the seat).
#[derive(Debug)]
enum Source<'a, const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> {
    Game(&'a AntsGame<SQ, A, F, H, O>, u8),
    Sight(&'a Sight<'a>, u8),
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Clone
    for Source<'_, SQ, A, F, H, O>
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Copy
    for Source<'_, SQ, A, F, H, O>
{
}

/// The seat as the view keeps it (seats are under `MAX_PLAYERS`, 10).
fn seat_byte(seat: Seat) -> u8 {
    u8::try_from(seat).unwrap_or(u8::MAX)
}

/// Squared distance on a `rows` x `cols` torus (as `AntsGame::distance2`).
fn torus_distance2(rows: u16, cols: u16, a: usize, b: usize) -> u32 {
    let w = usize::from(cols.max(1));
    let rc = |sq: usize| {
        (
            sq.checked_div(w).unwrap_or(0),
            sq.checked_rem(w).unwrap_or(0),
        )
    };
    let ((ar, ac), (br, bc)) = (rc(a), rc(b));
    let d = |x: usize, y: usize, n: u16| {
        let d = x.abs_diff(y) as u32;
        d.min(u32::from(n).saturating_sub(d))
    };
    let (dr, dc) = (d(ar, br, rows), d(ac, bc, cols));
    dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc))
}

/// `sq` moved by `(dr, dc)` on a `rows` x `cols` torus (as the engine's `offset`).
fn torus_offset(rows: u16, cols: u16, sq: usize, dr: i32, dc: i32) -> usize {
    let w = usize::from(cols.max(1));
    let (r, c) = (
        sq.checked_div(w).unwrap_or(0) as i32,
        sq.checked_rem(w).unwrap_or(0) as i32,
    );
    let r = wrap(r.saturating_add(dr), i32::from(rows)) as usize;
    let c = wrap(c.saturating_add(dc), i32::from(cols)) as usize;
    r.saturating_mul(w).saturating_add(c)
}

/// Seat `seat`'s view of an Ants game ([`Game::view`]): the fog of war. Built by the engine from
/// its state, or from what the text protocol sent the seat ([`AntsView::from_sight`]): the same
/// answers either way, except the order the iterators give things in (the engine's lists, or
/// the protocol's lines, sorted by square) and [`AntsView::players`] (not sent before the end).
#[derive(Debug)]
pub struct AntsView<
    'a,
    const SQ: usize,
    const A: usize,
    const F: usize,
    const H: usize,
    const O: usize,
> {
    src: Source<'a, SQ, A, F, H, O>,
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Clone
    for AntsView<'_, SQ, A, F, H, O>
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> Copy
    for AntsView<'_, SQ, A, F, H, O>
{
}

impl<'a, const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsView<'a, SQ, A, F, H, O>
{
    pub(super) fn new(game: &'a AntsGame<SQ, A, F, H, O>, seat: Seat) -> Self {
        AntsView {
            src: Source::Game(game, seat_byte(seat)),
        }
    }

    /// Seat `seat`'s view built from what the text protocol sent it (`sight`): how a bot runs
    /// outside the engine (a process speaking the protocol). Nothing is copied or allocated.
    pub fn from_sight(sight: &'a Sight<'a>, seat: Seat) -> Self {
        AntsView {
            src: Source::Sight(sight, seat_byte(seat)),
        }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        match self.src {
            Source::Game(_, seat) | Source::Sight(_, seat) => Seat::from(seat),
        }
    }
    /// Turns played so far (the protocol's `turn N` is this plus one).
    pub fn turn(&self) -> u32 {
        match self.src {
            Source::Game(g, _) => g.turn(),
            Source::Sight(s, _) => s.turn,
        }
    }
    /// Rows of the map (the protocol's `rows`).
    pub fn rows(&self) -> u16 {
        match self.src {
            Source::Game(g, _) => g.rows(),
            Source::Sight(s, _) => s.rows,
        }
    }
    /// Columns of the map (`cols`).
    pub fn cols(&self) -> u16 {
        match self.src {
            Source::Game(g, _) => g.cols(),
            Source::Sight(s, _) => s.cols,
        }
    }
    /// Players in the game (from the protocol: those seen so far, see [`Sight::players`]).
    pub fn players(&self) -> usize {
        match self.src {
            Source::Game(g, _) => g.players(),
            Source::Sight(s, _) => s.players,
        }
    }
    /// The game's turn limit (`turns`).
    pub fn turns(&self) -> u16 {
        match self.src {
            Source::Game(g, _) => g.turns(),
            Source::Sight(s, _) => s.turns,
        }
    }
    /// Squared view radius (`viewradius2`).
    pub fn viewradius2(&self) -> u16 {
        match self.src {
            Source::Game(g, _) => g.viewradius2(),
            Source::Sight(s, _) => s.viewradius2,
        }
    }
    /// Squared attack radius (`attackradius2`).
    pub fn attackradius2(&self) -> u16 {
        match self.src {
            Source::Game(g, _) => g.attackradius2(),
            Source::Sight(s, _) => s.attackradius2,
        }
    }
    /// Squared spawn radius (`spawnradius2`).
    pub fn spawnradius2(&self) -> u16 {
        match self.src {
            Source::Game(g, _) => g.spawnradius2(),
            Source::Sight(s, _) => s.spawnradius2,
        }
    }
    /// The seed the protocol gives the players (`player_seed`).
    pub fn player_seed(&self) -> i64 {
        match self.src {
            Source::Game(g, _) => g.player_seed(),
            Source::Sight(s, _) => s.player_seed,
        }
    }
    /// Squared distance between two squares on the torus (row-major square numbers).
    pub fn distance2(&self, a: usize, b: usize) -> u32 {
        match self.src {
            Source::Game(g, _) => g.distance2(a, b),
            Source::Sight(s, _) => torus_distance2(s.rows, s.cols, a, b),
        }
    }

    /// The live ants the source lists (each source's lists have the same types, so that the
    /// iterators over them are the same whatever the source).
    fn ant_list(&self) -> &'a [Ant] {
        match self.src {
            Source::Game(g, _) => g.ants(),
            Source::Sight(s, _) => s.ants,
        }
    }

    /// The seat's own live ants' squares.
    fn own(&self) -> impl Iterator<Item = usize> + 'a {
        let seat = self.seat();
        self.ant_list()
            .iter()
            .filter(move |a| a.owner as usize == seat)
            .map(|a| a.sq as usize)
    }

    /// Whether square `sq` is in sight: within `viewradius2` of one of the seat's ants.
    pub fn is_visible(&self, sq: usize) -> bool {
        let r2 = self.viewradius2() as u32;
        self.own().any(|a| self.distance2(a, sq) <= r2)
    }

    /// Calls `f(square, is_water)` for every square in sight (a square in sight of several ants
    /// comes once for each), as the engine marks its vision: ant by ant, offset by offset.
    pub fn for_each_visible(&self, mut f: impl FnMut(usize, bool)) {
        let game = match self.src {
            Source::Game(g, _) => g,
            Source::Sight(s, _) => {
                return visit(
                    self.own(),
                    s.viewradius2,
                    |a, dr, dc| torus_offset(s.rows, s.cols, a, dr, dc),
                    |sq| s.water.get(sq).copied().unwrap_or(false),
                    f,
                )
            }
        };
        // The engine's state: its own offset and map, inline (the boards' stack budgets are
        // measured with this loop as it was).
        let r2 = game.viewradius2() as i32;
        // `viewradius2` is a u16: the radius is under 256.
        let mut r = 0i32;
        while r.saturating_add(1).saturating_mul(r.saturating_add(1)) <= r2 {
            r = r.saturating_add(1);
        }
        for a in self.own() {
            for dr in r.saturating_neg()..=r {
                for dc in r.saturating_neg()..=r {
                    if dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc)) <= r2 {
                        let sq = game.offset(a, dr, dc);
                        f(sq, game.square(sq) == WATER);
                    }
                }
            }
        }
    }

    /// Whether `sq` is water in sight (`false` out of sight: not known).
    pub fn is_water(&self, sq: usize) -> bool {
        let water = match self.src {
            Source::Game(g, _) => g.square(sq) == WATER,
            Source::Sight(s, _) => s.water.get(sq).copied().unwrap_or(false),
        };
        water && self.is_visible(sq)
    }

    /// The live ants in sight, as `(square, owner)`: the seat's own always (they are in sight).
    pub fn ants(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        self.ant_list()
            .iter()
            .map(|a| (a.sq as usize, a.owner as Seat))
            .filter(|&(sq, owner)| owner == self.seat() || self.is_visible(sq))
    }

    /// The food in sight, by square.
    pub fn food(&self) -> impl Iterator<Item = usize> + '_ {
        let food = match self.src {
            Source::Game(g, _) => g.food(),
            Source::Sight(s, _) => s.food,
        };
        food.iter()
            .map(|f| f.sq as usize)
            .filter(|&sq| self.is_visible(sq))
    }

    /// The hills in sight that are not razed, as `(square, owner)`.
    pub fn hills(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        let hills = match self.src {
            Source::Game(g, _) => g.hills(),
            Source::Sight(s, _) => s.hills,
        };
        hills
            .iter()
            .filter(|h| h.killed_by.is_none())
            .map(|h| (h.sq as usize, h.owner as Seat))
            .filter(|&(sq, _)| self.is_visible(sq))
    }

    /// The ants that died last turn in sight, as `(square, owner)` (the protocol also sends the
    /// seat's own dead out of sight: not shown, as the engine's view shows none).
    pub fn dead(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        let dead = match self.src {
            Source::Game(g, _) => g.killed(),
            Source::Sight(s, _) => s.dead,
        };
        dead.iter()
            .map(|a| (a.sq as usize, a.owner as Seat))
            .filter(|&(sq, _)| self.is_visible(sq))
    }

    /// Whether the game is over for everyone.
    pub fn is_finished(&self) -> bool {
        match self.src {
            Source::Game(g, _) => g.is_finished(),
            Source::Sight(s, _) => s.finished,
        }
    }
}

/// `f(square, is_water)` for every square within `viewradius2` of each of `own`, ant by ant,
/// offset by offset (the engine's order).
fn visit(
    own: impl Iterator<Item = usize>,
    viewradius2: u16,
    offset: impl Fn(usize, i32, i32) -> usize,
    water: impl Fn(usize) -> bool,
    mut f: impl FnMut(usize, bool),
) {
    let r2 = viewradius2 as i32;
    // `viewradius2` is a u16: the radius is under 256.
    let mut r = 0i32;
    while r.saturating_add(1).saturating_mul(r.saturating_add(1)) <= r2 {
        r = r.saturating_add(1);
    }
    for a in own {
        for dr in r.saturating_neg()..=r {
            for dc in r.saturating_neg()..=r {
                if dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc)) <= r2 {
                    let sq = offset(a, dr, dc);
                    f(sq, water(sq));
                }
            }
        }
    }
}
