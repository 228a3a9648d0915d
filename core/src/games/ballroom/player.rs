//! One player's state (`PlayerState`), and the few rules that belong to a single player.

use super::types::{Class, Item, Pos, StatSet};

/// Everything the reference's `PlayerState` holds, plus what our engine needs beside it
/// (`spent`, `connected`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Player {
    /// The current class.
    pub class: Class,
    /// The tile it stands on.
    pub pos: Pos,
    /// The item held (`item` in the JSON).
    pub item: Item,
    /// The item last used (`item_in_use`).
    pub in_effect: Item,
    /// The reference's `effectTimer` for the item in effect (see [`Item::timer`]).
    pub effect_timer: i8,
    /// Health points; 0 is dead (it respawns at the next settlement).
    pub health: i8,
    /// Gold (`gold` in the JSON): settlements earned less what was spent.
    pub gold: u16,
    /// Points (`score` in the JSON).
    pub score: u16,
    /// Gold spent so far (not in the reference; gold = settlements − spent).
    pub spent: u16,
    /// Whether a used Shield protects it this turn.
    pub shielded: bool,
    /// `isActive` as the reference shows it.
    pub active: bool,
    /// Whether the bot still answers; once false it plays the default action for ever.
    pub connected: bool,
}

impl Player {
    /// A player of class `class` on seat `seat`'s spawn point, at full health, holding nothing.
    pub const fn new(class: Class, seat: usize) -> Player {
        Player {
            class,
            pos: Pos::spawn(seat),
            item: Item::None,
            in_effect: Item::None,
            effect_timer: 0,
            health: class.stats().max_health as i8,
            gold: 0,
            score: 0,
            spent: 0,
            shielded: false,
            active: true,
            connected: true,
        }
    }

    /// `getEffectiveStatSet`: a used timed item while its timer runs, else a held permanent item
    /// while the timer is negative, else the class alone.
    pub const fn stats(&self) -> StatSet {
        let base = self.class.stats();
        if self.effect_timer > 0 {
            base.plus(self.in_effect.bonus())
        } else if self.effect_timer < 0 && self.item.is_permanent() {
            base.plus(self.item.bonus())
        } else {
            base
        }
    }

    /// `incrementCurrHealth`: add, then clamp to `[0, effective max]`. The clamp is how a class
    /// change's health is finally cut down.
    pub fn add_health(&mut self, amount: i32) {
        let max = self.stats().max_health;
        let h = (self.health as i32)
            .saturating_add(amount)
            .clamp(0, max.max(0));
        self.health = h.clamp(0, i8::MAX as i32) as i8;
    }

    /// `checkAndHandleBase`: full health on one's own spawn.
    pub fn heal_if_home(&mut self, seat: usize) {
        if self.pos == Pos::spawn(seat) {
            self.health = self.stats().max_health.clamp(0, i8::MAX as i32) as i8;
        }
    }

    /// Whether its health is 0.
    pub const fn is_dead(&self) -> bool {
        self.health == 0
    }
}
