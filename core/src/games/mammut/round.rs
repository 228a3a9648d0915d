//! The round loop: who acts, what is legal, and what happens when a round ends.
//!
//! Only empty-handed players act, clockwise from the round's first player, until everyone still in
//! the round holds a tile (`rules/mammut.md`, "A round"). The next player is searched from the seat
//! after the one who just acted and wraps round to that seat itself, because a thief who stole a
//! single tile is still empty-handed and may be the only one left to act.

use super::scoring::{self, animal_bonus, next_seat, score_round};
use super::tiles::{Deal, TileSet, TILE_COUNT};
use super::{Action, Mammut, ACTION_CAP, PLAYERS, ROUNDS};
use crate::rng::Rng;
use crate::seat::Seat;

/// Moves the tiles `seat`'s `action` moves (assumed legal): a take from the middle to its hand, a
/// steal from the victim's hand to its own with the put-back tile to the middle.
#[inline]
pub(super) fn move_tiles(
    hands: &mut [TileSet; PLAYERS],
    middle: &mut TileSet,
    seat: Seat,
    action: Action,
) {
    fn set(hands: &mut [TileSet; PLAYERS], seat: Seat, tiles: TileSet) {
        if let Some(h) = hands.get_mut(seat) {
            *h = tiles;
        }
    }
    match action {
        Action::Take(tiles) => {
            *middle = middle.minus(tiles);
            set(hands, seat, tiles);
        }
        Action::Steal { victim, put_back } => {
            let loot = hands.get(victim as Seat).copied().unwrap_or_default();
            set(hands, victim as Seat, TileSet::EMPTY);
            set(hands, seat, loot.without(put_back));
            *middle = middle.with(put_back);
        }
        Action::Nothing => {}
    }
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Refusal {
    /// The game is over, or it is not this seat's turn.
    NotYourTurn,
    /// No action (no answer, a crash, a time-out, an unreadable message).
    NoAction,
    /// A take of zero tiles.
    TakeNothing,
    /// A take naming a tile that is not in the middle.
    NotInMiddle,
    /// A steal from a seat that does not exist, or from oneself.
    NoSuchVictim,
    /// A steal from a player holding no tiles.
    EmptyVictim,
    /// A steal putting back a tile that was not stolen.
    PutBackNotStolen,
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.reason())
    }
}

impl core::error::Error for Refusal {}

impl Refusal {
    /// The reason in a few words, for reports.
    pub const fn reason(self) -> &'static str {
        match self {
            Refusal::NotYourTurn => "not this player's turn",
            Refusal::NoAction => "no action",
            Refusal::TakeNothing => "a take of zero tiles",
            Refusal::NotInMiddle => "a tile that is not in the middle",
            Refusal::NoSuchVictim => "a steal from no other player",
            Refusal::EmptyVictim => "a steal from a player with no tiles",
            Refusal::PutBackNotStolen => "putting back a tile that was not stolen",
        }
    }
}

impl Mammut {
    /// Starts a round: the ids dealt to the physical tiles in a random order, every tile to the
    /// middle with a random side, all hands empty.
    pub(super) fn start_round(&mut self, first: Seat) {
        let mut rng = Rng::stream(self.seed, b"faces");
        for _ in 1..self.round {
            rng.next_u32();
        }
        let faces = rng.next_u32();
        let mut kinds = [0u8; TILE_COUNT];
        for (id, k) in kinds.iter_mut().enumerate() {
            *k = id as u8;
        }
        // One stream per round, so that a round's ids do not depend on how the earlier shuffles
        // drew.
        let round = u64::from(self.round).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Rng::stream(self.seed ^ round, b"tile-ids").shuffle(&mut kinds);
        self.deal = Deal::new(kinds, faces);
        self.hands = [TileSet::EMPTY; PLAYERS];
        self.middle = TileSet::ALL;
        self.first = first as u8;
        self.mover = first as u8;
        self.actions = 0;
        self.removed = 0;
        self.strike = false;
    }

    /// Whether `action` by `seat` is legal now, and if not, why.
    pub fn legal(&self, seat: Seat, action: &Action) -> Result<(), Refusal> {
        if self.mover() != Some(seat) {
            return Err(Refusal::NotYourTurn);
        }
        match *action {
            Action::Nothing => Err(Refusal::NoAction),
            Action::Take(tiles) => {
                if tiles.is_empty() {
                    Err(Refusal::TakeNothing)
                } else if !tiles.is_subset(self.middle) {
                    Err(Refusal::NotInMiddle)
                } else {
                    Ok(())
                }
            }
            Action::Steal { victim, put_back } => {
                let victim = victim as Seat;
                if victim >= PLAYERS || victim == seat {
                    return Err(Refusal::NoSuchVictim);
                }
                let loot = self.hand(victim);
                if loot.is_empty() {
                    Err(Refusal::EmptyVictim)
                } else if !loot.contains(put_back) {
                    Err(Refusal::PutBackNotStolen)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays the mover's action: `true` if it was legal, `false` if refused.
    pub(super) fn play(&mut self, seat: Seat, action: Action) -> bool {
        self.steps = self.steps.saturating_add(1);
        if self.legal(seat, &action).is_err() {
            if self.strike {
                // Second chance used up: out of this round, scored as an empty hand.
                self.strike = false;
                self.removed |= 1 << seat;
                self.advance(seat);
            } else {
                self.strike = true;
            }
            return false;
        }
        move_tiles(&mut self.hands, &mut self.middle, seat, action);
        self.strike = false;
        self.actions = self.actions.saturating_add(1);
        self.advance(seat);
        true
    }

    /// Whether `seat` acts when its turn comes: still in the round, holding nothing.
    pub fn waits(&self, seat: Seat) -> bool {
        !self.is_removed(seat) && self.hand(seat).is_empty()
    }

    /// Passes the turn clockwise to the next empty-handed player, or ends the round.
    fn advance(&mut self, from: Seat) {
        if self.actions >= ACTION_CAP {
            self.end_round();
            return;
        }
        let mut seat = from;
        for _ in 0..PLAYERS {
            seat = next_seat(&self.ids, seat, true);
            if self.waits(seat) {
                self.mover = seat as u8;
                return;
            }
        }
        self.end_round();
    }

    /// Scores the round, then deals the next one or ends the game.
    pub(super) fn end_round(&mut self) {
        self.deal = self.deal.revealed();
        let score = score_round(
            &self.hands,
            &self.deal,
            &self.ids,
            self.first as Seat,
            self.round,
        );
        for s in 0..PLAYERS {
            let gain = score.gain.get(s).copied().unwrap_or(0);
            let fur = score.fur.get(s).copied().unwrap_or(0);
            let new = score.animals.get(s).copied().unwrap_or(0);
            if let Some(p) = self.points.get_mut(s) {
                *p = p.saturating_add(gain).max(0);
            }
            if let Some(f) = self.furs.get_mut(s) {
                *f = f.saturating_add(fur as u16);
            }
            if let Some(a) = self.animals.get_mut(s) {
                *a |= new;
            }
        }
        self.last = score;
        self.strike = false;
        if self.round >= ROUNDS {
            for (p, &a) in self.points.iter_mut().zip(self.animals.iter()) {
                *p = p.saturating_add(animal_bonus(a));
            }
            self.over = true;
            return;
        }
        self.round = self.round.saturating_add(1);
        let first = self.most_furs();
        self.start_round(first);
    }

    /// The player with the most fur points; ties go to the earliest in the last tie order.
    fn most_furs(&self) -> Seat {
        let order = self.last.order;
        let mut best = order.first().copied().unwrap_or(0) as Seat;
        for &seat in order.iter() {
            if self.furs.get(seat as Seat) > self.furs.get(best) {
                best = seat as Seat;
            }
        }
        best
    }
}

/// For the bots and tests: the round's scoring with this game's ids and first player.
impl Mammut {
    /// What scoring would give if the round ended with these hands (Mystery tiles turned, as the
    /// rules score them: this knows their hidden sides).
    pub fn score_hands(&self, hands: &[TileSet; PLAYERS]) -> scoring::RoundScore {
        score_round(
            hands,
            &self.deal.revealed(),
            &self.ids,
            self.first as Seat,
            self.round,
        )
    }

    /// What a player can tell scoring would give if the round ended with these hands: the tiles
    /// as they show, a Mystery tile counting as nothing (its other side is hidden until scoring).
    pub fn score_seen(&self, hands: &[TileSet; PLAYERS]) -> scoring::RoundScore {
        score_round(hands, &self.deal, &self.ids, self.first as Seat, self.round)
    }
}
