//! Siege: one path, an invader seat against a defender seat (rules "Siege").

use super::board::{Board, BoardRules, TowerKind, BASE_HP};
use super::{Action, Stat};
use crate::game::StepReport;
use crate::seat::Seat;

/// The invader's seat.
pub const INVADER_SEAT: Seat = 0;
/// The defender's seat.
pub const DEFENDER_SEAT: Seat = 1;
/// The invader's income at the start, paid every 10 turns.
pub const INVADER_INCOME: u32 = 10;
/// Gold the defender starts with.
pub const DEFENDER_GOLD: u64 = 50;
/// Life the defender starts with.
pub const DEFENDER_LIFE: u32 = 100;
/// What a build or an upgrade costs the defender.
pub const TOWER_COST: u64 = 10;
/// Spawned hit points are multiplied by 1.1 every this many turns.
pub const HP_MULT_INTERVAL: u32 = 10_000;
/// The safety cap: the game ends as a defender win.
pub const TURN_CAP: u32 = 1_000_000;

pub(crate) const RULES: BoardRules = BoardRules {
    fire_descending: true,
    kill_rewards: false,
    base_level: 0,
    base_power: [1, 1, 1],
    base_range: [1, 0, 2],
};

/// The invader seat's account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attacker {
    /// Gold.
    pub gold: u64,
    /// Gold paid every 10 turns (it grows every 100 turns).
    pub income: u32,
    /// The most a spawned invader's boosts may add up to.
    pub boost_max: u32,
}

/// The defender seat's account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defender {
    /// Gold.
    pub gold: u64,
    /// Life left: an invader getting through takes 1.
    pub life: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Siege {
    pub invader: Attacker,
    pub defender: Defender,
    pub board: Board<u32>,
}

/// `floor(log10(n))` for `n >= 1`: the number of decimal digits minus one (exact, no floats).
pub fn log10_floor(n: u32) -> u32 {
    n.checked_ilog10().unwrap_or(0)
}

/// Spawned HP: `floor((10 + boost) * 11^k / 10^k)`, exact, saturating at `u32::MAX`.
///
/// `11^k` outgrows 128 bits for `k > 36` (turn 370,000), so the product is kept in a fixed
/// 512-bit number of 32-bit limbs; `k` is at most 100 before the safety cap (under 420 bits).
pub fn multiplied_hp(base: u64, k: u32) -> u32 {
    const LIMBS: usize = 16;
    let mut n = [0u32; LIMBS];
    n[0] = base as u32;
    n[1] = (base >> 32) as u32;
    let k = k.min(100);
    for _ in 0..k {
        let mut carry = 0u64;
        for limb in n.iter_mut() {
            // (2^32 - 1) * 11 plus a carry below 11 is far below 2^64.
            let v = (*limb as u64).wrapping_mul(11).wrapping_add(carry);
            *limb = v as u32;
            carry = v >> 32;
        }
    }
    for _ in 0..k {
        let mut rem = 0u64;
        for limb in n.iter_mut().rev() {
            let v = (rem << 32) | *limb as u64;
            *limb = (v / 10) as u32;
            rem = v % 10;
        }
    }
    if n.iter().skip(1).any(|&l| l != 0) {
        u32::MAX
    } else {
        n[0]
    }
}

impl Siege {
    pub const fn new() -> Siege {
        Siege {
            invader: Attacker {
                gold: 0,
                income: INVADER_INCOME,
                boost_max: 0,
            },
            defender: Defender {
                gold: DEFENDER_GOLD,
                life: DEFENDER_LIFE,
            },
            board: Board::EMPTY,
        }
    }

    /// Towers fire, invaders move, income and growth; `turn` is the turn number after the increment.
    pub fn advance(&mut self, turn: u32) {
        let result = self.board.turn(&RULES);
        if result.through.is_some() {
            self.defender.life = self.defender.life.saturating_sub(1);
        }
        if turn.is_multiple_of(10) {
            self.invader.gold = self.invader.gold.saturating_add(self.invader.income as u64);
            self.defender.gold = self.defender.gold.saturating_add(1);
        }
        if turn.is_multiple_of(100) {
            let l = log10_floor(turn);
            self.invader.income = self.invader.income.saturating_add(l.saturating_sub(1));
            self.invader.boost_max = self.invader.boost_max.saturating_add(l);
        }
    }

    pub fn apply(&mut self, seat: Seat, turn: u32, action: &Action, report: &mut StepReport) {
        let ok = match (seat, *action) {
            (_, Action::Pass) => true,
            (
                INVADER_SEAT,
                Action::Spawn {
                    hp,
                    defense,
                    stun_res,
                },
            ) => self.spawn(turn, hp, defense, stun_res),
            (DEFENDER_SEAT, Action::Build { kind, pos }) => self.build(kind, pos),
            (DEFENDER_SEAT, Action::Upgrade { pos, stat }) => self.upgrade(pos, stat),
            (DEFENDER_SEAT, Action::Destroy { pos }) => self.destroy(pos),
            _ => false,
        };
        if !ok {
            report.refuse(seat);
        }
    }

    fn spawn(&mut self, turn: u32, hp: i64, defense: i64, stun_res: i64) -> bool {
        let inv = &mut self.invader;
        let Some((h, d, r)) = super::spawn_terms(hp, defense, stun_res, inv.boost_max) else {
            return false;
        };
        let cost = super::spawn_cost(h, d, r);
        if self.board.has_invader(0) {
            return false;
        }
        let Some(left) = inv.gold.checked_sub(cost) else {
            return false;
        };
        inv.gold = left;
        let spawned = multiplied_hp(BASE_HP.saturating_add(h), turn / HP_MULT_INTERVAL);
        self.board.spawn(spawned as u64, d, r);
        true
    }

    fn build(&mut self, kind: Option<TowerKind>, pos: i64) -> bool {
        let (Some(kind), Some(pos)) = (kind, super::space(pos)) else {
            return false;
        };
        if self.board.has_tower(pos) {
            return false;
        }
        let Some(left) = self.defender.gold.checked_sub(TOWER_COST) else {
            return false;
        };
        self.defender.gold = left;
        self.board.build(pos, kind, TOWER_COST, &RULES);
        true
    }

    fn upgrade(&mut self, pos: i64, stat: Option<Stat>) -> bool {
        let (Some(stat), Some(pos)) = (stat, super::space(pos)) else {
            return false;
        };
        if !self.board.has_tower(pos) {
            return false;
        }
        let Some(left) = self.defender.gold.checked_sub(TOWER_COST) else {
            return false;
        };
        self.defender.gold = left;
        self.board.upgrade(pos, stat == Stat::Range, TOWER_COST);
        true
    }

    fn destroy(&mut self, pos: i64) -> bool {
        let Some(tower) = super::space(pos).and_then(|p| self.board.tower(p, &RULES)) else {
            return false;
        };
        let refund = TOWER_COST
            .saturating_mul(tower.level as u64)
            .saturating_add(TOWER_COST)
            / 2;
        self.defender.gold = self.defender.gold.saturating_add(refund);
        self.board.remove_tower(tower.pos as usize);
        true
    }

    pub fn hash_into(&self, d: &mut crate::Digest) {
        d.u64(self.invader.gold)
            .u32(self.invader.income)
            .u32(self.invader.boost_max);
        d.u64(self.defender.gold).u32(self.defender.life);
        self.board.hash_into(d);
    }
}
