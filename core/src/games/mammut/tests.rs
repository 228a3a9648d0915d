//! One test per rule of `rules/mammut.md`, named after it, with the seed text's worked examples.

use super::scoring::*;
use super::tiles::*;
use super::*;
use crate::game::{Bot, Game, Roster};

/// A game with seat `s` holding id `s + 1`, round 1 first player seat 0, every tile in the middle
/// with its first side up and named by its index in [`TILES`] ([`Deal::identity`]), so that tests
/// can deal exactly the hands they need.
fn table() -> Mammut {
    let mut g = Mammut::new(&Params, 1).unwrap();
    g.ids = [1, 2, 3, 4, 5];
    g.deal = Deal::identity(0);
    g.first = 0;
    g.mover = 0;
    g
}

/// Moves `n` unused tiles that can show `side` into `seat`'s hand, showing `side`. Mystery tiles
/// are only used when asking for Mystery; the tie-breaker tile only for its own sides.
fn give(g: &mut Mammut, seat: Seat, side: Side, n: usize) {
    let mut left = n;
    for tile in g.middle.iter() {
        if left == 0 {
            break;
        }
        let sides = TILES[tile as usize];
        let mystery = sides[0] == Side::Mystery;
        if mystery != (side == Side::Mystery) && side != sides[1] {
            continue;
        }
        if mystery && side != Side::Mystery && side == sides[1] {
            continue;
        }
        let up = if sides[0] == side {
            0
        } else if sides[1] == side {
            1
        } else {
            continue;
        };
        set_face(g, tile, up);
        g.middle = g.middle.without(tile);
        g.hands[seat] = g.hands[seat].with(tile);
        left -= 1;
    }
    assert_eq!(left, 0, "not enough tiles showing {side:?}");
}

/// Turns the tile with id `tile` to its first (`up` 0) or second side.
fn set_face(g: &mut Mammut, tile: u8, up: u32) {
    let faces = (g.deal.faces() & !(1 << tile)) | (up << tile);
    g.deal = Deal::new(*g.deal.kinds(), faces);
}

/// Puts the tie-breaker tile in `seat`'s hand (or leaves it in the middle), showing a direction.
fn tie(g: &mut Mammut, seat: Option<Seat>, clockwise: bool) {
    set_face(g, TIE_TILE, u32::from(!clockwise));
    if let Some(s) = seat {
        g.middle = g.middle.without(TIE_TILE);
        g.hands[s] = g.hands[s].with(TIE_TILE);
    }
}

/// The seat of player `id` on [`table`].
/// [`give`] for each `(id, side, n)`.
fn gives(g: &mut Mammut, hands: &[(u8, Side, usize)]) {
    for &(who, side, n) in hands {
        give(g, id(who), side, n);
    }
}

fn id(id: u8) -> Seat {
    id as Seat - 1
}

/// Plays `action` for whoever is to move; returns whether it was refused.
fn act(g: &mut Mammut, action: Action) -> bool {
    let seat = g.mover().expect("game over");
    let mut actions = [Action::Nothing; PLAYERS];
    actions[seat] = action;
    g.step(&actions).refused[seat] > 0
}

fn take(tiles: &[u8]) -> Action {
    Action::Take(tiles.iter().fold(TileSet::EMPTY, |s, &t| s.with(t)))
}

fn steal(victim: Seat, put_back: u8) -> Action {
    Action::Steal {
        victim: victim as u8,
        put_back,
    }
}

fn conserved(g: &Mammut) -> bool {
    let mut seen = g.middle.0;
    for h in g.hands {
        if seen & h.0 != 0 {
            return false;
        }
        seen |= h.0;
    }
    seen == u32::MAX
}

// ---- Tiles ----

#[test]
fn tiles_32_each_with_two_different_sides_of_15_types() {
    assert_eq!(TILES.len(), 32);
    let mut types = [false; SIDE_TYPES];
    for sides in TILES {
        assert_ne!(sides[0], sides[1]);
        types[sides[0].index()] = true;
        types[sides[1].index()] = true;
    }
    assert!(
        types.iter().all(|&t| t),
        "every one of the 15 types appears"
    );
    assert_eq!(TILES[0], [Side::Clockwise, Side::CounterClockwise]);
    assert_eq!(TILES[31], [Side::Fire, Side::Axe]);
    for side in Side::ALL {
        assert_eq!(Side::from_name(side.name()), Some(side));
    }
}

#[test]
fn tiles_each_animal_exactly_once() {
    for animal in Side::ALL.iter().filter(|s| s.is_animal()) {
        let n = TILES.iter().flatten().filter(|s| *s == animal).count();
        assert_eq!(n, 1, "{animal:?}");
    }
    let bits = Side::ALL.iter().fold(0u8, |a, s| a | s.animal_bit());
    assert_eq!(bits.count_ones() as usize, tiles::ANIMALS);
}

#[test]
fn tiles_mystery_other_side_is_neither_mystery_nor_animal() {
    let mut n = 0;
    for (i, sides) in TILES.iter().enumerate() {
        if sides.contains(&Side::Mystery) {
            n += 1;
            assert_eq!(sides[0], Side::Mystery);
            assert!(!sides[1].is_animal() && sides[1] != Side::Mystery);
            assert!(MYSTERY_TILES.contains(i as u8));
        }
    }
    assert_eq!(n, 6);
    assert_eq!(MYSTERY_TILES.len(), 6);
}

#[test]
fn tiles_random_sides_each_round_from_the_seed() {
    let a = Mammut::new(&Params, 9).unwrap();
    let b = Mammut::new(&Params, 9).unwrap();
    let c = Mammut::new(&Params, 10).unwrap();
    assert_eq!(a.faces(), b.faces());
    assert_ne!(a.faces(), c.faces());
    assert_eq!(a.middle(), TileSet::ALL, "every tile starts in the middle");
    let mut g = a.clone();
    g.end_round();
    assert_eq!(g.round(), 2);
    assert_eq!(g.middle(), TileSet::ALL);
    assert_ne!(g.faces(), a.faces(), "new sides for round 2");
    // Over many rounds, every tile shows each side sometimes.
    let mut ones = 0u32;
    let mut zeros = 0u32;
    for seed in 0..20 {
        let g = Mammut::new(&Params, seed).unwrap();
        ones |= g.faces();
        zeros |= !g.faces();
    }
    assert_eq!((ones, zeros), (u32::MAX, u32::MAX));
}

#[test]
fn tiles_ids_are_dealt_at_random_each_round() {
    // An id tells nothing of the tile it names: ids are dealt to the physical tiles anew every
    // round, so over games and rounds id 8 names many tiles and every id is sometimes a Mystery.
    let mut named_by_8 = TileSet::EMPTY;
    let mut mystery_ids = TileSet::EMPTY;
    for seed in 0..40 {
        let mut g = Mammut::new(&Params, seed).unwrap();
        for _ in 0..3 {
            let kinds = *g.deal().kinds();
            let mut sorted = kinds;
            sorted.sort();
            assert_eq!(
                sorted,
                *Deal::identity(0).kinds(),
                "a permutation of the tiles"
            );
            named_by_8 = named_by_8.with(kinds[8]);
            mystery_ids = mystery_ids.union(g.deal().mystery());
            assert_eq!(g.deal().mystery().len(), MYSTERY_TILES.len());
            assert_eq!(g.deal().sides(g.tie_tile()), Some(TILES[TIE_TILE as usize]));
            g.end_round();
            assert_ne!(*g.deal().kinds(), kinds, "new ids for the next round");
        }
    }
    assert!(
        named_by_8.len() > 20,
        "id 8 named {} tiles",
        named_by_8.len()
    );
    assert!(
        mystery_ids.len() > 28,
        "{} ids were Mystery",
        mystery_ids.len()
    );
}

#[test]
fn tiles_a_mystery_tile_id_does_not_give_its_other_side_away() {
    // The public view of finished games: what id 8 shows once turned. With the tile list's order
    // as ids it was always Fire (Mystery|Fire); dealt at random, it is anything.
    let mut shown = [false; SIDE_TYPES];
    for seed in 0..30 {
        let mut g = Mammut::new(&Params, seed).unwrap();
        let mut bots: [MammutBot; PLAYERS] =
            core::array::from_fn(|s| MammutBot::by_name("random", seed * 5 + s as u64).unwrap());
        while !g.is_over() {
            crate::game::step_with_bots(&mut g, &mut bots);
        }
        shown[g.visible(8).unwrap().index()] = true;
    }
    assert!(shown.iter().filter(|&&s| s).count() >= 4, "{shown:?}");
}

#[test]
fn bots_cannot_tell_a_mystery_tiles_other_side() {
    // Two games alike in everything a player sees, whose Mystery tiles hide different sides:
    // every built-in bot plays the same in both, at every step of a round.
    for seed in 0..12 {
        let a = Mammut::new(&Params, seed).unwrap();
        let kinds = *a.deal().kinds();
        let mystery = |id: &usize| MYSTERY_TILES.contains(kinds[*id]);
        // Two Mystery ids whose hidden sides differ, both showing Mystery.
        let (i, j) = (0..TILE_COUNT)
            .filter(mystery)
            .flat_map(|i| (0..TILE_COUNT).filter(mystery).map(move |j| (i, j)))
            .find(|&(i, j)| TILES[kinds[i] as usize][1] != TILES[kinds[j] as usize][1])
            .unwrap();
        let faces = a.deal().faces() & !(1 << i) & !(1 << j);
        let mut a = a;
        a.deal = Deal::new(kinds, faces);
        let mut b = a.clone();
        let mut swapped = kinds;
        swapped.swap(i, j);
        b.deal = Deal::new(swapped, faces);
        // The two games differ in what id i turns out to be at scoring.
        assert_ne!(
            a.deal().revealed().visible(i as u8),
            b.deal().revealed().visible(i as u8)
        );
        for name in Mammut::BOTS {
            let (mut a, mut b) = (a.clone(), b.clone());
            let mut bot_a = MammutBot::by_name(name, seed).unwrap();
            let mut bot_b = MammutBot::by_name(name, seed).unwrap();
            while a.round() == 1 && !a.is_over() {
                let seat = a.mover().unwrap();
                let (x, y) = (bot_a.act(&a.view(seat)), bot_b.act(&b.view(seat)));
                assert_eq!(
                    x, y,
                    "{name}, seed {seed}: the hidden side changed its move"
                );
                let mut acts = [Action::Nothing; PLAYERS];
                acts[seat] = x;
                a.step(&acts);
                b.step(&acts);
            }
        }
    }
}

// ---- Players, ids and order ----

#[test]
fn ids_distinct_1_to_5_from_the_seed() {
    let mut seen_first_seat_ids = [false; PLAYERS];
    for seed in 0..50 {
        let g = Mammut::new(&Params, seed).unwrap();
        let mut ids = *g.ids();
        ids.sort();
        assert_eq!(ids, [1, 2, 3, 4, 5]);
        seen_first_seat_ids[g.ids()[0] as usize - 1] = true;
    }
    assert!(seen_first_seat_ids.iter().all(|&s| s), "ids are shuffled");
}

#[test]
fn order_clockwise_and_counter_clockwise_from_an_id() {
    // Seed text: from id 3, clockwise [3, 4, 5, 1, 2], counter-clockwise [3, 2, 1, 5, 4].
    let ids = [2, 5, 3, 1, 4]; // seat -> id
    let seat3 = seat_of(&ids, 3).unwrap();
    let as_ids = |o: Order| o.map(|s| ids[s as usize]);
    assert_eq!(as_ids(order_from(&ids, seat3, true)), [3, 4, 5, 1, 2]);
    assert_eq!(as_ids(order_from(&ids, seat3, false)), [3, 2, 1, 5, 4]);
}

#[test]
fn round_one_starts_with_id_1() {
    // "The player with ID 1 will start the game": ids are drawn at random, so that is the random
    // first player, and always the player with id 1.
    let mut seen = [false; PLAYERS];
    for seed in 0..300 {
        let g = Mammut::new(&Params, seed).unwrap();
        assert_eq!(g.mover(), Some(g.first_player()));
        assert_eq!(g.ids()[g.first_player()], 1, "seed {seed}");
        seen[g.first_player()] = true;
    }
    assert!(seen.iter().all(|&s| s), "every seat starts in some game");
}

#[test]
fn later_rounds_start_with_the_most_fur_points() {
    let mut g = table();
    gives(&mut g, &[(4, Side::Fur, 2), (2, Side::Fur, 1)]);
    g.end_round();
    assert_eq!(g.furs()[id(4)], 2);
    assert_eq!(g.furs()[id(2)], 1);
    assert_eq!(g.mover(), Some(id(4)));
    assert_eq!(g.first_player(), id(4));
    // Cumulative: id 2 gets 2 more in round 2 and leads with 3 (the round's ids named as in
    // `table`, so that `give` finds the tiles).
    g.deal = Deal::identity(0);
    give(&mut g, id(2), Side::Fur, 2);
    g.end_round();
    assert_eq!(g.furs()[id(2)], 3);
    assert_eq!(g.first_player(), id(2));
}

#[test]
fn later_rounds_fur_point_ties_go_by_the_previous_tie_order() {
    for (clockwise, starter) in [(true, 3), (false, 1)] {
        let mut g = table();
        gives(&mut g, &[(1, Side::Fur, 1), (3, Side::Fur, 1)]);
        // Tie order from id 2: clockwise 2,3,4,5,1 (3 first); counter-clockwise 2,1,5,4,3 (1 first).
        tie(&mut g, Some(id(2)), clockwise);
        g.end_round();
        assert_eq!(g.first_player(), id(starter), "clockwise {clockwise}");
    }
}

// ---- A round ----

#[test]
fn round_only_empty_handed_players_act_clockwise() {
    let mut g = table();
    assert!(!act(&mut g, take(&[5, 6])));
    assert_eq!(g.mover(), Some(id(2)));
    assert!(!act(&mut g, take(&[7])));
    assert_eq!(g.mover(), Some(id(3)));
    // Id 3 steals from id 1: the next empty-handed player clockwise from id 3 is 4, then 5, then 1.
    assert!(!act(&mut g, steal(id(1), 5)));
    assert_eq!(g.hand(id(3)), TileSet::only(6));
    assert_eq!(g.mover(), Some(id(4)));
    assert!(!act(&mut g, take(&[8])));
    assert!(!act(&mut g, take(&[9])));
    assert_eq!(
        g.mover(),
        Some(id(1)),
        "id 2 and id 3 hold tiles and are skipped"
    );
    assert!(!act(&mut g, take(&[10])));
    // Everyone holds a tile: the round is scored and round 2 is dealt.
    assert_eq!(g.round(), 2);
    assert!(g.hands().iter().all(|h| h.is_empty()));
    assert!(conserved(&g));
}

#[test]
fn round_take_any_number_of_tiles() {
    let mut g = table();
    let all: [u8; 31] = core::array::from_fn(|i| i as u8 + 1);
    assert!(!act(&mut g, take(&all)));
    assert_eq!(g.hand(0).len(), 31);
    assert_eq!(g.middle(), TileSet::only(TIE_TILE));
    assert_eq!(g.actions(), 1);
}

#[test]
fn round_illegal_takes_are_refused() {
    let mut g = table();
    assert_eq!(g.legal(0, &take(&[])), Err(Refusal::TakeNothing));
    assert_eq!(g.legal(0, &Action::Nothing), Err(Refusal::NoAction));
    assert_eq!(g.legal(1, &take(&[3])), Err(Refusal::NotYourTurn));
    act(&mut g, take(&[3]));
    assert_eq!(g.legal(1, &take(&[3, 4])), Err(Refusal::NotInMiddle));
    assert_eq!(g.legal(1, &take(&[4])), Ok(()));
}

#[test]
fn round_steal_takes_all_and_puts_exactly_one_back() {
    let mut g = table();
    act(&mut g, take(&[3, 4, 5]));
    assert!(!act(&mut g, steal(0, 4)));
    assert_eq!(g.hand(0), TileSet::EMPTY);
    assert_eq!(g.hand(1), TileSet::only(3).with(5));
    assert!(g.middle().contains(4));
    assert!(conserved(&g));
}

#[test]
fn round_stealing_a_single_tile_gains_nothing_and_empties_the_victim() {
    let mut g = table();
    act(&mut g, take(&[3]));
    assert!(!act(&mut g, steal(0, 3)));
    assert!(g.hand(0).is_empty() && g.hand(1).is_empty());
    assert!(g.middle().contains(3));
    // Id 2 is still empty-handed: it acts again after 3, 4, 5 and 1.
    for t in [4, 5, 6, 7] {
        act(&mut g, take(&[t]));
    }
    assert_eq!(g.mover(), Some(id(2)));
}

#[test]
fn round_illegal_steals_are_refused() {
    let mut g = table();
    act(&mut g, take(&[3, 4]));
    assert_eq!(g.legal(1, &steal(2, 3)), Err(Refusal::EmptyVictim));
    assert_eq!(g.legal(1, &steal(1, 3)), Err(Refusal::NoSuchVictim));
    assert_eq!(g.legal(1, &steal(9, 3)), Err(Refusal::NoSuchVictim));
    assert_eq!(g.legal(1, &steal(0, 5)), Err(Refusal::PutBackNotStolen));
    assert_eq!(g.legal(1, &steal(0, 200)), Err(Refusal::PutBackNotStolen));
    assert_eq!(g.legal(1, &steal(0, 4)), Ok(()));
}

#[test]
fn round_empty_middle_forces_a_steal() {
    let mut g = table();
    let all: [u8; 32] = core::array::from_fn(|i| i as u8);
    act(&mut g, take(&all));
    assert!(g.middle().is_empty());
    assert_eq!(g.legal(1, &take(&[0])), Err(Refusal::NotInMiddle));
    assert_eq!(g.legal(1, &take(&[])), Err(Refusal::TakeNothing));
    assert_eq!(g.legal(1, &steal(0, 0)), Ok(()));
}

#[test]
fn round_second_illegal_action_removes_the_player_for_the_round() {
    let mut g = table();
    assert!(act(&mut g, Action::Nothing), "first refusal");
    assert!(g.has_strike());
    assert_eq!(g.mover(), Some(id(1)), "asked once more");
    assert!(act(&mut g, take(&[])), "second refusal");
    assert!(g.is_removed(id(1)));
    assert_eq!(g.mover(), Some(id(2)));
    for t in [1, 2, 3, 4] {
        assert!(!act(&mut g, take(&[t])));
    }
    // Id 1 was skipped: the round is over (ids 2..5 hold Bat, Opossum, Bunny, Buffalo) and id 1
    // scored an empty hand.
    assert_eq!(g.round(), 2);
    assert!(!g.is_removed(id(1)), "back for the next round");
    let s = g.last_scoring();
    assert_eq!(s.animals[id(1)], 0);
    assert_eq!(s.animals[id(2)], Side::Bat.animal_bit());
    let mut hands = [TileSet::EMPTY; PLAYERS];
    for t in 1..=4u8 {
        hands[t as usize] = TileSet::only(t);
    }
    assert_eq!(
        s.gain,
        score_round(&hands, &Deal::identity(0), &[1, 2, 3, 4, 5], 0, 1).gain
    );
}

#[test]
fn round_refusals_are_counted_and_cleared_by_a_legal_action() {
    let mut g = table();
    let mut actions = [Action::Nothing; PLAYERS];
    actions[0] = take(&[99]);
    let report = g.step(&actions);
    assert_eq!(report.refused, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert!(!act(&mut g, take(&[4])));
    assert!(!g.has_strike());
    assert!(act(&mut g, Action::Nothing));
    assert!(
        !act(&mut g, take(&[5])),
        "a new turn has its own second chance"
    );
    assert!(!g.is_removed(1));
}

#[test]
fn round_is_stopped_after_1000_actions() {
    let mut g = table();
    // Ids 3, 4, 5 hold tiles; ids 1 and 2 steal a single tile from each other forever.
    g.mover = id(3) as u8;
    act(&mut g, take(&[10]));
    act(&mut g, take(&[11]));
    act(&mut g, take(&[12]));
    assert_eq!(g.mover(), Some(id(1)));
    let mut n = 3;
    while g.round() == 1 {
        let action = match (g.mover(), g.hand(id(1)), g.hand(id(2))) {
            (Some(s), _, h2) if s == id(1) && !h2.is_empty() => steal(id(2), h2.first().unwrap()),
            (Some(s), h1, _) if s == id(2) && !h1.is_empty() => steal(id(1), h1.first().unwrap()),
            _ => take(&[20]),
        };
        assert!(!act(&mut g, action));
        n += 1;
        assert!(n <= ACTION_CAP as usize, "the round went past the cap");
    }
    assert_eq!(n, ACTION_CAP as usize);
}

#[test]
fn round_stopped_players_still_empty_score_an_empty_hand() {
    let mut g = table();
    g.actions = ACTION_CAP - 1;
    gives(
        &mut g,
        &[(2, Side::Fire, 1), (3, Side::Fire, 1), (4, Side::Fire, 1)],
    );
    // Id 1 takes one Fire with the last action; id 5 never acted.
    let fire = g.middle().showing(Side::Fire, g.deal()).first().unwrap();
    act(&mut g, take(&[fire]));
    assert_eq!(g.round(), 2);
    assert_eq!(
        g.last_scoring().gain[id(5)],
        -5 - 1,
        "fewest fire, fewest fur"
    );
}

// ---- Scoring ----

#[test]
fn scoring_mystery_tiles_are_turned_first() {
    let mut g = table();
    give(&mut g, id(1), Side::Mystery, 6);
    let hand = g.hand(id(1));
    assert!(hand.iter().all(|t| g.visible(t) == Some(Side::Mystery)));
    let score = g.score_hands(g.hands());
    // Tiles 8..13 turn to Fire, Meat, Fur, Ivory, Axe, Meat.
    assert_eq!(score.gain[id(1)], 8 + 1 + 2 + 1);
    g.mover = 4;
    g.hands[4] = TileSet::only(20);
    g.middle = g.middle.without(20);
    g.end_round();
    assert_eq!(g.last_scoring().gain[id(1)], 12);
    let mut last = table();
    last.round = ROUNDS;
    give(&mut last, id(1), Side::Mystery, 1);
    last.end_round();
    assert!(last.is_over());
    assert_eq!(
        last.visible(8),
        Some(Side::Fire),
        "turned at the last scoring"
    );
}

#[test]
fn scoring_fire_fewest_loses_5_ties_to_latest_in_tie_order() {
    // Seed text: id 4 holds the clockwise tie-breaker; ids 3 and 5 have 1 Fire, the others more
    // (2 here: our tile list has 9 Fire sides): order 4, 5, 1, 2, 3, so id 3 loses.
    let mut g = table();
    for (i, n) in [(1, 2), (2, 2), (3, 1), (4, 2), (5, 1)] {
        give(&mut g, id(i), Side::Fire, n);
    }
    tie(&mut g, Some(id(4)), true);
    let s = g.score_hands(g.hands());
    assert_eq!(s.order.map(|x| x + 1), [4, 5, 1, 2, 3]);
    // No Meat or Fur anywhere: Meat goes 4, 5, 1 and Fur +1 to id 4, -1 to id 3 (latest).
    assert_eq!(s.gain[id(3)], -5 - 1);
    assert_eq!(s.gain[id(4)], 8 + 1);
    assert_eq!(s.gain[id(5)], 5);
    assert_eq!(
        fire_loser(&Counts::of(g.hands(), &g.deal.revealed()).fire, &s.order),
        id(3)
    );
    // Counter-clockwise: 4, 3, 2, 1, 5, so id 5 loses.
    tie(&mut g, Some(id(4)), false);
    let s = g.score_hands(g.hands());
    assert_eq!(s.order.map(|x| x + 1), [4, 3, 2, 1, 5]);
    assert_eq!(
        fire_loser(&Counts::of(g.hands(), &g.deal.revealed()).fire, &s.order),
        id(5)
    );
}

#[test]
fn scoring_meat_8_5_2_ties_to_earliest_in_tie_order() {
    // Seed text: id 4 holds the clockwise tie-breaker; ids 4, 1 and 2 have 3 Meat: places 4, 1, 2.
    let mut g = table();
    for i in [1, 2, 4] {
        give(&mut g, id(i), Side::Meat, 3);
    }
    give(&mut g, id(5), Side::Meat, 1);
    tie(&mut g, Some(id(4)), true);
    let c = Counts::of(g.hands(), &g.deal.revealed());
    let order = tie_order(g.hands(), &g.deal, g.ids(), 0);
    assert_eq!(meat_places(&c.meat, &order), [id(4), id(1), id(2)]);
    let s = g.score_hands(g.hands());
    let fur_and_fire = |seat: Seat| {
        let (w, l) = fur_winner_loser(&c.fur, &order);
        (if w == seat { 1 } else { 0 })
            - (if l == seat { 1 } else { 0 })
            - (if fire_loser(&c.fire, &order) == seat {
                5
            } else {
                0
            })
    };
    assert_eq!(s.gain[id(4)], 8 + fur_and_fire(id(4)));
    assert_eq!(s.gain[id(1)], 5 + fur_and_fire(id(1)));
    assert_eq!(s.gain[id(2)], 2 + fur_and_fire(id(2)));
    assert_eq!(s.gain[id(5)], fur_and_fire(id(5)), "fourth gets nothing");
}

#[test]
fn scoring_meat_players_with_zero_meat_can_place() {
    let mut g = table();
    give(&mut g, id(3), Side::Meat, 2);
    tie(&mut g, None, true); // middle: order from the first player, id 1
    let c = Counts::of(g.hands(), &g.deal.revealed());
    let order = tie_order(g.hands(), &g.deal, g.ids(), 0);
    assert_eq!(meat_places(&c.meat, &order), [id(3), id(1), id(2)]);
}

#[test]
fn scoring_fur_cumulative_points_and_round_number_award() {
    let mut g = table();
    g.round = 3;
    gives(&mut g, &[(2, Side::Fur, 3), (5, Side::Fur, 3)]);
    for i in [1, 3, 4] {
        give(&mut g, id(i), Side::Fur, 1);
    }
    tie(&mut g, Some(id(5)), true); // order 5, 1, 2, 3, 4
    let c = Counts::of(g.hands(), &g.deal.revealed());
    let order = tie_order(g.hands(), &g.deal, g.ids(), 0);
    // Most: ids 2 and 5 tie, 5 is earlier. Fewest: 1, 3, 4 tie, 4 is latest.
    assert_eq!(fur_winner_loser(&c.fur, &order), (id(5), id(4)));
    let before = *g.points();
    g.end_round();
    assert_eq!(g.furs(), &[1, 3, 1, 1, 3]);
    assert_eq!(g.last_scoring().fur, [1, 3, 1, 1, 3]);
    let fire = fire_loser(&c.fire, &order);
    assert_eq!(fire, id(4));
    assert_eq!(g.points()[id(5)], before[id(5)] + 3 + 8); // fur winner, and meat first in order
    assert_eq!(g.points()[id(4)], (before[id(4)] - 3 - 5).max(0));
}

#[test]
fn scoring_ivory_2_each_axe_1_each_and_3_in_round_5() {
    for (round, axe) in [(1, 1), (4, 1), (5, 3)] {
        let mut g = table();
        g.round = round;
        gives(&mut g, &[(1, Side::Ivory, 3), (1, Side::Axe, 2)]);
        // Keep the other awards away from id 1: everyone else has one Fire, Meat and Fur.
        for i in 2..=5 {
            give(&mut g, id(i), Side::Fire, 1);
        }
        give(&mut g, id(1), Side::Fire, 1);
        let s = g.score_hands(g.hands());
        let c = Counts::of(g.hands(), &g.deal.revealed());
        let (w, l) = fur_winner_loser(&c.fur, &s.order);
        let meat = meat_places(&c.meat, &s.order)
            .iter()
            .position(|&x| x == id(1));
        let mut expect = 3 * 2 + 2 * axe;
        expect += meat.map_or(0, |p| MEAT_AWARDS[p]);
        expect +=
            if w == id(1) { round as i32 } else { 0 } - if l == id(1) { round as i32 } else { 0 };
        expect -= if fire_loser(&c.fire, &s.order) == id(1) {
            5
        } else {
            0
        };
        assert_eq!(s.gain[id(1)], expect, "round {round}");
    }
}

#[test]
fn scoring_animals_are_obtained_once_each() {
    let mut g = table();
    gives(&mut g, &[(1, Side::Bat, 1), (1, Side::Duck, 1)]);
    g.end_round();
    assert_eq!(
        g.animals()[id(1)],
        Side::Bat.animal_bit() | Side::Duck.animal_bit()
    );
    give(&mut g, id(1), Side::Bat, 1);
    g.end_round();
    assert_eq!(
        g.animals()[id(1)].count_ones(),
        2,
        "the same animal again does nothing"
    );
    assert_eq!(g.animals()[id(2)], 0);
}

#[test]
fn scoring_tie_breaker_holder_first_or_round_first_player_if_in_middle() {
    let mut g = table();
    g.first = id(3) as u8;
    tie(&mut g, None, false);
    let o = tie_order(g.hands(), &g.deal, g.ids(), g.first_player());
    assert_eq!(o.map(|x| x + 1), [3, 2, 1, 5, 4]);
    tie(&mut g, Some(id(5)), true);
    let o = tie_order(g.hands(), &g.deal, g.ids(), g.first_player());
    assert_eq!(o.map(|x| x + 1), [5, 1, 2, 3, 4]);
}

#[test]
fn scoring_points_never_below_zero_after_a_round() {
    let mut g = table();
    g.points = [2, 10, 10, 10, 10];
    g.round = 4;
    // Id 1 has nothing, the others one Fire, Meat and Fur each: id 1 alone has the fewest Fire
    // and Fur, and no Meat place.
    for i in 2..=5 {
        give(&mut g, id(i), Side::Fire, 1);
        give(&mut g, id(i), Side::Meat, 1);
        give(&mut g, id(i), Side::Fur, 1);
    }
    let gain = g.score_hands(g.hands()).gain[id(1)];
    assert_eq!(gain, -5 - 4);
    g.end_round();
    assert_eq!(g.points()[id(1)], 0);
    assert_eq!(
        g.last_scoring().gain[id(1)],
        -9,
        "the gain is kept before the floor"
    );
}

#[test]
fn end_of_game_animal_bonus() {
    assert_eq!(
        (0..=7u8)
            .map(|n| animal_bonus((1u16 << n).wrapping_sub(1) as u8))
            .collect::<heapless::Vec<i32, 8>>(),
        [0, 0, 0, 4, 9, 15, 22, 30]
    );
    let mut g = table();
    g.round = ROUNDS;
    g.animals[id(2)] = Side::Bat.animal_bit() | Side::Bunny.animal_bit();
    gives(&mut g, &[(2, Side::Duck, 1), (2, Side::Beaver, 1)]);
    let before = g.points()[id(2)];
    let gain = g.score_hands(g.hands()).gain[id(2)];
    g.end_round();
    assert!(g.is_over());
    assert_eq!(
        g.points()[id(2)],
        (before + gain).max(0) + 9,
        "four animals"
    );
}

#[test]
fn match_placement_points_split_ties() {
    // In sixtieths of a point.
    let p = |v: [i32; 5]| placement_points(&v);
    // Seed text: 40, 37, 37, 37, 35 gives 5, 2, 2, 2, 0.
    assert_eq!(p([40, 37, 37, 37, 35]), [300, 120, 120, 120, 0]);
    assert_eq!(p([1, 2, 3, 4, 5]), [0, 60, 120, 180, 300]);
    assert_eq!(p([9, 9, 1, 0, 0]), [240, 240, 120, 30, 30]);
    assert_eq!(
        placement_points(&[7; 5]),
        [132; 5],
        "11 points shared by five"
    );
    assert_eq!(placement_points(&[9, 9, 9, 1, 1]), [200, 200, 200, 30, 30]);
}

#[test]
fn match_ends_after_five_rounds_ranked_by_points() {
    let mut g = Mammut::new(&Params, 4).unwrap();
    for r in 1..=ROUNDS {
        assert_eq!(g.round(), r);
        assert!(g.outcome().is_none());
        g.end_round();
    }
    assert!(g.is_over());
    assert_eq!(g.to_move(), SeatSet::EMPTY);
    let o = g.outcome().unwrap();
    for s in 0..PLAYERS {
        assert_eq!(o.score[s], g.points()[s] as i64);
        let better = g.points().iter().filter(|&&p| p > g.points()[s]).count();
        assert_eq!(o.rank[s] as usize, better);
    }
    let digest = g.digest();
    assert!(!act_after_over(&mut g));
    assert_eq!(g.digest(), digest, "nothing changes once over");
}

fn act_after_over(g: &mut Mammut) -> bool {
    g.step(&[take(&[1]); PLAYERS]).total_refused() > 0
}

#[test]
fn state_is_small_and_digest_follows_the_state() {
    assert!(core::mem::size_of::<Mammut>() <= 1024);
    let a = Mammut::new(&Params, 5).unwrap();
    let mut b = a.clone();
    assert_eq!(a.digest(), b.digest());
    let seat = b.mover().unwrap();
    let first = b.middle().first().unwrap();
    let mut actions = [Action::Nothing; PLAYERS];
    actions[seat] = take(&[first]);
    b.step(&actions);
    assert_ne!(a.digest(), b.digest());
    assert_ne!(a.digest(), Mammut::new(&Params, 6).unwrap().digest());
}

#[test]
fn state_size_budget() {
    // Reported in the module docs; the budget is 1 KB.
    let size = core::mem::size_of::<Mammut>();
    assert!(size <= 1024, "{size} bytes");
    assert!(size <= 160, "{size} bytes: update the module docs");
}

#[test]
fn a_refusal_is_an_error_that_says_why() {
    extern crate std;
    use std::string::ToString;
    let error: &dyn core::error::Error = &Refusal::EmptyVictim;
    assert!(error.source().is_none());
    assert_eq!(error.to_string(), "a steal from a player with no tiles");
}

// ---- The digest covers the whole state ----

/// One change of the state, by name.
type Change = (&'static str, fn(&mut Mammut));

/// Each field of the state changed alone (the last seat of each per-seat array).
const MAMMUT_CHANGES: &[Change] = &[
    ("ids", |g| g.ids.swap(0, PLAYERS - 1)),
    ("hands", |g| g.hands[PLAYERS - 1].0 ^= 1),
    ("middle", |g| g.middle.0 ^= 1),
    ("deal's tiles", |g| {
        let mut kinds = *g.deal.kinds();
        kinds.swap(0, 1);
        g.deal = Deal::new(kinds, g.deal.faces());
    }),
    ("deal's faces", |g| {
        g.deal = Deal::new(*g.deal.kinds(), g.deal.faces() ^ 1)
    }),
    ("points", |g| g.points[PLAYERS - 1] += 1),
    ("furs", |g| g.furs[PLAYERS - 1] += 1),
    ("animals", |g| g.animals[PLAYERS - 1] ^= 1),
    ("round", |g| g.round += 1),
    ("first", |g| g.first ^= 1),
    ("mover", |g| g.mover ^= 1),
    ("actions", |g| g.actions += 1),
    ("removed", |g| g.removed ^= 1),
    ("strike", |g| g.strike = !g.strike),
    ("last round's gain", |g| g.last.gain[PLAYERS - 1] += 1),
    ("last round's fur", |g| g.last.fur[PLAYERS - 1] ^= 1),
    ("last round's animals", |g| g.last.animals[PLAYERS - 1] ^= 1),
    ("last round's order", |g| g.last.order.swap(0, PLAYERS - 1)),
    ("steps", |g| g.steps += 1),
    ("over", |g| g.over = !g.over),
    ("seed", |g| g.seed ^= 1),
];

/// Every field of the state, named, so that a field added to it fails to compile here until
/// [`MAMMUT_CHANGES`] changes it too.
#[allow(dead_code)]
fn every_field(g: &Mammut) {
    let Mammut {
        ids: _,
        hands: _,
        middle: _,
        deal: _,
        points: _,
        furs: _,
        animals: _,
        round: _,
        first: _,
        mover: _,
        actions: _,
        removed: _,
        strike: _,
        last:
            RoundScore {
                gain: _,
                fur: _,
                animals: _,
                order: _,
            },
        steps: _,
        over: _,
        seed: _,
    } = g;
}

#[test]
fn digest_changes_with_every_field_of_the_state() {
    // Mid-game: the built-in bots until the second round has started, then a few moves more.
    let mut base = Mammut::new(&Params, 9).unwrap();
    let mut bots: [MammutBot; PLAYERS] =
        core::array::from_fn(|s| Mammut::bot(Mammut::BOTS[s % 3], s as u64).unwrap());
    while base.round() < 2 {
        crate::step_with_bots(&mut base, &mut bots);
    }
    for _ in 0..3 {
        crate::step_with_bots(&mut base, &mut bots);
    }
    assert!(!base.is_over());
    let missed: heapless::Vec<&str, 32> = MAMMUT_CHANGES
        .iter()
        .filter(|(_, change)| {
            let mut g = base.clone();
            change(&mut g);
            g.digest() == base.digest()
        })
        .map(|(name, _)| *name)
        .collect();
    assert!(missed.is_empty(), "the digest misses: {missed:?}");
}

#[test]
fn placement_gives_5_3_2_1_0_by_points_ties_splitting() {
    let mut g = Mammut::new(&Params, 1).unwrap();
    g.points = [40, 57, 62, 17, 51];
    let s = PLACEMENT_SCALE;
    assert_eq!(g.placement(), [s, 3 * s, 5 * s, 0, 2 * s]);
    // Two first (5 + 3 split), three last (2 + 1 + 0 split).
    g.points = [10, 10, 0, 0, 0];
    assert_eq!(g.placement(), [4 * s, 4 * s, s, s, s]);
}

#[test]
fn turns_count_every_step_and_actions_the_rounds_legal_ones() {
    let mut g = table();
    assert_eq!((g.turn(), g.actions()), (0, 0));
    assert!(!act(&mut g, take(&[4])), "id 1 takes one tile");
    assert!(act(&mut g, Action::Nothing), "id 2 is refused once");
    assert!(!act(&mut g, take(&[5, 6])), "then takes two");
    assert_eq!(g.mover(), Some(id(3)));
    assert_eq!((g.turn(), g.actions()), (3, 2));
}

#[test]
fn only_the_removed_seat_is_removed() {
    // Id 3 (seat 2) moves first and is refused twice: out of the round, and nobody else.
    let mut g = table();
    g.mover = id(3) as u8;
    assert!(act(&mut g, Action::Nothing));
    assert!(act(&mut g, take(&[])));
    assert_eq!(g.mover(), Some(id(4)));
    assert!(g.is_removed(id(3)));
    for seat in [0, 1, 3, 4, PLAYERS, 7] {
        assert!(!g.is_removed(seat), "seat {seat}");
    }
    // Every seat's view says the same (the bots read it there).
    for viewer in 0..PLAYERS {
        let v = g.view(viewer);
        for seat in 0..=PLAYERS {
            assert_eq!(v.is_removed(seat), seat == id(3), "{viewer} sees {seat}");
        }
    }
}

#[test]
fn the_decision_ranks_by_points() {
    let mut g = Mammut::new(&Params, 4).unwrap();
    assert!(g.decision().is_none(), "not over");
    for _ in 1..=ROUNDS {
        g.end_round();
    }
    let why = g.decision().unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(why.rank[..PLAYERS], *o.ranks());
    for s in 0..PLAYERS {
        assert_eq!(why.values[s][0], i64::from(g.points()[s]));
    }
    assert_eq!(
        crate::outcome::shown(why.rule()),
        "ranked by points; a tie for first is a draw"
    );
}

#[test]
fn every_view_reads_back_the_table_as_the_game_shows_it() {
    // The protocol's JSON and the bots read the table through a seat's view: every reader answers
    // what the game holds, set here to values no fresh game has (round 3, points, furs, animals,
    // a removed seat, a strike), for every viewer alike.
    let mut g = table();
    g.round = 3;
    g.points = [14, 0, 27, 3, 9];
    g.furs = [2, 7, 0, 1, 4];
    g.animals = [0b1, 0, 0b110, 0b1000000, 0];
    gives(&mut g, &[(2, Side::Meat, 2), (4, Side::Bat, 1)]);
    g.mover = id(3) as u8;
    assert!(!g.view(id(3)).has_strike(), "no refusal yet");
    assert!(act(&mut g, Action::Nothing), "id 3 refused once");
    assert!(g.view(id(3)).has_strike());
    assert!(act(&mut g, Action::Nothing), "then removed");
    assert_eq!(g.mover(), Some(id(5)));
    assert!(!g.view(id(5)).has_strike(), "a new turn, no strike");
    assert!(act(&mut g, Action::Nothing), "id 5 refused once: a strike");
    let ids = [1, 2, 3, 4, 5];
    for viewer in 0..PLAYERS {
        let v = g.view(viewer);
        assert_eq!(v.seat(), viewer);
        assert_eq!((v.turn(), v.is_over(), v.round()), (3, false, 3));
        assert_eq!(v.ids(), &ids);
        assert_eq!(v.points(), &[14, 0, 27, 3, 9]);
        assert_eq!(v.furs(), &[2, 7, 0, 1, 4]);
        assert_eq!(v.animals(), &[0b1, 0, 0b110, 0b1000000, 0]);
        assert_eq!((v.first_player(), v.mover()), (0, Some(id(5))));
        assert!(v.has_strike());
        assert_eq!(v.hands(), g.hands());
        assert_eq!(v.hand(id(2)).len(), 2);
        assert_eq!(v.hand(id(4)).len(), 1);
        assert_eq!(v.middle(), g.middle());
        assert_eq!(v.middle().len(), TILE_COUNT - 3);
        // Waiting: in the round and empty-handed (ids 1 and 5); id 3 is out, 2 and 4 hold tiles.
        for seat in 0..PLAYERS {
            assert_eq!(v.waits(seat), seat == id(1) || seat == id(5), "seat {seat}");
            assert_eq!(v.is_removed(seat), seat == id(3));
        }
        // The rules' check, as the game gives it.
        let tile = v.middle().first().unwrap();
        assert_eq!(v.legal(id(5), &take(&[tile])), Ok(()));
        assert_eq!(v.legal(id(1), &take(&[tile])), Err(Refusal::NotYourTurn));
        assert_eq!(v.legal(id(5), &steal(id(1), 0)), Err(Refusal::EmptyVictim));
        // Every id shows the side the game shows, Mystery included.
        for tile in 0..TILE_COUNT as u8 {
            assert_eq!(v.visible(tile), g.visible(tile));
            assert_eq!(v.deal().visible(tile), g.visible(tile));
        }
        assert_eq!(v.visible(TILE_COUNT as u8), None);
        assert_eq!(v.tie_tile(), g.tie_tile());
    }
    // Once over, the view says so and names no mover.
    for _ in g.round()..=ROUNDS {
        g.end_round();
    }
    let v = g.view(0);
    assert!(v.is_over());
    assert_eq!(v.mover(), None);
    assert_eq!(v.round(), ROUNDS);
}

#[test]
fn a_view_shows_each_side_as_it_lies_and_nothing_of_a_mystery_tiles_other_side() {
    // Over the deals of several games and rounds: the view's deal shows every id's visible side
    // (the tie-breaker tile where the game has it), and every Mystery id names the same tile,
    // so its other side (what scoring will turn) is the same for all of them.
    let mut mysteries = 0;
    for seed in 0..8 {
        let mut g = Mammut::new(&Params, seed).unwrap();
        for _ in 0..3 {
            let v = g.view(0);
            let seen = v.deal();
            assert_eq!(seen.tie_tile(), g.tie_tile());
            let mut hidden = None;
            for tile in 0..TILE_COUNT as u8 {
                let side = g.visible(tile).unwrap();
                assert_eq!(seen.visible(tile), Some(side), "seed {seed}, id {tile}");
                let sides = seen.sides(tile).unwrap();
                assert!(sides.contains(&side));
                if side == Side::Mystery {
                    mysteries += 1;
                    let other = seen.revealed().visible(tile);
                    assert_eq!(
                        *hidden.get_or_insert(other),
                        other,
                        "seed {seed}, id {tile}"
                    );
                }
            }
            g.end_round();
        }
    }
    assert!(mysteries > 24, "{mysteries} Mystery ids seen");
}

#[test]
fn positions_say_where_each_seat_stands_in_a_tie_order() {
    // The inverse of the order: seat 3 first, then 0, 4, 1, 2.
    assert_eq!(positions(&[3, 0, 4, 1, 2]), [1, 3, 4, 0, 2]);
    assert_eq!(positions(&[0, 1, 2, 3, 4]), [0, 1, 2, 3, 4]);
    // Every tie order of a table, clockwise and counter-clockwise from each seat.
    let ids = [2, 5, 3, 1, 4];
    for start in 0..PLAYERS {
        for clockwise in [true, false] {
            let order = order_from(&ids, start, clockwise);
            let pos = positions(&order);
            for (i, &seat) in order.iter().enumerate() {
                assert_eq!(pos[seat as usize] as usize, i);
            }
        }
    }
}

#[test]
fn revealing_turns_the_tiles_showing_mystery_and_leaves_every_other_side() {
    // Scoring turns every Mystery tile that shows "Mystery"; a Mystery tile that already shows
    // its other side (the round's random faces turn about half of them) keeps it, and so does
    // every other tile. Tiles 8..=13 are the Mystery tiles of the rules file's list.
    let faces = (1 << 8) | (1 << 11) | (1 << 20) | (1 << 31);
    let deal = Deal::identity(faces);
    assert_eq!(deal.visible(8), Some(Side::Fire), "already turned");
    assert_eq!(deal.visible(9), Some(Side::Mystery));
    let turned = deal.revealed();
    for id in 0..TILE_COUNT as u8 {
        let sides = TILES[id as usize];
        let want = if sides[0] == Side::Mystery {
            sides[1]
        } else {
            deal.visible(id).unwrap()
        };
        assert_eq!(turned.visible(id), Some(want), "id {id}");
    }
    assert_eq!(turned.kinds(), deal.kinds());
    assert_eq!(turned.mystery(), deal.mystery());
    // Turning twice changes nothing more.
    assert_eq!(turned.revealed(), turned);
}
