//! A competitor's own bots, written once against the view API (`Bot<G>::act(&mut self, view)`):
//! `no_std`, no allocation, so the same code plays on the desktop (`src/bin/desktop.rs`) and on
//! every board (`boards/*/src/main.rs`).
//!
//! - [`Builder`]: Tower Defense. Three turrets while it can pay for them, then an invader with every
//!   boost in hit points whenever it has the gold.
//! - [`Nearest`]: ColorFight. When idle, attacks the cell it can take quickest, the last such cell
//!   in index order (the built-in `expander` takes the first); builds a base whenever it may.
//! - [`Forager`]: Ants. Sees what its seat sees (the fog of war): each ant, in the order of its
//!   square, steps towards the nearest food in sight (the lowest square among the nearest), else
//!   the first free land square in the order N, E, S, W. It reads the view in square order, never
//!   in the order the view lists things (the engine's lists in-process, the protocol's lines in a
//!   process): so it plays the same match both ways.
//! - [`MyLineup`]: the matches the desktop and the boards play: each bot beside built-in ones.

#![no_std]

use arena_core::games::ants::{AntsGame, AntsView, Dir, Order};
use arena_core::games::colorfight::{self as cf, ColorFight, Plan};
use arena_core::games::tower_defense::{self as td, TowerDefense, TowerKind};
use arena_core::{Bot, Open};
use arena_firmware::games::ants;

/// Tower Defense: towers first, then invaders.
pub struct Builder {
    built: u8,
}

impl Builder {
    /// The lineup's constructor: `seed` is the entry's own (this bot draws no random numbers).
    pub fn new(_seed: u64) -> Builder {
        Builder { built: 0 }
    }
}

/// Where the towers go, in order (spaces beside the path on the duel's map).
const TOWERS: [i64; 3] = [30, 32, 34];

impl Bot<TowerDefense> for Builder {
    fn act(&mut self, view: &Open<'_, TowerDefense>) -> td::Action {
        let (game, seat) = (view.state(), view.seat());
        let gold = game.gold(seat);
        if game.defended_board(seat).is_some() {
            if let Some(&pos) = TOWERS.get(self.built as usize) {
                if gold >= game.build_cost(seat) {
                    self.built += 1;
                    return td::Action::Build {
                        kind: Some(TowerKind::Turret),
                        pos,
                    };
                }
                return td::Action::Pass;
            }
        }
        let boost = game.boost_max(seat);
        if game.attacked_board(seat).is_some() && gold >= u64::from(boost).saturating_add(10) {
            td::Action::Spawn {
                hp: i64::from(boost),
                defense: 0,
                stun_res: 0,
            }
        } else {
            td::Action::Pass
        }
    }
}

/// ColorFight: the quickest cell next to its land.
pub struct Nearest;

impl Nearest {
    /// The lineup's constructor.
    pub fn new(_seed: u64) -> Nearest {
        Nearest
    }
}

impl Bot<ColorFight> for Nearest {
    fn act(&mut self, view: &Open<'_, ColorFight>) -> cf::Action {
        let (game, seat) = (view.state(), view.seat());
        let Some(me) = game.player(seat) else {
            return cf::Action::Pass;
        };
        if me.defeated || !me.is_idle() {
            return cf::Action::Pass;
        }
        let mut best: Option<(u32, usize)> = None;
        for idx in 0..game.cells().len() {
            let (x, y) = game.coords(idx);
            if let Ok(Plan::Attack { ticks, .. }) = game.plan(seat, &cf::Action::Attack { x, y }) {
                if best.is_none_or(|(t, _)| ticks <= t) {
                    best = Some((ticks, idx));
                }
            }
        }
        match best {
            Some((_, idx)) => {
                let (x, y) = game.coords(idx);
                let build = cf::Action::Build { x, y };
                if game.may_build(seat) && game.plan(seat, &build).is_ok() {
                    build
                } else {
                    cf::Action::Attack { x, y }
                }
            }
            None => cf::Action::Pass,
        }
    }
}

/// Ants: food first.
pub struct Forager;

impl Forager {
    /// The lineup's constructor.
    pub fn new(_seed: u64) -> Forager {
        Forager
    }
}

/// The square one step from `sq` in `dir` on a `rows` x `cols` map (the edges wrap).
fn step(sq: usize, dir: Dir, rows: usize, cols: usize) -> usize {
    let (row, col) = (sq / cols, sq % cols);
    match dir {
        Dir::N => (row + rows - 1) % rows * cols + col,
        Dir::S => (row + 1) % rows * cols + col,
        Dir::E => row * cols + (col + 1) % cols,
        Dir::W => row * cols + (col + cols - 1) % cols,
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    Bot<AntsGame<SQ, A, F, H, O>> for Forager
{
    fn act(&mut self, view: &AntsView<'_, SQ, A, F, H, O>) -> heapless::Vec<Order, O> {
        let mut orders = heapless::Vec::new();
        let (rows, cols) = (usize::from(view.rows()), usize::from(view.cols()));
        if rows == 0 || cols == 0 {
            return orders;
        }
        let me = view.seat();
        // Our ants in the order of their squares (the view lists them in its source's order).
        let mut mine: heapless::Vec<u16, A> = heapless::Vec::new();
        for (ant, owner) in view.ants() {
            if let (true, Ok(sq)) = (owner == me, u16::try_from(ant)) {
                let _ = mine.push(sq);
            }
        }
        mine.sort_unstable();
        // Squares taken this turn: where an ant of ours moves to (no two on one square).
        let mut taken: heapless::Vec<usize, A> = heapless::Vec::new();
        for ant in mine.iter().map(|&sq| usize::from(sq)) {
            let target = view.food().min_by_key(|&f| (view.distance2(ant, f), f));
            let mut dirs = Dir::ALL;
            if let Some(food) = target {
                // Directions that bring the ant closer to the food first (a stable insertion sort:
                // ties keep the order N, E, S, W).
                let key = |d: Dir| view.distance2(step(ant, d, rows, cols), food);
                for i in 1..dirs.len() {
                    let mut j = i;
                    while j > 0 && key(dirs[j - 1]) > key(dirs[j]) {
                        dirs.swap(j - 1, j);
                        j -= 1;
                    }
                }
            }
            let free = |sq: usize| {
                !view.is_water(sq) && !taken.contains(&sq) && !view.ants().any(|(a, _)| a == sq)
            };
            let Some(dir) = dirs.into_iter().find(|&d| free(step(ant, d, rows, cols))) else {
                continue;
            };
            let (Ok(row), Ok(col)) = (i16::try_from(ant / cols), i16::try_from(ant % cols)) else {
                continue;
            };
            if orders.push(Order { row, col, dir }).is_err() {
                break;
            }
            let _ = taken.push(step(ant, dir, rows, cols));
        }
        orders
    }
}

const TD_DUEL: td::Params = td::Params {
    variant: td::Variant::Duel,
};

const CF_CONQUEST: cf::Params = cf::Params {
    variant: cf::Variant::Conquest,
    width: 20,
    height: 12,
    players: 4,
    ticks: 600,
    respawn: cf::Respawn::Auto,
};

arena_firmware::lineup! {
    /// What the desktop and every board play, in turn: each bot of this crate against built-ins
    /// (a misspelt built-in name fails the build).
    pub MyLineup {
        TowerDefense: "duel", [user("builder", Builder::new), builtin("strong")], Some(TD_DUEL);
        ColorFight: "conquest-20x12", [user("nearest", Nearest::new), "strategist", "expander", "random"], Some(CF_CONQUEST);
        TowerDefense: "duel", [builtin("army"), user("builder", Builder::new)], Some(TD_DUEL);
        ants::AntsBoard: "24x24", [user("forager", Forager::new), "hunter"], ants::params(300);
    }
}
