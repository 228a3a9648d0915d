//! One path of 100 spaces: the invaders walking it and the towers beside it.
//!
//! The board is stored as parallel arrays indexed by space (structure of arrays) rather than as
//! `[Option<Invader>; 100]`: it keeps the Duel state (two boards) inside its 4 KiB budget and lets the
//! per-turn passes (cooldowns, readiness) run over plain integer arrays. An empty space holds zeros
//! in every array, so two equal games are equal field for field.
//!
//! Speed: a turn works on 128-bit masks of spaces. The invader mask is part of the state (16 bytes a
//! board); towers are only visited when an invader is within the longest reach on the board, so
//! most of a crowded path costs a bit test, and a path without invaders costs one countdown pass.
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
    Turret,
    Stunner,
    Bomb,
}

impl TowerKind {
    pub const ALL: [TowerKind; 3] = [TowerKind::Turret, TowerKind::Stunner, TowerKind::Bomb];

    /// The name in the bot protocol.
    pub const fn name(self) -> &'static str {
        match self {
            TowerKind::Turret => "turret",
            TowerKind::Stunner => "stunner",
            TowerKind::Bomb => "bomb",
        }
    }

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
    fn get(self) -> u32;
    /// `v`, or the largest value the type holds.
    fn saturating(v: u64) -> Self;
}

impl Hp for u16 {
    fn get(self) -> u32 {
        self as u32
    }
    fn saturating(v: u64) -> Self {
        u16::try_from(v).unwrap_or(u16::MAX)
    }
}

impl Hp for u32 {
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

    fn kind(self) -> Option<TowerKind> {
        match self.0 >> 30 {
            1 => Some(TowerKind::Turret),
            2 => Some(TowerKind::Stunner),
            3 => Some(TowerKind::Bomb),
            _ => None,
        }
    }

    fn invested(self) -> u32 {
        self.0 & Self::INVESTED_MASK
    }
}

/// An invader as the bots and codecs see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvaderView {
    pub pos: u8,
    pub hp: u32,
    pub maxhp: u32,
    pub defense: u16,
    pub stun_res: u16,
    pub stun_time: u16,
}

/// A tower as the bots and codecs see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerView {
    pub pos: u8,
    pub kind: TowerKind,
    pub level: u32,
    pub power: u16,
    pub range: u16,
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
    pub base_range: [u16; 3],
}

pub const BUILD_TIME: u16 = 10;
pub const UPGRADE_TIME: u16 = 10;
pub const BOMB_COOLDOWN: u16 = 5;
pub const BASE_HP: u64 = 10;

impl BoardRules {
    fn index(kind: TowerKind) -> usize {
        match kind {
            TowerKind::Turret => 0,
            TowerKind::Stunner => 1,
            TowerKind::Bomb => 2,
        }
    }
    pub fn base(&self, kind: TowerKind) -> (u16, u16) {
        let i = Self::index(kind);
        (
            self.base_power.get(i).copied().unwrap_or(1),
            self.base_range.get(i).copied().unwrap_or(0),
        )
    }
}

/// A path: invaders and towers by space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board<H: Hp> {
    hp: [H; SPACES],
    maxhp: [H; SPACES],
    defense: [u16; SPACES],
    stun_res: [u16; SPACES],
    stun: [u16; SPACES],
    tag: [TowerTag; SPACES],
    power: [u16; SPACES],
    range: [u16; SPACES],
    cooldown: [u16; SPACES],
    /// The spaces holding an invader (bit `i` of the 128-bit mask `occupied[0] | occupied[1] << 64`),
    /// kept up to date so that a turn need not scan the path for them.
    occupied: [u64; 2],
}

impl<H: Hp> Default for Board<H> {
    fn default() -> Self {
        Board {
            hp: [H::default(); SPACES],
            maxhp: [H::default(); SPACES],
            defense: [0; SPACES],
            stun_res: [0; SPACES],
            stun: [0; SPACES],
            tag: [TowerTag::default(); SPACES],
            power: [0; SPACES],
            range: [0; SPACES],
            cooldown: [0; SPACES],
            occupied: [0; 2],
        }
    }
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

/// The spaces a tower at `pos` with `range` reaches, clipped to the path.
fn reach(pos: usize, range: u16) -> u128 {
    let r = range as usize;
    let lo = pos.saturating_sub(r);
    let hi = pos.saturating_add(r).min(LAST);
    span(lo, hi)
}

/// The spaces within `r` of any bit of `mask` (clipped to the path).
fn dilate(mask: u128, r: u16) -> u128 {
    if r as usize >= SPACES {
        return span(0, LAST);
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
    m & span(0, LAST)
}

/// Bit `i` set where `f(xs[i])`, sixteen spaces at a time.
fn bits<T: Copy, const N: usize>(xs: &[T; N], f: impl Fn(T) -> bool) -> u128 {
    const { assert!(N <= 128) };
    let mut m = 0u128;
    let (chunks, rest) = xs.as_chunks::<16>();
    for (c, chunk) in chunks.iter().enumerate() {
        let mut b = 0u16;
        for (j, &x) in chunk.iter().enumerate() {
            b |= (f(x) as u16) << j;
        }
        // N <= 128: every shift stays below 128.
        m |= (b as u128) << c.wrapping_mul(16);
    }
    for (j, &x) in rest.iter().enumerate() {
        m |= (f(x) as u128) << chunks.len().wrapping_mul(16).wrapping_add(j);
    }
    m
}

/// Like [`bits`], over two arrays side by side.
fn bits2<T: Copy, U: Copy, const N: usize>(
    xs: &[T; N],
    ys: &[U; N],
    f: impl Fn(T, U) -> bool,
) -> u128 {
    const { assert!(N <= 128) };
    let mut m = 0u128;
    let (xc, xr) = xs.as_chunks::<16>();
    let (yc, yr) = ys.as_chunks::<16>();
    for (c, (x, y)) in xc.iter().zip(yc).enumerate() {
        let mut b = 0u16;
        for (j, (&x, &y)) in x.iter().zip(y).enumerate() {
            b |= (f(x, y) as u16) << j;
        }
        // N <= 128: every shift stays below 128.
        m |= (b as u128) << c.wrapping_mul(16);
    }
    for (j, (&x, &y)) in xr.iter().zip(yr).enumerate() {
        m |= (f(x, y) as u128) << xc.len().wrapping_mul(16).wrapping_add(j);
    }
    m
}

fn highest(mask: u128) -> usize {
    127usize.saturating_sub(mask.leading_zeros() as usize)
}

impl<H: Hp> Board<H> {
    /// Spaces holding an invader, as a bit mask (bit `i` = space `i`).
    pub fn invader_mask(&self) -> u128 {
        let [lo, hi] = self.occupied;
        lo as u128 | (hi as u128) << 64
    }

    fn set_invader_mask(&mut self, mask: u128) {
        self.occupied = [mask as u64, (mask >> 64) as u64];
    }

    /// Spaces holding a tower, as a bit mask.
    pub fn tower_mask(&self) -> u128 {
        bits(&self.tag, |t| t.0 != 0)
    }

    pub fn has_invader(&self, pos: usize) -> bool {
        pos < SPACES && self.invader_mask() & (1u128 << pos) != 0
    }

    pub fn has_tower(&self, pos: usize) -> bool {
        self.tag.get(pos).is_some_and(|t| t.0 != 0)
    }

    pub fn invader(&self, pos: usize) -> Option<InvaderView> {
        if !self.has_invader(pos) {
            return None;
        }
        Some(InvaderView {
            pos: pos as u8,
            hp: self.hp.get(pos)?.get(),
            maxhp: self.maxhp.get(pos)?.get(),
            defense: *self.defense.get(pos)?,
            stun_res: *self.stun_res.get(pos)?,
            stun_time: *self.stun.get(pos)?,
        })
    }

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

    /// Test set-up: an invader anywhere, with any stats.
    #[cfg(test)]
    pub(crate) fn place(&mut self, pos: usize, hp: u32, maxhp: u32, def: u16, res: u16, stun: u16) {
        self.hp[pos] = H::saturating(hp as u64);
        self.maxhp[pos] = H::saturating(maxhp as u64);
        self.defense[pos] = def;
        self.stun_res[pos] = res;
        self.stun[pos] = stun;
        let bit = 1u128 << pos;
        let mask = self.invader_mask() & !bit;
        self.set_invader_mask(if hp > 0 { mask | bit } else { mask });
    }

    /// Test set-up: a tower's cooldown.
    #[cfg(test)]
    pub(crate) fn set_cooldown(&mut self, pos: usize, cooldown: u16) {
        self.cooldown[pos] = cooldown;
    }

    /// Puts an invader on space 0. The caller has checked the space is free.
    pub fn spawn(&mut self, hp: u64, defense: u64, stun_res: u64) {
        let hp = H::saturating(hp.max(1));
        let sixteen = |v: u64| u16::try_from(v).unwrap_or(u16::MAX);
        if let (Some(h), Some(m), Some(d), Some(r), Some(s)) = (
            self.hp.first_mut(),
            self.maxhp.first_mut(),
            self.defense.first_mut(),
            self.stun_res.first_mut(),
            self.stun.first_mut(),
        ) {
            *h = hp;
            *m = hp;
            *d = sixteen(defense);
            *r = sixteen(stun_res);
            *s = 0;
            self.set_invader_mask(self.invader_mask() | 1);
        }
    }

    /// Builds a fresh tower; the caller has checked the space is on the path and free.
    pub fn build(&mut self, pos: usize, kind: TowerKind, paid: u64, rules: &BoardRules) {
        let (p, r) = rules.base(kind);
        if let (Some(t), Some(pw), Some(rg), Some(cd)) = (
            self.tag.get_mut(pos),
            self.power.get_mut(pos),
            self.range.get_mut(pos),
            self.cooldown.get_mut(pos),
        ) {
            *t = TowerTag::new(kind, paid);
            *pw = p;
            *rg = r;
            *cd = BUILD_TIME;
        }
    }

    /// `+1` power (or range), level up, cooldown reset; `paid` is added to what it cost.
    pub fn upgrade(&mut self, pos: usize, range_stat: bool, paid: u64) {
        if let (Some(t), Some(pw), Some(rg), Some(cd)) = (
            self.tag.get_mut(pos),
            self.power.get_mut(pos),
            self.range.get_mut(pos),
            self.cooldown.get_mut(pos),
        ) {
            if let Some(kind) = t.kind() {
                *t = TowerTag::new(kind, (t.invested() as u64).saturating_add(paid));
                if range_stat {
                    *rg = rg.saturating_add(1);
                } else {
                    *pw = pw.saturating_add(1);
                }
                *cd = UPGRADE_TIME;
            }
        }
    }

    /// Removes the tower at `pos`.
    pub fn remove_tower(&mut self, pos: usize) {
        if let (Some(t), Some(pw), Some(rg), Some(cd)) = (
            self.tag.get_mut(pos),
            self.power.get_mut(pos),
            self.range.get_mut(pos),
            self.cooldown.get_mut(pos),
        ) {
            *t = TowerTag::default();
            *pw = 0;
            *rg = 0;
            *cd = 0;
        }
    }

    fn clear_invader(&mut self, i: usize) {
        if let Some(h) = self.hp.get_mut(i) {
            *h = H::default();
        }
        if let Some(m) = self.maxhp.get_mut(i) {
            *m = H::default();
        }
        if let Some(d) = self.defense.get_mut(i) {
            *d = 0;
        }
        if let Some(r) = self.stun_res.get_mut(i) {
            *r = 0;
        }
        if let Some(s) = self.stun.get_mut(i) {
            *s = 0;
        }
    }

    /// One hit of `power` on the invader at `i`; returns the kill reward if it died.
    fn hit(&mut self, i: usize, power: u16) -> Option<u64> {
        let def = *self.defense.get(i)?;
        let damage = power.saturating_sub(def).max(1) as u32;
        let h = self.hp.get_mut(i)?;
        let left = h.get().saturating_sub(damage);
        if left > 0 {
            *h = H::saturating(left as u64);
            return None;
        }
        let maxhp = self.maxhp.get(i)?.get() as u64;
        let res = *self.stun_res.get(i)? as u64;
        self.clear_invader(i);
        // A u32 plus two u16 tenfold: far from u64's limit, so the saturation never bites.
        Some(
            maxhp
                .saturating_add((def as u64).saturating_mul(10))
                .saturating_add(res.saturating_mul(10))
                / 10,
        )
    }

    /// Towers fire, then invaders move (rules "Towers" and "One turn", steps 1.1 and 1.2).
    pub fn turn(&mut self, rules: &BoardRules) -> BoardTurn {
        let mut out = BoardTurn::default();
        // Towers ready to fire are those at cooldown 0; every other tower counts down. Firing only
        // ever sets the firing tower's own cooldown, so the countdown can be done first for all.
        let mut inv = self.invader_mask();
        if inv == 0 {
            // Nothing to shoot at: every tower only counts down.
            for cd in self.cooldown.iter_mut() {
                *cd = cd.saturating_sub(1);
            }
            return out;
        }
        let ready = bits2(&self.tag, &self.cooldown, |t, c| t.0 != 0 && c == 0);
        for cd in self.cooldown.iter_mut() {
            *cd = cd.saturating_sub(1);
        }
        if ready != 0 {
            // Only towers within reach of an invader can do anything: skip the others. Most
            // towers reach one space either side, so those are sorted out with a tight mask.
            let reach_max = self.range.iter().copied().max().unwrap_or(0);
            let mut todo = ready & dilate(inv, reach_max);
            if reach_max > 1 {
                todo &= bits(&self.range, |r| r > 1) | dilate(inv, 1);
            }
            let mut stunned = 0u128;
            let mut each = inv;
            while each != 0 {
                let i = each.trailing_zeros() as usize;
                each &= each.wrapping_sub(1);
                if self.stun.get(i).is_some_and(|&s| s != 0) {
                    stunned |= 1u128 << i;
                }
            }
            while todo != 0 && inv != 0 {
                let p = if rules.fire_descending {
                    highest(todo)
                } else {
                    todo.trailing_zeros() as usize
                };
                todo ^= 1u128 << p;
                self.fire(p, &mut inv, &mut stunned, &mut out);
            }
            if !rules.kill_rewards {
                out.kill_gold = 0;
            }
        }
        out.through = self.advance(inv);
        out
    }

    fn fire(&mut self, p: usize, inv: &mut u128, stunned: &mut u128, out: &mut BoardTurn) {
        let (Some(tag), Some(&power), Some(&range)) =
            (self.tag.get(p), self.power.get(p), self.range.get(p))
        else {
            return;
        };
        match tag.kind() {
            Some(TowerKind::Turret) => {
                let targets = *inv & reach(p, range);
                if targets != 0 {
                    let i = highest(targets);
                    if let Some(reward) = self.hit(i, power) {
                        *inv &= !(1u128 << i);
                        *stunned &= !(1u128 << i);
                        out.kill_gold = out.kill_gold.saturating_add(reward);
                    }
                }
            }
            Some(TowerKind::Stunner) => {
                let targets = *inv & !*stunned & reach(p, range);
                if targets != 0 {
                    let i = highest(targets);
                    let res = self.stun_res.get(i).copied().unwrap_or(0);
                    let time = power.saturating_sub(res);
                    if let Some(s) = self.stun.get_mut(i) {
                        *s = time;
                    }
                    if time > 0 {
                        *stunned |= 1u128 << i;
                    }
                    if let Some(cd) = self.cooldown.get_mut(p) {
                        *cd = power.saturating_add(1);
                    }
                }
            }
            Some(TowerKind::Bomb) if *inv & (1u128 << p) != 0 => {
                let mut targets = *inv & reach(p, range);
                while targets != 0 {
                    let i = targets.trailing_zeros() as usize;
                    targets &= targets.wrapping_sub(1);
                    if let Some(reward) = self.hit(i, power) {
                        *inv &= !(1u128 << i);
                        *stunned &= !(1u128 << i);
                        out.kill_gold = out.kill_gold.saturating_add(reward);
                    }
                }
                if let Some(cd) = self.cooldown.get_mut(p) {
                    *cd = BOMB_COOLDOWN;
                }
            }
            Some(TowerKind::Bomb) | None => {}
        }
    }

    /// Invaders move from 99 down to 0; returns the one that left the path, if any.
    fn advance(&mut self, mut inv: u128) -> Option<(u32, u32)> {
        let mut through = None;
        let mut todo = inv;
        while todo != 0 {
            let i = highest(todo);
            todo &= !(1u128 << i);
            let Some(s) = self.stun.get_mut(i) else {
                continue;
            };
            if *s > 0 {
                *s = s.saturating_sub(1);
                continue;
            }
            if i == LAST {
                let hp = self.hp.get(i).map_or(0, |h| h.get());
                let maxhp = self.maxhp.get(i).map_or(0, |h| h.get());
                through = Some((hp, maxhp));
                self.clear_invader(i);
                inv &= !(1u128 << i);
            } else if inv & (1u128 << i.wrapping_add(1)) == 0 {
                // i < LAST here: the next space is still on the path.
                self.move_up(i);
                inv = (inv & !(1u128 << i)) | (1u128 << i.wrapping_add(1));
            }
        }
        self.set_invader_mask(inv);
        through
    }

    fn move_up(&mut self, i: usize) {
        let j = i.saturating_add(1);
        if j >= SPACES {
            return;
        }
        self.hp.swap(i, j);
        self.maxhp.swap(i, j);
        self.defense.swap(i, j);
        self.stun_res.swap(i, j);
        self.stun.swap(i, j);
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
