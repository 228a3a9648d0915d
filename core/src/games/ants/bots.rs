//! Built-in bots. They read the whole board (no fog of war) and are deterministic for their seed.
//!
//! Both walking bots move along breadth-first distance fields (water blocks, the torus wraps), so
//! they find their way through mazes, and never send two of their own ants onto one square.
//! - `hunter`: every ant walks to the nearest food, else the nearest enemy hill, else the nearest
//!   enemy ant, else a random direction.
//! - `strong`: each food is claimed by the nearest free ant only (one ant per food); the other
//!   ants march on the enemy hills, and no ant steps where enemies in reach outnumber its friends.
//! - `hold`: never moves (the official HoldBot).
//!
//! The fields live on the stack: two map-sized arrays of `u16` (the fields are computed one at a
//! time) and ten bytes an ant of the build's capacity.

use super::map::{FOOD, LAND, WATER};
use super::orders::{Dir, Order};
use super::state::{wrap, AntsGame};
use crate::game::Bot;
use crate::rng::Rng;
use crate::seat::Seat;

const FAR: u16 = u16::MAX;
/// Radius2 within which `strong` counts enemies and friends before stepping.
const DANGER_RADIUS2: u32 = 10;

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
/// A built-in Ants bot.
#[derive(Clone, Debug)]
pub struct AntsBot {
    /// The style, fixed by the name the bot was made with.
    pub style: Style,
    rng: Rng,
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
        })
    }
}

fn step<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
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

/// Breadth-first distances from `sources` over non-water squares. `origin` (if given) records
/// which source each square was reached from.
fn bfs<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
    sources: impl Iterator<Item = usize>,
    dist: &mut [u16; SQ],
    queue: &mut [u16; SQ],
) {
    dist.fill(FAR);
    let (mut head, mut tail) = (0usize, 0usize);
    for s in sources {
        if let Some(d) = dist.get_mut(s) {
            if *d == FAR {
                if let Some(q) = queue.get_mut(tail) {
                    *d = 0;
                    *q = s as u16;
                    tail = tail.saturating_add(1);
                }
            }
        }
    }
    while head < tail {
        let Some(&cur) = queue.get(head) else { break };
        let cur = cur as usize;
        head = head.saturating_add(1);
        let next_d = dist.get(cur).copied().unwrap_or(FAR).saturating_add(1);
        for d in Dir::ALL {
            let n = step(g, cur, d);
            if g.square(n) == WATER {
                continue;
            }
            if let Some(slot) = dist.get_mut(n) {
                if *slot == FAR {
                    if let Some(q) = queue.get_mut(tail) {
                        *slot = next_d;
                        *q = n as u16;
                        tail = tail.saturating_add(1);
                    }
                }
            }
        }
    }
}

/// The values of `dist` on square `sq` and on the four squares around it (in `Dir::ALL` order):
/// all that an ant reads of a distance field.
fn around<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
    dist: &[u16; SQ],
    sq: usize,
) -> [u16; 5] {
    let at = |s: usize| dist.get(s).copied().unwrap_or(FAR);
    let mut near = [FAR; 5];
    if let Some(here) = near.first_mut() {
        *here = at(sq);
    }
    for (v, d) in near.iter_mut().skip(1).zip(Dir::ALL) {
        *v = at(step(g, sq, d));
    }
    near
}

/// Whether enemies within [`DANGER_RADIUS2`] of `sq` outnumber `seat`'s ants there plus one.
fn danger<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
    seat: Seat,
    sq: usize,
) -> bool {
    let mut enemies = 0u32;
    let mut friends = 0u32;
    for a in g.ants() {
        if g.distance2(sq, a.sq as usize) <= DANGER_RADIUS2 {
            if a.owner as usize == seat {
                friends = friends.saturating_add(1);
            } else {
                enemies = enemies.saturating_add(1);
            }
        }
    }
    enemies > 0 && enemies.saturating_add(1) > friends
}

/// `seat`'s ants, by square (a deterministic order).
fn own_ants<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
    seat: Seat,
) -> heapless::Vec<u16, A> {
    let mut mine: heapless::Vec<u16, A> = heapless::Vec::new();
    for a in g.ants().iter().filter(|a| a.owner as usize == seat) {
        let _ = mine.push(a.sq);
    }
    mine.sort_unstable();
    mine
}

/// Each ant follows one distance field: its values on the ant's square and on the four squares
/// around it ([`around`]) are all that is read of it. The fields are computed one at a time into
/// `dist`, in each style's order of preference, and each ant keeps (in `near`) the values of the
/// first field that reaches it (the last one whatever it says): two map-sized arrays, not one per
/// field. `chosen[i]`: ant `i` (of [`own_ants`]) has its field.
struct Fields<const SQ: usize, const A: usize> {
    dist: [u16; SQ],
    queue: [u16; SQ],
    near: [[u16; 5]; A],
    chosen: [bool; A],
}

impl<const SQ: usize, const A: usize> Fields<SQ, A> {
    /// Ant `i`, on `sq`, keeps the current field.
    fn take<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsGame<SQ, A, F, H, O>,
        i: usize,
        sq: usize,
    ) {
        if let Some(n) = self.near.get_mut(i) {
            *n = around(g, &self.dist, sq);
        }
    }

    /// `strong`: each food goes to its nearest free ant (by walking distance from the food, under
    /// 40), which follows the distances from that food.
    fn claim_food<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsGame<SQ, A, F, H, O>,
        mine: &[u16],
    ) {
        for f in g.food() {
            bfs(
                g,
                core::iter::once(f.sq as usize),
                &mut self.dist,
                &mut self.queue,
            );
            let best = mine
                .iter()
                .zip(self.chosen.iter())
                .enumerate()
                .filter(|&(_, (_, &t))| !t)
                .map(|(i, (&s, _))| (self.dist.get(s as usize).copied().unwrap_or(FAR), i))
                .min();
            if let Some((d, i)) = best {
                if d < 40 {
                    if let (Some(&sq), true) = (mine.get(i), i < A) {
                        if let Some(t) = self.chosen.get_mut(i) {
                            *t = true;
                        }
                        self.take(g, i, sq as usize);
                    }
                }
            }
        }
    }

    /// Keeps the current field for every ant not yet served that it reaches (or every one, for
    /// the `last` field).
    fn serve<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsGame<SQ, A, F, H, O>,
        mine: &[u16],
        last: bool,
    ) {
        for (i, &sq) in mine.iter().enumerate() {
            let sq = sq as usize;
            let free = self.chosen.get(i).is_some_and(|&c| !c);
            if free && (last || self.dist.get(sq).is_some_and(|&d| d != FAR)) {
                self.take(g, i, sq);
                if let Some(c) = self.chosen.get_mut(i) {
                    *c = true;
                }
            }
        }
    }

    /// Each goal in turn serves the ants it reaches; the last serves every ant left.
    fn follow<const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsGame<SQ, A, F, H, O>,
        seat: Seat,
        goals: &[Goal],
        mine: &[u16],
    ) {
        for (k, goal) in goals.iter().enumerate() {
            let (dist, queue) = (&mut self.dist, &mut self.queue);
            match goal {
                Goal::Food => bfs(g, g.food().iter().map(|f| f.sq as usize), dist, queue),
                Goal::EnemyHills => {
                    let hills = g
                        .hills()
                        .iter()
                        .filter(|h| h.owner as usize != seat && h.killed_by.is_none())
                        .map(|h| h.sq as usize);
                    bfs(g, hills, dist, queue)
                }
                Goal::Enemies => {
                    let enemies = g
                        .ants()
                        .iter()
                        .filter(|a| a.owner as usize != seat)
                        .map(|a| a.sq as usize);
                    bfs(g, enemies, dist, queue)
                }
            }
            self.serve(g, mine, k == goals.len().saturating_sub(1));
        }
    }
}

impl AntsBot {
    /// Each ant steps to the neighbour where its field is lowest (directions tried in a shuffled
    /// order, the first of equal values kept), if that is lower than where it stands (or it
    /// wanders, reached by no field): never onto water, food, one of its own or a square already
    /// claimed this turn, and, for `strong`, never from safety into danger. `claimed` is zero
    /// where nothing is claimed.
    fn walk<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
        &mut self,
        g: &AntsGame<SQ, A, F, H, O>,
        seat: Seat,
        mine: &[u16],
        near: &[[u16; 5]; A],
        claimed: &mut [u16; SQ],
    ) -> heapless::Vec<Order, O> {
        let mut out = heapless::Vec::new();
        for (&sq, near) in mine.iter().zip(near.iter()) {
            let sq = sq as usize;
            let here = near.first().copied().unwrap_or(FAR);
            let mut dirs = Dir::ALL;
            self.rng.shuffle(&mut dirs);
            let mut best: Option<(u16, Dir, usize)> = None;
            for d in dirs {
                let dest = step(g, sq, d);
                let v = g.square(dest);
                let taken = claimed.get(dest).is_none_or(|&c| c != 0);
                if v == WATER || v == FOOD || taken || (v < LAND && v as usize == seat) {
                    continue;
                }
                if self.style == Style::Strong && danger(g, seat, dest) && !danger(g, seat, sq) {
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
                    if out
                        .push(Order {
                            row: r as i16,
                            col: c as i16,
                            dir: d,
                        })
                        .is_ok()
                    {
                        if let Some(c) = claimed.get_mut(dest) {
                            *c = 1;
                        }
                        continue;
                    }
                    if let Some(c) = claimed.get_mut(sq) {
                        *c = 1;
                    }
                }
                _ => {
                    if let Some(c) = claimed.get_mut(sq) {
                        *c = 1;
                    }
                }
            }
        }
        out
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    Bot<AntsGame<SQ, A, F, H, O>> for AntsBot
{
    fn act(&mut self, g: &AntsGame<SQ, A, F, H, O>, seat: Seat) -> heapless::Vec<Order, O> {
        if self.style == Style::Hold || g.is_finished() {
            return heapless::Vec::new();
        }
        let mine = own_ants(g, seat);
        let mut fields = Fields {
            dist: [FAR; SQ],
            queue: [0u16; SQ],
            near: [[FAR; 5]; A],
            chosen: [false; A],
        };
        let goals = if self.style == Style::Strong {
            fields.claim_food(g, &mine);
            [Goal::EnemyHills, Goal::Enemies, Goal::Food]
        } else {
            [Goal::Food, Goal::EnemyHills, Goal::Enemies]
        };
        fields.follow(g, seat, &goals, &mine);
        // The fields are done with: `dist` marks the squares claimed (non-zero).
        fields.dist.fill(0);
        self.walk(g, seat, &mine, &fields.near, &mut fields.dist)
    }
}
