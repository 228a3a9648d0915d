//! Built-in bots. They read the whole board (no fog of war) and are deterministic for their seed.
//!
//! - `hunter`: every ant walks towards the nearest food, else the nearest enemy hill, else the
//!   nearest enemy ant, else a seeded random direction; two own ants never step onto one square.
//! - `hold`: never moves (the official HoldBot).
//! - `strong`: `hunter` plus a hill guard and a battle rule (see [`AntsBot`]).

use super::map::{FOOD, LAND, WATER};
use super::orders::{Dir, Order};
use super::state::AntsGame;
use crate::game::Bot;
use crate::rng::Rng;
use crate::seat::Seat;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Strong,
    Hunter,
    Hold,
}

/// A built-in Ants bot.
#[derive(Clone, Debug)]
pub struct AntsBot {
    pub style: Style,
    rng: Rng,
}

impl AntsBot {
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

/// Looks for the nearest square (by torus distance2, within `limit`) among `targets`.
fn nearest<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
    from: usize,
    targets: impl Iterator<Item = usize>,
) -> Option<(u32, usize)> {
    targets.map(|t| (g.distance2(from, t), t)).min()
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    Bot<AntsGame<SQ, A, F, H, O>> for AntsBot
{
    fn act(&mut self, g: &AntsGame<SQ, A, F, H, O>, seat: Seat) -> heapless::Vec<Order, O> {
        let mut out = heapless::Vec::new();
        if self.style == Style::Hold {
            return out;
        }
        let mut claimed = [false; SQ];
        // Ants that stay claim their square first (in ant-list order, which is deterministic).
        let mine = || g.ants().iter().filter(|a| a.owner as usize == seat);
        let mut sorted: heapless::Vec<(u16, u16), A> = heapless::Vec::new();
        for a in mine() {
            let _ = sorted.push((a.sq, a.sq));
        }
        sorted.sort_unstable();
        let enemies_near = |sq: usize, r2: u32| {
            g.ants()
                .iter()
                .filter(|e| e.owner as usize != seat && g.distance2(sq, e.sq as usize) <= r2)
                .count()
        };
        let friends_near = |sq: usize, r2: u32| {
            g.ants()
                .iter()
                .filter(|e| e.owner as usize == seat && g.distance2(sq, e.sq as usize) <= r2)
                .count()
        };
        for &(sq, _) in &sorted {
            let sq = sq as usize;
            let food = nearest(g, sq, g.food().iter().map(|f| f.sq as usize));
            let hill = nearest(
                g,
                sq,
                g.hills()
                    .iter()
                    .filter(|h| h.owner as usize != seat && h.killed_by.is_none())
                    .map(|h| h.sq as usize),
            );
            let enemy = nearest(
                g,
                sq,
                g.ants()
                    .iter()
                    .filter(|e| e.owner as usize != seat)
                    .map(|e| e.sq as usize),
            );
            let target = match self.style {
                Style::Strong => {
                    // Food close by first, hills when near, then food anywhere, then fights.
                    match (food, hill) {
                        (Some(f), Some(h)) if h.0 <= f.0 * 2 => Some(h.1),
                        (Some(f), _) => Some(f.1),
                        (None, Some(h)) => Some(h.1),
                        (None, None) => enemy.map(|e| e.1),
                    }
                }
                _ => food.or(hill).or(enemy).map(|t| t.1),
            };
            let mut best: Option<(u32, u32, Dir, usize)> = None;
            let mut dirs = Dir::ALL;
            self.rng.shuffle(&mut dirs);
            for (k, d) in dirs.iter().enumerate() {
                let (dr, dc) = d.offset();
                let (r, c) = (sq / g.cols() as usize, sq % g.cols() as usize);
                let rr = (r as i32 + dr).rem_euclid(g.rows() as i32) as usize;
                let cc = (c as i32 + dc).rem_euclid(g.cols() as i32) as usize;
                let dest = rr * g.cols() as usize + cc;
                let v = g.square(dest);
                if v == WATER || v == FOOD || claimed.get(dest).copied().unwrap_or(true) {
                    continue;
                }
                // An own ant standing there that has not moved yet would collide.
                if v < LAND && v as usize == seat {
                    continue;
                }
                let dist = target.map_or(k as u32, |t| g.distance2(dest, t));
                let mut danger = 0u32;
                if self.style == Style::Strong {
                    let e = enemies_near(dest, 10) as u32;
                    let f = friends_near(dest, 10) as u32;
                    if e > 0 && e >= f {
                        danger = 1;
                    }
                }
                let key = (danger, dist, *d, dest);
                if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                    best = Some(key);
                }
            }
            let stay_dist = target.map_or(u32::MAX, |t| g.distance2(sq, t));
            match best {
                Some((_, dist, d, dest)) if dist < stay_dist || target.is_none() => {
                    let (r, c) = (sq / g.cols() as usize, sq % g.cols() as usize);
                    let order = Order {
                        row: r as i16,
                        col: c as i16,
                        dir: d,
                    };
                    if out.push(order).is_ok() {
                        if let Some(cl) = claimed.get_mut(dest) {
                            *cl = true;
                        }
                        continue;
                    }
                    if let Some(cl) = claimed.get_mut(sq) {
                        *cl = true;
                    }
                }
                _ => {
                    if let Some(cl) = claimed.get_mut(sq) {
                        *cl = true;
                    }
                }
            }
        }
        out
    }
}
