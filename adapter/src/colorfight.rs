//! ColorFight: the JSON-lines request (`{"tick","seat","variant","state","extra"}`) rebuilt into
//! the state, the bot's action written as the canonical action JSON.
//!
//! The canonical state (`rules/colorfight.md`) holds the cells and each player's purse, counts,
//! defeat and `busyUntil`; `extra` the game's length and respawn mode and what each player's
//! build cool-down, unfinished base, defeat tick and best score need. The rest of a player is
//! read off the cells: its attack (the cell it attacks), its mines and finished bases, its
//! unfinished base. So the rebuilt state is the engine's in every field but the seed and the
//! random streams (`ColorFight::rebuild`), which no protocol sends.

use crate::{int, item, Error};
use arena_core::games::colorfight::{
    Action, Building, Cell, ColorFight, Kind, Num, Params, Player, Respawn, Variant,
};
use arena_core::{Bot, Game, Open, Seat};
use serde_json::Value;
use std::io::{BufRead, Write};

/// Rebuilds the state from each request, in one place (the state is 12 KB).
pub struct Reader {
    game: Box<ColorFight>,
    cells: Vec<Cell>,
    players: Vec<Player>,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            game: Box::new(ColorFight::blank()),
            cells: Vec::new(),
            players: Vec::new(),
        }
    }
}

/// A fixed-point quantity from its JSON number (exact: `I32F32` values up to 100 are exact in an
/// `f64`, and so is their product by 2^32).
fn num(v: &Value, key: &'static str, line: u64) -> Result<Num, Error> {
    let f = v
        .get(key)
        .and_then(Value::as_f64)
        .filter(|f| f.is_finite() && f.abs() < 1e9)
        .ok_or(Error::Missing { line, field: key })?;
    Ok(Num::from_bits((f * 4_294_967_296.0).round() as i64))
}

fn boolean(v: &Value, key: &'static str, line: u64) -> Result<bool, Error> {
    v.get(key)
        .and_then(Value::as_bool)
        .ok_or(Error::Missing { line, field: key })
}

fn cell(v: &Value, line: u64) -> Result<Cell, Error> {
    let f = "cells";
    let name = |i: usize| v.get(i).and_then(Value::as_str);
    let kind = match name(1) {
        Some("normal") => Kind::Normal,
        Some("gold") => Kind::Gold,
        Some("energy") => Kind::Energy,
        _ => return Err(Error::Missing { line, field: f }),
    };
    let building = match name(2) {
        Some("none") => Building::None,
        Some("base") => Building::Base,
        Some("building") => Building::Building,
        _ => return Err(Error::Missing { line, field: f }),
    };
    Ok(Cell {
        owner: item(v, 0, f, line)?,
        kind,
        building,
        taken_at: item(v, 3, f, line)?,
        attacker: item(v, 4, f, line)?,
        done_at: item(v, 5, f, line)?,
    })
}

impl Reader {
    /// A reader that has read nothing yet.
    pub fn new() -> Self {
        Reader::default()
    }

    /// The seat and the state a request (one line, parsed) describes; `line` for the errors.
    pub fn read(&mut self, msg: &Value, line: u64) -> Result<(Seat, &ColorFight), Error> {
        let bad = |what| Error::Bad { line, what };
        let missing = |field| Error::Missing { line, field };
        let seat: Seat = int(msg, "seat", line)?;
        let state = msg.get("state").ok_or(missing("state"))?;
        let extra = msg.get("extra").ok_or(missing("extra"))?;
        let variant = msg
            .get("variant")
            .and_then(Value::as_str)
            .and_then(Variant::from_name)
            .ok_or(missing("variant"))?;
        let respawn = extra
            .get("respawn")
            .and_then(Value::as_str)
            .and_then(Respawn::from_name)
            .ok_or(missing("respawn"))?;
        let tick: u32 = int(state, "tick", line)?;
        let players = state
            .get("players")
            .and_then(Value::as_array)
            .ok_or(missing("players"))?;
        let more = extra
            .get("players")
            .and_then(Value::as_array)
            .ok_or(missing("extra.players"))?;
        if more.len() != players.len() {
            return Err(bad("extra.players is not one entry a player"));
        }
        let params = Params {
            variant,
            width: int(state, "width", line)?,
            height: int(state, "height", line)?,
            players: u8::try_from(players.len()).map_err(|_| bad("too many players"))?,
            ticks: int(extra, "ticks", line)?,
            respawn,
        };
        self.cells.clear();
        for c in state
            .get("cells")
            .and_then(Value::as_array)
            .ok_or(missing("cells"))?
        {
            self.cells.push(cell(c, line)?);
        }
        self.players.clear();
        for (i, (p, x)) in players.iter().zip(more).enumerate() {
            let tag = u8::try_from(i + 1).map_err(|_| bad("too many players"))?;
            let mut player = Player {
                gold: num(p, "gold", line)?,
                energy: num(p, "energy", line)?,
                cells: int(p, "cells", line)?,
                gold_mines: 0,
                energy_mines: 0,
                bases: 0,
                target: u16::MAX,
                busy_until: int(p, "busyUntil", line)?,
                build_cell: u16::MAX,
                build_done: int(x, "buildDone", line)?,
                next_build: int(x, "nextBuild", line)?,
                defeated: boolean(p, "defeated", line)?,
                defeated_at: int(x, "defeatedAt", line)?,
                best: int(x, "best", line)?,
            };
            // What the cells say of the player.
            for (idx, c) in self.cells.iter().enumerate() {
                let idx = u16::try_from(idx).map_err(|_| bad("too many cells"))?;
                if c.attacker == tag {
                    player.target = idx;
                }
                if c.owner != tag {
                    continue;
                }
                match c.kind {
                    Kind::Gold => player.gold_mines = player.gold_mines.saturating_add(1),
                    Kind::Energy => player.energy_mines = player.energy_mines.saturating_add(1),
                    Kind::Normal => {}
                }
                match c.building {
                    Building::Base => player.bases = player.bases.saturating_add(1),
                    Building::Building => player.build_cell = idx,
                    Building::None => {}
                }
            }
            self.players.push(player);
        }
        self.game
            .rebuild(&params, tick, &self.cells, &self.players)
            .map_err(|_| bad("a grid or players the rules cannot hold"))?;
        if seat >= self.game.seats() {
            return Err(bad("seat is not a player"));
        }
        Ok((seat, &self.game))
    }
}

/// The canonical action JSON (`null` for a pass).
pub fn action_text(a: &Action) -> String {
    match *a {
        Action::Pass => "null".into(),
        Action::Attack { x, y } => format!("{{\"attack\":[{x},{y}]}}"),
        Action::Build { x, y } => format!("{{\"build\":[{x},{y}]}}"),
        Action::Join => "{\"join\":true}".into(),
        Action::Malformed => "\"malformed\"".into(),
    }
}

/// Plays `bot` over the JSON-lines protocol: a request a line on `input`, the action a line on
/// `output`, until the input ends. Returns the answers written.
pub fn play<B, R, W>(bot: &mut B, input: R, output: W) -> Result<u64, Error>
where
    B: Bot<ColorFight>,
    R: BufRead,
    W: Write,
{
    let mut reader = Reader::new();
    crate::json_lines(input, output, |msg, line| {
        let (seat, game) = reader.read(msg, line)?;
        Ok(action_text(&bot.act(&Open::new(game, seat))))
    })
}
