//! One path of 100 spaces: the invaders walking it and the towers beside it.
//!
//! Invaders are stored by space, one small record each (`[Invader; 100]`), so that an invader
//! moving on is one record copied; towers as parallel arrays indexed by space. An empty space
//! holds zeros everywhere, so two equal games are equal field for field.
//!
//! Speed: a turn works on 128-bit masks of spaces (bit `i` = space `i`), kept up to date in the
//! board rather than found by scanning the arrays: the invaders, the stunned invaders, the
//! towers, the ready towers (cooldown 0), and by kind the common towers (turrets of range 1,
//! stunners of range 0, bombs). 112 bytes a board; [`Board::check`] states what each holds. A
//! turn then visits only the towers counting down, the invaders, and the ready towers that can
//! reach one; a path without invaders costs the countdown alone.
//!
//! Most turns nobody dies: then the towers need not fire one by one ([`Board::turn`]).
//!
//! Field widths and why they suffice (saturating arithmetic guards them anyway):
//! - invader `defense`, `stunRes`: at most `boostMax` (Duel 5,000; Siege 48,894 at the 1,000,000-turn
//!   cap), so `u16`;
//! - tower `power`, `range`: a Duel tower at level `L` has cost at least `3.75 L^2` gold, and a player
//!   receives under 80 million gold in 100,000 turns, so `L < 4,700`; a Siege defender receives at
//!   most 100,050 gold at 10 per upgrade. `cooldown <= power + 1` and `stunTime <= power`: all `u16`;
//! - hit points: `u16` in Duel (`maxhp <= 10 + 5,000`), `u32` in Siege (the HP multiplier), hence the
//!   [`Hp`] parameter;
//! - a tower's kind shares a `u32` with the gold invested in it ([`TowerTag`]): under 2^27 in Duel.

/// Spaces on a path.
pub const SPACES: usize = 100;
/// The last space; an invader moving on from it has got through.
pub const LAST: usize = SPACES - 1;

/// The three tower types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TowerKind {
    /// Hits the first invader in range, farthest along first.
    Turret,
    /// Stuns the first invader in range that is not stunned.
    Stunner,
    /// Hits every invader in range, when one stands on its own space.
    Bomb,
}

impl TowerKind {
    /// The three kinds, in the bot protocol's order.
    pub const ALL: [TowerKind; 3] = [TowerKind::Turret, TowerKind::Stunner, TowerKind::Bomb];

    /// The name in the bot protocol.
    pub const fn name(self) -> &'static str {
        match self {
            TowerKind::Turret => "turret",
            TowerKind::Stunner => "stunner",
            TowerKind::Bomb => "bomb",
        }
    }

    /// The kind named `name` ([`TowerKind::name`]); `None` for another name.
    pub fn from_name(name: &str) -> Option<TowerKind> {
        TowerKind::ALL.into_iter().find(|k| k.name() == name)
    }

    const fn code(self) -> u32 {
        match self {
            TowerKind::Turret => 1,
            TowerKind::Stunner => 2,
            TowerKind::Bomb => 3,
        }
    }
}

/// Hit points storage: `u16` for Duel, `u32` for Siege.
pub trait Hp: Copy + Default + Eq + core::fmt::Debug {
    /// 0 (`Default`, as a constant).
    const ZERO: Self;
    /// The value, widened to `u32`.
    fn get(self) -> u32;
    /// `v`, or the largest value the type holds.
    fn saturating(v: u64) -> Self;
}

impl Hp for u16 {
    const ZERO: u16 = 0;
    fn get(self) -> u32 {
        self as u32
    }
    fn saturating(v: u64) -> Self {
        u16::try_from(v).unwrap_or(u16::MAX)
    }
}

impl Hp for u32 {
    const ZERO: u32 = 0;
    fn get(self) -> u32 {
        self
    }
    fn saturating(v: u64) -> Self {
        u32::try_from(v).unwrap_or(u32::MAX)
    }
}

/// A tower's kind (top two bits, 0 = no tower) and the gold invested in it (low 30 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TowerTag(u32);

impl TowerTag {
    const INVESTED_MASK: u32 = (1 << 30) - 1;

    fn new(kind: TowerKind, invested: u64) -> TowerTag {
        let invested = u32::try_from(invested)
            .unwrap_or(u32::MAX)
            .min(Self::INVESTED_MASK);
        TowerTag(kind.code() << 30 | invested)
    }

    /// A load from a table, no branch: the kinds of the towers a turn or an observation
    /// visits come in no order a branch predictor could follow.
    fn kind(self) -> Option<TowerKind> {
        const KINDS: [Option<TowerKind>; 4] = [
            None,
            Some(TowerKind::Turret),
            Some(TowerKind::Stunner),
            Some(TowerKind::Bomb),
        ];
        KINDS.get((self.0 >> 30) as usize).copied().flatten()
    }

    fn invested(self) -> u32 {
        self.0 & Self::INVESTED_MASK
    }
}

/// An invader as the bots and codecs see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvaderView {
    /// Space on the path, 0..=99.
    pub pos: u8,
    /// Hit points left.
    pub hp: u32,
    /// Hit points at spawn.
    pub maxhp: u32,
    /// Defense: taken off each hit's power (a hit does at least 1).
    pub defense: u16,
    /// Stun resistance: taken off each stun's power.
    pub stun_res: u16,
    /// Turns it stays stunned.
    pub stun_time: u16,
}

/// A tower as the bots and codecs see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerView {
    /// Space on the path, 0..=99.
    pub pos: u8,
    /// What it does.
    pub kind: TowerKind,
    /// Level: raised by each upgrade.
    pub level: u32,
    /// Power: damage per hit, or turns of stun.
    pub power: u16,
    /// Range: reaches `pos - range ..= pos + range`.
    pub range: u16,
    /// Turns before it fires again.
    pub cooldown: u16,
    /// Gold paid for it (build and upgrades).
    pub invested: u32,
}

/// What one board's turn produced, for the players' accounts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardTurn {
    /// Kill rewards earned by the towers' owner (Duel only; Siege pays nothing for kills).
    pub kill_gold: u64,
    /// The invader that left space 99 this turn: `(hp, maxhp)`.
    pub through: Option<(u32, u32)>,
}

/// The variant-specific constants a board needs.
#[derive(Clone, Copy, Debug)]
pub struct BoardRules {
    /// Towers fire from 99 down to 0 (Siege) instead of 0 up to 99 (Duel).
    pub fire_descending: bool,
    /// Kill rewards are paid (Duel).
    pub kill_rewards: bool,
    /// Level of a fresh tower (Duel 1, Siege 0).
    pub base_level: u32,
    /// Power and range of a fresh tower, per kind (turret, stunner, bomb).
    pub base_power: [u16; 3],
    /// Range of a fresh tower, per kind (turret, stunner, bomb).
    pub base_range: [u16; 3],
}

/// Cool-down of a tower just built, in turns.
pub const BUILD_TIME: u16 = 10;
/// Cool-down of a tower just upgraded, in turns.
pub const UPGRADE_TIME: u16 = 10;
/// Cool-down of a bomb that has fired, in turns.
pub const BOMB_COOLDOWN: u16 = 5;
/// Hit points of an invader spawned with no boost.
pub const BASE_HP: u64 = 10;

impl BoardRules {
    fn index(kind: TowerKind) -> usize {
        match kind {
            TowerKind::Turret => 0,
            TowerKind::Stunner => 1,
            TowerKind::Bomb => 2,
        }
    }
    /// The power and range of a fresh tower of `kind`.
    pub fn base(&self, kind: TowerKind) -> (u16, u16) {
        let i = Self::index(kind);
        (
            self.base_power.get(i).copied().unwrap_or(1),
            self.base_range.get(i).copied().unwrap_or(0),
        )
    }
}

/// One invader (all zero on an empty space).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Invader<H> {
    hp: H,
    maxhp: H,
    defense: u16,
    stun_res: u16,
    stun: u16,
}

impl<H: Hp> Invader<H> {
    /// The invader as the bots and codecs see it, standing on `pos`.
    fn view(&self, pos: usize) -> InvaderView {
        InvaderView {
            pos: pos as u8,
            hp: self.hp.get(),
            maxhp: self.maxhp.get(),
            defense: self.defense,
            stun_res: self.stun_res,
            stun_time: self.stun,
        }
    }
}

/// A 128-bit mask of spaces, stored as two words (a `u128` field would raise the board's
/// alignment, and so its size, to 16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Mask([u64; 2]);

impl Mask {
    fn get(self) -> u128 {
        let [lo, hi] = self.0;
        lo as u128 | (hi as u128) << 64
    }
    fn set(&mut self, mask: u128) {
        self.0 = [mask as u64, (mask >> 64) as u64];
    }
    /// Sets or clears the bits of `b`.
    fn put(&mut self, b: u128, on: bool) {
        let m = self.get();
        self.set(if on { m | b } else { m & !b });
    }
}

/// A path: invaders and towers by space, and the masks a turn works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board<H: Hp> {
    inv: [Invader<H>; SPACES],
    tag: [TowerTag; SPACES],
    power: [u16; SPACES],
    range: [u16; SPACES],
    cooldown: [u16; SPACES],
    /// The spaces holding an invader.
    occupied: Mask,
    /// The invaders whose stun time is not 0.
    stunned: Mask,
    /// The spaces holding a tower.
    towers: Mask,
    /// The towers whose cooldown is 0 (they fire this turn if they have a target).
    ready: Mask,
    /// Turrets of range 1, stunners of range 0 (each kind's starting range), and bombs.
    turret1: Mask,
    stunner0: Mask,
    bombs: Mask,
}

impl<H: Hp> Board<H> {
    /// The empty board, as a constant: a state holding boards is copied from it in one move
    /// (built field by field, it went through a temporary on the stack).
    pub const EMPTY: Board<H> = Board {
        inv: [Invader {
            hp: H::ZERO,
            maxhp: H::ZERO,
            defense: 0,
            stun_res: 0,
            stun: 0,
        }; SPACES],
        tag: [TowerTag(0); SPACES],
        power: [0; SPACES],
        range: [0; SPACES],
        cooldown: [0; SPACES],
        occupied: Mask([0; 2]),
        stunned: Mask([0; 2]),
        towers: Mask([0; 2]),
        ready: Mask([0; 2]),
        turret1: Mask([0; 2]),
        stunner0: Mask([0; 2]),
        bombs: Mask([0; 2]),
    };
}

impl<H: Hp> Default for Board<H> {
    fn default() -> Self {
        Board::EMPTY
    }
}

/// The whole path as a mask.
const PATH: u128 = (1u128 << SPACES).wrapping_sub(1);

/// The mask of space `i` (`i < 128`). A u128 shift by a variable amount is several instructions on
/// a 64-bit machine: the hot loops get their bits from [`each_up!`] instead.
fn bit(i: usize) -> u128 {
    1u128 << (i & 127)
}

/// Bits `lo..=hi` of a 128-bit mask (both within 0..128, `lo <= hi`).
fn span(lo: usize, hi: usize) -> u128 {
    let upper = if hi >= 127 {
        u128::MAX
    } else {
        // hi < 127 here, and a power of two minus one never wraps.
        (1u128 << hi.wrapping_add(1)).wrapping_sub(1)
    };
    upper & !(1u128 << lo.min(127)).wrapping_sub(1)
}

/// `m` and its neighbours on the path.
fn widen(m: u128) -> u128 {
    (m | m << 1 | m >> 1) & PATH
}

/// The spaces a tower at `pos` (on the path, `b == bit(pos)`) with `range` reaches.
fn reach(b: u128, pos: usize, range: u16) -> u128 {
    match range {
        0 => b,
        1 => widen(b),
        2 => widen(widen(b)),
        _ => {
            let r = range as usize;
            span(pos.saturating_sub(r), pos.saturating_add(r).min(LAST))
        }
    }
}

/// The spaces within `r` of any bit of `mask` (clipped to the path).
fn dilate(mask: u128, r: u16) -> u128 {
    match r {
        0 => return mask,
        1 => return widen(mask),
        2 => return widen(widen(mask)),
        _ if r as usize >= SPACES => return PATH,
        _ => {}
    }
    let mut m = mask;
    // Doubling: after covering distance `d`, shifting by `step` covers `d + step`.
    let mut covered = 0u16;
    while covered < r {
        // covered < r <= u16::MAX: none of these wraps.
        let step = covered.wrapping_add(1).min(r.wrapping_sub(covered));
        m |= (m << step) | (m >> step);
        covered = covered.wrapping_add(step);
    }
    m & PATH
}

/// The highest set bit of a non-zero mask (0 for an empty one).
fn highest(mask: u128) -> usize {
    127usize.saturating_sub(mask.leading_zeros() as usize)
}

/// Runs `body` with `i` and `b == bit(i)` for every set bit `i` of the u128 mask `m`, lowest
/// first (`each_up!`) or highest first (`each_down!`). It works a word at a time: a bit scan or a
/// shift of a u128 is several instructions on a 64-bit machine, of a u64 one. A macro, so that
/// `body` is inlined (`continue` goes on with the next bit).
macro_rules! each_up {
    ($m:expr, |$i:ident, $b:ident| $body:block) => {{
        let m: u128 = $m;
        let mut word = m as u64;
        while word != 0 {
            let low = word & word.wrapping_neg();
            word ^= low;
            let $i = low.trailing_zeros() as usize;
            let $b = low as u128;
            $body
        }
        let mut word = (m >> 64) as u64;
        while word != 0 {
            let low = word & word.wrapping_neg();
            word ^= low;
            let $i = low.trailing_zeros() as usize | 64;
            let $b = (low as u128) << 64;
            $body
        }
    }};
}

macro_rules! each_down {
    ($m:expr, |$i:ident, $b:ident| $body:block) => {{
        let m: u128 = $m;
        let mut word = (m >> 64) as u64;
        while word != 0 {
            // `word != 0`: the leading zeros are 0..=63, so `^ 63` is `63 - zeros`.
            let high = 1u64 << (word.leading_zeros() ^ 63);
            word ^= high;
            let $i = high.trailing_zeros() as usize | 64;
            let $b = (high as u128) << 64;
            $body
        }
        let mut word = m as u64;
        while word != 0 {
            let high = 1u64 << (word.leading_zeros() ^ 63);
            word ^= high;
            let $i = high.trailing_zeros() as usize;
            let $b = high as u128;
            $body
        }
    }};
}

/// What a hit of `power` does to an invader of `defense`: `max(power - defense, 1)`.
fn damage(power: u16, defense: u16) -> u32 {
    power.saturating_sub(defense).max(1) as u32
}

impl<H: Hp> Board<H> {
    /// Spaces holding an invader, as a bit mask (bit `i` = space `i`).
    pub fn invader_mask(&self) -> u128 {
        self.occupied.get()
    }

    /// Spaces holding a tower, as a bit mask.
    pub fn tower_mask(&self) -> u128 {
        self.towers.get()
    }

    /// Towers whose cooldown is 0, as a bit mask: a tower in it both before and after a turn
    /// shows the same numbers (any change to a tower leaves it cooling).
    pub fn ready_mask(&self) -> u128 {
        self.ready.get()
    }

    /// Whether an invader stands on space `pos`.
    pub fn has_invader(&self, pos: usize) -> bool {
        pos < SPACES && self.invader_mask() & bit(pos) != 0
    }

    /// Whether a tower stands on space `pos`.
    pub fn has_tower(&self, pos: usize) -> bool {
        pos < SPACES && self.tower_mask() & bit(pos) != 0
    }

    /// The invader on space `pos`, if any.
    pub fn invader(&self, pos: usize) -> Option<InvaderView> {
        if !self.has_invader(pos) {
            return None;
        }
        self.inv.get(pos).map(|v| v.view(pos))
    }

    /// The tower on space `pos`, if any, under `rules`.
    pub fn tower(&self, pos: usize, rules: &BoardRules) -> Option<TowerView> {
        let tag = *self.tag.get(pos)?;
        let kind = tag.kind()?;
        let power = *self.power.get(pos)?;
        let range = *self.range.get(pos)?;
        let (bp, br) = rules.base(kind);
        let level = rules
            .base_level
            .saturating_add(power.saturating_sub(bp) as u32)
            .saturating_add(range.saturating_sub(br) as u32);
        Some(TowerView {
            pos: pos as u8,
            kind,
            level,
            power,
            range,
            cooldown: *self.cooldown.get(pos)?,
            invested: tag.invested(),
        })
    }

    /// `f` of each invader on a space set in `spaces`, lowest space first.
    pub fn visit_invaders(&self, spaces: u128, mut f: impl FnMut(InvaderView)) {
        each_up!(spaces & self.invader_mask(), |pos, _b| {
            if let Some(v) = self.inv.get(pos) {
                f(v.view(pos));
            }
        });
    }

    /// `f` of each tower on a space set in `spaces`, lowest space first, under `rules`.
    pub fn visit_towers(&self, spaces: u128, rules: &BoardRules, mut f: impl FnMut(TowerView)) {
        each_up!(spaces & self.tower_mask(), |pos, _b| {
            if let Some(t) = self.tower(pos, rules) {
                f(t);
            }
        });
    }

    /// Whether every mask holds what it says, given the arrays (for tests).
    pub fn check(&self) -> bool {
        let (mut occupied, mut stunned, mut towers, mut ready) = (0u128, 0u128, 0u128, 0u128);
        let (mut turret1, mut stunner0, mut bombs) = (0u128, 0u128, 0u128);
        let mut empty_clean = true;
        for i in 0..SPACES {
            let b = bit(i);
            let (Some(v), Some(t), Some(&r), Some(&cd), Some(&pw)) = (
                self.inv.get(i),
                self.tag.get(i),
                self.range.get(i),
                self.cooldown.get(i),
                self.power.get(i),
            ) else {
                return false;
            };
            if v.hp.get() > 0 {
                occupied |= b;
                if v.stun > 0 {
                    stunned |= b;
                }
            } else {
                empty_clean &= *v == Invader::default();
            }
            match t.kind() {
                Some(kind) => {
                    towers |= b;
                    if cd == 0 {
                        ready |= b;
                    }
                    match kind {
                        TowerKind::Turret if r == 1 => turret1 |= b,
                        TowerKind::Stunner if r == 0 => stunner0 |= b,
                        TowerKind::Bomb => bombs |= b,
                        _ => {}
                    }
                }
                None => empty_clean &= r == 0 && cd == 0 && pw == 0,
            }
        }
        empty_clean
            && (occupied, stunned, towers, ready)
                == (
                    self.occupied.get(),
                    self.stunned.get(),
                    self.towers.get(),
                    self.ready.get(),
                )
            && (turret1, stunner0, bombs)
                == (self.turret1.get(), self.stunner0.get(), self.bombs.get())
    }

    /// Puts the invader `v` describes on its space (a state rebuilt from what a protocol sent):
    /// `false`, and nothing changed, if the space is off the path or taken, or a value does not
    /// fit the board (no hit points, or more than the board's width holds).
    pub fn put_invader(&mut self, v: &InvaderView) -> bool {
        let pos = usize::from(v.pos);
        let (hp, maxhp) = (
            H::saturating(u64::from(v.hp)),
            H::saturating(u64::from(v.maxhp)),
        );
        if hp.get() != v.hp || maxhp.get() != v.maxhp || v.hp == 0 || self.has_invader(pos) {
            return false;
        }
        let Some(slot) = self.inv.get_mut(pos) else {
            return false;
        };
        *slot = Invader {
            hp,
            maxhp,
            defense: v.defense,
            stun_res: v.stun_res,
            stun: v.stun_time,
        };
        self.occupied.put(bit(pos), true);
        self.stunned.put(bit(pos), v.stun_time > 0);
        true
    }

    /// Puts the tower `t` describes on its space under `rules`: `false`, and nothing changed, if
    /// the space is off the path or holds a tower, or `t.level` is not the level its power and
    /// range make, or its investment is over what a tower holds (2^30 - 1).
    pub fn put_tower(&mut self, t: &TowerView, rules: &BoardRules) -> bool {
        let pos = usize::from(t.pos);
        if pos >= SPACES || self.has_tower(pos) || t.invested > TowerTag::INVESTED_MASK {
            return false;
        }
        self.edit_tower(pos, |tag, pw, rg, cd| {
            *tag = TowerTag::new(t.kind, u64::from(t.invested));
            *pw = t.power;
            *rg = t.range;
            *cd = t.cooldown;
        });
        if self.tower(pos, rules).is_some_and(|got| got == *t) {
            return true;
        }
        self.remove_tower(pos);
        false
    }

    /// Test set-up: an invader anywhere, with any stats (`hp == 0` empties the space).
    #[cfg(test)]
    pub(crate) fn place(&mut self, pos: usize, hp: u32, maxhp: u32, def: u16, res: u16, stun: u16) {
        self.inv[pos] = if hp > 0 {
            Invader {
                hp: H::saturating(hp as u64),
                maxhp: H::saturating(maxhp as u64),
                defense: def,
                stun_res: res,
                stun,
            }
        } else {
            Invader::default()
        };
        self.occupied.put(bit(pos), hp > 0);
        self.stunned.put(bit(pos), hp > 0 && stun > 0);
    }

    /// Test set-up: a tower's cooldown.
    #[cfg(test)]
    pub(crate) fn set_cooldown(&mut self, pos: usize, cooldown: u16) {
        self.cooldown[pos] = cooldown;
        self.sync_tower(pos);
    }

    /// The masks' bits for space `pos`, from the arrays (after a build, upgrade or removal).
    fn sync_tower(&mut self, pos: usize) {
        let (Some(tag), Some(&range), Some(&cd)) = (
            self.tag.get(pos),
            self.range.get(pos),
            self.cooldown.get(pos),
        ) else {
            return;
        };
        let b = bit(pos);
        let kind = tag.kind();
        self.towers.put(b, kind.is_some());
        self.ready.put(b, kind.is_some() && cd == 0);
        self.turret1
            .put(b, kind == Some(TowerKind::Turret) && range == 1);
        self.stunner0
            .put(b, kind == Some(TowerKind::Stunner) && range == 0);
        self.bombs.put(b, kind == Some(TowerKind::Bomb));
    }

    /// Puts an invader on space 0. The caller has checked the space is free.
    pub fn spawn(&mut self, hp: u64, defense: u64, stun_res: u64) {
        let hp = H::saturating(hp.max(1));
        let sixteen = |v: u64| u16::try_from(v).unwrap_or(u16::MAX);
        if let Some(v) = self.inv.first_mut() {
            *v = Invader {
                hp,
                maxhp: hp,
                defense: sixteen(defense),
                stun_res: sixteen(stun_res),
                stun: 0,
            };
            self.occupied.put(1, true);
        }
    }

    /// Builds a fresh tower; the caller has checked the space is on the path and free.
    pub fn build(&mut self, pos: usize, kind: TowerKind, paid: u64, rules: &BoardRules) {
        let (p, r) = rules.base(kind);
        self.edit_tower(pos, |t, pw, rg, cd| {
            *t = TowerTag::new(kind, paid);
            *pw = p;
            *rg = r;
            *cd = BUILD_TIME;
        });
    }

    /// `+1` power (or range), level up, cooldown reset; `paid` is added to what it cost.
    pub fn upgrade(&mut self, pos: usize, range_stat: bool, paid: u64) {
        self.edit_tower(pos, |t, pw, rg, cd| {
            if let Some(kind) = t.kind() {
                *t = TowerTag::new(kind, (t.invested() as u64).saturating_add(paid));
                if range_stat {
                    *rg = rg.saturating_add(1);
                } else {
                    *pw = pw.saturating_add(1);
                }
                *cd = UPGRADE_TIME;
            }
        });
    }

    /// Removes the tower at `pos`.
    pub fn remove_tower(&mut self, pos: usize) {
        self.edit_tower(pos, |t, pw, rg, cd| {
            *t = TowerTag::default();
            *pw = 0;
            *rg = 0;
            *cd = 0;
        });
    }

    /// `edit(tag, power, range, cooldown)` of the space `pos`, then the tower masks to match.
    #[inline]
    fn edit_tower(
        &mut self,
        pos: usize,
        edit: impl FnOnce(&mut TowerTag, &mut u16, &mut u16, &mut u16),
    ) {
        if let (Some(t), Some(pw), Some(rg), Some(cd)) = (
            self.tag.get_mut(pos),
            self.power.get_mut(pos),
            self.range.get_mut(pos),
            self.cooldown.get_mut(pos),
        ) {
            edit(t, pw, rg, cd);
        }
        self.sync_tower(pos);
    }

    /// Towers fire, then invaders move (rules "Towers" and "One turn", steps 1.1 and 1.2).
    ///
    /// The towers ready to fire are those at cooldown 0; every other tower counts down. Firing
    /// only ever sets the firing tower's own cooldown, and a tower that fires was not counting
    /// down: so all count down first, and the towers that were cooling and reach 0 join the
    /// ready ones after the firing.
    ///
    /// Firing: a tower can only do something if an invader is within its reach, so only those
    /// are visited. Most turns, nobody dies: then no tower's target changes during the turn
    /// (turrets and bombs choose by position alone, and stuns only matter to stunners), the
    /// hits on one invader add up in any order, and the turn is played all at once
    /// (`Board::fire_together`). Else the towers fire one by one (`Board::fire_in_order`).
    pub fn turn(&mut self, rules: &BoardRules) -> BoardTurn {
        let mut out = BoardTurn::default();
        let ready = self.ready.get();
        let cooling = self.tower_mask() & !ready;
        if cooling != 0 {
            // Every tower counts down, the ready ones staying at 0 (a pass the compiler makes
            // eight towers at a time); those that reach 0 become ready once the others fired.
            for cd in self.cooldown.iter_mut() {
                *cd = cd.saturating_sub(1);
            }
        }
        let inv = self.invader_mask();
        if inv != 0 && ready != 0 {
            // The ready towers with an invader in reach: range-1 turrets next to one, range-0
            // stunners on one, bombs on one (a bomb fires only then), and the rest within the
            // longest reach on the board of one.
            let turret1 = ready & self.turret1.get() & widen(inv);
            let stunner0 = ready & self.stunner0.get() & inv;
            let bombs = ready & self.bombs.get() & inv;
            let mut others = ready & !(self.turret1.get() | self.stunner0.get() | self.bombs.get());
            if others != 0 {
                let reach_max = self.range.iter().copied().max().unwrap_or(0);
                others &= dilate(inv, reach_max);
            }
            let descending = rules.fire_descending;
            if !self.fire_together(turret1, stunner0 | bombs | others, descending) {
                let todo = turret1 | stunner0 | bombs | others;
                out.kill_gold = self.fire_in_order(todo, descending);
                if !rules.kill_rewards {
                    out.kill_gold = 0;
                }
            }
        }
        if cooling != 0 {
            let mut done = 0u128;
            each_up!(cooling, |p, b| {
                if self.cooldown.get(p) == Some(&0) {
                    done |= b;
                }
            });
            self.ready.set(self.ready.get() | done);
        }
        if self.invader_mask() != 0 {
            out.through = self.advance();
        }
        out
    }

    /// A tower that fired and now cools down for `cooldown` turns (at least 1).
    fn cool(&mut self, p: usize, b: u128, cooldown: u16) {
        if let Some(cd) = self.cooldown.get_mut(p) {
            *cd = cooldown;
        }
        self.ready.put(b, false);
    }

    /// The towers fire at once if nobody dies this turn; returns whether they did. `turret1` are
    /// the firing range-1 turrets, `others` every other tower that may fire.
    ///
    /// The hits are first summed per invader without changing anything: up to the first kill
    /// (if any) they are the hits the turn would deal, so nobody dies exactly when every
    /// invader's sum is below its hit points. Then they land, bombs cool down, and the stunners
    /// fire in order. If someone would die, nothing has changed and `false` is returned.
    fn fire_together(&mut self, turret1: u128, others: u128, descending: bool) -> bool {
        let inv = self.invader_mask();
        // A range-1 turret at `p` hits `p + 1` if an invader stands there, else `p`, else
        // `p - 1` (each of them has one of the three to hit). As masks of the invaders hit:
        // by the turret below, on the same space, above.
        let above = inv >> 1;
        let from_below = (turret1 & above) << 1;
        let from_here = turret1 & inv & !above;
        let from_above = (turret1 & !inv & !above) >> 1;
        let damaging = others & !self.stunner0.get();
        let landed = if damaging == 0 {
            self.turrets_hit([from_below, from_here, from_above])
        } else {
            self.all_hit([from_below, from_here, from_above], damaging)
        };
        if !landed {
            return false;
        }
        // Nobody dies: the bombs that fired cool down, the stunners fire.
        let bombs = others & self.bombs.get();
        each_up!(bombs, |p, _b| {
            if let Some(cd) = self.cooldown.get_mut(p) {
                *cd = BOMB_COOLDOWN;
            }
        });
        self.ready.set(self.ready.get() & !bombs);
        // The stunners: those of range 0, and any other of `others` that is not a turret.
        let wide = others & !(self.stunner0.get() | self.bombs.get());
        let mut stunners = others & self.stunner0.get();
        if wide != 0 {
            stunners |= self.tag_kind_mask(wide, TowerKind::Stunner);
        }
        if stunners & !self.stunner0.get() == 0 {
            // Only range-0 stunners: each can stun only the invader on its own space, which no
            // other stunner of this turn can: they do not depend on each other.
            let firing = stunners & !self.stunned.get();
            let mut stunned = 0u128;
            each_up!(firing, |p, b| {
                let power = self.power.get(p).copied().unwrap_or(0);
                if let Some(v) = self.inv.get_mut(p) {
                    v.stun = power.saturating_sub(v.stun_res);
                    if v.stun > 0 {
                        stunned |= b;
                    }
                }
                if let Some(cd) = self.cooldown.get_mut(p) {
                    *cd = power.saturating_add(1);
                }
            });
            self.stunned.set(self.stunned.get() | stunned);
            self.ready.set(self.ready.get() & !firing);
        } else if descending {
            each_down!(stunners, |p, b| {
                self.stun_if_target(p, b);
            });
        } else {
            each_up!(stunners, |p, b| {
                self.stun_if_target(p, b);
            });
        }
        true
    }

    /// The damage the range-1 turrets deal the invader at `i` (`low == bit(i)` within word `w` of
    /// the masks `by`: hit by the turret below, on the same space, above).
    #[inline(always)]
    fn turret_sum(&self, i: usize, w: usize, low: u64, by: &[[u64; 2]; 3]) -> u32 {
        let defense = self.inv.get(i).map_or(0, |v| v.defense);
        let power = |p: usize| self.power.get(p).copied().unwrap_or(0);
        let word = |m: &[u64; 2]| m.get(w).copied().unwrap_or(0);
        let [below, here, above] = by;
        let mut s = 0u32;
        if word(below) & low != 0 {
            s = s.saturating_add(damage(power(i.wrapping_sub(1)), defense));
        }
        if word(here) & low != 0 {
            s = s.saturating_add(damage(power(i), defense));
        }
        if word(above) & low != 0 {
            s = s.saturating_add(damage(power(i.wrapping_add(1)), defense));
        }
        s
    }

    /// The hits of the range-1 turrets alone (`by`: the invaders hit by the turret below, on
    /// the same space, above) land, invader by invader, unless one would die: then those that
    /// landed are taken back (they are the hit invaders below the first to die) and `false` is
    /// returned.
    fn turrets_hit(&mut self, by: [u128; 3]) -> bool {
        let by = by.map(|m| [m as u64, (m >> 64) as u64]);
        let [b, h, a] = &by;
        let hit = [b[0] | h[0] | a[0], b[1] | h[1] | a[1]];
        let mut dies = None;
        'words: for (w, &word) in hit.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                let low = m & m.wrapping_neg();
                m ^= low;
                let i = low.trailing_zeros() as usize | w << 6;
                let s = self.turret_sum(i, w, low, &by);
                let Some(v) = self.inv.get_mut(i) else {
                    continue;
                };
                let hp = v.hp.get();
                if s >= hp {
                    dies = Some(i);
                    break 'words;
                }
                v.hp = H::saturating(hp.wrapping_sub(s) as u64);
            }
        }
        let Some(first) = dies else {
            return true;
        };
        let landed = (hit[0] as u128 | (hit[1] as u128) << 64) & bit(first).wrapping_sub(1);
        each_up!(landed, |i, ib| {
            let w = i >> 6;
            let low = (ib >> (w << 6)) as u64;
            let s = self.turret_sum(i, w, low, &by);
            if let Some(v) = self.inv.get_mut(i) {
                v.hp = H::saturating(v.hp.get().saturating_add(s) as u64);
            }
        });
        false
    }

    /// [`Board::turrets_hit`] with more towers dealing damage: `damaging` (bombs, turrets of
    /// other ranges). The hits are summed per space first.
    fn all_hit(&mut self, by: [u128; 3], damaging: u128) -> bool {
        let inv = self.invader_mask();
        let [from_below, from_here, from_above] = by;
        // Damage per space, saturating at u16::MAX (then the turn is played in order: hit points
        // can be higher in Siege). Indices are masked to the array's 128 entries.
        let mut sum = [0u16; 128];
        let mut hit = from_below | from_here | from_above;
        {
            let invaders = &self.inv;
            let power = &self.power;
            let mut add = |t: usize, p: usize| {
                let defense = invaders.get(t).map_or(0, |v| v.defense);
                let hit = power.get(p).map_or(1, |&pw| damage(pw, defense));
                if let Some(s) = sum.get_mut(t & 127) {
                    *s = s.saturating_add(u16::try_from(hit).unwrap_or(u16::MAX));
                }
            };
            each_up!(from_below, |t, _b| {
                add(t, t.wrapping_sub(1));
            });
            each_up!(from_here, |t, _b| {
                add(t, t);
            });
            each_up!(from_above, |t, _b| {
                add(t, t.wrapping_add(1));
            });
            each_up!(damaging, |p, b| {
                let (Some(tag), Some(&range)) = (self.tag.get(p), self.range.get(p)) else {
                    continue;
                };
                match tag.kind() {
                    Some(TowerKind::Turret) => {
                        let targets = inv & reach(b, p, range);
                        if targets != 0 {
                            let t = highest(targets);
                            add(t, p);
                            hit |= bit(t);
                        }
                    }
                    Some(TowerKind::Bomb) if inv & b != 0 => {
                        let targets = inv & reach(b, p, range);
                        each_up!(targets, |t, _tb| {
                            add(t, p);
                        });
                        hit |= targets;
                    }
                    _ => {}
                }
            });
        }
        // The hits land, unless someone dies: then the ones that landed are taken back. (In
        // increasing order: those that landed are the hit invaders below the first to die.)
        let mut dies: Option<usize> = None;
        each_up!(hit, |i, _b| {
            if dies.is_some() {
                continue;
            }
            if let (Some(v), Some(&s)) = (self.inv.get_mut(i), sum.get(i & 127)) {
                let hp = v.hp.get();
                if s as u32 >= hp || s == u16::MAX {
                    dies = Some(i);
                } else {
                    v.hp = H::saturating(hp.saturating_sub(s as u32) as u64);
                }
            }
        });
        if let Some(first) = dies {
            each_up!(hit & bit(first).wrapping_sub(1), |i, _b| {
                if let (Some(v), Some(&s)) = (self.inv.get_mut(i), sum.get(i & 127)) {
                    v.hp = H::saturating(v.hp.get().saturating_add(s as u32) as u64);
                }
            });
            return false;
        }
        true
    }

    /// The towers of `among` of the given kind.
    fn tag_kind_mask(&self, among: u128, kind: TowerKind) -> u128 {
        let mut m = 0u128;
        each_up!(among, |p, b| {
            if self.tag.get(p).and_then(|t| t.kind()) == Some(kind) {
                m |= b;
            }
        });
        m
    }

    /// The stunner at `p` (`b == bit(p)`) stuns the farthest unstunned invader in its reach, if
    /// there is one.
    fn stun_if_target(&mut self, p: usize, b: u128) {
        let range = self.range.get(p).copied().unwrap_or(0);
        let targets = self.invader_mask() & !self.stunned.get() & reach(b, p, range);
        if targets != 0 {
            let i = highest(targets);
            self.stun(p, b, bit(i));
        }
    }

    /// The stunner at `p` (`b == bit(p)`) stuns the invader `target` (a mask of one bit):
    /// `stunTime = max(power - stunRes, 0)`, and the stunner cools down for `power + 1` turns.
    fn stun(&mut self, p: usize, b: u128, target: u128) {
        let power = self.power.get(p).copied().unwrap_or(0);
        let i = highest(target);
        if let Some(v) = self.inv.get_mut(i) {
            let time = power.saturating_sub(v.stun_res);
            v.stun = time;
            self.stunned.put(target, time > 0);
        }
        self.cool(p, b, power.saturating_add(1));
    }

    /// One hit of `power` on the invader at `i` (`ib == bit(i)`); returns the kill reward if it
    /// died.
    fn hit(&mut self, i: usize, ib: u128, power: u16) -> Option<u64> {
        let v = self.inv.get_mut(i)?;
        let left = v.hp.get().saturating_sub(damage(power, v.defense));
        if left > 0 {
            v.hp = H::saturating(left as u64);
            return None;
        }
        // A u32 plus two u16 tenfold: far from u64's limit, so the saturation never bites.
        let reward = (v.maxhp.get() as u64)
            .saturating_add((v.defense as u64).saturating_mul(10))
            .saturating_add((v.stun_res as u64).saturating_mul(10))
            / 10;
        *v = Invader::default();
        self.occupied.put(ib, false);
        self.stunned.put(ib, false);
        Some(reward)
    }

    /// The ready towers `todo` fire one by one, in the rules' order (a turn where someone
    /// dies); returns the kill rewards.
    fn fire_in_order(&mut self, mut todo: u128, descending: bool) -> u64 {
        let mut gold = 0u64;
        while todo != 0 && self.invader_mask() != 0 {
            let p = if descending {
                highest(todo)
            } else {
                todo.trailing_zeros() as usize
            };
            let b = bit(p);
            todo ^= b;
            let (Some(tag), Some(&power), Some(&range)) =
                (self.tag.get(p), self.power.get(p), self.range.get(p))
            else {
                continue;
            };
            let inv = self.invader_mask();
            match tag.kind() {
                Some(TowerKind::Turret) => {
                    let targets = inv & reach(b, p, range);
                    if targets != 0 {
                        let i = highest(targets);
                        if let Some(reward) = self.hit(i, bit(i), power) {
                            gold = gold.saturating_add(reward);
                        }
                    }
                }
                Some(TowerKind::Stunner) => self.stun_if_target(p, b),
                Some(TowerKind::Bomb) if inv & b != 0 => {
                    each_up!(inv & reach(b, p, range), |i, ib| {
                        if let Some(reward) = self.hit(i, ib, power) {
                            gold = gold.saturating_add(reward);
                        }
                    });
                    self.cool(p, b, BOMB_COOLDOWN);
                }
                Some(TowerKind::Bomb) | None => {}
            }
        }
        gold
    }

    /// Invaders move, from 99 down to 0; returns the one that left the path, if any.
    ///
    /// A stunned invader counts down and stays; any other moves up one space if that space is
    /// free once the invaders above it have moved, so it stays ("is blocked") exactly when the
    /// invader right above it is stunned or blocked. The moves are then made from the top down.
    fn advance(&mut self) -> Option<(u32, u32)> {
        let inv = self.invader_mask();
        let stunned = self.stunned.get();
        let mut still = stunned;
        each_up!(stunned, |i, b| {
            if let Some(v) = self.inv.get_mut(i) {
                v.stun = v.stun.saturating_sub(1);
                if v.stun == 0 {
                    still &= !b;
                }
            }
        });
        self.stunned.set(still);
        let mut blocked = stunned;
        loop {
            let next = stunned | (inv & blocked >> 1);
            if next == blocked {
                break;
            }
            blocked = next;
        }
        let moving = inv & !blocked;
        let mut through = None;
        if moving & bit(LAST) != 0 {
            if let Some(v) = self.inv.get_mut(LAST) {
                let walker = core::mem::take(v);
                through = Some((walker.hp.get(), walker.maxhp.get()));
            }
        }
        each_down!(moving & !bit(LAST), |i, _b| {
            // The space above is free (its invader has moved on, or there was none): the walker
            // and the empty space trade places.
            let (below, above) = self.inv.split_at_mut(i.wrapping_add(1).min(SPACES));
            if let (Some(walker), Some(next)) = (below.last_mut(), above.first_mut()) {
                core::mem::swap(walker, next);
            }
        });
        self.occupied.set((moving << 1 & PATH) | blocked);
        through
    }

    /// Feeds the occupied spaces, in order, into a digest.
    pub fn hash_into(&self, d: &mut crate::Digest) {
        for i in 0..SPACES {
            if let Some(v) = self.invader(i) {
                d.u8(v.pos).u32(v.hp).u32(v.maxhp);
                d.u16(v.defense).u16(v.stun_res).u16(v.stun_time);
            }
        }
        d.u8(0xff);
        for i in 0..SPACES {
            if let (Some(t), Some(&p), Some(&r), Some(&c)) = (
                self.tag.get(i),
                self.power.get(i),
                self.range.get(i),
                self.cooldown.get(i),
            ) {
                if t.0 != 0 {
                    d.u8(i as u8).u32(t.0).u16(p).u16(r).u16(c);
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    extern crate std;
    use super::*;
    use crate::games::tower_defense::duel::RULES;

    /// A board holding some of everything: invaders (one stunned), a tower of each kind at its
    /// starting range and one turret and one stunner of longer range, ready or cooling down.
    fn furnished() -> Board<u16> {
        let mut b = Board::<u16>::EMPTY;
        b.place(10, 20, 25, 1, 2, 0);
        b.place(11, 5, 5, 0, 0, 3);
        b.place(70, 9, 30, 0, 4, 0);
        for (pos, kind) in [
            (12, TowerKind::Turret),
            (13, TowerKind::Stunner),
            (14, TowerKind::Bomb),
            (40, TowerKind::Turret),
            (41, TowerKind::Stunner),
        ] {
            b.build(pos, kind, 50, &RULES);
        }
        b.upgrade(40, true, 75);
        b.upgrade(40, true, 80);
        b.upgrade(41, true, 85);
        b.set_cooldown(12, 0);
        b.set_cooldown(14, 0);
        b.set_cooldown(41, 0);
        b
    }

    #[test]
    fn check_refuses_every_mask_and_empty_space_that_disagrees_with_the_arrays() {
        // `check` is what the model tests lean on to say a board's masks are right: it must
        // say so of a board built by the board's own operations, and refuse each mask with a
        // bit more or less than the arrays hold, and an empty space that is not all zeros.
        let b = furnished();
        assert!(b.check());
        type Corruption = (&'static str, fn(&mut Board<u16>));
        let corruptions: [Corruption; 14] = [
            ("occupied: an empty space", |b| {
                b.occupied.put(bit(50), true)
            }),
            ("occupied: an invader left out", |b| {
                b.occupied.put(bit(70), false)
            }),
            ("stunned: one more", |b| b.stunned.put(bit(10), true)),
            ("stunned: the stunned one left out", |b| {
                b.stunned.put(bit(11), false)
            }),
            ("towers: an empty space", |b| b.towers.put(bit(60), true)),
            ("towers: a tower left out", |b| b.towers.put(bit(40), false)),
            ("ready: a cooling tower", |b| b.ready.put(bit(13), true)),
            ("ready: a ready tower left out", |b| {
                b.ready.put(bit(12), false)
            }),
            ("turret1: the range-3 turret", |b| {
                b.turret1.put(bit(40), true)
            }),
            ("stunner0: the range-1 stunner", |b| {
                b.stunner0.put(bit(41), true)
            }),
            ("bombs: a bomb left out", |b| b.bombs.put(bit(14), false)),
            ("an empty space's invader record", |b| b.inv[60].defense = 3),
            ("an empty space's range", |b| b.range[61] = 1),
            ("an empty space's power and cooldown", |b| {
                b.power[62] = 2;
                b.cooldown[63] = 4;
            }),
        ];
        for (what, corrupt) in corruptions {
            let mut c = b;
            corrupt(&mut c);
            assert!(!c.check(), "{what}");
        }
        // An empty space's power alone, and its cooldown alone.
        for space in [0, 99] {
            let mut c = b;
            c.power[space] = 1;
            assert!(!c.check(), "power on {space}");
            let mut c = b;
            c.cooldown[space] = 1;
            assert!(!c.check(), "cooldown on {space}");
        }
    }

    #[test]
    fn each_space_says_whether_it_holds_an_invader_or_a_tower_and_none_off_the_path_does() {
        // Invaders and towers at both ends of the path and on both sides of the masks' word
        // boundary (63, 64): each space answers for itself, and no space off the path holds
        // anything (100 up; beyond the masks' 128 bits a space's bit would alias one on the
        // path: 128 is 0's, 192 is 64's, 227 is 99's).
        let mut b = Board::<u16>::EMPTY;
        let invaders = [0, 5, 63, 64, 99];
        let towers = [1, 62, 64, 98, 99];
        for pos in invaders {
            b.place(pos, 7, 9, 1, 2, 0);
        }
        for pos in towers {
            b.build(pos, TowerKind::Bomb, 50, &RULES);
        }
        assert!(b.check());
        for pos in 0..SPACES {
            assert_eq!(b.has_invader(pos), invaders.contains(&pos), "invader {pos}");
            assert_eq!(b.has_tower(pos), towers.contains(&pos), "tower {pos}");
            assert_eq!(b.invader(pos).is_some(), invaders.contains(&pos));
            assert_eq!(b.tower(pos, &RULES).is_some(), towers.contains(&pos));
        }
        let mask = |spaces: &[usize]| spaces.iter().fold(0u128, |m, &p| m | 1 << p);
        assert_eq!(b.invader_mask(), mask(&invaders));
        assert_eq!(b.tower_mask(), mask(&towers));
        for pos in [100, 101, 127, 128, 129, 192, 227, usize::MAX] {
            assert!(!b.has_invader(pos), "invader {pos}");
            assert!(!b.has_tower(pos), "tower {pos}");
            assert_eq!(b.invader(pos), None);
            assert_eq!(b.tower(pos, &RULES), None);
        }
        assert_eq!(
            b.invader(64),
            Some(InvaderView {
                pos: 64,
                hp: 7,
                maxhp: 9,
                defense: 1,
                stun_res: 2,
                stun_time: 0,
            })
        );
    }

    #[test]
    fn dilate_reaches_every_space_within_r_of_the_mask_for_any_range() {
        // The spaces within `r` of a bit of the mask, on the path: for every range a tower can
        // reach up to, a u16's largest included (a Siege defender buys a range upgrade for 10
        // gold), against the plain definition. Ranges from 255 up once shifted a u128 by 128
        // (a panic where overflow is checked) in the doubling loop.
        let masks = [bit(0), bit(99), bit(50), bit(3) | bit(64) | bit(97), PATH];
        let ranges = (0..=300).chain([1000, 32767, u16::MAX]);
        for m in masks {
            for r in ranges.clone() {
                let plain = (0..SPACES)
                    .filter(|&s| {
                        (0..SPACES).any(|p| m >> p & 1 != 0 && p.abs_diff(s) <= r as usize)
                    })
                    .fold(0u128, |acc, s| acc | bit(s));
                assert_eq!(dilate(m, r), plain, "mask {m:x}, range {r}");
            }
        }
    }

    fn invader(pos: u8, hp: u32, maxhp: u32, stun_time: u16) -> InvaderView {
        InvaderView {
            pos,
            hp,
            maxhp,
            defense: 0,
            stun_res: 0,
            stun_time,
        }
    }

    #[test]
    fn an_invader_put_keeps_its_stun_and_values_too_wide_for_the_board_are_refused() {
        // A Duel board holds hit points in 16 bits: an invader whose hit points or maximum do
        // not fit is refused (nothing changed), as is one with no hit points; one that fits is
        // put, stunned or not as described, and the board's masks agree with it.
        let mut b = Board::<u16>::EMPTY;
        for (hp, maxhp) in [(70_000, 100), (100, 70_000), (70_000, 70_000), (0, 10)] {
            assert!(!b.put_invader(&invader(5, hp, maxhp, 0)), "{hp}/{maxhp}");
            assert_eq!(b, Board::EMPTY);
        }
        assert!(b.put_invader(&invader(5, 65_535, 65_535, 0)));
        assert!(b.put_invader(&invader(6, 3, 9, 2)));
        assert!(b.put_invader(&invader(8, 4, 9, 1)));
        assert!(
            b.check(),
            "the stunned mask holds exactly the stunned invaders"
        );
        assert_eq!(b.invader(6).map(|v| v.stun_time), Some(2));
        // A turn without towers: the stunned ones count down and stay, the one at 5 is
        // blocked by the stunned one at 6; nothing else moves.
        b.turn(&RULES);
        let at = |b: &Board<u16>| {
            (0..SPACES)
                .filter(|&p| b.has_invader(p))
                .collect::<heapless::Vec<_, 100>>()
        };
        assert_eq!(at(&b), [5, 6, 8]);
        assert_eq!(b.invader(8).map(|v| v.stun_time), Some(0));
        b.turn(&RULES);
        assert_eq!(at(&b), [5, 6, 9], "8's stun is over, 6 holds one more turn");
        // A Siege board holds 32 bits.
        let mut siege = Board::<u32>::EMPTY;
        assert!(siege.put_invader(&invader(0, 70_000, 70_000, 0)));
        assert!(!siege.put_invader(&invader(0, 1, 1, 0)), "a space taken");
    }

    #[test]
    fn a_tower_put_holds_up_to_the_largest_investment_a_tag_holds_and_no_more() {
        let mut b = Board::<u16>::EMPTY;
        let (power, range) = RULES.base(TowerKind::Turret);
        let mut t = TowerView {
            pos: 40,
            kind: TowerKind::Turret,
            level: RULES.base_level,
            power,
            range,
            cooldown: 3,
            invested: TowerTag::INVESTED_MASK,
        };
        t.invested = TowerTag::INVESTED_MASK + 1;
        assert!(!b.put_tower(&t, &RULES), "2^30");
        assert_eq!(b, Board::EMPTY);
        t.invested = u32::MAX;
        assert!(!b.put_tower(&t, &RULES));
        t.invested = TowerTag::INVESTED_MASK;
        assert!(b.put_tower(&t, &RULES), "2^30 - 1");
        assert_eq!(b.tower(40, &RULES), Some(t));
        assert!(b.check());
    }
}
