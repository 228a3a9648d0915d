//! The built-in bots. They only read the state through [`ColorFight::plan`], so they can never
//! send an action the rules refuse, and they think only when idle (or, for bases, when a build is
//! possible): most ticks cost them nothing, which is what lets a board play them in real time.

use super::grid::seat_tag;
use super::{Action, Building, ColorFight, Kind, Plan};
use crate::game::Bot;
use crate::rng::Rng;
use crate::seat::Seat;

/// One of the built-in bots, by name (see [`crate::game::Roster::BOTS`]).
#[derive(Clone, Debug)]
pub enum ColorFightBot {
    /// A legal action drawn uniformly: any attack or defence, sometimes a base.
    Random(Rng),
    /// The quickest cell to take next to its land, then the next.
    Expander,
    /// Mines first, then bases to survive, enemy bases when cheap, defence of its own bases.
    Strategist,
}

impl ColorFightBot {
    /// The bot named `name`, seeded with `seed`; `None` for a name not in the roster.
    pub fn new(name: &str, seed: u64) -> Option<ColorFightBot> {
        match name {
            "random" => Some(ColorFightBot::Random(Rng::stream(
                seed,
                b"colorfight/random",
            ))),
            "expander" => Some(ColorFightBot::Expander),
            "strategist" => Some(ColorFightBot::Strategist),
            _ => None,
        }
    }
}

impl Bot<ColorFight> for ColorFightBot {
    fn act(&mut self, view: &crate::view::Open<'_, ColorFight>) -> Action {
        let (game, seat) = (view.state(), view.seat());
        match self {
            ColorFightBot::Random(rng) => random(game, seat, rng),
            ColorFightBot::Expander => expander(game, seat),
            ColorFightBot::Strategist => strategist(game, seat),
        }
    }
}

fn xy_attack(game: &ColorFight, idx: usize) -> Action {
    let (x, y) = game.coords(idx);
    Action::Attack { x, y }
}

fn xy_build(game: &ColorFight, idx: usize) -> Action {
    let (x, y) = game.coords(idx);
    Action::Build { x, y }
}

/// The cells `seat` may attack now, with their durations, in index order.
fn attacks(game: &ColorFight, seat: Seat) -> impl Iterator<Item = (usize, u32)> + '_ {
    (0..game.cells().len()).filter_map(move |i| match game.plan(seat, &xy_attack(game, i)) {
        Ok(Plan::Attack { cell, ticks }) => Some((cell, ticks)),
        _ => None,
    })
}

fn idle(game: &ColorFight, seat: Seat) -> bool {
    game.player(seat)
        .is_some_and(|p| !p.defeated && p.is_idle())
}

fn can_build_now(game: &ColorFight, seat: Seat) -> bool {
    game.player(seat).is_some_and(|p| {
        !p.defeated
            && p.gold >= super::Num::const_from_int(super::BASE_COST as i64)
            && p.all_bases() < super::MAX_BASES
            && game.tick() >= p.next_build
    }) && game.variant() == super::Variant::Conquest
}

fn random(game: &ColorFight, seat: Seat, rng: &mut Rng) -> Action {
    if can_build_now(game, seat) && rng.chance(1, 4) {
        let n = (0..game.cells().len())
            .filter(|&i| game.plan(seat, &xy_build(game, i)).is_ok())
            .count();
        if let Some(k) = rng.index(n) {
            if let Some(i) = (0..game.cells().len())
                .filter(|&i| game.plan(seat, &xy_build(game, i)).is_ok())
                .nth(k)
            {
                return xy_build(game, i);
            }
        }
    }
    if !idle(game, seat) {
        return Action::Pass;
    }
    let n = attacks(game, seat).count();
    match rng.index(n).and_then(|k| attacks(game, seat).nth(k)) {
        Some((i, _)) => xy_attack(game, i),
        None => Action::Pass,
    }
}

fn expander(game: &ColorFight, seat: Seat) -> Action {
    if !idle(game, seat) {
        return Action::Pass;
    }
    let me = seat_tag(seat);
    let best = attacks(game, seat)
        .filter(|&(i, _)| game.cell(i).is_some_and(|c| c.owner != me))
        .min_by_key(|&(i, t)| (t, i));
    match best {
        Some((i, _)) => xy_attack(game, i),
        None => Action::Pass,
    }
}

/// Where a new base is safest: deep inside its land and away from its other bases, so a base that
/// falls has somewhere to retreat and one raid cannot take two.
fn base_site(game: &ColorFight, seat: Seat) -> Option<usize> {
    let me = seat_tag(seat);
    let bases: heapless::Vec<(i32, i32), 4> = game
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, c)| c.owner == me && c.building != Building::None)
        .map(|(i, _)| game.coords(i))
        .take(4)
        .collect();
    (0..game.cells().len())
        .filter(|&i| game.plan(seat, &xy_build(game, i)).is_ok())
        .filter(|&i| game.cell(i).is_some_and(|c| c.kind == Kind::Normal))
        .max_by_key(|&i| {
            let (x, y) = game.coords(i);
            let far = bases
                .iter()
                .map(|&(bx, by)| manhattan((bx, by), (x, y)))
                .min()
                .unwrap_or(8)
                .min(8);
            let inner = game.own_neighbours(seat, i) as i32;
            (
                inner.saturating_mul(4).saturating_add(far),
                usize::MAX.saturating_sub(i),
            )
        })
}

fn strategist(game: &ColorFight, seat: Seat) -> Action {
    let Some(p) = game.player(seat) else {
        return Action::Pass;
    };
    if can_build_now(game, seat) {
        if let Some(i) = base_site(game, seat) {
            return xy_build(game, i);
        }
    }
    if !idle(game, seat) {
        return Action::Pass;
    }
    let me = seat_tag(seat);
    let tick = game.tick();
    let energy_low = p.energy < super::Num::const_from_int(80);
    // Once a defeat is final, a player with a single base is one attack from ranking last: hunt
    // those bases, and walk towards them.
    let hunting = tick.saturating_add(600) >= super::RESPAWN_TICKS;
    let mut prey: heapless::Vec<(i32, i32), { super::MAX_PLAYERS }> = heapless::Vec::new();
    if hunting {
        for (i, c) in game.cells().iter().enumerate() {
            let lone = c
                .owner_seat()
                .and_then(|o| game.player(o))
                .is_some_and(|o| o.all_bases() == 1);
            if c.owner != me && c.building == Building::Base && lone {
                let _ = prey.push(game.coords(i));
            }
        }
    }
    let value = |i: usize| -> u32 {
        let Some(c) = game.cell(i) else { return 0 };
        if c.owner == me {
            // Defend a base the enemy touches once its defence has decayed.
            let threatened = game
                .neighbours(i)
                .iter()
                .flatten()
                .any(|&n| game.cell(n).is_some_and(|d| d.owner != 0 && d.owner != me));
            let old = tick.saturating_sub(c.taken_at) > 450;
            return if c.building != Building::None && threatened && old {
                60
            } else {
                0
            };
        }
        let kind: u32 = match c.kind {
            Kind::Gold => 30,
            Kind::Energy if energy_low => 20,
            Kind::Energy => 4,
            Kind::Normal => 3,
        };
        let base = if c.building == Building::Base && c.owner != 0 {
            40
        } else {
            0
        };
        let (x, y) = game.coords(i);
        let near = prey
            .iter()
            .map(|&(px, py)| manhattan((px, py), (x, y)))
            .min()
            .map_or(0, |d| {
                if d == 0 {
                    300
                } else {
                    10u32.saturating_sub(d as u32).saturating_mul(4)
                }
            });
        kind.saturating_add(base).saturating_add(near)
    };
    let best = attacks(game, seat)
        .map(|(i, t)| {
            (
                value(i)
                    .saturating_mul(1000)
                    .checked_div(t.max(1))
                    .unwrap_or(0),
                i,
            )
        })
        .filter(|&(v, _)| v > 0)
        .max_by_key(|&(v, i)| (v, usize::MAX.saturating_sub(i)));
    match best {
        Some((_, i)) => xy_attack(game, i),
        None => Action::Pass,
    }
}

/// Manhattan distance between two cells (coordinates are small: it never saturates).
fn manhattan((ax, ay): (i32, i32), (bx, by): (i32, i32)) -> i32 {
    i32::try_from(ax.abs_diff(bx).saturating_add(ay.abs_diff(by))).unwrap_or(i32::MAX)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::colorfight::Params;

    #[test]
    fn bots_only_send_legal_actions() {
        for name in ["random", "expander", "strategist"] {
            let mut game = ColorFight::new(&Params::default(), 5).unwrap();
            let mut bots: [ColorFightBot; 4] =
                core::array::from_fn(|s| ColorFightBot::new(name, s as u64).unwrap());
            for _ in 0..600 {
                let actions: [Action; 4] = core::array::from_fn(|s| bots[s].act(&game.view(s)));
                for (s, a) in actions.iter().enumerate() {
                    assert!(game.plan(s, a).is_ok(), "{name} sent {a:?}");
                }
                game.step(&actions);
            }
            assert!(
                game.players().iter().any(|p| p.cells > 5),
                "{name} never expanded"
            );
        }
    }

    #[test]
    fn unknown_bot_name_is_none() {
        assert!(ColorFightBot::new("nobody", 0).is_none());
    }
}
