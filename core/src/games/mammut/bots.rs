//! The built-in bots: `random`, `greedy` and `cautious`.
//!
//! All three see what a real bot sees: every hand is public in Mammut, and a Mystery tile shows
//! "Mystery" until scoring. Ids are dealt to the tiles anew every round, so nothing tells a bot a
//! Mystery tile's other side: it values one as nothing ([`Mammut::score_seen`]).
//!
//! **Why a knapsack.** A round's score is a sum of one term per kind of tile (Fire, Meat, Fur, Ivory,
//! Axe, animals), each depending only on how many of that kind each player holds, once the tie order
//! is fixed; the tie order only depends on who takes the tie-breaker tile. So the best set of exactly
//! `k` tiles from the middle is a small dynamic programme over the kinds, run once with and once
//! without the tie-breaker tile: exact, and cheap enough for a microcontroller.
//!
//! - `greedy` takes (or steals) what maximises its score if the round ended now.
//! - `cautious` assumes the players still waiting to act are greedy. A take or steal that the first
//!   of them would rather steal than take from the middle is valued at what `cautious` could get
//!   back once robbed (its greedy answer then), never more than its face value; it plays the best
//!   expected value. A hand of one tile is never worth stealing, so small takes are safe.
//! - `random` takes a random number of random tiles, or steals from a random player, at random.
//!
//! Animals count toward the end bonus: [`ANIMAL_WORTH`] each before the last round, the bonus steps
//! they complete in the last round.

use super::scoring::{
    animal_bonus, axe_points, fire_loser, fur_winner_loser, meat_places, tie_order, Counts, Order,
    IVORY_POINTS, MEAT_AWARDS,
};
use super::tiles::{Side, TileSet, TILE_COUNT};
use super::{Action, Mammut, MammutView, PLAYERS, ROUNDS};
use crate::game::Bot;
use crate::rng::Rng;
use crate::seat::Seat;

/// What a new animal is worth to the bots before the last round (a typical step of the end bonus).
pub const ANIMAL_WORTH: i32 = 4;

/// The largest take `cautious` considers (bigger hands are what thieves look for).
pub const CAUTIOUS_MAX_TAKE: usize = 12;

/// Kinds of tile the knapsack values separately: Fire, Meat, Fur, Ivory, Axe, new animals, the rest.
const GROUPS: usize = 7;
/// Sizes of take: 0..=TILE_COUNT.
const SIZES: usize = TILE_COUNT + 1;

/// A hypothetical table: the hands and the middle after some action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Table {
    hands: [TileSet; PLAYERS],
    middle: TileSet,
}

impl Table {
    fn of(g: &MammutView<'_>) -> Table {
        Table {
            hands: *g.hands(),
            middle: g.middle(),
        }
    }

    fn hand(&self, seat: Seat) -> TileSet {
        self.hands.get(seat).copied().unwrap_or_default()
    }

    /// The table after `seat` plays `action` (assumed legal).
    fn after(&self, seat: Seat, action: Action) -> Table {
        let mut t = *self;
        super::round::move_tiles(&mut t.hands, &mut t.middle, seat, action);
        t
    }
}

/// A choice and what it is worth to the one who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choice {
    action: Action,
    value: i32,
}

/// What animals in `got` are worth to `seat`, given those it has already obtained.
fn animal_worth(g: &MammutView<'_>, seat: Seat, got: u8) -> i32 {
    let have = g.animals().get(seat).copied().unwrap_or(0);
    let new = (got & !have).count_ones() as i32;
    if g.round() >= ROUNDS {
        animal_bonus(have | got).saturating_sub(animal_bonus(have))
    } else {
        new.saturating_mul(ANIMAL_WORTH)
    }
}

/// What `seat` can tell it would score if the round ended with table `t` (Mystery tiles count as
/// nothing).
fn worth(g: &MammutView<'_>, t: &Table, seat: Seat) -> i32 {
    let score = g.score_seen(&t.hands);
    let gain = score.gain.get(seat).copied().unwrap_or(0);
    gain.saturating_add(animal_worth(
        g,
        seat,
        score.animals.get(seat).copied().unwrap_or(0),
    ))
}

/// The knapsack of one take: the best value of every size, and how to rebuild its set.
struct Plan {
    best: [i32; SIZES],
    pick: [[u8; SIZES]; GROUPS],
    groups: [TileSet; GROUPS],
    tie: bool,
    tie_tile: u8,
}

/// What taking `c` tiles of each value group of [`value_groups`] is worth to `seat` this round,
/// the other hands being as they are (the bot's own hand holding only what it takes).
struct Worth<'a> {
    g: &'a MammutView<'a>,
    seat: Seat,
    counts: Counts,
    order: Order,
    /// The tiles of the middle whose animal `seat` does not have yet (group 5).
    new_animals: TileSet,
}

impl Worth<'_> {
    /// `counts` with `seat`'s count `c`.
    fn with(&self, counts: &[u8; PLAYERS], c: usize) -> [u8; PLAYERS] {
        let mut out = *counts;
        if let Some(v) = out.get_mut(self.seat) {
            *v = c as u8;
        }
        out
    }

    /// The worth of `c` tiles of group `group`.
    fn value(&self, group: usize, c: usize) -> i32 {
        let (g, seat, order) = (self.g, self.seat, &self.order);
        let round = g.round() as i32;
        match group {
            0 if fire_loser(&self.with(&self.counts.fire, c), order) == seat => {
                -super::scoring::FIRE_PENALTY
            }
            1 => {
                let places = meat_places(&self.with(&self.counts.meat, c), order);
                places
                    .iter()
                    .zip(MEAT_AWARDS)
                    .find(|(s, _)| **s == seat)
                    .map_or(0, |(_, a)| a)
            }
            2 => {
                let (win, lose) = fur_winner_loser(&self.with(&self.counts.fur, c), order);
                let won = if win == seat { round } else { 0 };
                won.saturating_sub(if lose == seat { round } else { 0 })
            }
            3 => (c as i32).saturating_mul(IVORY_POINTS),
            4 => (c as i32).saturating_mul(axe_points(g.round())),
            5 => {
                // All new animals are worth the same: take the c lowest.
                let deal = g.deal();
                let got = self.new_animals.lowest(c).iter().fold(0u8, |acc, tile| {
                    acc | deal.visible(tile).map_or(0, Side::animal_bit)
                });
                animal_worth(g, seat, got)
            }
            _ => 0,
        }
    }
}

/// The tiles of `pool` by what they are worth to `seat`: Fire, Meat, Fur, Ivory, Axe, the animals
/// it does not have yet, and the rest (as the bot sees them: Mystery tiles are not turned).
fn value_groups(g: &MammutView<'_>, pool: TileSet, seat: Seat) -> [TileSet; GROUPS] {
    let deal = g.deal();
    let masks = deal.side_masks();
    let mask = |s: Side| masks.get(s.index()).copied().unwrap_or_default();
    let have = g.animals().get(seat).copied().unwrap_or(0);
    let mut new_animals = TileSet::EMPTY;
    for tile in pool.iter() {
        let bit = deal.visible(tile).map_or(0, Side::animal_bit);
        if bit != 0 && have & bit == 0 {
            new_animals = new_animals.with(tile);
        }
    }
    let mut groups = [
        pool.and(mask(Side::Fire)),
        pool.and(mask(Side::Meat)),
        pool.and(mask(Side::Fur)),
        pool.and(mask(Side::Ivory)),
        pool.and(mask(Side::Axe)),
        new_animals,
        TileSet::EMPTY,
    ];
    let valued = groups.iter().fold(TileSet::EMPTY, |acc, m| acc.union(*m));
    groups[GROUPS - 1] = pool.minus(valued);
    groups
}

/// The knapsack over the groups: the best worth of every take size (from `start` tiles already
/// taken), and per group and size how many of its tiles that best take holds. Of takes of one
/// size and equal worth it keeps the first found, the one with the most tiles of the last group,
/// then of the one before, and so on: a take that can hold a worthless tile instead of a Fire
/// (say) holds the worthless one, so the same take is planned whatever order equal worths come in.
fn knapsack(
    groups: &[TileSet; GROUPS],
    start: usize,
    worth: &Worth<'_>,
) -> ([i32; SIZES], [[u8; SIZES]; GROUPS]) {
    let mut best = [i32::MIN; SIZES];
    if let Some(b) = best.get_mut(start) {
        *b = 0;
    }
    let mut pick = [[0u8; SIZES]; GROUPS];
    for (gi, group) in groups.iter().enumerate() {
        let n = group.len();
        let mut values = [0i32; SIZES];
        for (c, v) in values.iter_mut().enumerate().take(n.saturating_add(1)) {
            *v = worth.value(gi, c);
        }
        let mut next = [i32::MIN; SIZES];
        for k in 0..SIZES {
            let Some(&base) = best.get(k) else { break };
            if base == i32::MIN {
                continue;
            }
            for c in 0..=n {
                let (Some(slot), Some(&v)) = (next.get_mut(k.saturating_add(c)), values.get(c))
                else {
                    break;
                };
                let total = base.saturating_add(v);
                if total > *slot {
                    *slot = total;
                    if let Some(p) = pick
                        .get_mut(gi)
                        .and_then(|p| p.get_mut(k.saturating_add(c)))
                    {
                        *p = c as u8;
                    }
                }
            }
        }
        best = next;
    }
    (best, pick)
}

impl Plan {
    /// The best takes of every size for `seat` from table `t`, taking the tie-breaker tile or not.
    fn new(g: &MammutView<'_>, t: &Table, seat: Seat, tie: bool) -> Plan {
        // What the bot sees: Mystery tiles are not turned.
        let deal = g.deal();
        let tie_tile = deal.tie_tile();
        let mut hands = t.hands;
        if let Some(h) = hands.get_mut(seat) {
            *h = if tie {
                TileSet::only(tie_tile)
            } else {
                TileSet::EMPTY
            };
        }
        let groups = value_groups(g, t.middle.without(tie_tile), seat);
        let worth = Worth {
            g,
            seat,
            counts: Counts::of(&hands, deal),
            order: tie_order(&hands, deal, g.ids(), g.first_player()),
            new_animals: groups[5],
        };
        let (best, pick) = knapsack(&groups, usize::from(tie), &worth);
        Plan {
            best,
            pick,
            groups,
            tie,
            tie_tile,
        }
    }

    /// The value of the best take of exactly `k` tiles (`None` if there is none).
    fn value(&self, k: usize) -> Option<i32> {
        self.best.get(k).copied().filter(|&v| v != i32::MIN)
    }

    /// The set of the best take of exactly `k` tiles.
    fn set(&self, k: usize) -> TileSet {
        let mut out = if self.tie {
            TileSet::only(self.tie_tile)
        } else {
            TileSet::EMPTY
        };
        let mut left = k;
        for gi in (0..GROUPS).rev() {
            let c = self
                .pick
                .get(gi)
                .and_then(|p| p.get(left))
                .copied()
                .unwrap_or(0) as usize;
            let group = self.groups.get(gi).copied().unwrap_or_default();
            out = out.union(group.lowest(c));
            left = left.saturating_sub(c);
        }
        out
    }
}

/// The best take of each size for `seat`, over both choices for the tie-breaker tile.
fn best_takes(g: &MammutView<'_>, t: &Table, seat: Seat) -> [Option<Choice>; SIZES] {
    let mut out = [None; SIZES];
    let plans = [
        Some(Plan::new(g, t, seat, false)),
        t.middle
            .contains(g.tie_tile())
            .then(|| Plan::new(g, t, seat, true)),
    ];
    for plan in plans.iter().flatten() {
        for (k, slot) in out.iter_mut().enumerate().skip(1) {
            if let Some(v) = plan.value(k) {
                if slot.is_none_or(|c: Choice| v > c.value) {
                    *slot = Some(Choice {
                        action: Action::Take(plan.set(k)),
                        value: v,
                    });
                }
            }
        }
    }
    out
}

/// The best take for `seat`: highest value, then fewest tiles.
fn best_take(g: &MammutView<'_>, t: &Table, seat: Seat) -> Option<Choice> {
    best_takes(g, t, seat)
        .iter()
        .flatten()
        .fold(None, |acc: Option<Choice>, c| match acc {
            Some(a) if a.value >= c.value => Some(a),
            _ => Some(*c),
        })
}

/// The best steal from `victim` for `seat`: the put-back tile that leaves it the most.
fn best_steal_from(g: &MammutView<'_>, t: &Table, seat: Seat, victim: Seat) -> Option<Choice> {
    let loot = t.hand(victim);
    let mut best: Option<Choice> = None;
    for put_back in loot.iter() {
        let action = Action::Steal {
            victim: victim as u8,
            put_back,
        };
        let value = worth(g, &t.after(seat, action), seat);
        if best.is_none_or(|b| value > b.value) {
            best = Some(Choice { action, value });
        }
    }
    best
}

/// The best steal for `seat`. Steals of one tile gain nothing and are only considered when there is
/// nothing to take.
fn best_steal(g: &MammutView<'_>, t: &Table, seat: Seat) -> Option<Choice> {
    let min = if t.middle.is_empty() { 1 } else { 2 };
    let mut best: Option<Choice> = None;
    for victim in (0..PLAYERS).filter(|&v| v != seat && t.hand(v).len() >= min) {
        if let Some(c) = best_steal_from(g, t, seat, victim) {
            if best.is_none_or(|b| c.value > b.value) {
                best = Some(c);
            }
        }
    }
    best
}

/// The greedy choice: the best take, unless a steal is worth more.
fn greedy_choice(g: &MammutView<'_>, t: &Table, seat: Seat) -> Option<Choice> {
    match (best_take(g, t, seat), best_steal(g, t, seat)) {
        (Some(take), Some(steal)) if steal.value > take.value => Some(steal),
        (Some(take), _) => Some(take),
        (None, steal) => steal,
    }
}

/// The first greedy player waiting to act on table `t` (clockwise after `seat`) who would rather
/// steal `seat`'s hand than take from the middle, and that steal.
fn thief(g: &MammutView<'_>, t: &Table, seat: Seat) -> Option<(Seat, Choice)> {
    if t.hand(seat).len() < 2 {
        return None;
    }
    let mut q = seat;
    for _ in 1..PLAYERS {
        q = super::scoring::next_seat(g.ids(), q, true);
        if g.is_removed(q) || !t.hand(q).is_empty() {
            continue;
        }
        let take = best_take(g, t, q).map(|c| c.value);
        if let Some(steal) = best_steal_from(g, t, q, seat) {
            if take.is_none_or(|take| steal.value > take) {
                return Some((q, steal));
            }
        }
    }
    None
}

/// What `seat` expects from playing `choice`: its value if no waiting player would steal the
/// resulting hand, else the value of `seat`'s best (greedy) answer once robbed.
fn expected(g: &MammutView<'_>, t: &Table, seat: Seat, choice: Choice) -> i32 {
    let after = t.after(seat, choice.action);
    match thief(g, &after, seat) {
        None => choice.value,
        Some((q, steal)) => {
            let robbed = after.after(q, steal.action);
            greedy_choice(g, &robbed, seat).map_or(i32::MIN, |c| c.value.min(choice.value))
        }
    }
}

/// The greedy bot: what maximises its score if the round ended now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GreedyBot;

impl Bot<Mammut> for GreedyBot {
    fn act(&mut self, view: &MammutView<'_>) -> Action {
        let (game, seat) = (view, view.seat());
        greedy_choice(game, &Table::of(game), seat).map_or(Action::Nothing, |c| c.action)
    }
}

/// The cautious bot: the best action once the risk of being robbed by a waiting (greedy) player is
/// counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CautiousBot;

impl Bot<Mammut> for CautiousBot {
    fn act(&mut self, view: &MammutView<'_>) -> Action {
        let (game, seat) = (view, view.seat());
        let t = Table::of(game);
        let others_wait = (0..PLAYERS).any(|q| q != seat && game.waits(q));
        if !others_wait {
            return greedy_choice(game, &t, seat).map_or(Action::Nothing, |c| c.action);
        }
        let takes = best_takes(game, &t, seat);
        let steals = (0..PLAYERS)
            .filter(|&v| v != seat && t.hand(v).len() >= 2)
            .filter_map(|v| best_steal_from(game, &t, seat, v));
        let candidates = takes
            .iter()
            .take(CAUTIOUS_MAX_TAKE + 1)
            .flatten()
            .copied()
            .chain(steals);
        let mut best: Option<(i32, Choice)> = None;
        for c in candidates {
            if best.is_some_and(|(v, _)| c.value <= v) {
                continue; // cannot do better than what is already expected
            }
            let v = expected(game, &t, seat, c);
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, c));
            }
        }
        best.map(|(_, c)| c)
            .or_else(|| greedy_choice(game, &t, seat))
            .map_or(Action::Nothing, |c| c.action)
    }
}

/// The random bot: a random legal action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random bot seeded with `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::stream(seed, b"mammut-random"),
        }
    }

    /// A random tile of `set`.
    fn pick(&mut self, set: TileSet) -> Option<u8> {
        let i = self.rng.index(set.len())?;
        set.iter().nth(i)
    }
}

impl Bot<Mammut> for RandomBot {
    fn act(&mut self, view: &MammutView<'_>) -> Action {
        let (game, seat) = (view, view.seat());
        let middle = game.middle();
        let victims = (0..PLAYERS).filter(|&v| v != seat && !game.hand(v).is_empty());
        let n_victims = victims.clone().count();
        let steal = middle.is_empty() || (n_victims > 0 && self.rng.chance(1, 2));
        if steal {
            let Some(i) = self.rng.index(n_victims) else {
                return Action::Nothing;
            };
            let Some(victim) = victims.clone().nth(i) else {
                return Action::Nothing;
            };
            let put_back = self.pick(game.hand(victim)).unwrap_or(0);
            return Action::Steal {
                victim: victim as u8,
                put_back,
            };
        }
        let k = self.rng.range(1, middle.len() as i32) as usize;
        let mut left = middle;
        let mut take = TileSet::EMPTY;
        for _ in 0..k {
            if let Some(tile) = self.pick(left) {
                take = take.with(tile);
                left = left.without(tile);
            }
        }
        Action::Take(take)
    }
}

/// Any built-in bot, by name ([`Mammut`]'s `Roster`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MammutBot {
    /// `random`: a random legal action.
    Random(RandomBot),
    /// `greedy`: the [`GreedyBot`].
    Greedy(GreedyBot),
    /// `cautious`: the [`CautiousBot`].
    Cautious(CautiousBot),
}

impl MammutBot {
    /// The bot named `name`, seeded with `seed`; `None` for a name not in the roster.
    pub fn by_name(name: &str, seed: u64) -> Option<MammutBot> {
        match name {
            "random" => Some(MammutBot::Random(RandomBot::new(seed))),
            "greedy" => Some(MammutBot::Greedy(GreedyBot)),
            "cautious" => Some(MammutBot::Cautious(CautiousBot)),
            _ => None,
        }
    }
}

impl Bot<Mammut> for MammutBot {
    fn act(&mut self, view: &MammutView<'_>) -> Action {
        match self {
            MammutBot::Random(b) => b.act(view),
            MammutBot::Greedy(b) => b.act(view),
            MammutBot::Cautious(b) => b.act(view),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    extern crate std;
    use super::*;
    use crate::game::{step_with_bots, Game};
    use crate::games::mammut::Params;

    #[test]
    fn animals_are_worth_4_each_before_the_last_round_then_the_bonus_step() {
        let mut g = Mammut::new(&Params, 1).unwrap();
        g.animals[0] = 0b0011;
        g.round = 2;
        // Only the animals not yet had count, 4 each.
        assert_eq!(animal_worth(&g.view(0), 0, 0b0110), ANIMAL_WORTH);
        assert_eq!(animal_worth(&g.view(0), 0, 0b1100), 2 * ANIMAL_WORTH);
        assert_eq!(animal_worth(&g.view(0), 0, 0b0011), 0);
        // The last round: what the end bonus gains, 2 animals (0) to 3 (4) to 4 (9).
        g.round = ROUNDS;
        assert_eq!(animal_worth(&g.view(0), 0, 0b0110), 4);
        assert_eq!(animal_worth(&g.view(0), 0, 0b1100), 9);
        assert_eq!(animal_worth(&g.view(0), 0, 0b0011), 0);
        // Another seat's animals are its own.
        assert_eq!(animal_worth(&g.view(1), 1, 0b0011), 0);
        assert_eq!(animal_worth(&g.view(1), 1, 0b0111), 4);
    }

    fn play(names: [&str; PLAYERS], seed: u64) -> Mammut {
        let mut g = Mammut::new(&Params, seed).unwrap();
        let mut bots: [MammutBot; PLAYERS] =
            core::array::from_fn(|s| MammutBot::by_name(names[s], seed + s as u64).unwrap());
        while !g.is_over() {
            let report = step_with_bots(&mut g, &mut bots);
            assert_eq!(report.total_refused(), 0, "a built-in bot was refused");
        }
        g
    }

    #[test]
    fn built_in_bots_only_play_legal_actions() {
        for seed in 0..6 {
            play(["random", "greedy", "cautious", "random", "greedy"], seed);
            play(["cautious"; PLAYERS], seed);
            play(["greedy"; PLAYERS], seed);
            play(["random"; PLAYERS], seed);
        }
    }

    #[test]
    fn knapsack_values_match_scoring() {
        // The plan's value of a set is exactly what `worth` gives for the table with that set.
        for seed in 0..20 {
            let mut g = Mammut::new(&Params, seed).unwrap();
            let mut bots = [
                MammutBot::by_name("random", seed).unwrap(),
                MammutBot::by_name("random", seed + 1).unwrap(),
                MammutBot::by_name("random", seed + 2).unwrap(),
                MammutBot::by_name("random", seed + 3).unwrap(),
                MammutBot::by_name("random", seed + 4).unwrap(),
            ];
            for _ in 0..(seed % 4) {
                step_with_bots(&mut g, &mut bots);
            }
            let seat = g.mover().unwrap();
            let t = Table::of(&g.view(seat));
            for c in best_takes(&g.view(seat), &t, seat).iter().flatten() {
                assert_eq!(
                    c.value,
                    worth(&g.view(seat), &t.after(seat, c.action), seat)
                );
                let Action::Take(set) = c.action else {
                    panic!("not a take")
                };
                assert!(set.is_subset(t.middle));
            }
        }
    }

    #[test]
    fn a_thief_is_a_waiting_player_who_would_rather_steal_than_take_as_greedy_plays() {
        // `cautious` fears the first waiting player that greedy play would make steal its hand:
        // one whose best steal of that hand is worth strictly more than its best take (on a tie
        // greedy takes), and whose greedy choice it then is, when that hand is its best loot.
        // Checked on every state of random games (hands of 2 and more).
        let (mut robbed, mut ties) = (0, 0);
        for seed in 0..12 {
            let mut g = Mammut::new(&Params, seed).unwrap();
            let mut bots: [MammutBot; PLAYERS] =
                core::array::from_fn(|s| MammutBot::by_name("random", seed + s as u64).unwrap());
            while !g.is_over() {
                let v = g.view(0);
                let t = Table::of(&v);
                for seat in (0..PLAYERS).filter(|&s| t.hand(s).len() >= 2) {
                    for q in (0..PLAYERS).filter(|&q| q != seat && t.hand(q).is_empty()) {
                        let take = best_take(&v, &t, q).map(|c| c.value);
                        let steal = best_steal_from(&v, &t, q, seat).map(|c| c.value);
                        if take.is_some() && take == steal && !v.is_removed(q) {
                            ties += 1;
                        }
                    }
                    if let Some((q, steal)) = thief(&v, &t, seat) {
                        robbed += 1;
                        assert!(t.hand(q).is_empty() && !v.is_removed(q));
                        let take = best_take(&v, &t, q);
                        assert!(take.is_none_or(|take| steal.value > take.value));
                        if best_steal(&v, &t, q) == Some(steal) {
                            let greedy = greedy_choice(&v, &t, q).map(|c| c.action);
                            assert_eq!(greedy, Some(steal.action));
                        }
                    }
                }
                step_with_bots(&mut g, &mut bots);
            }
        }
        assert!(robbed > 0 && ties > 0, "robbed {robbed}, ties {ties}");
    }

    #[test]
    fn greedy_plays_the_best_take_unless_a_steal_is_worth_more() {
        // On every state of random games: the greedy choice is worth what the table after it
        // is worth to the mover, no less than its best take or its best steal, and a take when
        // no steal is worth more.
        let mut steals = 0;
        for seed in 0..8 {
            let mut g = Mammut::new(&Params, seed).unwrap();
            let mut bots: [MammutBot; PLAYERS] =
                core::array::from_fn(|s| MammutBot::by_name("random", seed + s as u64).unwrap());
            while let Some(seat) = g.mover() {
                let v = g.view(seat);
                let t = Table::of(&v);
                let choice = greedy_choice(&v, &t, seat).unwrap();
                let take = best_take(&v, &t, seat).map(|c| c.value);
                let steal = best_steal(&v, &t, seat).map(|c| c.value);
                assert_eq!(choice.value, worth(&v, &t.after(seat, choice.action), seat));
                assert!(take.is_none_or(|x| choice.value >= x));
                assert!(steal.is_none_or(|x| choice.value >= x));
                let is_take = matches!(choice.action, Action::Take(_));
                if take.is_some() && steal.is_none_or(|s| take >= Some(s)) {
                    assert!(
                        is_take,
                        "seed {seed}: {choice:?}, take {take:?}, steal {steal:?}"
                    );
                }
                steals += usize::from(!is_take);
                step_with_bots(&mut g, &mut bots);
            }
        }
        assert!(steals > 0);
    }

    #[test]
    fn a_take_of_every_size_is_planned_up_to_the_whole_middle() {
        // The first move of a game: all 32 tiles in the middle, and a best take of each size
        // from 1 to 32 (the last one all of them), each a subset of that size.
        for seed in 0..4 {
            let g = Mammut::new(&Params, seed).unwrap();
            let seat = g.mover().unwrap();
            let v = g.view(seat);
            let t = Table::of(&v);
            assert_eq!(t.middle.len(), TILE_COUNT);
            let takes = best_takes(&v, &t, seat);
            assert!(takes[0].is_none());
            for (k, c) in takes.iter().enumerate().skip(1) {
                let Some(Choice {
                    action: Action::Take(set),
                    ..
                }) = c
                else {
                    panic!("seed {seed}: no take of {k} tiles");
                };
                assert_eq!(set.len(), k);
                assert!(set.is_subset(t.middle));
            }
            assert_eq!(takes.len(), TILE_COUNT + 1);
        }
    }

    /// The first move of game `seed`: the game, the mover, the table and the greedy choice.
    fn first_greedy_choice(seed: u64) -> (Mammut, Seat, Table, Choice) {
        let g = Mammut::new(&Params, seed).unwrap();
        let seat = g.mover().unwrap();
        let t = Table::of(&g.view(seat));
        let choice = greedy_choice(&g.view(seat), &t, seat).unwrap();
        (g, seat, t, choice)
    }

    #[test]
    fn greedy_takes_the_best_immediate_set() {
        // First move of a round: no one holds anything; the best set beats every single tile.
        let (g, seat, t, choice) = first_greedy_choice(7);
        for tile in t.middle.iter() {
            let single = worth(
                &g.view(seat),
                &t.after(seat, Action::Take(TileSet::only(tile))),
                seat,
            );
            assert!(choice.value >= single);
        }
        let Action::Take(set) = choice.action else {
            panic!("greedy should take on an empty table")
        };
        // All ivory on the table is worth taking.
        let ivory = t.middle.showing(Side::Ivory, g.deal());
        assert!(ivory.is_subset(set));
    }

    #[test]
    fn cautious_avoids_hands_a_waiting_player_would_steal() {
        let (g, seat, t, greedy) = first_greedy_choice(11);
        assert!(thief(&g.view(seat), &t.after(seat, greedy.action), seat).is_some());
        let action = CautiousBot.act(&g.view(seat));
        let mine = Choice {
            action,
            value: worth(&g.view(seat), &t.after(seat, action), seat),
        };
        assert_ne!(action, greedy.action);
        assert!(
            expected(&g.view(seat), &t, seat, greedy) < greedy.value,
            "the risk is counted"
        );
        // The pruned search found the best expected value among its candidates.
        let mine = expected(&g.view(seat), &t, seat, mine);
        for c in best_takes(&g.view(seat), &t, seat)
            .iter()
            .take(CAUTIOUS_MAX_TAKE + 1)
            .flatten()
        {
            assert!(mine >= expected(&g.view(seat), &t, seat, *c));
        }
    }

    #[test]
    fn random_bot_steals_about_half_the_time_when_the_middle_is_not_empty() {
        // The first mover takes one tile; the next one sees the middle not empty and one
        // victim holding a tile: `random` steals from it or takes, a coin flip each.
        let mut g = Mammut::new(&Params, 3).unwrap();
        let first = g.mover().unwrap();
        let tile = g.middle().iter().next().unwrap();
        let mut acts = [Action::Nothing; PLAYERS];
        acts[first] = Action::Take(TileSet::EMPTY.with(tile));
        assert_eq!(g.step(&acts).refused[first], 0);
        let seat = g.mover().unwrap();
        assert!(!g.middle().is_empty());
        let (mut steals, mut takes) = (0, 0);
        for seed in 0..40 {
            let a = RandomBot::new(seed).act(&g.view(seat));
            assert!(g.legal(seat, &a).is_ok());
            match a {
                Action::Steal { victim, put_back } => {
                    assert_eq!((victim as usize, put_back), (first, tile));
                    steals += 1;
                }
                Action::Take(_) => takes += 1,
                Action::Nothing => panic!("random passed"),
            }
        }
        assert!(
            steals >= 10 && takes >= 10,
            "{steals} steals, {takes} takes"
        );
    }

    #[test]
    fn random_bot_is_deterministic_for_its_seed() {
        let g = Mammut::new(&Params, 3).unwrap();
        let seat = g.mover().unwrap();
        let a = RandomBot::new(5).act(&g.view(seat));
        assert_eq!(a, RandomBot::new(5).act(&g.view(seat)));
        assert!(g.legal(seat, &a).is_ok());
    }

    #[test]
    fn of_takes_of_one_size_and_equal_worth_the_plan_holds_the_later_groups_tiles() {
        // `cautious` weighs the best take of every size up to 12; where two takes of a size are
        // worth the same, the plan holds the tiles of the later groups (the rest, new animals,
        // Axe, Ivory, Fur, Meat, Fire: `value_groups`' order). So no tile of the take can be
        // swapped for one of a later group left in the middle at the same worth. Checked on
        // every size of the states of random games, where such ties are common.
        let mut ties = 0;
        for seed in 0..3 {
            let mut g = Mammut::new(&Params, seed).unwrap();
            let mut bots: [MammutBot; PLAYERS] =
                core::array::from_fn(|s| MammutBot::by_name("random", seed + s as u64).unwrap());
            for _ in 0..24 {
                let Some(seat) = g.mover() else { break };
                let v = g.view(seat);
                let t = Table::of(&v);
                let pool = t.middle.without(v.tie_tile());
                let groups = value_groups(&v, pool, seat);
                let group_of = |tile: u8| groups.iter().position(|m| m.contains(tile));
                let takes = best_takes(&v, &t, seat);
                for c in takes.iter().take(CAUTIOUS_MAX_TAKE + 1).flatten() {
                    let Action::Take(set) = c.action else {
                        panic!("not a take")
                    };
                    for out in set.and(pool).iter() {
                        for into in pool.minus(set).iter() {
                            if group_of(into) <= group_of(out) {
                                continue;
                            }
                            let swapped = Action::Take(set.without(out).with(into));
                            let w = worth(&v, &t.after(seat, swapped), seat);
                            assert!(w < c.value, "seed {seed}: {out} for {into} in {set:?}");
                        }
                    }
                    // Some take of that size is worth as much but holds earlier groups' tiles
                    // instead: count those, to show ties are met.
                    for out in set.and(pool).iter() {
                        for into in pool.minus(set).iter() {
                            if group_of(into) < group_of(out) {
                                let swapped = Action::Take(set.without(out).with(into));
                                let w = worth(&v, &t.after(seat, swapped), seat);
                                ties += usize::from(w == c.value);
                            }
                        }
                    }
                }
                step_with_bots(&mut g, &mut bots);
            }
        }
        assert!(ties > 100, "{ties} ties met");
    }

    #[test]
    fn best_takes_and_steals_are_the_best_of_every_take_and_steal_tried_one_by_one() {
        // On the states of random games whose middle holds at most 11 tiles, every take is
        // tried: the best take of each size is worth the most any take of that size is worth,
        // and holds the tie-breaker tile only if no take of that size without it is worth as
        // much. Every steal is tried too: the best steal from a victim puts back the tile that
        // leaves the most (the lowest id of equals), and the best steal is the best from the
        // victims holding 2 tiles or more (1 or more once the middle is empty), the first seat
        // of equals.
        let (mut states, mut tie_kept_out, mut steals) = (0, 0, 0);
        for seed in 0..10 {
            let mut g = Mammut::new(&Params, seed).unwrap();
            let mut bots: [MammutBot; PLAYERS] =
                core::array::from_fn(|s| MammutBot::by_name("random", seed + s as u64).unwrap());
            while let Some(seat) = g.mover() {
                let v = g.view(seat);
                let t = Table::of(&v);
                let tie = v.tie_tile();
                let tiles: heapless::Vec<u8, 32> = t.middle.iter().collect();
                if tiles.len() <= 11 {
                    states += 1;
                    // best[with the tie tile][size]
                    let mut best = [[None::<i32>; SIZES]; 2];
                    for mask in 1u32..1 << tiles.len() {
                        let set = tiles
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| mask >> i & 1 != 0)
                            .fold(TileSet::EMPTY, |s, (_, &tile)| s.with(tile));
                        let w = worth(&v, &t.after(seat, Action::Take(set)), seat);
                        let slot = &mut best[usize::from(set.contains(tie))][set.len()];
                        *slot = Some(slot.map_or(w, |b: i32| b.max(w)));
                    }
                    let takes = best_takes(&v, &t, seat);
                    for k in 1..=tiles.len() {
                        let c = takes[k].unwrap();
                        let Action::Take(set) = c.action else {
                            panic!("not a take")
                        };
                        let (without, with) = (best[0][k], best[1][k]);
                        assert_eq!(Some(c.value), without.max(with), "seed {seed}, size {k}");
                        let tie_wins = with > without;
                        assert_eq!(set.contains(tie), tie_wins, "seed {seed}, size {k}");
                        tie_kept_out += usize::from(with.is_some() && with == without);
                    }
                }
                let min = if t.middle.is_empty() { 1 } else { 2 };
                let mut candidates: heapless::Vec<Choice, PLAYERS> = heapless::Vec::new();
                for victim in (0..PLAYERS).filter(|&q| q != seat) {
                    let every: heapless::Vec<Choice, 32> = t
                        .hand(victim)
                        .iter()
                        .map(|put_back| {
                            let action = Action::Steal {
                                victim: victim as u8,
                                put_back,
                            };
                            let value = worth(&v, &t.after(seat, action), seat);
                            Choice { action, value }
                        })
                        .collect();
                    let most = every.iter().map(|c| c.value).max();
                    let best = every.iter().copied().find(|c| Some(c.value) == most);
                    assert_eq!(best_steal_from(&v, &t, seat, victim), best);
                    steals +=
                        usize::from(every.len() > 1 && every.iter().any(|c| Some(c.value) != most));
                    if t.hand(victim).len() >= min {
                        candidates.extend(best);
                    }
                }
                let most = candidates.iter().map(|c| c.value).max();
                let best_of_all = candidates.iter().copied().find(|c| Some(c.value) == most);
                assert_eq!(best_steal(&v, &t, seat), best_of_all, "seed {seed}");
                step_with_bots(&mut g, &mut bots);
            }
        }
        assert!(
            states > 50 && tie_kept_out > 20 && steals > 100,
            "{states} states, {tie_kept_out} ties kept out, {steals} steals whose put-back matters"
        );
    }

    /// The first player after `seat` clockwise, in the round and empty-handed, whom greedy play
    /// would make steal `seat`'s hand of 2 tiles or more (its best steal of that hand worth more
    /// than its best take), and that steal: `thief`'s definition, written plainly.
    fn thief_plainly(v: &MammutView<'_>, t: &Table, seat: Seat) -> Option<(Seat, Choice)> {
        if t.hand(seat).len() < 2 {
            return None;
        }
        let clockwise = super::super::scoring::order_from(v.ids(), seat, true);
        clockwise[1..].iter().map(|&q| q as Seat).find_map(|q| {
            if v.is_removed(q) || !t.hand(q).is_empty() {
                return None;
            }
            let steal = best_steal_from(v, t, q, seat)?;
            let take = best_take(v, t, q).map(|c| c.value);
            take.is_none_or(|take| steal.value > take)
                .then_some((q, steal))
        })
    }

    /// `cautious` as the module's docs say it, written plainly: greedy when nobody else waits to
    /// act; else, of the best takes of 1 to 12 tiles and the best steal from each player holding
    /// 2 tiles or more, the first of the highest expected value, where a choice after which a
    /// thief would steal is worth what greedy play gets back once robbed, at most its own value.
    fn cautious_plainly(v: &MammutView<'_>, seat: Seat) -> Action {
        let t = Table::of(v);
        let greedy = || greedy_choice(v, &t, seat).map_or(Action::Nothing, |c| c.action);
        let others_wait =
            (0..PLAYERS).any(|q| q != seat && !v.is_removed(q) && t.hand(q).is_empty());
        if !others_wait {
            return greedy();
        }
        let takes = best_takes(v, &t, seat);
        let mut candidates: heapless::Vec<Choice, 64> = takes[1..=CAUTIOUS_MAX_TAKE]
            .iter()
            .flatten()
            .copied()
            .collect();
        for victim in (0..PLAYERS).filter(|&q| q != seat && t.hand(q).len() >= 2) {
            candidates.extend(best_steal_from(v, &t, seat, victim));
        }
        let expected = |c: &Choice| {
            let after = t.after(seat, c.action);
            match thief_plainly(v, &after, seat) {
                None => c.value,
                Some((q, steal)) => greedy_choice(v, &after.after(q, steal.action), seat)
                    .map_or(i32::MIN, |back| back.value.min(c.value)),
            }
        };
        let most = candidates.iter().map(expected).max();
        candidates
            .iter()
            .find(|c| Some(expected(c)) == most)
            .map_or_else(greedy, |c| c.action)
    }

    #[test]
    fn cautious_plays_as_its_definition_says_at_every_state_of_random_and_cautious_games() {
        // Every state of games of cautious, greedy and random players: `thief` for every seat
        // (hands of 0 and 1 tile included), `expected` for every take `cautious` weighs, and
        // its action, against the definitions written plainly.
        let (mut states, mut unlike_greedy, mut thieves, mut lone, mut big) = (0, 0, 0, 0, 0);
        for seed in 0..4 {
            let names = ["cautious", "random", "cautious", "greedy", "random"];
            let mut g = Mammut::new(&Params, seed).unwrap();
            let mut bots: [MammutBot; PLAYERS] =
                core::array::from_fn(|s| MammutBot::by_name(names[s], seed + s as u64).unwrap());
            while let Some(seat) = g.mover() {
                let v = g.view(seat);
                let t = Table::of(&v);
                states += 1;
                for s in 0..PLAYERS {
                    let found = thief(&v, &t, s);
                    assert_eq!(found, thief_plainly(&v, &t, s), "seed {seed}, seat {s}");
                    thieves += usize::from(found.is_some());
                }
                for c in best_takes(&v, &t, seat)
                    .iter()
                    .take(CAUTIOUS_MAX_TAKE + 1)
                    .flatten()
                {
                    let after = t.after(seat, c.action);
                    let want = match thief_plainly(&v, &after, seat) {
                        None => c.value,
                        Some((q, steal)) => greedy_choice(&v, &after.after(q, steal.action), seat)
                            .map_or(i32::MIN, |back| back.value.min(c.value)),
                    };
                    assert_eq!(expected(&v, &t, seat, *c), want, "seed {seed}");
                }
                let action = CautiousBot.act(&v);
                assert_eq!(
                    action,
                    cautious_plainly(&v, seat),
                    "seed {seed}, seat {seat}"
                );
                let greedy = GreedyBot.act(&v);
                unlike_greedy += usize::from(action != greedy);
                if !(0..PLAYERS).any(|q| q != seat && v.waits(q)) {
                    lone += 1;
                }
                if let Action::Take(set) = action {
                    big += usize::from(set.len() >= CAUTIOUS_MAX_TAKE - 1);
                }
                step_with_bots(&mut g, &mut bots);
            }
        }
        assert!(
            states > 100 && unlike_greedy > 10 && thieves > 10 && lone > 10 && big > 0,
            "{states} states: {unlike_greedy} unlike greedy, {thieves} thieves, {lone} last to act, {big} takes of 11 or 12"
        );
    }

    #[test]
    fn cautious_never_steals_a_single_tile_while_the_middle_holds_one() {
        // The module's docs: a hand of one tile is never worth stealing, and a steal of one tile
        // is only considered when there is nothing to take. On a table made for it (ids 1 to 5
        // in seat order, the tiles named in the rules file's order, most of them set aside):
        // seat 1 holds the only Meat (tile 2, Opossum|Meat, Meat up), the middle six Mystery
        // tiles. Seat 0, first in the tie order, would be first in Meat (8) instead of second
        // (5) by stealing that Meat, and gains nothing by taking a Mystery tile; players wait
        // after it. It takes.
        let mut g = Mammut::new(&Params, 1).unwrap();
        g.ids = [1, 2, 3, 4, 5];
        g.deal = crate::games::mammut::Deal::identity(1 << 2);
        g.first = 0;
        g.mover = 0;
        g.hands = [TileSet::EMPTY; PLAYERS];
        g.hands[1] = TileSet::only(2);
        g.middle = (8..=13).fold(TileSet::EMPTY, |m, tile| m.with(tile));
        assert_eq!(g.visible(2), Some(Side::Meat));
        let v = g.view(0);
        let t = Table::of(&v);
        let steal = Action::Steal {
            victim: 1,
            put_back: 2,
        };
        assert_eq!(g.legal(0, &steal), Ok(()));
        let mystery = Action::Take(TileSet::only(8));
        assert_eq!(
            worth(&v, &t.after(0, steal), 0),
            worth(&v, &t.after(0, mystery), 0) + 3
        );
        for action in [CautiousBot.act(&v), GreedyBot.act(&v)] {
            assert!(matches!(action, Action::Take(_)), "{action:?}");
        }
    }
}
