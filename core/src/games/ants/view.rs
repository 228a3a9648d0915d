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
use super::state::{wrap, AntsGame};
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
    /// This turn's `a` lines: live ants as `(square, owner)`.
    pub ants: &'a [(usize, Seat)],
    /// This turn's `f` lines: food by square.
    pub food: &'a [usize],
    /// This turn's `h` lines: hills not razed as `(square, owner)`.
    pub hills: &'a [(usize, Seat)],
    /// This turn's `d` lines: the ants that died last turn as `(square, owner)`.
    pub dead: &'a [(usize, Seat)],
    /// Whether the game is over (`end` was read).
    pub finished: bool,
}

/// Where a view's facts come from: the engine's state, or what the protocol sent.
#[derive(Debug)]
enum Source<'a, const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize> {
    Game(&'a AntsGame<SQ, A, F, H, O>),
    Sight(&'a Sight<'a>),
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

/// One of two iterators of the same items (the view's two sources).
enum Either<L, R> {
    Left(L),
    Right(R),
}

impl<T, L: Iterator<Item = T>, R: Iterator<Item = T>> Iterator for Either<L, R> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        match self {
            Either::Left(l) => l.next(),
            Either::Right(r) => r.next(),
        }
    }
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
    seat: Seat,
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
            src: Source::Game(game),
            seat,
        }
    }

    /// Seat `seat`'s view built from what the text protocol sent it (`sight`): how a bot runs
    /// outside the engine (a process speaking the protocol). Nothing is copied or allocated.
    pub fn from_sight(sight: &'a Sight<'a>, seat: Seat) -> Self {
        AntsView {
            src: Source::Sight(sight),
            seat,
        }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// Turns played so far (the protocol's `turn N` is this plus one).
    pub fn turn(&self) -> u32 {
        match self.src {
            Source::Game(g) => g.turn(),
            Source::Sight(s) => s.turn,
        }
    }
    /// Rows of the map (the protocol's `rows`).
    pub fn rows(&self) -> u16 {
        match self.src {
            Source::Game(g) => g.rows(),
            Source::Sight(s) => s.rows,
        }
    }
    /// Columns of the map (`cols`).
    pub fn cols(&self) -> u16 {
        match self.src {
            Source::Game(g) => g.cols(),
            Source::Sight(s) => s.cols,
        }
    }
    /// Players in the game (from the protocol: those seen so far, see [`Sight::players`]).
    pub fn players(&self) -> usize {
        match self.src {
            Source::Game(g) => g.players(),
            Source::Sight(s) => s.players,
        }
    }
    /// The game's turn limit (`turns`).
    pub fn turns(&self) -> u16 {
        match self.src {
            Source::Game(g) => g.turns(),
            Source::Sight(s) => s.turns,
        }
    }
    /// Squared view radius (`viewradius2`).
    pub fn viewradius2(&self) -> u16 {
        match self.src {
            Source::Game(g) => g.viewradius2(),
            Source::Sight(s) => s.viewradius2,
        }
    }
    /// Squared attack radius (`attackradius2`).
    pub fn attackradius2(&self) -> u16 {
        match self.src {
            Source::Game(g) => g.attackradius2(),
            Source::Sight(s) => s.attackradius2,
        }
    }
    /// Squared spawn radius (`spawnradius2`).
    pub fn spawnradius2(&self) -> u16 {
        match self.src {
            Source::Game(g) => g.spawnradius2(),
            Source::Sight(s) => s.spawnradius2,
        }
    }
    /// The seed the protocol gives the players (`player_seed`).
    pub fn player_seed(&self) -> i64 {
        match self.src {
            Source::Game(g) => g.player_seed(),
            Source::Sight(s) => s.player_seed,
        }
    }
    /// Squared distance between two squares on the torus (row-major square numbers).
    pub fn distance2(&self, a: usize, b: usize) -> u32 {
        match self.src {
            Source::Game(g) => g.distance2(a, b),
            Source::Sight(s) => torus_distance2(s.rows, s.cols, a, b),
        }
    }

    /// The square `(dr, dc)` from `sq` on the torus.
    fn offset(&self, sq: usize, dr: i32, dc: i32) -> usize {
        match self.src {
            Source::Game(g) => g.offset(sq, dr, dc),
            Source::Sight(s) => torus_offset(s.rows, s.cols, sq, dr, dc),
        }
    }

    /// Whether `sq` is water (the engine's map; the protocol's water seen so far).
    fn water(&self, sq: usize) -> bool {
        match self.src {
            Source::Game(g) => g.square(sq) == WATER,
            Source::Sight(s) => s.water.get(sq).copied().unwrap_or(false),
        }
    }

    /// Every live ant the source holds, as `(square, owner)`.
    fn all_ants(&self) -> impl Iterator<Item = (usize, Seat)> + 'a {
        match self.src {
            Source::Game(g) => {
                Either::Left(g.ants().iter().map(|a| (a.sq as usize, a.owner as Seat)))
            }
            Source::Sight(s) => Either::Right(s.ants.iter().copied()),
        }
    }

    /// The seat's own live ants' squares.
    fn own(&self) -> impl Iterator<Item = usize> + 'a {
        let seat = self.seat;
        self.all_ants()
            .filter(move |&(_, owner)| owner == seat)
            .map(|(sq, _)| sq)
    }

    /// Whether square `sq` is in sight: within `viewradius2` of one of the seat's ants.
    pub fn is_visible(&self, sq: usize) -> bool {
        let r2 = u32::from(self.viewradius2());
        self.own().any(|a| self.distance2(a, sq) <= r2)
    }

    /// Calls `f(square, is_water)` for every square in sight (a square in sight of several ants
    /// comes once for each), as the engine marks its vision: ant by ant, offset by offset.
    pub fn for_each_visible(&self, mut f: impl FnMut(usize, bool)) {
        let r2 = i32::from(self.viewradius2());
        // `viewradius2` is a u16: the radius is under 256.
        let mut r = 0i32;
        while r.saturating_add(1).saturating_mul(r.saturating_add(1)) <= r2 {
            r = r.saturating_add(1);
        }
        for a in self.own() {
            for dr in r.saturating_neg()..=r {
                for dc in r.saturating_neg()..=r {
                    if dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc)) <= r2 {
                        let sq = self.offset(a, dr, dc);
                        f(sq, self.water(sq));
                    }
                }
            }
        }
    }

    /// Whether `sq` is water in sight (`false` out of sight: not known).
    pub fn is_water(&self, sq: usize) -> bool {
        self.water(sq) && self.is_visible(sq)
    }

    /// The live ants in sight, as `(square, owner)`: the seat's own always (they are in sight).
    pub fn ants(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        self.all_ants()
            .filter(|&(sq, owner)| owner == self.seat || self.is_visible(sq))
    }

    /// The food in sight, by square.
    pub fn food(&self) -> impl Iterator<Item = usize> + '_ {
        let all = match self.src {
            Source::Game(g) => Either::Left(g.food().iter().map(|f| f.sq as usize)),
            Source::Sight(s) => Either::Right(s.food.iter().copied()),
        };
        all.filter(|&sq| self.is_visible(sq))
    }

    /// The hills in sight that are not razed, as `(square, owner)`.
    pub fn hills(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        let all = match self.src {
            Source::Game(g) => Either::Left(
                g.hills()
                    .iter()
                    .filter(|h| h.killed_by.is_none())
                    .map(|h| (h.sq as usize, h.owner as Seat)),
            ),
            Source::Sight(s) => Either::Right(s.hills.iter().copied()),
        };
        all.filter(|&(sq, _)| self.is_visible(sq))
    }

    /// The ants that died last turn in sight, as `(square, owner)` (the protocol also sends the
    /// seat's own dead out of sight: not shown, as the engine's view shows none).
    pub fn dead(&self) -> impl Iterator<Item = (usize, Seat)> + '_ {
        let all = match self.src {
            Source::Game(g) => {
                Either::Left(g.killed().iter().map(|a| (a.sq as usize, a.owner as Seat)))
            }
            Source::Sight(s) => Either::Right(s.dead.iter().copied()),
        };
        all.filter(|&(sq, _)| self.is_visible(sq))
    }

    /// Whether the game is over for everyone.
    pub fn is_finished(&self) -> bool {
        match self.src {
            Source::Game(g) => g.is_finished(),
            Source::Sight(s) => s.finished,
        }
    }
}
