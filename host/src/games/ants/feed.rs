//! What each bot receives: the official protocol text, with per-bot fog of war and owner numbers.
//!
//! The official engine keeps, per bot, the squares it has ever seen (to send each water square
//! once) and a renumbering of players in the order the bot first saw them (it is always 0). Both
//! are updated after every turn from the squares the bot's ants see (viewradius2, own square
//! included), and the renumbering also when a hill, ant or dead ant of a new player is listed.

use super::replay::{play_recorded, Recorder};
use super::verify::{orders_from_replay, params_from_replay};
use crate::verify::Difference;
use arena_core::games::ants::{Ants, Order};
use arena_core::SeatSet;
use serde_json::Value;
use std::fmt::Write as _;

/// The memory one bot's messages need.
#[derive(Clone, Debug)]
pub struct SeatFeed {
    player: usize,
    players: usize,
    rows: usize,
    cols: usize,
    view: Vec<(i32, i32)>,
    vision: Vec<bool>,
    revealed: Vec<bool>,
    /// `switch[owner]`: the number this bot knows `owner` by.
    switch: Vec<Option<usize>>,
    new_water: Vec<(usize, usize)>,
    /// The turn the view was last updated after.
    seen: Option<u16>,
}

impl SeatFeed {
    /// Starts from a freshly set-up game, as `init_vision` does.
    pub fn new(game: &Ants, player: usize) -> SeatFeed {
        let n = game.players();
        let (rows, cols) = (game.rows() as usize, game.cols() as usize);
        let r2 = game.viewradius2() as i32;
        let mx = (0..).take_while(|m: &i32| m * m <= r2).last().unwrap_or(0);
        let mut view = Vec::new();
        for dr in -mx..=mx {
            for dc in -mx..=mx {
                if dr * dr + dc * dc <= r2 {
                    view.push((dr, dc));
                }
            }
        }
        let mut switch = vec![None; n];
        if let Some(s) = switch.get_mut(player) {
            *s = Some(0);
        }
        let mut feed = SeatFeed {
            player,
            players: n,
            rows,
            cols,
            view,
            vision: vec![false; rows * cols],
            revealed: vec![false; rows * cols],
            switch,
            new_water: Vec::new(),
            seen: None,
        };
        feed.update(game);
        feed
    }

    fn assign(&mut self, owner: usize) -> usize {
        if let Some(&Some(id)) = self.switch.get(owner) {
            return id;
        }
        let id = self.switch.iter().filter(|x| x.is_some()).count();
        if let Some(s) = self.switch.get_mut(owner) {
            *s = Some(id);
        }
        id
    }

    /// `update_vision` + `update_revealed` after the turn `game` has just played (once per turn).
    pub fn update(&mut self, game: &Ants) {
        if self.seen == Some(game.current_turn()) {
            return;
        }
        self.seen = Some(game.current_turn());
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        self.vision.iter_mut().for_each(|x| *x = false);
        for ant in game
            .ants()
            .iter()
            .filter(|a| a.owner as usize == self.player)
        {
            let (r, c) = (ant.sq as i32 / cols, ant.sq as i32 % cols);
            for &(dr, dc) in &self.view {
                let sq = (r + dr).rem_euclid(rows) * cols + (c + dc).rem_euclid(cols);
                self.vision[sq as usize] = true;
            }
        }
        self.new_water.clear();
        for sq in 0..self.rows * self.cols {
            if !self.vision[sq] {
                continue;
            }
            let value = game.square(sq);
            if value < 10 {
                self.assign(value as usize);
            }
            if !self.revealed[sq] {
                self.revealed[sq] = true;
                if game.is_water(sq) {
                    self.new_water.push((sq / self.cols, sq % self.cols));
                }
            }
        }
    }

    /// The turn-0 block, `ready` included.
    pub fn start_text(game: &Ants) -> String {
        format!(
            "turn 0\nloadtime {}\nturntime {}\nrows {}\ncols {}\nturns {}\nviewradius2 {}\nattackradius2 {}\nspawnradius2 {}\nplayer_seed {}\nready\n",
            game.loadtime(),
            game.turntime(),
            game.rows(),
            game.cols(),
            game.turns(),
            game.viewradius2(),
            game.attackradius2(),
            game.spawnradius2(),
            game.player_seed()
        )
    }

    /// `render_changes(player)`: new water, then hills, ants, food and the dead in view.
    fn changes(&mut self, game: &Ants) -> String {
        let cols = self.cols;
        let rc = |sq: u16| (sq as usize / cols, sq as usize % cols);
        let mut out = String::new();
        for &(r, c) in &self.new_water {
            let _ = writeln!(out, "w {r} {c}");
        }
        // Row, column and owner of each, in order.
        let hills = owned(
            (game.hills().iter())
                .filter(|h| h.killed_by.is_none())
                .map(|h| (h.sq, h.owner)),
            rc,
        );
        let ants = owned(game.ants().iter().map(|a| (a.sq, a.owner)), rc);
        let mut food: Vec<(usize, usize)> = game.food().iter().map(|f| rc(f.sq)).collect();
        food.sort_unstable();
        let dead = owned(game.killed().iter().map(|a| (a.sq, a.owner)), rc);
        for (kind, list) in [('h', &hills), ('a', &ants)] {
            for &(r, c, o) in list {
                if self.vision[r * cols + c] {
                    let id = self.assign(o);
                    let _ = writeln!(out, "{kind} {r} {c} {id}");
                }
            }
        }
        for &(r, c) in &food {
            if self.vision[r * cols + c] {
                let _ = writeln!(out, "f {r} {c}");
            }
        }
        for &(r, c, o) in &dead {
            if self.vision[r * cols + c] || o == self.player {
                let id = self.assign(o);
                let _ = writeln!(out, "d {r} {c} {id}");
            }
        }
        out
    }

    /// The state sent at the start of turn `game.current_turn() + 1`.
    pub fn turn_text(&mut self, game: &Ants) -> String {
        self.update(game);
        format!(
            "turn {}\n{}go\n",
            game.current_turn() + 1,
            self.changes(game)
        )
    }

    /// `order_for_player`: this bot's numbering of a per-player list (`None` for unseen players).
    fn reorder<T: ToString>(&self, data: &[T]) -> String {
        (0..self.players)
            .map(|i| match self.switch.iter().position(|&s| s == Some(i)) {
                Some(real) => data
                    .get(real)
                    .map_or("None".to_string(), ToString::to_string),
                None => "None".to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The `end` message: the scores, statuses and turns given, then the last view.
    pub fn end_text(
        &mut self,
        game: &Ants,
        scores: &[i32],
        status: &[String],
        turns: &[u32],
    ) -> String {
        self.update(game);
        let head = format!(
            "end\nplayers {}\nscore {}\nstatus {}\nplayerturns {}\n",
            self.players,
            self.reorder(scores),
            self.reorder(status),
            self.reorder(turns)
        );
        format!("{head}{}go\n", self.changes(game))
    }
}

/// The scores an `end` message gives: before the lone survivor's bonus while the game goes on,
/// with it once the game is over.
pub fn end_scores(game: &Ants, over: bool) -> Vec<i32> {
    (0..game.players())
        .map(|p| {
            let bonus = if over {
                0
            } else {
                game.bonus().get(p).copied().unwrap_or(0)
            };
            game.score(p) - bonus
        })
        .collect()
}

/// Every byte each bot received in an official game, re-played from its replay and map: one
/// string per bot (the official `botN.input` logs).
pub fn bot_input(replay: &str, map: &str) -> Result<Vec<String>, Difference> {
    let replay: Value = serde_json::from_str(replay)
        .map_err(|e| Difference::unreadable("an Ants replay", format!("not JSON: {e}")))?;
    let (params, seed) = params_from_replay(&replay, map)?;
    let orders = orders_from_replay(&replay, params.map.rows as i32, params.map.cols as i32)?;
    let mut game: Box<Ants> = Box::new(Ants::blank());
    game.init(&params, seed)
        .map_err(|e| Difference::unreadable("a valid game", e))?;
    let n = game.players();
    let mut feeds: Vec<SeatFeed> = (0..n).map(|p| SeatFeed::new(&game, p)).collect();
    let mut rec = Recorder::new(&game);
    let mut logs = vec![String::new(); n];
    for (p, log) in logs.iter_mut().enumerate() {
        if game.is_alive(p) {
            log.push_str(&SeatFeed::start_text(&game));
        }
    }
    let empty: Vec<Vec<Order>> = Vec::new();
    while !game.is_finished() {
        let alive: Vec<bool> = (0..n).map(|p| game.is_alive(p)).collect();
        for p in (0..n).filter(|&p| alive[p]) {
            logs[p].push_str(&feeds[p].turn_text(&game));
        }
        let t = game.current_turn() as usize + 1;
        let these = orders.get(t).unwrap_or(&empty);
        let slices: Vec<&[Order]> = (0..n)
            .map(|p| these.get(p).map_or(&[][..], |v| v.as_slice()))
            .collect();
        play_recorded(&mut game, &mut rec, &slices, SeatSet::EMPTY);
        // Bots eliminated this turn hear it now, before the lone survivor's bonus, one after the
        // other, each seeing the statuses of those before it.
        let before_bonus = end_scores(&game, false);
        let mut status: Vec<String> = rec.status().to_vec();
        for p in 0..n {
            if alive[p] && !game.is_alive(p) && status[p] == "eliminated" {
                status[p] = "survived".into();
            }
        }
        for p in (0..n).filter(|&p| alive[p] && !game.is_alive(p)) {
            status[p] = rec.status()[p].clone();
            let text = feeds[p].end_text(&game, &before_bonus, &status, rec.player_turns());
            logs[p].push_str(&text);
        }
    }
    let scores = end_scores(&game, true);
    for p in (0..n).filter(|&p| game.is_alive(p)) {
        let text = feeds[p].end_text(&game, &scores, rec.status(), rec.player_turns());
        logs[p].push_str(&text);
    }
    Ok(logs)
}

/// The row, column and owner of each `(square, owner)` of `list`, in order.
fn owned(
    list: impl Iterator<Item = (u16, u8)>,
    rc: impl Fn(u16) -> (usize, usize),
) -> Vec<(usize, usize, usize)> {
    let mut v: Vec<(usize, usize, usize)> = list
        .map(|(sq, owner)| {
            let (r, c) = rc(sq);
            (r, c, owner as usize)
        })
        .collect();
    v.sort_unstable();
    v
}
