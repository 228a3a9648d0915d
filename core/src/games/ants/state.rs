//! The state of a game of Ants and what bots and recorders may read of it.

use super::map::{Map, FOOD, LAND, MAX_PLAYERS, WATER};
use super::orders::Order;
use super::pyrandom::PyRandom;
use crate::digest::Digest;
use crate::seat::SeatSet;

/// No ant / no hill on a square.
pub(crate) const NONE16: u16 = u16::MAX;
pub(crate) const NONE8: u8 = u8::MAX;
/// `cutoff_bot` values that are not players (the official constants).
pub const CUTOFF_LAND: i8 = -2;
/// `cutoff_bot` value of the food bot: food not being gathered.
pub const CUTOFF_FOOD: i8 = -3;
/// Points for razing a hill, and for losing one (the official constants).
pub const HILL_POINTS: i32 = 2;
/// Points a player loses for each of its hills razed.
pub const RAZE_POINTS: i32 = -1;

/// A living ant. `order` is what it did this turn: `b'-'` (stayed), a direction letter, or `0` for
/// an ant born this turn (it had no order yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Ant {
    /// Creation index: the ant's place in the replay's `ants` list.
    pub id: u32,
    /// Square it stands on (row-major index).
    pub sq: u16,
    /// The player that owns it.
    pub owner: u8,
    /// Turn it was born.
    pub spawn_turn: u16,
    /// What it did this turn (see [`Ant`]).
    pub order: u8,
}

/// An ant killed this turn, where it died, with its last order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DeadAnt {
    /// Creation index: the ant's place in the replay's `ants` list.
    pub id: u32,
    /// Square it died on.
    pub sq: u16,
    /// The player that owned it.
    pub owner: u8,
    /// Its last order (as [`Ant::order`]).
    pub order: u8,
}

/// A food on the map. `id` is its place in the replay's `food` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Food {
    /// Creation index: the food's place in the replay's `food` list.
    pub id: u32,
    /// Square it lies on.
    pub sq: u16,
    /// Turn it appeared.
    pub start_turn: u16,
}

/// A food that left the map this turn: gathered by `owner`, or destroyed (`owner == None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FoodGone {
    /// The food's creation index.
    pub id: u32,
    /// Square it lay on.
    pub sq: u16,
    /// The player that gathered it, `None` when it was destroyed.
    pub owner: Option<u8>,
}

/// A hill, razed or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Hill {
    /// Square the hill stands on.
    pub sq: u16,
    /// The player that owns it.
    pub owner: u8,
    /// The last turn one of its owner's ants stood on it.
    pub last_touched: u16,
    /// Turn it was razed (`None` while standing).
    pub end_turn: Option<u16>,
    /// Who razed it (or received it as the lone survivor's bonus).
    pub killed_by: Option<u8>,
    /// Whether its owner has already lost the point for it.
    pub raze_points: bool,
}

/// Why the game ended: the official `cutoff` strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Cutoff {
    /// Only one player has ants left.
    Extermination,
    /// Only one player is still alive (it gets the lone survivor's bonus).
    LoneSurvivor,
    /// Food has been most of the population (`cutoff_percent`) for `cutoff_turn` turns.
    FoodNotGathered,
    /// One player has been most of the population for `cutoff_turn` turns without razing a hill.
    NotRazingHills,
    /// No player can change rank any more by razing the hills left.
    RankStabilized,
    /// The turn limit was reached.
    TurnLimit,
}

impl Cutoff {
    /// The official `cutoff` string.
    pub const fn as_str(self) -> &'static str {
        match self {
            Cutoff::Extermination => "extermination",
            Cutoff::LoneSurvivor => "lone survivor",
            Cutoff::FoodNotGathered => "food not being gathered",
            Cutoff::NotRazingHills => "ants not razing hills",
            Cutoff::RankStabilized => "rank stabilized",
            Cutoff::TurnLimit => "turn limit reached",
        }
    }
}

/// How battles are resolved (the official `--attack`): `focus` is the default; `damage` is the
/// other working variant (`support` and `closest` are broken in the reference and not offered).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Attack {
    /// The official default: an ant dies if one of its enemies in range has no more enemies than it has.
    Focus,
    /// Each ant deals `1 / enemies` to each enemy in range; an ant hit for 1 or more dies.
    Damage,
}

/// A `(lo, hi)` range drawn once per game with `randrange(lo, hi + 1)`, or a fixed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Draw {
    /// Drawn once per game with `randrange(lo, hi + 1)`.
    Range(u16, u16),
    /// Always this value.
    Fixed(u16),
}

/// Everything a game is set up from besides the engine seed (`Game::new`'s seed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params<const SQUARES: usize, const HILLS: usize> {
    /// The map: terrain, hills, players.
    pub map: Map<SQUARES, HILLS>,
    /// Turn limit.
    pub turns: u16,
    /// Time a bot has to set up, in milliseconds (sent to bots).
    pub loadtime: u32,
    /// Time a bot has per turn, in milliseconds (sent to bots).
    pub turntime: u32,
    /// Squared radius of what an ant sees.
    pub viewradius2: u16,
    /// Squared radius of an ant's attack.
    pub attackradius2: u16,
    /// Squared radius within which an ant gathers food.
    pub spawnradius2: u16,
    /// How battles are resolved.
    pub attack: Attack,
    /// Only sent to bots.
    pub player_seed: i64,
    /// Food per player spawned every `food_turn` turns, on average.
    pub food_rate: Draw,
    /// Turns over which `food_rate` food per player spawns.
    pub food_turn: Draw,
    /// Land squares per food placed at the start.
    pub food_start: Draw,
    /// Food per player placed in sight of its hills at the start.
    pub food_visible: Draw,
    /// Turns one side (the food or one player) may hold `cutoff_percent` of the population before the game ends.
    pub cutoff_turn: u16,
    /// `cutoff_percent` as a fraction `num / den` (the official 0.85 is 17/20).
    pub cutoff_percent: (u32, u32),
}

impl<const SQUARES: usize, const HILLS: usize> Params<SQUARES, HILLS> {
    /// The official defaults (playgame.py) for a map and a turn limit.
    pub fn new(map: Map<SQUARES, HILLS>, turns: u16) -> Self {
        Params {
            map,
            turns,
            loadtime: 3000,
            turntime: 1000,
            viewradius2: 77,
            attackradius2: 5,
            spawnradius2: 1,
            attack: Attack::Focus,
            player_seed: 0,
            food_rate: Draw::Range(5, 11),
            food_turn: Draw::Range(19, 37),
            food_start: Draw::Range(75, 175),
            food_visible: Draw::Range(3, 5),
            cutoff_turn: 150,
            cutoff_percent: (17, 20),
        }
    }
}

/// A game of Ants for a build of the given capacities (see the module docs for the rule cases
/// when one is full): `SQUARES` map squares, `ANTS` living ants, `FOOD` food on the map, `HILLS`
/// hills, and `ORDERS` orders per seat per turn through [`crate::Game::step`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AntsGame<
    const SQUARES: usize,
    const ANTS: usize,
    const FOOD_CAP: usize,
    const HILLS: usize,
    const ORDERS: usize,
> {
    pub(crate) rows: u16,
    pub(crate) cols: u16,
    pub(crate) players: u8,
    pub(crate) turns: u16,
    pub(crate) loadtime: u32,
    pub(crate) turntime: u32,
    pub(crate) view2: u16,
    pub(crate) attack2: u16,
    pub(crate) spawn2: u16,
    pub(crate) attack: Attack,
    pub(crate) player_seed: i64,
    pub(crate) cutoff_turn: u16,
    pub(crate) cutoff_percent: (u32, u32),
    pub(crate) food_rate: u16,
    pub(crate) food_turn: u16,
    pub(crate) food_start: u16,
    pub(crate) food_visible: u16,
    pub(crate) land_area: u32,

    /// Official square encoding: an ant's owner, `LAND`, `FOOD` or `WATER` (hills are separate).
    pub(crate) map: [u8; SQUARES],
    /// Index into `ants` of the ant on each square (`NONE16` if none).
    pub(crate) ant_at: [u16; SQUARES],
    /// Index into `hills` of the hill on each square (`NONE8` if none).
    pub(crate) hill_at: [u8; SQUARES],
    /// Food scheduled per square, and the squares in the order they were first scheduled.
    pub(crate) pending: [u16; SQUARES],
    pub(crate) pending_order: heapless::Vec<u16, SQUARES>,
    /// The food-set deque as a ring of base squares (`NONE16` is the sentinel).
    pub(crate) ring: [u16; SQUARES],
    pub(crate) ring_head: usize,
    pub(crate) ring_len: usize,
    /// Work space for flood fills and visited marks (zero between uses).
    pub(crate) scratch: [u8; SQUARES],
    /// The chosen symmetry: per player, its hill square and orientation; `[0]` is player 0's
    /// first hill. Two arrays rather than one of pairs, which would take 4 bytes a player: the
    /// board's state is at its stack budget.
    pub(crate) sym_sq: [u16; MAX_PLAYERS],
    pub(crate) sym_aim: [u8; MAX_PLAYERS],

    pub(crate) ants: heapless::Vec<Ant, ANTS>,
    pub(crate) killed: heapless::Vec<DeadAnt, ANTS>,
    pub(crate) food: heapless::Vec<Food, FOOD_CAP>,
    pub(crate) food_gone: heapless::Vec<FoodGone, FOOD_CAP>,
    pub(crate) hills: heapless::Vec<Hill, HILLS>,
    pub(crate) next_ant: u32,
    pub(crate) next_food: u32,
    pub(crate) ant_count: [u16; MAX_PLAYERS],

    pub(crate) rng: PyRandom,
    pub(crate) turn: u16,
    /// `food_extra` as a numerator over `food_turn`.
    pub(crate) food_extra: i64,
    pub(crate) score: [i32; MAX_PLAYERS],
    pub(crate) bonus: [i32; MAX_PLAYERS],
    pub(crate) hive: [u32; MAX_PLAYERS],
    /// The players the engine killed (crash, timeout): a set rather than an array of flags, as
    /// the board's state is at its stack budget.
    pub(crate) dead: SeatSet,
    /// The turn each player went out (its last ant lost, or killed by the engine), `NONE16` while
    /// in: the official game keeps no such thing (its engine's `playerturns` says it), so it is
    /// not in the digest; it is there for [`crate::Game::decision`].
    pub(crate) out_at: [u16; MAX_PLAYERS],
    pub(crate) cutoff_bot: i8,
    pub(crate) cutoff_turns: u16,
    pub(crate) hill_kill: bool,
    pub(crate) ranking: Option<[u8; MAX_PLAYERS]>,
    pub(crate) ranking_turn: u16,
    pub(crate) winning: Option<u16>,
    pub(crate) winning_turn: u16,
    pub(crate) cutoff: Option<Cutoff>,
    pub(crate) over: bool,
    /// Spawns and food placements delayed because a container was full (rule cases, not official).
    pub(crate) capacity_waits: u32,
}

/// `v mod n` (Python's sign), without a division when `v` is within one lap of the range.
#[inline]
pub(crate) fn wrap(v: i32, n: i32) -> i32 {
    // Python ints do not overflow: saturating keeps a far-off `v` out of range, so it falls
    // through to `rem_euclid` (boards are at most 32,767 wide, so nothing saturates in play).
    if v >= 0 {
        if v < n {
            v
        } else if v.saturating_sub(n) < n {
            v.saturating_sub(n)
        } else {
            v.rem_euclid(n.max(1))
        }
    } else if v.saturating_add(n) >= 0 {
        v.saturating_add(n)
    } else {
        v.rem_euclid(n.max(1))
    }
}

impl<const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>
    AntsGame<SQ, A, F, H, O>
{
    /// Rows of the map.
    pub fn rows(&self) -> u16 {
        self.rows
    }
    /// Columns of the map.
    pub fn cols(&self) -> u16 {
        self.cols
    }
    /// Players of the game.
    pub fn players(&self) -> usize {
        self.players as usize
    }
    /// Turn limit.
    pub fn turns(&self) -> u16 {
        self.turns
    }
    /// Set-up time sent to the bots, in milliseconds.
    pub fn loadtime(&self) -> u32 {
        self.loadtime
    }
    /// Time per turn sent to the bots, in milliseconds.
    pub fn turntime(&self) -> u32 {
        self.turntime
    }
    /// Squared view radius.
    pub fn viewradius2(&self) -> u16 {
        self.view2
    }
    /// Squared attack radius.
    pub fn attackradius2(&self) -> u16 {
        self.attack2
    }
    /// Squared gathering radius.
    pub fn spawnradius2(&self) -> u16 {
        self.spawn2
    }
    /// The seed sent to the bots (only for their own randomness).
    pub fn player_seed(&self) -> i64 {
        self.player_seed
    }
    /// The drawn `(food_rate, food_turn, food_start, food_visible)`.
    pub fn food_params(&self) -> (u16, u16, u16, u16) {
        (
            self.food_rate,
            self.food_turn,
            self.food_start,
            self.food_visible,
        )
    }
    /// The turn last played (0 before the first step).
    pub fn current_turn(&self) -> u16 {
        self.turn
    }
    /// Square contents in the official encoding (`0..=9` ant owner, `LAND`, `FOOD`, `WATER`).
    pub fn square(&self, sq: usize) -> u8 {
        self.map.get(sq).copied().unwrap_or(WATER)
    }
    /// Whether the square is water.
    pub fn is_water(&self, sq: usize) -> bool {
        self.square(sq) == WATER
    }
    /// The living ant on a square.
    pub fn ant_on(&self, sq: usize) -> Option<&Ant> {
        let i = *self.ant_at.get(sq)?;
        self.ants.get(i as usize)
    }
    /// The hill on a square.
    pub fn hill_on(&self, sq: usize) -> Option<&Hill> {
        let i = *self.hill_at.get(sq)?;
        self.hills.get(i as usize)
    }
    /// Living ants, in no meaningful order.
    pub fn ants(&self) -> &[Ant] {
        &self.ants
    }
    /// Ants killed in the last turn.
    pub fn killed(&self) -> &[DeadAnt] {
        &self.killed
    }
    /// Food on the map.
    pub fn food(&self) -> &[Food] {
        &self.food
    }
    /// Food gathered or destroyed in the last turn.
    pub fn food_gone(&self) -> &[FoodGone] {
        &self.food_gone
    }
    /// Every hill, in the official order.
    pub fn hills(&self) -> &[Hill] {
        &self.hills
    }
    /// Ants created so far (the next ant's id).
    pub fn ants_created(&self) -> u32 {
        self.next_ant
    }
    /// Food created so far (the next food's id).
    pub fn food_created(&self) -> u32 {
        self.next_food
    }
    /// A player's score (0 for no such player).
    pub fn score(&self, player: usize) -> i32 {
        self.score.get(player).copied().unwrap_or(0)
    }
    /// Every player's score, by seat.
    pub fn scores(&self) -> &[i32] {
        let n = self.players as usize;
        self.score.get(..n).unwrap_or(&self.score)
    }
    /// Every player's end-of-game bonus (the lone survivor's points for the hills still standing), by seat.
    pub fn bonus(&self) -> &[i32] {
        let n = self.players as usize;
        self.bonus.get(..n).unwrap_or(&self.bonus)
    }
    /// Food in a player's hive: gathered, not yet spawned as ants.
    pub fn hive_food(&self, player: usize) -> u32 {
        self.hive.get(player).copied().unwrap_or(0)
    }
    /// Ants a player has alive.
    pub fn ant_count(&self, player: usize) -> usize {
        self.ant_count.get(player).copied().unwrap_or(0) as usize
    }
    /// Alive: not killed by the engine (crash, timeout) and at least one ant.
    pub fn is_alive(&self, player: usize) -> bool {
        !self.is_killed(player) && self.ant_count(player) > 0
    }
    /// Killed by the engine (crash, timeout), whatever its ants.
    pub fn is_killed(&self, player: usize) -> bool {
        player >= MAX_PLAYERS || self.dead.contains(player)
    }
    /// The turn a player that is out went out: its last ant lost, or killed by the engine (turn 0
    /// for a bot lost before the first turn).
    pub fn out_at(&self, player: usize) -> Option<u16> {
        let t = self.out_at.get(player).copied().unwrap_or(NONE16);
        (t != NONE16 && !self.is_alive(player)).then_some(t)
    }
    /// Why the game ended, once it has.
    pub fn cutoff(&self) -> Option<Cutoff> {
        self.cutoff
    }
    /// The turn the winner took the lead (the replay's `winning_turn`).
    pub fn winning_turn(&self) -> u16 {
        self.winning_turn
    }
    /// The turn the ranking last changed (the replay's `ranking_turn`).
    pub fn ranking_turn(&self) -> u16 {
        self.ranking_turn
    }
    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.over
    }
    /// `(cutoff_bot, cutoff_turns)`: `CUTOFF_LAND`, `CUTOFF_FOOD` or a player.
    pub fn cutoff_counter(&self) -> (i8, u16) {
        (self.cutoff_bot, self.cutoff_turns)
    }
    /// Spawns and food placements that waited because a container of this build was full.
    pub fn capacity_waits(&self) -> u32 {
        self.capacity_waits
    }
    /// `rank[i]`: index of `score[i]` in the scores sorted descending.
    pub fn ranks(&self) -> [u8; MAX_PLAYERS] {
        let scores = self.scores();
        let mut rank = [0u8; MAX_PLAYERS];
        for (r, &mine) in rank.iter_mut().zip(scores) {
            *r = scores.iter().filter(|&&o| o > mine).count() as u8;
        }
        rank
    }

    pub(crate) fn sq_of(&self, row: i32, col: i32) -> usize {
        let r = wrap(row, self.rows as i32) as usize;
        let c = wrap(col, self.cols as i32) as usize;
        // `r < rows` and `c < cols`: the square is below rows * cols, no overflow.
        r.saturating_mul(self.cols as usize).saturating_add(c)
    }
    pub(crate) fn row_col(&self, sq: usize) -> (i32, i32) {
        // `cols >= 1`: the compiler drops the zero checks.
        let cols = self.cols.max(1) as usize;
        let (r, c) = (sq.checked_div(cols), sq.checked_rem(cols));
        (r.unwrap_or(0) as i32, c.unwrap_or(0) as i32)
    }
    /// `destination(loc, (dr, dc))` on the torus.
    pub(crate) fn offset(&self, sq: usize, dr: i32, dc: i32) -> usize {
        let (r, c) = self.row_col(sq);
        self.sq_of(r.saturating_add(dr), c.saturating_add(dc))
    }
    /// Squared distance on the torus.
    pub fn distance2(&self, a: usize, b: usize) -> u32 {
        let (ar, ac) = self.row_col(a);
        let (br, bc) = self.row_col(b);
        // Each under 2^15 (u16 boards): the squares and their sum fit a u32.
        let dr = ar.abs_diff(br);
        let dr = dr.min((self.rows as u32).saturating_sub(dr));
        let dc = ac.abs_diff(bc);
        let dc = dc.min((self.cols as u32).saturating_sub(dc));
        dr.saturating_mul(dr).saturating_add(dc.saturating_mul(dc))
    }
    pub(crate) fn cell(&self, sq: usize) -> u8 {
        self.square(sq)
    }
    pub(crate) fn set_cell(&mut self, sq: usize, v: u8) {
        if let Some(c) = self.map.get_mut(sq) {
            *c = v;
        }
    }

    /// Squares with a food that is land without an ant: where `place_food` may put one.
    pub(crate) fn is_free_land(&self, sq: usize) -> bool {
        self.cell(sq) == LAND
    }

    /// Is `sq` food? (for bots)
    pub fn is_food(&self, sq: usize) -> bool {
        self.cell(sq) == FOOD
    }

    /// Validates one seat's order as the official `validate_orders` does, against the board as it
    /// is before anyone moves. `Ok` gives the ant's index.
    pub fn check_order(&self, player: usize, order: &Order) -> Result<usize, super::OrderError> {
        use super::OrderError as E;
        let (r, c) = (order.row as i32, order.col as i32);
        let (h, w) = (self.rows as i32, self.cols as i32);
        let in_range = (0..h).contains(&r) && (0..w).contains(&c);
        if in_range {
            if let Some(ant) = self.ant_on(self.sq_of(r, c)) {
                if ant.owner as usize == player && ant.order != b'-' && ant.order != 0 {
                    return Err(E::Duplicate);
                }
            }
        }
        // Python indexing: -len..len is fine (negatives wrap), anything else is an IndexError.
        if !(h.saturating_neg()..h).contains(&r) || !(w.saturating_neg()..w).contains(&c) {
            return Err(E::OutOfBounds);
        }
        let sq = self.sq_of(r, c);
        if self.cell(sq) as usize != player {
            return Err(E::NotPlayerAnt);
        }
        if r < 0 || c < 0 {
            return Err(E::OutOfBounds);
        }
        let (dr, dc) = order.dir.offset();
        let dest = self.offset(sq, dr, dc);
        if matches!(self.cell(dest), FOOD | WATER) {
            return Err(E::MoveBlocked);
        }
        Ok(self.ant_at.get(sq).copied().unwrap_or(NONE16) as usize)
    }

    /// Feeds the whole state into `d` (the [`crate::Game::hash_into`] of every Ants build).
    pub fn hash_into(&self, d: &mut Digest) {
        d.u16(self.rows)
            .u16(self.cols)
            .u8(self.players)
            .u16(self.turns);
        d.u32(self.loadtime)
            .u32(self.turntime)
            .i64(self.player_seed);
        d.u16(self.view2)
            .u16(self.attack2)
            .u16(self.spawn2)
            .u8(self.attack as u8);
        d.u16(self.cutoff_turn)
            .u32(self.cutoff_percent.0)
            .u32(self.cutoff_percent.1);
        d.u16(self.food_rate)
            .u16(self.food_turn)
            .u16(self.food_start)
            .u16(self.food_visible);
        d.u32(self.land_area);
        let n = (self.rows as usize).saturating_mul(self.cols as usize);
        // Past the capacity (never: `parse` refuses such maps) the whole array is hashed.
        d.bytes(self.map.get(..n).unwrap_or(&self.map));
        for &a in self.ant_at.get(..n).unwrap_or(&self.ant_at) {
            d.u16(a);
        }
        d.bytes(self.hill_at.get(..n).unwrap_or(&self.hill_at));
        d.bytes(&self.scratch[..n.min(SQ)]);
        for &p in &self.pending[..n.min(SQ)] {
            d.u16(p);
        }
        d.usize(self.pending_order.len());
        for &p in &self.pending_order {
            d.u16(p);
        }
        d.usize(self.ring_len);
        for k in 0..self.ring_len {
            d.u16(self.ring_get(k));
        }
        for (&sq, &aim) in self.sym_sq.iter().zip(&self.sym_aim) {
            d.u16(sq).u8(aim);
        }
        d.usize(self.ants.len());
        for a in &self.ants {
            d.u32(a.id)
                .u16(a.sq)
                .u8(a.owner)
                .u16(a.spawn_turn)
                .u8(a.order);
        }
        d.usize(self.killed.len());
        for a in &self.killed {
            d.u32(a.id).u16(a.sq).u8(a.owner).u8(a.order);
        }
        d.usize(self.food.len());
        for f in &self.food {
            d.u32(f.id).u16(f.sq).u16(f.start_turn);
        }
        d.usize(self.food_gone.len());
        for f in &self.food_gone {
            d.u32(f.id).u16(f.sq).u8(f.owner.unwrap_or(NONE8));
        }
        d.usize(self.hills.len());
        for h in &self.hills {
            d.u16(h.sq).u8(h.owner).u16(h.last_touched);
            d.u16(h.end_turn.unwrap_or(0))
                .u8(h.killed_by.unwrap_or(NONE8))
                .bool(h.raze_points);
        }
        d.u32(self.next_ant).u32(self.next_food);
        for w in self.rng_words() {
            d.u32(w);
        }
        d.u16(self.turn).i64(self.food_extra);
        for p in 0..MAX_PLAYERS {
            // Every per-player array holds MAX_PLAYERS entries.
            d.i32(self.score.get(p).copied().unwrap_or(0))
                .i32(self.bonus.get(p).copied().unwrap_or(0))
                .u32(self.hive.get(p).copied().unwrap_or(0))
                .bool(self.dead.contains(p));
            d.u16(self.ant_count.get(p).copied().unwrap_or(0));
        }
        d.u8(self.cutoff_bot as u8)
            .u16(self.cutoff_turns)
            .bool(self.hill_kill);
        match self.ranking {
            Some(r) => d.u8(1).bytes(&r),
            None => d.u8(0),
        };
        d.u16(self.ranking_turn)
            .u32(self.winning.map_or(u32::MAX, |w| w as u32));
        d.u16(self.winning_turn);
        d.u8(self.cutoff.map_or(0, |c| (c as u8).saturating_add(1)))
            .bool(self.over)
            .u32(self.capacity_waits);
    }

    fn rng_words(&self) -> impl Iterator<Item = u32> + '_ {
        self.rng.state_words()
    }
}
