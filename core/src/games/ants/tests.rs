//! Unit tests: one per rule and decision of `rules/ants.md`, on small boards set up by hand.
//! (Test code only: `std`'s `Vec` collects what a turn refused.)

extern crate std;
use std::vec::Vec;

use super::map::{FOOD, LAND, WATER};
use super::state::CUTOFF_FOOD;
use super::*;
use crate::game::Game;

type G = AntsMcu;

/// 10 x 10 of land, hills of player 0 at (2,2) and player 1 at (7,7).
const OPEN: &str = "rows 10\ncols 10\nplayers 2\nm ..........\nm ..........\nm ..0.......\nm ..........\nm ..........\nm ..........\nm ..........\nm .......1..\nm ..........\nm ..........\n";

fn params(text: &str) -> AntsMcuParams {
    AntsMcuParams::new(AntsMcuMap::parse(text).unwrap(), 200)
}

fn game(text: &str, seed: u64) -> G {
    G::new(&params(text), seed).unwrap()
}

/// A board with no ants and no food left, for staging a position.
fn empty(text: &str) -> G {
    let mut g = game(text, 1);
    clear(&mut g);
    g
}

/// No ants and no food left on `g`, of any build.
fn clear<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &mut AntsGame<SQ, A, F, H, O>,
) {
    for sq in 0..g.rows as usize * g.cols as usize {
        if g.map[sq] != WATER {
            g.map[sq] = LAND;
        }
        g.ant_at[sq] = u16::MAX;
        g.pending[sq] = 0;
    }
    g.pending_order.clear();
    g.ants.clear();
    g.food.clear();
    g.ant_count = [0; 10];
}

fn sq(g: &G, r: i32, c: i32) -> usize {
    g.sq_of(r, c)
}

fn put_ant<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &mut AntsGame<SQ, A, F, H, O>,
    r: i32,
    c: i32,
    owner: u8,
) {
    let s = g.sq_of(r, c);
    let id = g.next_ant;
    g.next_ant += 1;
    g.ant_at[s] = g.ants.len() as u16;
    g.ants
        .push(Ant {
            id,
            sq: s as u16,
            owner,
            spawn_turn: 0,
            order: b'-',
        })
        .unwrap();
    g.map[s] = owner;
    g.ant_count[owner as usize] += 1;
}

fn put_food(g: &mut G, r: i32, c: i32) {
    let s = sq(g, r, c);
    g.food
        .push(Food {
            id: g.next_food,
            sq: s as u16,
            start_turn: 0,
        })
        .unwrap();
    g.next_food += 1;
    g.map[s] = FOOD;
}

/// [`empty`] with these ants, `(row, col, owner)`.
fn staged(ants: &[(i32, i32, u8)]) -> G {
    let mut g = empty(OPEN);
    for &(r, c, owner) in ants {
        put_ant(&mut g, r, c, owner);
    }
    g
}

/// Food on rows 5 and 6 (but their last square): more food than either player can gather.
fn food_rows(g: &mut G) {
    for c in 0..9 {
        put_food(g, 5, c);
        put_food(g, 6, c);
    }
}

fn order(r: i16, c: i16, dir: Dir) -> Order {
    Order {
        row: r,
        col: c,
        dir,
    }
}

fn play(g: &mut G, orders: [&[Order]; 2]) -> Vec<(usize, usize, OrderError)> {
    let mut refused = Vec::new();
    g.play_turn(&orders, crate::SeatSet::EMPTY, |p, i, e| {
        refused.push((p, i, e))
    });
    refused
}

/// One ant of player 0 at (4,4) between two of player 1: in a focus battle and in a damage
/// battle, it dies and they live.
const TWO_VERSUS_ONE: [(i32, i32, u8); 4] = [(4, 4, 0), (3, 6, 1), (5, 6, 1), (0, 0, 0)];
const TWO_VERSUS_ONE_LEFT: [(i32, i32, Option<u8>); 3] =
    [(4, 4, None), (3, 6, Some(1)), (5, 6, Some(1))];

/// Stages `ants`, plays a turn without orders under `attack`, and checks who is on each square
/// of `left` (`(row, col, owner)`).
fn battle(attack: Attack, ants: &[(i32, i32, u8)], left: &[(i32, i32, Option<u8>)]) -> G {
    let mut g = staged(ants);
    g.attack = attack;
    pass(&mut g);
    for &(r, c, owner) in left {
        assert_eq!(owner_at(&g, r, c), owner, "({r},{c})");
    }
    g
}

/// A turn without orders.
fn pass(g: &mut G) -> Vec<(usize, usize, OrderError)> {
    play(g, [&[], &[]])
}

fn owner_at(g: &G, r: i32, c: i32) -> Option<u8> {
    g.ant_on(sq(g, r, c)).map(|a| a.owner)
}

#[test]
fn mcu_state_fits_in_48_kb() {
    assert!(
        core::mem::size_of::<AntsMcu>() <= 48 * 1024,
        "{}",
        core::mem::size_of::<AntsMcu>()
    );
    assert!(core::mem::size_of::<Ants>() > core::mem::size_of::<AntsMcu>());
}

#[test]
fn setup_puts_one_ant_on_each_hill_and_scores_start_at_hill_count() {
    let g = game(OPEN, 3);
    assert_eq!(g.ants().len(), 2);
    assert_eq!(owner_at(&g, 2, 2), Some(0));
    assert_eq!(owner_at(&g, 7, 7), Some(1));
    assert_eq!(g.scores(), &[1, 1]);
    let (rate, turn, start, visible) = g.food_params();
    assert!((5..=11).contains(&rate) && (19..=37).contains(&turn));
    assert!((75..=175).contains(&start) && (3..=5).contains(&visible));
}

#[test]
fn initial_food_is_symmetric_and_visible() {
    let g = game(OPEN, 5);
    assert!(!g.food().is_empty());
    // Every food has its image under the chosen symmetry.
    for f in g.food() {
        let (r, c) = g.row_col(f.sq as usize);
        let (h0r, h0c) = g.row_col(g.sym_sq[0] as usize);
        let (loc, aim) = (g.sym_sq[1], g.sym_aim[1]);
        let (dr, dc) = food::offset_aim((r - h0r, c - h0c), aim);
        let image = g.offset(loc as usize, dr, dc);
        assert!(g.is_food(image), "food at ({r},{c}) has no symmetric twin");
    }
}

#[test]
fn orders_are_validated_in_the_official_order() {
    let mut g = staged(&[(4, 4, 0), (0, 9, 1)]);
    g.map[sq(&g, 3, 4)] = WATER;
    put_food(&mut g, 5, 4);
    let orders = [
        order(4, 4, Dir::E),  // accepted
        order(4, 4, Dir::W),  // duplicate order
        order(0, 9, Dir::N),  // not player ant
        order(-6, 4, Dir::E), // wraps onto own ant, then out of bounds
        order(-6, 5, Dir::E), // wraps onto land: not player ant
        order(10, 4, Dir::E), // IndexError: out of bounds
        order(4, 4, Dir::N),  // duplicate is checked before blocking
    ];
    let refused = play(&mut g, [&orders, &[]]);
    let reasons: Vec<OrderError> = refused.iter().map(|r| r.2).collect();
    assert_eq!(
        reasons,
        [
            OrderError::Duplicate,
            OrderError::NotPlayerAnt,
            OrderError::OutOfBounds,
            OrderError::NotPlayerAnt,
            OrderError::OutOfBounds,
            OrderError::Duplicate
        ]
    );
    assert_eq!(
        owner_at(&g, 4, 5),
        Some(0),
        "the accepted order moved the ant"
    );
}

/// Seats are validated in turn, each against the board before anyone moves: an order for
/// another seat's ant is "not player ant" even once that seat has moved it this turn (only
/// one's own ant ordered twice is a "duplicate order").
#[test]
fn an_order_for_an_ant_another_seat_moved_is_not_the_players_ant() {
    let mut g = staged(&[(4, 4, 0), (0, 9, 1)]);
    let refused = play(
        &mut g,
        [
            &[order(4, 4, Dir::E)],
            &[
                order(4, 4, Dir::W),
                order(0, 9, Dir::S),
                order(0, 9, Dir::N),
            ],
        ],
    );
    assert_eq!(
        refused,
        [
            (1, 0, OrderError::NotPlayerAnt),
            (1, 2, OrderError::Duplicate)
        ]
    );
    assert_eq!((owner_at(&g, 4, 5), owner_at(&g, 1, 9)), (Some(0), Some(1)));
}

/// Row 0 and column 0 are on the board: orders for ants there are taken (only negative rows
/// and columns, which Python's indexing would wrap, are out of bounds).
#[test]
fn orders_for_ants_on_row_0_and_column_0_are_taken() {
    let mut g = staged(&[(0, 4, 0), (4, 0, 0), (9, 9, 1)]);
    let refused = play(
        &mut g,
        [
            &[
                order(0, 4, Dir::S),
                order(4, 0, Dir::E),
                order(-10, 4, Dir::E),
            ],
            &[],
        ],
    );
    assert_eq!(refused, [(0, 2, OrderError::OutOfBounds)]);
    assert_eq!((owner_at(&g, 1, 4), owner_at(&g, 4, 1)), (Some(0), Some(0)));
    assert_eq!((owner_at(&g, 0, 4), owner_at(&g, 4, 0)), (None, None));
}

#[test]
fn moves_onto_food_or_water_are_ignored_and_the_ant_stays() {
    let mut g = staged(&[(4, 4, 0), (0, 9, 1)]);
    g.map[sq(&g, 3, 4)] = WATER;
    put_food(&mut g, 5, 4);
    let refused = play(&mut g, [&[order(4, 4, Dir::N), order(4, 4, Dir::S)], &[]]);
    assert_eq!(
        refused.iter().map(|r| r.2).collect::<Vec<_>>(),
        [OrderError::MoveBlocked; 2]
    );
    assert_eq!(owner_at(&g, 4, 4), Some(0));
}

#[test]
fn collisions_kill_every_ant_on_the_square() {
    let mut g = staged(&[(4, 3, 0), (4, 5, 0), (0, 0, 1)]);
    play(&mut g, [&[order(4, 3, Dir::E), order(4, 5, Dir::W)], &[]]);
    assert_eq!(g.killed().len(), 2);
    assert_eq!(owner_at(&g, 4, 4), None);
    assert_eq!(g.ant_count(0), 0);
}

#[test]
fn swapping_ants_pass_through_each_other() {
    let mut g = staged(&[(0, 0, 0), (0, 1, 0), (9, 5, 1)]);
    play(&mut g, [&[order(0, 0, Dir::E), order(0, 1, Dir::W)], &[]]);
    assert!(g.killed().is_empty());
    assert_eq!((owner_at(&g, 0, 0), owner_at(&g, 0, 1)), (Some(0), Some(0)));
}

#[test]
fn focus_battle_one_on_one_both_die() {
    let g = battle(
        Attack::Focus,
        &[(4, 4, 0), (4, 6, 1), (0, 0, 0), (0, 5, 1)],
        &[(4, 4, None), (4, 6, None)],
    );
    assert_eq!(g.killed().len(), 2);
}

#[test]
fn focus_battle_two_versus_one_kills_the_one() {
    battle(Attack::Focus, &TWO_VERSUS_ONE, &TWO_VERSUS_ONE_LEFT);
}

#[test]
fn focus_battle_ant_sandwich_kills_the_middle() {
    // A B C in a row, d2 = 4 between neighbours, 16 between A and C.
    battle(
        Attack::Focus,
        &[(4, 2, 0), (4, 4, 1), (4, 6, 0), (9, 9, 1)],
        &[(4, 4, None), (4, 2, Some(0)), (4, 6, Some(0))],
    );
}

#[test]
fn razing_gives_two_points_and_costs_the_owner_one() {
    let mut g = staged(&[(7, 6, 0), (0, 0, 1), (2, 2, 0)]);
    play(&mut g, [&[order(7, 6, Dir::E)], &[]]);
    let hill1 = g.hills().iter().find(|h| h.owner == 1).unwrap();
    assert_eq!((hill1.end_turn, hill1.killed_by), (Some(1), Some(0)));
    assert_eq!(g.scores(), &[3, 0]);
}

#[test]
fn spawning_uses_hive_food_on_free_hills_only() {
    // Player 1's ant stands on its own hill: no spawn there.
    let mut g = staged(&[(0, 0, 0), (7, 7, 1)]);
    g.hive = [2, 2, 0, 0, 0, 0, 0, 0, 0, 0];
    pass(&mut g);
    assert_eq!(owner_at(&g, 2, 2), Some(0));
    assert_eq!(g.hive_food(0), 1, "one ant per hill per turn");
    assert_eq!(g.hive_food(1), 2);
    assert_eq!(g.ant_on(sq(&g, 2, 2)).unwrap().spawn_turn, 1);
}

/// A player's hive food spawns on its least recently touched free hill first (rules/ants.md:
/// hills sorted by `(last_touched, random())`): on `walls`, player 0's hills are (2,2) and
/// (8,14). One food goes to the one touched longer ago, whichever comes first in the list;
/// with both touched on the same turn, the draw decides, so each is chosen for some seeds.
#[test]
fn spawning_takes_the_least_recently_touched_hill_then_the_draw() {
    let walls = walls();
    let spawned_on = |touched: [u16; 2], seed: u64| {
        let mut g = game(&walls, seed);
        clear(&mut g);
        put_ant(&mut g, 5, 5, 0);
        put_ant(&mut g, 18, 18, 1);
        g.food_extra = -100_000;
        assert_eq!((g.hills[0].owner, g.hills[1].owner), (0, 0));
        g.hills[0].last_touched = touched[0];
        g.hills[1].last_touched = touched[1];
        g.hive[0] = 1;
        let none: [&[Order]; 2] = [&[]; 2];
        g.play_turn(&none, crate::SeatSet::EMPTY, |_, _, _| {});
        assert_eq!(g.hive_food(0), 0);
        let born: Vec<(i32, i32)> = g
            .ants()
            .iter()
            .filter(|a| a.spawn_turn == 1)
            .map(|a| g.row_col(a.sq as usize))
            .collect();
        assert_eq!(born.len(), 1);
        born[0]
    };
    for seed in 0..4 {
        assert_eq!(spawned_on([5, 2], seed), (8, 14), "seed {seed}");
        assert_eq!(spawned_on([2, 5], seed), (2, 2), "seed {seed}");
    }
    let tied: Vec<(i32, i32)> = (0..16).map(|seed| spawned_on([3, 3], seed)).collect();
    assert!(
        tied.contains(&(2, 2)) && tied.contains(&(8, 14)),
        "{tied:?}"
    );
}

#[test]
fn spawning_draws_one_random_per_unrazed_hill_even_with_an_empty_hive() {
    let mut a = staged(&[(0, 0, 0), (0, 5, 1)]);
    let mut b = a.clone();
    b.hills[1].killed_by = Some(0);
    pass(&mut a);
    pass(&mut b);
    // One fewer hill: exactly two fewer words drawn (random() uses two).
    let mut probe = b.rng.clone();
    probe.next_u32();
    probe.next_u32();
    assert_eq!(probe, a.rng);
}

#[test]
fn gathering_feeds_the_only_owner_and_destroys_contested_food() {
    let mut g = staged(&[(4, 3, 0), (8, 3, 0), (8, 5, 1)]);
    put_food(&mut g, 4, 4);
    put_food(&mut g, 8, 4);
    g.attack2 = 1; // no battle between the two gatherers
    g.food_extra = -1000; // no new food this turn
    pass(&mut g);
    let gone: Vec<(u16, Option<u8>)> = g.food_gone().iter().map(|f| (f.sq, f.owner)).collect();
    assert!(gone.contains(&(sq(&g, 4, 4) as u16, Some(0))));
    assert!(gone.contains(&(sq(&g, 8, 4) as u16, None)));
    assert_eq!(g.hive_food(0), 1);
}

#[test]
fn spawn_runs_before_gather_so_food_becomes_an_ant_a_turn_later() {
    let mut g = staged(&[(4, 3, 0), (0, 9, 1)]);
    put_food(&mut g, 4, 4);
    g.food_extra = -1000;
    pass(&mut g);
    assert_eq!((g.hive_food(0), owner_at(&g, 2, 2)), (1, None));
    pass(&mut g);
    assert_eq!((g.hive_food(0), owner_at(&g, 2, 2)), (0, Some(0)));
}

#[test]
fn lone_survivor_ends_the_game_with_the_bonus() {
    let mut g = staged(&[(4, 4, 0), (0, 0, 0), (4, 6, 1), (3, 6, 0)]);
    pass(&mut g);
    assert!(g.is_finished());
    assert_eq!(g.cutoff(), Some(Cutoff::LoneSurvivor));
    assert_eq!(g.bonus(), &[2, -1]);
    assert_eq!(g.scores(), &[3, 0]);
    let o = g.outcome().unwrap();
    assert_eq!((o.winner(), o.reason), (Some(0), "lone survivor"));
    assert!(g.to_move().is_empty());
}

#[test]
fn extermination_when_nobody_is_left() {
    let mut g = staged(&[(4, 4, 0), (4, 6, 1)]);
    pass(&mut g);
    assert_eq!(g.cutoff(), Some(Cutoff::Extermination));
}

#[test]
fn rank_stabilized_when_no_hill_can_change_the_order() {
    let mut g = staged(&[(0, 0, 0), (0, 5, 1)]);
    g.score = [5, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    pass(&mut g);
    assert_eq!(g.cutoff(), Some(Cutoff::RankStabilized));
}

#[test]
fn cutoff_counts_turns_food_dominates() {
    let mut g = staged(&[(0, 0, 0), (0, 5, 1)]);
    food_rows(&mut g);
    g.cutoff_turn = 3;
    pass(&mut g);
    assert_eq!(g.cutoff_counter(), (CUTOFF_FOOD, 1));
    pass(&mut g);
    pass(&mut g);
    assert_eq!(g.cutoff(), Some(Cutoff::FoodNotGathered));
}

#[test]
fn turn_limit_ends_the_game() {
    let mut p = params(OPEN);
    p.turns = 2;
    let mut g = G::new(&p, 1).unwrap();
    g.step(&[Default::default(), Default::default()]);
    assert!(!g.is_finished());
    g.step(&[Default::default(), Default::default()]);
    assert_eq!(g.cutoff(), Some(Cutoff::TurnLimit));
}

#[test]
fn killed_players_lose_a_point_per_hill_and_their_ants_stay() {
    let mut g = game(OPEN, 2);
    let mut refused = 0;
    g.play_turn(&[&[], &[]], crate::SeatSet::only(1), |_, _, _| refused += 1);
    assert!(g.is_killed(1));
    assert_eq!(g.score(1), 0);
    assert_eq!(g.ant_count(1), 1, "its ant stays on the board");
    assert_eq!(g.cutoff(), Some(Cutoff::LoneSurvivor));
}

/// A player the engine kills loses a point for each of its hills at once (`kill_player`), once:
/// on a 4-player map the game goes on and the score shows it; its hill razed afterwards costs
/// it nothing more, and a second kill changes nothing.
#[test]
fn a_killed_player_loses_its_hills_points_at_once_and_once() {
    let mut g = empty(FOUR);
    g.food_extra = -100_000;
    for p in 0..4 {
        put_ant(&mut g, 9, 4 * p as i32 + 1, p);
    }
    // Player 0's ant next to player 3's hill at (1,13).
    put_ant(&mut g, 1, 12, 0);
    play4(&mut g, [&[]; 4]);
    let none: [&[Order]; 4] = [&[]; 4];
    g.play_turn(&none, crate::SeatSet::only(3), |_, _, _| {});
    assert!(g.is_killed(3) && !g.is_finished());
    assert_eq!(g.scores(), &[1, 1, 1, 0]);
    assert!(g.hills[3].raze_points);
    // Razed by player 0: 2 points to the razer, nothing more off player 3.
    play4(&mut g, [&[order(1, 12, Dir::E)], &[], &[], &[]]);
    assert_eq!(g.hills[3].killed_by, Some(0));
    assert_eq!(g.scores(), &[3, 1, 1, 0]);
    g.kill_player(3);
    assert_eq!(g.scores(), &[3, 1, 1, 0]);
}

/// With a cutoff share of 0 every key of the official `pop_count` reaches it, and the first
/// one counts: a player with ants. A player with no ant and no hill left (its hive food not
/// counted) is no key at all, so it is never `cutoff_bot`.
#[test]
fn a_player_with_nothing_left_is_never_the_cutoff_key() {
    let mut g = empty(FOUR);
    g.food_extra = -100_000;
    g.cutoff_percent = (0, 20);
    g.hills[0].killed_by = Some(1);
    g.hills[0].end_turn = Some(0);
    for p in 1..4 {
        put_ant(&mut g, 9, 4 * p as i32 + 1, p);
    }
    play4(&mut g, [&[]; 4]);
    assert_eq!(g.ant_count(0), 0);
    assert_eq!(g.cutoff_counter(), (1, 1));
}

#[test]
fn asymmetric_maps_are_refused() {
    let text = "rows 3\ncols 4\nplayers 2\nm 0..%\nm ....\nm .1..\n";
    assert!(matches!(
        AntsMcuMap::parse(text).map(|m| G::new(&AntsMcuParams::new(m, 10), 1)),
        Ok(Err(_))
    ));
}

#[test]
fn host_and_mcu_builds_play_the_same_game() {
    let text = OPEN;
    let mut small = game(text, 9);
    let mut big = Ants::new(&AntsParams::new(AntsMap::parse(text).unwrap(), 200), 9).unwrap();
    let mut bot = bots::AntsBot::by_name("hunter", 1).unwrap();
    let mut bot2 = bots::AntsBot::by_name("hunter", 1).unwrap();
    for _ in 0..60 {
        assert_eq!(small.digest(), big.digest());
        let a = crate::Bot::act(&mut bot, &small.view(0));
        let b = crate::Bot::act(&mut bot2, &big.view(0));
        let a: heapless::Vec<Order, MCU_ORDERS> = a;
        let b2: heapless::Vec<Order, HOST_ORDERS> = b;
        assert_eq!(a.as_slice(), b2.as_slice());
        small.play_turn(&[&a, &[]], crate::SeatSet::EMPTY, |_, _, _| {});
        big.play_turn(&[&b2, &[]], crate::SeatSet::EMPTY, |_, _, _| {});
    }
}

#[test]
fn damage_battles_share_one_point_among_enemies() {
    // One ant between two enemies takes 1 + 1 and dies; each of them takes 1/2 and lives.
    battle(Attack::Damage, &TWO_VERSUS_ONE, &TWO_VERSUS_ONE_LEFT);
    // Two against two in a square: each takes 1/2 + 1/2 = 1 and all four die.
    let square = [
        (4, 4, 0),
        (5, 5, 0),
        (4, 5, 1),
        (5, 4, 1),
        (0, 0, 0),
        (0, 5, 1),
    ];
    assert_eq!(battle(Attack::Damage, &square, &[]).killed().len(), 4);
}

#[test]
fn bots_killed_on_turn_zero_end_the_game_at_once() {
    let mut g = game(OPEN, 4);
    g.kill_at_start(crate::SeatSet::only(0));
    assert!(g.is_finished());
    assert_eq!(g.cutoff(), Some(Cutoff::LoneSurvivor));
    assert_eq!(g.scores(), &[0, 1 + 2]);
}

#[test]
fn zero_turns_ends_at_setup() {
    let mut p = params(OPEN);
    p.turns = 0;
    let g = G::new(&p, 1).unwrap();
    assert!(g.is_finished());
    assert_eq!(g.cutoff(), Some(Cutoff::TurnLimit));
}

#[test]
fn hill_kills_stall_the_cutoff_counter() {
    let mut g = staged(&[(0, 0, 0), (0, 5, 1)]);
    food_rows(&mut g);
    pass(&mut g);
    assert_eq!(g.cutoff_counter(), (CUTOFF_FOOD, 1));
    // Two ants of player 0 collide on player 1's unrazed hill: the counter does not move.
    put_ant(&mut g, 7, 6, 0);
    put_ant(&mut g, 7, 8, 0);
    play(&mut g, [&[order(7, 6, Dir::E), order(7, 8, Dir::W)], &[]]);
    assert_eq!(g.killed().len(), 2);
    assert_eq!(g.cutoff_counter(), (CUTOFF_FOOD, 1));
    pass(&mut g);
    assert_eq!(g.cutoff_counter(), (CUTOFF_FOOD, 2));
}

#[test]
fn ants_dying_on_the_cutoff_players_own_hill_do_not_stall_the_cutoff_counter() {
    // Player 0 holds over 85% of ants and food: it is `cutoff_bot`. Two of its ants collide on
    // its own unrazed hill at (2,2): only a hill whose owner is not `cutoff_bot` stalls the
    // counter (`rules/ants.md`), so it counts on.
    let ants: Vec<_> = (0..8).map(|c| (0, c, 0)).chain([(5, 5, 1)]).collect();
    let mut g = staged(&ants);
    g.food_extra = -100_000;
    pass(&mut g);
    assert_eq!(g.cutoff_counter(), (0, 1));
    put_ant(&mut g, 2, 1, 0);
    put_ant(&mut g, 2, 3, 0);
    play(&mut g, [&[order(2, 1, Dir::E), order(2, 3, Dir::W)], &[]]);
    assert_eq!(g.killed().len(), 2);
    assert!(g.hills.iter().all(|h| h.killed_by.is_none()));
    assert_eq!(g.cutoff_counter(), (0, 2));
}

/// Four players on a 12 x 16 map, their hills on row 1, each 4 columns on from the last (the
/// map's symmetry: that shift).
const FOUR: &str = "rows 12\ncols 16\nplayers 4\nm ................\nm .0...1...2...3..\nm ................\nm ................\nm ................\nm ................\nm ................\nm ................\nm ................\nm ................\nm ................\nm ................\n";

fn play4(g: &mut G, orders: [&[Order]; 4]) {
    g.play_turn(&orders, crate::SeatSet::EMPTY, |_, _, _| {});
}

/// The cutoff counter's keys that are not players are the official `LAND` and `FOOD`
/// (`ants.py`: `LAND = -2`, `FOOD = -3`), no seat's number (rules/ants.md, Cutoff counters):
/// `cutoff_bot` starts at `LAND`, the counter at 0; a player dominating from the first turn
/// starts its count at 1 even on a turn an ant dies on another player's hill (the count
/// stalls only for the key already counted); a player taking over from the food starts at 1.
#[test]
fn the_cutoff_counters_land_and_food_are_no_seat() {
    assert_eq!(game(FOUR, 1).cutoff_counter(), (-2, 0));
    let mut g = empty(FOUR);
    g.food_extra = -100_000;
    // Player 2: 20 ants on rows 5 and 6, and two about to collide on player 0's hill at
    // (1,1); the others one ant each on row 9, out of everyone's attack radius.
    for c in 0..16 {
        put_ant(&mut g, 5, c, 2);
    }
    for c in 0..4 {
        put_ant(&mut g, 6, c, 2);
    }
    put_ant(&mut g, 1, 0, 2);
    put_ant(&mut g, 1, 2, 2);
    for p in [0, 1, 3] {
        put_ant(&mut g, 9, 4 * p as i32 + 1, p);
    }
    let two = [order(1, 0, Dir::E), order(1, 2, Dir::W)];
    play4(&mut g, [&[], &[], &two, &[]]);
    assert_eq!(g.killed().len(), 2);
    assert!(g.hill_kill);
    // 20 of 23: over 85 %.
    assert_eq!(g.cutoff_counter(), (2, 1));
    // Food dominating (64 food, 4 ants), then player 3 (21 ants of 24).
    let mut g = empty(FOUR);
    g.food_extra = -100_000;
    for p in 0..4 {
        put_ant(&mut g, 9, 4 * p as i32 + 1, p);
    }
    for r in 3..7 {
        for c in 0..16 {
            put_food(&mut g, r, c);
        }
    }
    play4(&mut g, [&[]; 4]);
    assert_eq!(g.cutoff_counter(), (-3, 1));
    for f in g.food.clone() {
        g.map[f.sq as usize] = LAND;
    }
    g.food.clear();
    for c in 0..16 {
        put_ant(&mut g, 5, c, 3);
    }
    for c in 0..4 {
        put_ant(&mut g, 6, c, 3);
    }
    play4(&mut g, [&[]; 4]);
    assert_eq!(g.cutoff_counter(), (3, 1));
    assert_eq!(g.cutoff(), None);
}

/// `wrap(v, n)` is Python's `v % n` (the sign of `n`), not only within one lap of the board:
/// two laps off is reached in play on a map one square wide or high (the symmetry check's
/// food at offset (1, 2) from a hill), and far off (saturated) values fall through to
/// `rem_euclid`.
#[test]
fn wrap_is_pythons_modulo_however_far_off_the_board() {
    for n in 1..=40 {
        for v in -5 * n..=5 * n {
            assert_eq!(state::wrap(v, n), v.rem_euclid(n), "wrap({v}, {n})");
        }
    }
    for (v, n) in [
        (i32::MAX, 7),
        (i32::MIN, 7),
        (i32::MAX, 32_767),
        (-32_768, 32_767),
    ] {
        assert_eq!(state::wrap(v, n), v.rem_euclid(n), "wrap({v}, {n})");
    }
}

/// `is_food` (what the bots ask) is true on the squares holding a food only: not on land,
/// water, an ant, a hill, or off the map.
#[test]
fn is_food_is_true_on_food_only() {
    let mut g = staged(&[(4, 3, 0), (0, 9, 1)]);
    g.map[sq(&g, 3, 4)] = WATER;
    put_food(&mut g, 4, 4);
    put_food(&mut g, 9, 0);
    let food: Vec<usize> = (0..100).filter(|&s| g.is_food(s)).collect();
    assert_eq!(food, [sq(&g, 4, 4), sq(&g, 9, 0)]);
    assert!(!g.is_food(100) && !g.is_food(usize::MAX));
}

#[test]
fn is_water_is_true_on_water_and_off_the_map_only() {
    let g = game(&walls(), 1);
    // (3,0) is a wall square of `walls`, (0,0) and the hill at (2,2) are land.
    assert!(g.is_water(sq(&g, 3, 0)));
    assert!(!g.is_water(sq(&g, 0, 0)));
    assert!(!g.is_water(sq(&g, 2, 2)));
    assert!(g.is_water(24 * 24));
    let water = (0..24 * 24).filter(|&s| g.is_water(s)).count();
    assert_eq!(
        water,
        (0..24 * 24).filter(|&s| g.square(s) == WATER).count()
    );
    assert!(water > 0);
}

#[test]
fn ranks_count_the_players_with_more_points() {
    // Tied on one point each at the start; 3 to 0 once player 0 razes player 1's hill.
    let mut g = staged(&[(7, 6, 0), (0, 0, 1), (2, 2, 0)]);
    assert_eq!(g.scores(), &[1, 1]);
    assert_eq!(g.ranks()[..2], [0, 0]);
    play(&mut g, [&[order(7, 6, Dir::E)], &[]]);
    assert_eq!(g.scores(), &[3, 0]);
    assert_eq!(g.ranks()[..2], [0, 1]);
}

#[test]
fn one_player_dominating_leads_to_not_razing_hills() {
    let ants: Vec<_> = (0..8).map(|c| (0, c, 0)).chain([(5, 5, 1)]).collect();
    let mut g = staged(&ants);
    g.cutoff_turn = 2;
    g.food_extra = -100_000;
    pass(&mut g);
    assert_eq!(g.cutoff_counter(), (0, 1));
    pass(&mut g);
    assert_eq!(g.cutoff(), Some(Cutoff::NotRazingHills));
}

#[test]
fn the_decision_names_each_player_out_and_the_turn() {
    use crate::outcome::shown;
    // Player 0's only ant walks into two of player 1's on turn 2 and dies: it is out at turn 2.
    let mut g = staged(&[(4, 3, 0), (3, 6, 1), (5, 6, 1)]);
    pass(&mut g);
    assert_eq!(g.out_at(0), None);
    play(&mut g, [&[order(4, 3, Dir::E)], &[]]);
    assert_eq!(g.ant_count(0), 0);
    assert!(g.is_finished());
    let why = g.decision().unwrap();
    assert_eq!(why.defeated[..2], [Some(2), None]);
    assert_eq!(shown(why.seat(0)), "score 0 defeated t2");
    assert_eq!(shown(why.seat(1)), "score 3");
    assert_eq!(shown(why.verdict()), "seat 1 wins on score, 3 to 0");
    // A bot the engine kills is out at the turn it is killed, its ants still on the board.
    let mut g = game(OPEN, 2);
    pass(&mut g);
    g.play_turn(&[&[], &[]], crate::SeatSet::only(1), |_, _, _| {});
    assert_eq!(g.decision().unwrap().defeated[..2], [None, Some(2)]);
    // One lost before the first turn is out at turn 0.
    let mut g = game(OPEN, 4);
    g.kill_at_start(crate::SeatSet::only(0));
    assert_eq!(g.decision().unwrap().defeated[..2], [Some(0), None]);
}

/// 24 x 24 with walls, symmetric under a half turn (what the food needs): the bots' fields go
/// round water.
fn walls() -> std::string::String {
    let wall = |r: usize, c: usize| (r % 6 == 3 && c % 8 < 5) || (c % 7 == 4 && r % 9 < 3);
    let mut text = std::string::String::from("rows 24\ncols 24\nplayers 2\nm ");
    for r in 0..24 {
        for c in 0..24 {
            text.push(match (r, c) {
                (2, 2) | (8, 14) => '0',
                (21, 21) | (15, 9) => '1',
                _ if wall(r, c) || wall(23 - r, 23 - c) => '%',
                _ => '.',
            });
        }
        text.push_str(if r < 23 { "\nm " } else { "\n" });
    }
    text
}

#[test]
fn step_bots_plays_the_turn_each_bots_action_and_step_play() {
    use crate::game::{Bot, Moment, Roster};
    let by_name = |name, seed| bots::AntsBot::by_name(name, seed).unwrap();
    let map = walls();
    for (names, first) in [(["hunter", "strong"], 2), (["strong", "hunter"], 1)] {
        let mut apart = game(&map, 5);
        let mut together = apart.clone();
        let mut bots_apart = [by_name(names[0], 1), by_name(names[1], 2)];
        let mut bots_together = bots_apart.clone();
        let mut orders = 0;
        while !apart.is_finished() {
            let turn = apart.current_turn();
            // Only the first `first` seats act through step_bots: the others pass.
            let mut actions: [heapless::Vec<Order, MCU_ORDERS>; 2] = Default::default();
            for (seat, action) in actions.iter_mut().enumerate().take(first) {
                *action = Bot::act(&mut bots_apart[seat], &apart.view(seat));
                orders += action.len();
            }
            let report = apart.step(&actions);
            let mut moments = Vec::new();
            let report_together = match first {
                1 => together.step_bots::<1, _>(&mut bots_together, |m| moments.push(m)),
                _ => together.step_bots::<2, _>(&mut bots_together, |m| moments.push(m)),
            };
            // Each acting seat's bot between its two moments, then the rules.
            let mut want = Vec::new();
            for seat in 0..first {
                want.extend([Moment::Acting(seat), Moment::Acted(seat)]);
            }
            want.push(Moment::Decided);
            assert_eq!(moments, want, "turn {turn}");
            assert_eq!(report, report_together, "turn {turn}");
            assert_eq!(apart.digest(), together.digest(), "turn {turn}");
        }
        assert!(orders > 100, "{names:?}: the bots moved ({orders} orders)");
    }
}

// ---- The digest covers the whole state ----

/// One change of the state, by name.
type Change = (&'static str, fn(&mut G));

/// A state in mid-game (10 turns of two built-in bots: this match ends at turn 14) with at least one of everything the
/// digest lists: an ant, a dead ant, food, food gone, a hill, a scheduled food square, an entry
/// of the food-set ring (the ones a turn had none of are added by hand).
fn mid_game() -> G {
    let mut g = game(OPEN, 3);
    let mut bots = [G::bot("strong", 1).unwrap(), G::bot("hunter", 2).unwrap()];
    for _ in 0..10 {
        g.step_bots::<2, _>(&mut bots, |_| ());
    }
    assert!(
        !g.over && !g.ants.is_empty() && !g.hills.is_empty(),
        "over {} at turn {}, {} ants, {} hills",
        g.over,
        g.turn,
        g.ants.len(),
        g.hills.len()
    );
    if g.killed.is_empty() {
        g.killed
            .push(DeadAnt {
                id: 90,
                sq: 11,
                owner: 1,
                order: b'n',
            })
            .unwrap();
    }
    if g.food.is_empty() {
        put_food(&mut g, 4, 4);
    }
    if g.food_gone.is_empty() {
        g.food_gone
            .push(FoodGone {
                id: 91,
                sq: 12,
                owner: Some(0),
            })
            .unwrap();
    }
    if g.pending_order.is_empty() {
        g.pending[13] = 1;
        g.pending_order.push(13).unwrap();
    }
    if g.ring_len == 0 {
        g.ring[g.ring_head] = 14;
        g.ring_len = 1;
    }
    g
}

/// Each field of the state changed alone (the first entry of each list, a square of each
/// per-square array, a player of each per-player array).
const ANTS_CHANGES: &[Change] = &[
    ("rows", |g| g.rows -= 1),
    ("cols", |g| g.cols -= 1),
    ("players", |g| g.players += 1),
    ("turns", |g| g.turns += 1),
    ("loadtime", |g| g.loadtime += 1),
    ("turntime", |g| g.turntime += 1),
    ("view2", |g| g.view2 += 1),
    ("attack2", |g| g.attack2 += 1),
    ("spawn2", |g| g.spawn2 += 1),
    ("attack", |g| {
        g.attack = match g.attack {
            Attack::Focus => Attack::Damage,
            _ => Attack::Focus,
        }
    }),
    ("player_seed", |g| g.player_seed += 1),
    ("cutoff_turn", |g| g.cutoff_turn += 1),
    ("cutoff_percent's numerator", |g| g.cutoff_percent.0 += 1),
    ("cutoff_percent's denominator", |g| g.cutoff_percent.1 += 1),
    ("food_rate", |g| g.food_rate += 1),
    ("food_turn", |g| g.food_turn += 1),
    ("food_start", |g| g.food_start += 1),
    ("food_visible", |g| g.food_visible += 1),
    ("land_area", |g| g.land_area += 1),
    ("map", |g| g.map[0] ^= 1),
    ("ant_at", |g| g.ant_at[0] ^= 1),
    ("hill_at", |g| g.hill_at[0] ^= 1),
    ("pending", |g| g.pending[0] += 1),
    ("pending_order's entry", |g| g.pending_order[0] ^= 1),
    ("pending_order's length", |g| {
        g.pending_order.push(0).unwrap()
    }),
    ("ring's entry", |g| g.ring[g.ring_head] ^= 1),
    ("ring's length", |g| g.ring_len += 1),
    ("scratch", |g| g.scratch[0] ^= 1),
    ("sym_sq", |g| g.sym_sq[1] ^= 1),
    ("sym_aim", |g| g.sym_aim[1] ^= 1),
    ("ant's id", |g| g.ants[0].id += 1),
    ("ant's square", |g| g.ants[0].sq ^= 1),
    ("ant's owner", |g| g.ants[0].owner ^= 1),
    ("ant's spawn turn", |g| g.ants[0].spawn_turn += 1),
    ("ant's order", |g| g.ants[0].order ^= 1),
    ("ants' length", |g| {
        let a = g.ants[0];
        g.ants.push(a).unwrap()
    }),
    ("dead ant's id", |g| g.killed[0].id += 1),
    ("dead ant's square", |g| g.killed[0].sq ^= 1),
    ("dead ant's owner", |g| g.killed[0].owner ^= 1),
    ("dead ant's order", |g| g.killed[0].order ^= 1),
    ("dead ants' length", |g| {
        let a = g.killed[0];
        g.killed.push(a).unwrap()
    }),
    ("food's id", |g| g.food[0].id += 1),
    ("food's square", |g| g.food[0].sq ^= 1),
    ("food's start turn", |g| g.food[0].start_turn += 1),
    ("food's length", |g| {
        let f = g.food[0];
        g.food.push(f).unwrap()
    }),
    ("food gone's id", |g| g.food_gone[0].id += 1),
    ("food gone's square", |g| g.food_gone[0].sq ^= 1),
    ("food gone's owner", |g| {
        g.food_gone[0].owner = match g.food_gone[0].owner {
            None => Some(0),
            Some(_) => None,
        }
    }),
    ("food gone's length", |g| {
        let f = g.food_gone[0];
        g.food_gone.push(f).unwrap()
    }),
    ("hill's square", |g| g.hills[0].sq ^= 1),
    ("hill's owner", |g| g.hills[0].owner ^= 1),
    ("hill's last touched", |g| g.hills[0].last_touched += 1),
    ("hill's end turn", |g| {
        g.hills[0].end_turn = Some(g.hills[0].end_turn.map_or(1, |t| t + 1))
    }),
    ("hill's killer", |g| {
        g.hills[0].killed_by = Some(g.hills[0].killed_by.map_or(1, |k| k ^ 1))
    }),
    ("hill's raze points", |g| {
        g.hills[0].raze_points = !g.hills[0].raze_points
    }),
    ("hills' length", |g| {
        let h = g.hills[0];
        g.hills.push(h).unwrap()
    }),
    ("next_ant", |g| g.next_ant += 1),
    ("next_food", |g| g.next_food += 1),
    ("ant_count", |g| g.ant_count[1] += 1),
    ("rng", |g| {
        g.rng.next_u32();
    }),
    ("turn", |g| g.turn += 1),
    ("food_extra", |g| g.food_extra += 1),
    ("score", |g| g.score[1] += 1),
    ("bonus", |g| g.bonus[1] += 1),
    ("hive", |g| g.hive[1] += 1),
    ("dead", |g| g.dead = g.dead.with(1)),
    ("cutoff_bot", |g| g.cutoff_bot += 1),
    ("cutoff_turns", |g| g.cutoff_turns += 1),
    ("hill_kill", |g| g.hill_kill = !g.hill_kill),
    ("ranking", |g| {
        g.ranking = match g.ranking {
            None => Some([0; 10]),
            Some(_) => None,
        }
    }),
    ("ranking_turn", |g| g.ranking_turn += 1),
    ("winning", |g| {
        g.winning = match g.winning {
            None => Some(0),
            Some(w) => Some(w ^ 1),
        }
    }),
    ("winning_turn", |g| g.winning_turn += 1),
    ("cutoff", |g| {
        g.cutoff = match g.cutoff {
            None => Some(Cutoff::TurnLimit),
            Some(_) => None,
        }
    }),
    ("over", |g| g.over = !g.over),
    ("capacity_waits", |g| g.capacity_waits += 1),
];

/// Every field of the state, named, so that a field added to the state fails to compile here
/// until [`ANTS_CHANGES`] changes it too. Not in the digest: `ring_head` (the ring is hashed by
/// its entries in order, wherever they start) and `out_at` (not official state: see its docs).
#[allow(dead_code)]
fn every_field(g: &G) {
    let AntsGame {
        rows: _,
        cols: _,
        players: _,
        turns: _,
        loadtime: _,
        turntime: _,
        view2: _,
        attack2: _,
        spawn2: _,
        attack: _,
        player_seed: _,
        cutoff_turn: _,
        cutoff_percent: _,
        food_rate: _,
        food_turn: _,
        food_start: _,
        food_visible: _,
        land_area: _,
        map: _,
        ant_at: _,
        hill_at: _,
        pending: _,
        pending_order: _,
        ring: _,
        ring_head: _,
        ring_len: _,
        scratch: _,
        sym_sq: _,
        sym_aim: _,
        ants: _,
        killed: _,
        food: _,
        food_gone: _,
        hills: _,
        next_ant: _,
        next_food: _,
        ant_count: _,
        rng: _,
        turn: _,
        food_extra: _,
        score: _,
        bonus: _,
        hive: _,
        dead: _,
        out_at: _,
        cutoff_bot: _,
        cutoff_turns: _,
        hill_kill: _,
        ranking: _,
        ranking_turn: _,
        winning: _,
        winning_turn: _,
        cutoff: _,
        over: _,
        capacity_waits: _,
    } = g;
    let Ant {
        id: _,
        sq: _,
        owner: _,
        spawn_turn: _,
        order: _,
    } = g.ants[0];
    let DeadAnt {
        id: _,
        sq: _,
        owner: _,
        order: _,
    } = g.killed[0];
    let Food {
        id: _,
        sq: _,
        start_turn: _,
    } = g.food[0];
    let FoodGone {
        id: _,
        sq: _,
        owner: _,
    } = g.food_gone[0];
    let Hill {
        sq: _,
        owner: _,
        last_touched: _,
        end_turn: _,
        killed_by: _,
        raze_points: _,
    } = g.hills[0];
}

#[test]
fn digest_changes_with_every_field_of_the_state() {
    let base = mid_game();
    let mut missed = Vec::new();
    for (name, change) in ANTS_CHANGES {
        let mut g = base.clone();
        change(&mut g);
        if g.digest() == base.digest() {
            missed.push(*name);
        }
    }
    assert!(missed.is_empty(), "the digest misses: {missed:?}");
    // What is not in the digest: `out_at`.
    let mut g = base.clone();
    g.out_at[1] ^= 1;
    assert_eq!(g.digest(), base.digest());
}

// ---- Battles against the rules written the plain way ----

/// An open map of `rows` x `cols` (both even) with player 0's hill at (1,1) and player 1's half
/// a map away, at (1 + rows/2, 1 + cols/2): symmetric by that translation.
fn open_map(rows: usize, cols: usize) -> std::string::String {
    let mut text = std::format!("rows {rows}\ncols {cols}\nplayers 2\n");
    for r in 0..rows {
        text.push_str("m ");
        for c in 0..cols {
            text.push(match (r, c) {
                (1, 1) => '0',
                _ if (r, c) == (1 + rows / 2, 1 + cols / 2) => '1',
                _ => '.',
            });
        }
        text.push('\n');
    }
    text
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Who survives a battle, by the official engine's text: the enemies of an ant are the enemy
/// ants at every offset `(dr, dc)` with `dr² + dc² <= attack2` (but (0,0)), wrapped around the
/// map (an offset that lands twice on one ant counts twice); focus: an ant dies if an enemy in
/// range has no more enemies than it has; damage: an ant dies if the sum over its enemies of
/// `1 / (that enemy's enemies)` is 1 or more.
fn plain_survivors(
    rows: i32,
    cols: i32,
    attack2: i32,
    attack: Attack,
    ants: &[(i32, i32, u8)],
) -> Vec<bool> {
    let at = |r: i32, c: i32| {
        ants.iter()
            .position(|&(ar, ac, _)| ar == r.rem_euclid(rows) && ac == c.rem_euclid(cols))
    };
    let enemies = |i: usize| -> Vec<usize> {
        let (r, c, owner) = ants[i];
        let mut out = Vec::new();
        for dr in -10..=10 {
            for dc in -10..=10 {
                if (dr, dc) != (0, 0) && dr * dr + dc * dc <= attack2 {
                    if let Some(j) = at(r + dr, c + dc).filter(|&j| ants[j].2 != owner) {
                        out.push(j);
                    }
                }
            }
        }
        out
    };
    let weakness: Vec<usize> = (0..ants.len()).map(|i| enemies(i).len()).collect();
    (0..ants.len())
        .map(|i| {
            let them = enemies(i);
            if them.is_empty() {
                return true;
            }
            match attack {
                Attack::Focus => !them.iter().any(|&j| weakness[j] <= weakness[i]),
                Attack::Damage => {
                    let (mut num, mut den) = (0u128, 1u128);
                    for &j in &them {
                        let w = weakness[j] as u128;
                        num = num * w + den;
                        den *= w;
                        let common = gcd(num, den);
                        num /= common;
                        den /= common;
                    }
                    num < den
                }
            }
        })
        .collect()
}

#[test]
fn battles_on_random_positions_kill_whom_the_plain_rules_say() {
    // 10 x 10 first (the case: ants by the left edge counted an enemy that was not
    // there), then smaller and narrower maps, where the neighbourhood wraps onto itself.
    let mut rng = crate::Rng::new(42);
    let mut fights = 0;
    for (rows, cols) in [(10, 10), (10, 10), (8, 8), (6, 10), (4, 4), (10, 4)] {
        let text = open_map(rows, cols);
        let hills = [(1, 1), (1 + rows as i32 / 2, 1 + cols as i32 / 2)];
        for _ in 0..150 {
            let mut g = empty(&text);
            g.attack2 = 1 + rng.below(10) as u16;
            g.attack = if rng.chance(1, 2) {
                Attack::Focus
            } else {
                Attack::Damage
            };
            // Ants of both players, not on a hill (which an enemy would raze).
            let mut ants: Vec<(i32, i32, u8)> = Vec::new();
            for _ in 0..2 + rng.below(12) {
                let (r, c) = (rng.below(rows as u32) as i32, rng.below(cols as u32) as i32);
                if !hills.contains(&(r, c)) && !ants.iter().any(|a| (a.0, a.1) == (r, c)) {
                    ants.push((r, c, rng.below(2) as u8));
                }
            }
            for &(r, c, owner) in &ants {
                put_ant(&mut g, r, c, owner);
            }
            let expected =
                plain_survivors(rows as i32, cols as i32, g.attack2 as i32, g.attack, &ants);
            fights += usize::from(expected.contains(&false));
            pass(&mut g);
            for (&(r, c, owner), &lives) in ants.iter().zip(&expected) {
                assert_eq!(
                    owner_at(&g, r, c),
                    lives.then_some(owner),
                    "{rows}x{cols}, attack2 {}, {:?}: the ant at ({r},{c}) among {ants:?}",
                    g.attack2,
                    g.attack
                );
            }
        }
    }
    // The positions are not all peaceful: most have a death.
    assert!(fights > 300, "only {fights} of 900 positions had a death");
}

#[test]
fn damage_sums_many_hits_on_one_ant_exactly() {
    // A 4 x 4 map with attack radius2 100: every one of the 316 offsets lands somewhere, so each
    // enemy is listed about 20 times. Player 1's ant at (0,0) is the enemy of five ants of
    // player 0, about 100 hits in all: each of them takes about 20 x 1/100, and lives. Summed
    // without reducing the fraction, the denominator would reach about 100^20, past a u128: the
    // rules must reduce as they go (`gcd`), not take the overflow for a death.
    let ants = [
        (0, 0, 1),
        (0, 2, 0),
        (2, 0, 0),
        (2, 2, 0),
        (1, 2, 0),
        (2, 1, 0),
    ];
    let mut g = empty(&open_map(4, 4));
    g.attack2 = 100;
    g.attack = Attack::Damage;
    for &(r, c, owner) in &ants {
        put_ant(&mut g, r, c, owner);
    }
    let expected = plain_survivors(4, 4, 100, Attack::Damage, &ants);
    assert_eq!(expected, [false, true, true, true, true, true]);
    // The path this takes: the enemy's weakness to the power of its hits on one of the ants
    // overflows.
    let hits = |r: i32, c: i32| {
        let mut n = 0u32;
        for dr in -10i32..=10 {
            for dc in -10i32..=10 {
                let lands = (r + dr).rem_euclid(4) == 0 && (c + dc).rem_euclid(4) == 0;
                if (dr, dc) != (0, 0) && dr * dr + dc * dc <= 100 && lands {
                    n += 1;
                }
            }
        }
        n
    };
    let weakness: u32 = ants[1..].iter().map(|&(r, c, _)| hits(r, c)).sum();
    assert!(ants[1..]
        .iter()
        .any(|&(r, c, _)| (weakness as u128).checked_pow(hits(r, c)).is_none()));
    pass(&mut g);
    for (&(r, c, owner), &lives) in ants.iter().zip(&expected) {
        assert_eq!(owner_at(&g, r, c), lives.then_some(owner), "({r},{c})");
    }
}

#[test]
fn setup_refuses_an_attack_or_a_spawn_radius2_over_100_on_its_own() {
    for (attack, spawn, accepted) in [
        (100, 100, true),
        (101, 5, false),
        (5, 101, false),
        (101, 101, false),
    ] {
        let mut p = params(OPEN);
        p.attackradius2 = attack;
        p.spawnradius2 = spawn;
        let got = G::new(&p, 1).map(|g| (g.attack2, g.spawn2));
        let want = if accepted {
            Ok((attack, spawn))
        } else {
            Err(SetupError::Invalid(
                "attack and spawn radius2 must be at most 100",
            ))
        };
        assert_eq!(got, want, "attack {attack}, spawn {spawn}");
    }
}

#[test]
fn setup_refuses_a_map_of_no_squares() {
    for (rows, cols) in [(0, 10), (10, 0), (0, 0)] {
        let mut p = params(OPEN);
        p.map.rows = rows;
        p.map.cols = cols;
        assert!(
            matches!(G::new(&p, 1), Err(SetupError::Capacity(_))),
            "{rows} x {cols}"
        );
    }
}

#[test]
fn setup_refuses_a_map_of_more_than_65535_squares_even_where_the_build_holds_it() {
    // Squares are numbered in u16s (65,535 is "none"): a build with room for more still refuses
    // a map of 256 x 256, and takes one of 255 x 257 (65,535 squares). Its state is about 700 KB:
    // built on a thread with room for it.
    const BIG: usize = 70_000;
    type Big = AntsGame<BIG, 8, 8, 4, 8>;
    let setup = |rows: u16, cols: u16| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let mut hills = heapless::Vec::new();
                hills.push((0u16, 0u8)).unwrap();
                // Player 1's hill: the last square, player 0's turned half a turn.
                let last = rows as usize * cols as usize - 1;
                hills.push((last as u16, 1)).unwrap();
                let map = Map::<BIG, 4> {
                    rows,
                    cols,
                    players: 2,
                    terrain: [LAND; BIG],
                    hills,
                };
                let mut game = std::boxed::Box::new(Big::blank());
                game.init(&Params::new(map, 10), 1)
            })
            .unwrap()
            .join()
            .unwrap()
    };
    let refused = setup(256, 256);
    assert!(
        matches!(refused, Err(SetupError::Capacity(_))),
        "{refused:?}"
    );
    let taken = setup(255, 257);
    assert_eq!(taken, Ok(()));
}

#[test]
fn setup_takes_a_map_filling_the_build_and_refuses_one_square_more() {
    // The board build holds 48 x 48 squares: a map of exactly that sets up; the same map read as
    // 49 rows (more squares than the build has room for) is refused.
    let mut p = AntsMcuParams::new(AntsMcuMap::parse(&open_map(48, 48)).unwrap(), 10);
    assert_eq!(p.map.squares(), MCU_SQUARES);
    assert!(G::new(&p, 1).is_ok());
    p.map.rows = 49;
    assert_eq!(
        G::new(&p, 1).err(),
        Some(SetupError::Capacity("map larger than this build holds"))
    );
}

/// The orders `name` gives seat 0, for several seeds (the bots shuffle the directions they try).
fn bot_orders(g: &G, name: &str) -> Vec<Vec<Order>> {
    (0..8)
        .map(|seed| {
            let mut bot = bots::AntsBot::by_name(name, seed).unwrap();
            let orders: heapless::Vec<Order, MCU_ORDERS> = crate::Bot::act(&mut bot, &g.view(0));
            orders.to_vec()
        })
        .collect()
}

#[test]
fn bots_march_on_the_enemy_hill_not_their_own() {
    // No food: `strong` and `hunter` send a lone ant to the enemy hill at (7,7), six steps south
    // and east, not to its own at (2,2), four steps north and west. Player 1's only ant is far
    // from both.
    let g = staged(&[(4, 4, 0), (0, 9, 1)]);
    for name in ["strong", "hunter"] {
        for orders in bot_orders(&g, name) {
            assert_eq!(orders.len(), 1, "{name}: {orders:?}");
            let o = orders[0];
            assert_eq!((o.row, o.col), (4, 4));
            assert!(matches!(o.dir, Dir::S | Dir::E), "{name} walks {:?}", o.dir);
        }
    }
}

#[test]
fn strong_never_steps_from_safety_into_danger() {
    // Player 0's ant at (7,3), four steps west of the enemy hill at (7,7); its one step closer,
    // east to (7,4), is within radius2 10 of the enemy ant on the hill (9: outnumbered), where
    // it stands is not (16). `strong` holds; `hunter` (no such care) steps east.
    let g = staged(&[(7, 3, 0), (7, 7, 1)]);
    for orders in bot_orders(&g, "strong") {
        assert!(
            orders.iter().all(|o| o.dir != Dir::E),
            "strong steps into danger: {orders:?}"
        );
    }
    for orders in bot_orders(&g, "hunter") {
        assert_eq!(orders, [order(7, 3, Dir::E)]);
    }
    // With the enemy ant further off (radius2 25 from (7,4)), `strong` steps east too.
    let g = staged(&[(7, 3, 0), (2, 8, 1)]);
    for orders in bot_orders(&g, "strong") {
        assert_eq!(orders, [order(7, 3, Dir::E)]);
    }
}

// ---- Food placed as the official engine places it ----

/// 8 x 9, symmetric under one mirror only (row `r` to row `7 - r`: player 0's hill at (1,2),
/// player 1's at (6,2)); the squares of rows 3 and 4 (and of rows 0 and 7, across the edge) are
/// next to their mirror image, so their food sets are dropped (too close).
const MIRROR: &str = "rows 8\ncols 9\nplayers 2\nm .....%...\nm ..0.%....\nm .......%.\nm %........\nm %........\nm .......%.\nm ..1.%....\nm .....%...\n";

/// 4 x 4, four players with two hills each on every square of even `row + col` (player 0 on
/// (0,0) and (2,2), 1 on (0,2) and (2,0), 2 on (1,1) and (3,3), 3 on (1,3) and (3,1)): each
/// of a player's two hills matches player 0's first one in all eight orientations, so there
/// are 16 options a player and 16^3 = 4,096 combinations, `MAX_SYMMETRIES` exactly (144 of them
/// hold with the test food).
const QUAD: &str = "rows 4\ncols 4\nplayers 4\nm 0.1.\nm .2.3\nm 1.0.\nm .3.2\n";

/// Every food `g` places in `turns` turns without orders (the ants hold), as `(turn, row,
/// column)` sorted: the initial food (turn 0) and each turn's.
fn food_placed(mut g: G, turns: u16) -> Vec<(u16, i32, i32)> {
    let mut placed = Vec::new();
    let none: [&[Order]; 10] = [&[]; 10];
    loop {
        for f in g.food().iter().filter(|f| f.start_turn == g.turn) {
            let (r, c) = g.row_col(f.sq as usize);
            placed.push((g.turn, r, c));
        }
        if g.turn >= turns || g.over {
            break;
        }
        g.play_turn(
            &none[..g.players as usize],
            crate::SeatSet::EMPTY,
            |_, _, _| {},
        );
    }
    placed.sort_unstable();
    placed
}

/// `MIRROR`, engine seed 2, 150 turns: the official engine's food (see below).
#[rustfmt::skip]
const MIRROR_2_FOOD: [(u16, i32, i32); 54] = [
    (0, 1, 3), (0, 2, 4), (0, 2, 6), (0, 5, 4), (0, 5, 6), (0, 6, 3), (2, 2, 8), (2, 5, 8),
    (4, 2, 3), (4, 5, 3), (6, 2, 0), (6, 5, 0), (8, 1, 8), (8, 6, 8), (11, 1, 5), (11, 6, 5),
    (13, 1, 0), (13, 6, 0), (15, 2, 2), (15, 5, 2), (17, 1, 6), (17, 6, 6), (19, 2, 5), (19, 5, 5),
    (20, 1, 3), (20, 6, 3), (26, 1, 1), (26, 6, 1), (28, 1, 7), (28, 6, 7), (30, 2, 1), (30, 5, 1),
    (33, 1, 1), (33, 6, 1), (35, 2, 2), (35, 5, 2), (51, 1, 3), (51, 6, 3), (64, 2, 2), (64, 5, 2),
    (66, 1, 3), (66, 6, 3), (73, 1, 1), (73, 6, 1), (102, 1, 3), (102, 6, 3), (113, 2, 2), (113, 5, 2),
    (124, 1, 1), (124, 6, 1), (126, 1, 3), (126, 6, 3), (150, 1, 1), (150, 6, 1),
];
/// `walls()`, engine seed 4, 60 turns: the official engine's food.
#[rustfmt::skip]
const WALLS_4_FOOD: [(u16, i32, i32); 24] = [
    (0, 0, 2), (0, 0, 23), (0, 1, 2), (0, 2, 1), (0, 6, 14), (0, 17, 9), (0, 21, 22), (0, 22, 21),
    (0, 23, 0), (0, 23, 21), (5, 9, 13), (5, 14, 10), (10, 6, 6), (10, 17, 17), (19, 5, 9), (19, 18, 14),
    (33, 7, 2), (33, 16, 21), (42, 7, 19), (42, 16, 4), (47, 0, 22), (47, 23, 1), (56, 3, 15), (56, 20, 8),
];

/// The food of these games is the official engine's (aichallenge 4237971f `ants.py`, run
/// unmodified under Python 3.11: `Ants(options)` with the `playgame.py` defaults and the
/// engine seed, then `start_game` and, each turn, the engine loop's `shuffle` of the bots,
/// `start_turn`, `do_moves` with no orders and `finish_turn`; the lists are its `all_food`,
/// `(start_turn, row, col)` sorted). They go through the map's symmetry (one orientation on
/// `MIRROR` and `walls`, 144 of 4,096 on `QUAD`), the food sets (the dropped ones, the
/// starting ones within sight of a hill on the 24 x 24 `walls`), the deque cycling them (54
/// food in 150 turns on `MIRROR`: the deque comes round) and placement.
#[test]
fn food_is_placed_where_and_when_the_official_engine_places_it() {
    assert_eq!(food_placed(game(MIRROR, 2), 150), MIRROR_2_FOOD);
    assert_eq!(food_placed(game(&walls(), 4), 60), WALLS_4_FOOD);
    let all_eight = [
        (0, 1),
        (0, 3),
        (1, 0),
        (1, 2),
        (2, 1),
        (2, 3),
        (3, 0),
        (3, 2),
    ];
    for (seed, want) in [
        (2, &all_eight[..]),
        (3, &all_eight[..]),
        (8, &[(0, 1), (0, 3), (2, 1), (2, 3)]),
    ] {
        let want: Vec<_> = want.iter().map(|&(r, c)| (0, r, c)).collect();
        assert_eq!(food_placed(game(QUAD, seed), 0), want, "QUAD, seed {seed}");
    }
}

/// Two hills side by side on a map whose only symmetry carries each column onto the other
/// (row 3's water keeps the rows from turning over): every food set is a square and its
/// neighbour, so every one is dropped and the deque holds only its sentinel.
const NO_FOOD_SETS: &str = "rows 5\ncols 2\nplayers 2\nm 01\nm ..\nm ..\nm %%\nm ..\n";

/// A map without any food set gets no food, ever (mod.rs: the official engine crashes on it,
/// `len(None)` in `do_food_visible`; ours goes on): nothing placed and nothing scheduled, at
/// the start (the visible and the starting food) and on every turn, while the food owed
/// (`food_extra`) grows. (Attack radius2 0: the two ants side by side live on.)
#[test]
fn a_map_without_any_food_set_gets_no_food() {
    let mut p = params(NO_FOOD_SETS);
    p.attackradius2 = 0;
    for seed in 0..4 {
        let mut g = G::setup(&p, seed).unwrap();
        assert_eq!(g.ring_len, 1, "seed {seed}: the sentinel only");
        for _ in 0..40 {
            assert!(g.food().is_empty(), "seed {seed}, turn {}", g.turn);
            assert!(g.pending_order.is_empty(), "seed {seed}, turn {}", g.turn);
            assert!(g.pending.iter().all(|&p| p == 0), "seed {seed}");
            pass(&mut g);
        }
        assert_eq!(g.turn, 40);
        assert!(g.food_extra >= 40, "seed {seed}: {} owed", g.food_extra);
    }
}

/// `MIRROR`, engine seed 2, 60 turns, `food_visible` drawn from `(0, 0)`: the official
/// engine's food (run as for the lists above, with `"food_visible": (0, 0)`).
#[rustfmt::skip]
const MIRROR_2_NO_VISIBLE_FOOD: [(u16, i32, i32); 36] = [
    (2, 1, 6), (2, 6, 6), (4, 2, 1), (4, 5, 1), (6, 1, 5), (6, 6, 5), (11, 2, 5), (11, 5, 5),
    (13, 1, 0), (13, 6, 0), (15, 2, 3), (15, 5, 3), (17, 1, 3), (17, 6, 3), (19, 1, 7), (19, 6, 7),
    (20, 2, 8), (20, 5, 8), (22, 2, 4), (22, 5, 4), (24, 2, 6), (24, 5, 6), (26, 2, 0), (26, 5, 0),
    (28, 1, 8), (28, 6, 8), (30, 1, 1), (30, 6, 1), (31, 2, 2), (31, 5, 2), (33, 2, 2), (33, 5, 2),
    (55, 1, 3), (55, 6, 3), (59, 1, 1), (59, 6, 1),
];

/// With no visible food (`food_visible` 0) the official `start_game` skips `do_food_visible`
/// altogether (`if self.food_visible > 0`): no visible food sets are built and no shuffle
/// draws from the generator. The food is then the official engine's, turn for turn.
#[test]
fn with_no_visible_food_the_food_is_the_official_engines() {
    let mut p = params(MIRROR);
    p.food_visible = Draw::Range(0, 0);
    let g = G::setup(&p, 2).unwrap();
    assert_eq!(g.food_params().3, 0);
    assert_eq!(food_placed(g, 60), MIRROR_2_NO_VISIBLE_FOOD);
}

/// `MIRROR`, engine seed 2, 30 turns, `food_start` drawn from `(10, 10)` and `food_visible`
/// from `(1, 1)`: the official engine's food (run as above).
#[rustfmt::skip]
const MIRROR_2_START_10_FOOD: [(u16, i32, i32); 30] = [
    (0, 2, 3), (0, 2, 6), (0, 2, 8), (0, 5, 3), (0, 5, 6), (0, 5, 8), (2, 2, 0), (2, 5, 0),
    (4, 1, 8), (4, 6, 8), (8, 1, 5), (8, 6, 5), (10, 1, 0), (10, 6, 0), (11, 2, 2), (11, 5, 2),
    (13, 1, 6), (13, 6, 6), (15, 2, 5), (15, 5, 5), (17, 1, 3), (17, 6, 3), (20, 2, 4), (20, 5, 4),
    (22, 1, 1), (22, 6, 1), (24, 1, 7), (24, 6, 7), (26, 2, 1), (26, 5, 1),
];

/// The starting food is `land_area // food_start - food_visible * players` (rules/ants.md:
/// `land_area = H*W - water`): on `MIRROR` (72 squares, 8 of water) with `food_start` 10 and
/// one visible food a player, 64 // 10 - 2 = 4 food besides the 2 visible ones at turn 0; then
/// the official engine's food, turn for turn.
#[test]
fn the_starting_food_comes_from_the_land_area_as_the_official_engines() {
    let mut p = params(MIRROR);
    (p.food_start, p.food_visible) = (Draw::Range(10, 10), Draw::Range(1, 1));
    let g = G::setup(&p, 2).unwrap();
    assert_eq!(g.land_area, 64);
    assert_eq!(g.food().len(), 6);
    assert_eq!(food_placed(g, 30), MIRROR_2_START_10_FOOD);
}

/// `Game::seats` is the map's number of players; `Game::turn` the turns played.
#[test]
fn seats_are_the_maps_players_and_turn_counts_the_turns_played() {
    let mut g = game(OPEN, 2);
    assert_eq!(Game::seats(&g), 2);
    assert_eq!(Game::seats(&game(QUAD, 2)), 4);
    assert_eq!(Game::turn(&g), 0);
    pass(&mut g);
    assert_eq!(Game::turn(&g), 1);
    pass(&mut g);
    pass(&mut g);
    assert_eq!(Game::turn(&g), 3);
}

// ---- The built-in bots' choices ----

/// `name`'s orders for seat 0 in `g`, by seed as [`bot_orders`], the ones of the ant on
/// `(r, c)` only.
fn orders_from(g: &G, name: &str, r: i16, c: i16) -> Vec<Vec<Dir>> {
    bot_orders(g, name)
        .into_iter()
        .map(|o| {
            o.iter()
                .filter(|o| (o.row, o.col) == (r, c))
                .map(|o| o.dir)
                .collect()
        })
        .collect()
}

/// Player 1's hill at `(r, c)` razed (by player 0): gone from every view.
fn raze(g: &mut G, r: i32, c: i32) {
    let s = sq(g, r, c) as u16;
    for h in g.hills.iter_mut().filter(|h| h.sq == s) {
        h.killed_by = Some(0);
    }
}

#[test]
fn strong_counts_enemies_and_friends_within_radius2_10_of_a_step() {
    // Player 0's ant at (7,3) marches on the enemy hill at (7,7); its one step closer is east,
    // to (7,4). An enemy at radius2 10 of (7,4) (1 row and 3 columns off, then 3 rows and 1
    // column off, across the edge) and over 10 of (7,3): `strong` holds.
    for enemy in [(8, 7), (0, 5)] {
        let g = staged(&[(7, 3, 0), (enemy.0, enemy.1, 1)]);
        for dirs in orders_from(&g, "strong", 7, 3) {
            assert!(!dirs.contains(&Dir::E), "enemy at {enemy:?}: {dirs:?}");
        }
    }
    // At radius2 13 of (7,4) (2 rows and 3 columns off): out of reach, `strong` steps.
    let g = staged(&[(7, 3, 0), (9, 7, 1)]);
    for dirs in orders_from(&g, "strong", 7, 3) {
        assert_eq!(dirs, [Dir::E]);
    }
    // The enemy on the hill, at radius2 9 of (7,4), but a friend at (7,2) (radius2 4 of (7,4),
    // and it cannot step on: its way east is taken): two friends there, the ant and it, and
    // one enemy, who does not outnumber them plus one. `strong` steps.
    let g = staged(&[(7, 3, 0), (7, 2, 0), (7, 7, 1)]);
    for dirs in orders_from(&g, "strong", 7, 3) {
        assert_eq!(dirs, [Dir::E]);
    }
}

#[test]
fn strong_sends_the_nearest_ant_to_a_food_and_hunter_sends_every_ant() {
    // Food at (3,3), two steps from the ants at (1,3) (south of it) and (3,1) (west of it);
    // the enemy hill at (7,7) is north or east of the first, south or west of the second.
    let mut g = staged(&[(1, 3, 0), (3, 1, 0), (7, 8, 1)]);
    put_food(&mut g, 3, 3);
    for seed_orders in bot_orders(&g, "strong") {
        let of = |r, c| {
            seed_orders
                .iter()
                .find(|o| (o.row, o.col) == (r, c))
                .map(|o| o.dir)
        };
        // The first of the nearest (by square) takes the food; the other marches on.
        assert_eq!(of(1, 3), Some(Dir::S), "{seed_orders:?}");
        assert!(matches!(of(3, 1), Some(Dir::S | Dir::W)), "{seed_orders:?}");
    }
    for seed_orders in bot_orders(&g, "hunter") {
        let mut got: Vec<_> = seed_orders.iter().map(|o| (o.row, o.col, o.dir)).collect();
        got.sort_unstable_by_key(|o| (o.0, o.1));
        assert_eq!(got, [(1, 3, Dir::S), (3, 1, Dir::E)]);
    }
}

#[test]
fn strong_claims_a_food_within_39_steps_not_40() {
    // 48 x 48 (the MCU build's largest): food at (2,2), seen by an ant at (2,6) walled in by
    // water (no field reaches it); the enemy hill at (25,25). An ant 39 steps south-east of the
    // food, at (31,30), takes it (its steps to the food are south and east, to the hill north
    // and west); one at (30,30), 40 steps from it, marches on the hill.
    let text = open_map(48, 48);
    for (ant, to_food) in [((31, 30), true), ((30, 30), false)] {
        let mut g = empty(&text);
        put_ant(&mut g, 2, 6, 0);
        for (r, c) in [(1, 6), (3, 6), (2, 5), (2, 7)] {
            let s = sq(&g, r, c);
            g.map[s] = WATER;
        }
        put_ant(&mut g, ant.0, ant.1, 0);
        put_food(&mut g, 2, 2);
        for dirs in orders_from(&g, "strong", ant.0 as i16, ant.1 as i16) {
            let want: &[Dir] = if to_food {
                &[Dir::S, Dir::E]
            } else {
                &[Dir::N, Dir::W]
            };
            assert!(
                dirs.len() == 1 && want.contains(&dirs[0]),
                "{ant:?}: {dirs:?}"
            );
        }
    }
}

#[test]
fn with_no_enemy_hill_left_the_bots_go_for_the_enemy_ants() {
    let mut g = staged(&[(4, 4, 0), (4, 8, 1)]);
    raze(&mut g, 7, 7);
    for dirs in orders_from(&g, "hunter", 4, 4) {
        assert_eq!(dirs, [Dir::E]);
    }
}

#[test]
fn an_ant_no_field_reaches_leaves_the_others_their_fields() {
    // The ant at (0,0), walled in by water, is reached by no field (it wanders, and cannot
    // step); the one at (4,4) still marches on the enemy hill at (7,7), south or east.
    let mut g = staged(&[(0, 0, 0), (4, 4, 0), (9, 5, 1)]);
    for (r, c) in [(9, 0), (1, 0), (0, 9), (0, 1)] {
        let s = sq(&g, r, c);
        g.map[s] = WATER;
    }
    for name in ["hunter", "strong"] {
        for orders in bot_orders(&g, name) {
            assert_eq!(orders.len(), 1, "{name}: {orders:?}");
            assert_eq!((orders[0].row, orders[0].col), (4, 4));
            assert!(
                matches!(orders[0].dir, Dir::S | Dir::E),
                "{name}: {orders:?}"
            );
        }
    }
}

#[test]
fn of_equally_good_steps_the_first_in_the_bots_shuffled_order_is_taken() {
    // The ant at (4,4) is as near the enemy hill at (7,7) going south as going east: it takes
    // whichever of the two its bot's shuffle of the four directions puts first (the bot draws
    // from `Rng::stream(seed, b"ants-bot")`, one shuffle an ant, before anything else).
    let g = staged(&[(4, 4, 0), (0, 9, 1)]);
    for name in ["hunter", "strong"] {
        for (seed, dirs) in orders_from(&g, name, 4, 4).into_iter().enumerate() {
            let mut rng = crate::Rng::stream(seed as u64, b"ants-bot");
            let mut shuffled = Dir::ALL;
            rng.shuffle(&mut shuffled);
            let first = shuffled.into_iter().find(|d| matches!(d, Dir::S | Dir::E));
            assert_eq!(dirs.first().copied(), first, "{name}, seed {seed}");
        }
    }
}

#[test]
fn an_ant_steps_only_nearer_and_wanders_with_nothing_to_go_for() {
    // Next to the food at (4,3), the ant at (4,4) waits (it gathers it): its other neighbours
    // are no nearer to any food, (4,5) being as near (next to the food at (4,6)).
    let mut g = staged(&[(4, 4, 0), (0, 9, 1)]);
    put_food(&mut g, 4, 3);
    put_food(&mut g, 4, 6);
    for name in ["hunter", "strong"] {
        for dirs in orders_from(&g, name, 4, 4) {
            assert_eq!(dirs, [], "{name}");
        }
    }
    // No food, no enemy hill, no enemy ant: it wanders, a step in some direction.
    let mut g = staged(&[(4, 4, 0)]);
    raze(&mut g, 7, 7);
    for name in ["hunter", "strong"] {
        for dirs in orders_from(&g, name, 4, 4) {
            assert_eq!(dirs.len(), 1, "{name}");
        }
    }
}

#[test]
fn the_bots_remember_enemy_hills_out_of_sight_and_forget_razed_ones() {
    // 24 x 24, player 0's hills at (1,1) and (1,7), player 1's at (13,13) and (13,19).
    let mut text = std::string::String::from("rows 24\ncols 24\nplayers 2\n");
    for r in 0..24 {
        text.push_str("m ");
        for c in 0..24 {
            text.push(match (r, c) {
                (1, 1) | (1, 7) => '0',
                (13, 13) | (13, 19) => '1',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let at = |ant: (i32, i32)| {
        let mut g = empty(&text);
        put_ant(&mut g, ant.0, ant.1, 0);
        g
    };
    for name in ["hunter", "strong"] {
        for seed in 0..8 {
            // Seen from (10,13), then out of sight from (2,17) (radius2 121 + 16 of the
            // nearest): the ant marches on the hills remembered, south or east.
            let mut bot = bots::AntsBot::by_name(name, seed).unwrap();
            let _: heapless::Vec<Order, MCU_ORDERS> =
                crate::Bot::act(&mut bot, &at((10, 13)).view(0));
            let orders: heapless::Vec<Order, MCU_ORDERS> =
                crate::Bot::act(&mut bot, &at((2, 17)).view(0));
            assert_eq!(orders.len(), 1, "{name}");
            assert!(
                matches!(orders[0].dir, Dir::S | Dir::E),
                "{name}, seed {seed}: {orders:?}"
            );
            // Both seen from (13,16); then the one at (13,13) razed in sight, the ant on
            // (13,14) next to it: it marches on the other, east.
            let mut bot = bots::AntsBot::by_name(name, seed).unwrap();
            let _: heapless::Vec<Order, MCU_ORDERS> =
                crate::Bot::act(&mut bot, &at((13, 16)).view(0));
            let mut g = at((13, 14));
            raze(&mut g, 13, 13);
            let orders: heapless::Vec<Order, MCU_ORDERS> = crate::Bot::act(&mut bot, &g.view(0));
            assert_eq!(
                orders.as_slice(),
                [order(13, 14, Dir::E)],
                "{name}, seed {seed}"
            );
        }
    }
}

#[test]
fn hold_never_moves_and_no_bot_moves_once_the_game_is_over() {
    let mut g = staged(&[(4, 4, 0), (0, 9, 1)]);
    assert!(bot_orders(&g, "hold").iter().all(Vec::is_empty));
    assert!(bot_orders(&g, "hunter").iter().all(|o| o.len() == 1));
    g.over = true;
    for name in ["hunter", "strong"] {
        assert!(bot_orders(&g, name).iter().all(Vec::is_empty), "{name}");
    }
}

#[test]
fn a_full_hill_memory_keeps_the_hills_it_holds_over_new_ones() {
    // The host build (the MCU build holds 8 hills in all, so no bot of it sees 8 enemy ones):
    // 20 x 40, player 1's nine hills at (11,21) and in two rows at (12..=13, 27..=30), player
    // 0's the same shifted by (-10, -20). Seen from (13,33), the eight in the rows fill the
    // memory (the one at (11,21) is at radius2 148); from (12,23) all nine are in sight, the
    // one at (11,21) the nearest (3 steps, north or west), but the memory keeps the eight it
    // holds: the ant marches on them, east (4 steps).
    let mut text = std::string::String::from("rows 20\ncols 40\nplayers 2\n");
    for r in 0..20 {
        text.push_str("m ");
        for c in 0..40 {
            let hill = |r0: i32, c0: i32| {
                (r, c) == (r0, c0)
                    || ((r0 + 1..=r0 + 2).contains(&r) && (c0 + 6..=c0 + 9).contains(&c))
            };
            text.push(if hill(1, 1) {
                '0'
            } else if hill(11, 21) {
                '1'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    let params = AntsParams::new(AntsMap::parse(&text).unwrap(), 200);
    let at = |r: i32, c: i32| {
        let mut g = std::boxed::Box::new(Ants::blank());
        g.init(&params, 1).unwrap();
        clear(&mut *g);
        put_ant(&mut *g, r, c, 0);
        g
    };
    let (first, then) = (at(13, 33), at(12, 23));
    assert_eq!(then.hills().iter().filter(|h| h.owner == 1).count(), 9);
    for name in ["hunter", "strong"] {
        for seed in 0..8 {
            let mut bot = bots::AntsBot::by_name(name, seed).unwrap();
            let _: heapless::Vec<Order, HOST_ORDERS> = crate::Bot::act(&mut bot, &first.view(0));
            let orders: heapless::Vec<Order, HOST_ORDERS> =
                crate::Bot::act(&mut bot, &then.view(0));
            assert_eq!(
                orders.as_slice(),
                [order(12, 23, Dir::E)],
                "{name}, seed {seed}"
            );
        }
    }
}

// ---- The sample of the files the full mutation run did not reach (docs/reliability.md) ----

#[test]
fn the_state_and_each_view_read_back_the_radii_set_up() {
    let mut p = params(OPEN);
    (p.viewradius2, p.attackradius2, p.spawnradius2) = (55, 7, 2);
    let g = G::new(&p, 1).unwrap();
    assert_eq!(
        (g.viewradius2(), g.attackradius2(), g.spawnradius2()),
        (55, 7, 2)
    );
    for seat in 0..2 {
        let v = g.view(seat);
        assert_eq!(
            (v.viewradius2(), v.attackradius2(), v.spawnradius2()),
            (55, 7, 2),
            "seat {seat}"
        );
    }
}

/// What a game was set up with reads back as it was given (the host's replay and the
/// protocol's `turn 0` block read these), and the creation counters are the next ids to hand
/// out: one ant a hill at the start, then one a spawn; one food id a food placed.
#[test]
fn the_state_reads_back_its_set_up_and_counts_what_it_created() {
    let mut p = params(FOUR);
    (p.turns, p.loadtime, p.turntime, p.player_seed) = (123, 2345, 678, -99);
    (p.food_rate, p.food_turn) = (Draw::Fixed(6), Draw::Fixed(21));
    (p.food_start, p.food_visible) = (Draw::Fixed(80), Draw::Fixed(4));
    let mut g = G::new(&p, 5).unwrap();
    assert_eq!((g.rows(), g.cols(), g.players()), (12, 16, 4));
    assert_eq!((g.turns(), g.loadtime(), g.turntime()), (123, 2345, 678));
    assert_eq!(g.player_seed(), -99);
    assert_eq!(g.food_params(), (6, 21, 80, 4));
    // Everyone starts with as many points as player 0 has hills: one.
    assert_eq!(g.scores(), &[1, 1, 1, 1]);
    assert_eq!(g.current_turn(), 0);
    assert_eq!(g.ants_created(), 4);
    // The food placed at the start holds ids 0, 1, ..: `food_created` is the next one.
    let ids = |g: &G| -> Vec<u32> { g.food().iter().map(|f| f.id).collect() };
    assert!(g.food().len() >= 2, "{:?}", g.food());
    assert_eq!(ids(&g), (0..g.food().len() as u32).collect::<Vec<_>>());
    assert_eq!(g.food_created(), g.food().len() as u32);
    // A hive food spawns as ant 4 once the hill is free.
    let hill0 = g.hills()[0].sq as usize;
    let (r, c) = g.row_col(hill0);
    g.hive[0] = 1;
    let step = [order(r as i16, c as i16, Dir::S)];
    g.play_turn(&[&step, &[], &[], &[]], crate::SeatSet::EMPTY, |_, _, _| {});
    assert_eq!(g.current_turn(), 1);
    assert_eq!(g.ants_created(), 5, "one spawn on the freed hill");
    assert_eq!(g.ants().iter().map(|a| a.id).max(), Some(4));
    let none: [&[Order]; 4] = [&[]; 4];
    g.play_turn(&none, crate::SeatSet::EMPTY, |_, _, _| {});
    assert_eq!(g.current_turn(), 2);
}

/// Each per-seat reader answers for that seat, and a seat the game does not have reads as
/// nothing: no points, no hive, no ants, not alive, killed (`is_killed`: beyond the seats),
/// never out.
#[test]
fn each_seats_readers_answer_for_that_seat_and_nothing_for_no_seat() {
    // Player 0 razes player 1's hill at (7,7); player 1 gathers the food at (0,6).
    let mut g = staged(&[(7, 6, 0), (2, 2, 0), (0, 0, 1), (0, 5, 1)]);
    put_food(&mut g, 0, 6);
    g.food_extra = -1000;
    play(&mut g, [&[order(7, 6, Dir::E)], &[]]);
    assert_eq!(g.scores(), &[3, 0]);
    assert_eq!([g.score(0), g.score(1), g.score(2)], [3, 0, 0]);
    assert_eq!([g.hive_food(0), g.hive_food(1), g.hive_food(2)], [0, 1, 0]);
    assert_eq!([g.ant_count(0), g.ant_count(1), g.ant_count(2)], [2, 2, 0]);
    assert!(g.is_alive(0) && g.is_alive(1) && !g.is_alive(2));
    assert!(!g.is_killed(0) && !g.is_killed(1));
    assert!(g.is_killed(10) && !g.is_alive(10));
    assert_eq!((g.score(10), g.hive_food(10), g.ant_count(10)), (0, 0, 0));
    // No one is out; a seat the game does not have was never in, so it never went out.
    let outs: Vec<Option<u16>> = [0, 1, 2, 9, 10].map(|p| g.out_at(p)).to_vec();
    assert_eq!(outs, [None; 5]);
}

#[test]
fn ranking_and_winning_turns_are_the_turns_the_order_last_changed() {
    // Both players start on 1 point (one hill each): tied. The first turn sets the ranking (none
    // before it, as the official engine's `None`). Player 0's ant razes player 1's hill at (7,7)
    // on turn 2: 3 points to 0, the ranking and the lead change then.
    let mut g = staged(&[(7, 5, 0), (0, 0, 1), (2, 2, 0)]);
    assert_eq!((g.ranking_turn(), g.winning_turn()), (0, 0));
    play(&mut g, [&[order(7, 5, Dir::E)], &[]]);
    assert_eq!(g.scores(), &[1, 1]);
    assert_eq!((g.ranking_turn(), g.winning_turn()), (1, 1));
    // The official `winning_bot`, the players on the top score (a mask here; in the digest).
    assert_eq!(g.winning, Some(0b11));
    play(&mut g, [&[order(7, 6, Dir::E)], &[]]);
    assert_eq!(g.scores(), &[3, 0]);
    assert_eq!((g.ranking_turn(), g.winning_turn()), (2, 2));
    assert_eq!(g.winning, Some(0b01));
}

#[test]
fn map_numbers_of_nine_digits_with_leading_zeros_read_as_python_int_reads_them() {
    // The official engine reads `rows`, `cols` and `players` with `int(value)`: zeros in front
    // change nothing. Nine characters are read (ten are refused: no size or count needs them).
    let padded = OPEN
        .replacen("rows 10", "rows 000000010", 1)
        .replacen("cols 10", "cols 000000010", 1)
        .replacen("players 2", "players 000000002", 1);
    let m = AntsMcuMap::parse(&padded).unwrap();
    assert_eq!((m.rows, m.cols, m.players), (10, 10, 2));
    let too_long = OPEN.replacen("rows 10", "rows 0000000010", 1);
    assert!(AntsMcuMap::parse(&too_long).is_err());
}

/// The view of what the protocol told `seat` ([`AntsView::from_sight`]), of the same build as
/// `_like` (the engine's view).
fn told<'a, const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    _like: &AntsView<'_, SQ, A, F, H, O>,
    sight: &'a Sight<'a>,
    seat: crate::Seat,
) -> AntsView<'a, SQ, A, F, H, O> {
    AntsView::from_sight(sight, seat)
}

/// Everything a view shows, in its order.
type Shown = (
    (usize, u32, u16, u16, usize, u16, u16, u16, u16, i64, bool),
    Vec<(usize, bool)>,
    Vec<usize>,
    Vec<usize>,
    Vec<(usize, usize)>,
    Vec<usize>,
    Vec<(usize, usize)>,
    Vec<(usize, usize)>,
);

fn shown<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    v: &AntsView<'_, SQ, A, F, H, O>,
    squares: usize,
) -> Shown {
    let mut visits = Vec::new();
    v.for_each_visible(|sq, water| visits.push((sq, water)));
    (
        (
            v.seat(),
            v.turn(),
            v.rows(),
            v.cols(),
            v.players(),
            v.turns(),
            v.viewradius2(),
            v.attackradius2(),
            v.spawnradius2(),
            v.player_seed(),
            v.is_finished(),
        ),
        visits,
        (0..squares).filter(|&s| v.is_visible(s)).collect(),
        (0..squares).filter(|&s| v.is_water(s)).collect(),
        v.ants().collect(),
        v.food().collect(),
        v.hills().collect(),
        v.dead().collect(),
    )
}

#[test]
fn a_view_from_what_the_protocol_sent_shows_what_the_engines_view_shows() {
    let mut g = mid_game();
    // A smaller sight than the default 77 (which sees the whole 10 x 10 here), and water in it
    // (OPEN has none): land squares around the first ant.
    g.view2 = 10;
    let a0 = g.ants[0].sq as usize;
    for (dr, dc) in [(0, 2), (1, -1), (-2, 0), (3, 3), (-5, 5)] {
        let s = g.offset(a0, dr, dc);
        if g.map[s] == LAND {
            g.map[s] = WATER;
        }
    }
    let squares = g.rows() as usize * g.cols() as usize;
    let water: Vec<bool> = (0..squares).map(|s| g.square(s) == WATER).collect();
    let sight = Sight {
        turn: g.turn(),
        rows: g.rows(),
        cols: g.cols(),
        players: g.players(),
        turns: g.turns(),
        viewradius2: g.viewradius2(),
        attackradius2: g.attackradius2(),
        spawnradius2: g.spawnradius2(),
        player_seed: g.player_seed(),
        water: &water,
        ants: g.ants(),
        food: g.food(),
        hills: g.hills(),
        dead: g.killed(),
        finished: g.is_finished(),
    };
    let mut water_seen = 0;
    for seat in 0..2 {
        let engine = g.view(seat);
        let from_sight = told(&engine, &sight, seat);
        let (a, b) = (shown(&engine, squares), shown(&from_sight, squares));
        assert_eq!(a, b, "seat {seat}");
        // Not everything is in sight.
        assert!(!a.2.is_empty() && a.2.len() < squares, "seat {seat}");
        water_seen += a.3.len();
        // In sight: within viewradius2 of one of the seat's ants.
        let own: Vec<usize> = g
            .ants()
            .iter()
            .filter(|x| x.owner as usize == seat)
            .map(|x| x.sq as usize)
            .collect();
        let near = |s: usize| {
            own.iter()
                .any(|&o| g.distance2(o, s) <= u32::from(g.viewradius2()))
        };
        assert_eq!(a.2, (0..squares).filter(|&s| near(s)).collect::<Vec<_>>());
    }
    assert!(water_seen > 0);
}

/// Each view, the engine's and one built from what the protocol sent, reads back the game's
/// set-up and turn as given (`turn` is the turns played: the protocol's `turn N` minus one),
/// and measures distances on the torus.
#[test]
fn each_view_reads_back_the_games_set_up_and_turn() {
    let mut p = params(FOUR);
    (p.turns, p.player_seed) = (123, -99);
    (p.viewradius2, p.attackradius2, p.spawnradius2) = (55, 7, 2);
    let mut g = G::new(&p, 5).unwrap();
    let none: [&[Order]; 4] = [&[]; 4];
    for _ in 0..3 {
        g.play_turn(&none, crate::SeatSet::EMPTY, |_, _, _| {});
    }
    let sight = Sight {
        turn: 3,
        rows: 12,
        cols: 16,
        players: 4,
        turns: 123,
        viewradius2: 55,
        attackradius2: 7,
        spawnradius2: 2,
        player_seed: -99,
        water: &[],
        ants: &[],
        food: &[],
        hills: &[],
        dead: &[],
        finished: false,
    };
    let at = |r: usize, c: usize| r * 16 + c;
    for seat in 0..4 {
        let engine = g.view(seat);
        for v in [engine, told(&engine, &sight, seat)] {
            assert_eq!(v.seat(), seat);
            assert_eq!((v.turn(), v.rows(), v.cols(), v.players()), (3, 12, 16, 4));
            assert_eq!(v.turns(), 123);
            assert_eq!(
                (v.viewradius2(), v.attackradius2(), v.spawnradius2()),
                (55, 7, 2)
            );
            assert_eq!(v.player_seed(), -99);
            assert!(!v.is_finished());
            // Across both edges: one row and one column apart; then as far as a 12 x 16
            // torus goes (6 rows, 8 columns); then 2 rows and 3 columns the short way.
            assert_eq!(v.distance2(at(0, 0), at(11, 15)), 2);
            assert_eq!(v.distance2(at(0, 0), at(6, 8)), 100);
            assert_eq!(v.distance2(at(1, 14), at(11, 1)), 13);
            assert_eq!(v.distance2(at(5, 5), at(5, 5)), 0);
        }
    }
}

/// A game set up again in place (`init`, how the boards and the host reuse one boxed state) is
/// the game a fresh `setup` gives, field for field, whatever the last game left: a larger map
/// (its squares beyond the new map back to what `blank` holds: water, no ant, no hill, ...)
/// or a smaller one, ants, food, hills, kills, a game over.
#[test]
fn a_game_set_up_again_in_place_is_the_game_set_up_fresh() {
    let played = |text: &str, seed: u64, turns: usize| {
        let mut g = game(text, seed);
        let mut bots = [G::bot("strong", 1).unwrap(), G::bot("hunter", 2).unwrap()];
        for _ in 0..turns {
            g.step_bots::<2, _>(&mut bots, |_| ());
        }
        g
    };
    let walls = walls();
    for (before, after) in [(walls.as_str(), OPEN), (OPEN, walls.as_str())] {
        let mut g = played(before, 4, 60);
        assert!(g.turn > 0 && g.next_food > 0 && g.next_ant > g.hills.len() as u32);
        let fresh = G::setup(&params(after), 7).unwrap();
        g.init(&params(after), 7).unwrap();
        assert!(g == fresh, "set up again after {} turns", 60);
        // Beyond the map: water, as on a fresh game.
        let squares = g.rows() as usize * g.cols() as usize;
        assert!(g.is_water(squares) && g.is_water(MCU_SQUARES - 1));
    }
    // After a game that ended.
    let mut g = staged(&[(4, 4, 0), (4, 6, 1)]);
    pass(&mut g);
    assert!(g.is_finished());
    g.init(&params(OPEN), 7).unwrap();
    assert!(g == G::setup(&params(OPEN), 7).unwrap());
}

/// A food parameter's range is drawn with `randrange(lo, hi + 1)`: an empty one (`lo > hi`,
/// on which the official `randrange` raises) is refused, a range of one value gives it;
/// `food_turn` 0 (a division by zero in the official engine) is refused.
#[test]
fn setup_refuses_an_empty_food_range_and_a_food_turn_of_0() {
    let empty = Err(SetupError::Invalid("empty food parameter range"));
    for which in 0..4 {
        let mut p = params(OPEN);
        let field = match which {
            0 => &mut p.food_rate,
            1 => &mut p.food_turn,
            2 => &mut p.food_start,
            _ => &mut p.food_visible,
        };
        *field = Draw::Range(10, 5);
        assert_eq!(G::new(&p, 1).map(|g| g.food_params()), empty, "{which}");
        let mut p = params(OPEN);
        (p.food_rate, p.food_turn) = (Draw::Range(7, 7), Draw::Range(20, 20));
        (p.food_start, p.food_visible) = (Draw::Range(90, 90), Draw::Range(3, 3));
        assert_eq!(G::new(&p, 1).map(|g| g.food_params()), Ok((7, 20, 90, 3)));
    }
    let mut p = params(OPEN);
    p.food_turn = Draw::Fixed(0);
    assert_eq!(
        G::new(&p, 1).map(|g| g.food_params()),
        Err(SetupError::Invalid("food_turn must be positive"))
    );
}

/// A build holds as many hills as it holds ants (one ant starts on each): a map with exactly
/// that many is taken, one with more refused.
#[test]
fn setup_takes_as_many_hills_as_the_build_holds_ants_and_no_more() {
    type TwoAnts = AntsGame<192, 2, 16, 4, 8>;
    let setup = |text: &str| {
        let map = Map::<192, 4>::parse(text).unwrap();
        TwoAnts::setup(&Params::new(map, 10), 1).map(|g| g.ants().len())
    };
    assert_eq!(setup(OPEN), Ok(2));
    assert_eq!(
        setup(FOUR),
        Err(SetupError::Capacity(
            "more hills than this build holds ants"
        ))
    );
}

/// The engine's kills name seats: a seat the game does not have is no one, and the turn plays
/// as without it. After turn 0, or once the game is over, `kill_at_start` does nothing.
#[test]
fn kills_of_no_seat_and_late_kills_at_start_change_nothing() {
    let mut g = game(OPEN, 3);
    let mut same = g.clone();
    g.play_turn(&[&[], &[]], crate::SeatSet::only(2), |_, _, _| {});
    same.play_turn(&[&[], &[]], crate::SeatSet::EMPTY, |_, _, _| {});
    assert!(!g.is_killed(2));
    assert!(g == same);
    // Turn 1 played: too late for a kill at the start.
    g.kill_at_start(crate::SeatSet::only(0));
    assert!(g == same && !g.is_killed(0));
    // A game over at its start (no turns): nothing more happens to it.
    let mut p = params(OPEN);
    p.turns = 0;
    let mut g = G::new(&p, 1).unwrap();
    let before = g.clone();
    g.kill_at_start(crate::SeatSet::only(1));
    assert!(g == before && !g.is_killed(1));
}

#[test]
fn a_view_shows_water_and_enemy_ants_in_sight_only() {
    // Two hills 12 rows and 12 columns apart on a 24 x 24 torus (288 squared, beyond the
    // view's 77) and walls beside each: at turn 0 each seat sees its own walls, not the
    // other's, and not the other seat's ant.
    let mut text = std::string::String::from("rows 24\ncols 24\nplayers 2\n");
    for r in 0..24 {
        let row: std::string::String = (0..24)
            .map(|c| match (r, c) {
                (2, 2) => '0',
                (14, 14) => '1',
                (4, 2..=5) | (16, 14..=17) => '%',
                _ => '.',
            })
            .collect();
        text.push_str(&std::format!("m {row}\n"));
    }
    let g = game(&text, 1);
    for seat in 0..2 {
        let v = g.view(seat);
        let (mut seen, mut hidden) = (0, 0);
        for s in 0..24 * 24 {
            let water = g.square(s) == WATER;
            assert_eq!(
                v.is_water(s),
                water && v.is_visible(s),
                "seat {seat}, square {s}"
            );
            match (water, v.is_visible(s)) {
                (true, true) => seen += 1,
                (true, false) => hidden += 1,
                _ => {}
            }
        }
        assert!(
            seen > 0 && hidden > 0,
            "seat {seat}: {seen} walls seen, {hidden} hidden"
        );
        let listed: Vec<(usize, crate::Seat)> = v.ants().collect();
        let mut enemies_out_of_sight = 0;
        for a in g.ants() {
            let (at, owner) = (usize::from(a.sq), usize::from(a.owner));
            let shown = owner == seat || v.is_visible(at);
            assert_eq!(
                listed.contains(&(at, owner)),
                shown,
                "seat {seat}, ant {a:?}"
            );
            enemies_out_of_sight += usize::from(!shown);
        }
        assert!(enemies_out_of_sight > 0);
        assert!(listed.iter().any(|&(_, owner)| owner == seat));
    }
}
