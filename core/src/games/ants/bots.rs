//! Built-in bots. They see what their seat sees (the fog of war: [`AntsView`], what the official
//! protocol sends), remember the enemy hills they saw (up to [`HILL_MEMORY`], 33 bytes in the bot)
//! and nothing else (water out of sight is not known: the fields go through it), and are
//! deterministic for their seed.
//!
//! Both walking bots move along breadth-first distance fields (water blocks, the torus wraps), so
//! they find their way through mazes, and never send two of their own ants onto one square.
//! - `hunter`: every ant walks to the nearest food, else the nearest enemy hill, else the nearest
//!   enemy ant, else a random direction.
//! - `strong`: each food is claimed by the nearest free ant only (one ant per food); the other
//!   ants march on the enemy hills, and no ant steps where enemies in reach outnumber its friends.
//! - `hold`: never moves (the official HoldBot).
//!
//! The fields live on the stack: one map-sized array of bytes (bit planes: the fields are spread
//! one at a time, a distance at a time, beside the turn's sight: water, food, own and enemy ants)
//! and two bytes an ant of the build's capacity.

use super::orders::{Dir, Order};
use super::state::{wrap, AntsGame};
use super::view::AntsView;
use crate::game::{Bot, Game};
use crate::rng::Rng;
use crate::seat::{Seat, MAX_SEATS};

const FAR: u16 = u16::MAX;
/// Radius2 within which `strong` counts enemies and friends before stepping.
const DANGER_RADIUS2: u32 = 10;
/// `strong` claims a food for an ant under this walking distance from it.
const CLAIM_REACH: u16 = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// How an [`AntsBot`] plays: which of its goals its ants serve first.
pub enum Style {
    /// `strong`: one ant per food, the others march on the enemy hills, never stepping where it is outnumbered.
    Strong,
    /// `hunter`: every ant walks to the nearest food, else enemy hill, else enemy ant.
    Hunter,
    /// `hold`: never moves (the official HoldBot).
    Hold,
}

/// What the ants not yet given a square head for, in the order a style serves them.
#[derive(Clone, Copy)]
enum Goal {
    Food,
    EnemyHills,
    Enemies,
}
/// How many enemy hills a bot remembers (the MCU build's hills; on a bigger map the ones seen
/// first).
pub const HILL_MEMORY: usize = 8;

/// A built-in Ants bot.
#[derive(Clone, Debug)]
pub struct AntsBot {
    /// The style, fixed by the name the bot was made with.
    pub style: Style,
    rng: Rng,
    /// The enemy hills seen and not seen razed since, by square.
    hills: heapless::Vec<u16, HILL_MEMORY>,
}

impl AntsBot {
    /// The bot named `name` (`strong`, `hunter` or `hold`), seeded with `seed`; `None` for another name.
    pub fn by_name(name: &str, seed: u64) -> Option<AntsBot> {
        let style = match name {
            "strong" => Style::Strong,
            "hunter" => Style::Hunter,
            "hold" => Style::Hold,
            _ => return None,
        };
        Some(AntsBot {
            style,
            rng: Rng::stream(seed, b"ants-bot"),
            hills: heapless::Vec::new(),
        })
    }
}

fn step<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsView<'_, SQ, A, F, H, O>,
    sq: usize,
    d: Dir,
) -> usize {
    let (h, w) = (g.rows() as i32, g.cols() as i32);
    let cols = w.max(1) as usize;
    let (r, c) = (
        sq.checked_div(cols).unwrap_or(0),
        sq.checked_rem(cols).unwrap_or(0),
    );
    let (dr, dc) = d.offset();
    // Board sides are u16: nothing here comes near i32 limits.
    let r = wrap((r as i32).saturating_add(dr), h);
    let c = wrap((c as i32).saturating_add(dc), w);
    r.saturating_mul(w).saturating_add(c) as usize
}

/// Square `sq` moved by `(dr, dc)` on a `rows` x `cols` torus.
fn offset(rows: u16, cols: u16, sq: usize, dr: i32, dc: i32) -> usize {
    let w = cols.max(1) as usize;
    let (r, c) = (
        sq.checked_div(w).unwrap_or(0),
        sq.checked_rem(w).unwrap_or(0),
    );
    let r = wrap((r as i32).saturating_add(dr), rows as i32);
    let c = wrap((c as i32).saturating_add(dc), cols as i32);
    (r as usize).saturating_mul(w).saturating_add(c as usize)
}

/// Whether enemies within [`DANGER_RADIUS2`] of `sq` outnumber `seat`'s ants there plus one: the
/// ants in sight, read from their planes.
fn danger<const SQ: usize>(planes: &Planes<SQ>, rows: u16, cols: u16, sq: usize) -> bool {
    let mut enemies = 0u32;
    let mut friends = 0u32;
    // 3 * 3 <= DANGER_RADIUS2 < 4 * 4: the offsets within it are under 4 either way.
    for dr in -3i32..=3 {
        for dc in -3i32..=3 {
            if dr
                .unsigned_abs()
                .pow(2)
                .saturating_add(dc.unsigned_abs().pow(2))
                > DANGER_RADIUS2
            {
                continue;
            }
            let n = offset(rows, cols, sq, dr, dc);
            if planes.get(ENEMY, n) {
                enemies = enemies.saturating_add(1);
            } else if planes.get(OWN, n) {
                friends = friends.saturating_add(1);
            }
        }
    }
    enemies > 0 && enemies.saturating_add(1) > friends
}

/// `seat`'s ants, by square (a deterministic order), into `mine` (empty): filled where the caller
/// holds it, not returned (a copy on the stack).
fn own_ants<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsView<'_, SQ, A, F, H, O>,
    mine: &mut heapless::Vec<u16, A>,
) {
    let seat = g.seat();
    for (sq, _) in g.ants().filter(|&(_, owner)| owner == seat) {
        let _ = mine.push(sq as u16);
    }
    mine.sort_unstable();
}

/// What an ant reads of a distance field, in one byte: two bits a direction (`Dir::ALL` order, the
/// first in the low bits), the neighbour's distance against the ant's own square: [`NEARER`],
/// [`SAME`], [`FARTHER`], or [`NONE`] for water (never stepped on, so never compared). A step
/// goes both ways on the torus, so a neighbour's distance differs from the ant's by one at most:
/// these four say all that [`AntsBot::walk`] compares, in a byte instead of five `u16`.
/// [`UNREACHED`]: no field reaches the ant's square (it wanders); an ant walled in by water on its
/// four sides reads the same, and has nowhere to step either way.
type Near = u8;
const NEARER: u8 = 0;
const SAME: u8 = 1;
const FARTHER: u8 = 2;
const NONE: u8 = 3;
const UNREACHED: Near = u8::MAX;

/// The distances a [`Near`] stands for, the ant's square first, then `Dir::ALL`: not the field's
/// values, but in the same order as they are, which is all that is compared.
fn distances(near: Near) -> [u16; 5] {
    let mut out = [FAR; 5];
    if near == UNREACHED {
        return out;
    }
    let mut codes = near;
    for v in out.iter_mut().skip(1) {
        *v = match codes & 3 {
            NEARER => 0,
            SAME => 1,
            FARTHER => 2,
            _ => FAR,
        };
        codes >>= 2;
    }
    if let Some(here) = out.first_mut() {
        *here = 1;
    }
    out
}

/// Plane of the squares a field has reached so far (in [`AntsBot::walk`], of the squares claimed).
const SEEN: usize = 0;
/// Plane of the squares of the ants no field serves yet.
const FREE: usize = 1;
/// Planes of the squares at the field's current distance and at the next, taking turns.
const LEVELS: [usize; 2] = [2, 3];
/// Plane of the water in sight this turn.
const WATER_SEEN: usize = 4;
/// Plane of the food in sight.
const FOOD_SEEN: usize = 5;
/// Plane of the seat's own ants.
const OWN: usize = 6;
/// Plane of the enemy ants in sight.
const ENEMY: usize = 7;

/// One bit a square of the map in each of eight planes, inside one map-sized byte array (stable
/// Rust cannot size an array `SQ / 8`): the eight take the map's squares in bytes (rounded up to
/// eight: a plane past the array's end reads as empty).
struct Planes<const SQ: usize> {
    bytes: [u8; SQ],
    stride: usize,
    squares: usize,
}

impl<const SQ: usize> Planes<SQ> {
    fn new(squares: usize) -> Self {
        const { assert!(SQ >= 8, "an Ants build of under eight squares") };
        let squares = squares.min(SQ);
        Planes {
            bytes: [0; SQ],
            stride: squares.div_ceil(8),
            squares,
        }
    }

    /// The byte and bit of square `sq` in `plane`; `None` off the map.
    fn spot(&self, plane: usize, sq: usize) -> Option<(usize, u8)> {
        (sq < self.squares).then(|| {
            let byte = plane.saturating_mul(self.stride).saturating_add(sq / 8);
            (byte, 1u8 << (sq % 8))
        })
    }

    fn get(&self, plane: usize, sq: usize) -> bool {
        self.spot(plane, sq)
            .and_then(|(i, bit)| self.bytes.get(i).map(|b| b & bit != 0))
            .unwrap_or(false)
    }

    fn set(&mut self, plane: usize, sq: usize, on: bool) {
        if let Some((i, bit)) = self.spot(plane, sq) {
            if let Some(b) = self.bytes.get_mut(i) {
                if on {
                    *b |= bit;
                } else {
                    *b &= !bit;
                }
            }
        }
    }

    fn clear(&mut self, plane: usize) {
        let start = plane.saturating_mul(self.stride);
        if let Some(p) = self.bytes.get_mut(start..start.saturating_add(self.stride)) {
            p.fill(0);
        }
    }

    /// Byte `i` of `plane`: squares `8 * i ..`, the first in the low bit.
    fn byte(&self, plane: usize, i: usize) -> u8 {
        let at = plane.saturating_mul(self.stride).saturating_add(i);
        self.bytes.get(at).copied().unwrap_or(0)
    }
}

/// No byte of a plane: the span of an empty level.
const EMPTY: (usize, usize) = (usize::MAX, 0);

/// `span` grown to take in the byte of square `sq`.
fn widen((first, end): (usize, usize), sq: usize) -> (usize, usize) {
    let at = sq / 8;
    (first.min(at), end.max(at.saturating_add(1)))
}

/// The lowest bit set in `bits`, taken out of it.
fn take_lowest(bits: &mut u8) -> Option<usize> {
    if *bits == 0 {
        return None;
    }
    let k = bits.trailing_zeros();
    *bits &= !(1u8 << k);
    Some(k as usize)
}

/// Each ant follows one distance field. The fields are spread one at a time, in each style's
/// order of preference, a distance at a time (the squares at one distance, the next, and all those
/// reached so far are bit planes: [`Planes`]), and each ant takes, as the field reaches its square,
/// what it reads of it ([`Near`]) from the first field that reaches it (the last one whatever it
/// says). A field's distances are the same in whatever order its squares are reached, so this is
/// a breadth-first search without a queue or a distance array: a map-sized array of bytes and two
/// bytes an ant. `chosen[i]`: ant `i` (of [`own_ants`], by square) has its field; `free` counts
/// the others.
struct Fields<const SQ: usize, const A: usize> {
    planes: Planes<SQ>,
    near: [Near; A],
    chosen: [bool; A],
    free: usize,
    /// The planes of the current distance and of the next.
    level: [usize; 2],
    /// The bytes of each of those planes that may have a bit set, `[first, end)` (the others
    /// are zero): a level is a thin ring on a big map, and its scans read only the bytes around it.
    spans: [(usize, usize); 2],
}

/// The ants of `mine` (sorted) on square `sq`: one, unless ants share a square.
fn ants_on(mine: &[u16], sq: usize) -> core::ops::Range<usize> {
    let lo = mine.partition_point(|&s| (s as usize) < sq);
    let hi = mine.partition_point(|&s| (s as usize) <= sq);
    lo..hi
}

impl<const SQ: usize, const A: usize> Fields<SQ, A> {
    /// No ant served yet, for a map of `squares`. (The ants' squares are marked apart, in
    /// [`Fields::free`]: a value changed before it is returned is a copy on the stack.)
    fn new(squares: usize) -> Self {
        Fields {
            planes: Planes::new(squares),
            near: [UNREACHED; A],
            chosen: [false; A],
            free: 0,
            level: LEVELS,
            spans: [EMPTY; 2],
        }
    }

    /// The turn's sight, into its planes: the water and food in sight, the seat's ants and the
    /// enemy ants in sight.
    fn see<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
    ) {
        let planes = &mut self.planes;
        g.for_each_visible(|sq, water| {
            if water {
                planes.set(WATER_SEEN, sq, true);
            }
        });
        for sq in g.food() {
            planes.set(FOOD_SEEN, sq, true);
        }
        let seat = g.seat();
        for (sq, owner) in g.ants() {
            planes.set(if owner == seat { OWN } else { ENEMY }, sq, true);
        }
    }

    /// The ants of `mine` are free.
    fn free(&mut self, mine: &[u16]) {
        self.free = mine.len().min(A);
        for &sq in mine {
            self.planes.set(FREE, sq as usize, true);
        }
    }

    /// A new field, at distance 0 from `sources`.
    fn start(&mut self, sources: impl Iterator<Item = usize>) {
        self.level = LEVELS;
        for plane in [SEEN, LEVELS[0], LEVELS[1]] {
            self.planes.clear(plane);
        }
        let mut span = EMPTY;
        for s in sources {
            self.planes.set(SEEN, s, true);
            self.planes.set(self.level[0], s, true);
            span = widen(span, s);
        }
        self.spans = [span, EMPTY];
    }

    /// Reaches the squares one farther than the current distance (water blocks, the torus
    /// wraps); `false` when there are none.
    fn advance<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
    ) -> bool {
        let [cur, next] = self.level;
        let (first, end) = self.spans[0];
        let mut span = EMPTY;
        for i in first..end.min(self.planes.stride) {
            let mut bits = self.planes.byte(cur, i);
            while let Some(k) = take_lowest(&mut bits) {
                let sq = i.saturating_mul(8).saturating_add(k);
                for d in Dir::ALL {
                    let n = step(g, sq, d);
                    if !self.planes.get(WATER_SEEN, n) && !self.planes.get(SEEN, n) {
                        self.planes.set(SEEN, n, true);
                        self.planes.set(next, n, true);
                        span = widen(span, n);
                    }
                }
            }
        }
        self.planes.clear(cur);
        self.level = [next, cur];
        self.spans = [span, EMPTY];
        span != EMPTY
    }

    /// What an ant on `sq`, at the current distance, reads of the field: a neighbour is at the
    /// same distance, at the one before (reached already) or at the next (not reached yet).
    fn read<const F: usize, const H: usize, const O: usize>(
        &self,
        g: &AntsView<'_, SQ, A, F, H, O>,
        sq: usize,
    ) -> Near {
        let mut near = 0u8;
        for (k, d) in Dir::ALL.into_iter().enumerate() {
            let n = step(g, sq, d);
            let v = if self.planes.get(self.level[0], n) {
                SAME
            } else if self.planes.get(SEEN, n) {
                NEARER
            } else if self.planes.get(WATER_SEEN, n) {
                NONE
            } else {
                FARTHER
            };
            near |= v << (k.saturating_mul(2) & 7);
        }
        near
    }

    /// Ant `i`, on `sq`, takes the current field.
    fn take<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
        mine: &[u16],
        i: usize,
        sq: usize,
    ) {
        let near = self.read(g, sq);
        if let (Some(n), Some(c)) = (self.near.get_mut(i), self.chosen.get_mut(i)) {
            *n = near;
            *c = true;
            self.free = self.free.saturating_sub(1);
        }
        let others = ants_on(mine, sq).any(|j| self.chosen.get(j) == Some(&false));
        self.planes.set(FREE, sq, others);
    }

    /// The free ants at the current distance take the field: every one (`all`), or the first
    /// only (the lowest index: `mine` is by square). Whether one did.
    fn serve_level<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
        mine: &[u16],
        all: bool,
    ) -> bool {
        let mut served = false;
        let (first, end) = self.spans[0];
        for i in first..end.min(self.planes.stride) {
            let mut bits = self.planes.byte(self.level[0], i) & self.planes.byte(FREE, i);
            while let Some(k) = take_lowest(&mut bits) {
                let sq = i.saturating_mul(8).saturating_add(k);
                for j in ants_on(mine, sq) {
                    if self.chosen.get(j) == Some(&false) {
                        self.take(g, mine, j, sq);
                        served = true;
                        if !all {
                            return true;
                        }
                    }
                }
            }
        }
        served
    }

    /// `strong`: each food goes to its nearest free ant (by walking distance from the food, under
    /// [`CLAIM_REACH`]; the lowest index among the nearest), which follows the distances from
    /// that food.
    fn claim_food<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
        mine: &[u16],
    ) {
        for f in g.food() {
            if self.free == 0 {
                return;
            }
            self.start(core::iter::once(f));
            for distance in 0..CLAIM_REACH {
                if (distance > 0 && !self.advance(g)) || self.serve_level(g, mine, false) {
                    break;
                }
            }
        }
    }

    /// Each goal in turn serves the ants it reaches; the last serves every ant left.
    fn follow<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
        goals: &[Goal],
        mine: &[u16],
        hills: &[u16],
    ) {
        let seat = g.seat();
        for goal in goals {
            if self.free == 0 {
                return;
            }
            match goal {
                Goal::Food => self.start(g.food()),
                Goal::EnemyHills => self.start(hills.iter().map(|&h| h as usize)),
                Goal::Enemies => self.start(
                    g.ants()
                        .filter(|&(_, owner)| owner != seat)
                        .map(|(sq, _)| sq),
                ),
            }
            while self.free > 0 {
                self.serve_level(g, mine, true);
                if self.free == 0 || !self.advance(g) {
                    break;
                }
            }
        }
        // The last field reaches no ant left: they wander.
        for (n, c) in self.near.iter_mut().zip(self.chosen.iter_mut()) {
            if !*c {
                *n = UNREACHED;
                *c = true;
            }
        }
        self.free = 0;
    }

    /// Each ant steps to the neighbour where its field is lowest (directions tried in `bot`'s
    /// shuffled order, the first of equal values kept), if that is lower than where it stands
    /// (or it wanders, reached by no field): never onto water, food, one of its own or a square
    /// already claimed this turn (the first plane, cleared), and, for `strong`, never from
    /// safety into danger. The orders go to `out`, `limit` of them at most (a seat's capacity,
    /// wherever `out` began).
    fn walk<const F: usize, const H: usize, const O: usize>(
        &mut self,
        bot: &mut AntsBot,
        g: &AntsView<'_, SQ, A, F, H, O>,
        mine: &[u16],
        out: &mut heapless::vec::VecView<Order>,
        limit: usize,
    ) {
        let start = out.len();
        let (rows, cols) = (g.rows(), g.cols());
        let claimed = &mut self.planes;
        for (&sq, &near) in mine.iter().zip(self.near.iter()) {
            let sq = sq as usize;
            let near = distances(near);
            let here = near.first().copied().unwrap_or(FAR);
            let mut dirs = Dir::ALL;
            bot.rng.shuffle(&mut dirs);
            let mut best: Option<(u16, Dir, usize)> = None;
            for d in dirs {
                let dest = step(g, sq, d);
                let blocked = [WATER_SEEN, FOOD_SEEN, SEEN, OWN];
                if blocked.into_iter().any(|plane| claimed.get(plane, dest)) {
                    continue;
                }
                if bot.style == Style::Strong
                    && danger(claimed, rows, cols, dest)
                    && !danger(claimed, rows, cols, sq)
                {
                    continue;
                }
                let key = near
                    .get((d as usize).wrapping_add(1))
                    .copied()
                    .unwrap_or(FAR);
                if best.is_none_or(|b| key < b.0) {
                    best = Some((key, d, dest));
                }
            }
            let wander = here == FAR;
            match best {
                Some((key, d, dest)) if key < here || wander => {
                    let cols = g.cols().max(1) as usize;
                    let (r, c) = (sq.checked_div(cols), sq.checked_rem(cols));
                    let (r, c) = (r.unwrap_or(0), c.unwrap_or(0));
                    let order = Order {
                        row: r as i16,
                        col: c as i16,
                        dir: d,
                    };
                    if out.len().saturating_sub(start) < limit && out.push(order).is_ok() {
                        claimed.set(SEEN, dest, true);
                        continue;
                    }
                    claimed.set(SEEN, sq, true);
                }
                _ => claimed.set(SEEN, sq, true),
            }
        }
    }
}

impl AntsBot {
    /// The enemy hills remembered: the ones in sight now added, the ones remembered where the view
    /// shows none now (razed) dropped.
    fn remember_hills<
        const SQ: usize,
        const A: usize,
        const F: usize,
        const H: usize,
        const O: usize,
    >(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
    ) {
        let seat = g.seat();
        self.hills.retain(|&h| {
            !g.is_visible(h as usize)
                || g.hills()
                    .any(|(sq, owner)| sq == h as usize && owner != seat)
        });
        for (sq, _) in g.hills().filter(|&(_, owner)| owner != seat) {
            if !self.hills.contains(&(sq as u16)) {
                let _ = self.hills.push(sq as u16);
            }
        }
    }

    /// The bot's orders this turn, appended to `out`, `limit` of them at most.
    fn orders<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsView<'_, SQ, A, F, H, O>,
        out: &mut heapless::vec::VecView<Order>,
        limit: usize,
    ) {
        if self.style == Style::Hold || g.is_finished() {
            return;
        }
        self.remember_hills(g);
        let mut mine = heapless::Vec::new();
        own_ants(g, &mut mine);
        let mut fields = Fields::new((g.rows() as usize).saturating_mul(g.cols() as usize));
        fields.see(g);
        fields.free(&mine);
        let hills = self.hills.clone();
        let goals = if self.style == Style::Strong {
            fields.claim_food(g, &mine);
            [Goal::EnemyHills, Goal::Enemies, Goal::Food]
        } else {
            [Goal::Food, Goal::EnemyHills, Goal::Enemies]
        };
        fields.follow(g, &goals, &mine, &hills);
        // The fields are done with: their first plane marks the squares claimed.
        fields.planes.clear(SEEN);
        fields.walk(self, g, &mine, out, limit);
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsGame<SQ, A, F, H, O>
{
    /// The orders of every seat of the first `seats` (to move, with a bot) in one buffer, seat
    /// after seat, and where each seat's end there. An ant takes one order at most, so the ants
    /// alive (`A`) bound every seat's orders together: one buffer of `A`, not `O` for each seat.
    /// Each bot is given its seat's view only.
    #[inline(never)]
    pub(crate) fn decide_all<B: Bot<Self>>(
        &self,
        bots: &mut [B],
        seats: usize,
        orders: &mut heapless::Vec<Order, A>,
        on: &mut impl FnMut(crate::game::Moment),
    ) -> [u16; MAX_SEATS] {
        let movers = crate::Game::to_move(self);
        let mut ends = [0u16; MAX_SEATS];
        for (seat, end) in ends.iter_mut().enumerate() {
            if seat < seats.min(self.players()) && movers.contains(seat) {
                if let Some(bot) = bots.get_mut(seat) {
                    on(crate::game::Moment::Acting(seat));
                    seat_orders(self, bot, seat, orders);
                    on(crate::game::Moment::Acted(seat));
                }
            }
            // At most A orders, and A fits a u16 (the ants of a map of at most 65,535 squares).
            *end = u16::try_from(orders.len()).unwrap_or(u16::MAX);
        }
        ends
    }
}

/// Seat `seat`'s orders from `bot`, appended to `orders` (as many as there is room for). Out of
/// line: the seat's action is held in this frame only.
#[inline(never)]
fn seat_orders<
    const SQ: usize,
    const A: usize,
    const F: usize,
    const H: usize,
    const O: usize,
    B: Bot<AntsGame<SQ, A, F, H, O>>,
>(
    g: &AntsGame<SQ, A, F, H, O>,
    bot: &mut B,
    seat: Seat,
    orders: &mut heapless::Vec<Order, A>,
) {
    let mut action = heapless::Vec::new();
    bot.act_into(&g.view(seat), &mut action);
    // By reference: `for o in action` moved the whole buffer into its iterator, a second copy
    // of it in this frame, under the bots' (on the Pico, Ants on tutorial1).
    let room = orders.capacity().saturating_sub(orders.len());
    let _ = orders.extend_from_slice(action.get(..room).unwrap_or(&action));
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    Bot<AntsGame<SQ, A, F, H, O>> for AntsBot
{
    fn act(&mut self, g: &AntsView<'_, SQ, A, F, H, O>) -> heapless::Vec<Order, O> {
        let mut out = heapless::Vec::new();
        self.act_into(g, &mut out);
        out
    }

    /// The orders written where the match loop holds them (a board's stack holds no copy).
    fn act_into(&mut self, g: &AntsView<'_, SQ, A, F, H, O>, out: &mut heapless::Vec<Order, O>) {
        out.clear();
        self.orders(g, out.as_mut_view(), O);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::games::ants::map::WATER;
    use crate::games::ants::{MCU_ANTS, MCU_SQUARES};

    /// The MCU build's bots work in under 3 KB of stack (a map-sized array of `u16` for the
    /// distances and one for the queue, five `u16` an ant, were 12 KB): with its 37.5 KB state,
    /// the turn's orders and the loop, Ants on a 48 x 48 map fits the boards' state + 12 KB.
    #[test]
    fn the_mcu_builds_fields_take_under_3_kb() {
        let size = core::mem::size_of::<Fields<MCU_SQUARES, MCU_ANTS>>();
        assert!(size <= 3 * 1024, "{size} bytes");
    }

    /// Each plane keeps its own bits, off-map squares are never set, and the bits of one byte are
    /// taken lowest first.
    #[test]
    fn planes_keep_apart_and_stop_at_the_map() {
        let mut p = Planes::<100>::new(13);
        p.set(FREE, 12, true);
        p.set(SEEN, 0, true);
        p.set(LEVELS[1], 13, true);
        assert!(p.get(FREE, 12) && p.get(SEEN, 0));
        assert!(!p.get(SEEN, 12) && !p.get(LEVELS[0], 12) && !p.get(LEVELS[1], 13));
        assert_eq!(p.byte(FREE, 1), 0b10000);
        p.clear(FREE);
        assert!(!p.get(FREE, 12) && p.get(SEEN, 0));
        // A bit set off leaves its byte's others as they are.
        for sq in [8, 9, 10] {
            p.set(FREE, sq, true);
        }
        p.set(FREE, 9, false);
        assert_eq!(p.byte(FREE, 1), 0b101);
        p.set(FREE, 9, false);
        assert_eq!(p.byte(FREE, 1), 0b101);
        let mut bits = 0b1010_0100u8;
        let taken: [Option<usize>; 4] = core::array::from_fn(|_| take_lowest(&mut bits));
        assert_eq!(taken, [Some(2), Some(5), Some(7), None]);
    }

    /// The ants (of a list by square) on a square: none, one, or all that share it.
    #[test]
    fn ants_on_a_square_are_found_in_the_sorted_list() {
        let mine = [3u16, 5, 5, 9];
        assert_eq!(ants_on(&mine, 5), 1..3);
        assert_eq!(ants_on(&mine, 9), 3..4);
        assert_eq!(ants_on(&mine, 3), 0..1);
        assert!(ants_on(&mine, 4).is_empty() && ants_on(&mine, 10).is_empty());
    }

    /// A field spreads a breadth-first search a distance at a time, reading only the bytes of
    /// each level's span: every level is exactly the squares at that walking distance (water
    /// blocks, the edges wrap), checked against a plain search over the whole map, from a source
    /// near an edge so that the levels wrap around it.
    #[test]
    fn a_fields_levels_are_the_walking_distances() {
        use crate::game::Game;
        use crate::games::ants::{AntsMcu, AntsMcuMap, AntsMcuParams};
        let text = "rows 9\ncols 11\nplayers 2\nm ...........\nm ...........\nm ...0.......\nm ...........\nm ...........\nm ...........\nm .......1...\nm ...........\nm ...........\n";
        let mut g =
            AntsMcu::new(&AntsMcuParams::new(AntsMcuMap::parse(text).unwrap(), 50), 1).unwrap();
        // Walls (the parser takes symmetric maps only): a hook around the hill and a broken row.
        let walls = [
            "...........",
            ".%%%%%%....",
            "......%....",
            "......%....",
            ".%%%%.%....",
            "...........",
            "...........",
            "%%%.....%%%",
            "...........",
        ];
        for (r, line) in walls.iter().enumerate() {
            for (c, _) in line.char_indices().filter(|&(_, ch)| ch == '%') {
                g.map[r * 11 + c] = WATER;
            }
        }
        let squares = 9 * 11;
        // Row 0, the last column.
        let source = 10;
        // The reference: distances by repeated relaxation over every square.
        let mut dist = [u16::MAX; 9 * 11];
        dist[source] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for sq in 0..squares {
                if dist[sq] == u16::MAX {
                    continue;
                }
                for d in Dir::ALL {
                    let n = step(&g.view(0), sq, d);
                    if g.square(n) != WATER && dist[n] > dist[sq] + 1 {
                        dist[n] = dist[sq] + 1;
                        changed = true;
                    }
                }
            }
        }
        let mut f = Fields::<MCU_SQUARES, MCU_ANTS>::new(squares);
        // The water, as a bot that sees the whole map marks it.
        for sq in (0..squares).filter(|&sq| g.square(sq) == WATER) {
            f.planes.set(WATER_SEEN, sq, true);
        }
        f.start(core::iter::once(source));
        let mut level = 0u16;
        loop {
            for (sq, &d) in dist.iter().enumerate() {
                assert_eq!(
                    f.planes.get(f.level[0], sq),
                    d == level,
                    "square {sq}, distance {level}"
                );
            }
            if !f.advance(&g.view(0)) {
                break;
            }
            level += 1;
        }
        let farthest = dist.iter().filter(|&&d| d != u16::MAX).max().copied();
        assert_eq!(Some(level), farthest);
    }

    /// What an ant reads decodes to distances in the field's order: nearer < same < farther <
    /// none, the ant's own square at `same`; an unreached ant reads nothing anywhere.
    #[test]
    fn near_codes_decode_in_the_fields_order() {
        let near = NEARER | SAME << 2 | FARTHER << 4 | NONE << 6;
        assert_eq!(distances(near), [1, 0, 1, 2, FAR]);
        assert_eq!(distances(UNREACHED), [FAR; 5]);
    }
}
