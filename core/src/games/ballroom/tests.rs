//! One test per rule, quirk and decision of rules/ballroom-blitz.md, named after it.

// Tests may fail loudly.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::game::{Bot, Game};

const K: Class = Class::Knight;
const W: Class = Class::Wizard;
const A: Class = Class::Archer;

fn game(classes: [Class; 4], ruleset: Ruleset) -> Ballroom {
    let params = Params {
        ruleset,
        classes: Some(classes),
    };
    match Ballroom::new(&params, 7) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

fn engine(classes: [Class; 4]) -> Ballroom {
    game(classes, Ruleset::Engine)
}

fn mv(x: i32, y: i32) -> Action {
    Action::Move { x, y }
}

fn at(x: i8, y: i8) -> Pos {
    Pos::new(x, y)
}

const fn hit(target: i32) -> Action {
    Action::Attack { target }
}

/// Plays USE and MOVE with passes, leaving the game before ATTACK.
fn to_attack(g: &mut Ballroom) {
    g.step(&[Action::Use(false); 4]);
    let moves: [Action; 4] = core::array::from_fn(|s| {
        let p = g.players[s].pos;
        mv(p.x as i32, p.y as i32)
    });
    g.step(&moves);
}

/// Plays a whole turn where everybody stays put, with the given attacks and buys.
fn stay_turn(g: &mut Ballroom, attacks: [Action; 4], buys: [Action; 4]) {
    to_attack(g);
    g.step(&attacks);
    g.step(&buys);
}

/// Puts players where the test needs them: `(seat, x, y)`.
fn place(g: &mut Ballroom, spots: &[(usize, i8, i8)]) {
    for &(s, x, y) in spots {
        g.players[s].pos = at(x, y);
    }
}

/// `a` for player 0, passes for the others.
fn p0(a: Action) -> [Action; 4] {
    [a, Action::Pass, Action::Pass, Action::Pass]
}

/// Players of `classes` placed at `spots` stay put and attack as `hits` says.
fn fight(classes: [Class; 4], spots: &[(usize, i8, i8)], hits: [Action; 4]) -> Ballroom {
    let mut g = engine(classes);
    place(&mut g, spots);
    to_attack(&mut g);
    g.step(&hits);
    g
}

const NO_BUY: [Action; 4] = [Action::Buy(Item::None); 4];
const SELF_HITS: [Action; 4] = [hit(0), hit(1), hit(2), hit(3)];

#[test]
fn state_size_fits_its_budget() {
    assert!(core::mem::size_of::<Ballroom>() <= 512);
}

#[test]
fn start_settlement_gives_one_gold_and_effect_timer_zero() {
    let g = engine([K, W, A, K]);
    assert_eq!(g.turn(), 0);
    assert_eq!(g.engine_turn(), 1);
    assert_eq!(g.phase(), Some(Phase::Use));
    for (s, p) in g.players().iter().enumerate() {
        assert_eq!(p.pos, Pos::spawn(s));
        assert_eq!((p.gold, p.score, p.effect_timer), (1, 0, 0));
        assert_eq!(p.health as i32, p.class.stats().max_health);
        assert_eq!(p.item, Item::None);
    }
    assert_eq!(Pos::spawn(1), at(9, 0));
    assert_eq!(Pos::spawn(2), at(9, 9));
    assert_eq!(Pos::spawn(3), at(0, 9));
}

#[test]
fn class_handshake_sets_classes_and_default_is_knight() {
    let mut g = Ballroom::new(&Params::default(), 1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.phase(), Some(Phase::Class));
    assert!(!g.started());
    assert_eq!(g.players[0].gold, 0);
    g.step(&[
        Action::Class(A),
        Action::Null,
        Action::Malformed,
        Action::Use(true),
    ]);
    let classes: [Class; 4] = core::array::from_fn(|s| g.players[s].class);
    assert_eq!(classes, [A, K, K, K]);
    assert_eq!(g.players[0].health, 3);
    assert_eq!(g.players[0].gold, 1);
    // A null handshake drops the bot but, as in the reference, leaves isActive until USE.
    assert!(!g.players[1].connected && g.players[1].active);
    // A bad class name (a reference crash) is the default and keeps the bot.
    assert!(g.players[2].connected && g.players[2].active);
    g.step(&[Action::Use(false); 4]);
    assert!(!g.players[1].active);
}

#[test]
fn effective_stats_follow_the_effect_timer() {
    let mut p = Player::new(K, 0);
    p.item = Item::RallyBanner;
    p.effect_timer = 0;
    assert_eq!(p.stats().damage, 6, "timer 0: class only");
    p.effect_timer = -1;
    assert_eq!(p.stats().damage, 8, "timer < 0: held permanent item");
    p.item = Item::StrengthPotion;
    assert_eq!(p.stats().damage, 6, "a held timed item does nothing");
    p.in_effect = Item::SpeedPotion;
    p.effect_timer = 1;
    assert_eq!(p.stats().speed, 4, "timer > 0: the used item");
    assert_eq!(p.stats().max_health, 9, "no item changes max health");
    // The reference's `getEffectiveStatSet` counts the item in effect only while the timer is
    // above 0: at 0 the class alone, whatever `in_effect` still names.
    p.effect_timer = 0;
    assert_eq!(
        p.stats().speed,
        2,
        "timer 0: the used item no longer counts"
    );
}

#[test]
fn potion_lasts_its_turn_and_expires_at_next_begin_turn() {
    let mut g = engine([K, K, K, K]);
    g.players[0].item = Item::SpeedPotion;
    g.step(&p0(Action::Use(true)));
    assert!(g.record().uses[0].valid && g.record().uses[0].used);
    assert_eq!(g.players[0].item, Item::None);
    assert_eq!(g.players[0].in_effect, Item::SpeedPotion);
    assert_eq!(g.players[0].stats().speed, 4);
    g.step(&p0(mv(4, 0)));
    assert!(g.record().moves[0].valid, "speed 4 this turn");
    g.step(&SELF_HITS);
    g.step(&NO_BUY);
    assert_eq!(g.players[0].stats().speed, 4, "still shown at end of turn");
    g.step(&[Action::Use(false); 4]);
    assert_eq!(g.players[0].stats().speed, 2);
    assert_eq!(
        (g.players[0].in_effect, g.players[0].effect_timer),
        (Item::None, -1)
    );
}

#[test]
fn use_on_a_permanent_item_is_invalid_even_without_use() {
    let mut g = engine([K, K, K, K]);
    g.players[1].item = Item::HunterScope;
    g.players[2].item = Item::Shield;
    let r = g.step(&[false, true, false, true].map(Action::Use));
    let u = g.record().uses;
    assert!(!u[0].valid, "holding NONE, use=false: invalid");
    assert!(!u[1].valid && g.players[1].item == Item::HunterScope);
    assert!(u[2].valid && g.players[2].item == Item::Shield);
    assert!(!u[3].valid);
    // Refusals: only explicit uses that failed (seats 1 and 3).
    assert_eq!(&r.refused[..4], &[0, 1, 0, 1]);
}

#[test]
fn shield_sets_shielded_until_end_of_turn() {
    let mut g = engine([K, K, K, K]);
    g.players[0].item = Item::Shield;
    g.step(&p0(Action::Use(true)));
    assert!(g.players[0].shielded);
    g.step(&[Action::Pass; 4]);
    g.step(&SELF_HITS);
    g.step(&NO_BUY);
    assert!(!g.players[0].shielded);
}

#[test]
fn class_change_keeps_health_until_a_hit_or_end_turn_clamps_it() {
    let mut g = engine([K, K, K, K]);
    g.players[0].item = Item::SteelTippedArrow;
    place(&mut g, &[(0, 4, 4), (1, 5, 5)]);
    g.players[1].class = A;
    g.step(&p0(Action::Use(true)));
    assert_eq!(g.players[0].class, A);
    assert_eq!(g.players[0].health, 9, "health is not reset");
    assert_eq!(
        (g.players[0].in_effect, g.players[0].effect_timer),
        (Item::SteelTippedArrow, 0)
    );
    g.step(&[mv(4, 4), mv(5, 5), Action::Pass, Action::Pass]);
    assert_eq!(g.players[0].health, 9);
    // A hit of 3 leaves min(9 - 3, 3).
    g.step(&[hit(0), hit(0), hit(2), hit(3)]);
    assert_eq!(g.players[0].health, 3);
    g.step(&NO_BUY);
    assert_eq!(g.players[0].health, 3);
}

#[test]
fn class_change_to_knight_keeps_low_health_off_spawn() {
    let mut g = engine([A, K, K, K]);
    g.players[0].item = Item::HeavyBroadsword;
    g.players[0].pos = at(2, 2);
    g.step(&p0(Action::Use(true)));
    g.step(&p0(mv(2, 2)));
    g.step(&SELF_HITS);
    g.step(&NO_BUY);
    assert_eq!((g.players[0].class, g.players[0].health), (K, 3));
    assert_eq!(
        (g.players[0].in_effect, g.players[0].effect_timer),
        (Item::HeavyBroadsword, 0),
        "shown in effect until the next turn begins"
    );
    // At end of turn on the spawn it heals to the new max.
    g.step(&[Action::Use(false); 4]);
    // `beginTurn`: a timer at 0 is not counted down; the item in effect becomes NONE, its
    // timer -1.
    assert_eq!(
        (g.players[0].in_effect, g.players[0].effect_timer),
        (Item::None, -1)
    );
    g.step(&[Action::Pass; 4]);
    g.step(&SELF_HITS);
    g.step(&NO_BUY);
    assert_eq!(g.players[0].health, 9);
}

#[test]
fn move_within_speed_manhattan_is_valid() {
    let mut g = engine([K, W, A, K]);
    g.step(&[Action::Use(false); 4]);
    g.step(&[mv(1, 1), mv(7, 1), mv(7, 7), mv(0, 8)]);
    let m = g.record().moves;
    assert!(m.iter().all(|m| m.valid));
    assert_eq!(g.players[2].pos, at(7, 7));
}

#[test]
fn invalid_move_snaps_to_nearest_reachable_tile_lowest_x_then_y() {
    let mut g = engine([K, K, K, K]);
    g.step(&[Action::Use(false); 4]);
    // Knight at (0,0), speed 2, asks for (5,5): the reachable tiles nearest (5,5), at 8, are
    // (1,1), (0,2), (2,0); the scan (x outer, y inner) keeps (0,2) first.
    let r = g.step(&p0(mv(5, 5)));
    assert!(!g.record().moves[0].valid);
    assert_eq!((g.record().moves[0].x, g.record().moves[0].y), (5, 5));
    assert_eq!(g.players[0].pos, at(0, 2));
    assert_eq!(r.refused[0], 1);
    // Out of the board: snapped to the nearest board tile in reach.
    assert_eq!(rules::snap(at(9, 9), 2, 12, 9), at(9, 9));
    assert_eq!(rules::snap(at(5, 5), 2, -1, 5), at(3, 5));
}

#[test]
fn a_move_off_the_board_is_invalid_even_within_speed_and_snaps_onto_it() {
    // `inBounds(dest) && speed >= manhattan(dest, pos)`: a destination one column or one row
    // off the board is 1 away, within a Knight's speed 2, but off the board: invalid (refused),
    // and snapped to the nearest reachable tile, the one beside it.
    for (from, to, snapped) in [
        ((2, 0), (2, -1), (2, 0)),
        ((0, 3), (-1, 3), (0, 3)),
        ((9, 5), (10, 5), (9, 5)),
        ((4, 9), (4, 10), (4, 9)),
    ] {
        let mut g = engine([K, K, K, K]);
        place(&mut g, &[(0, from.0, from.1)]);
        g.step(&[Action::Use(false); 4]);
        let r = g.step(&p0(mv(to.0, to.1)));
        let m = g.record().moves[0];
        assert_eq!(
            (m.x, m.y, m.valid),
            (to.0, to.1, false),
            "{from:?} to {to:?}"
        );
        assert_eq!(r.refused[0], 1);
        assert_eq!(
            g.players[0].pos,
            at(snapped.0, snapped.1),
            "{from:?} to {to:?}"
        );
    }
}

#[test]
fn snap_far_destination_lands_on_origin_quirk() {
    // Every reachable tile is 100 or more from the destination: the default (0,0) is kept, reachable or not.
    assert_eq!(rules::snap(at(9, 9), 2, 1000, 1000), at(0, 0));
    // Java int overflow in the distance does not panic and stays on the board.
    let p = rules::snap(at(9, 9), 2, i32::MIN, i32::MAX);
    assert!((0..10).contains(&p.x) && (0..10).contains(&p.y));
}

#[test]
fn snap_is_the_reference_scan() {
    // Every origin, speeds 0..=12, destinations around and far off the board, and the extremes.
    let far = [
        i32::MIN,
        i32::MIN + 1,
        -(1 << 20),
        -1000,
        1000,
        1 << 20,
        i32::MAX - 1,
        i32::MAX,
    ];
    let mut coords = [0i32; 48];
    for (c, v) in coords.iter_mut().zip((-15..25).chain(far)) {
        *c = v;
    }
    for fx in 0..10 {
        for fy in 0..10 {
            for speed in 0..=12 {
                for &dx in &coords {
                    for &dy in &coords {
                        assert_eq!(
                            rules::snap(at(fx, fy), speed, dx, dy),
                            rules::snap_scan(at(fx, fy), speed, dx, dy),
                            "from ({fx},{fy}) speed {speed} to ({dx},{dy})"
                        );
                    }
                }
            }
        }
    }
    // The fast walk's other speeds (up to 20, `2 * BOARD`), one either side of them and the
    // extremes (the scan's), from a few origins.
    for (fx, fy) in [(0, 0), (9, 9), (4, 5), (2, 7)] {
        for speed in [-1, 13, 16, 19, 20, 21, 100, i32::MIN, i32::MAX] {
            for &dx in &coords {
                for &dy in &coords {
                    assert_eq!(
                        rules::snap(at(fx, fy), speed, dx, dy),
                        rules::snap_scan(at(fx, fy), speed, dx, dy),
                        "from ({fx},{fy}) speed {speed} to ({dx},{dy})"
                    );
                }
            }
        }
    }
}

#[test]
fn move_to_own_spawn_is_always_valid_and_other_spawns_are_ordinary() {
    let mut g = engine([K, K, K, K]);
    place(&mut g, &[(0, 8, 8), (1, 5, 5)]);
    g.step(&[Action::Use(false); 4]);
    g.step(&[mv(0, 0), mv(9, 9), Action::Pass, Action::Pass]);
    assert!(g.record().moves[0].valid);
    assert_eq!(g.players[0].pos, at(0, 0));
    assert!(
        !g.record().moves[1].valid,
        "another player's spawn is out of reach"
    );
}

#[test]
fn tiles_can_be_shared() {
    let mut g = engine([A, A, A, A]);
    for s in 0..4 {
        g.players[s].pos = at(4 + (s as i8 % 2), 4);
    }
    g.step(&[Action::Use(false); 4]);
    g.step(&[mv(4, 4), mv(4, 4), mv(4, 4), mv(4, 4)]);
    assert!(g.players.iter().all(|p| p.pos == at(4, 4)));
}

#[test]
fn attacks_run_by_damage_descending_then_player_order_and_overkill_credits_every_hit_to_zero() {
    // (classes, positions, attacks, the target killed, the points of P0 and P1)
    let cases = [
        // Target P2 (Wizard, 6 HP). P0 Archer (3) and P1 Wizard (5) hit it: sorted, the Wizard
        // goes first (6 -> 1), then the Archer (1 -> 0) and only the Archer is credited.
        (
            [A, W, W, K],
            [(0, 4, 4), (1, 4, 5), (2, 5, 5)],
            [hit(2), hit(2), hit(2), hit(3)],
            2,
            (1, 0),
        ),
        // Two Knights (6 each) hit the Archer (3 HP): both hits leave 0, both are credited.
        (
            [K, K, K, A],
            [(0, 1, 1), (1, 2, 1), (3, 1, 2)],
            [hit(3), hit(3), hit(2), hit(3)],
            3,
            (1, 1),
        ),
    ];
    for (classes, spots, hits, target, points) in cases {
        let g = fight(classes, &spots, hits);
        assert_eq!(g.players[target].health, 0);
        assert_eq!((g.players[0].score, g.players[1].score), points);
    }
}

#[test]
fn dead_attacker_still_deals_its_queued_attack() {
    let g = fight(
        [K, W, K, K],
        &[(0, 1, 1), (1, 2, 2)],
        [hit(1), hit(0), hit(2), hit(3)],
    );
    assert_eq!(g.players[1].health, 0, "killed first (damage 6 before 5)");
    assert_eq!(g.players[0].health, 4, "but its attack still lands");
}

#[test]
fn shield_quirk_only_the_first_landing_attack_consults_a_shield() {
    // As in golden seed12 turn 38: the shielded P3 attacks first (highest damage), so its own
    // attack is the one that consults shields and P2's hit on P3 lands.
    let mut g = engine([A, A, W, K]);
    g.players[3].item = Item::Shield;
    place(&mut g, &[(3, 4, 4), (2, 5, 5)]);
    g.step(&[false, false, false, true].map(Action::Use));
    g.step(&[Action::Pass, Action::Pass, mv(5, 5), mv(4, 4)]);
    g.step(&[hit(0), hit(1), hit(3), hit(2)]);
    let a = g.record().attacks;
    assert!(!a[3].nullified && a[3].valid);
    assert!(!a[2].nullified && a[2].damage == 5);
    assert_eq!(g.players[3].health, 4);
}

#[test]
fn shield_nullifies_the_first_landing_attack_when_it_targets_its_user() {
    let mut g = engine([K, W, A, A]);
    g.players[3].item = Item::Shield;
    place(&mut g, &[(0, 4, 4), (1, 4, 5), (3, 5, 5)]);
    g.step(&[false, false, false, true].map(Action::Use));
    g.step(&[mv(4, 4), mv(4, 5), Action::Pass, mv(5, 5)]);
    g.step(&[hit(3), hit(3), hit(2), hit(3)]);
    let a = g.record().attacks;
    assert!(a[0].nullified && a[0].valid && a[0].damage == 0);
    // Only one attack per turn is checked: the Wizard's hit lands (5 > 3 HP).
    assert!(!a[1].nullified && a[1].damage == 5);
    assert_eq!(g.players[3].health, 0);
    assert_eq!((g.players[0].score, g.players[1].score), (0, 1));
}

#[test]
fn as_written_shield_nullifies_the_strongest_attack_on_its_user() {
    let mut g = game([A, W, K, A], Ruleset::AsWritten);
    g.players[3].item = Item::Shield;
    place(&mut g, &[(0, 4, 4), (1, 4, 5), (2, 5, 4), (3, 5, 5)]);
    g.step(&[false, false, false, true].map(Action::Use));
    g.step(&[mv(4, 4), mv(4, 5), mv(5, 4), mv(5, 5)]);
    // The Knight (6) attacks P1 first; under the engine rules its attack would have used up the
    // shield check. As written, P3's shield stops the Wizard (the strongest attack on P3).
    g.step(&[hit(3), hit(3), hit(1), hit(0)]);
    let a = g.record().attacks;
    assert!(a[1].nullified && a[1].damage == 0);
    assert!(!a[0].nullified && a[0].damage == 3);
    assert_eq!(g.players[3].health, 0);
    // The same turn under the engine ruleset: no shield works.
    let mut e = engine([A, W, K, A]);
    e.players = g.players;
    e.players[3].health = 3;
    e.phase = Phase::Attack;
    e.step(&[hit(3), hit(3), hit(1), hit(0)]);
    assert!(e.record().attacks.iter().all(|a| !a.nullified));
}

#[test]
fn as_written_shield_ties_go_to_the_earlier_attacker() {
    let mut g = game([K, K, K, K], Ruleset::AsWritten);
    g.players[2].shielded = true;
    place(&mut g, &[(0, 4, 4), (1, 4, 5), (2, 5, 5)]);
    g.phase = Phase::Attack;
    g.step(&[hit(2), hit(2), hit(0), hit(3)]);
    let a = g.record().attacks;
    assert!(a[0].nullified && !a[1].nullified);
}

#[test]
fn procrustean_iron_makes_every_hit_deal_five() {
    let mut g = engine([A, K, K, K]);
    g.players[1].item = Item::ProcrusteanIron;
    place(&mut g, &[(0, 3, 3), (1, 4, 4)]);
    to_attack(&mut g);
    g.step(&[hit(1), hit(1), hit(2), hit(3)]);
    assert_eq!(g.players[1].health, 4, "the Archer's 3 becomes 5");
    assert_eq!(
        g.record().attacks[0].damage,
        3,
        "the log keeps the attacker's damage"
    );
}

#[test]
fn self_attack_and_out_of_range_are_invalid_with_damage_logged() {
    let mut g = engine([K, W, A, K]);
    to_attack(&mut g);
    let r = g.step(&[hit(0), hit(3), Action::Pass, hit(1)]);
    let a = g.record().attacks;
    assert!(!a[0].valid && a[0].damage == 6);
    assert!(!a[1].valid && a[1].damage == 5);
    assert!(!a[2].valid && a[2].target == 2, "the pass attacks itself");
    assert!(g
        .players
        .iter()
        .all(|p| p.health as i32 == p.class.stats().max_health));
    // Attacking oneself is the default attack, a pass: invalid in the log, not refused.
    assert_eq!(&r.refused[..4], &[0, 1, 0, 1]);
}

#[test]
fn target_outside_the_players_is_invalid_with_zero_damage() {
    let mut g = engine([K, K, K, K]);
    to_attack(&mut g);
    g.step(&[hit(-1), hit(4), hit(i32::MAX), hit(i32::MIN)]);
    assert!(g
        .record()
        .attacks
        .iter()
        .all(|a| !a.valid && a.damage == 0 && !a.nullified));
}

#[test]
fn buy_needs_own_spawn_and_enough_gold() {
    let mut g = engine([K, K, K, K]);
    g.players[0].gold = 20;
    g.players[1].gold = 4;
    g.players[2].gold = 20;
    g.players[2].pos = at(9, 8);
    stay_turn(
        &mut g,
        SELF_HITS,
        [
            Action::Buy(Item::Shield),
            Action::Buy(Item::SpeedPotion),
            Action::Buy(Item::Shield),
            Action::Buy(Item::None),
        ],
    );
    let b = g.record().buys;
    assert!(b[0].valid && b[0].bought && g.players[0].item == Item::Shield);
    assert_eq!(g.players[0].gold, 20 - 8 + 1);
    assert!(!b[1].valid && g.players[1].item == Item::None);
    assert!(!b[2].valid, "off spawn");
    assert!(
        b[3].valid && !b[3].bought,
        "NONE with little gold: valid, nothing bought"
    );
}

#[test]
fn buying_replaces_the_held_item() {
    let mut g = engine([K, K, K, K]);
    g.players[0].gold = 20;
    g.players[0].item = Item::RallyBanner;
    stay_turn(&mut g, SELF_HITS, p0(Action::Buy(Item::StrengthPotion)));
    assert_eq!(g.players[0].item, Item::StrengthPotion);
    assert_eq!(g.players[0].gold, 20 - 5 + 1);
}

#[test]
fn buy_none_costs_100_on_spawn_quirk() {
    let mut g = engine([K, K, K, K]);
    g.players[0].gold = 100;
    g.players[0].item = Item::RallyBanner;
    stay_turn(&mut g, SELF_HITS, [Action::Pass; 4]);
    assert!(g.record().buys[0].valid && g.record().buys[0].bought);
    assert_eq!((g.players[0].gold, g.players[0].item), (1, Item::None));
}

#[test]
fn as_written_buy_none_is_free_and_keeps_the_item() {
    let mut g = game([K, K, K, K], Ruleset::AsWritten);
    g.players[0].gold = 100;
    g.players[0].item = Item::RallyBanner;
    stay_turn(&mut g, SELF_HITS, [Action::Pass; 4]);
    assert_eq!(
        (g.players[0].gold, g.players[0].item),
        (101, Item::RallyBanner)
    );
}

#[test]
fn class_items_cost_8_in_engine_and_10_as_written() {
    for (ruleset, left) in [(Ruleset::Engine, 2 + 1), (Ruleset::AsWritten, 1)] {
        let mut g = game([K, K, K, K], ruleset);
        g.players[0].gold = 10;
        stay_turn(&mut g, SELF_HITS, p0(Action::Buy(Item::MagicStaff)));
        assert_eq!(g.players[0].gold, left, "{ruleset:?}");
    }
    assert_eq!(Item::AnemoiWings.cost(Ruleset::Engine), 8);
    assert_eq!(Item::DexterityPotion.cost(Ruleset::AsWritten), 5);
}

#[test]
fn death_drops_the_held_item_but_not_the_item_in_effect() {
    let mut g = engine([A, K, K, K]);
    g.players[0].item = Item::RallyBanner;
    g.players[0].in_effect = Item::StrengthPotion;
    place(&mut g, &[(0, 4, 4), (1, 5, 5)]);
    g.phase = Phase::Attack;
    g.step(&[hit(0), hit(0), hit(2), hit(3)]);
    g.step(&NO_BUY);
    assert_eq!(g.players[0].item, Item::None);
    assert_eq!(g.players[0].in_effect, Item::StrengthPotion);
}

#[test]
fn dead_player_scores_on_control_tile_until_next_turn() {
    let mut g = engine([A, K, K, K]);
    place(&mut g, &[(0, 4, 4), (1, 5, 5)]);
    g.phase = Phase::Attack;
    g.step(&[hit(1), hit(0), hit(2), hit(3)]);
    g.step(&NO_BUY);
    let p0 = g.players[0];
    assert_eq!((p0.health, p0.pos, p0.score), (0, at(4, 4), 2));
    assert_eq!(g.players[1].score, 3, "2 for the tile, 1 for the kill");
}

#[test]
fn dead_player_respawns_and_heals_at_begin_turn() {
    let mut g = engine([A, K, K, K]);
    g.players[0].pos = at(4, 4);
    g.players[0].health = 0;
    g.step(&[Action::Use(false); 4]);
    assert_eq!((g.players[0].pos, g.players[0].health), (at(0, 0), 3));
}

#[test]
fn killed_on_own_spawn_heals_but_loses_the_item() {
    let mut g = engine([A, K, K, K]);
    g.players[0].item = Item::HunterScope;
    g.players[1].pos = at(1, 1);
    g.phase = Phase::Attack;
    g.step(&[hit(0), hit(0), hit(2), hit(3)]);
    assert_eq!(g.players[0].health, 0);
    g.step(&NO_BUY);
    assert_eq!((g.players[0].health, g.players[0].item), (3, Item::None));
}

#[test]
fn heal_at_own_spawn_at_end_of_turn() {
    let mut g = engine([K, K, K, K]);
    g.players[0].health = 2;
    g.players[1].health = 2;
    g.players[1].pos = at(9, 1);
    g.phase = Phase::Buy;
    g.step(&NO_BUY);
    assert_eq!((g.players[0].health, g.players[1].health), (9, 2));
}

#[test]
fn control_block_is_the_2x2_middle_and_scores_two() {
    let on: [Pos; 4] = [at(4, 4), at(4, 5), at(5, 4), at(5, 5)];
    assert!(on.iter().all(|p| p.on_control()));
    for off in [at(3, 4), at(6, 5), at(4, 6), at(5, 3)] {
        assert!(!off.on_control());
    }
    let mut g = engine([K, K, K, K]);
    place(&mut g, &[(0, 4, 5), (1, 3, 5)]);
    g.phase = Phase::Buy;
    g.step(&NO_BUY);
    assert_eq!((g.players[0].score, g.players[1].score), (2, 0));
}

#[test]
fn gold_is_turn_plus_one_without_spending_and_101_at_the_end() {
    let mut g = game([K, K, K, K], Ruleset::AsWritten);
    while !g.is_over() {
        g.step(&[Action::Pass; 4]);
        for p in &g.players {
            assert_eq!(p.gold as u32, g.turn() + 1);
        }
    }
    assert_eq!(g.players[0].gold, 101);
}

#[test]
fn engine_default_buy_on_spawn_takes_100_at_turn_100() {
    let mut g = engine([K, K, K, K]);
    while !g.is_over() {
        g.step(&[Action::Pass; 4]);
    }
    // Passing means moving home and buying NONE: at turn 100 it costs the 100 gold.
    assert!(g.players.iter().all(|p| p.gold == 1 && p.spent == 100));
}

#[test]
fn game_ends_after_100_turns_and_then_steps_change_nothing() {
    let mut g = engine([K, W, A, K]);
    let mut steps = 0;
    while !g.is_over() {
        g.step(&[Action::Pass; 4]);
        steps += 1;
    }
    assert_eq!((steps, g.turn(), g.engine_turn()), (400, 100, 101));
    assert_eq!(g.phase(), None);
    assert!(g.to_move().is_empty());
    let before = g.clone();
    g.step(&[Action::Use(true); 4]);
    assert_eq!(g, before);
}

#[test]
fn winner_is_most_points_then_most_gold_then_a_seeded_coin_flip() {
    let finished = |seed: u64, score: [u16; 4], gold: [u16; 4]| {
        let mut g = engine([K; 4]);
        g.seed = seed;
        g.turn = TURNS;
        for s in 0..4 {
            g.players[s].score = score[s];
            g.players[s].gold = gold[s];
        }
        g
    };
    let g = finished(1, [10, 30, 20, 30], [5, 1, 9, 2]);
    let o = g.outcome().unwrap_or_else(|| panic!("over"));
    assert_eq!(o.winner(), Some(3), "points tie: more gold wins");
    assert_eq!(o.ranks(), &[3, 1, 2, 0]);
    assert_eq!(o.scores(), &[10, 30, 20, 30]);
    // A full tie is settled by the seed's tiebreak stream: same seed, same order; every seed
    // gives a strict order, and the seeds do not all pick the same winner.
    let mut winners = [0u32; 4];
    for seed in 0..64 {
        let g = finished(seed, [5; 4], [5; 4]);
        let o = g.outcome().unwrap_or_else(|| panic!("over"));
        assert_eq!(Some(o), g.outcome());
        let mut ranks = [0u8; 4];
        ranks.copy_from_slice(o.ranks());
        ranks.sort();
        assert_eq!(ranks, [0, 1, 2, 3]);
        winners[o.winner().unwrap_or(0)] += 1;
    }
    assert!(winners.iter().all(|&w| w > 0), "{winners:?}");
}

#[test]
fn null_reply_drops_the_bot_and_clears_active_except_in_move() {
    let mut g = engine([K, K, K, K]);
    g.players[0].pos = at(3, 3);
    g.step(&[Action::Use(false); 4]);
    let r = g.step(&p0(Action::Null));
    assert_eq!(r.refused[0], 1);
    assert!(!g.players[0].connected);
    assert!(
        g.players[0].active,
        "the reference forgets removePlayer in MOVE"
    );
    assert_eq!(g.players[0].pos, at(0, 0), "default move: home");
    // The next phase reads null again and clears the flag; answers are ignored from now on.
    let r = g.step(&[hit(1), hit(1), hit(2), hit(3)]);
    assert_eq!(r.refused[0], 0, "a dropped bot is not counted again");
    assert!(!g.players[0].active);
    assert_eq!(g.record().attacks[0].target, 0);
    g.step(&p0(Action::Buy(Item::Shield)));
    assert_eq!(g.record().buys[0].item, Item::None);
    // A null USE clears the flag at once.
    let mut g = engine([K, K, K, K]);
    g.step(&[Action::Pass, Action::Null, Action::Pass, Action::Pass]);
    assert!(!g.players[1].active && !g.players[1].connected);
}

#[test]
fn malformed_reply_drops_the_bot_and_clears_active_in_any_phase() {
    let mut g = engine([K, K, K, K]);
    g.step(&[Action::Use(false); 4]);
    let r = g.step(&[Action::Pass, Action::Malformed, Action::Pass, Action::Pass]);
    assert_eq!(r.refused[1], 1);
    assert!(!g.players[1].active && !g.players[1].connected);
    assert_eq!(g.players[1].pos, Pos::spawn(1));
}

#[test]
fn dropped_bot_keeps_its_item_earns_gold_and_can_be_hit() {
    let mut g = engine([K, K, K, K]);
    g.players[1].item = Item::RallyBanner;
    g.players[1].connected = false;
    g.players[0].pos = at(8, 0);
    to_attack(&mut g);
    g.step(&p0(hit(1)));
    g.step(&NO_BUY);
    let p1 = g.players[1];
    assert_eq!(
        (p1.item, p1.gold, p1.health),
        (Item::RallyBanner, 2, 9),
        "healed at spawn"
    );
    assert!(g.record().attacks[0].valid);
}

#[test]
fn an_action_for_another_phase_is_the_default_and_refused() {
    let mut g = engine([K, K, K, K]);
    g.players[0].pos = at(3, 3);
    g.step(&[Action::Use(false); 4]);
    let r = g.step(&[
        hit(1),
        Action::Class(A),
        Action::Use(true),
        Action::Buy(Item::None),
    ]);
    assert_eq!(&r.refused[..4], &[1, 1, 1, 1]);
    assert_eq!(g.players[0].pos, at(0, 0), "default move: home");
    assert!(g.players.iter().all(|p| p.connected && p.active));
}

#[test]
fn missing_actions_are_passes() {
    let mut g = engine([K, K, K, K]);
    g.players[2].pos = at(5, 5);
    g.step(&[Action::Use(false)]);
    g.step(&[]);
    assert_eq!(g.players[2].pos, Pos::spawn(2));
}

#[test]
fn passive_item_applies_from_its_purchase_on() {
    let mut g = engine([K, K, K, K]);
    g.players[0].gold = 10;
    stay_turn(&mut g, SELF_HITS, p0(Action::Buy(Item::AnemoiWings)));
    assert_eq!(g.players[0].stats().speed, 3);
    g.step(&[Action::Use(false); 4]);
    g.step(&p0(mv(3, 0)));
    assert!(g.record().moves[0].valid);
}

/// One change of the state, by name.
type Change = (&'static str, fn(&mut Ballroom));

/// An item other than `i`.
fn other(i: Item) -> Item {
    if i == Item::Shield {
        Item::AnemoiWings
    } else {
        Item::Shield
    }
}

/// Each field of the state changed alone (the last seat's player and records).
const BALLROOM_CHANGES: &[Change] = &[
    ("ruleset", |g| {
        g.ruleset = match g.ruleset {
            Ruleset::Engine => Ruleset::AsWritten,
            Ruleset::AsWritten => Ruleset::Engine,
        }
    }),
    ("seed", |g| g.seed ^= 1),
    ("phase", |g| {
        g.phase = if g.phase == Phase::Buy {
            Phase::Use
        } else {
            Phase::Buy
        }
    }),
    ("turn", |g| g.turn += 1),
    ("class", |g| {
        g.players[3].class = if g.players[3].class == K { W } else { K }
    }),
    ("x", |g| g.players[3].pos.x ^= 1),
    ("y", |g| g.players[3].pos.y ^= 1),
    ("item", |g| g.players[3].item = other(g.players[3].item)),
    ("item in effect", |g| {
        g.players[3].in_effect = other(g.players[3].in_effect)
    }),
    ("effect timer", |g| g.players[3].effect_timer += 1),
    ("health", |g| g.players[3].health ^= 1),
    ("gold", |g| g.players[3].gold += 1),
    ("score", |g| g.players[3].score += 1),
    ("spent", |g| g.players[3].spent += 1),
    ("shielded", |g| {
        g.players[3].shielded = !g.players[3].shielded
    }),
    ("active", |g| g.players[3].active = !g.players[3].active),
    ("connected", |g| {
        g.players[3].connected = !g.players[3].connected
    }),
    ("use's used", |g| {
        g.record.uses[3].used = !g.record.uses[3].used
    }),
    ("use's validity", |g| {
        g.record.uses[3].valid = !g.record.uses[3].valid
    }),
    ("move's x", |g| g.record.moves[3].x += 1),
    ("move's y", |g| g.record.moves[3].y += 1),
    ("move's validity", |g| {
        g.record.moves[3].valid = !g.record.moves[3].valid
    }),
    ("attack's target", |g| g.record.attacks[3].target += 1),
    ("attack's validity", |g| {
        g.record.attacks[3].valid = !g.record.attacks[3].valid
    }),
    ("attack's damage", |g| g.record.attacks[3].damage += 1),
    ("attack nullified", |g| {
        g.record.attacks[3].nullified = !g.record.attacks[3].nullified
    }),
    ("buy's item", |g| {
        g.record.buys[3].item = other(g.record.buys[3].item)
    }),
    ("buy's validity", |g| {
        g.record.buys[3].valid = !g.record.buys[3].valid
    }),
    ("bought", |g| {
        g.record.buys[3].bought = !g.record.buys[3].bought
    }),
];

/// Every field of the state, named, so that a field added to it fails to compile here until
/// [`BALLROOM_CHANGES`] changes it too.
#[allow(dead_code)]
fn every_field(g: &Ballroom) {
    let Ballroom {
        ruleset: _,
        seed: _,
        phase: _,
        turn: _,
        players,
        record:
            TurnRecord {
                uses,
                moves,
                attacks,
                buys,
            },
    } = g;
    let Player {
        class: _,
        pos: Pos { x: _, y: _ },
        item: _,
        in_effect: _,
        effect_timer: _,
        health: _,
        gold: _,
        score: _,
        spent: _,
        shielded: _,
        active: _,
        connected: _,
    } = players[0];
    let UseRecord { used: _, valid: _ } = uses[0];
    let MoveRecord {
        x: _,
        y: _,
        valid: _,
    } = moves[0];
    let AttackRecord {
        target: _,
        valid: _,
        damage: _,
        nullified: _,
    } = attacks[0];
    let BuyRecord {
        item: _,
        valid: _,
        bought: _,
    } = buys[0];
}

#[test]
fn digest_changes_with_every_field_of_the_state() {
    // Mid-game: 100 steps of the built-in bots.
    let mut base = Ballroom::new(&Params::default(), 11).unwrap();
    let mut bots: [bots::BallroomBot; 4] =
        core::array::from_fn(|s| Ballroom::bot(Ballroom::BOTS[s % 3], s as u64).unwrap());
    for _ in 0..100 {
        crate::step_with_bots(&mut base, &mut bots);
    }
    assert!(!base.is_over());
    let missed: heapless::Vec<&str, 32> = BALLROOM_CHANGES
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
fn roster_names_its_bots_and_they_play_legal_games() {
    assert_eq!(Ballroom::BOTS, &["strong", "holder", "random"]);
    assert!(Ballroom::bot("nobody", 1).is_none());
    let mut g = Ballroom::new(&Params::default(), 3).unwrap_or_else(|e| panic!("{e}"));
    let mut bots: [bots::BallroomBot; 4] = core::array::from_fn(|s| {
        let name = Ballroom::BOTS[s % 3];
        Ballroom::bot(name, s as u64).unwrap_or_else(|| panic!("{name}"))
    });
    let mut refused = 0;
    while !g.is_over() {
        refused += crate::game::step_with_bots(&mut g, &mut bots).total_refused();
    }
    assert_eq!(refused, 0, "built-in bots only send legal actions");
    // Asked after the end, every bot passes.
    for (seat, bot) in bots.iter_mut().enumerate() {
        assert_eq!(
            bot.act(&g.view(seat)),
            Action::Pass,
            "seat {seat} after the end"
        );
    }
}

#[test]
fn attack_range_is_chebyshev_with_effective_range() {
    // A Knight (range 1) with a Hunter Scope reaches 2; an Archer drinking a Dexterity Potion
    // reaches 5 this turn. Diagonal distance counts as Chebyshev.
    let mut g = engine([K, K, A, K]);
    g.players[0].item = Item::HunterScope;
    place(&mut g, &[(0, 2, 2), (1, 4, 4)]);
    g.players[2].item = Item::DexterityPotion;
    g.players[2].pos = at(9, 9);
    g.step(&[false, false, true, false].map(Action::Use));
    g.step(&[mv(2, 2), mv(4, 4), mv(9, 9), Action::Pass]);
    g.step(&[hit(1), hit(3), hit(1), hit(0)]);
    let a = g.record().attacks;
    assert!(a[0].valid, "scope: range 2 reaches (4,4) from (2,2)");
    assert!(a[2].valid, "potion: range 5 reaches (4,4) from (9,9)");
    assert!(!a[1].valid && !a[3].valid);
}

fn reply(executor: u8, action: Action) -> Reply {
    Reply {
        executor,
        action,
        flags: Flags::NONE,
    }
}

/// `action` sent with the flags `valid`, `damage`, `nullified`.
fn flagged(action: Action, valid: bool, damage: i32, nullified: bool) -> Sent {
    Sent {
        action,
        flags: Flags {
            valid,
            damage,
            nullified,
        },
    }
}

/// Every seat's action without flags.
fn plain(actions: [Action; 4]) -> [Sent; 4] {
    actions.map(Sent::from)
}

#[test]
fn flags_sent_stand_where_execute_use_sets_none() {
    // `executeUse` only invalidates (holding NONE or a passive item): a bot's `isValid: false` on
    // a valid use stands, its `true` on an invalid one does not, and nothing else changes.
    let mut g = engine([K, K, K, K]);
    g.players[0].item = Item::SpeedPotion;
    g.players[1].item = Item::HunterScope;
    let mut sent = plain([Action::Use(false); 4]);
    sent[0] = flagged(Action::Use(true), false, 0, false);
    sent[1] = flagged(Action::Use(true), true, 0, false);
    let mut same = g.clone();
    let r = g.step_sent(&sent);
    let u = g.record().uses;
    assert!(
        u[0].used && !u[0].valid,
        "the bot's false stands on a valid use"
    );
    assert!(
        !u[1].valid,
        "the engine's invalidation wins over the bot's true"
    );
    assert_eq!(
        g.players[0].in_effect,
        Item::SpeedPotion,
        "the use happened"
    );
    // The flags change nothing but the record, and the refusals are the engine's judgement.
    let r2 = same.step(&[
        Action::Use(true),
        Action::Use(true),
        Action::Use(false),
        Action::Use(false),
    ]);
    assert_eq!(g.players, same.players);
    assert_eq!(r.refused, r2.refused);
    assert_eq!(&r.refused[..4], &[0, 1, 0, 0]);
}

#[test]
fn flags_sent_stand_where_execute_move_sets_none() {
    let mut g = engine([K, K, K, K]);
    g.step(&[Action::Use(false); 4]);
    let mut sent = plain([mv(0, 0), mv(9, 0), mv(9, 9), mv(0, 9)]);
    sent[0] = flagged(mv(1, 0), false, 0, false);
    // A snapped move is invalid whatever the bot says.
    sent[1] = flagged(mv(0, 9), true, 7, true);
    g.step_sent(&sent);
    let m = g.record().moves;
    assert!(
        !m[0].valid && g.players[0].pos == at(1, 0),
        "valid move, logged false"
    );
    assert!(!m[1].valid, "snapped");
    assert!(m[2].valid && m[3].valid);
}

#[test]
fn flags_sent_stand_where_execute_buy_sets_none() {
    let mut g = engine([K, K, K, K]);
    for p in g.players.iter_mut() {
        p.gold = 20;
    }
    to_attack(&mut g);
    g.step(&SELF_HITS);
    let mut sent = plain(NO_BUY);
    sent[0] = flagged(Action::Buy(Item::Shield), false, 0, false);
    sent[1] = flagged(Action::Buy(Item::None), false, 0, false);
    sent[2] = flagged(Action::Buy(Item::Shield), true, 0, false);
    g.players[2].pos = at(5, 5);
    let r = g.step_sent(&sent);
    let b = g.record().buys;
    assert!(!b[0].valid && b[0].bought, "bought, logged false");
    assert!(
        !b[1].valid,
        "buying NONE is never invalidated: the bot's false stands"
    );
    assert!(!b[2].valid && !b[2].bought, "off its spawn: invalid");
    assert_eq!(
        &r.refused[..4],
        &[0, 0, 1, 0],
        "only the engine's judgement refuses"
    );
}

#[test]
fn flags_sent_stand_where_execute_attack_sets_none() {
    // Seat 3 is shielded; the first landing attack (seat 0's, on 3) is nullified: its damage is
    // not set, so the bot's 99 stands. Seat 1 attacks in range: the engine sets its damage and
    // the bot's -4 is overwritten, its nullified true and isValid false stand. Seat 2 names no
    // player: invalid, damage not set (the bot's 12 stands).
    let mut g = engine([K, W, A, K]);
    g.players[3].shielded = true;
    place(&mut g, &[(0, 4, 4), (1, 4, 5), (2, 0, 0), (3, 5, 5)]);
    g.phase = Phase::Attack;
    let r = g.step_sent(&[
        flagged(hit(3), true, 99, false),
        flagged(hit(0), false, -4, true),
        flagged(hit(7), true, 12, false),
        Sent::from(hit(3)),
    ]);
    let a = g.record().attacks;
    assert!(
        a[0].nullified && a[0].valid && a[0].damage == 99,
        "{:?}",
        a[0]
    );
    assert!(
        a[1].nullified && !a[1].valid && a[1].damage == 5,
        "{:?}",
        a[1]
    );
    assert!(
        !a[2].valid && a[2].damage == 12 && !a[2].nullified,
        "{:?}",
        a[2]
    );
    assert!(
        !a[3].valid && a[3].damage == 6,
        "the pass: the engine's own values"
    );
    assert_eq!(
        g.players[0].health, 4,
        "the Wizard's hit landed: flags are only words"
    );
    assert_eq!(&r.refused[..4], &[0, 0, 1, 0]);
    // The same without flags: the engine's judgement alone.
    let mut e = engine([K, W, A, K]);
    e.players[3].shielded = true;
    place(&mut e, &[(0, 4, 4), (1, 4, 5), (2, 0, 0), (3, 5, 5)]);
    e.phase = Phase::Attack;
    e.step(&[hit(3), hit(0), hit(7), hit(3)]);
    let b = e.record().attacks;
    assert!(b[0].nullified && b[0].damage == 0 && b[1].valid && !b[1].nullified);
    assert_eq!(b[2].damage, 0);
    assert_eq!(e.players, g.players);
}

#[test]
fn flags_of_a_reply_replaced_by_the_default_do_not_stand() {
    // A wrong-phase action or a timeout plays the default action, which starts with the
    // engine's initial flags: the bot's do not reach the record.
    let mut g = engine([K, K, K, K]);
    g.step(&[Action::Use(false); 4]);
    let mut sent = plain([mv(0, 0), mv(9, 0), mv(9, 9), mv(0, 9)]);
    sent[0] = flagged(hit(1), false, 3, true);
    sent[1] = flagged(Action::Null, false, 3, true);
    g.step_sent(&sent);
    let m = g.record().moves;
    assert!(m[0].valid && m[1].valid, "{m:?}");
}

#[test]
fn replies_for_another_executor_act_for_that_player_in_read_order() {
    // As the official engine does when bot 3 names executor 0: bot 0's and bot 3's replies both
    // act for player 0, one after the other, player 3 is not touched, and player 0's record
    // holds the last reply read.
    let mut g = engine([K, K, K, W]);
    let own = |s: u8, a: Action| reply(s, a);
    g.step_replies(&[
        own(0, Action::Use(false)),
        own(1, Action::Use(false)),
        own(2, Action::Use(false)),
        reply(0, Action::Use(false)),
    ]);
    // Knight speed 2: 0,0 -> 0,2 (valid), then 0,2 -> 0,4 (valid only from 0,2).
    g.step_replies(&[
        own(0, mv(0, 2)),
        own(1, mv(9, 1)),
        own(2, mv(9, 8)),
        reply(0, mv(0, 4)),
    ]);
    assert_eq!(g.players[0].pos, at(0, 4));
    assert_eq!(g.players[3].pos, Pos::spawn(3), "player 3 was not moved");
    let m = g.record().moves[0];
    assert_eq!((m.x, m.y, m.valid), (0, 4, true));
    // The same two moves from one reply each would have snapped the second.
    let mut h = engine([K, K, K, W]);
    h.step(&[Action::Use(false); 4]);
    h.step(&[mv(0, 4), mv(9, 1), mv(9, 8), Action::Pass]);
    assert!(!h.record().moves[0].valid);
}

#[test]
fn step_logged_is_the_replies_of_each_player_in_player_order() {
    let mut a = engine([A, W, K, K]);
    let mut b = a.clone();
    place(&mut a, &[(0, 4, 4), (1, 4, 5), (2, 5, 5), (3, 5, 4)]);
    place(&mut b, &[(0, 4, 4), (1, 4, 5), (2, 5, 5), (3, 5, 4)]);
    let phases: [[Action; 4]; 4] = [
        [Action::Use(false); 4],
        [mv(4, 4), mv(4, 5), mv(5, 5), mv(5, 4)],
        [hit(1), hit(2), hit(1), hit(0)],
        [Action::Buy(Item::Shield), NO_BUY[0], NO_BUY[0], NO_BUY[0]],
    ];
    for acts in phases {
        a.step_logged(&acts.map(Some));
        let replies: [Reply; 4] = core::array::from_fn(|s| reply(s as u8, acts[s]));
        b.step_replies(&replies);
        assert_eq!(a, b);
    }
    // A `None` is a player no reply names: untouched, record kept.
    let before = a.clone();
    a.step_logged(&[None, Some(Action::Use(false)), None, None]);
    b.step_replies(&[reply(1, Action::Use(false))]);
    assert_eq!(a, b);
    assert_eq!(a.record().uses[0], before.record().uses[0]);
}

#[test]
fn the_attack_queue_keeps_read_order_for_ties_of_damage() {
    // Two Knights (6 damage each, a tie) hit a Knight (9 HP): the first in the queue leaves it
    // at 3, the second kills it and is credited, so the read order decides who scores.
    for (order, credited) in [([0u8, 1], (0, 1)), ([1, 0], (1, 0))] {
        let mut g = engine([K, K, K, A]);
        place(&mut g, &[(0, 4, 4), (1, 4, 5), (2, 5, 5), (3, 0, 9)]);
        to_attack(&mut g);
        let mut replies = [
            reply(order[0], hit(2)),
            reply(order[1], hit(2)),
            reply(2, hit(2)),
            reply(3, hit(3)),
        ];
        g.step_replies(&replies);
        assert_eq!(g.players[2].health, 0);
        assert_eq!(
            (g.players[0].score, g.players[1].score),
            credited,
            "order {order:?}"
        );
        // Two replies for one executor: both attacks are queued, the last read is recorded.
        let mut g = engine([K, K, K, A]);
        place(&mut g, &[(0, 4, 4), (1, 4, 5), (2, 5, 5), (3, 0, 9)]);
        to_attack(&mut g);
        replies[1] = reply(0, hit(1));
        replies[0] = reply(0, hit(2));
        g.step_replies(&replies);
        assert_eq!(g.players[2].health, 3, "6 from player 0's first attack");
        assert_eq!(g.players[1].health, 3, "and 6 from its second");
        assert_eq!(g.record().attacks[0].target, 1);
    }
}

#[test]
fn params_with_classes_picks_each_seat_in_order_or_none() {
    let mut order = [K, W, A, A].into_iter();
    let p =
        Params::with_classes(Ruleset::AsWritten, true, || order.next().ok_or("none left")).unwrap();
    assert_eq!(
        (p.ruleset, p.classes),
        (Ruleset::AsWritten, Some([K, W, A, A]))
    );
    let p =
        Params::with_classes(Ruleset::Engine, false, || Err::<Class, _>("never asked")).unwrap();
    assert_eq!((p.ruleset, p.classes), (Ruleset::Engine, None));
    let mut two = [K, W].into_iter();
    assert_eq!(
        Params::with_classes(Ruleset::Engine, true, || two.next().ok_or("none left")),
        Err("none left")
    );
}

#[test]
fn in_range_is_chebyshev_within_the_attackers_range_and_never_itself() {
    let mut g = engine([K, K, A, K]);
    place(&mut g, &[(0, 2, 2), (1, 3, 3), (2, 9, 9), (3, 2, 4)]);
    assert!(g.in_range(0, 1), "a diagonal neighbour, range 1");
    assert!(!g.in_range(0, 3), "two tiles off, range 1");
    assert!(!g.in_range(0, 0), "itself");
    assert!(!g.in_range(2, 1), "six tiles off, range 3");
    assert!(
        !g.in_range(0, PLAYERS) && !g.in_range(PLAYERS, 0),
        "no such player"
    );
}

#[test]
fn a_sent_action_comes_with_no_flags() {
    assert_eq!(
        Sent::from(hit(2)),
        Sent {
            action: hit(2),
            flags: Flags::NONE
        }
    );
    assert_eq!(Action::from(Sent::from(mv(3, 4))), mv(3, 4));
}

#[test]
fn replies_for_no_player_are_skipped_in_every_phase() {
    // Replies for seats 0..3, and one more for an executor outside the players (where the
    // engine crashes): each phase plays as without it.
    let mut with = engine([K, W, A, K]);
    let mut without = with.clone();
    let phases: [[Action; 4]; 4] = [
        [
            Action::Use(false),
            Action::Use(false),
            Action::Use(false),
            Action::Use(true),
        ],
        [mv(1, 1), mv(0, 1), mv(1, 0), mv(2, 2)],
        [hit(1), hit(0), hit(1), hit(0)],
        [Action::Buy(Item::None); 4],
    ];
    for actions in phases {
        let mut replies: [Reply; 4] = core::array::from_fn(|s| Reply {
            executor: s as u8,
            action: actions[s],
            flags: Flags::NONE,
        });
        replies[3].executor = PLAYERS as u8;
        let a = with.step_replies(&replies);
        let b = without.step_replies(&replies[..3]);
        assert_eq!(a, b);
        assert_eq!(with.record(), without.record());
        assert_eq!(with.digest(), without.digest());
    }
}

#[test]
fn the_random_bot_buys_on_its_spawn_only() {
    let mut g = engine([K, K, A, K]);
    to_attack(&mut g);
    g.step(&[Action::Pass; 4]);
    assert_eq!(g.phase(), Some(Phase::Buy));
    place(&mut g, &[(0, 5, 5)]);
    assert_eq!(g.players[1].pos, Pos::spawn(1));
    for s in 0..2 {
        g.players[s].gold = 1000;
    }
    let mut bought = 0;
    for seed in 0..16 {
        let mut bot = Ballroom::bot("random", seed).unwrap();
        assert_eq!(
            bot.act(&g.view(0)),
            Action::Buy(Item::None),
            "off its spawn"
        );
        bought += usize::from(bot.act(&g.view(1)) != Action::Buy(Item::None));
    }
    assert!(bought > 0, "on its spawn with 1000 gold, it never bought");
}

#[test]
fn four_seats_all_move_every_phase_until_the_end() {
    let mut g = Ballroom::new(&Params::default(), 3).unwrap();
    assert_eq!(g.seats(), 4);
    assert!(!g.started(), "the classes are not chosen yet");
    assert_eq!(g.to_move(), SeatSet::all(4), "the class handshake");
    g.step(&[Action::Class(W); 4]);
    assert!(g.started());
    let mut steps = 0;
    while g.phase().is_some() {
        assert_eq!(g.to_move(), SeatSet::all(4), "step {steps}");
        g.step(&[Action::Pass; 4]);
        steps += 1;
    }
    assert_eq!(steps, 4 * TURNS as usize);
    assert_eq!((g.to_move(), g.seats()), (SeatSet::EMPTY, 4));
    // Classes given with the params: the handshake is skipped, the game is started.
    assert!(engine([K, W, A, K]).started());
}

#[test]
fn the_ruleset_is_the_one_set_up() {
    for ruleset in [Ruleset::Engine, Ruleset::AsWritten] {
        assert_eq!(game([K, W, A, K], ruleset).ruleset(), ruleset);
        let params = Params {
            ruleset,
            classes: None,
        };
        assert_eq!(Ballroom::new(&params, 5).unwrap().ruleset(), ruleset);
    }
}

#[test]
fn the_decision_says_points_then_gold_then_the_seeded_coin() {
    let finished = |score: [u16; 4], gold: [u16; 4]| {
        let mut g = engine([K; 4]);
        g.turn = TURNS;
        for s in 0..4 {
            g.players[s].score = score[s];
            g.players[s].gold = gold[s];
        }
        g
    };
    assert!(engine([K; 4]).decision().is_none(), "not over");
    let g = finished([10, 30, 20, 30], [5, 1, 9, 2]);
    let why = g.decision().unwrap();
    assert_eq!(why.rank[..4], *g.outcome().unwrap().ranks());
    crate::outcome::assert_says(
        &why,
        "seat 3 wins on gold, 2 to 1 (points tied at 30)",
        (2, "points 20 gold 9"),
        "ranked by points, then gold, then a seeded coin",
    );
    let g = finished([5; 4], [5; 4]);
    let why = g.decision().unwrap();
    let w = g.outcome().unwrap().winner().unwrap();
    let r = g.ranking()[1];
    assert_eq!(
        crate::outcome::shown(why.verdict()),
        crate::outcome::shown(format_args!(
            "seat {w} wins over seat {r} by a seeded coin: points tied at 5, gold tied at 5"
        ))
    );
}

#[test]
fn replies_only_for_no_player_play_the_phase_as_no_replies() {
    // Every reply names an executor outside the players: the phase plays as with no reply at
    // all (the engine reads none it could execute), whichever path filters them. Executors
    // just past the players, far past, and both, in every phase of two turns.
    let executors: [&[u8]; 4] = [
        &[PLAYERS as u8],
        &[200, u8::MAX],
        &[PLAYERS as u8, 200],
        &[],
    ];
    let mut with = engine([K, W, A, K]);
    let mut without = with.clone();
    let actions = [
        Action::Use(true),
        mv(1, 1),
        hit(1),
        Action::Buy(Item::Shield),
    ];
    for turn in 0..2 {
        for (i, action) in actions.into_iter().enumerate() {
            let execs = executors[(i + turn) % 4];
            let mut replies = [Reply::default(); 2];
            for (r, &executor) in replies.iter_mut().zip(execs) {
                *r = Reply {
                    executor,
                    action,
                    flags: Flags::NONE,
                };
            }
            let a = with.step_replies(&replies[..execs.len()]);
            let b = without.step_replies(&[]);
            assert_eq!(a, b);
            assert_eq!(with, without);
        }
    }
}

#[test]
fn a_ruleset_is_named_as_on_the_command_line_and_found_by_that_name() {
    assert_eq!(Ruleset::Engine.name(), "engine");
    assert_eq!(Ruleset::AsWritten.name(), "as-written");
    for r in [Ruleset::Engine, Ruleset::AsWritten] {
        assert_eq!(Ruleset::from_name(r.name()), Some(r));
    }
    assert_eq!(Ruleset::from_name(""), None);
    assert_eq!(Ruleset::from_name("Engine"), None);
}

#[test]
fn classes_items_and_phases_have_the_references_names_in_its_order() {
    // `CharacterClass`, `Item` and `GamePhaseType` of the reference (MechMania 28's engine):
    // the names its JSON and logs carry, the index its declaration order.
    let classes = [(K, "KNIGHT"), (W, "WIZARD"), (A, "ARCHER")];
    for (i, (c, name)) in classes.into_iter().enumerate() {
        assert_eq!((c.name(), usize::from(c.index())), (name, i));
        assert_eq!(Class::from_name(name), Some(c));
    }
    assert_eq!(Class::ALL.map(Class::name), ["KNIGHT", "WIZARD", "ARCHER"]);
    for other in ["", "knight", "Wizard", "NONE", "ARCHERS"] {
        assert_eq!(Class::from_name(other), None, "{other:?}");
    }
    let items = [
        "SHIELD",
        "PROCRUSTEAN_IRON",
        "HEAVY_BROADSWORD",
        "MAGIC_STAFF",
        "STEEL_TIPPED_ARROW",
        "ANEMOI_WINGS",
        "HUNTER_SCOPE",
        "RALLY_BANNER",
        "STRENGTH_POTION",
        "SPEED_POTION",
        "DEXTERITY_POTION",
        "NONE",
    ];
    assert_eq!(Item::ALL.map(Item::name), items);
    for (i, (item, name)) in Item::ALL.into_iter().zip(items).enumerate() {
        assert_eq!(usize::from(item.index()), i);
        assert_eq!(Item::from_name(name), Some(item));
    }
    for other in ["", "none", "Shield", "HUNTER SCOPE", "KNIGHT"] {
        assert_eq!(Item::from_name(other), None, "{other:?}");
    }
    // The four phases of a turn in `GamePhaseType`'s order after the handshake (index 0).
    let phases = [
        (Phase::Use, "USE"),
        (Phase::Move, "MOVE"),
        (Phase::Attack, "ATTACK"),
        (Phase::Buy, "BUY"),
    ];
    for (i, (p, name)) in phases.into_iter().enumerate() {
        assert_eq!((p.name(), usize::from(p.index())), (name, i + 1));
    }
    assert_eq!((Phase::Class.name(), Phase::Class.index()), ("CLASS", 0));
    // The phase before, within a turn: none before USE (nor before the handshake).
    assert_eq!(Phase::Buy.previous(), Some(Phase::Attack));
    assert_eq!(Phase::Attack.previous(), Some(Phase::Move));
    assert_eq!(Phase::Move.previous(), Some(Phase::Use));
    assert_eq!(Phase::Use.previous(), None);
    assert_eq!(Phase::Class.previous(), None);
}

#[test]
fn items_are_the_references_table() {
    // The reference's `Item` enum: (stat set: max health, damage, speed, range; effect timer;
    // price), its `affect` (the class a class item turns its user into), in declaration order.
    let none = StatSet::new(0, 0, 0, 0);
    let table = [
        (Item::Shield, none, 1, 8, None),
        (Item::ProcrusteanIron, none, -1, 8, None),
        (Item::HeavyBroadsword, none, 0, 8, Some(K)),
        (Item::MagicStaff, none, 0, 8, Some(W)),
        (Item::SteelTippedArrow, none, 0, 8, Some(A)),
        (Item::AnemoiWings, StatSet::new(0, 0, 1, 0), -1, 8, None),
        (Item::HunterScope, StatSet::new(0, 0, 0, 1), -1, 8, None),
        (Item::RallyBanner, StatSet::new(0, 2, 0, 0), -1, 8, None),
        (Item::StrengthPotion, StatSet::new(0, 4, 0, 0), 1, 5, None),
        (Item::SpeedPotion, StatSet::new(0, 0, 2, 0), 1, 5, None),
        (Item::DexterityPotion, StatSet::new(0, 0, 0, 2), 1, 5, None),
        (Item::None, none, -1, 100, None),
    ];
    assert_eq!(table.map(|t| t.0), Item::ALL);
    for (item, bonus, timer, cost, class) in table {
        assert_eq!(item.bonus(), bonus, "{item:?}");
        assert_eq!(item.timer(), timer, "{item:?}");
        assert_eq!(item.is_permanent(), timer == -1, "{item:?}");
        assert_eq!(item.cost(Ruleset::Engine), cost, "{item:?}");
        // As written: NONE free (the text has no price for it), class items 10.
        let written = match item {
            Item::None => 0,
            Item::HeavyBroadsword | Item::MagicStaff | Item::SteelTippedArrow => 10,
            _ => cost,
        };
        assert_eq!(item.cost(Ruleset::AsWritten), written, "{item:?}");
        assert_eq!(item.class_change(), class, "{item:?}");
    }
    // In play: an Archer using a Magic Staff is a Wizard; a Knight drinking a Strength Potion
    // hits for 6 + 4 this turn, killing a Knight at full health (9).
    let mut g = engine([A, K, K, K]);
    place(&mut g, &[(0, 4, 4), (1, 5, 5), (2, 5, 4)]);
    g.players[0].item = Item::MagicStaff;
    g.players[1].item = Item::StrengthPotion;
    g.step(&[
        Action::Use(true),
        Action::Use(true),
        Action::Pass,
        Action::Pass,
    ]);
    assert_eq!(g.players[0].class, W);
    assert_eq!(g.players[0].stats(), W.stats());
    assert_eq!(g.players[1].stats().damage, 10);
    g.step(&[mv(4, 4), mv(5, 5), mv(5, 4), Action::Pass]);
    assert_eq!(g.players[2].health, 9);
    g.step(&[hit(0), hit(2), hit(2), hit(3)]);
    assert_eq!(g.players[2].health, 0, "9 - 10");
}
