//! Race: a throwaway two-seat game that exercises the firmware chain (loop, screens, logs, digests,
//! QEMU checks) until the real games land in arena-core. Not a game of the project: it lives in the
//! examples so that nothing in `core` depends on it.
//!
//! Each turn both seats choose a stride of 0..=3 cells along a 40-cell track; a seeded gust pushes
//! one seat back a cell; a stride of 3 costs a unit of stamina (10 at the start), refused without
//! stamina. First past the line wins, both at once is a draw; after 60 turns the farthest wins.

use arena_core::game::{Bot, Game, Roster, SetupError, StepReport};
use arena_core::{Digest, Outcome, Rng, SeatSet};
use arena_firmware::lineup::{Entry, Lineup, Visit};
use arena_firmware::palette::Palette;
use arena_firmware::screen::{Layout, Screen};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::{PrimitiveStyle, Rectangle};

pub const TRACK: u32 = 40;
pub const LIMIT: u32 = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub stamina: u8,
}

#[derive(Clone, Debug)]
pub struct Race {
    pos: [u32; 2],
    stamina: [u8; 2],
    turn: u32,
    gusts: Rng,
    drawn: u32,
}

impl Game for Race {
    const NAME: &'static str = "race";
    type Params = Params;
    type Action = u8;

    fn new(params: &Params, seed: u64) -> Result<Self, SetupError> {
        Ok(Race {
            pos: [0; 2],
            stamina: [params.stamina; 2],
            turn: 0,
            gusts: Rng::stream(seed, b"gusts"),
            drawn: 0,
        })
    }
    fn seats(&self) -> usize {
        2
    }
    fn turn(&self) -> u32 {
        self.turn
    }
    fn to_move(&self) -> SeatSet {
        if self.outcome().is_some() {
            SeatSet::EMPTY
        } else {
            SeatSet::all(2)
        }
    }
    fn step(&mut self, actions: &[u8]) -> StepReport {
        let mut report = StepReport::default();
        if self.outcome().is_some() {
            return report;
        }
        for seat in 0..2 {
            let stride = actions.get(seat).copied().unwrap_or(0);
            let ok = match stride {
                0..=2 => true,
                3 if self.stamina[seat] > 0 => {
                    self.stamina[seat] -= 1;
                    true
                }
                _ => false,
            };
            if ok {
                self.pos[seat] += stride as u32;
            } else {
                report.refuse(seat);
            }
        }
        let gust = self.gusts.below(4) as usize;
        self.drawn += 1;
        if let Some(p) = self.pos.get_mut(gust) {
            *p = p.saturating_sub(1);
        }
        self.turn += 1;
        report
    }
    fn outcome(&self) -> Option<Outcome> {
        let done = self.pos.iter().any(|&p| p >= TRACK) || self.turn >= LIMIT;
        done.then(|| {
            let score = [self.pos[0].min(TRACK) as i64, self.pos[1].min(TRACK) as i64];
            Outcome::by_score(
                2,
                &score,
                if self.turn >= LIMIT {
                    "time"
                } else {
                    "finish line"
                },
            )
        })
    }
    fn hash_into(&self, d: &mut Digest) {
        d.u32(self.pos[0]).u32(self.pos[1]);
        d.u8(self.stamina[0]).u8(self.stamina[1]);
        d.u32(self.turn).u32(self.drawn);
    }
}

pub enum RaceBot {
    /// Always 3 while stamina lasts, then 2.
    Sprinter,
    /// A random legal stride.
    Random(Rng),
}

impl Bot<Race> for RaceBot {
    fn act(&mut self, game: &Race, seat: usize) -> u8 {
        match self {
            RaceBot::Sprinter => {
                if game.stamina[seat] > 0 {
                    3
                } else {
                    2
                }
            }
            RaceBot::Random(rng) => {
                let top = if game.stamina[seat] > 0 { 4 } else { 3 };
                rng.below(top) as u8
            }
        }
    }
}

impl Roster for Race {
    type Bot = RaceBot;
    const BOTS: &'static [&'static str] = &["sprinter", "random"];
    fn bot(name: &str, seed: u64) -> Option<RaceBot> {
        match name {
            "sprinter" => Some(RaceBot::Sprinter),
            "random" => Some(RaceBot::Random(Rng::new(seed))),
            _ => None,
        }
    }
}

impl Screen for Race {
    const SHORT: &'static str = "Race";
    fn draw_body<D>(&self, target: &mut D, layout: &Layout) -> Result<(), D::Error>
    where
        D: DrawTarget,
        D::Color: Palette,
    {
        // One lane per seat, the track as a row of cells, the runner as a block.
        let (cell, origin) = layout.grid(TRACK + 2, 6);
        for seat in 0..2 {
            let y = origin.y + (1 + 3 * seat as i32) * cell as i32;
            let lane = Rectangle::new(
                Point::new(origin.x, y),
                Size::new(cell * (TRACK + 1), cell * 2),
            );
            lane.into_styled(PrimitiveStyle::with_stroke(D::Color::dim(), 1))
                .draw(target)?;
            let x = origin.x + (self.pos[seat].min(TRACK) * cell) as i32;
            let runner = Rectangle::new(Point::new(x, y), Size::new(cell * 2, cell * 2));
            let style = if D::Color::DEPTH == 1 && seat == 1 {
                PrimitiveStyle::with_stroke(D::Color::seat(seat), 1)
            } else {
                PrimitiveStyle::with_fill(D::Color::seat(seat))
            };
            runner.into_styled(style).draw(target)?;
            for s in 0..self.stamina[seat] as i32 {
                Rectangle::new(
                    Point::new(origin.x + s * 2 * cell as i32, y + 2 * cell as i32),
                    Size::new(cell, 1),
                )
                .into_styled(PrimitiveStyle::with_fill(D::Color::text()))
                .draw(target)?;
            }
        }
        Ok(())
    }
}

/// The rotation while Race is the only game: two configurations, bots swapped.
pub struct RaceLineup;

const ENTRIES: [(Entry, Params); 3] = [
    (
        Entry {
            config: "stamina10",
            bots: &["sprinter", "random"],
        },
        Params { stamina: 10 },
    ),
    (
        Entry {
            config: "stamina10",
            bots: &["random", "sprinter"],
        },
        Params { stamina: 10 },
    ),
    (
        Entry {
            config: "stamina4",
            bots: &["random", "random"],
        },
        Params { stamina: 4 },
    ),
];

impl Lineup for RaceLineup {
    const LEN: usize = ENTRIES.len();
    fn visit<V: Visit>(index: usize, visitor: V) -> V::Out {
        let (entry, params) = &ENTRIES[index % ENTRIES.len()];
        visitor.visit::<Race>(entry, params)
    }
}
