//! Scoring: a pure function of the hands, so that the rules and the bots' look-ahead share it.
//!
//! Every tie is broken by one order of the five seats (`rules/mammut.md`, "Tie-breaker tile"),
//! computed once per scoring. The match result splits tied placement points, which are fractions
//! (three players sharing 3+2+1, two sharing 2+1): they are counted in sixtieths of a point, since 60
//! is divisible by every possible number of tied players, so they stay integers.

use super::tiles::{Deal, Side, TileSet};
use super::PLAYERS;
use crate::seat::Seat;

/// Points every player starts the game with.
pub const START_POINTS: i32 = 10;
/// What the player with the fewest Fire tiles loses.
pub const FIRE_PENALTY: i32 = 5;
/// What the three players with the most Meat get.
pub const MEAT_AWARDS: [i32; 3] = [8, 5, 2];
/// Points per Ivory tile.
pub const IVORY_POINTS: i32 = 2;
/// Points per Axe tile, and in the last round.
pub const AXE_POINTS: i32 = 1;
/// Points per Axe tile in the last round.
pub const AXE_POINTS_LAST_ROUND: i32 = 3;
/// The end-of-game bonus by number of different animals obtained (0..=7).
pub const ANIMAL_BONUS: [i32; 8] = [0, 0, 0, 4, 9, 15, 22, 30];
/// Placement points by place, before splitting ties.
pub const PLACEMENT: [u16; PLAYERS] = [5, 3, 2, 1, 0];
/// Placement points are counted in 1/60 of a point (see the module docs).
pub const PLACEMENT_SCALE: u16 = 60;

/// The tie order: the seats, first to last.
pub type Order = [u8; PLAYERS];

/// The seat of the player with id `id` (`None` if no seat has it).
pub fn seat_of(ids: &[u8; PLAYERS], id: u8) -> Option<Seat> {
    ids.iter().position(|&i| i == id)
}

/// The next seat after `seat`, clockwise (`id + 1`, 5 wraps to 1) or counter-clockwise.
pub fn next_seat(ids: &[u8; PLAYERS], seat: Seat, clockwise: bool) -> Seat {
    let id = ids.get(seat).copied().unwrap_or(1) as usize;
    // Ids are 1..=PLAYERS: step in 0..PLAYERS, then back.
    let next = if clockwise {
        (id % PLAYERS).saturating_add(1)
    } else {
        (id.saturating_add(2 * PLAYERS - 2) % PLAYERS).saturating_add(1)
    };
    seat_of(ids, next as u8).unwrap_or(seat)
}

/// The five seats starting at `start`, in one direction.
pub fn order_from(ids: &[u8; PLAYERS], start: Seat, clockwise: bool) -> Order {
    let mut order = [0u8; PLAYERS];
    let mut seat = start;
    for slot in order.iter_mut() {
        *slot = seat as u8;
        seat = next_seat(ids, seat, clockwise);
    }
    order
}

/// The tie order: the holder of the tie-breaker tile first (the round's first player if it lies in
/// the middle), then the direction its visible side shows.
pub fn tie_order(
    hands: &[TileSet; PLAYERS],
    deal: &Deal,
    ids: &[u8; PLAYERS],
    first: Seat,
) -> Order {
    let tie = deal.tie_tile();
    let start = hands.iter().position(|h| h.contains(tie)).unwrap_or(first);
    let clockwise = deal.visible(tie) != Some(Side::CounterClockwise);
    order_from(ids, start, clockwise)
}

/// Where each seat stands in `order` (0 = first).
pub fn positions(order: &Order) -> [u8; PLAYERS] {
    let mut pos = [0u8; PLAYERS];
    for (i, &seat) in order.iter().enumerate() {
        if let Some(p) = pos.get_mut(seat as usize) {
            *p = i as u8;
        }
    }
    pos
}

/// The seat that loses [`FIRE_PENALTY`]: fewest Fire, ties to the latest in tie order.
pub fn fire_loser(fire: &[u8; PLAYERS], order: &Order) -> Seat {
    let mut loser = order.first().copied().unwrap_or(0) as usize;
    for &seat in order.iter() {
        let s = seat as usize;
        if fire.get(s) <= fire.get(loser) {
            loser = s;
        }
    }
    loser
}

/// The seats placed first, second and third in Meat: most Meat, ties to the earliest in tie order.
pub fn meat_places(meat: &[u8; PLAYERS], order: &Order) -> [Seat; 3] {
    let mut ranked = *order;
    // A stable insertion sort by Meat, descending: equal counts keep the tie order.
    for i in 1..ranked.len() {
        let mut j = i;
        while let Some(k) = j.checked_sub(1) {
            let (Some(&a), Some(&b)) = (ranked.get(k), ranked.get(j)) else {
                break;
            };
            if meat.get(b as usize) > meat.get(a as usize) {
                ranked.swap(k, j);
                j = k;
            } else {
                break;
            }
        }
    }
    [ranked[0] as Seat, ranked[1] as Seat, ranked[2] as Seat]
}

/// The seats that gain and lose the round number for Fur: most Fur tiles (ties to the earliest in
/// tie order) and fewest (ties to the latest).
pub fn fur_winner_loser(fur: &[u8; PLAYERS], order: &Order) -> (Seat, Seat) {
    let mut winner = order.first().copied().unwrap_or(0) as usize;
    for &seat in order.iter() {
        if fur.get(seat as usize) > fur.get(winner) {
            winner = seat as usize;
        }
    }
    (winner, fire_loser(fur, order))
}

/// The tiles of every kind each seat holds under a deal (a Mystery tile that is not turned counts
/// as none of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Fire tiles, by seat.
    pub fire: [u8; PLAYERS],
    /// Meat tiles, by seat.
    pub meat: [u8; PLAYERS],
    /// Fur tiles, by seat.
    pub fur: [u8; PLAYERS],
    /// Ivory tiles, by seat.
    pub ivory: [u8; PLAYERS],
    /// Axe tiles, by seat.
    pub axe: [u8; PLAYERS],
    /// The animals each hand shows, as animal sets.
    pub animals: [u8; PLAYERS],
}

impl Counts {
    /// Counts the hands under `deal`, as it shows: scoring turns the Mystery tiles first
    /// ([`Deal::revealed`]); a player before scoring counts them as nothing.
    pub fn of(hands: &[TileSet; PLAYERS], deal: &Deal) -> Counts {
        let masks = deal.side_masks();
        let count = |side: Side, hand: &TileSet| -> u8 {
            masks
                .get(side.index())
                .map_or(0, |m| hand.and(*m).len() as u8)
        };
        let mut c = Counts::default();
        for (s, hand) in hands.iter().enumerate() {
            if let Some(v) = c.fire.get_mut(s) {
                *v = count(Side::Fire, hand);
            }
            if let Some(v) = c.meat.get_mut(s) {
                *v = count(Side::Meat, hand);
            }
            if let Some(v) = c.fur.get_mut(s) {
                *v = count(Side::Fur, hand);
            }
            if let Some(v) = c.ivory.get_mut(s) {
                *v = count(Side::Ivory, hand);
            }
            if let Some(v) = c.axe.get_mut(s) {
                *v = count(Side::Axe, hand);
            }
            if let Some(v) = c.animals.get_mut(s) {
                *v = deal.animals_in(*hand);
            }
        }
        c
    }
}

/// What one round's scoring gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundScore {
    /// Points gained (or lost) this round, per seat, before the floor at zero.
    pub gain: [i32; PLAYERS],
    /// Fur tiles per seat (added to the cumulative fur points).
    pub fur: [u8; PLAYERS],
    /// Animals obtained this round, per seat.
    pub animals: [u8; PLAYERS],
    /// The tie order used.
    pub order: Order,
}

/// Points per Axe tile in `round`.
pub const fn axe_points(round: u8) -> i32 {
    if round >= super::ROUNDS {
        AXE_POINTS_LAST_ROUND
    } else {
        AXE_POINTS
    }
}

/// Scores one round: `rules/mammut.md`, "Scoring", with the tiles as `deal` shows them (the rules
/// score the revealed deal; a bot valuing what it sees scores the deal as it is). Players who hold
/// nothing score as empty hands.
pub fn score_round(
    hands: &[TileSet; PLAYERS],
    deal: &Deal,
    ids: &[u8; PLAYERS],
    first: Seat,
    round: u8,
) -> RoundScore {
    let c = Counts::of(hands, deal);
    let order = tie_order(hands, deal, ids, first);
    let mut gain = [0i32; PLAYERS];
    let mut add = |seat: Seat, points: i32| {
        if let Some(g) = gain.get_mut(seat) {
            *g = g.saturating_add(points);
        }
    };
    add(fire_loser(&c.fire, &order), -FIRE_PENALTY);
    for (seat, award) in meat_places(&c.meat, &order).iter().zip(MEAT_AWARDS) {
        add(*seat, award);
    }
    let (winner, loser) = fur_winner_loser(&c.fur, &order);
    add(winner, round as i32);
    add(loser, (round as i32).saturating_neg());
    for s in 0..PLAYERS {
        let ivory = c.ivory.get(s).copied().unwrap_or(0) as i32;
        let axe = c.axe.get(s).copied().unwrap_or(0) as i32;
        add(
            s,
            ivory
                .saturating_mul(IVORY_POINTS)
                .saturating_add(axe.saturating_mul(axe_points(round))),
        );
    }
    RoundScore {
        gain,
        fur: c.fur,
        animals: c.animals,
        order,
    }
}

/// The end-of-game bonus for an animal set.
pub fn animal_bonus(animals: u8) -> i32 {
    ANIMAL_BONUS
        .get(animals.count_ones() as usize)
        .copied()
        .unwrap_or(0)
}

/// Placement points of each seat, in 1/[`PLACEMENT_SCALE`] of a point: 5, 3, 2, 1, 0 by final
/// points, tied seats splitting the points of the places they occupy.
pub fn placement_points(finals: &[i32; PLAYERS]) -> [u16; PLAYERS] {
    let mut out = [0u16; PLAYERS];
    for (s, slot) in out.iter_mut().enumerate() {
        let mine = finals.get(s).copied().unwrap_or(0);
        let better = finals.iter().filter(|&&p| p > mine).count();
        let tied = finals.iter().filter(|&&p| p == mine).count().max(1);
        let sum: u16 = PLACEMENT.iter().skip(better).take(tied).sum();
        *slot = sum
            .saturating_mul(PLACEMENT_SCALE)
            .checked_div(tied as u16)
            .unwrap_or(0);
    }
    out
}
