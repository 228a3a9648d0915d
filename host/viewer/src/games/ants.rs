//! Ants: the replay's params (map included), engine seed and the bots killed while loading; per
//! turn, each seat's orders as the replay's moves imply them, and whether the engine killed the
//! bot that turn (the replay's `status`).

host_json!("../../../src/games/ants/json.rs");

use super::prelude::*;
use arena_core::games::ants::{Ants, AntsMap, AntsParams, Attack, Dir, Draw, Order};
use arena_core::{SeatSet, MAX_SEATS};

/// How an Ants match starts.
#[derive(Clone, Debug)]
pub struct Start {
    pub params: AntsParams,
    pub seed: u64,
    /// Bots the engine killed while loading (turn 0).
    pub killed: SeatSet,
}

/// One seat's part of a turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Part {
    /// The engine killed the bot this turn, with the status the replay gives.
    pub killed: Option<String>,
    pub orders: Vec<Order>,
}

fn put_draw(d: &Draw, w: &mut Writer) {
    match *d {
        Draw::Range(lo, hi) => {
            w.byte(0);
            w.u64(u64::from(lo));
            w.u64(u64::from(hi));
        }
        Draw::Fixed(v) => {
            w.byte(1);
            w.u64(u64::from(v));
        }
    }
}

fn get_draw(r: &mut Reader<'_>) -> Result<Draw, Error> {
    Ok(match r.byte()? {
        0 => Draw::Range(u16_of(r)?, u16_of(r)?),
        1 => Draw::Fixed(u16_of(r)?),
        _ => return Err(error("not a food draw")),
    })
}

fn u16_of(r: &mut Reader<'_>) -> Result<u16, Error> {
    u16::try_from(r.u64()?).map_err(|_| error("a number over 65535"))
}

fn u32_of(r: &mut Reader<'_>) -> Result<u32, Error> {
    u32::try_from(r.u64()?).map_err(|_| error("a number over 2^32"))
}

fn dir_of(b: u8) -> Result<Dir, Error> {
    Dir::ALL
        .into_iter()
        .find(|d| d.letter() == b)
        .ok_or_else(|| error("not a direction"))
}

impl Viewed for Ants {
    type Start = Start;
    type Part = Part;

    fn put_start(s: &Start, w: &mut Writer) {
        let p = &s.params;
        let m = &p.map;
        w.u64(u64::from(m.rows));
        w.u64(u64::from(m.cols));
        w.u64(u64::from(m.players));
        let squares = usize::from(m.rows) * usize::from(m.cols);
        w.bytes
            .extend_from_slice(m.terrain.get(..squares).unwrap_or(&m.terrain[..]));
        w.usize(m.hills.len());
        for &(sq, owner) in &m.hills {
            w.u64(u64::from(sq));
            w.byte(owner);
        }
        w.u64(u64::from(p.turns));
        w.u64(u64::from(p.loadtime));
        w.u64(u64::from(p.turntime));
        w.u64(u64::from(p.viewradius2));
        w.u64(u64::from(p.attackradius2));
        w.u64(u64::from(p.spawnradius2));
        w.byte(match p.attack {
            Attack::Focus => 0,
            Attack::Damage => 1,
        });
        w.i64(p.player_seed);
        for d in [&p.food_rate, &p.food_turn, &p.food_start, &p.food_visible] {
            put_draw(d, w);
        }
        w.u64(u64::from(p.cutoff_turn));
        w.u64(u64::from(p.cutoff_percent.0));
        w.u64(u64::from(p.cutoff_percent.1));
        w.u64(s.seed);
        w.u64(u64::from(s.killed.bits()));
    }

    fn get_start(r: &mut Reader<'_>) -> Result<Start, Error> {
        // The map is rebuilt in place: it is as large as the host build's capacity.
        let mut map: Box<AntsMap> = Box::new(AntsMap {
            rows: u16_of(r)?,
            cols: u16_of(r)?,
            players: u8::try_from(r.u64()?).map_err(|_| error("too many players"))?,
            terrain: [0; arena_core::games::ants::HOST_SQUARES],
            hills: heapless::Vec::new(),
        });
        let squares = usize::from(map.rows) * usize::from(map.cols);
        if squares > map.terrain.len() || usize::from(map.players) > MAX_SEATS {
            return Err(error("the map is over the host build's capacity"));
        }
        for t in map.terrain.iter_mut().take(squares) {
            *t = r.byte()?;
        }
        let hills = r.usize(r.remaining())?;
        for _ in 0..hills {
            let hill = (u16_of(r)?, r.byte()?);
            map.hills
                .push(hill)
                .map_err(|_| error("more hills than the host build holds"))?;
        }
        let turns = u16_of(r)?;
        let mut p = AntsParams::new(*map, turns);
        p.loadtime = u32_of(r)?;
        p.turntime = u32_of(r)?;
        p.viewradius2 = u16_of(r)?;
        p.attackradius2 = u16_of(r)?;
        p.spawnradius2 = u16_of(r)?;
        p.attack = match r.byte()? {
            0 => Attack::Focus,
            1 => Attack::Damage,
            _ => return Err(error("not an attack rule")),
        };
        p.player_seed = r.i64()?;
        p.food_rate = get_draw(r)?;
        p.food_turn = get_draw(r)?;
        p.food_start = get_draw(r)?;
        p.food_visible = get_draw(r)?;
        p.cutoff_turn = u16_of(r)?;
        p.cutoff_percent = (u32_of(r)?, u32_of(r)?);
        let seed = r.u64()?;
        let bits = u16_of(r)?;
        let killed = (0..MAX_SEATS)
            .filter(|&s| bits & (1 << s) != 0)
            .fold(SeatSet::EMPTY, SeatSet::with);
        Ok(Start {
            params: p,
            seed,
            killed,
        })
    }

    fn put_part(part: &Part, w: &mut Writer) {
        match &part.killed {
            None => w.bool(false),
            Some(status) => {
                w.bool(true);
                w.str(status);
            }
        }
        w.usize(part.orders.len());
        for o in &part.orders {
            w.i64(i64::from(o.row));
            w.i64(i64::from(o.col));
            w.byte(o.dir.letter());
        }
    }

    fn get_part(r: &mut Reader<'_>) -> Result<Part, Error> {
        let killed = if r.bool()? { Some(r.str()?) } else { None };
        let n = r.usize(r.remaining())?;
        let mut orders = Vec::with_capacity(n);
        for _ in 0..n {
            orders.push(Order {
                row: r.int()?,
                col: r.int()?,
                dir: dir_of(r.byte()?)?,
            });
        }
        Ok(Part { killed, orders })
    }

    fn begin(s: &Start) -> Result<Box<Self>, Error> {
        let mut game: Box<Ants> = Box::new(Ants::blank());
        game.init(&s.params, s.seed).map_err(setup)?;
        game.kill_at_start(s.killed);
        Ok(game)
    }

    fn play(&mut self, parts: &[Part]) -> Vec<String> {
        let mut faults = Vec::new();
        let mut kills = SeatSet::EMPTY;
        for (seat, p) in parts.iter().enumerate() {
            if let Some(status) = &p.killed {
                kills = kills.with(seat);
                faults.push(format!("seat {seat}: killed by the engine ({status})"));
            }
        }
        let orders: Vec<&[Order]> = parts.iter().map(|p| p.orders.as_slice()).collect();
        self.play_turn(&orders, kills, |seat, i, why| {
            faults.push(format!("seat {seat}: order {i} refused: {}", why.reason()));
        });
        faults
    }

    fn shown_json(&self) -> String {
        json::state_json(self).to_string()
    }

    fn part_json(p: &Part) -> String {
        let lines: Vec<String> = p
            .orders
            .iter()
            .map(|o| format!("o {} {} {}", o.row, o.col, char::from(o.dir.letter())))
            .collect();
        serde_json::json!(lines).to_string()
    }
}
