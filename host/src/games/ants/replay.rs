//! The replay the official `playgame.py` writes, built from a game as it is played.

use crate::game::Plan;
use crate::process::Fault;
use crate::record::{LineWriter, Step};
use arena_core::games::ants::{Ants, Order, OrderError};
use arena_core::{Seat, SeatSet};
use serde_json::{json, Value};

/// What a match needs beyond the params: the engine seed as given (Python's are signed).
#[derive(Clone, Debug, Default)]
pub struct Extra {
    pub engine_seed: i64,
}

/// Where a replayed thing stood and when it was there: the first four fields an ant's and a
/// food's record share in the replay (`row, col, start turn, end turn`).
#[derive(Clone, Debug, PartialEq)]
struct Span {
    row: i32,
    col: i32,
    start: u32,
    /// The turn it went; `None` while it is still there (the replay writes the turn after the last).
    end: Option<u32>,
}

impl Span {
    fn new(cols: usize, sq: u16, start: u16) -> Self {
        let (row, col) = rc(cols, sq);
        Span {
            row,
            col,
            start: start.into(),
            end: None,
        }
    }

    /// The replay's fields, for a game at `turn`.
    fn fields(&self, turn: u32) -> Vec<Value> {
        let end = self.end.unwrap_or(turn + 1);
        vec![
            self.row.into(),
            self.col.into(),
            self.start.into(),
            end.into(),
        ]
    }
}

#[derive(Clone, Debug, PartialEq)]
struct AntRecord {
    at: Span,
    owner: u8,
    moves: String,
}

#[derive(Clone, Debug, PartialEq)]
struct FoodRecord {
    at: Span,
    owner: Option<u8>,
}

/// Cosmetic and engine-level fields of a replay that the game does not know.
#[derive(Clone, Debug, Default)]
pub struct ReplayMeta {
    pub engine_seed: i64,
    pub player_names: Vec<String>,
    pub game_id: u64,
    pub location: String,
}

/// Follows a game and keeps what the replay needs.
#[derive(Clone, Debug)]
pub struct Recorder {
    ants: Vec<AntRecord>,
    food: Vec<FoodRecord>,
    scores: Vec<Vec<i32>>,
    hive: Vec<Vec<u32>>,
    status: Vec<String>,
    player_turns: Vec<u32>,
    cols: usize,
}

impl Recorder {
    /// Starts from a freshly set-up game (turn 0).
    pub fn new(game: &Ants) -> Recorder {
        let n = game.players();
        let mut r = Recorder {
            ants: Vec::new(),
            food: Vec::new(),
            scores: (0..n).map(|p| vec![game.score(p)]).collect(),
            hive: (0..n).map(|p| vec![game.hive_food(p)]).collect(),
            status: vec!["survived".to_string(); n],
            player_turns: vec![0; n],
            cols: game.cols() as usize,
        };
        r.take_new(game);
        r
    }

    fn take_new(&mut self, game: &Ants) {
        let cols = self.cols;
        append_new(
            &mut self.ants,
            game.ants(),
            |a| a.id,
            |a| AntRecord {
                at: Span::new(cols, a.sq, a.spawn_turn),
                owner: a.owner,
                moves: String::new(),
            },
        );
        append_new(
            &mut self.food,
            game.food(),
            |f| f.id,
            |f| FoodRecord {
                at: Span::new(cols, f.sq, f.start_turn),
                owner: None,
            },
        );
    }

    /// Records the turn just played. `alive_before[p]`: was `p` alive when the turn started (its
    /// bot was sent the state)?
    pub fn after_turn(&mut self, game: &Ants, alive_before: &[bool]) {
        let turn = game.current_turn() as u32;
        for a in game.ants() {
            if a.order != 0 {
                if let Some(rec) = self.ants.get_mut(a.id as usize) {
                    rec.moves.push(a.order as char);
                }
            }
        }
        for d in game.killed() {
            if let Some(rec) = self.ants.get_mut(d.id as usize) {
                rec.moves.push(d.order as char);
                rec.at.end = Some(turn);
            }
        }
        for g in game.food_gone() {
            if let Some(rec) = self.food.get_mut(g.id as usize) {
                rec.at.end = Some(turn);
                rec.owner = g.owner;
            }
        }
        self.take_new(game);
        for p in 0..game.players() {
            let alive = game.is_alive(p);
            // The history is written before the lone survivor's bonus is added.
            let s = game.score(p) - game.bonus().get(p).copied().unwrap_or(0);
            history(&mut self.scores[p], alive, s, turn);
            history(&mut self.hive[p], alive, game.hive_food(p), turn);
            if alive_before.get(p).copied().unwrap_or(false) {
                self.player_turns[p] = turn;
                if !alive && self.status[p] == "survived" {
                    self.status[p] = "eliminated".to_string();
                }
            }
        }
    }

    /// Marks a bot the engine killed this turn (`timeout`, `crashed`...).
    pub fn set_status(&mut self, player: usize, status: &str, turn: u32) {
        if let Some(s) = self.status.get_mut(player) {
            *s = status.to_string();
            self.player_turns[player] = turn;
        }
    }

    pub fn status(&self) -> &[String] {
        &self.status
    }

    pub fn player_turns(&self) -> &[u32] {
        &self.player_turns
    }

    /// The whole replay file (`playgame.py`'s output) once the game is over.
    pub fn replay(&self, game: &Ants, meta: &ReplayMeta) -> Value {
        let turn = game.current_turn() as u32;
        let n = game.players();
        let ants: Vec<Value> = self
            .ants
            .iter()
            .map(|a| {
                let mut v = a.at.fields(turn);
                v.extend([a.owner.into(), a.moves.as_str().into()]);
                Value::Array(v)
            })
            .collect();
        let food: Vec<Value> = self
            .food
            .iter()
            .map(|f| {
                let mut v = f.at.fields(turn);
                v.extend(f.owner.map(Value::from));
                Value::Array(v)
            })
            .collect();
        let cols = game.cols() as usize;
        let hills: Vec<Value> = game
            .hills()
            .iter()
            .map(|h| {
                let (r, c) = (h.sq as usize / cols, h.sq as usize % cols);
                json!([r, c, h.owner, h.end_turn.map_or(turn + 1, |t| t as u32)])
            })
            .collect();
        let mut data = Vec::new();
        for r in 0..game.rows() as usize {
            let mut line = String::new();
            for c in 0..cols {
                let sq = r * cols + c;
                let v = game.square(sq);
                // As the official `get_perspective` + `MAP_RENDER` draw it: an ant on a hill is
                // `owner + 10` ('A'..), an empty hill `square + 20`, which lands on 'I' for land
                // and 'H' for food (an official quirk, kept for identical files).
                let ch = match (v, game.hill_on(sq)) {
                    (0..=9, Some(_)) => (b'A' + v) as char,
                    (0..=9, None) => (b'a' + v) as char,
                    (11, Some(_)) => 'H',
                    (_, Some(_)) => 'I',
                    (11, _) => '*',
                    (12, _) => '%',
                    _ => '.',
                };
                line.push(ch);
            }
            data.push(line);
        }
        let (rate, fturn, start, _) = game.food_params();
        let scores: Vec<i64> = game.scores().iter().map(|&s| s as i64).collect();
        let rank: Vec<u8> = game.ranks()[..n].to_vec();
        let names: Vec<String> = if meta.player_names.len() == n {
            meta.player_names.clone()
        } else {
            (0..n).map(|p| format!("bot{p}")).collect()
        };
        json!({
            "challenge": "ants",
            "game_id": meta.game_id,
            "game_length": turn,
            "location": if meta.location.is_empty() { "localhost" } else { meta.location.as_str() },
            "playernames": names,
            "playerturns": self.player_turns,
            "rank": rank,
            "replayformat": "json",
            "score": scores,
            "status": self.status,
            "replaydata": {
                "revision": 3,
                "players": n,
                "loadtime": game.loadtime(),
                "turntime": game.turntime(),
                "turns": game.turns(),
                "viewradius2": game.viewradius2(),
                "attackradius2": game.attackradius2(),
                "spawnradius2": game.spawnradius2(),
                "engine_seed": meta.engine_seed,
                "player_seed": game.player_seed(),
                "food_rate": rate,
                "food_turn": fturn,
                "food_start": start,
                "map": {"rows": game.rows(), "cols": cols, "data": data},
                "ants": ants,
                "food": food,
                "hills": hills,
                "scores": self.scores,
                "bonus": game.bonus(),
                "hive_history": self.hive,
                "winning_turn": game.winning_turn(),
                "ranking_turn": game.ranking_turn(),
                "cutoff": game.cutoff().map_or("", |c| c.as_str()),
            }
        })
    }
}

/// The replay writer of a match: the history is kept as the match goes, the file written whole
/// at the end (as `playgame.py` writes it).
pub struct ReplayWriter(Option<Recorder>);

impl crate::record::Recorder<Ants> for ReplayWriter {
    fn new(_plan: &Plan<Ants>) -> Self {
        ReplayWriter(None)
    }

    fn begin(&mut self, game: &Ants, _plan: &Plan<Ants>, _out: &mut LineWriter) {
        self.0 = Some(Recorder::new(game));
    }

    fn dropped(&mut self, seat: Seat, turn: u32, fault: &Fault) {
        if let Some(rec) = &mut self.0 {
            let status = match fault {
                Fault::Timeout { .. } => "timeout",
                _ => "crashed",
            };
            rec.set_status(seat, status, turn);
        }
    }

    fn step(&mut self, game: &Ants, step: &Step<'_, Ants>, _out: &mut LineWriter) {
        if let Some(rec) = &mut self.0 {
            let alive: Vec<bool> = (0..game.players())
                .map(|p| step.movers.contains(p))
                .collect();
            rec.after_turn(game, &alive);
        }
    }

    fn end(&mut self, game: &Ants, plan: &Plan<Ants>, out: &mut LineWriter) {
        if let Some(rec) = &self.0 {
            let extra: &Extra = &plan.extra;
            let meta = ReplayMeta {
                engine_seed: extra.engine_seed,
                player_names: plan.names.clone(),
                ..ReplayMeta::default()
            };
            out.text(&rec.replay(game, &meta).to_string());
        }
    }
}

/// Plays one turn on a host game with orders as slices and records it. Returns the refusals as
/// `(player, order index, reason)`.
pub fn play_recorded(
    game: &mut Ants,
    rec: &mut Recorder,
    orders: &[&[Order]],
    kills: SeatSet,
) -> Vec<(usize, usize, OrderError)> {
    let alive: Vec<bool> = (0..game.players()).map(|p| game.is_alive(p)).collect();
    let mut refused = Vec::new();
    game.play_turn(orders, kills, |p, i, why| refused.push((p, i, why)));
    rec.after_turn(game, &alive);
    refused
}

/// A square's row and column on a map `cols` wide.
fn rc(cols: usize, sq: u16) -> (i32, i32) {
    ((sq as usize / cols) as i32, (sq as usize % cols) as i32)
}

/// Appends to `records` one record (`record`) for each item of `items` newer than the last
/// recorded, in the order of their ids: ids are given in order of appearance, so the records'
/// index is the id.
fn append_new<'a, T: 'a, R>(
    records: &mut Vec<R>,
    items: impl IntoIterator<Item = &'a T>,
    id: impl Fn(&T) -> u32,
    record: impl Fn(&T) -> R,
) {
    let known = records.len() as u32;
    let mut new: Vec<&T> = items.into_iter().filter(|t| id(t) >= known).collect();
    new.sort_by_key(|t| id(t));
    records.extend(new.into_iter().map(record));
}

/// Adds `value` to a player's per-turn history: every turn while the player is alive; after that
/// only when it changes, with the gap up to `turn` filled by the last value first.
fn history<T: Copy + Default + PartialEq>(hist: &mut Vec<T>, alive: bool, value: T, turn: u32) {
    if alive {
        hist.push(value);
    } else if hist.last() != Some(&value) {
        let last = hist.last().copied().unwrap_or_default();
        while (hist.len() as u32) < turn {
            hist.push(last);
        }
        hist.push(value);
    }
}
