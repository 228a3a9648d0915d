//! The match behind `arena serve colorfight`: the core game, who sits where (tokens, names,
//! built-in bots), the requests waiting for the next tick, and what the server's JSON shows that
//! the core does not keep (the last attacker of a cell, when its attack started, when a base was
//! started, when each cell last changed). No network here: [`super::api`] reads requests and the
//! clock thread calls [`Table::step`] every 100 ms.

use super::super::trace;
use crate::record::{Every, LineWriter};
use arena_core::games::colorfight::{
    Action, Building, Cell, ColorFight, ColorFightBot, Player, Refusal, Variant, MAX_PLAYERS,
    RESPAWN_TICKS,
};
use arena_core::{Bot, Game, Seat};
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::oneshot;

/// Requests a seat may have waiting for the next ticks (one is taken per tick); more are refused
/// at once, as the server refused a player in its cool-down.
pub const QUEUE: usize = 4;

/// The reason a report gives for a request refused because [`QUEUE`] were already waiting.
pub const QUEUE_FULL: &str = "too many requests waiting";

/// Seconds since the Unix epoch, the server's clock.
pub fn now_unix() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// A 32-character token nobody can guess (the server's was 24 random bytes in URL-safe base64).
fn new_token() -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(32);
    while out.len() < 32 {
        // A fresh randomly keyed SipHash per draw: the standard library's own randomness.
        let mut bits = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        for _ in 0..10 {
            out.push(ABC[(bits & 63) as usize] as char);
            bits >>= 6;
        }
    }
    out.truncate(32);
    out
}

/// The body of a refused action: the server's error code and message.
pub fn error(code: u32, msg: &str) -> Value {
    json!({"err_code": code, "err_msg": msg})
}

/// The server's error for each refusal of the rules.
pub fn refusal_error(r: Refusal) -> Value {
    match r {
        Refusal::Defeated => error(21, "Invalid player"),
        Refusal::Malformed | Refusal::OutOfGrid => error(1, "Invalid cell position"),
        Refusal::Busy => error(3, "You are in CD time!"),
        Refusal::BeingTaken => error(2, "This cell is being taken."),
        Refusal::NotAdjacent => error(
            1,
            "Cell position invalid or it's not adjacent to your cell.",
        ),
        Refusal::NotOwn => error(1, "Invalid cell"),
        Refusal::HasBase => error(6, "This cell is already a base."),
        Refusal::TooPoor => error(5, "Not enough gold!"),
        Refusal::BaseLimit => error(8, "You have reached the base number limit"),
        Refusal::CoolDown => error(7, "You are in building cd"),
        // Builds are off in Skirmish: the server answered success and did nothing.
        Refusal::NoBuildInSkirmish => json!({"err_code": 0}),
        Refusal::CannotRejoin => error(4, "Join time is ended"),
    }
}

/// A request waiting for a tick: the action, the name a join gives, and where the answer goes.
pub struct Queued {
    /// What the seat asked for ([`Action::Join`] for a defeated seat's join).
    pub action: Action,
    /// The name a join gives the seat; empty for any other action.
    pub name: String,
    /// Where the answer's body goes when the tick comes (or the request is refused).
    pub reply: oneshot::Sender<Value>,
}

/// Who plays a seat.
pub enum Driver {
    /// An HTTP client; `claimed` once one joined.
    Client {
        /// Whether a client has joined and holds the seat.
        claimed: bool,
    },
    /// A built-in bot, asked for its action every tick.
    Bot(ColorFightBot),
}

/// One seat of the match: who plays it, how a client proves it is that seat, what waits for its
/// tick, and what the report counts.
pub struct SeatInfo {
    /// The seat's name: the bot's, the name its client joined with, or `(free seat N)`.
    pub name: String,
    /// Who plays it.
    pub driver: Driver,
    /// The token a client acts with; `None` before it joins and once it is defeated (the server
    /// cleared it).
    pub token: Option<String>,
    /// Requests waiting for the next ticks, one taken per tick, [`QUEUE`] at most.
    pub queue: VecDeque<Queued>,
    /// Actions the rules refused, requests refused before reaching them, both by reason (as
    /// `arena play` reports them), and joins.
    pub refused: u32,
    /// Requests refused before reaching the rules (their seat had [`QUEUE`] waiting).
    pub early: u32,
    /// Refusals by reason, those of the rules and [`QUEUE_FULL`] alike.
    pub refused_by: BTreeMap<&'static str, u32>,
    /// How many times a client joined as this seat (more than once: it came back after a defeat).
    pub joins: u32,
}

/// What the server's cells show beyond the core's: the last attacker (kept after its attack, as
/// the server kept it), when that attack started and when it finished, when the base on the cell
/// was started, and the tick the cell last changed (for `timeAfter`).
#[derive(Clone, Copy, Debug, Default)]
struct Track {
    attacker: u8,
    attack_at: Option<u32>,
    finish: Option<u32>,
    build_at: Option<u32>,
    changed: u32,
}

/// Where the match is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Phase {
    /// Waiting for clients; the clock has not started.
    Lobby,
    /// The clock runs: tick `T` is at `start + T / 10` s (Unix time), `since` on this machine.
    Running {
        /// Unix time of tick 0.
        start: f64,
        /// The same moment on this machine's monotonic clock, which the ticks are timed by.
        since: Instant,
    },
    /// The game is over: the clock has stopped.
    Over {
        /// Unix time of tick 0.
        start: f64,
        /// When it ended, on this machine's monotonic clock.
        at: Instant,
    },
}

/// How a join went.
pub enum Joined {
    /// The answer, now: the token and uid, or the server's error.
    Now(Value),
    /// A defeated seat comes back at the next tick: the answer comes then.
    Later(oneshot::Receiver<Value>),
}

/// The match the server plays: the game, its seats, where the clock is, and what the server's JSON
/// shows beyond the core's state.
pub struct Table {
    /// The core game.
    pub game: Box<ColorFight>,
    /// The seats, clients' first: seat `s` is uid `s + 1` to clients.
    pub seats: Vec<SeatInfo>,
    /// Where the match is.
    pub phase: Phase,
    tracks: Vec<Track>,
    /// The tick each seat's last attack finished (its `cd_time` once idle).
    cd: Vec<u32>,
    trace: LineWriter,
    state_every: Every,
    /// The lobby's join deadline (Unix time), if any.
    pub lobby_deadline: Option<f64>,
    /// The game's id in the server's JSON: drawn from the seed, so one seed gives one id.
    pub game_id: u32,
    /// The whole board's `/getgameinfo` body as last written, and the tick it shows: every client
    /// polls it, and it is the same for all of them until the next tick.
    pub full_info: Option<(u32, bytes::Bytes)>,
}

impl Table {
    /// A match on `game`: `clients` seats for HTTP clients first, then one per built-in bot.
    pub fn new(
        game: Box<ColorFight>,
        clients: usize,
        bots: Vec<(String, ColorFightBot)>,
        trace: LineWriter,
        state_every: u32,
    ) -> Table {
        let seat = |name: String, driver: Driver| SeatInfo {
            name,
            driver,
            token: None,
            queue: VecDeque::new(),
            refused: 0,
            early: 0,
            refused_by: BTreeMap::new(),
            joins: 0,
        };
        let mut seats: Vec<SeatInfo> = (0..clients)
            .map(|s| {
                seat(
                    format!("(free seat {})", s + 1),
                    Driver::Client { claimed: false },
                )
            })
            .collect();
        seats.extend(
            bots.into_iter()
                .map(|(name, bot)| seat(name, Driver::Bot(bot))),
        );
        let mut tracks = vec![Track::default(); game.cells().len()];
        // A start cell is attacked and taken by its owner at once, as the server's start was.
        for (t, c) in tracks.iter_mut().zip(game.cells()) {
            if c.owner != 0 {
                *t = Track {
                    attacker: c.owner,
                    attack_at: Some(c.taken_at),
                    finish: Some(c.taken_at),
                    ..Track::default()
                };
            }
        }
        let game_id = (arena_core::rng::bot_seed(game.seed(), 99) & 0x3fff_ffff) as u32;
        let n = seats.len();
        Table {
            game,
            seats,
            phase: Phase::Lobby,
            tracks,
            cd: vec![0; n],
            trace,
            state_every: Every::new(state_every),
            lobby_deadline: None,
            game_id,
            full_info: None,
        }
    }

    /// Unix time of the game's tick 0 (in the lobby: now, as the clock would start now).
    pub fn start(&self) -> f64 {
        match self.phase {
            Phase::Lobby => now_unix(),
            Phase::Running { start, .. } | Phase::Over { start, .. } => start,
        }
    }

    /// Unix time of tick `tick` of a game whose tick 0 was at `start`: ten ticks a second.
    pub fn time_of(&self, start: f64, tick: u32) -> f64 {
        start + f64::from(tick) / 10.0
    }

    /// Whether the game is over (the clock has stopped).
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// Client seats nobody has claimed yet.
    fn free_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.driver, Driver::Client { claimed: false }))
            .map(|(i, _)| i)
    }

    /// Starts the clock if every client seat is taken, or if the lobby's deadline has passed.
    pub fn maybe_start(&mut self) -> bool {
        if self.phase != Phase::Lobby {
            return false;
        }
        let full = self.free_seats().next().is_none();
        let late = self.lobby_deadline.is_some_and(|d| now_unix() >= d);
        if full || late {
            self.phase = Phase::Running {
                start: now_unix(),
                since: Instant::now(),
            };
            self.trace.text(&trace::header(&self.game));
            true
        } else {
            false
        }
    }

    /// The seat of a valid token.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.token.as_deref() == Some(token))
    }

    /// Whether joins are still open: in the lobby, and during the rules' respawn window.
    fn join_open(&self) -> bool {
        match self.phase {
            Phase::Lobby => true,
            Phase::Running { .. } => self.game.tick() < RESPAWN_TICKS,
            Phase::Over { .. } => false,
        }
    }

    fn claim(&mut self, seat: Seat, name: String) -> Value {
        // The seat's name shows in `/getgameinfo` from now, before the next tick.
        self.full_info = None;
        let token = new_token();
        if let Some(s) = self.seats.get_mut(seat) {
            s.driver = Driver::Client { claimed: true };
            s.name = name;
            s.token = Some(token.clone());
            s.joins += 1;
        }
        json!({"token": token, "uid": seat + 1})
    }

    /// `/joingame`: the first free client seat (its start cell is there since tick 0); while the
    /// game runs, a defeated client seat (preferably one of the same name) comes back at the next
    /// tick, as a defeated client joined the server again (rules, decision 4).
    pub fn join(&mut self, name: String) -> Joined {
        if self.is_over() {
            return Joined::Now(error(4, "Game is ended"));
        }
        if !self.join_open() {
            return Joined::Now(error(4, "Join time is ended"));
        }
        let free = self
            .free_seats()
            .find(|&s| self.game.player(s).is_some_and(|p| !p.defeated));
        if let Some(seat) = free {
            let body = self.claim(seat, name);
            self.maybe_start();
            return Joined::Now(body);
        }
        if self.phase == Phase::Lobby {
            return Joined::Now(error(10, "No seat available to start"));
        }
        let rejoinable = |s: &(Seat, &SeatInfo)| {
            matches!(s.1.driver, Driver::Client { .. })
                && s.1.queue.iter().all(|q| q.action != Action::Join)
                && self.game.player(s.0).is_some_and(|p| p.defeated)
                && self.game.variant() == Variant::Conquest
        };
        let defeated: Vec<Seat> = self
            .seats
            .iter()
            .enumerate()
            .filter(rejoinable)
            .map(|(i, _)| i)
            .collect();
        let Some(seat) = defeated
            .iter()
            .copied()
            .find(|&s| self.seats[s].name == name)
            .or(defeated.first().copied())
        else {
            return Joined::Now(error(10, "No seat available to start"));
        };
        let (tx, rx) = oneshot::channel();
        let s = &mut self.seats[seat];
        // Its old token is gone (the server cleared a defeated player's); its queue is empty of
        // joins, and anything else in it is refused when its tick comes.
        s.token = None;
        s.queue.push_back(Queued {
            action: Action::Join,
            name,
            reply: tx,
        });
        Joined::Later(rx)
    }

    /// `/checktoken`: the name and uid of a valid token.
    pub fn check_token(&self, token: &str) -> Option<Value> {
        let seat = self.seat_of(token)?;
        Some(json!({"name": self.seats[seat].name, "uid": seat + 1}))
    }

    /// `/attack` or `/buildbase` by a valid token: the action waits for its tick (or is refused
    /// at once when the seat already has [`QUEUE`] requests waiting).
    pub fn act(&mut self, seat: Seat, action: Action) -> Result<oneshot::Receiver<Value>, Value> {
        let Some(s) = self.seats.get_mut(seat) else {
            return Err(error(21, "Invalid player"));
        };
        if s.queue.len() >= QUEUE {
            s.early += 1;
            *s.refused_by.entry(QUEUE_FULL).or_default() += 1;
            return Err(match action {
                Action::Build { .. } => error(7, "You are in building cd"),
                _ => error(3, "You are in CD time!"),
            });
        }
        let (tx, rx) = oneshot::channel();
        s.queue.push_back(Queued {
            action,
            name: String::new(),
            reply: tx,
        });
        Ok(rx)
    }

    /// One tick: every built-in bot's move and every client's first waiting request, the rules'
    /// step, the trace line, the answers.
    pub fn step(&mut self) {
        if !matches!(self.phase, Phase::Running { .. }) {
            return;
        }
        let n = self.game.seats();
        let tick = self.game.tick();
        let movers = self.game.to_move();
        let mut actions = vec![Action::Pass; n];
        let mut taken: Vec<(Seat, Queued)> = Vec::new();
        for (seat, info) in self.seats.iter_mut().enumerate().take(n) {
            match &mut info.driver {
                Driver::Bot(bot) => {
                    if movers.contains(seat) {
                        actions[seat] = bot.act(&self.game.view(seat));
                    }
                }
                Driver::Client { .. } => {
                    let Some(front) = info.queue.front() else {
                        continue;
                    };
                    if front.action == Action::Join {
                        let defeated = self.game.player(seat).is_some_and(|p| p.defeated);
                        let window =
                            self.game.variant() == Variant::Conquest && tick < RESPAWN_TICKS;
                        if defeated && window && !movers.contains(seat) {
                            // Defeated at this very tick: it may come back from the next.
                            continue;
                        }
                        if let Some(q) = info.queue.pop_front() {
                            if defeated && window {
                                actions[seat] = Action::Join;
                                taken.push((seat, q));
                            } else {
                                let _ = q.reply.send(error(4, "Join time is ended"));
                            }
                        }
                    } else if let Some(q) = info.queue.pop_front() {
                        actions[seat] = q.action;
                        taken.push((seat, q));
                    }
                }
            }
        }
        let before_cells: Vec<Cell> = self.game.cells().to_vec();
        let before: Vec<Player> = self.game.players().to_vec();
        let mut why = [None; MAX_PLAYERS];
        let report = self.game.step_explained(&actions, &mut why);
        self.track(tick, &actions, &why, &before_cells, &before);
        let every = self.state_every.due(&*self.game);
        self.trace.text(&trace::explained(
            &self.game,
            &actions,
            &report,
            &why.map(|w| w.map(Refusal::reason)),
            every,
        ));
        let stepped = super::super::stepped(report, &why);
        for (seat, s) in self.seats.iter_mut().enumerate() {
            let refused = u32::from(report.refused.get(seat).copied().unwrap_or(0));
            s.refused += refused;
            crate::play::file_reasons(&mut s.refused_by, &stepped, seat, refused);
        }
        for (seat, q) in taken {
            let body = match q.action {
                Action::Join => {
                    if self.game.player(seat).is_some_and(|p| !p.defeated) {
                        self.claim(seat, q.name)
                    } else {
                        error(10, "No cell available to start")
                    }
                }
                _ if before.get(seat).is_some_and(|p| p.defeated) => error(21, "Invalid player"),
                _ => match why.get(seat).copied().flatten() {
                    None => json!({"err_code": 0}),
                    Some(r) => refusal_error(r),
                },
            };
            let _ = q.reply.send(body);
        }
        // The server cleared a defeated player's token.
        for (seat, s) in self.seats.iter_mut().enumerate() {
            let now = self.game.player(seat).is_some_and(|p| p.defeated);
            let was = before.get(seat).is_some_and(|p| p.defeated);
            if now && !was {
                s.token = None;
            }
        }
        if self.game.is_over() {
            if let Phase::Running { start, .. } = self.phase {
                self.phase = Phase::Over {
                    start,
                    at: Instant::now(),
                };
            }
            for s in self.seats.iter_mut() {
                for q in s.queue.drain(..) {
                    let _ = q.reply.send(error(4, "Game is ended"));
                }
            }
        }
    }

    /// What the server's tables would now hold beyond the core's state.
    fn track(
        &mut self,
        tick: u32,
        actions: &[Action],
        why: &[Option<Refusal>; MAX_PLAYERS],
        before_cells: &[Cell],
        before: &[Player],
    ) {
        let after = self.game.tick();
        for ((t, b), a) in self
            .tracks
            .iter_mut()
            .zip(before_cells)
            .zip(self.game.cells())
        {
            if b != a {
                t.changed = after;
            }
            if a.building == Building::None {
                t.build_at = None;
            }
        }
        for (seat, action) in actions.iter().enumerate() {
            let accepted = why.get(seat).is_some_and(Option::is_none)
                && before.get(seat).is_some_and(|p| !p.defeated);
            let (x, y, attack) = match *action {
                Action::Attack { x, y } if accepted => (x, y, true),
                Action::Build { x, y } if accepted => (x, y, false),
                _ => continue,
            };
            let Some(i) = self.game.index(x, y) else {
                continue;
            };
            let (Some(c), Some(t)) = (self.game.cells().get(i), self.tracks.get_mut(i)) else {
                continue;
            };
            let tag = (seat + 1) as u8;
            t.changed = after;
            if attack {
                let finish = if c.attacker == tag {
                    c.done_at
                } else {
                    c.taken_at
                };
                *t = Track {
                    attacker: tag,
                    attack_at: Some(tick),
                    finish: Some(finish),
                    ..*t
                };
                if let Some(cd) = self.cd.get_mut(seat) {
                    *cd = finish;
                }
            } else {
                t.build_at = Some(tick);
            }
        }
        for seat in 0..self.game.seats() {
            let tag = (seat + 1) as u8;
            let was = before.get(seat).is_some_and(|p| p.defeated);
            let now = self.game.player(seat).is_some_and(|p| p.defeated);
            if now && !was {
                // The server let go of every cell the defeated player attacked.
                for t in self.tracks.iter_mut().filter(|t| t.attacker == tag) {
                    t.attacker = 0;
                    t.changed = after;
                }
            }
            if was && !now {
                // A new start: taken at once by its owner.
                for (t, c) in self.tracks.iter_mut().zip(self.game.cells()) {
                    if c.owner == tag {
                        *t = Track {
                            attacker: tag,
                            attack_at: Some(c.taken_at),
                            finish: Some(c.taken_at),
                            build_at: None,
                            changed: after,
                        };
                    }
                }
                if let Some(cd) = self.cd.get_mut(seat) {
                    *cd = 0;
                }
            }
        }
    }

    /// `/getgameinfo` (see [`Snapshot::info`]).
    pub fn game_info(&self, time_after: f64) -> Value {
        self.snapshot().info(time_after)
    }

    /// `/getgameinfo`'s body for `time_after`, if it is the whole board and already written for
    /// this tick (while the clock runs: after the end the time in it moves on, rules decision 10).
    pub fn cached_info(&self, time_after: f64) -> Option<bytes::Bytes> {
        let (tick, body) = self.full_info.as_ref()?;
        let running = matches!(self.phase, Phase::Running { .. });
        (time_after <= 0.0 && running && *tick == self.game.tick()).then(|| body.clone())
    }

    /// Seconds since the game ended (0 while it has not): `/getgameinfo`'s `time` runs on by
    /// this much past `end_time`, as the server's wall clock did (rules decision 10).
    pub fn after_end(&self) -> f64 {
        match self.phase {
            Phase::Over { at, .. } => at.elapsed().as_secs_f64(),
            Phase::Lobby | Phase::Running { .. } => 0.0,
        }
    }

    /// What `/getgameinfo` shows, copied: the answer is written from it once the table's lock is
    /// let go, so that the clock never waits for a JSON of every cell to be built.
    pub fn snapshot(&self) -> Snapshot {
        let start = self.start();
        let g = &self.game;
        let join_end = match self.phase {
            Phase::Lobby => self.lobby_deadline.unwrap_or(0.0),
            _ => self.time_of(start, RESPAWN_TICKS.min(g.params().ticks)),
        };
        Snapshot {
            game: (*self.game).clone(),
            tracks: self.tracks.clone(),
            cd: self.cd.clone(),
            names: self.seats.iter().map(|s| s.name.clone()).collect(),
            start,
            join_end,
            game_id: self.game_id,
            lobby: self.phase == Phase::Lobby,
            over: self.is_over(),
            after_end: self.after_end(),
        }
    }

    /// The trace's write error, if any.
    pub fn write_error(&self) -> Option<String> {
        self.trace.error.clone()
    }
}

/// The part of a [`Table`] `/getgameinfo` shows, at one moment.
pub struct Snapshot {
    game: ColorFight,
    tracks: Vec<Track>,
    cd: Vec<u32>,
    names: Vec<String>,
    start: f64,
    join_end: f64,
    game_id: u32,
    lobby: bool,
    /// The game is over: the body is not kept for others, its time moving on.
    over: bool,
    /// Seconds since the game ended ([`Table::after_end`]).
    after_end: f64,
}

impl Snapshot {
    /// The tick under which [`Snapshot::info`]'s body for `time_after` may be kept for others
    /// (see [`Table::cached_info`]): the whole board, once the clock runs (in the lobby its time
    /// is "now").
    pub fn cache_key(&self, time_after: f64) -> Option<u32> {
        (time_after <= 0.0 && !self.lobby && !self.over).then(|| self.game.tick())
    }

    /// `/getgameinfo`: `info`, `users` and the cells changed since `time_after - 0.5` s (every
    /// cell for 0), as the server answered.
    pub fn info(&self, time_after: f64) -> Value {
        let start = self.start;
        let at = |t: u32| start + f64::from(t) / 10.0;
        let g = &self.game;
        let tick = g.tick();
        let join_end = self.join_end;
        let info = json!({
            "width": g.width(),
            "height": g.height(),
            // After the end the server's clock ran on (rules decision 10): clients that wait for
            // `time > end_time`, the original library's examples among them, see it pass.
            "time": at(tick) + self.after_end,
            "end_time": at(g.params().ticks),
            "join_end_time": join_end,
            "game_id": self.game_id,
            "game_version": "full",
            "plan_start_time": 0.0,
        });
        let users: Vec<Value> = g
            .players()
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                let cd = if p.busy_until > tick {
                    p.busy_until
                } else {
                    self.cd.get(seat).copied().unwrap_or(0)
                };
                let (cells, gold, energy) = if p.defeated {
                    (p.best, 0.0, 0.0)
                } else {
                    (p.score(), p.gold.to_num::<f64>(), p.energy.to_num::<f64>())
                };
                json!({
                    "name": self.names.get(seat).map_or("", String::as_str),
                    "id": seat + 1,
                    "cd_time": at(cd),
                    "build_cd_time": at(p.next_build),
                    "cell_num": cells,
                    "base_num": if p.defeated { 0 } else { p.bases },
                    "energy_cell_num": p.energy_mines,
                    "gold_cell_num": p.gold_mines,
                    "energy": energy,
                    "gold": gold,
                    "dead_time": if p.defeated { at(p.defeated_at) } else { 0.0 },
                })
            })
            .collect();
        let since = time_after - 0.5;
        let cells: Vec<Value> = g
            .cells()
            .iter()
            .zip(&self.tracks)
            .enumerate()
            .filter(|(_, (_, t))| at(t.changed) >= since)
            .map(|(i, (c, t))| {
                let (x, y) = g.coords(i);
                let taking = c.attacker != 0;
                let take_time = if taking {
                    -1.0
                } else if c.owner == 0 {
                    2.0
                } else {
                    let x = f64::from(tick.saturating_sub(c.taken_at)) / 10.0;
                    if x <= 0.0 {
                        33.0
                    } else {
                        30.0 * (-x / 30.0).exp2() + 3.0
                    }
                };
                json!({
                    "o": c.owner,
                    "a": if taking { c.attacker } else { t.attacker },
                    "c": u8::from(taking),
                    "x": x,
                    "y": y,
                    "ot": at(c.taken_at),
                    "at": t.attack_at.map_or(0.0, at),
                    "aty": "normal",
                    "t": take_time,
                    "f": if taking { at(c.done_at) } else { t.finish.map_or(0.0, at) },
                    "ct": c.kind.name(),
                    "b": if c.building == Building::None { "empty" } else { "base" },
                    "bt": t.build_at.map_or(0.0, at),
                    "bf": c.building != Building::Building,
                })
            })
            .collect();
        json!({"info": info, "users": users, "cells": cells})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::games::colorfight::{Params, Respawn};
    use arena_core::Roster;

    fn table(params: Params, clients: usize, bots: &[&str]) -> Table {
        let game = Box::new(ColorFight::new(&params, 5).unwrap());
        let bots = bots
            .iter()
            .enumerate()
            .map(|(i, b)| (b.to_string(), ColorFight::bot(b, i as u64).unwrap()))
            .collect();
        Table::new(game, clients, bots, LineWriter::create(None).unwrap(), 1)
    }

    fn small(variant: Variant) -> Params {
        Params {
            variant,
            width: 4,
            height: 4,
            players: 2,
            ticks: 3_000,
            respawn: Respawn::OnJoin,
        }
    }

    /// Joins `name`, which is answered at once.
    fn joined(t: &mut Table, name: &str) -> Value {
        let Joined::Now(body) = t.join(name.into()) else {
            panic!("{name} was not answered at once")
        };
        body
    }

    fn token(v: &Value) -> String {
        v["token"].as_str().unwrap().to_string()
    }

    #[test]
    fn the_clock_starts_when_every_client_seat_is_taken() {
        let mut t = table(small(Variant::Conquest), 2, &[]);
        let a = joined(&mut t, "a");
        assert_eq!(a["uid"], 1);
        assert_eq!(t.phase, Phase::Lobby);
        t.step();
        assert_eq!(t.game.tick(), 0, "no tick in the lobby");
        let b = joined(&mut t, "b");
        assert_eq!(b["uid"], 2);
        assert!(matches!(t.phase, Phase::Running { .. }));
        let c = joined(&mut t, "c");
        assert_eq!(c["err_code"], 10, "{c}");
        assert_eq!(t.check_token(&token(&a)).unwrap()["name"], "a");
        assert!(t.check_token("nope").is_none());
        assert_ne!(token(&a), token(&b));
    }

    #[test]
    fn actions_are_answered_at_their_tick_with_the_servers_codes() {
        let mut t = table(small(Variant::Conquest), 1, &["expander"]);
        let a = joined(&mut t, "me");
        let seat = t.seat_of(&token(&a)).unwrap();
        let mine = t.game.cells().iter().position(|c| c.owner == 1).unwrap();
        let (x, y) = t.game.coords(mine);
        let far = (0..16)
            .find(|&i| {
                let (cx, cy) = t.game.coords(i);
                (cx - x).abs() + (cy - y).abs() > 1
            })
            .unwrap();
        let (fx, fy) = t.game.coords(far);
        let mut far_rx = t.act(seat, Action::Attack { x: fx, y: fy }).unwrap();
        let mut poor_rx = t.act(seat, Action::Build { x, y }).unwrap();
        assert!(far_rx.try_recv().is_err(), "not before its tick");
        t.step();
        assert_eq!(far_rx.try_recv().unwrap()["err_code"], 1);
        t.step();
        assert_eq!(poor_rx.try_recv().unwrap()["err_code"], 5);
        // A full queue is refused at once.
        let rxs: Vec<_> = (0..QUEUE)
            .map(|_| t.act(seat, Action::Attack { x: fx, y: fy }).unwrap())
            .collect();
        assert_eq!(
            t.act(seat, Action::Attack { x: fx, y: fy }).unwrap_err()["err_code"],
            3
        );
        drop(rxs);
        // The incremental form: only cells changed in the last half second and since.
        let info = t.game_info(0.0);
        assert_eq!(info["cells"].as_array().unwrap().len(), 16);
        let now = info["info"]["time"].as_f64().unwrap();
        for _ in 0..20 {
            t.step();
        }
        let later = t.game_info(now + 2.0);
        let changed = later["cells"].as_array().unwrap().len();
        assert!(changed < 16, "{changed} cells");
        assert_eq!(later["users"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn a_defeated_client_rejoins_on_the_same_seat_with_a_new_token() {
        // The client never plays; the expander takes its base, then it joins again.
        let mut t = table(small(Variant::Conquest), 1, &["expander"]);
        let a = joined(&mut t, "me");
        let old = token(&a);
        let mut steps = 0;
        while !t.game.player(0).unwrap().defeated {
            t.step();
            steps += 1;
            assert!(steps < 2_900, "never defeated");
        }
        assert!(t.seat_of(&old).is_none(), "the token dies with the player");
        let dead = &t.game_info(0.0)["users"][0];
        assert!(dead["dead_time"].as_f64().unwrap() > 0.0);
        t.step();
        assert!(t.game.player(0).unwrap().defeated, "no respawn by itself");
        let Joined::Later(mut rx) = t.join("me".into()) else {
            panic!("a rejoin waits for its tick")
        };
        t.step();
        let body = rx.try_recv().unwrap();
        assert_eq!(body["uid"], 1, "{body}");
        assert_ne!(token(&body), old);
        assert!(!t.game.player(0).unwrap().defeated);
        assert_eq!(t.game.player(0).unwrap().cells, 1);
        assert_eq!(t.game_info(0.0)["users"][0]["dead_time"], 0.0);
    }

    #[test]
    fn the_whole_board_is_kept_for_its_tick_only() {
        let mut t = table(small(Variant::Conquest), 2, &[]);
        let _ = joined(&mut t, "a");
        // In the lobby its time is "now": nothing is kept.
        assert_eq!(t.snapshot().cache_key(0.0), None);
        let _ = joined(&mut t, "b");
        let snapshot = t.snapshot();
        assert_eq!(snapshot.cache_key(1e9), None, "changed cells only");
        let tick = snapshot.cache_key(0.0).unwrap();
        let body = bytes::Bytes::from(snapshot.info(0.0).to_string());
        t.full_info = Some((tick, body.clone()));
        assert_eq!(t.cached_info(0.0), Some(body.clone()));
        assert_eq!(t.cached_info(-1e300), Some(body.clone()));
        assert_eq!(t.cached_info(5.0), None);
        t.step();
        assert_eq!(t.cached_info(0.0), None, "a tick later it is stale");
        t.full_info = Some((t.game.tick(), body));
        t.claim(1, "renamed".into());
        assert_eq!(t.cached_info(0.0), None, "a name changed");
    }

    #[test]
    fn skirmish_builds_answer_success_and_joins_close() {
        let mut t = table(small(Variant::Skirmish), 1, &["random"]);
        let a = joined(&mut t, "me");
        let seat = t.seat_of(&token(&a)).unwrap();
        let mut rx = t.act(seat, Action::Build { x: 0, y: 0 }).unwrap();
        t.step();
        assert_eq!(rx.try_recv().unwrap(), json!({"err_code": 0}));
        assert!(t.game_info(0.0)["cells"][0]["b"] == "empty");
    }
}
