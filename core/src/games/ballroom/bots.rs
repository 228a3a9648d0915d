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
/// when on spawn with 100 gold or more. As written, NONE is free (and keeps the held item):
/// always NONE.
fn safe_pass_buy(game: &Ballroom, seat: Seat) -> Action {
    let none = Item::None.cost(game.ruleset());
    match game.player(seat) {
        Some(p) if none > 0 && p.pos == Pos::spawn(seat) && p.gold >= none => {
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
/// Ties left: board order.
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

    #[test]
    fn holder_is_a_knight_walking_in_hitting_the_weakest_and_never_paying_for_none() {
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        assert_eq!(
            holder_act(&g, 0, Phase::Class),
            Action::Class(Class::Knight)
        );
        assert_eq!(holder_act(&g, 0, Phase::Use), Action::Use(false));
        // From its spawn (0, 0), a Knight (speed 2) reaches three tiles 6 from the block:
        // (0, 2), (1, 1), (2, 0); the first in board order (x outer) is taken.
        assert_eq!(g.players[0].stats().speed, 2);
        assert_eq!(holder_act(&g, 0, Phase::Move), move_to(Pos::new(0, 2)));
        // On the block at (4, 4), range 1: seats 1 (5, 5) with 5 health, 2 (3, 4) and 3 (4, 5)
        // with 3 each, all in range. The weakest, the lower seat of the two: 2.
        g.players[0].pos = Pos::new(4, 4);
        for (s, (x, y), h) in [(1, (5, 5), 5), (2, (3, 4), 3), (3, (4, 5), 3)] {
            g.players[s].pos = Pos::new(x, y);
            g.players[s].health = h;
            assert!(g.in_range(0, s), "seat {s}");
        }
        assert_eq!(
            holder_act(&g, 0, Phase::Attack),
            Action::Attack { target: 2 }
        );
        // Seat 1 the weakest (1 health) but out of range (Chebyshev 2): 2 again.
        g.players[1].pos = Pos::new(6, 6);
        g.players[1].health = 1;
        assert!(!g.in_range(0, 1));
        assert_eq!(
            holder_act(&g, 0, Phase::Attack),
            Action::Attack { target: 2 }
        );
        // Seat 3 weaker than 2: 3.
        g.players[3].health = 2;
        assert_eq!(
            holder_act(&g, 0, Phase::Attack),
            Action::Attack { target: 3 }
        );
        // Nobody in range: a pass.
        for s in 1..PLAYERS {
            g.players[s].pos = Pos::spawn(s);
        }
        assert_eq!(holder_act(&g, 0, Phase::Attack), Action::Pass);
        // The buy: NONE costs 100 in the engine, charged on the spawn to a player who has it
        // (and the held item dropped): with 100 gold there it buys a 5-gold potion instead.
        // With 99, or off its spawn, NONE costs nothing.
        let none = Item::None.cost(g.ruleset());
        assert_eq!(none, 100);
        for (pos, gold, want) in [
            (Pos::spawn(0), none, Item::StrengthPotion),
            (Pos::spawn(0), 1000, Item::StrengthPotion),
            (Pos::spawn(0), none - 1, Item::None),
            (Pos::new(4, 4), 1000, Item::None),
        ] {
            g.players[0].pos = pos;
            g.players[0].gold = gold;
            assert_eq!(
                holder_act(&g, 0, Phase::Buy),
                Action::Buy(want),
                "{pos:?} with {gold}"
            );
        }
    }

    #[test]
    fn as_written_the_bots_pass_for_free_on_their_spawn() {
        // As written, buying NONE costs nothing and keeps the held item: on its spawn, with
        // little gold or much, holding something or not, `holder` and `strong` (not shopping
        // for its scope) buy NONE, which is never refused. (In the engine they would buy a
        // Strength Potion with 100 gold there, refused below its 5.)
        let params = Params {
            ruleset: crate::games::ballroom::Ruleset::AsWritten,
            ..Params::default()
        };
        let mut g = Ballroom::new(&params, 1).unwrap();
        assert_eq!(Item::None.cost(g.ruleset()), 0);
        g.players[0].pos = Pos::spawn(0);
        for (gold, item) in [(0, Item::None), (4, Item::None), (150, Item::RallyBanner)] {
            g.players[0].gold = gold;
            g.players[0].item = item;
            assert_eq!(
                holder_act(&g, 0, Phase::Buy),
                Action::Buy(Item::None),
                "{gold}"
            );
            if item != Item::None {
                assert_eq!(
                    strong_act(&g, 0, Phase::Buy),
                    Action::Buy(Item::None),
                    "{gold}"
                );
            }
        }
        // Too poor for any item, `random` passes too.
        g.players[0].gold = 4;
        g.players[0].item = Item::None;
        for seed in 0..8 {
            let mut rng = Rng::stream(seed, b"random-buy");
            assert_eq!(
                random_act(&g, 0, Phase::Buy, &mut rng),
                Action::Buy(Item::None)
            );
        }
    }

    #[test]
    fn random_attacks_a_player_in_range_or_passes_when_none_is() {
        // Seat 0, a Knight at (4, 4) (range 1): seats 1 (5, 5) and 2 (3, 4) in range, seat 3
        // on its spawn out of range. Every seed attacks 1 or 2, each chosen on some seeds.
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        g.players[0].pos = Pos::new(4, 4);
        g.players[1].pos = Pos::new(5, 5);
        g.players[2].pos = Pos::new(3, 4);
        let mut hit = [0usize; PLAYERS];
        for seed in 0..32 {
            let mut rng = Rng::stream(seed, b"random-attack");
            match random_act(&g, 0, Phase::Attack, &mut rng) {
                Action::Attack { target } if target == 1 || target == 2 => {
                    hit[target as usize] += 1;
                }
                a => panic!("seed {seed}: {a:?}"),
            }
        }
        assert!(hit[1] > 0 && hit[2] > 0, "{hit:?}");
        // Nobody in range: a pass.
        g.players[1].pos = Pos::spawn(1);
        g.players[2].pos = Pos::spawn(2);
        for seed in 0..8 {
            let mut rng = Rng::stream(seed, b"random-attack");
            assert_eq!(random_act(&g, 0, Phase::Attack, &mut rng), Action::Pass);
        }
    }

    #[test]
    fn random_buys_each_affordable_item_alike_once_a_pass_costs_100() {
        // On its spawn with 100 gold (NONE's engine price: a pass is no longer free) or more,
        // `random` buys one of the 11 items (each 8 gold at most), uniformly: over 330 seeds,
        // each about 30 times. Never NONE, none of them more than twice its share.
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        g.players[0].pos = Pos::spawn(0);
        let none = Item::None.cost(g.ruleset());
        for gold in [none, none + 1, 1000] {
            g.players[0].gold = gold;
            let mut count = [0usize; Item::ALL.len()];
            for seed in 0..330 {
                let mut rng = Rng::stream(seed, b"random-buy");
                let a = random_act(&g, 0, Phase::Buy, &mut rng);
                let Action::Buy(item) = a else {
                    panic!("{a:?}")
                };
                count[usize::from(item.index())] += 1;
            }
            assert_eq!(count[usize::from(Item::None.index())], 0, "gold {gold}");
            for (i, &n) in Item::ALL.iter().zip(&count).take(11) {
                assert!((1..=60).contains(&n), "gold {gold}: {i:?} {n} times of 330");
            }
        }
    }

    #[test]
    fn strong_breaks_its_ties_in_board_order() {
        // Off the block: strong holding Anemoi Wings (speed 3) on its spawn (0, 0) reaches
        // (1, 2) and (2, 1), both 5 from the block and as far from its centre (Chebyshev, 3.5):
        // the first in board order (x outer), (1, 2).
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        g.players[0].item = Item::AnemoiWings;
        g.players[0].effect_timer = -1;
        assert_eq!(g.players[0].stats().speed, 3);
        assert_eq!(strong_act(&g, 0, Phase::Move), move_to(Pos::new(1, 2)));
        // On the block at (4, 4), every block tile in reach. One player off the block, at
        // (9, 4): (5, 4) and (5, 5) are both 4 from it (Chebyshev), (4, 4) and (4, 5) 5: (5, 4).
        g.players[0].pos = Pos::new(4, 4);
        g.players[0].item = Item::HunterScope;
        g.players[1].pos = Pos::new(9, 4);
        for s in 2..PLAYERS {
            g.players[s].pos = Pos::new(4, 5);
        }
        assert_eq!(closeness(&g, 0, Pos::new(5, 4)), 4);
        assert_eq!(closeness(&g, 0, Pos::new(5, 5)), 4);
        assert_eq!(strong_act(&g, 0, Phase::Move), move_to(Pos::new(5, 4)));
        // Nobody off the block: all four tie at 0; the first, (4, 4), where it stands.
        g.players[1].pos = Pos::new(5, 5);
        assert_eq!(strong_act(&g, 0, Phase::Move), move_to(Pos::new(4, 4)));
    }

    #[test]
    fn strong_hits_a_player_it_can_kill_else_the_weakest_ties_to_the_higher_score() {
        // strong (seat 0), a Knight holding a Rally Banner (damage 8) at (4, 4), range 1.
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        g.players[0].pos = Pos::new(4, 4);
        g.players[0].item = Item::RallyBanner;
        g.players[0].effect_timer = -1;
        assert_eq!(g.players[0].stats().damage, 8);
        let put = |g: &mut Ballroom, s: usize, (x, y): (i8, i8), health: i8, score: u16| {
            g.players[s].pos = Pos::new(x, y);
            g.players[s].health = health;
            g.players[s].score = score;
            assert!(g.in_range(0, s), "seat {s}");
        };
        // Seat 1 holds a Procrustean Iron (a hit does 5) with 6 health: the weakest, not
        // killed. Seat 2 with 8 health: killed (8 >= 8). Seat 3 with 9: neither. Seat 2.
        put(&mut g, 1, (5, 5), 6, 0);
        g.players[1].item = Item::ProcrusteanIron;
        put(&mut g, 2, (3, 4), 8, 0);
        put(&mut g, 3, (4, 5), 9, 0);
        assert_eq!(hit(&g, 0, 1), 5);
        assert_eq!(
            strong_act(&g, 0, Phase::Attack),
            Action::Attack { target: 2 }
        );
        // Nobody killed (seat 2 at 9 too): the weakest, seat 1.
        g.players[2].health = 9;
        assert_eq!(
            strong_act(&g, 0, Phase::Attack),
            Action::Attack { target: 1 }
        );
        // Everyone killed, all at 5 health: the higher score (seats 2 and 3 at 7), then the
        // lower seat of the two.
        g.players[1].item = Item::None;
        for (s, at, score) in [(1, (5, 5), 3), (2, (3, 4), 7), (3, (4, 5), 7)] {
            put(&mut g, s, at, 5, score);
        }
        assert_eq!(
            strong_act(&g, 0, Phase::Attack),
            Action::Attack { target: 2 }
        );
        // Seat 2 out of range: 3.
        g.players[2].pos = Pos::spawn(2);
        assert_eq!(
            strong_act(&g, 0, Phase::Attack),
            Action::Attack { target: 3 }
        );
    }

    #[test]
    fn strong_buys_the_scope_on_its_spawn_holding_nothing_with_8_gold() {
        let mut g = Ballroom::new(&Params::default(), 1).unwrap();
        let scope = STRONG_ITEM.cost(g.ruleset());
        assert_eq!((STRONG_ITEM, scope), (Item::HunterScope, 8));
        let home = Pos::spawn(0);
        for (pos, item, gold, want) in [
            (home, Item::None, scope, Item::HunterScope),
            (home, Item::None, 99, Item::HunterScope),
            // Too poor: NONE, free below 100 gold.
            (home, Item::None, scope - 1, Item::None),
            // Holding an item already (the scope, or another): it keeps it, NONE.
            (home, Item::HunterScope, 50, Item::None),
            (home, Item::AnemoiWings, 50, Item::None),
            // Off its spawn nothing can be bought: NONE.
            (Pos::new(4, 4), Item::None, 50, Item::None),
        ] {
            g.players[0].pos = pos;
            g.players[0].item = item;
            g.players[0].gold = gold;
            assert_eq!(
                strong_act(&g, 0, Phase::Buy),
                Action::Buy(want),
                "{pos:?} holding {item:?} with {gold}"
            );
        }
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
