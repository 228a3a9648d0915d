//! One test per rule of `rules/colorfight.md`, named after it.
#![allow(clippy::unwrap_used, clippy::panic)]

extern crate std;
use super::*;

const A: Action = Action::Pass;

/// An empty board: no mines, no cells owned, every player fresh (and not yet defeated).
fn board(variant: Variant, w: u16, h: u16, players: u8) -> ColorFight {
    let params = Params {
        variant,
        width: w,
        height: h,
        players,
        ticks: DEFAULT_TICKS,
        respawn: Respawn::Auto,
    };
    let mut g = ColorFight::new(&params, 7).unwrap();
    for c in g.cells.iter_mut() {
        *c = Cell::default();
    }
    for p in g.players.iter_mut() {
        *p = Player::start(0);
    }
    g
}

fn own(g: &mut ColorFight, seat: Seat, x: i32, y: i32) {
    let i = g.index(x, y).unwrap();
    let c = *g.cell(i).unwrap();
    if let Some(prev) = c.owner_seat() {
        g.count(prev, c.kind, false);
    }
    g.count(seat, c.kind, true);
    g.cells[i].owner = seat as u8 + 1;
}

fn base(g: &mut ColorFight, seat: Seat, x: i32, y: i32) {
    own(g, seat, x, y);
    let i = g.index(x, y).unwrap();
    g.cells[i].building = Building::Base;
    g.players[seat].bases += 1;
}

/// A [`board`] of `w` x `h` for `players`, with bases and owned cells at `(seat, x, y)`.
fn staged(
    (variant, w, h, players): (Variant, u16, u16, u8),
    bases: &[(Seat, i32, i32)],
    owned: &[(Seat, i32, i32)],
) -> ColorFight {
    let mut g = board(variant, w, h, players);
    put(&mut g, bases, owned);
    g
}

/// Bases and owned cells at `(seat, x, y)`.
fn put(g: &mut ColorFight, bases: &[(Seat, i32, i32)], owned: &[(Seat, i32, i32)]) {
    for &(seat, x, y) in bases {
        base(g, seat, x, y);
    }
    for &(seat, x, y) in owned {
        own(g, seat, x, y);
    }
}

/// A 5 x 5 Conquest [`staged`] board for two.
fn conquest(bases: &[(Seat, i32, i32)], owned: &[(Seat, i32, i32)]) -> ColorFight {
    staged((Variant::Conquest, 5, 5, 2), bases, owned)
}

/// A 5 x 5 Skirmish [`staged`] board for two.
fn skirmish(owned: &[(Seat, i32, i32)]) -> ColorFight {
    staged((Variant::Skirmish, 5, 5, 2), &[], owned)
}

/// The plan of an attack on `cell` that completes after `ticks`.
fn takes(cell: usize, ticks: u32) -> Result<Plan, Refusal> {
    Ok(Plan::Attack { cell, ticks })
}

fn at(g: &ColorFight, x: i32, y: i32) -> Cell {
    *g.cell(g.index(x, y).unwrap()).unwrap()
}

fn attack(x: i32, y: i32) -> Action {
    Action::Attack { x, y }
}

fn build(x: i32, y: i32) -> Action {
    Action::Build { x, y }
}

/// Steps with `first` for the first tick, then passes, `n` ticks in all.
fn run(g: &mut ColorFight, first: &[Action], n: u32) -> StepReport {
    let r = g.step(first);
    for _ in 1..n {
        g.step(&[A; MAX_PLAYERS]);
    }
    r
}

/// Recounts every player's cells, mines and bases from the grid.
fn counts_match(g: &ColorFight) -> bool {
    g.players().iter().enumerate().all(|(s, p)| {
        let me = s as u8 + 1;
        let mine = |k: Option<Kind>| {
            g.cells()
                .iter()
                .filter(|c| c.owner == me && k.is_none_or(|k| c.kind == k))
                .count() as u16
        };
        let bases = g
            .cells()
            .iter()
            .filter(|c| c.owner == me && c.building == Building::Base)
            .count() as u8;
        p.cells == mine(None)
            && p.gold_mines == mine(Some(Kind::Gold))
            && p.energy_mines == mine(Some(Kind::Energy))
            && p.bases == bases
    })
}

// ---- Map and players ----

#[test]
fn map_conquest_places_2_percent_gold_then_energy_mines() {
    let g = ColorFight::new(&Params::default(), 1).unwrap();
    let gold = g.cells().iter().filter(|c| c.kind == Kind::Gold).count();
    let energy = g.cells().iter().filter(|c| c.kind == Kind::Energy).count();
    assert_eq!((gold, energy), (18, 18));
    let other = ColorFight::new(&Params::default(), 2).unwrap();
    assert_ne!(g.cells(), other.cells(), "mines are placed by the seed");
    let again = ColorFight::new(&Params::default(), 1).unwrap();
    assert_eq!(g.digest(), again.digest());
}

#[test]
fn map_skirmish_has_no_mines_and_no_bases() {
    let p = Params {
        variant: Variant::Skirmish,
        ..Params::default()
    };
    let g = ColorFight::new(&p, 1).unwrap();
    assert!(g.cells().iter().all(|c| c.kind == Kind::Normal));
    assert!(g.cells().iter().all(|c| c.building == Building::None));
    assert_eq!(g.cells().iter().filter(|c| c.owner != 0).count(), 4);
}

#[test]
fn players_start_on_distinct_free_cells_with_a_base_30_gold_0_energy() {
    let p = Params {
        players: 8,
        ..Params::default()
    };
    let g = ColorFight::new(&p, 3).unwrap();
    for seat in 0..8 {
        assert_eq!(g.cells().iter().filter(|c| c.owner == seat + 1).count(), 1);
        let cell = g.cells().iter().find(|c| c.owner == seat + 1).unwrap();
        assert_eq!(cell.building, Building::Base);
        assert_eq!(cell.taken_at, 0);
        let pl = g.player(seat as usize).unwrap();
        assert_eq!(pl.gold, Num::const_from_int(30));
        assert_eq!(pl.energy, Num::ZERO);
    }
    assert!(counts_match(&g));
}

#[test]
fn a_start_may_be_drawn_on_a_mine_as_the_server_drew_it() {
    // 36 mines of 900 cells: about one 8-player game in four starts someone on a mine.
    let p = Params {
        players: 8,
        ..Params::default()
    };
    let mut on_mine = 0;
    for seed in 0..40 {
        let g = ColorFight::new(&p, seed).unwrap();
        assert!(counts_match(&g));
        for c in g
            .cells()
            .iter()
            .filter(|c| c.owner != 0 && c.kind != Kind::Normal)
        {
            on_mine += 1;
            let p = g.player(c.owner_seat().unwrap()).unwrap();
            assert_eq!(c.building, Building::Base);
            match c.kind {
                Kind::Gold => assert_eq!((p.gold_mines, p.score()), (1, 10)),
                Kind::Energy => assert_eq!(p.energy_mines, 1),
                Kind::Normal => unreachable!(),
            }
        }
    }
    assert!(on_mine > 0, "no start on a mine in 40 games");
}

#[test]
fn a_respawn_with_no_free_cell_takes_a_cell_nobody_attacks_from_its_owner() {
    // 2 x 2, three players: seat 0 defeated, every other cell owned; one under attack.
    let mut g = board(Variant::Conquest, 2, 2, 3);
    base(&mut g, 1, 0, 0);
    own(&mut g, 1, 1, 0);
    base(&mut g, 2, 0, 1);
    base(&mut g, 2, 1, 1);
    g.players[0].defeated = true;
    g.players[0].defeated_at = 0;
    // Seat 1 attacks (1,1) at tick 0: that cell cannot be drawn at tick 1, the respawn's.
    g.step(&[A, attack(1, 1), A]);
    assert!(
        g.player(0).unwrap().defeated,
        "not in the tick of its defeat"
    );
    g.step(&[A; 3]);
    assert!(!g.player(0).unwrap().defeated, "respawned on an owned cell");
    let start = g.cells().iter().position(|c| c.owner == 1).unwrap();
    assert_ne!(start, g.index(1, 1).unwrap(), "not the cell under attack");
    assert_eq!(g.cells()[start].building, Building::Base);
    assert!(
        counts_match(&g),
        "the previous owner lost the cell and any base on it"
    );
    // Everything under attack or owned by no one else: the respawn waits.
    let mut full = board(Variant::Conquest, 2, 2, 2);
    base(&mut full, 1, 0, 0);
    for (x, y) in [(1, 0), (0, 1), (1, 1)] {
        own(&mut full, 1, x, y);
    }
    for c in full.cells.iter_mut().take(4) {
        c.attacker = 2;
        c.done_at = 500;
    }
    full.players[0].defeated = true;
    full.step(&[A, A]);
    full.step(&[A, A]);
    assert!(full.player(0).unwrap().defeated);
}

#[test]
fn in_the_server_mode_a_defeated_player_comes_back_only_when_it_joins() {
    let mut g = board(Variant::Conquest, 6, 6, 2);
    g.params.respawn = Respawn::OnJoin;
    base(&mut g, 1, 5, 5);
    g.players[0].defeated = true;
    g.players[0].defeated_at = 0;
    g.step(&[A, A]);
    assert!(g.to_move().contains(0), "it may rejoin");
    let r = g.step(&[A, A]);
    assert!(g.player(0).unwrap().defeated, "no respawn by itself");
    assert_eq!(r.refused[0], 0);
    let mut why = [None; MAX_PLAYERS];
    let r = g.step_explained(&[Action::Join, Action::Join], &mut why);
    assert!(!g.player(0).unwrap().defeated, "back with its Join");
    assert_eq!(g.player(0).unwrap().cells, 1);
    assert_eq!((r.refused[0], r.refused[1]), (0, 1));
    assert_eq!(why[..2], [None, Some(Refusal::CannotRejoin)]);
    // Outside the server mode, Join is refused and nobody waits for it.
    let mut auto = board(Variant::Conquest, 6, 6, 2);
    base(&mut auto, 0, 0, 0);
    base(&mut auto, 1, 5, 5);
    let r = auto.step(&[Action::Join, A]);
    assert_eq!(r.refused[0], 1);
}

#[test]
fn refusals_say_why_in_the_servers_order() {
    let mut g = board(Variant::Conquest, 5, 5, 2);
    base(&mut g, 0, 2, 2);
    base(&mut g, 1, 4, 4);
    let mut why = [None; MAX_PLAYERS];
    // Poor and not its own cell: the server reports the gold first.
    g.step_explained(&[build(4, 4), attack(0, 0)], &mut why);
    assert_eq!(why[0], Some(Refusal::TooPoor));
    assert_eq!(why[1], Some(Refusal::NotAdjacent));
    g.players[0].gold = Num::const_from_int(100);
    g.step_explained(&[build(4, 4), A], &mut why);
    assert_eq!(why[0], Some(Refusal::NotOwn));
    g.step_explained(&[build(7, 0), A], &mut why);
    assert_eq!(why[0], Some(Refusal::OutOfGrid));
    g.step_explained(&[build(2, 2), A], &mut why);
    assert_eq!(why[0], Some(Refusal::HasBase));
}

#[test]
fn players_two_to_eight_and_grid_within_capacity() {
    for (players, ok) in [(1, false), (2, true), (8, true), (9, false)] {
        let p = Params {
            players,
            ..Params::default()
        };
        assert_eq!(ColorFight::new(&p, 0).is_ok(), ok, "{players} players");
    }
    let big = Params {
        width: 33,
        height: 32,
        ..Params::default()
    };
    assert!(matches!(
        ColorFight::new(&big, 0),
        Err(SetupError::Capacity(_))
    ));
    let wide = Params {
        width: 32,
        height: 32,
        ..Params::default()
    };
    assert!(ColorFight::new(&wide, 0).is_ok());
    let tiny = Params {
        width: 1,
        ..Params::default()
    };
    assert!(ColorFight::new(&tiny, 0).is_err());
}

// ---- Attacks ----

#[test]
fn grid_is_four_neighbour_without_wrap() {
    let g = skirmish(&[(0, 0, 2), (1, 4, 4)]);
    assert_eq!(
        g.plan(0, &attack(4, 2)),
        Err(Refusal::NotAdjacent),
        "no wrap"
    );
    assert_eq!(
        g.plan(0, &attack(1, 1)),
        Err(Refusal::NotAdjacent),
        "no diagonal"
    );
    for (x, y) in [(1, 2), (0, 1), (0, 3)] {
        assert!(g.plan(0, &attack(x, y)).is_ok());
    }
}

#[test]
fn attack_adjacent_cell_of_any_owner_but_not_diagonal() {
    let mut g = skirmish(&[(0, 2, 2), (1, 3, 2)]);
    assert!(g.plan(0, &attack(2, 1)).is_ok(), "empty neighbour");
    assert!(g.plan(0, &attack(3, 2)).is_ok(), "enemy neighbour");
    assert_eq!(g.plan(0, &attack(3, 3)), Err(Refusal::NotAdjacent));
    assert_eq!(g.plan(0, &attack(0, 0)), Err(Refusal::NotAdjacent));
    assert_eq!(g.plan(0, &attack(5, 2)), Err(Refusal::OutOfGrid));
    assert_eq!(g.plan(0, &attack(-1, 2)), Err(Refusal::OutOfGrid));
    let r = g.step(&[attack(3, 3), A]);
    assert_eq!(r.refused[0], 1);
    assert!(g.player(0).unwrap().is_idle());
}

#[test]
fn attack_empty_cell_takes_2_seconds_and_completes_at_start_plus_ticks() {
    let mut g = skirmish(&[(0, 2, 2), (1, 0, 0)]);
    g.step(&[attack(2, 1), A]); // acted at tick 0
    assert_eq!(at(&g, 2, 1).attacker, 1);
    assert_eq!(at(&g, 2, 1).done_at, 20);
    assert_eq!(g.player(0).unwrap().busy_until, 20);
    run(&mut g, &[], 18); // now at tick 19
    assert_eq!(g.tick(), 19);
    assert_eq!(at(&g, 2, 1).owner, 0);
    g.step(&[]); // tick 20 starts: the cell changes hands
    assert_eq!(at(&g, 2, 1).owner, 1);
    assert_eq!(at(&g, 2, 1).taken_at, 20);
    assert_eq!(at(&g, 2, 1).attacker, 0);
    assert!(g.player(0).unwrap().is_idle());
    assert_eq!(g.player(0).unwrap().cells, 2);
}

#[test]
fn attack_owned_cell_takes_3_plus_30_times_decay_of_its_age() {
    let mut g = skirmish(&[(0, 2, 2), (1, 3, 2)]);
    run(&mut g, &[], 250); // the enemy cell is 25 s old
    assert_eq!(g.plan(0, &attack(3, 2)), takes(13, 199));
    let fresh = skirmish(&[(0, 2, 2), (1, 3, 2)]);
    assert_eq!(fresh.plan(0, &attack(3, 2)), takes(13, 330));
}

#[test]
fn defending_own_cell_restarts_its_occupation_time() {
    let mut g = skirmish(&[(0, 2, 2), (1, 0, 0)]);
    run(&mut g, &[], 600);
    // 60 s old: 10.5 s to re-take.
    assert_eq!(g.plan(0, &attack(2, 2)), takes(12, 105));
    run(&mut g, &[attack(2, 2), A], 105);
    assert_eq!(at(&g, 2, 2).taken_at, 705);
    assert_eq!(at(&g, 2, 2).owner, 1);
    assert_eq!(g.plan(0, &attack(2, 2)), takes(12, 330));
}

#[test]
fn one_attack_at_a_time() {
    let mut g = skirmish(&[(0, 2, 2), (1, 0, 0)]);
    g.step(&[attack(2, 1), A]);
    assert_eq!(g.plan(0, &attack(2, 3)), Err(Refusal::Busy));
    let r = g.step(&[attack(2, 3), A]);
    assert_eq!(r.refused[0], 1);
    assert_eq!(at(&g, 2, 3).attacker, 0);
}

#[test]
fn a_cell_being_taken_cannot_be_attacked_by_another() {
    let mut g = skirmish(&[(0, 1, 2), (1, 3, 2)]);
    g.step(&[attack(2, 2), A]);
    assert_eq!(g.plan(1, &attack(2, 2)), Err(Refusal::BeingTaken));
    // Not even its owner may defend a cell under attack.
    let mut h = skirmish(&[(0, 1, 2), (1, 2, 2)]);
    h.step(&[attack(2, 2), A]);
    assert_eq!(h.plan(1, &attack(2, 2)), Err(Refusal::BeingTaken));
}

#[test]
fn a_cell_that_changes_hands_while_another_waits_costs_the_waiter_33_seconds() {
    // Attacker A left of the target, B waiting on its right, the target held by C.
    let mut g = staged(
        (Variant::Skirmish, 5, 5, 3),
        &[],
        &[(0, 1, 2), (1, 3, 2), (2, 2, 2), (2, 0, 0)],
    );
    run(&mut g, &[], 600); // C's cell is 60 s old: 10.5 s to take
    g.step(&[attack(2, 2), A, A]);
    let mut waited = 0;
    while at(&g, 2, 2).owner != 1 {
        // B tries every tick and is refused every tick.
        let r = g.step(&[A, attack(2, 2), A]);
        assert_eq!(r.refused[1], 1);
        waited += 1;
    }
    assert_eq!(waited, 104, "acted at 600, completes at 705");
    assert_eq!(g.player(2).unwrap().cells, 1);
    // Now the cell is A's, freshly taken: B's attack lasts the full 33 s.
    assert_eq!(g.plan(1, &attack(2, 2)), takes(12, 330));
    let r = g.step(&[A, attack(2, 2), A]);
    assert_eq!(r.refused[1], 0);
    assert_eq!(at(&g, 2, 2).attacker, 2);
}

#[test]
fn conquest_surround_factor_counts_own_neighbours_of_the_target() {
    let mut g = conquest(&[(1, 4, 4), (0, 1, 2)], &[]);
    assert_eq!(g.plan(0, &attack(2, 2)), takes(12, 20));
    own(&mut g, 0, 2, 1);
    assert_eq!(g.plan(0, &attack(2, 2)), takes(12, 15));
    own(&mut g, 0, 3, 2);
    assert_eq!(g.plan(0, &attack(2, 2)), takes(12, 10));
    own(&mut g, 0, 2, 3);
    assert_eq!(g.plan(0, &attack(2, 2)), takes(12, 5));
    // Defending an isolated own cell: factor 1.
    assert_eq!(g.plan(1, &attack(4, 4)), takes(24, 330));
}

#[test]
fn conquest_energy_factor_then_five_percent_cost() {
    let mut g = conquest(&[(0, 2, 2), (1, 4, 4)], &[]);
    g.players[0].energy = Num::const_from_int(100);
    g.step(&[attack(2, 1), A]);
    // The duration used the energy before the cost: 2 s / 1.5 -> 14 ticks.
    assert_eq!(at(&g, 2, 1).done_at, 14);
    assert_eq!(
        g.player(0).unwrap().energy,
        Num::const_from_int(100).saturating_mul(ENERGY_KEEP)
    );
    // Skirmish: no energy factor and no cost.
    let mut s = skirmish(&[(0, 2, 2), (1, 4, 4)]);
    s.players[0].energy = Num::const_from_int(100);
    s.step(&[attack(2, 1), A]);
    assert_eq!(at(&s, 2, 1).done_at, 20);
    assert_eq!(s.player(0).unwrap().energy, Num::const_from_int(100));
}

#[test]
fn actions_are_taken_in_a_seeded_random_order_each_tick() {
    // Two players attack the same empty cell in the same tick: whoever acts first gets it.
    let mut winners = [0; 2];
    for seed in 0..40 {
        let mut g = board(Variant::Skirmish, 3, 2, 2);
        g.order_rng = Rng::stream(seed, b"test");
        own(&mut g, 0, 0, 0);
        own(&mut g, 1, 2, 0);
        let r = g.step(&[attack(1, 0), attack(1, 0)]);
        assert_eq!(r.total_refused(), 1);
        winners[at(&g, 1, 0).attacker as usize - 1] += 1;
    }
    assert!(winners[0] > 0 && winners[1] > 0, "{winners:?}");
}

// ---- Bases ----

#[test]
fn build_costs_60_gold_and_finishes_after_30_seconds() {
    let mut g = conquest(&[(0, 2, 2), (1, 4, 4)], &[(0, 2, 1)]);
    g.players[0].gold = Num::const_from_int(70);
    g.step(&[build(2, 1), A]);
    assert_eq!(at(&g, 2, 1).building, Building::Building);
    assert_eq!(g.player(0).unwrap().gold, Num::const_from_int(10));
    assert_eq!(g.player(0).unwrap().all_bases(), 2);
    run(&mut g, &[], 298);
    assert_eq!(at(&g, 2, 1).building, Building::Building);
    g.step(&[]);
    assert_eq!(g.tick(), 300);
    assert_eq!(at(&g, 2, 1).building, Building::Base);
    assert_eq!(g.player(0).unwrap().bases, 2);
    assert!(counts_match(&g));
}

#[test]
fn build_refused_off_own_cells_on_bases_under_attack_or_when_poor() {
    let mut g = conquest(
        &[(0, 2, 2), (1, 4, 4)],
        &[(0, 2, 1), (0, 1, 2), (1, 3, 2), (1, 3, 1)],
    );
    assert_eq!(g.plan(0, &build(2, 1)), Err(Refusal::TooPoor));
    g.players[0].gold = Num::const_from_int(100);
    assert_eq!(g.plan(0, &build(3, 2)), Err(Refusal::NotOwn));
    assert_eq!(g.plan(0, &build(2, 2)), Err(Refusal::HasBase));
    assert_eq!(g.plan(0, &build(9, 2)), Err(Refusal::OutOfGrid));
    g.step(&[A, attack(2, 1)]);
    assert_eq!(g.plan(0, &build(2, 1)), Err(Refusal::BeingTaken));
    assert!(g.plan(0, &build(1, 2)).is_ok());
}

#[test]
fn build_one_per_30_seconds_separate_from_attacks() {
    let mut g = conquest(&[(0, 2, 2), (1, 4, 4)], &[(0, 2, 1), (0, 1, 2)]);
    g.players[0].gold = Num::const_from_int(100);
    g.step(&[attack(3, 2), A]);
    // Busy attacking, yet free to build.
    g.step(&[build(2, 1), A]);
    assert_eq!(at(&g, 2, 1).building, Building::Building);
    g.players[0].gold = Num::const_from_int(100);
    assert_eq!(g.plan(0, &build(1, 2)), Err(Refusal::CoolDown));
    run(&mut g, &[], 298);
    assert_eq!(g.tick(), 300);
    assert_eq!(g.plan(0, &build(1, 2)), Err(Refusal::CoolDown));
    g.step(&[]);
    assert!(g.plan(0, &build(1, 2)).is_ok());
}

#[test]
fn at_most_3_bases_counting_unfinished_ones() {
    let mut g = conquest(&[(0, 0, 0), (0, 1, 0), (1, 4, 4)], &[(0, 2, 0), (0, 3, 0)]);
    g.players[0].gold = Num::const_from_int(100);
    g.step(&[build(2, 0), A]);
    assert_eq!(g.player(0).unwrap().all_bases(), 3);
    run(&mut g, &[], 300);
    g.players[0].gold = Num::const_from_int(100);
    assert_eq!(g.plan(0, &build(3, 0)), Err(Refusal::BaseLimit));
}

#[test]
fn build_refused_in_skirmish() {
    let mut g = skirmish(&[(0, 2, 2), (1, 0, 0)]);
    g.players[0].gold = Num::const_from_int(100);
    assert_eq!(g.plan(0, &build(2, 2)), Err(Refusal::NoBuildInSkirmish));
}

/// Player 1 (seat 0) has a base at (2,2) and, for the retreat, owned cells around it;
/// seat 1 takes the base cell from (3,2).
fn raid(seed: u64, own_left: bool, own_up: bool) -> ColorFight {
    let mut g = conquest(&[], &[]);
    g.retreat_rng = Rng::stream(seed, b"test");
    base(&mut g, 0, 2, 2);
    base(&mut g, 0, 0, 4);
    if own_left {
        own(&mut g, 0, 1, 2);
    }
    if own_up {
        own(&mut g, 0, 2, 1);
    }
    base(&mut g, 1, 3, 2);
    run(&mut g, &[], 600);
    let d = match g.plan(1, &attack(2, 2)) {
        Ok(Plan::Attack { ticks, .. }) => ticks,
        other => panic!("{other:?}"),
    };
    run(&mut g, &[A, attack(2, 2)], d);
    assert_eq!(at(&g, 2, 2).owner, 2);
    g
}

#[test]
fn base_retreats_to_an_own_neighbour_without_base_in_seeded_order() {
    let mut went = [0; 2];
    for seed in 0..30 {
        let g = raid(seed, true, true);
        assert_eq!(
            at(&g, 2, 2).building,
            Building::None,
            "the base left the cell"
        );
        let left = at(&g, 1, 2).building == Building::Base;
        let up = at(&g, 2, 1).building == Building::Base;
        assert!(left ^ up, "exactly one neighbour got the base");
        went[left as usize] += 1;
        assert_eq!(g.player(0).unwrap().bases, 2);
        assert!(!g.player(0).unwrap().defeated);
        assert!(counts_match(&g));
        let again = raid(seed, true, true);
        assert_eq!(g.digest(), again.digest(), "same seed, same retreat");
    }
    assert!(went[0] > 0 && went[1] > 0, "{went:?}");
}

#[test]
fn base_with_nowhere_to_retreat_is_destroyed() {
    let g = raid(1, false, false);
    assert_eq!(g.player(0).unwrap().bases, 1);
    assert!(
        g.cells()
            .iter()
            .filter(|c| c.building == Building::Base)
            .count()
            == 2
    );
    assert!(
        !g.player(0).unwrap().defeated,
        "its other base keeps it alive"
    );
}

#[test]
fn base_retreats_happen_after_all_completions_in_cell_order() {
    // Two bases of seat 0 at (1,0) and (3,0), both next to its only free cell (2,0)... and a third
    // base far away. Seats 1 and 2 take both base cells in the same tick: the lower cell's base
    // retreats first and takes (2,0); the other finds no room and is destroyed.
    let mut g = staged(
        (Variant::Conquest, 5, 3, 3),
        &[(0, 1, 0), (0, 3, 0), (0, 2, 2), (1, 0, 0), (2, 4, 0)],
        &[(0, 2, 0)],
    );
    g.step(&[A, attack(1, 0), attack(3, 0)]);
    assert_eq!(at(&g, 1, 0).done_at, at(&g, 3, 0).done_at);
    let d = at(&g, 1, 0).done_at;
    run(&mut g, &[], d - 1);
    assert_eq!((at(&g, 1, 0).owner, at(&g, 3, 0).owner), (2, 3));
    assert_eq!(at(&g, 2, 0).building, Building::Base);
    assert_eq!(g.player(0).unwrap().bases, 2);
    assert!(counts_match(&g));
}

#[test]
fn unfinished_base_on_a_taken_cell_is_lost() {
    let mut g = conquest(&[(0, 0, 4), (1, 3, 2)], &[(0, 2, 2)]);
    g.players[0].gold = Num::const_from_int(60);
    g.step(&[build(2, 2), A]);
    // The cell is fresh (taken_at 0, age 1): 33 s.
    run(&mut g, &[A, attack(2, 2)], 331);
    assert_eq!(at(&g, 2, 2).owner, 2);
    assert_eq!(at(&g, 2, 2).building, Building::None);
    assert_eq!(g.player(0).unwrap().all_bases(), 1);
    assert!(counts_match(&g));
}

#[test]
fn defeat_without_a_finished_base_clears_the_board_and_cancels_the_attack() {
    let mut g = conquest(&[(0, 2, 2), (1, 3, 2)], &[(0, 1, 1), (0, 0, 1)]);
    // Seat 0 attacks (1,0) while seat 1 takes its only base cell, which has nowhere to retreat.
    g.step(&[attack(1, 0), attack(2, 2)]);
    assert_eq!(at(&g, 1, 0).attacker, 1);
    let d = at(&g, 2, 2).done_at;
    run(&mut g, &[], d - 1);
    assert_eq!(g.tick(), d);
    let p = g.player(0).unwrap();
    assert!(p.defeated);
    assert_eq!(p.defeated_at, d);
    // Best attempt: 3 cells before the defeat.
    assert_eq!(p.best, 3);
    assert!(g.cells().iter().all(|c| c.owner != 1), "board cleared");
    assert_eq!(at(&g, 2, 2).building, Building::None);
    assert_eq!(at(&g, 1, 0).attacker, 0, "attack cancelled");
    assert!(p.is_idle());
    assert!(counts_match(&g));
}

#[test]
fn skirmish_defeat_when_no_cell_is_left() {
    let mut g = skirmish(&[(0, 2, 2), (1, 3, 2)]);
    run(&mut g, &[A, attack(2, 2)], 330);
    let p = g.player(0).unwrap();
    assert!(p.defeated);
    assert_eq!(p.defeated_at, 330);
    // No respawn in Skirmish, and the defeated seat no longer moves.
    run(&mut g, &[], 5);
    assert!(g.player(0).unwrap().defeated);
    assert!(!g.to_move().contains(0));
}

#[test]
fn tick_order_a_base_finishing_as_the_last_one_falls_saves_the_player() {
    // Rule 2 (builds finish) comes before rule 3 (defeats).
    let mut g = conquest(&[(0, 2, 2), (1, 3, 2)], &[(0, 0, 0)]);
    g.players[0].gold = Num::const_from_int(60);
    g.step(&[A, attack(2, 2)]); // tick 0: completes at 330
    run(&mut g, &[], 29);
    assert_eq!(g.tick(), 30);
    g.step(&[build(0, 0), A]); // finishes at 330
    run(&mut g, &[], 299);
    assert_eq!(g.tick(), 330);
    assert_eq!(at(&g, 2, 2).owner, 2);
    let p = g.player(0).unwrap();
    assert!(!p.defeated);
    assert_eq!(p.bases, 1);
    assert_eq!(at(&g, 0, 0).building, Building::Base);
}

// ---- Economy ----

#[test]
fn mines_give_half_a_unit_per_second_capped_at_100() {
    let mut g = conquest(&[(0, 2, 2), (1, 0, 0)], &[]);
    g.cells[g.index(2, 1).unwrap()].kind = Kind::Gold;
    g.cells[g.index(2, 3).unwrap()].kind = Kind::Energy;
    g.cells[g.index(1, 2).unwrap()].kind = Kind::Gold;
    own(&mut g, 0, 2, 1);
    own(&mut g, 0, 2, 3);
    own(&mut g, 0, 1, 2);
    run(&mut g, &[], 20);
    let p = g.player(0).unwrap();
    assert_eq!(p.gold.to_num::<i32>(), 32, "2 gold mines x 20 ticks x 0.05");
    assert!(p.gold >= Num::const_from_int(32));
    assert!(p.energy >= Num::const_from_int(1) && p.energy < Num::lit("1.001"));
    assert_eq!(g.player(1).unwrap().gold, Num::const_from_int(30));
    run(&mut g, &[], 2000);
    let p = g.player(0).unwrap();
    assert_eq!(p.gold, Num::const_from_int(100));
    assert_eq!(p.energy, Num::const_from_int(100));
}

#[test]
fn skirmish_has_no_income() {
    let mut g = skirmish(&[]);
    g.cells[g.index(2, 2).unwrap()].kind = Kind::Gold;
    own(&mut g, 0, 2, 2);
    own(&mut g, 1, 0, 0);
    run(&mut g, &[], 100);
    assert_eq!(g.player(0).unwrap().gold, Num::const_from_int(30));
}

// ---- Respawn, score and ranking ----

#[test]
fn respawn_the_tick_after_defeat_in_the_first_5_minutes_with_best_attempt_kept() {
    let mut g = staged(
        (Variant::Conquest, 6, 6, 2),
        &[(0, 2, 2), (1, 3, 2), (1, 5, 5)],
        &[(0, 0, 0), (0, 1, 0), (0, 0, 1)],
    );
    run(&mut g, &[A, attack(2, 2)], 330);
    let p = *g.player(0).unwrap();
    // The attempt scores what it held when defeated: its base cell was already lost.
    assert!(p.defeated && p.best == 3 && p.defeated_at == 330, "{p:?}");
    assert!(!g.to_move().contains(0));
    g.step(&[attack(0, 0), A]);
    assert!(
        g.player(0).unwrap().defeated,
        "not in the tick of its defeat"
    );
    assert!(g.to_move().contains(0), "it moves again at the next tick");
    let r = g.step(&[attack(0, 0), A]);
    let p = *g.player(0).unwrap();
    assert!(!p.defeated);
    assert_eq!((p.cells, p.bases, p.best), (1, 1, 3));
    assert_eq!(p.gold, Num::const_from_int(30));
    let start = g.cells().iter().position(|c| c.owner == 1).unwrap();
    assert_eq!(g.cells()[start].building, Building::Base);
    assert_eq!(g.cells()[start].taken_at, 331);
    // Its action of that tick was judged after the respawn.
    let adjacent = g.own_neighbours(0, g.index(0, 0).unwrap()) > 0;
    assert_eq!(r.refused[0], u16::from(!adjacent));
    assert_eq!(g.final_score(0), 3, "best of 3 and 1");
}

#[test]
fn no_respawn_after_the_first_5_minutes() {
    let mut g = staged(
        (Variant::Conquest, 6, 6, 2),
        &[(0, 2, 2), (1, 3, 2), (1, 5, 5)],
        &[],
    );
    run(&mut g, &[], 2990);
    let d = match g.plan(1, &attack(2, 2)) {
        Ok(Plan::Attack { ticks, .. }) => ticks,
        other => panic!("{other:?}"),
    };
    run(&mut g, &[A, attack(2, 2)], d);
    assert!(g.tick() >= RESPAWN_TICKS);
    assert!(g.player(0).unwrap().defeated);
    run(&mut g, &[], 3);
    assert!(g.player(0).unwrap().defeated);
    assert!(!g.to_move().contains(0));
}

#[test]
fn score_is_one_per_cell_and_ten_per_gold_mine() {
    let mut g = conquest(&[(0, 2, 2)], &[]);
    g.cells[g.index(2, 1).unwrap()].kind = Kind::Gold;
    g.cells[g.index(2, 3).unwrap()].kind = Kind::Energy;
    own(&mut g, 0, 2, 1);
    own(&mut g, 0, 2, 3);
    assert_eq!(g.score(0), 1 + 10 + 1);
}

fn finished(variant: Variant, seed: u64, setup: impl Fn(&mut ColorFight)) -> Outcome {
    let mut g = board(variant, 6, 6, 3);
    g.seed = seed;
    // After the respawn window, so that a defeat is final.
    g.tick = RESPAWN_TICKS;
    g.params.ticks = RESPAWN_TICKS + 10;
    setup(&mut g);
    run(&mut g, &[], 10);
    g.outcome().unwrap()
}

#[test]
fn conquest_ranking_alive_first_then_by_score() {
    let o = finished(Variant::Conquest, 0, |g| {
        put(
            g,
            &[(0, 0, 0), (1, 5, 5), (2, 0, 5)],
            &[(1, 4, 5), (1, 3, 5), (2, 1, 5)],
        );
        g.players[0].best = 50; // a better earlier attempt
        g.players[2].defeated = true;
        g.players[2].best = 90;
        g.players[2].defeated_at = 0;
    });
    assert_eq!(o.ranks(), &[0, 1, 2]);
    assert_eq!(o.scores(), &[50, 3, 90]);
}

#[test]
fn skirmish_ranking_by_cells_defeated_last_later_defeat_higher() {
    let o = finished(Variant::Skirmish, 0, |g| {
        put(g, &[], &[(0, 0, 0), (1, 5, 5), (1, 4, 5)]);
        g.players[2].defeated = true;
        g.players[2].defeated_at = 0;
    });
    assert_eq!(o.ranks(), &[1, 0, 2]);
    let mut g = board(Variant::Skirmish, 6, 6, 3);
    g.params.ticks = 400;
    own(&mut g, 0, 0, 0);
    own(&mut g, 0, 1, 0);
    own(&mut g, 1, 2, 0);
    own(&mut g, 2, 5, 5);
    own(&mut g, 2, 5, 4);
    // Seat 0 takes seat 1's cell at 330; seat 2 is never attacked.
    run(&mut g, &[attack(2, 0), A, A], 400);
    let o = g.outcome().unwrap();
    assert_eq!(o.ranks(), &[0, 2, 1]);
}

#[test]
fn ties_are_broken_by_a_seeded_draw() {
    let mut firsts = [0; 3];
    for seed in 0..30 {
        let setup = |g: &mut ColorFight| {
            base(g, 0, 0, 0);
            base(g, 1, 5, 5);
            base(g, 2, 0, 5);
        };
        let o = finished(Variant::Conquest, seed, setup);
        assert_eq!(o, finished(Variant::Conquest, seed, setup));
        let mut ranks = [0u8; 3];
        ranks.copy_from_slice(o.ranks());
        ranks.sort();
        assert_eq!(ranks, [0, 1, 2], "no shared rank");
        firsts[o.winner().unwrap()] += 1;
    }
    assert!(firsts.iter().all(|&f| f > 0), "{firsts:?}");
}

#[test]
fn game_ends_after_its_ticks_and_then_nothing_changes() {
    let mut g = ColorFight::new(
        &Params {
            ticks: 5,
            ..Params::default()
        },
        1,
    )
    .unwrap();
    run(&mut g, &[], 4);
    assert!(g.outcome().is_none());
    g.step(&[]);
    assert_eq!(g.tick(), 5);
    assert!(g.outcome().is_some());
    let d = g.digest();
    g.step(&[attack(0, 0); 4]);
    assert_eq!(g.digest(), d);
    assert!(g.to_move().is_empty());
}

// ---- Actions ----

#[test]
fn malformed_and_out_of_grid_actions_are_refused_and_counted() {
    let mut g = ColorFight::new(&Params::default(), 1).unwrap();
    let r = g.step(&[
        Action::Malformed,
        attack(i32::MAX, i32::MIN),
        build(-5, 3),
        Action::Pass,
    ]);
    assert_eq!(&r.refused[..4], &[1, 1, 1, 0]);
    // Fewer actions than seats: the rest pass.
    let r = g.step(&[]);
    assert_eq!(r.total_refused(), 0);
}

#[test]
fn state_fits_its_24_kb_budget() {
    assert!(core::mem::size_of::<ColorFight>() <= 24 * 1024);
}

/// A defeated seat with the higher score ranks below a survivor: the report must say why.
#[test]
fn conquest_decision_says_defeated_and_when() {
    let mut g = board(Variant::Conquest, 6, 6, 3);
    g.tick = RESPAWN_TICKS;
    g.params.ticks = RESPAWN_TICKS + 10;
    put(
        &mut g,
        &[(0, 0, 0), (1, 5, 5), (2, 0, 5)],
        &[(1, 4, 5), (1, 3, 5), (2, 1, 5)],
    );
    g.players[0].best = 103;
    g.players[2].defeated = true;
    g.players[2].best = 299;
    g.players[2].defeated_at = 312;
    run(&mut g, &[], 10);
    let why = g.decision().unwrap();
    assert_eq!(g.outcome().unwrap().ranks(), &[0, 1, 2]);
    crate::outcome::assert_says(
        &why,
        "seat 0 wins on score, 103 to 3",
        (2, "score 299 defeated t312"),
        "ranked by not defeated first, then score, then a seeded lot",
    );
}

#[test]
fn a_refusal_is_an_error_that_says_why() {
    use std::string::ToString;
    let error: &dyn core::error::Error = &Refusal::TooPoor;
    assert!(error.source().is_none());
    assert_eq!(error.to_string(), "too little gold");
}

// ---- The digest covers the whole state ----

/// One change of the state, by name.
type Change = (&'static str, fn(&mut ColorFight));

/// Each field of the state changed alone (cell 0 for the cells, seat 1 for the players).
const CF_CHANGES: &[Change] = &[
    ("variant", |g| {
        g.params.variant = match g.params.variant {
            Variant::Conquest => Variant::Skirmish,
            Variant::Skirmish => Variant::Conquest,
        }
    }),
    ("width", |g| g.params.width -= 1),
    ("height", |g| g.params.height -= 1),
    ("players", |g| g.params.players -= 1),
    ("ticks", |g| g.params.ticks += 1),
    ("respawn", |g| {
        g.params.respawn = match g.params.respawn {
            Respawn::Auto => Respawn::OnJoin,
            Respawn::OnJoin => Respawn::Auto,
        }
    }),
    ("seed", |g| g.seed ^= 1),
    ("tick", |g| g.tick += 1),
    ("cell's owner", |g| g.cells[0].owner ^= 1),
    ("cell's kind", |g| {
        g.cells[0].kind = match g.cells[0].kind {
            Kind::Normal => Kind::Gold,
            _ => Kind::Normal,
        }
    }),
    ("cell's building", |g| {
        g.cells[0].building = match g.cells[0].building {
            Building::None => Building::Base,
            _ => Building::None,
        }
    }),
    ("cell's attacker", |g| g.cells[0].attacker ^= 1),
    ("cell's taken at", |g| g.cells[0].taken_at += 1),
    ("cell's done at", |g| g.cells[0].done_at += 1),
    ("the last cell", |g| {
        let last = g.len() - 1;
        g.cells[last].taken_at += 1
    }),
    ("gold", |g| g.players[1].gold += Num::DELTA),
    ("energy", |g| g.players[1].energy += Num::DELTA),
    ("cells", |g| g.players[1].cells += 1),
    ("gold mines", |g| g.players[1].gold_mines += 1),
    ("energy mines", |g| g.players[1].energy_mines += 1),
    ("bases", |g| g.players[1].bases += 1),
    ("target", |g| g.players[1].target ^= 1),
    ("busy until", |g| g.players[1].busy_until += 1),
    ("build cell", |g| g.players[1].build_cell ^= 1),
    ("build done", |g| g.players[1].build_done += 1),
    ("next build", |g| g.players[1].next_build += 1),
    ("defeated", |g| {
        g.players[1].defeated = !g.players[1].defeated
    }),
    ("defeated at", |g| g.players[1].defeated_at += 1),
    ("best", |g| g.players[1].best += 1),
    ("the last player", |g| {
        let last = g.params.players as usize - 1;
        g.players[last].best += 1
    }),
    ("order rng", |g| {
        g.order_rng.next_u64();
    }),
    ("retreat rng", |g| {
        g.retreat_rng.next_u64();
    }),
    ("spawn rng", |g| {
        g.spawn_rng.next_u64();
    }),
];

/// Every field of the state, named, so that a field added to it fails to compile here until
/// [`CF_CHANGES`] changes it too.
#[allow(dead_code)]
fn every_field(g: &ColorFight) {
    let ColorFight {
        params:
            Params {
                variant: _,
                width: _,
                height: _,
                players: _,
                ticks: _,
                respawn: _,
            },
        seed: _,
        tick: _,
        cells,
        players,
        order_rng: _,
        retreat_rng: _,
        spawn_rng: _,
    } = g;
    let Cell {
        owner: _,
        kind: _,
        building: _,
        attacker: _,
        taken_at: _,
        done_at: _,
    } = cells[0];
    let Player {
        gold: _,
        energy: _,
        cells: _,
        gold_mines: _,
        energy_mines: _,
        bases: _,
        target: _,
        busy_until: _,
        build_cell: _,
        build_done: _,
        next_build: _,
        defeated: _,
        defeated_at: _,
        best: _,
    } = players[0];
}

#[test]
fn digest_changes_with_every_field_of_the_state() {
    // Mid-game: 100 ticks of three built-in bots on a 10 x 10 grid.
    let params = Params {
        width: 10,
        height: 10,
        players: 3,
        ..Params::default()
    };
    let mut base = ColorFight::new(&params, 5).unwrap();
    let mut bots: [ColorFightBot; 3] =
        core::array::from_fn(|s| ColorFight::bot(ColorFight::BOTS[s], s as u64).unwrap());
    for _ in 0..100 {
        crate::step_with_bots(&mut base, &mut bots);
    }
    assert!(!base.is_over());
    let mut missed = std::vec::Vec::new();
    for (name, change) in CF_CHANGES {
        let mut g = base.clone();
        change(&mut g);
        if g.digest() == base.digest() {
            missed.push(*name);
        }
    }
    assert!(missed.is_empty(), "the digest misses: {missed:?}");
}

#[test]
fn variants_and_respawn_modes_are_named_as_on_the_command_line() {
    for (v, name) in [
        (Variant::Conquest, "conquest"),
        (Variant::Skirmish, "skirmish"),
    ] {
        assert_eq!(v.name(), name);
        assert_eq!(Variant::from_name(name), Some(v));
    }
    for (r, name) in [(Respawn::Auto, "auto"), (Respawn::OnJoin, "join")] {
        assert_eq!(r.name(), name);
        assert_eq!(Respawn::from_name(name), Some(r));
    }
    assert_eq!(Variant::from_name("Conquest"), None);
    assert_eq!(Respawn::from_name(""), None);
}

#[test]
fn may_build_says_whether_a_base_could_be_built_now() {
    // One base and three free own cells: too poor at first, then rich enough.
    let mut g = conquest(&[(0, 0, 0), (1, 4, 4)], &[(0, 1, 0), (0, 2, 0), (0, 3, 0)]);
    assert!(!g.may_build(0), "30 gold, a base costs 60");
    g.players[0].gold = Num::const_from_int(100);
    assert!(g.may_build(0));
    assert!(g.plan(0, &build(1, 0)).is_ok());
    // Building: a second may not start before the cool-down.
    g.step(&[build(1, 0), A]);
    g.players[0].gold = Num::const_from_int(100);
    assert!(!g.may_build(0), "cool-down");
    // After the cool-down, two bases: a third may come, and then the limit of 3 is reached.
    run(&mut g, &[], 300);
    g.players[0].gold = Num::const_from_int(100);
    assert!(g.may_build(0), "two bases: a third may come");
    g.step(&[build(2, 0), A]);
    run(&mut g, &[], 300);
    g.players[0].gold = Num::const_from_int(100);
    assert_eq!(g.player(0).unwrap().all_bases(), 3);
    assert!(!g.may_build(0), "three bases");
    assert_eq!(g.plan(0, &build(3, 0)), Err(Refusal::BaseLimit));
    // No such seat; Skirmish builds nothing.
    assert!(!g.may_build(2));
    let mut g = skirmish(&[(0, 2, 2), (1, 0, 0)]);
    g.players[0].gold = Num::const_from_int(100);
    assert!(!g.may_build(0));
}

#[test]
fn a_game_keeps_its_seed_and_its_turn_is_the_tick() {
    for seed in [7, 1 << 40] {
        let mut g = ColorFight::new(&Params::default(), seed).unwrap();
        assert_eq!(g.seed(), seed);
        assert_eq!((g.turn(), g.tick()), (0, 0));
        run(&mut g, &[], 3);
        assert_eq!((g.turn(), g.tick()), (3, 3));
        assert_eq!(
            g.seed(),
            seed,
            "the seed is the set-up's, not a stream's state"
        );
    }
}

#[test]
fn a_grid_may_be_just_big_enough_for_its_players_not_smaller() {
    // 2 x 2 has no mines (2 % of 4 cells is 0): 4 players take a cell each, 5 do not fit.
    for variant in [Variant::Conquest, Variant::Skirmish] {
        let params = |players| Params {
            variant,
            width: 2,
            height: 2,
            players,
            ..Params::default()
        };
        let g = ColorFight::new(&params(4), 3).unwrap();
        assert!(g.players().iter().all(|p| p.cells == 1 && !p.defeated));
        assert!(g.cells().iter().all(|c| c.owner != 0));
        assert_eq!(
            ColorFight::new(&params(5), 3).err(),
            Some(SetupError::Invalid("grid too small for mines and players"))
        );
    }
}

/// `may_build` (what the bots ask before they build) says yes exactly when some cell would take
/// a build now: an own cell that nobody attacks and that holds no base.
#[test]
fn may_build_is_whether_some_cell_would_take_a_build() {
    let cells = |g: &ColorFight, seat: Seat| {
        let builds: std::vec::Vec<_> = (0..5)
            .flat_map(|y| (0..5).map(move |x| (x, y)))
            .filter(|&(x, y)| g.plan(seat, &build(x, y)).is_ok())
            .collect();
        builds
    };
    // Seat 0: its base at (0, 0) and one more cell, (1, 0); seat 1: its base and (1, 1).
    let mut g = conquest(&[(0, 0, 0), (1, 4, 4)], &[(0, 1, 0), (1, 1, 1)]);
    for seat in 0..2 {
        g.players[seat].gold = Num::const_from_int(100);
    }
    assert!(g.may_build(0));
    assert_eq!(cells(&g, 0), [(1, 0)]);
    // Seat 1 attacks (1, 0): seat 0's one cell without a base is being taken, the rest of the
    // grid is not its own.
    g.step(&[A, attack(1, 0)]);
    assert_eq!(at(&g, 1, 0).attacker, 2, "seat 1 attacks (1, 0)");
    assert!(!g.may_build(0));
    assert_eq!(cells(&g, 0), []);
    assert_eq!(g.plan(0, &build(1, 0)), Err(Refusal::BeingTaken));
    assert_eq!(g.plan(0, &build(0, 0)), Err(Refusal::HasBase));
    assert_eq!(g.plan(0, &build(2, 2)), Err(Refusal::NotOwn));
    // Seat 1, busy attacking, may still build on (1, 1).
    assert!(g.may_build(1));
    assert_eq!(cells(&g, 1), [(1, 1)]);
}

/// `rebuild` (a state as a protocol describes it) takes the described state whole, seed 0, and
/// refuses, changing nothing, cells that are not `width * height` (both at least 2) or over
/// `MAX_CELLS`, and players not `params.players` or outside 2..=8.
#[test]
fn rebuild_takes_a_described_state_and_refuses_what_no_game_could_be() {
    let mut src = conquest(&[(0, 0, 0), (1, 4, 4)], &[(0, 1, 0), (1, 3, 4)]);
    run(&mut src, &[attack(2, 0), attack(2, 4)], 12);
    let mut g = ColorFight::new(&Params::default(), 99).unwrap();
    g.rebuild(src.params(), 12, src.cells(), src.players())
        .unwrap();
    assert_eq!((g.params(), g.tick(), g.seed()), (src.params(), 12, 0));
    assert_eq!((g.width(), g.height()), (5, 5));
    assert_eq!(g.cells(), src.cells());
    assert_eq!(g.players(), src.players());

    const CELLS: SetupError = SetupError::Invalid("cells are not width x height, both at least 2");
    const MANY: SetupError = SetupError::Capacity("more than MAX_CELLS cells");
    const PLAYERS: SetupError = SetupError::Invalid("2 to 8 players, as many as params.players");
    let cells = std::vec![Cell::default(); 33 * 32];
    let players = [Player::start(0); MAX_PLAYERS + 1];
    // (width, height, cells given, params.players, players given): what rebuild answers.
    type Case = ((u16, u16, usize, u8, usize), Result<(), SetupError>);
    let cases: [Case; 14] = [
        ((2, 2, 4, 2, 2), Ok(())),
        ((3, 2, 6, 2, 2), Ok(())),
        ((1, 4, 4, 2, 2), Err(CELLS)),
        ((4, 1, 4, 2, 2), Err(CELLS)),
        ((2, 2, 5, 2, 2), Err(CELLS)),
        ((2, 2, 3, 2, 2), Err(CELLS)),
        ((32, 32, 1024, 2, 2), Ok(())),
        ((33, 32, 33 * 32, 2, 2), Err(MANY)),
        ((2, 2, 4, 1, 1), Err(PLAYERS)),
        ((2, 2, 4, 0, 0), Err(PLAYERS)),
        ((2, 2, 4, 8, 8), Ok(())),
        ((2, 2, 4, 9, 9), Err(PLAYERS)),
        ((2, 2, 4, 3, 2), Err(PLAYERS)),
        ((2, 2, 4, 2, 3), Err(PLAYERS)),
    ];
    for ((width, height, n_cells, n, n_players), want) in cases {
        let params = Params {
            variant: Variant::Skirmish,
            width,
            height,
            players: n,
            ..Params::default()
        };
        let mut g = src.clone();
        let before = g.digest();
        let got = g.rebuild(&params, 5, &cells[..n_cells], &players[..n_players]);
        let case = (width, height, n_cells, n, n_players);
        assert_eq!(got, want, "{case:?}");
        if want.is_ok() {
            assert_eq!((g.params(), g.tick()), (&params, 5), "{case:?}");
            assert_eq!((g.cells().len(), g.players().len()), (n_cells, n_players));
        } else {
            assert_eq!(g.digest(), before, "{case:?}: refused, nothing changed");
        }
    }
}

// ---- The sample of the files the full mutation run did not reach (docs/reliability.md) ----

#[test]
fn the_strategist_values_a_base_on_an_enemy_cell_not_the_enemy_cell_itself() {
    // Three by two: an enemy cell at (0,0), the strategist's base at (1,0), an enemy base at
    // (2,0), the strategist's cells below. Both targets are as quick to take (enemy cells of the
    // same age, two own neighbours each); only the base makes one worth more (its 40 over a plain
    // cell's 3), so the strategist goes for it, though the plain cell comes first in cell order
    // (which breaks ties).
    let mut g = staged(
        (Variant::Conquest, 3, 2, 2),
        &[(0, 1, 0), (1, 2, 0)],
        &[(1, 0, 0), (0, 0, 1), (0, 1, 1), (0, 2, 1)],
    );
    let (a, b) = (g.plan(0, &attack(0, 0)), g.plan(0, &attack(2, 0)));
    let (Ok(Plan::Attack { ticks: ta, .. }), Ok(Plan::Attack { ticks: tb, .. })) = (a, b) else {
        panic!("both are attackable: {a:?} {b:?}");
    };
    assert_eq!(ta, tb);
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), attack(2, 0));
    // Without the base, the first of the two equal cells.
    let i = g.index(2, 0).unwrap();
    g.cells[i].building = Building::None;
    g.players[1].bases = 0;
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), attack(0, 0));
}

#[test]
fn late_in_the_game_the_strategist_walks_towards_an_enemys_lone_base_not_its_own() {
    // Four by two, 10 minutes in (respawns are over): the strategist's only base at (1,0) with
    // (1,1), the enemy's only base at (3,0). Its four neutral neighbours take as long; the one
    // nearest the enemy's lone base, (2,0), is worth most (3 + 4 x (10 - 1)).
    let mut g = staged(
        (Variant::Conquest, 4, 2, 2),
        &[(0, 1, 0), (1, 3, 0)],
        &[(0, 1, 1)],
    );
    let times: std::vec::Vec<u32> = [(0, 0), (0, 1), (2, 0), (2, 1)]
        .iter()
        .map(|&(x, y)| match g.plan(0, &attack(x, y)) {
            Ok(Plan::Attack { ticks, .. }) => ticks,
            other => panic!("({x},{y}): {other:?}"),
        })
        .collect();
    assert!(times.iter().all(|&t| t == times[0]), "{times:?}");
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    g.tick = RESPAWN_TICKS;
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), attack(2, 0));
    // Before the hunt, all four are worth the same: the first in cell order.
    g.tick = RESPAWN_TICKS - 601;
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), attack(0, 0));
}

#[test]
fn the_strategist_builds_a_base_once_rich_enough_and_its_cool_down_is_over() {
    let mut g = conquest(&[(0, 0, 0), (1, 4, 4)], &[(0, 1, 0), (0, 0, 1), (0, 1, 1)]);
    g.players[0].gold = Num::const_from_int(BASE_COST as i64);
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    let is_build = |a: Action| matches!(a, Action::Build { .. });
    // The cool-down ends on tick 0 (a fresh player's): it builds on tick 0.
    assert_eq!(g.players[0].next_build, 0);
    let a = crate::Bot::act(&mut bot, &g.view(0));
    assert!(is_build(a) && g.plan(0, &a).is_ok(), "{a:?}");
    // One tick before the cool-down ends: no build.
    g.players[0].next_build = 1;
    assert!(!is_build(crate::Bot::act(&mut bot, &g.view(0))));
}

#[test]
fn the_strategist_builds_deep_inside_its_land() {
    // Its base at (0,0) and a 3 x 3 block of land: (1,1) has four own neighbours (the most),
    // and is 2 from the base.
    let owned: std::vec::Vec<(Seat, i32, i32)> = (0..3)
        .flat_map(|x| (0..3).map(move |y| (0, x, y)))
        .filter(|&(_, x, y)| (x, y) != (0, 0))
        .collect();
    let mut g = conquest(&[(0, 0, 0), (1, 4, 4)], &owned);
    g.players[0].gold = Num::const_from_int(BASE_COST as i64);
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), build(1, 1));
}

#[test]
fn buildings_are_named_as_in_the_servers_json() {
    for (b, name) in [
        (Building::None, "none"),
        (Building::Base, "base"),
        (Building::Building, "building"),
    ] {
        assert_eq!(b.name(), name);
    }
}

// ---- The full run resumed (2026-12-07): the misses of colorfight (docs/reliability.md) ----

#[test]
fn random_draws_its_build_coin_only_when_it_could_build() {
    // `random` draws from its own seeded stream (`Rng::stream(seed, "colorfight/random")`): a
    // coin (1 in 4) to build a base, only when one could be built now, then which of the cells
    // it may attack (uniformly, in cell order). Its base at (0,0) and (1,0): it may attack
    // both and their three neighbours.
    let mut g = conquest(&[(0, 0, 0), (1, 4, 4)], &[(0, 1, 0)]);
    let by_index: std::vec::Vec<Action> = (0..g.cells().len())
        .map(|i| {
            let (x, y) = g.coords(i);
            attack(x, y)
        })
        .filter(|a| g.plan(0, a).is_ok())
        .collect();
    assert_eq!(by_index.len(), 5);
    let first_pick = |seed: u64| {
        let mut rng = crate::rng::Rng::stream(seed, b"colorfight/random");
        by_index[rng.index(by_index.len()).unwrap()]
    };
    let act = |g: &ColorFight, seed: u64| {
        let mut bot = ColorFightBot::new("random", seed).unwrap();
        crate::Bot::act(&mut bot, &g.view(0))
    };
    // Too poor to build (30 gold, a base costs 60): no coin, the first draw picks the cell.
    assert!(!g.may_build(0));
    for seed in 0..16 {
        assert_eq!(act(&g, seed), first_pick(seed), "poor, seed {seed}");
    }
    // Rich enough but cooling down, or holding as many bases as allowed: the same.
    g.players[0].gold = Num::const_from_int(BASE_COST as i64);
    for (next_build, bases) in [(1, 1), (0, MAX_BASES)] {
        g.players[0].next_build = next_build;
        g.players[0].bases = bases;
        assert!(!g.may_build(0));
        for seed in 0..16 {
            assert_eq!(act(&g, seed), first_pick(seed), "seed {seed}");
        }
    }
    // It could build: the coin comes first; some seeds build, the others attack.
    g.players[0].next_build = 0;
    g.players[0].bases = 1;
    assert!(g.may_build(0));
    let builds = (0..32)
        .map(|seed| act(&g, seed))
        .filter(|a| matches!(a, Action::Build { .. }))
        .count();
    assert!((1..32).contains(&builds), "{builds} builds of 32");
}

#[test]
fn the_strategist_builds_as_far_as_it_can_from_its_own_bases() {
    // Its base at (0,0) and the row (1,0)..(4,0); the enemy's base at (4,4). (1,0), (2,0) and
    // (3,0) have two own neighbours each, (4,0) one: among the three, the farthest from its
    // base, (3,0) (3 away), not the nearest to the enemy's base or the first in cell order.
    let mut g = conquest(
        &[(0, 0, 0), (1, 4, 4)],
        &[(0, 1, 0), (0, 2, 0), (0, 3, 0), (0, 4, 0)],
    );
    g.players[0].gold = Num::const_from_int(BASE_COST as i64);
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), build(3, 0));
    // A second base of its own at (4,0): (1,0) and (3,0) are now 1 from a base, (2,0) 2.
    let i = g.index(4, 0).unwrap();
    g.cells[i].building = Building::Base;
    g.players[0].bases = 2;
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), build(2, 0));
}

#[test]
fn the_strategist_values_energy_cells_while_its_energy_is_below_80() {
    // Its base at (0,0), with (1,0), (0,1) and (2,1): the neutral (1,1) has three own
    // neighbours, the neutral energy cell (3,1) one, so (3,1) takes about twice as long
    // (surround factor 1 against 1/2). Energy below 80: an energy cell is worth 20, over a plain
    // cell's 3, worth the time: (3,1). From 80 on it is worth 4: (1,1), the quicker.
    let mut g = conquest(&[(0, 0, 0), (1, 4, 4)], &[(0, 1, 0), (0, 0, 1), (0, 2, 1)]);
    let e = g.index(3, 1).unwrap();
    g.cells[e].kind = Kind::Energy;
    let ticks = |g: &ColorFight, x, y| match g.plan(0, &attack(x, y)) {
        Ok(Plan::Attack { ticks, .. }) => ticks,
        other => panic!("({x},{y}): {other:?}"),
    };
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    for (energy, want) in [
        (0, attack(3, 1)),
        (79, attack(3, 1)),
        (80, attack(1, 1)),
        (100, attack(1, 1)),
    ] {
        g.players[0].energy = Num::const_from_int(energy);
        let (plain, energy_cell) = (ticks(&g, 1, 1), ticks(&g, 3, 1));
        assert!(
            (2 * plain - 1..=2 * plain).contains(&energy_cell),
            "{plain} {energy_cell}"
        );
        assert_eq!(
            crate::Bot::act(&mut bot, &g.view(0)),
            want,
            "energy {energy}"
        );
    }
}

#[test]
fn the_strategist_defends_a_threatened_base_once_its_defence_has_decayed() {
    // Its base at (0,0), the enemy's cell (1,0) beside it (the enemy's base at (2,0)), tick
    // 1,000. A base of its own with an enemy beside it is worth 60 once taken more than 450
    // ticks ago (the time its defence takes to decay): the strategist attacks its own base to
    // defend it. Taken 450 ticks ago, or a plain cell of its own: worth nothing, it attacks
    // elsewhere: the neutral (0,1), as much worth as the enemy's cell and quicker to take.
    let mut g = conquest(&[(0, 0, 0), (1, 2, 0)], &[(1, 1, 0)]);
    g.tick = 1_000;
    let ticks = |g: &ColorFight, x, y| match g.plan(0, &attack(x, y)) {
        Ok(Plan::Attack { ticks, .. }) => ticks,
        other => panic!("({x},{y}): {other:?}"),
    };
    assert!(ticks(&g, 0, 1) < ticks(&g, 1, 0));
    let home = g.index(0, 0).unwrap();
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    for (age, want) in [
        (451, attack(0, 0)),
        (450, attack(0, 1)),
        (1_000, attack(0, 0)),
    ] {
        g.cells[home].taken_at = 1_000 - age;
        assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), want, "age {age}");
    }
    g.cells[home].building = Building::None;
    g.players[0].bases = 0;
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), attack(0, 1));
}

#[test]
fn the_strategist_passes_rather_than_attack_a_cell_worth_nothing() {
    // A 2 x 2 grid all its own, its base at (0,0) and no enemy beside it: it may attack each
    // of its cells, none worth anything. It passes.
    let g = staged(
        (Variant::Conquest, 2, 2, 2),
        &[(0, 0, 0)],
        &[(0, 1, 0), (0, 0, 1), (0, 1, 1)],
    );
    assert!(g.plan(0, &attack(1, 1)).is_ok());
    let mut bot = ColorFightBot::new("strategist", 0).unwrap();
    assert_eq!(crate::Bot::act(&mut bot, &g.view(0)), Action::Pass);
}

#[test]
fn kinds_are_named_as_in_the_servers_json() {
    for (k, name) in [
        (Kind::Normal, "normal"),
        (Kind::Gold, "gold"),
        (Kind::Energy, "energy"),
    ] {
        assert_eq!(k.name(), name);
    }
}

#[test]
fn a_cell_tells_its_owners_and_attackers_seat_and_a_player_its_target() {
    // Tags are seat + 1, 0 for nobody.
    for (tag, seat) in [(0u8, None), (1, Some(0)), (3, Some(2)), (8, Some(7))] {
        let c = Cell {
            owner: tag,
            attacker: tag,
            ..Cell::EMPTY
        };
        assert_eq!(
            (c.owner_seat(), c.attacker_seat()),
            (seat, seat),
            "tag {tag}"
        );
    }
    // Player 0 attacks (3,2), cell 13 of a 5 x 5 grid: the cell shows it, the player too.
    let mut g = conquest(&[(0, 2, 2), (1, 4, 4)], &[]);
    let target = g.index(3, 2).unwrap();
    assert_eq!(target, 13);
    assert_eq!(g.player(0).unwrap().attacking(), None, "idle");
    g.step(&[attack(3, 2), A]);
    assert_eq!(g.player(0).unwrap().attacking(), Some(target));
    assert_eq!(g.cell(target).unwrap().attacker_seat(), Some(0));
    // Defeated, its attack is cancelled: the cell is no longer attacked.
    g.defeat(0);
    assert_eq!(g.player(0).unwrap().attacking(), None);
    let c = g.cell(target).unwrap();
    assert_eq!((c.attacker_seat(), c.done_at), (None, 0));
}
