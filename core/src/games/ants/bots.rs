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

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    Bot<AntsGame<SQ, A, F, H, O>> for AntsBot
{
    fn act(&mut self, g: &AntsGame<SQ, A, F, H, O>, seat: Seat) -> heapless::Vec<Order, O> {
        let mut out = heapless::Vec::new();
        if self.style == Style::Hold || g.is_finished() {
            return out;
        }
        // Own ants, by square (a deterministic order).
        let mut mine: heapless::Vec<u16, A> = heapless::Vec::new();
        for a in g.ants().iter().filter(|a| a.owner as usize == seat) {
            let _ = mine.push(a.sq);
        }
        mine.sort_unstable();

        // Each ant follows one distance field: its values on the ant's square and on the four
        // squares around it (in `Dir::ALL` order) are all that is read of it. The fields are
        // computed one at a time into one array, in each style's order of preference, and each
        // ant keeps the values of the first field that reaches it (the last one whatever it
        // says): two map-sized arrays, not one per field.
        let mut dist = [FAR; SQ];
        let mut queue = [0u16; SQ];
        let mut near = [[FAR; 5]; A];
        let mut chosen = [false; A];
        let take = |near: &mut [u16; 5], dist: &[u16; SQ], sq: usize| {
            let at = |s: usize| dist.get(s).copied().unwrap_or(FAR);
            if let Some(here) = near.first_mut() {
                *here = at(sq);
            }
            for (v, d) in near.iter_mut().skip(1).zip(Dir::ALL) {
                *v = at(step(g, sq, d));
            }
        };
        // Keeps `dist`'s values for every ant not yet served that it reaches (or every one, for
        // the last field).
        let serve = |dist: &[u16; SQ], near: &mut [[u16; 5]; A], chosen: &mut [bool; A], last| {
            for ((&sq, n), c) in mine.iter().zip(near.iter_mut()).zip(chosen.iter_mut()) {
                let sq = sq as usize;
                if !*c && (last || dist.get(sq).is_some_and(|&d| d != FAR)) {
                    take(n, dist, sq);
                    *c = true;
                }
            }
        };
        let foods = || g.food().iter().map(|f| f.sq as usize);
        let enemy_hills = || {
            g.hills()
                .iter()
                .filter(move |h| h.owner as usize != seat && h.killed_by.is_none())
                .map(|h| h.sq as usize)
        };
        let enemies = || {
            g.ants()
                .iter()
                .filter(move |a| a.owner as usize != seat)
                .map(|a| a.sq as usize)
        };
        let goals = if self.style == Style::Strong {
            // Each food goes to its nearest free ant (by walking distance from the food), which
            // follows the distances from that food.
            let mut taken = [false; A];
            for f in g.food() {
                bfs(g, core::iter::once(f.sq as usize), &mut dist, &mut queue);
                let best = mine
                    .iter()
                    .zip(taken.iter())
                    .enumerate()
                    .filter(|&(_, (_, &t))| !t)
                    .map(|(i, (&s, _))| (dist.get(s as usize).copied().unwrap_or(FAR), i))
                    .min();
                if let Some((d, i)) = best {
                    if d < 40 {
                        if let (Some(t), Some(n), Some(&sq)) =
                            (taken.get_mut(i), near.get_mut(i), mine.get(i))
                        {
                            *t = true;
                            take(n, &dist, sq as usize);
                        }
                    }
                }
            }
            for (c, &t) in chosen.iter_mut().zip(taken.iter()) {
                *c = t;
            }
            [Goal::EnemyHills, Goal::Enemies, Goal::Food]
        } else {
            [Goal::Food, Goal::EnemyHills, Goal::Enemies]
        };
        // Each goal in turn serves the ants it reaches; the last serves every ant left.
        for (k, goal) in goals.into_iter().enumerate() {
            match goal {
                Goal::Food => bfs(g, foods(), &mut dist, &mut queue),
                Goal::EnemyHills => bfs(g, enemy_hills(), &mut dist, &mut queue),
                Goal::Enemies => bfs(g, enemies(), &mut dist, &mut queue),
            }
            serve(
                &dist,
                &mut near,
                &mut chosen,
                k == goals.len().saturating_sub(1),
            );
        }

        let danger = |sq: usize| -> bool {
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
        };

        // The fields are done with: `dist` marks the squares claimed (non-zero).
        let claimed = &mut dist;
        claimed.fill(0);
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
                if self.style == Style::Strong && danger(dest) && !danger(sq) {
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
