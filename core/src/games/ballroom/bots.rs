//! Built-in bots. Each answers the phase the game is in, from the state the reference would show
//! it, and is deterministic for its seed.
//!
//! - `random`: a random legal reply (a reachable tile, a target in range, an affordable item).
//! - `holder`: a Knight that walks to the control block and hits the weakest player in range.
//! - `strong`: a Knight that holds the block too, but walks in on the diagonal (so it does not
//!   fight a neighbour on the way, where nobody scores), buys a Hunter Scope whenever a respawn
//!   leaves it on its spawn with 8 gold, stands on the control tile nearest the players walking
//!   in (range 2 hits a Knight a turn before it can hit back), prefers targets it can kill, and
//!   never pays 100 for NONE.

use super::{Action, Ballroom, Class, Item, Phase, Pos, BOARD, PLAYERS};
use crate::game::{Bot, Game};
use crate::rng::Rng;
use crate::seat::Seat;

/// The built-in bots, by name.
#[derive(Clone, Debug)]
pub enum BallroomBot {
    /// `random`: a random legal reply, from its own seeded stream.
    Random(Rng),
    /// `holder`: a Knight holding the control block.
    Holder,
    /// `strong`: a Knight holding the block, walking in on the diagonal, buying a Hunter Scope.
    Strong,
}

impl BallroomBot {
    /// The bot named `name` (`random`, `holder` or `strong`), seeded with `seed`; `None` for another name.
    pub fn new(name: &str, seed: u64) -> Option<BallroomBot> {
        match name {
            "random" => Some(BallroomBot::Random(Rng::stream(seed, b"ballroom-random"))),
            "holder" => Some(BallroomBot::Holder),
            "strong" => Some(BallroomBot::Strong),
            _ => None,
        }
    }
}

impl Bot<Ballroom> for BallroomBot {
    fn act(&mut self, view: &crate::view::Open<'_, Ballroom>) -> Action {
        let (game, seat) = (view.state(), view.seat());
        let Some(phase) = game.phase() else {
            return Action::Pass;
        };
        match self {
            BallroomBot::Random(rng) => random_act(game, seat, phase, rng),
            BallroomBot::Holder => holder_act(game, seat, phase),
            BallroomBot::Strong => strong_act(game, seat, phase),
        }
    }
}

/// Distance from a tile to the nearest control tile (Manhattan).
fn to_control(p: Pos) -> i32 {
    let cx = |v: i8| -> i32 {
        let v = v as i32;
        if v < super::CONTROL_BEGIN {
            super::CONTROL_BEGIN.saturating_sub(v)
        } else if v > super::CONTROL_END {
            v.saturating_sub(super::CONTROL_END)
        } else {
            0
        }
    };
    cx(p.x).saturating_add(cx(p.y))
}

/// Every tile `seat` can move to this turn, in board order.
fn reachable(game: &Ballroom, seat: Seat) -> impl Iterator<Item = Pos> + '_ {
    let (from, speed) = match game.player(seat) {
        Some(p) => (p.pos, p.stats().speed),
        None => (Pos::spawn(seat), 0),
    };
    (0..BOARD as i8)
        .flat_map(|x| (0..BOARD as i8).map(move |y| Pos::new(x, y)))
        .filter(move |t| t.manhattan(from) <= speed)
}

fn move_to(p: Pos) -> Action {
    Action::Move {
        x: p.x as i32,
        y: p.y as i32,
    }
}

/// The reachable tile nearest the control block (ties: board order).
fn toward_control(game: &Ballroom, seat: Seat) -> Pos {
    let mut best = Pos::spawn(seat);
    let mut best_d = i32::MAX;
    for t in reachable(game, seat) {
        let d = to_control(t);
        if d < best_d {
            best_d = d;
            best = t;
        }
    }
    best
}

/// The damage `attacker`'s hit would take off `target`.
fn hit(game: &Ballroom, attacker: Seat, target: Seat) -> i32 {
    match (game.player(attacker), game.player(target)) {
        (Some(a), Some(t)) => {
            if t.item == Item::ProcrusteanIron {
                Class::Wizard.stats().damage
            } else {
                a.stats().damage
            }
        }
        _ => 0,
    }
}

/// A buy that never triggers the engine's "NONE costs 100": something cheap instead of NONE
/// when on spawn with 100 gold or more.
fn safe_pass_buy(game: &Ballroom, seat: Seat) -> Action {
    match game.player(seat) {
        Some(p) if p.pos == Pos::spawn(seat) && p.gold >= Item::None.cost(game.ruleset()) => {
            Action::Buy(Item::StrengthPotion)
        }
        _ => Action::Buy(Item::None),
    }
}

fn random_act(game: &Ballroom, seat: Seat, phase: Phase, rng: &mut Rng) -> Action {
    let Some(me) = game.player(seat) else {
        return Action::Pass;
    };
    match phase {
        Phase::Class => {
            let i = rng.below(Class::ALL.len() as u32) as usize;
            Action::Class(Class::ALL.get(i).copied().unwrap_or_default())
        }
        Phase::Use => Action::Use(!me.item.is_permanent() && rng.chance(1, 2)),
        Phase::Move => {
            let n = reachable(game, seat).count();
            let k = rng.below(n as u32) as usize;
            move_to(reachable(game, seat).nth(k).unwrap_or(me.pos))
        }
        Phase::Attack => {
            let n = (0..PLAYERS).filter(|&t| game.in_range(seat, t)).count();
            if n == 0 {
                return Action::Pass;
            }
            let k = rng.below(n as u32) as usize;
            match (0..PLAYERS).filter(|&t| game.in_range(seat, t)).nth(k) {
                Some(t) => Action::Attack { target: t as i32 },
                None => Action::Pass,
            }
        }
        Phase::Buy => {
            if me.pos != Pos::spawn(seat) {
                return Action::Buy(Item::None);
            }
            let cost = |i: Item| i.cost(game.ruleset());
            let affordable = |i: &Item| *i != Item::None && cost(*i) <= me.gold;
            let n = Item::ALL.iter().filter(|i| affordable(i)).count();
            if n == 0 || (rng.chance(1, 2) && me.gold < cost(Item::None)) {
                return safe_pass_buy(game, seat);
            }
            let k = rng.below(n as u32) as usize;
            match Item::ALL.iter().filter(|i| affordable(i)).nth(k) {
                Some(&i) => Action::Buy(i),
                None => safe_pass_buy(game, seat),
            }
        }
    }
}

fn holder_act(game: &Ballroom, seat: Seat, phase: Phase) -> Action {
    match phase {
        Phase::Class => Action::Class(Class::Knight),
        Phase::Use => Action::Use(false),
        Phase::Move => move_to(toward_control(game, seat)),
        Phase::Attack => {
            // The weakest player in range (ties: lowest seat).
            let mut best: Option<(i8, Seat)> = None;
            for t in (0..PLAYERS).filter(|&t| game.in_range(seat, t)) {
                let h = game.player(t).map_or(i8::MAX, |p| p.health);
                if best.is_none_or(|(bh, _)| h < bh) {
                    best = Some((h, t));
                }
            }
            match best {
                Some((_, t)) => Action::Attack { target: t as i32 },
                None => Action::Pass,
            }
        }
        Phase::Buy => safe_pass_buy(game, seat),
    }
}

/// Toward the control block like [`toward_control`], ties going to the diagonal: away from the
/// walls, where the lanes of neighbouring spawns meet and a fight on the way scores nothing.
fn diagonal_toward_control(game: &Ballroom, seat: Seat) -> Pos {
    let mut best = Pos::spawn(seat);
    let mut best_key = (i32::MAX, i32::MAX);
    for t in reachable(game, seat) {
        // Chebyshev distance to the block's centre (4.5, 4.5), doubled to stay in integers.
        let doubled = |v: i8| (i32::from(v).saturating_mul(2).abs_diff(9)) as i32;
        let centre = doubled(t.x).max(doubled(t.y));
        let d = to_control(t);
        // On the block: the tile nearest the players walking in, to hit them first.
        let tie = if d == 0 {
            closeness(game, seat, t)
        } else {
            centre
        };
        let key = (d, tie);
        if key < best_key {
            best_key = key;
            best = t;
        }
    }
    best
}

/// Sum of the distances from `tile` to the living players off the block.
fn closeness(game: &Ballroom, seat: Seat, tile: Pos) -> i32 {
    (0..PLAYERS)
        .filter(|&e| e != seat)
        .filter_map(|e| game.player(e))
        .filter(|p| !p.is_dead() && !p.pos.on_control())
        .map(|p| p.pos.chebyshev(tile))
        .sum()
}

/// What `strong` buys when it is on its spawn anyway: range 2 hits a Knight walking in one turn
/// before it can hit back.
const STRONG_ITEM: Item = Item::HunterScope;

/// Turns before the end when `strong` stops waiting on its spawn to shop.
const STRONG_ENDGAME: u32 = 8;

fn strong_act(game: &Ballroom, seat: Seat, phase: Phase) -> Action {
    let Some(me) = game.player(seat) else {
        return Action::Pass;
    };
    match phase {
        Phase::Class => Action::Class(Class::Knight),
        Phase::Use => Action::Use(false),
        Phase::Move => {
            // After a respawn, wait one turn on the spawn to buy the scope.
            let home = Pos::spawn(seat);
            let turns_left = 100u32.saturating_sub(game.turn());
            if me.pos == home
                && me.item == Item::None
                && me.gold >= STRONG_ITEM.cost(game.ruleset())
                && turns_left > STRONG_ENDGAME
            {
                return move_to(home);
            }
            move_to(diagonal_toward_control(game, seat))
        }
        Phase::Attack => {
            // Prefer a kill (the weakest killable), else the weakest; ties: the higher score.
            let mut best: Option<((bool, i8, u16), Seat)> = None;
            for t in (0..PLAYERS).filter(|&t| game.in_range(seat, t)) {
                let Some(p) = game.player(t) else { continue };
                let kills = hit(game, seat, t) >= p.health as i32;
                let key = (kills, p.health.saturating_neg(), p.score);
                if best.is_none_or(|(bk, _)| key > bk) {
                    best = Some((key, t));
                }
            }
            match best {
                Some((_, t)) => Action::Attack { target: t as i32 },
                None => Action::Pass,
            }
        }
        Phase::Buy => {
            if me.pos == Pos::spawn(seat)
                && me.item == Item::None
                && me.gold >= STRONG_ITEM.cost(game.ruleset())
            {
                Action::Buy(STRONG_ITEM)
            } else {
                safe_pass_buy(game, seat)
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::games::ballroom::Params;

    #[test]
    fn a_hit_on_the_procrustean_iron_does_a_wizards_damage() {
        let classes = [Class::Knight, Class::Archer, Class::Wizard, Class::Knight];
        let params = Params {
            classes: Some(classes),
            ..Params::default()
        };
        let mut g = Ballroom::new(&params, 1).unwrap();
        assert_eq!(hit(&g, 0, 1), 6, "a knight's damage");
        assert_eq!(hit(&g, 1, 0), 3, "an archer's damage");
        g.players[1].item = Item::ProcrusteanIron;
        assert_eq!(hit(&g, 0, 1), 5, "a wizard's, whoever hits");
        assert_eq!(hit(&g, 2, 1), 5);
        assert_eq!(hit(&g, 0, 4), 0, "no such player");
    }

    #[test]
    fn strong_waits_on_its_spawn_to_buy_the_scope_until_8_turns_are_left() {
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        let home = Pos::spawn(0);
        g.players[0].pos = home;
        g.players[0].item = Item::None;
        g.players[0].gold = STRONG_ITEM.cost(g.ruleset());
        let walk = move_to(diagonal_toward_control(&g, 0));
        assert_ne!(walk, move_to(home));
        // Turn 91 (9 turns left): it stays to shop; turn 92 (8 left): it walks in.
        for (turn, want) in [
            (0, move_to(home)),
            (91, move_to(home)),
            (92, walk),
            (99, walk),
        ] {
            g.turn = turn;
            assert_eq!(g.turn(), u32::from(turn));
            assert_eq!(strong_act(&g, 0, Phase::Move), want, "turn {turn}");
        }
        // Too poor for the scope: it walks in at once.
        g.turn = 0;
        g.players[0].gold = STRONG_ITEM.cost(g.ruleset()) - 1;
        assert_eq!(strong_act(&g, 0, Phase::Move), walk);
    }

    #[test]
    fn random_passes_half_the_time_only_when_passing_is_free() {
        // On its spawn with 10 gold: buying NONE would cost 100 (engine) it cannot pay, so a
        // pass is free and the bot passes on about half the seeds, buying an affordable item on
        // the others. With 100 gold or more a pass would cost 100: it always buys an item.
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        g.players[0].pos = Pos::spawn(0);
        let mut kinds = [0usize; 2];
        for gold in [10u16, 100, 1000] {
            g.players[0].gold = gold;
            for seed in 0..32 {
                let mut rng = Rng::stream(seed, b"random-buy");
                let a = random_act(&g, 0, Phase::Buy, &mut rng);
                let Action::Buy(item) = a else {
                    panic!("{a:?}")
                };
                if gold == 10 {
                    kinds[usize::from(item == Item::None)] += 1;
                } else {
                    assert_ne!(item, Item::None, "gold {gold} seed {seed}");
                }
                if item != Item::None {
                    assert!(item.cost(g.ruleset()) <= gold, "{item:?} with {gold}");
                }
            }
        }
        assert!(kinds[0] > 0 && kinds[1] > 0, "bought / passed: {kinds:?}");
    }

    #[test]
    fn strong_on_the_block_takes_the_tile_nearest_the_players_walking_in() {
        // strong (seat 0) beside the block reaches all four of its tiles; the others stand
        // off the block near the corner (9, 9): the block tile nearest them is (5, 5), whose
        // distances (Chebyshev) sum lowest, not (4, 4) first in board order.
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        g.players[0].pos = Pos::new(4, 4);
        g.players[0].item = Item::HunterScope;
        for (s, (x, y)) in [(1, (9, 7)), (2, (9, 9)), (3, (7, 9))] {
            g.players[s].pos = Pos::new(x, y);
        }
        assert_eq!(closeness(&g, 0, Pos::new(5, 5)), 4 + 4 + 4);
        assert_eq!(closeness(&g, 0, Pos::new(4, 4)), 5 + 5 + 5);
        assert_eq!(strong_act(&g, 0, Phase::Move), move_to(Pos::new(5, 5)));
        // A dead player or one on the block does not count.
        g.players[1].pos = Pos::new(5, 4);
        assert_eq!(closeness(&g, 0, Pos::new(5, 5)), 4 + 4);
        g.players[2].health = 0;
        assert!(g.players[2].is_dead());
        assert_eq!(closeness(&g, 0, Pos::new(5, 5)), 4);
        g.players[2].health = 5;
        // The others gathered near (0, 9): the nearest block tile is (4, 5).
        for s in 1..4 {
            g.players[s].pos = Pos::new(1, 8);
        }
        assert_eq!(strong_act(&g, 0, Phase::Move), move_to(Pos::new(4, 5)));
    }

    /// The Manhattan distance to the nearest of the control block's tiles, by trying each.
    fn nearest_block_tile(p: Pos) -> i32 {
        use crate::games::ballroom::{CONTROL_BEGIN, CONTROL_END};
        let mut best = i32::MAX;
        for x in CONTROL_BEGIN..=CONTROL_END {
            for y in CONTROL_BEGIN..=CONTROL_END {
                best = best.min((i32::from(p.x) - x).abs() + (i32::from(p.y) - y).abs());
            }
        }
        best
    }

    #[test]
    fn to_control_is_the_distance_to_the_nearest_block_tile() {
        for x in 0..BOARD as i8 {
            for y in 0..BOARD as i8 {
                let p = Pos::new(x, y);
                assert_eq!(to_control(p), nearest_block_tile(p), "{p:?}");
            }
        }
    }

    #[test]
    fn toward_control_takes_the_first_reachable_tile_nearest_the_block() {
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        let corners = [(0, 0), (0, 9), (9, 0), (9, 9), (2, 7), (7, 3)];
        for seat in 0..crate::games::ballroom::PLAYERS {
            for (x, y) in corners {
                g.players[seat].pos = Pos::new(x, y);
                let want = reachable(&g, seat)
                    .min_by_key(|&t| nearest_block_tile(t))
                    .unwrap();
                assert_ne!(want, Pos::spawn(seat));
                assert_eq!(toward_control(&g, seat), want, "seat {seat} at ({x}, {y})");
            }
        }
    }
}
