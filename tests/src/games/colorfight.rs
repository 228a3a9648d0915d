//! ColorFight in the generic suite: small crowded grids (where fights happen within a few hundred
//! ticks) and the full 30 x 30, both variants.

use crate::Suite;
use arena_core::games::colorfight::{
    Action, Building, ColorFight, ColorFightBot, Num, Params, Variant, CAP, MAX_BASES,
};
use arena_core::{Bot, Game, Roster};

impl Suite for ColorFight {
    const TURNS: std::ops::Range<usize> = 0..400;
    const SOAK_SHARE: u64 = 15;
    // The pinned match's digests (see `Suite::PINNED`): a change must be explained in the commit.
    const PINNED: &'static [(u32, u64)] = &[
        (0, 0x7747b0c38110df9f),
        (1, 0xf5bc124239ba48f7),
        (10, 0x6d56eb4ca34e038f),
        (100, 0xbba9caeeca5614e4),
        (300, 0xee12aa4ca08e62b0),
    ];
    const STEP_BYTES: usize = 160;

    fn params() -> Vec<Params> {
        let p = |variant, width, height, players, ticks| Params {
            variant,
            width,
            height,
            players,
            ticks,
            respawn: Default::default(),
        };
        vec![
            p(Variant::Conquest, 6, 6, 4, 300),
            p(Variant::Skirmish, 5, 5, 3, 300),
            p(Variant::Conquest, 8, 8, 8, 250),
            p(Variant::Conquest, 30, 30, 8, 400),
            p(Variant::Skirmish, 8, 3, 8, 200),
            p(Variant::Conquest, 10, 10, 2, 350),
        ]
    }

    fn check(&self, before: &Self) -> Result<(), String> {
        if self.tick() != before.tick() + 1 {
            return Err(format!("tick {} after {}", self.tick(), before.tick()));
        }
        let cap = Num::from_num(CAP);
        let mut owned = 0usize;
        for (s, p) in self.players().iter().enumerate() {
            let me = s as u8 + 1;
            let mine = self.cells().iter().filter(|c| c.owner == me);
            let cells = mine.clone().count();
            owned += cells;
            let gold_mines = mine.clone().filter(|c| c.kind.name() == "gold").count();
            let energy_mines = mine.clone().filter(|c| c.kind.name() == "energy").count();
            let bases = mine
                .clone()
                .filter(|c| c.building == Building::Base)
                .count();
            let building = mine.filter(|c| c.building == Building::Building).count();
            if (
                p.cells as usize,
                p.gold_mines as usize,
                p.energy_mines as usize,
                p.bases as usize,
            ) != (cells, gold_mines, energy_mines, bases)
            {
                return Err(format!(
                    "seat {s}: counts {p:?} but the grid has {cells} cells, {gold_mines} gold, {energy_mines} energy, {bases} bases"
                ));
            }
            if building != usize::from(p.build_cell != u16::MAX) {
                return Err(format!("seat {s}: {building} unfinished bases on the grid"));
            }
            if p.all_bases() > MAX_BASES {
                return Err(format!("seat {s}: {} bases", p.all_bases()));
            }
            if p.gold < Num::ZERO || p.gold > cap || p.energy < Num::ZERO || p.energy > cap {
                return Err(format!("seat {s}: gold {} energy {}", p.gold, p.energy));
            }
            let attacking = self.cells().iter().filter(|c| c.attacker == me).count();
            match p.attacking() {
                None if attacking == 0 => {}
                Some(t) if attacking == 1 => {
                    let c = self.cell(t).ok_or("target off the grid")?;
                    if c.attacker != me || c.done_at != p.busy_until || c.done_at <= self.tick() {
                        return Err(format!(
                            "seat {s}: target {t} is {c:?}, busy until {}",
                            p.busy_until
                        ));
                    }
                }
                other => {
                    return Err(format!(
                        "seat {s}: attacking {other:?} but {attacking} cells name it"
                    ))
                }
            }
            if p.defeated && cells > 0 {
                return Err(format!("seat {s}: defeated with {cells} cells"));
            }
        }
        let total = self.cells().iter().filter(|c| c.owner != 0).count();
        if total != owned {
            return Err(format!("{total} owned cells, players hold {owned}"));
        }
        if self
            .cells()
            .iter()
            .any(|c| c.owner as usize > self.seats() || c.attacker as usize > self.seats())
        {
            return Err("a cell names a seat that does not exist".into());
        }
        Ok(())
    }
}

/// The trace `arena play` would write for a 10 x 10 ColorFight match of `ticks` ticks seeded
/// `seed`, played by four built-in bots (`ColorFight::BOTS` in turn, seat `s` seeded `s`):
/// `tamper` may change each tick's actions before they are played, and `state` says, given the
/// state after a tick, whether that tick's line records it.
pub fn bots_trace(
    ticks: u32,
    seed: u64,
    mut tamper: impl FnMut(&mut [Action]),
    mut state: impl FnMut(&ColorFight) -> bool,
) -> String {
    use arena_host::games::colorfight::trace::{header, line};
    let params = Params {
        width: 10,
        height: 10,
        ticks,
        ..Params::default()
    };
    let mut game = ColorFight::new(&params, seed).unwrap();
    let mut bots: Vec<ColorFightBot> = (0..4)
        .map(|s| ColorFight::bot(ColorFight::BOTS[s % 3], s as u64).unwrap())
        .collect();
    let mut out = vec![header(&game)];
    while !game.is_over() {
        let mut actions: Vec<Action> = (0..4).map(|s| bots[s].act(&game.view(s))).collect();
        tamper(&mut actions);
        let report = game.step(&actions);
        out.push(line(&game, &actions, &report, state(&game)));
    }
    out.join("\n")
}
