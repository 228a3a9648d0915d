//! The food spawn's tests (a file of its own: test code uses `std`, which the core does not).

#![allow(clippy::unwrap_used)]

extern crate std;
use super::*;
use crate::games::ants::{AntsMcu, MCU_FOOD, MCU_SQUARES};
use std::collections::VecDeque;
use std::vec::Vec;

/// The eight orientations in `offset_aim`'s order (rules/ants.md, Food): (r,c), (-r,c),
/// (r,-c), (-r,-c), (c,r), (-c,r), (c,-r), (-c,-r).
#[test]
fn offset_aim_gives_the_eight_orientations_in_the_official_order() {
    let aimed: [(i32, i32); 8] = core::array::from_fn(|aim| offset_aim((1, 2), aim as u8));
    let want = [
        (1, 2),
        (-1, 2),
        (1, -2),
        (-1, -2),
        (2, 1),
        (-2, 1),
        (2, -1),
        (-2, -1),
    ];
    assert_eq!(aimed, want);
    // Any other aim leaves the offset as it is.
    assert_eq!(offset_aim((1, 2), 8), (1, 2));
}

/// A blank game of `rows` x `cols` (`players` players): only its map, for the ring and
/// the map comparisons.
fn blank(rows: u16, cols: u16, players: u8) -> AntsMcu {
    let mut g = AntsMcu::blank();
    g.rows = rows;
    g.cols = cols;
    g.players = players;
    g
}

/// The ring is a deque of one slot a map square: the same answers as a `VecDeque` for
/// pushes and pops at both ends, around the end of its slots and back, and a push on a
/// full ring is refused (it neither grows nor overwrites the other end).
#[test]
fn the_ring_is_a_deque_of_a_slot_a_square() {
    let mut g = blank(10, 10, 2);
    assert_eq!(g.ring_cap(), 100);
    // From a head by the end of the slots, so that it wraps both ways.
    g.ring_head = 98;
    g.ring_len = 0;
    let mut model: VecDeque<u16> = VecDeque::new();
    let script: [(u8, u16); 16] = [
        (b'b', 1),
        (b'b', 2),
        (b'b', 3),
        (b'f', 7),
        (b'p', 0),
        (b'q', 0),
        (b'q', 0),
        (b'f', 8),
        (b'f', 9),
        (b'f', 10),
        (b'q', 0),
        (b'p', 0),
        (b'q', 0),
        (b'q', 0),
        (b'p', 0),
        (b'q', 0),
    ];
    for (i, &(op, v)) in script.iter().enumerate() {
        let (got, want) = match op {
            b'b' => {
                g.ring_push_back(v);
                model.push_back(v);
                (None, None)
            }
            b'f' => {
                g.ring_push_front(v);
                model.push_front(v);
                (None, None)
            }
            b'p' => (g.ring_pop_back(), model.pop_back()),
            _ => (g.ring_pop_front(), model.pop_front()),
        };
        assert_eq!(got, want, "step {i}");
        assert_eq!(g.ring_len, model.len(), "step {i}");
        let held: Vec<u16> = (0..g.ring_len).map(|k| g.ring_get(k)).collect();
        assert_eq!(held, Vec::from(model.clone()), "step {i}");
    }
    // Full: every slot holds a value; one more at either end is refused.
    g.ring_head = 40;
    g.ring_len = 0;
    for v in 0..100 {
        g.ring_push_back(v);
    }
    g.ring_push_back(500);
    g.ring_push_front(501);
    assert_eq!(g.ring_len, 100);
    let held: Vec<u16> = (0..100).map(|k| g.ring_get(k)).collect();
    assert_eq!(held, (0..100).collect::<Vec<u16>>());
    assert_eq!(g.ring_pop_back(), Some(99));
    assert_eq!(g.ring_pop_front(), Some(0));
}

/// `map_similar` as the official engine writes it: every offset `(row, col)` of the map,
/// from `loc1` as it is and from `loc2` turned by `aim`, compared square by square.
fn plain_similar(g: &AntsMcu, loc1: usize, loc2: usize, aim: u8, player: u8) -> bool {
    let (h, w) = (g.rows as i32, g.cols as i32);
    for row in 0..h {
        for col in 0..w {
            let a = g.offset(loc1, row, col);
            let (dr, dc) = offset_aim((row, col), aim);
            let b = g.offset(loc2, dr, dc);
            let (ilk0, ilk1) = (g.map[a], g.map[b]);
            // Player 0's ant must be `player`'s, another ant someone else's, the rest
            // the same.
            let differs = match ilk0 {
                0 => ilk1 != player,
                1..LAND => ilk1 >= LAND || ilk1 == player,
                _ => ilk1 != ilk0,
            };
            if differs {
                return false;
            }
        }
    }
    true
}

/// `map_similar` (rows cut into runs where neither walk wraps) answers as the plain
/// comparison, on maps made symmetric (land, water, food and ants of two or three players
/// copied along the orbits of a random orientation and shift, the players permuted), some
/// then spoiled by one square: every pair of ant squares, every aim and player. Square maps
/// take every orientation, the others the four that keep rows rows.
#[test]
fn map_similar_answers_as_the_plain_comparison() {
    let mut rng = crate::Rng::new(7);
    let (mut similar, mut not) = (0, 0);
    for (rows, cols) in [
        (6, 6),
        (7, 7),
        (5, 5),
        (8, 8),
        (6, 9),
        (9, 4),
        (7, 10),
        (4, 4),
    ] {
        for _ in 0..40 {
            let players = 2 + rng.below(2) as u8;
            let mut g = blank(rows, cols, players);
            let squares = rows as usize * cols as usize;
            let aims = if rows == cols { 8 } else { 4 };
            let aim = rng.below(aims) as u8;
            let shift = (rng.below(rows as u32) as i32, rng.below(cols as u32) as i32);
            // S(x) = shift + aim(x): a bijection of the torus.
            let image = |g: &AntsMcu, sq: usize| {
                let (r, c) = g.row_col(sq);
                let (dr, dc) = offset_aim((r, c), aim);
                g.sq_of(shift.0 + dr, shift.1 + dc)
            };
            // The players, permuted: the owner of an ant's image.
            let mut perm: Vec<u8> = (0..players).collect();
            rng.shuffle(&mut perm);
            let mut done = [false; MCU_SQUARES];
            for start in 0..squares {
                if done[start] {
                    continue;
                }
                let mut orbit = Vec::from([start]);
                let mut next = image(&g, start);
                while next != start {
                    orbit.push(next);
                    next = image(&g, next);
                }
                let ilk = match rng.below(10) {
                    0..=5 => LAND,
                    6 | 7 => WATER,
                    8 => FOOD,
                    _ => rng.below(players as u32) as u8,
                };
                let mut owner = ilk;
                for &sq in &orbit {
                    done[sq] = true;
                    g.map[sq] = owner;
                    if owner < LAND {
                        owner = perm[owner as usize];
                    }
                }
                // An orbit of ants that does not close on its first owner is land.
                if ilk < LAND && owner != ilk {
                    for &sq in &orbit {
                        g.map[sq] = LAND;
                    }
                }
            }
            if rng.chance(1, 3) {
                let sq = rng.below(squares as u32) as usize;
                g.map[sq] = [LAND, WATER, FOOD, 0, 1][rng.below(5) as usize];
            }
            let ants: Vec<usize> = (0..squares).filter(|&sq| g.map[sq] < LAND).collect();
            for &loc1 in ants.iter().filter(|&&sq| g.map[sq] == 0) {
                for &loc2 in &ants {
                    for aim in 0..8 {
                        for player in 1..players {
                            let want = plain_similar(&g, loc1, loc2, aim, player);
                            assert_eq!(
                                g.map_similar(loc1, loc2, aim, player),
                                want,
                                "{rows}x{cols} {:?}, from {loc1} to {loc2}, aim {aim}, player {player}",
                                &g.map[..squares]
                            );
                            if want {
                                similar += 1;
                            } else {
                                not += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Both answers are well represented.
    assert!(similar > 500 && not > 500, "{similar} similar, {not} not");
}

/// The same on small maps of random squares, most of them not square: a turned view (aims
/// 4 to 7) then takes some squares twice and others never, so ants may face land.
#[test]
fn map_similar_answers_as_the_plain_comparison_on_small_random_maps() {
    let mut rng = crate::Rng::new(8);
    let mut similar = 0;
    for (rows, cols) in [
        (4, 2),
        (2, 4),
        (3, 4),
        (4, 3),
        (2, 3),
        (3, 5),
        (2, 6),
        (3, 3),
    ] {
        for _ in 0..400 {
            let players = 2 + rng.below(2) as u8;
            let mut g = blank(rows, cols, players);
            let squares = rows as usize * cols as usize;
            for sq in 0..squares {
                g.map[sq] = match rng.below(9) {
                    0..=4 => LAND,
                    5 => WATER,
                    6 => FOOD,
                    _ => rng.below(players as u32) as u8,
                };
            }
            let loc1 = rng.below(squares as u32) as usize;
            g.map[loc1] = 0;
            for loc2 in (0..squares).filter(|&sq| g.map[sq] < LAND) {
                for aim in 0..8 {
                    for player in 1..players {
                        let want = plain_similar(&g, loc1, loc2, aim, player);
                        assert_eq!(
                            g.map_similar(loc1, loc2, aim, player),
                            want,
                            "{rows}x{cols} {:?}, from {loc1} to {loc2}, aim {aim}, player {player}",
                            &g.map[..squares]
                        );
                        similar += usize::from(want);
                    }
                }
            }
        }
    }
    assert!(similar > 200, "{similar} similar");
}

/// `place_food` (rules/ants.md, Food): the pending squares are walked in the order they were
/// first scheduled, one food goes on each that is land with no ant and no food, and a square
/// keeps its place in the walk, with what is left of its count, until all its food is
/// placed: food scheduled under an ant waits for the ant to leave, a second food on a square
/// for the first to go, food on water for ever.
#[test]
fn scheduled_food_waits_for_its_square_to_be_free_land_in_scheduling_order() {
    let mut g = blank(4, 4, 2);
    g.map[..16].fill(LAND);
    let (ant, free, twice, water) = (5, 9, 2, 14);
    g.map[ant] = 1;
    g.map[water] = WATER;
    for sq in [ant, free, twice, water, twice] {
        g.schedule(sq);
    }
    let placed = |g: &AntsMcu| -> Vec<u16> { g.food.iter().map(|f| f.sq).collect() };
    let order = |g: &AntsMcu| -> Vec<u16> { g.pending_order.iter().copied().collect() };
    g.place_food();
    assert_eq!(placed(&g), [free as u16, twice as u16]);
    assert_eq!(order(&g), [ant as u16, twice as u16, water as u16]);
    assert_eq!(
        (g.pending[ant], g.pending[free], g.pending[twice]),
        (1, 0, 1)
    );
    assert_eq!((g.map[free], g.map[twice]), (FOOD, FOOD));
    // Nothing has moved: nothing more is placed, nothing is forgotten.
    g.place_food();
    assert_eq!(placed(&g), [free as u16, twice as u16]);
    assert_eq!(order(&g), [ant as u16, twice as u16, water as u16]);
    // The ant leaves and the food on `twice` is eaten: both get their food, the ant's square
    // first (it was scheduled first); the water's stays pending.
    g.map[ant] = LAND;
    g.map[twice] = LAND;
    g.food.retain(|f| f.sq != twice as u16);
    g.place_food();
    assert_eq!(placed(&g), [free as u16, ant as u16, twice as u16]);
    assert_eq!(order(&g), [water as u16]);
    assert_eq!(
        (g.pending[ant], g.pending[twice], g.pending[water]),
        (0, 0, 1)
    );
    // A square scheduled again once its food is placed joins the end of the walk.
    g.schedule(free);
    assert_eq!(order(&g), [water as u16, free as u16]);
}

/// A full food list (a rule case of the build, mod.rs: "food list full") leaves the food
/// scheduled, counts each square that waits once a placement (`capacity_waits`), and places it
/// when there is room, in scheduling order.
#[test]
fn food_waits_for_room_in_a_full_food_list_and_each_wait_is_counted() {
    let mut g = blank(20, 20, 2);
    g.map[..400].fill(LAND);
    for sq in 0..MCU_FOOD {
        assert!(g.add_food(sq));
    }
    assert_eq!(g.capacity_waits(), 0);
    g.schedule(300);
    g.schedule(301);
    g.place_food();
    assert_eq!(g.capacity_waits(), 2);
    assert_eq!(g.food.len(), MCU_FOOD);
    assert_eq!(g.pending_order.as_slice(), [300, 301]);
    g.place_food();
    assert_eq!(g.capacity_waits(), 4);
    // One food goes: the first scheduled square takes its place, the second waits again.
    g.food.pop();
    g.map[MCU_FOOD - 1] = LAND;
    g.place_food();
    assert_eq!(g.capacity_waits(), 5);
    assert_eq!(g.food.last().map(|f| f.sq), Some(300));
    assert_eq!(g.map[300], FOOD);
    assert_eq!(g.pending_order.as_slice(), [301]);
    assert_eq!(g.food_created(), MCU_FOOD as u32 + 1);
}
