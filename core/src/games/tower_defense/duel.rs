//! Duel: the symmetric version, each player both invader and defender (rules "Duel").

use super::board::{Board, BoardRules, TowerKind, BASE_HP, SPACES};
use super::{Action, Stat};
use crate::game::StepReport;
use crate::seat::Seat;

/// Gold each player starts with.
pub const INITIAL_GOLD: u32 = 500;
/// Life each player starts with.
pub const INITIAL_LIFE: u32 = 100;
/// Income each player starts with.
pub const INITIAL_INCOME: u32 = 10;
/// Players are paid their income every this many turns.
pub const INCOME_INTERVAL: u32 = 10;
/// Income and boost limit grow every this many turns.
pub const GROWTH_INTERVAL: u32 = 100;
/// What the income grows by.
pub const INCOME_GROWTH: u32 = 3;
/// What the boost limit grows by.
pub const BOOST_GROWTH: u32 = 5;
/// A tower's cost before inflation.
pub const BASE_BUILD_COST: u64 = 50;
/// An upgrade's cost before inflation.
pub const BASE_UPGRADE_COST: u64 = 75;
/// What a build adds to the builder's inflation.
pub const BUILD_INFLATION: u32 = 10;
/// What an upgrade adds to the upgrader's inflation.
pub const UPGRADE_INFLATION: u32 = 5;
/// The game ends after this many turns.
pub const TURN_LIMIT: u32 = 100_000;

pub(crate) const RULES: BoardRules = BoardRules {
    fire_descending: false,
    kill_rewards: true,
    base_level: 1,
    base_power: [1, 3, 2],
    base_range: [1, 0, 2],
};

/// A Duel player's account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// A Duel player receives under 80 million gold in 100,000 turns (income at most
    /// `10 + 3 * 1000 + 100` every 10 turns, kill rewards a tenth of what the opponent spends,
    /// refunds half of what it spent itself): 32 bits hold it.
    pub gold: u32,
    /// Life left: an invader getting through takes 1.
    pub life: u32,
    /// Gold paid every [`INCOME_INTERVAL`] turns.
    pub income: u32,
    /// The most a spawned invader's boosts may add up to.
    pub boost_max: u32,
    /// Sum over the player's standing towers of `10 + 5 * (level - 1)`.
    pub inflation: u32,
}

impl Player {
    const fn new() -> Player {
        Player {
            gold: INITIAL_GOLD,
            life: INITIAL_LIFE,
            income: INITIAL_INCOME,
            boost_max: 0,
            inflation: 0,
        }
    }

    /// `50 + inflation`.
    pub fn build_cost(&self) -> u64 {
        BASE_BUILD_COST.saturating_add(self.inflation as u64)
    }

    /// `75 + floor(inflation * 3 / 2)`.
    pub fn upgrade_cost(&self) -> u64 {
        BASE_UPGRADE_COST.saturating_add((self.inflation as u64).saturating_mul(3) / 2)
    }
}

/// `gold + amount`, saturating.
fn add_gold(gold: u32, amount: u64) -> u32 {
    u32::try_from((gold as u64).saturating_add(amount)).unwrap_or(u32::MAX)
}

/// What is left after paying `cost`, if `gold` covers it.
fn pay(gold: u32, cost: u64) -> Option<u32> {
    (gold as u64)
        .checked_sub(cost)
        .and_then(|g| u32::try_from(g).ok())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Duel {
    pub players: [Player; 2],
    /// Board `i`: player `i`'s invaders walk it, player `1 - i`'s towers stand on it.
    pub boards: [Board<u16>; 2],
}

impl Duel {
    pub const fn new() -> Duel {
        Duel {
            players: [Player::new(), Player::new()],
            boards: [Board::EMPTY, Board::EMPTY],
        }
    }

    /// Steps 1 and 2 of a turn; `turn` is the turn number after the increment.
    pub fn advance(&mut self, turn: u32) {
        for b in 0..2 {
            let Some(board) = self.boards.get_mut(b) else {
                continue;
            };
            let result = board.turn(&RULES);
            let [p0, p1] = &mut self.players;
            let (attacker, defender) = if b == 0 { (p0, p1) } else { (p1, p0) };
            defender.gold = add_gold(defender.gold, result.kill_gold);
            if let Some((hp, maxhp)) = result.through {
                // Decision 2: exact integer arithmetic, floor(income * hp / maxhp).
                // Two u32s: the product fits a u64 exactly.
                let reward = (attacker.income as u64)
                    .saturating_mul(hp as u64)
                    .checked_div(maxhp as u64)
                    .unwrap_or(0);
                attacker.gold = add_gold(attacker.gold, reward);
                defender.life = defender.life.saturating_sub(1);
                attacker.income = attacker.income.saturating_add(1);
            }
        }
        if turn.is_multiple_of(INCOME_INTERVAL) {
            for p in &mut self.players {
                p.gold = p.gold.saturating_add(p.income);
            }
        }
        if turn.is_multiple_of(GROWTH_INTERVAL) {
            for p in &mut self.players {
                p.income = p.income.saturating_add(INCOME_GROWTH);
                p.boost_max = p.boost_max.saturating_add(BOOST_GROWTH);
            }
        }
    }

    /// Step 3: one player's action. Refusals are counted in `report`.
    pub fn apply(&mut self, seat: Seat, action: &Action, report: &mut StepReport) {
        let ok = match *action {
            Action::Pass => true,
            Action::Spawn {
                hp,
                defense,
                stun_res,
            } => self.spawn(seat, hp, defense, stun_res),
            Action::Build { kind, pos } => self.build(seat, kind, pos),
            Action::Upgrade { pos, stat } => self.upgrade(seat, pos, stat),
            Action::Destroy { pos } => self.destroy(seat, pos),
            Action::Unknown | Action::Malformed(_) => false,
        };
        if !ok {
            report.refuse(seat);
        }
    }

    fn spawn(&mut self, seat: Seat, hp: i64, defense: i64, stun_res: i64) -> bool {
        let (Some(player), Some(board)) = (self.players.get_mut(seat), self.boards.get_mut(seat))
        else {
            return false;
        };
        let Some((h, d, r)) = super::spawn_terms(hp, defense, stun_res, player.boost_max) else {
            return false;
        };
        let cost = super::spawn_cost(h, d, r);
        let Some(left) = pay(player.gold, cost) else {
            return false;
        };
        if board.has_invader(0) {
            return false;
        }
        player.gold = left;
        board.spawn(BASE_HP.saturating_add(h), d, r);
        true
    }

    fn build(&mut self, seat: Seat, kind: Option<TowerKind>, pos: i64) -> bool {
        let Some(kind) = kind else {
            return false;
        };
        self.buy(
            seat,
            pos,
            false,
            Player::build_cost,
            BUILD_INFLATION,
            |board, pos, cost| {
                board.build(pos, kind, cost, &RULES);
            },
        )
    }

    fn upgrade(&mut self, seat: Seat, pos: i64, stat: Option<Stat>) -> bool {
        let Some(stat) = stat else {
            return false;
        };
        self.buy(
            seat,
            pos,
            true,
            Player::upgrade_cost,
            UPGRADE_INFLATION,
            |board, pos, cost| {
                board.upgrade(pos, stat == Stat::Range, cost);
            },
        )
    }

    /// Player `seat` pays `cost(player)` for work on the space `pos` of the board its towers
    /// stand on, which must hold a tower (`tower`) or not; the price inflates by `inflation`.
    #[inline]
    fn buy(
        &mut self,
        seat: Seat,
        pos: i64,
        tower: bool,
        cost: fn(&Player) -> u64,
        inflation: u32,
        work: impl FnOnce(&mut Board<u16>, usize, u64),
    ) -> bool {
        let Some((player, board)) = self.towers_of(seat) else {
            return false;
        };
        let Some(pos) = super::space(pos) else {
            return false;
        };
        let cost = cost(player);
        let Some(left) = pay(player.gold, cost) else {
            return false;
        };
        if board.has_tower(pos) != tower {
            return false;
        }
        player.gold = left;
        player.inflation = player.inflation.saturating_add(inflation);
        work(board, pos, cost);
        true
    }

    /// Player `seat` and the board its towers stand on (the opponent's).
    #[inline]
    fn towers_of(&mut self, seat: Seat) -> Option<(&mut Player, &mut Board<u16>)> {
        let (Some(player), Some(board)) = (
            self.players.get_mut(seat),
            self.boards.get_mut(1usize.wrapping_sub(seat)),
        ) else {
            return None;
        };
        Some((player, board))
    }

    fn destroy(&mut self, seat: Seat, pos: i64) -> bool {
        let Some((player, board)) = self.towers_of(seat) else {
            return false;
        };
        let Some(tower) = super::space(pos).and_then(|p| board.tower(p, &RULES)) else {
            return false;
        };
        // Decision 3: refund half the gold actually paid; take back the inflation it added.
        player.gold = player.gold.saturating_add(tower.invested / 2);
        let added = BUILD_INFLATION
            .saturating_add(UPGRADE_INFLATION.saturating_mul(tower.level.saturating_sub(1)));
        player.inflation = player.inflation.saturating_sub(added);
        board.remove_tower(tower.pos as usize);
        true
    }

    pub fn hash_into(&self, d: &mut crate::Digest) {
        for p in &self.players {
            d.u32(p.gold)
                .u32(p.life)
                .u32(p.income)
                .u32(p.boost_max)
                .u32(p.inflation);
        }
        for b in &self.boards {
            b.hash_into(d);
        }
    }
}

const _: () = assert!(SPACES == 100);
