//! Tower Defense: the JSON-lines request rebuilt into the state, the bot's action written as the
//! controller's bot API writes it.
//!
//! The request carries the canonical state of `rules/tower-defense.md` (`players`/`boards` in Duel,
//! `invader`/`defender`/`board` in Siege): every field of the state but the gold put into each
//! tower (`TowerView::invested`, which a destroy refunds half of). In Siege it is
//! `10 * (level + 1)` (every build and upgrade costs 10). In Duel the [`Reader`] follows it: a
//! tower that appears cost its owner's build price of the turn before, a tower one level up its
//! upgrade price of the turn before (one action a seat a turn, and prices change only by those).
//! It is exact when every turn's request is read, as the engine sends one every turn; after a gap
//! in the turns a tower first seen is taken at the build price and upgrades of the turn before.

use crate::{int, item, Error};
use arena_core::games::tower_defense::siege::TOWER_COST;
use arena_core::games::tower_defense::{
    Action, Attacker, Defender, InvaderView, Player, TowerDefense, TowerKind, TowerView, Variant,
};
use arena_core::{Bot, Game, Open, Seat};
use serde_json::Value;
use std::io::{BufRead, Write};

/// Rebuilds the state from each request, following what the requests leave out.
#[derive(Default)]
pub struct Reader {
    /// The state rebuilt from the last request.
    last: Option<Box<TowerDefense>>,
}

impl Reader {
    /// A reader that has read nothing yet.
    pub fn new() -> Self {
        Reader::default()
    }

    /// The seat and the state a request (one line, parsed) describes; `line` for the errors.
    pub fn read(&mut self, msg: &Value, line: u64) -> Result<(Seat, &TowerDefense), Error> {
        let seat: Seat = int(msg, "seat", line)?;
        let state = msg.get("state").ok_or(Error::Missing {
            line,
            field: "state",
        })?;
        let turn: u32 = int(state, "turn", line)?;
        let variant = if state.get("players").is_some() {
            Variant::Duel
        } else {
            Variant::Siege
        };
        if seat > 1 {
            return Err(Error::Bad {
                line,
                what: "seat is not 0 or 1",
            });
        }
        let mut game = Box::new(TowerDefense::rebuilt(variant, turn));
        let bad = |what| Error::Bad { line, what };
        match variant {
            Variant::Duel => {
                let players = state.get("players").and_then(Value::as_array);
                let Some([a, b]) = players.map(Vec::as_slice) else {
                    return Err(Error::Missing {
                        line,
                        field: "players",
                    });
                };
                game.set_players([player(a, line)?, player(b, line)?]);
                let boards = state.get("boards").and_then(Value::as_array);
                let Some(boards @ [_, _]) = boards.map(Vec::as_slice) else {
                    return Err(Error::Missing {
                        line,
                        field: "boards",
                    });
                };
                // Invested gold: followed from the last state (see the module's docs).
                let before = self.last.as_deref().filter(|g| {
                    g.variant() == Variant::Duel && g.turn().checked_add(1) == Some(turn)
                });
                let fallback = self
                    .last
                    .as_deref()
                    .filter(|g| g.variant() == Variant::Duel);
                for (b, board) in boards.iter().enumerate() {
                    // Board `b`'s towers are player `1 - b`'s.
                    let owner = 1 - b;
                    let prices = before.or(fallback).unwrap_or(&game);
                    let (build, upgrade) = (prices.build_cost(owner), prices.upgrade_cost(owner));
                    read_board(&mut game, b, board, line, |t| {
                        let was = before.and_then(|g| g.tower(b, usize::from(t.pos)));
                        let paid = match was {
                            Some(w) if w.kind == t.kind && w.level == t.level => {
                                u64::from(w.invested)
                            }
                            Some(w)
                                if w.kind == t.kind && w.level.checked_add(1) == Some(t.level) =>
                            {
                                u64::from(w.invested).saturating_add(upgrade)
                            }
                            _ => {
                                let ups = u64::from(t.level.saturating_sub(1));
                                build.saturating_add(ups.saturating_mul(upgrade))
                            }
                        };
                        u32::try_from(paid).unwrap_or(u32::MAX)
                    })?;
                }
            }
            Variant::Siege => {
                let inv = state
                    .get("invader")
                    .ok_or(bad("Siege state without invader"))?;
                let def = state
                    .get("defender")
                    .ok_or(bad("Siege state without defender"))?;
                game.set_siege(
                    Attacker {
                        gold: int(inv, "gold", line)?,
                        income: int(inv, "income", line)?,
                        boost_max: int(inv, "boostMax", line)?,
                    },
                    Defender {
                        gold: int(def, "gold", line)?,
                        life: int(def, "life", line)?,
                    },
                );
                let board = state.get("board").ok_or(Error::Missing {
                    line,
                    field: "board",
                })?;
                read_board(&mut game, 0, board, line, |t| {
                    let paid = TOWER_COST.saturating_mul(u64::from(t.level).saturating_add(1));
                    u32::try_from(paid).unwrap_or(u32::MAX)
                })?;
            }
        }
        let game = self.last.insert(game);
        Ok((seat, game))
    }
}

fn player(v: &Value, line: u64) -> Result<Player, Error> {
    Ok(Player {
        gold: int(v, "gold", line)?,
        life: int(v, "life", line)?,
        income: int(v, "income", line)?,
        boost_max: int(v, "boostMax", line)?,
        inflation: int(v, "inflation", line)?,
    })
}

/// Board `b`'s invaders and towers into `game`, each tower's investment from `invested`.
fn read_board(
    game: &mut TowerDefense,
    b: usize,
    board: &Value,
    line: u64,
    mut invested: impl FnMut(&TowerView) -> u32,
) -> Result<(), Error> {
    let list = |key: &'static str| {
        board
            .get(key)
            .and_then(Value::as_array)
            .ok_or(Error::Missing { line, field: key })
    };
    for v in list("invaders")? {
        let f = "invaders";
        let inv = InvaderView {
            pos: item(v, 0, f, line)?,
            hp: item(v, 1, f, line)?,
            maxhp: item(v, 2, f, line)?,
            defense: item(v, 3, f, line)?,
            stun_res: item(v, 4, f, line)?,
            stun_time: item(v, 5, f, line)?,
        };
        if !game.put_invader(b, &inv) {
            return Err(Error::Bad {
                line,
                what: "an invader the board cannot hold",
            });
        }
    }
    for t in list("towers")? {
        let f = "towers";
        let kind = t
            .get(1)
            .and_then(Value::as_str)
            .and_then(TowerKind::from_name)
            .ok_or(Error::Missing { line, field: f })?;
        let mut tower = TowerView {
            pos: item(t, 0, f, line)?,
            kind,
            level: item(t, 2, f, line)?,
            power: item(t, 3, f, line)?,
            range: item(t, 4, f, line)?,
            cooldown: item(t, 5, f, line)?,
            invested: 0,
        };
        tower.invested = invested(&tower);
        if !game.put_tower(b, &tower) {
            return Err(Error::Bad {
                line,
                what: "a tower the board cannot hold (taken space, or a level its power and range do not make)",
            });
        }
    }
    Ok(())
}

/// The action as the controller's bot API writes it (`null` for a pass; an action no bot can
/// mean, [`Action::Unknown`] or [`Action::Malformed`], as an unknown action, which the engine
/// refuses).
pub fn action_text(a: &Action) -> String {
    match *a {
        Action::Pass => "null".into(),
        Action::Spawn {
            hp,
            defense,
            stun_res,
        } => format!(
            "{{\"action\":\"spawn\",\"hp\":{hp},\"defense\":{defense},\"stunRes\":{stun_res}}}"
        ),
        Action::Build { kind, pos } => match kind {
            Some(k) => format!(
                "{{\"action\":\"build\",\"type\":\"{}\",\"pos\":{pos}}}",
                k.name()
            ),
            None => format!("{{\"action\":\"build\",\"type\":null,\"pos\":{pos}}}"),
        },
        Action::Upgrade { pos, stat } => match stat {
            Some(s) => format!(
                "{{\"action\":\"upgrade\",\"pos\":{pos},\"stat\":\"{}\"}}",
                s.name()
            ),
            None => format!("{{\"action\":\"upgrade\",\"pos\":{pos},\"stat\":null}}"),
        },
        Action::Destroy { pos } => format!("{{\"action\":\"destroy\",\"pos\":{pos}}}"),
        Action::Unknown | Action::Malformed(_) => "{\"action\":\"unknown\"}".into(),
    }
}

/// Plays `bot` over the JSON-lines protocol: a request a line on `input`, the action a line on
/// `output`, until the input ends. Returns the answers written.
pub fn play<B, R, W>(bot: &mut B, input: R, output: W) -> Result<u64, Error>
where
    B: Bot<TowerDefense>,
    R: BufRead,
    W: Write,
{
    let mut reader = Reader::new();
    crate::json_lines(input, output, |msg, line| {
        let (seat, game) = reader.read(msg, line)?;
        Ok(action_text(&bot.act(&Open::new(game, seat))))
    })
}
