//! The phases of a turn, written after the reference's `GameState` line by line, because the
//! quirks live in the order of its statements (rules/ballroom-blitz.md, "One turn").

use super::action::{Action, AttackRecord, BuyRecord, Flags, MoveRecord, Reply, UseRecord};
use super::player::Player;
use super::types::{Class, Item, Phase, Pos, Ruleset, BOARD, CONTROL_POINTS, PLAYERS};
use super::Ballroom;
use crate::game::StepReport;

/// What a seat's reply resolved to for this phase: the action to execute, and whether the bot
/// asked for it explicitly (a refused explicit action is counted in the step report).
struct Resolved {
    action: Action,
    explicit: bool,
}

impl Resolved {
    /// The flags that stand with the executed action: the bot's with its own action, none with a
    /// default action played instead (the engine's defaults start with the initial values).
    fn flags(&self, sent: Flags) -> Flags {
        if self.explicit {
            sent
        } else {
            Flags::NONE
        }
    }
}

/// Java `int` Manhattan distance, overflow included: `Math.abs(x1-x2) + Math.abs(y1-y2)`.
fn java_manhattan(ax: i32, ay: i32, bx: i32, by: i32) -> i32 {
    ax.wrapping_sub(bx)
        .wrapping_abs()
        .wrapping_add(ay.wrapping_sub(by).wrapping_abs())
}

/// `fixBadDestination`: the first tile (x outer, y inner) within `speed` of `from` that is strictly
/// nearer `(dx, dy)` than any before it, starting from a distance of 100 and a default of (0,0).
///
/// For each column `x` within reach, the reachable tiles are one run of rows, and the one nearest
/// `dy` in it (the row clamped into the run) is the only one that can be kept; so one tile per
/// column is looked at instead of all 100. Destinations far off the board (where Java's `int`
/// distance may wrap) take the reference's scan of every tile, [`snap_scan`].
pub(super) fn snap(from: Pos, speed: i32, dx: i32, dy: i32) -> Pos {
    const NEAR: i32 = 1 << 20;
    let near = |v: i32| (-NEAR..NEAR).contains(&v);
    if !near(dx) || !near(dy) || !(0..=2 * BOARD).contains(&speed) {
        return snap_scan(from, speed, dx, dy);
    }
    let (fx, fy) = (from.x as i32, from.y as i32);
    let mut min = 100;
    let mut best = Pos::new(0, 0);
    // Every value here is within 2^21 of 0: the saturations never bite.
    let last = BOARD.saturating_sub(1);
    for x in fx.saturating_sub(speed).max(0)..=fx.saturating_add(speed).min(last) {
        let left = speed.saturating_sub(x.abs_diff(fx) as i32);
        let lo = fy.saturating_sub(left).max(0);
        let hi = fy.saturating_add(left).min(last);
        // Not `clamp`: its panic on lo > hi (impossible here) would be a panic path in the firmware.
        let y = dy.max(lo).min(hi);
        let d = (x.abs_diff(dx) as i32).saturating_add(y.abs_diff(dy) as i32);
        if d < min {
            min = d;
            // On the board: the casts are exact.
            best = Pos::new(x as i8, y as i8);
        }
    }
    best
}

/// [`snap`] as the reference computes it: every tile, x outer, y inner, with Java `int`
/// arithmetic.
pub(super) fn snap_scan(from: Pos, speed: i32, dx: i32, dy: i32) -> Pos {
    let mut min = 100;
    let mut best = Pos::new(0, 0);
    for x in 0..BOARD as i8 {
        for y in 0..BOARD as i8 {
            let tile = Pos::new(x, y);
            let d = java_manhattan(x as i32, y as i32, dx, dy);
            if speed >= tile.manhattan(from) && d < min {
                min = d;
                best = tile;
            }
        }
    }
    best
}

impl Ballroom {
    /// Applies the connection rules to one reply and returns what the phase executes.
    fn resolve(
        &mut self,
        seat: usize,
        action: Action,
        phase: Phase,
        report: &mut StepReport,
    ) -> Resolved {
        let pass = Resolved {
            action: Action::Pass,
            explicit: false,
        };
        let Some(p) = self.players.get_mut(seat) else {
            return pass;
        };
        // A dropped bot reads "null" for ever.
        let action = if p.connected { action } else { Action::Null };
        match (action, phase) {
            (Action::Null, _) => {
                if p.connected {
                    p.connected = false;
                    report.refuse(seat);
                }
                // The reference forgets removePlayer for a null MOVE and at the handshake.
                if !matches!(phase, Phase::Move | Phase::Class) {
                    p.active = false;
                }
                pass
            }
            (Action::Malformed, _) => {
                report.refuse(seat);
                // At the handshake the reference crashes; we play KNIGHT (decision 2).
                if phase != Phase::Class {
                    p.connected = false;
                    p.active = false;
                }
                pass
            }
            (Action::Pass, _) => pass,
            (Action::Class(_), Phase::Class)
            | (Action::Use(_), Phase::Use)
            | (Action::Move { .. }, Phase::Move)
            | (Action::Attack { .. }, Phase::Attack)
            | (Action::Buy(_), Phase::Buy) => Resolved {
                action,
                explicit: true,
            },
            _ => {
                // An action for another phase: the default instead (decision 2).
                report.refuse(seat);
                pass
            }
        }
    }

    pub(super) fn play_class(
        &mut self,
        actions: &[Option<Action>; PLAYERS],
        report: &mut StepReport,
    ) {
        for (seat, &a) in actions.iter().enumerate() {
            let r = self.resolve(seat, a.unwrap_or_default(), Phase::Class, report);
            let class = match r.action {
                Action::Class(c) => c,
                _ => Class::Knight,
            };
            if let Some(p) = self.players.get_mut(seat) {
                let (connected, active) = (p.connected, p.active);
                *p = Player::new(class, seat);
                p.connected = connected;
                p.active = active;
            }
        }
        self.start();
    }

    /// `start()`: one end-turn settlement (the "turn 0" entry); the turn counter is not advanced.
    pub(super) fn start(&mut self) {
        self.settle();
        self.phase = Phase::Use;
    }

    /// `GameState.beginTurn`: item timers, then respawn and heal at spawn.
    fn begin_turn(&mut self) {
        for p in self.players.iter_mut() {
            if p.effect_timer > 0 {
                p.effect_timer = p.effect_timer.saturating_sub(1);
            }
            if p.effect_timer == 0 {
                // The reference sets the timer to -1 here too; NONE counts as permanent, so the
                // next check does it.
                p.in_effect = Item::None;
            }
            if p.in_effect.is_permanent() {
                p.effect_timer = -1;
            }
        }
        for (seat, p) in self.players.iter_mut().enumerate() {
            if p.is_dead() {
                p.pos = Pos::spawn(seat);
            }
            p.heal_if_home(seat);
        }
    }

    /// USE: the replies are read (from the end-of-turn state) before the turn begins, then each
    /// is executed for its executor, in read order.
    pub(super) fn play_use(&mut self, replies: &[Reply], report: &mut StepReport) {
        // (executor, use, explicit, flags) per reply, resolved before `beginTurn` as the engine
        // reads.
        let mut resolved = [(0usize, false, false, Flags::NONE); PLAYERS];
        for (r, slot) in replies.iter().zip(resolved.iter_mut()) {
            let seat = usize::from(r.executor);
            let res = self.resolve(seat, r.action, Phase::Use, report);
            let used = matches!(res.action, Action::Use(true));
            *slot = (seat, used, res.explicit, res.flags(r.flags));
        }
        self.begin_turn();
        for &(seat, used, explicit, flags) in resolved.iter().take(replies.len()) {
            let (Some(p), Some(rec)) = (self.players.get_mut(seat), self.record.uses.get_mut(seat))
            else {
                continue;
            };
            let valid = if p.item.is_permanent() {
                false
            } else {
                if used {
                    p.in_effect = p.item;
                    p.effect_timer = p.item.timer();
                    p.item = Item::None;
                    // Item.affect
                    if p.in_effect == Item::Shield {
                        p.shielded = true;
                    }
                    if let Some(c) = p.in_effect.class_change() {
                        // Health is kept; only a later clamp cuts it down.
                        p.class = c;
                    }
                }
                true
            };
            // `executeUse` only ever invalidates: a bot's `isValid: false` stands.
            *rec = UseRecord {
                used,
                valid: valid && flags.valid,
            };
            if explicit && used && !valid {
                report.refuse(seat);
            }
        }
        self.phase = Phase::Move;
    }

    pub(super) fn play_move(&mut self, replies: &[Reply], report: &mut StepReport) {
        for r in replies {
            let seat = usize::from(r.executor);
            let res = self.resolve(seat, r.action, Phase::Move, report);
            let spawn = Pos::spawn(seat);
            let (x, y) = match res.action {
                Action::Move { x, y } => (x, y),
                _ => (spawn.x as i32, spawn.y as i32),
            };
            let Some(p) = self.players.get_mut(seat) else {
                continue;
            };
            let speed = p.stats().speed;
            let in_bounds = (0..BOARD).contains(&x) && (0..BOARD).contains(&y);
            let home = x == spawn.x as i32 && y == spawn.y as i32;
            let valid = home
                || (in_bounds && speed >= java_manhattan(x, y, p.pos.x as i32, p.pos.y as i32));
            p.pos = if valid {
                // In bounds (or the spawn), so the casts are exact.
                Pos::new(x as i8, y as i8)
            } else {
                snap(p.pos, speed, x, y)
            };
            if let Some(rec) = self.record.moves.get_mut(seat) {
                // `executeMove` only ever invalidates: a bot's `isValid: false` stands.
                *rec = MoveRecord {
                    x,
                    y,
                    valid: valid && res.flags(r.flags).valid,
                };
            }
            if res.explicit && !valid {
                report.refuse(seat);
            }
        }
        self.phase = Phase::Attack;
    }

    /// ATTACK: the replies are queued in read order, and the queue runs sorted by the executor's
    /// effective damage, descending (a stable sort: ties keep read order).
    pub(super) fn play_attack(&mut self, replies: &[Reply], report: &mut StepReport) {
        let queue = self.queue_attacks(replies, report);
        let order = queue.order();
        let strongest = self.strongest_attacks(&queue);
        let mut recs = [AttackRecord::default(); PLAYERS];
        let mut checked_shield = false;
        for &i in order.iter().take(queue.n) {
            let s = queue.exec(i);
            let target = queue.targets.get(i).copied().unwrap_or(s as i32);
            let (rec, damage_set) = self.attack(&queue, i, &strongest, &mut checked_shield);
            // Attacking oneself is the phase's default action, which is how bots pass in ATTACK:
            // the reference marks it invalid (kept in the record), but nothing is refused.
            if queue.explicit.get(i) == Some(&true) && !rec.valid && target != s as i32 {
                report.refuse(s);
            }
            // `executeAttack` only ever invalidates, nullifies, and sets the damage of an attack
            // on a player that no shield stopped: elsewhere the bot's flags stand.
            let sent = queue.flags.get(i).copied().unwrap_or(Flags::NONE);
            if let Some(r) = recs.get_mut(i) {
                *r = AttackRecord {
                    target: rec.target,
                    valid: rec.valid && sent.valid,
                    damage: if damage_set { rec.damage } else { sent.damage },
                    nullified: rec.nullified || sent.nullified,
                };
            }
        }
        // The engine files each reply under its executor as it reads it: the last read stays.
        for (i, rec) in recs.iter().enumerate().take(queue.n) {
            if let Some(r) = self.record.attacks.get_mut(queue.exec(i)) {
                *r = *rec;
            }
        }
        self.phase = Phase::Buy;
    }

    /// The ATTACK queue in read order: each reply resolved, its damage and whether it lands.
    fn queue_attacks(&mut self, replies: &[Reply], report: &mut StepReport) -> AttackQueue {
        let n = replies.len().min(PLAYERS);
        let mut q = AttackQueue {
            n,
            execs: [0; PLAYERS],
            targets: [0; PLAYERS],
            explicit: [false; PLAYERS],
            flags: [Flags::NONE; PLAYERS],
            damage: [0; PLAYERS],
            qdamages: [i32::MIN; PLAYERS],
            lands: [false; PLAYERS],
        };
        for (i, r) in replies.iter().take(n).enumerate() {
            let seat = usize::from(r.executor);
            let res = self.resolve(seat, r.action, Phase::Attack, report);
            if let (Some(e), Some(t), Some(x), Some(f)) = (
                q.execs.get_mut(i),
                q.targets.get_mut(i),
                q.explicit.get_mut(i),
                q.flags.get_mut(i),
            ) {
                *e = seat;
                *t = match res.action {
                    Action::Attack { target } => target,
                    _ => seat as i32,
                };
                *x = res.explicit;
                *f = res.flags(r.flags);
            }
        }
        // Attacks only change health and score: each attacker's damage, and whether its attack
        // lands (`isNotOutOfRangeOrSelfAttack`: range and positions), are the same all phase.
        // (Plain loops: `array::map` and `from_fn` move their elements through the stack.)
        let mut range = [0i32; PLAYERS];
        for ((p, r), d) in self
            .players
            .iter()
            .zip(range.iter_mut())
            .zip(q.damage.iter_mut())
        {
            let st = p.stats();
            (*r, *d) = (st.range, st.damage);
        }
        for i in 0..n {
            let d = q.damage_of(q.exec(i));
            if let Some(qd) = q.qdamages.get_mut(i) {
                *qd = d;
            }
        }
        for i in 0..n {
            let s = q.exec(i);
            let target = q.targets.get(i).copied().and_then(target_of);
            if let (Some(t), Some(a), Some(&r)) = (target, self.players.get(s), range.get(s)) {
                let land = s != t
                    && self
                        .players
                        .get(t)
                        .is_some_and(|v| r >= a.pos.chebyshev(v.pos));
                if let Some(l) = q.lands.get_mut(i) {
                    *l = land;
                }
            }
        }
        q
    }

    /// As written: each shield stops the strongest attack that would land on its user (ties: the
    /// earlier one in the queue), by target. The engine's ruleset: none.
    fn strongest_attacks(&self, q: &AttackQueue) -> [Option<usize>; PLAYERS] {
        let mut strongest: [Option<usize>; PLAYERS] = [None; PLAYERS];
        if self.ruleset == Ruleset::AsWritten {
            for (i, &target) in q.targets.iter().enumerate().take(q.n) {
                if let Some(t) = target_of(target).filter(|_| q.lands(i)) {
                    if let Some(best) = strongest.get_mut(t) {
                        // Strictly stronger: ties stay with the earlier attacker.
                        if best.is_none_or(|b| q.qdamage(i) > q.qdamage(b)) {
                            *best = Some(i);
                        }
                    }
                }
            }
        }
        strongest
    }

    /// Runs queue entry `i`: a shield stops it (the first attack that lands all turn consults
    /// one under the engine's ruleset, the strongest on each target as written), else it deals
    /// its damage if it lands, and a hit that leaves the target at 0 scores. Its record by the
    /// engine's judgement alone, and whether that judgement set the damage (`setDamage`: the
    /// target is a player and no shield stopped the attack).
    fn attack(
        &mut self,
        q: &AttackQueue,
        i: usize,
        strongest: &[Option<usize>; PLAYERS],
        checked_shield: &mut bool,
    ) -> (AttackRecord, bool) {
        let s = q.exec(i);
        let target = q.targets.get(i).copied().unwrap_or(s as i32);
        let mut rec = AttackRecord {
            target,
            valid: true,
            damage: 0,
            nullified: false,
        };
        let Some(t) = target_of(target) else {
            rec.valid = false;
            return (rec, false);
        };
        let lands = q.lands(i);
        let check = match self.ruleset {
            Ruleset::Engine => {
                // Only the first attack that lands consults a shield, all turn.
                if !*checked_shield && lands {
                    *checked_shield = true;
                    true
                } else {
                    false
                }
            }
            Ruleset::AsWritten => strongest.get(t) == Some(&Some(i)),
        };
        let shielded = self.players.get(t).is_some_and(|p| p.shielded);
        if check && shielded {
            rec.nullified = true;
            return (rec, false);
        }
        let d = q.damage_of(s);
        rec.damage = d;
        if !lands {
            rec.valid = false;
            return (rec, true);
        }
        let mut killed = false;
        if let Some(target) = self.players.get_mut(t) {
            // Procrustean Iron: every hit deals a Wizard's base damage.
            let hit = if target.item == Item::ProcrusteanIron {
                Class::Wizard.stats().damage
            } else {
                d
            };
            target.add_health(hit.wrapping_neg());
            killed = target.is_dead();
        }
        if killed {
            // Every hit that leaves the target at 0 scores, overkill included.
            if let Some(a) = self.players.get_mut(s) {
                a.score = a.score.saturating_add(1);
            }
        }
        (rec, true)
    }

    pub(super) fn play_buy(&mut self, replies: &[Reply], report: &mut StepReport) {
        for r in replies {
            let seat = usize::from(r.executor);
            let res = self.resolve(seat, r.action, Phase::Buy, report);
            let item = match res.action {
                Action::Buy(i) => i,
                _ => Item::None,
            };
            let cost = item.cost(self.ruleset);
            let Some(p) = self.players.get_mut(seat) else {
                continue;
            };
            let mut rec = BuyRecord {
                item,
                valid: true,
                bought: false,
            };
            if self.ruleset == Ruleset::AsWritten && item == Item::None {
                // Buying nothing costs nothing and keeps the held item.
            } else if p.gold >= cost && p.pos == Pos::spawn(seat) {
                p.item = item;
                p.gold = p.gold.saturating_sub(cost);
                p.spent = p.spent.saturating_add(cost);
                rec.bought = true;
            } else if item != Item::None {
                rec.valid = false;
            }
            if res.explicit && !rec.valid {
                report.refuse(seat);
            }
            // `executeBuy` only ever invalidates: a bot's `isValid: false` stands.
            rec.valid = rec.valid && res.flags(r.flags).valid;
            if let Some(r) = self.record.buys.get_mut(seat) {
                *r = rec;
            }
        }
        self.settle();
        self.turn = self.turn.saturating_add(1);
        self.phase = Phase::Use;
    }

    /// `GameState.endTurn`, players in order: drop the item of the dead, +1 gold, heal at spawn,
    /// clamp health, +2 on a control tile (dead or not), unshield.
    fn settle(&mut self) {
        for (seat, p) in self.players.iter_mut().enumerate() {
            if p.is_dead() {
                p.item = Item::None;
            }
            p.gold = p.gold.saturating_add(1);
            p.heal_if_home(seat);
            p.add_health(0);
            if p.pos.on_control() {
                p.score = p.score.saturating_add(CONTROL_POINTS);
            }
            p.shielded = false;
        }
    }
}

/// The player index a target names, `None` outside 0..4.
fn target_of(t: i32) -> Option<usize> {
    if (0..PLAYERS as i32).contains(&t) {
        Some(t as usize)
    } else {
        None
    }
}

/// The ATTACK phase's queue, in read order: per entry (`n` of them) its executor, its target as
/// sent, whether the bot asked for it explicitly, the flags that stand with it, its damage and
/// whether it lands.
struct AttackQueue {
    n: usize,
    execs: [usize; PLAYERS],
    targets: [i32; PLAYERS],
    explicit: [bool; PLAYERS],
    flags: [Flags; PLAYERS],
    /// Each player's effective damage, by seat.
    damage: [i32; PLAYERS],
    /// Each entry's damage; past the queue's end, below any (so it sorts last).
    qdamages: [i32; PLAYERS],
    lands: [bool; PLAYERS],
}

impl AttackQueue {
    fn exec(&self, i: usize) -> usize {
        self.execs.get(i).copied().unwrap_or(0)
    }

    fn damage_of(&self, seat: usize) -> i32 {
        self.damage.get(seat).copied().unwrap_or(0)
    }

    fn qdamage(&self, i: usize) -> i32 {
        self.qdamages.get(i).copied().unwrap_or(i32::MIN)
    }

    fn lands(&self, i: usize) -> bool {
        self.lands.get(i) == Some(&true)
    }

    /// The stable sort of the queue by damage, descending (ties keep read order): entry `i` goes
    /// after every entry of more damage, and after the earlier entries of as much.
    fn order(&self) -> [usize; PLAYERS] {
        let mut order = [0usize; PLAYERS];
        for i in 0..PLAYERS {
            let d = self.qdamage(i);
            let before = (0..PLAYERS)
                .filter(|&o| self.qdamage(o) > d || (self.qdamage(o) == d && o < i))
                .count();
            if let Some(slot) = order.get_mut(before) {
                *slot = i;
            }
        }
        order
    }
}
