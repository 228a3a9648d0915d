//! One match of any game, driven from Python: the host's own setup (`arena play`'s flags), the
//! core's rules, the game's protocol for text observations and actions, its recorder for replays
//! and the firmware's screens for pictures. Nothing of a game's rules is written here.

use arena_core::{Bot, Game, Seat, SeatSet};
use arena_host::cli::{GameCli, MatchArgs};
use arena_host::game::{End, Finish, Plan, Standing};
use arena_host::process::{Fault, Line, Lines};
use arena_host::protocol::{Clock, Protocol};
use arena_host::record::{LineWriter, Recorder, Step};
use arena_host::render::{half_blocks, Canvas, Display, Label};
use arena_host::seats::BotSpec;
use clap::{FromArgMatches, ValueEnum};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// What one seat's step came to, for `info`.
#[derive(Clone, Debug, Default)]
pub struct SeatStep {
    /// Actions (orders, for Ants) the rules refused this step.
    pub refused: u32,
    /// The reasons the game gave for them, and the protocol's notes (unreadable lines...).
    pub why: Vec<String>,
}

/// A game's match behind one interface, so that Python holds any game.
pub trait DynEnv: Send + Sync {
    fn game_name(&self) -> &'static str;
    fn seats(&self) -> usize;
    /// The seats Python plays (the others are built-in bots).
    fn agents(&self) -> &[Seat];
    fn names(&self) -> Vec<String>;
    fn config(&self) -> String;
    fn seed(&self) -> u64;
    fn reset(&mut self, seed: u64) -> Result<(), String>;
    fn to_move(&self) -> Vec<Seat>;
    fn seat_in(&self, seat: Seat) -> bool;
    fn is_over(&self) -> bool;
    /// Over, or stopped by the turn limit.
    fn is_done(&self) -> bool;
    fn truncated(&self) -> bool;
    fn turn(&self) -> u32;
    fn digest(&self) -> u64;
    /// Ranks (0 = first) and scores once over.
    fn outcome(&self) -> Option<(Vec<u8>, Vec<i64>)>;
    /// The text observation (text mode: the protocol's lines) or the canonical state JSON.
    fn observe(&self, seat: Seat) -> String;
    /// The canonical state JSON as `seat` sees it.
    fn state_json(&self, seat: Seat) -> String;
    /// The default observation of `seat` ([`crate::obs`]), written into `out` (cleared first).
    fn observe_array(&self, seat: Seat, out: &mut Vec<i32>);
    /// The same layout read off the canonical state JSON (for the games whose environment reads
    /// the state directly: the reference it is tested against); `None` for the others.
    fn observe_array_from_json(&self, seat: Seat) -> Option<Vec<i32>>;
    /// One step: `actions` holds Python's seats' answers (text or action JSON); returns what each
    /// seat's step came to.
    fn step(&mut self, actions: &[(Seat, String)]) -> Vec<SeatStep>;
    /// One step in which Python's seats that were given no action play the built-in bot
    /// `policy`'s moves (kept per seat for the match, seeded as at a table).
    fn step_policy(
        &mut self,
        actions: &[(Seat, String)],
        policy: &str,
    ) -> Result<Vec<SeatStep>, String>;
    /// The canonical action JSON the built-in bot `name` (seeded as `arena play` seeds it at
    /// `seat`) plays now.
    fn bot_action(&mut self, seat: Seat, name: &str) -> Result<String, String>;
    fn save_replay(&self, path: &Path) -> Result<(), String>;
    fn render_rgb(&self, display: &str, scale: u32) -> Result<(u32, u32, Vec<u8>), String>;
    fn render_ansi(&self) -> String;
}

/// What the protocol sends a seat, and what Python answers, held in memory.
#[derive(Default)]
struct Mem {
    sent: Vec<String>,
    queue: VecDeque<String>,
}

/// A line connection to Python (text mode): lines sent are kept for the observation, answers are
/// the lines Python gave. An answer that is not there is a time-out, as from a silent bot.
struct MemLines(Arc<Mutex<Mem>>);

impl MemLines {
    fn with<T>(&self, f: impl FnOnce(&mut Mem) -> T) -> T {
        let mut m = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut m)
    }
}

impl Lines for MemLines {
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.with(|m| m.sent.push(line.to_string()));
        Ok(())
    }
    fn recv_until(&mut self, _deadline: Option<std::time::Instant>) -> Result<Line, Fault> {
        match self.with(|m| m.queue.pop_front()) {
            Some(text) => Ok(Line {
                text,
                at: std::time::Instant::now(),
            }),
            None => Err(Fault::Timeout {
                waited_ms: 0,
                over: None,
            }),
        }
    }
    fn discard_stale(&mut self) -> usize {
        self.with(|m| {
            let n = m.queue.len();
            m.queue.clear();
            n
        })
    }
    fn close(&mut self) {}
}

fn lock(m: &Arc<Mutex<Mem>>) -> std::sync::MutexGuard<'_, Mem> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A Python seat in text mode: the game's protocol over memory.
struct Speaker<G: GameCli> {
    proto: Box<dyn Protocol<G>>,
    mem: Arc<Mutex<Mem>>,
    /// The lines of the current observation.
    obs: String,
    /// Ants: what the seat has been shown so far.
    view: crate::obs::AntsView,
}

// Protocols hold no thread-bound state over memory lines; the env is only ever used from one
// thread at a time (the Python object is behind the GIL, a vector env hands each env to one
// worker).
unsafe impl<G: GameCli> Send for Speaker<G> {}

enum Seated<G: GameCli> {
    Python(Option<Speaker<G>>),
    Bot(G::Bot),
}

// As for `Speaker`: a built-in bot is plain data moved with its env.
unsafe impl<G: GameCli> Send for Seated<G> {}

/// A game's default observation ([`crate::obs`]).
pub trait Observe: GameCli {
    /// Whether the observation is read from the protocol's lines (Ants: the fog-of-war view).
    const SEES_BY_PROTOCOL: bool = false;
    fn encode(
        game: &Self,
        seat: Seat,
        lines: Option<(&str, &crate::obs::AntsView)>,
        out: &mut Vec<i32>,
    );
}

macro_rules! observe_json {
    ($game:ty, $f:path) => {
        impl Observe for $game {
            fn encode(
                game: &Self,
                seat: Seat,
                _: Option<(&str, &crate::obs::AntsView)>,
                out: &mut Vec<i32>,
            ) {
                $f(&arena_host::Playable::state_json(game, seat), seat, out)
            }
        }
    };
}
impl Observe for arena_core::games::tower_defense::TowerDefense {
    fn encode(
        game: &Self,
        seat: Seat,
        _: Option<(&str, &crate::obs::AntsView)>,
        out: &mut Vec<i32>,
    ) {
        crate::obs::tower_defense_direct(game, seat, out)
    }
}
observe_json!(arena_core::games::ballroom::Ballroom, crate::obs::ballroom);
impl Observe for arena_core::games::colorfight::ColorFight {
    fn encode(
        game: &Self,
        seat: Seat,
        _: Option<(&str, &crate::obs::AntsView)>,
        out: &mut Vec<i32>,
    ) {
        crate::obs::colorfight_direct(game, seat, out)
    }
}
observe_json!(arena_core::games::mammut::Mammut, crate::obs::mammut);

impl Observe for arena_core::games::ants::Ants {
    const SEES_BY_PROTOCOL: bool = true;
    fn encode(
        game: &Self,
        seat: Seat,
        lines: Option<(&str, &crate::obs::AntsView)>,
        out: &mut Vec<i32>,
    ) {
        if let Some((text, view)) = lines {
            view.encode(text, seat, game.turn(), out);
        }
    }
}

pub struct Env<G: Observe> {
    /// `arena play`'s flags, without the seed.
    args: Vec<String>,
    /// Built-in bots by seat.
    bots: Vec<(Seat, String)>,
    text: bool,
    plan: Plan<G>,
    game: Box<G>,
    seated: Vec<Seated<G>>,
    agents: Vec<Seat>,
    start: u32,
    history: Vec<Vec<G::Move>>,
    /// The built-in bots [`DynEnv::bot_action`] asked, kept for the match (each is seeded once,
    /// as at a table).
    advisers: Vec<(Seat, String, G::Bot)>,
    /// Where each seat stands, as the match loop keeps it (what the end message says).
    standings: Vec<Standing>,
    /// Seats told the end.
    finished: Vec<bool>,
    /// The seats the last step put out, and that step's number.
    put_out: (Vec<Seat>, u32),
}

// `Plan` and the state are plain data; see `Speaker`.
unsafe impl<G: Observe> Send for Env<G> {}
// What `&self` reaches is read only: the state, the plan, the text of the last observation (the
// protocols, behind `&mut self` alone, are never touched through a shared reference).
unsafe impl<G: Observe> Sync for Env<G> {}

/// The plan `arena play <game> ARGS` makes (clap's own messages for bad flags).
pub fn plan_of<G: GameCli>(args: &[String]) -> Result<Plan<G>, String> {
    let cmd = arena_host::commands::play::command::<G>();
    let argv = std::iter::once("play".to_string()).chain(args.iter().cloned());
    let m = cmd.try_get_matches_from(argv).map_err(|e| {
        let s = e.to_string();
        s.trim_start_matches("error: ").trim().to_string()
    })?;
    let common = MatchArgs::from_arg_matches(&m).map_err(|e| e.to_string())?;
    let flags = G::PlayFlags::from_arg_matches(&m).map_err(|e| e.to_string())?;
    let options = G::play_options(&flags);
    let mut request = common.request();
    if request.bots.is_empty() {
        // A bot for every seat, as games that want each seat named (Ants) ask; Python's seats
        // and the built-in bots asked for are put in afterwards.
        let seats = G::setup(&options, 0).map_err(|e| format!("{e:#}"))?.seats;
        let default = G::BOTS.first().copied().unwrap_or("random");
        request.bots = vec![default.to_string(); seats];
    }
    G::plan(&options, &request).map_err(|e| format!("{e:#}"))
}

impl<G: Observe> Env<G> {
    pub fn new(
        args: Vec<String>,
        bots: Vec<(Seat, String)>,
        text: bool,
        seed: u64,
    ) -> Result<Self, String> {
        let (plan, game, seated, agents) = Self::open(&args, &bots, text, seed)?;
        let start = game.turn();
        let mut env = Env {
            args,
            bots,
            text,
            plan,
            game,
            seated,
            agents,
            start,
            history: Vec::new(),
            advisers: Vec::new(),
            standings: Vec::new(),
            finished: Vec::new(),
            put_out: (Vec::new(), 0),
        };
        env.greet();
        Ok(env)
    }

    #[allow(clippy::type_complexity)]
    fn open(
        args: &[String],
        bots: &[(Seat, String)],
        text: bool,
        seed: u64,
    ) -> Result<(Plan<G>, Box<G>, Vec<Seated<G>>, Vec<Seat>), String> {
        let mut full = args.to_vec();
        full.push("--seed".into());
        full.push(seed.to_string());
        let mut plan = plan_of::<G>(&full)?;
        let n = plan.bots.len();
        for (seat, name) in bots {
            if *seat >= n {
                return Err(format!(
                    "bots: {} has {n} seats (player_0 to player_{}), not player_{seat}",
                    G::NAME,
                    n.saturating_sub(1)
                ));
            }
            plan.bots[*seat] = BotSpec::parse::<G>(name).map_err(|e| e.to_string())?;
            if !matches!(plan.bots[*seat], BotSpec::Builtin(_)) {
                return Err(format!(
                    "bots: player_{seat}: only built-in bots play inside an environment ({})",
                    G::BOTS.join(", ")
                ));
            }
            plan.names[*seat] = name.clone();
        }
        let given_names = count_flag(args, "--name");
        let mut seated = Vec::with_capacity(n);
        let mut agents = Vec::new();
        for seat in 0..n {
            if let Some((_, name)) = bots.iter().find(|(s, _)| *s == seat) {
                let bot = G::bot(name, arena_core::rng::bot_seed(plan.seed, seat))
                    .ok_or_else(|| format!("unknown bot `{name}` for {}", G::NAME))?;
                seated.push(Seated::Bot(bot));
                continue;
            }
            if seat >= given_names {
                plan.names[seat] = "python".into();
            }
            agents.push(seat);
            let speaker = (text || G::SEES_BY_PROTOCOL).then(|| {
                let mem = Arc::new(Mutex::new(Mem::default()));
                let conn = Box::new(MemLines(mem.clone()));
                Speaker {
                    proto: G::protocol(conn, &plan, seat),
                    mem,
                    obs: String::new(),
                    view: crate::obs::AntsView::default(),
                }
            });
            seated.push(Seated::Python(speaker));
        }
        let mut game = G::boxed(&plan).map_err(|e| format!("cannot set up the game: {e}"))?;
        game.drop_at_start(SeatSet::EMPTY);
        Ok((plan, game, seated, agents))
    }

    /// Text mode: every Python seat is greeted (and its ready taken as given), then asked.
    fn greet(&mut self) {
        self.standings = vec![Standing::default(); self.seated.len()];
        self.finished = vec![false; self.seated.len()];
        self.put_out = (Vec::new(), 0);
        for seat in 0..self.seated.len() {
            if let Seated::Python(Some(sp)) = &mut self.seated[seat] {
                let _ = sp.proto.hello(&self.game, seat);
                sp.view.greet(&lock(&sp.mem).sent.join("\n"));
                // The original's bots say they are ready ("go"): said for Python.
                lock(&sp.mem).queue.push_back("go".into());
                let _ = sp.proto.ready(&self.game, seat, &Clock::now());
                lock(&sp.mem).queue.clear();
            }
        }
        self.ask_all();
    }

    /// Text mode: the lines each Python seat is sent now (a request when it is to move, the end
    /// when the game is over).
    /// As the match loop does: the seats the last step put out hear it at once, one after the
    /// other, each seeing those before it; when the match is done every other seat hears the
    /// end; the seats to move are asked.
    fn ask_all(&mut self) {
        let (out, label) = std::mem::take(&mut self.put_out);
        for seat in out {
            self.standings[seat].out = Some(label);
            self.finish(seat, Finish::Out);
        }
        let movers = self.game.to_move();
        let over = self.is_done();
        for seat in 0..self.seated.len() {
            if over {
                self.finish(seat, Finish::Over);
            } else if let (false, Seated::Python(Some(sp))) =
                (self.finished[seat], &mut self.seated[seat])
            {
                if movers.contains(seat) {
                    let _ = sp.proto.ask(&self.game, seat);
                }
            }
        }
        for sp in self.seated.iter_mut().filter_map(|s| match s {
            Seated::Python(Some(sp)) => Some(sp),
            _ => None,
        }) {
            let mut m = lock(&sp.mem);
            sp.obs = m.sent.join("\n");
            m.sent.clear();
            sp.view.see(&sp.obs);
        }
    }

    /// Tells `seat` the end (`why`), once.
    fn finish(&mut self, seat: Seat, why: Finish) {
        if self.finished[seat] {
            return;
        }
        self.finished[seat] = true;
        if let Seated::Python(Some(sp)) = &mut self.seated[seat] {
            let end = End {
                why,
                standings: &self.standings,
            };
            sp.proto.finish(&self.game, seat, &end);
        }
    }

    fn label(&self) -> Label {
        Label::new(G::NAME, &self.plan.config, self.plan.seed, &self.plan.names)
    }
}

/// How many times `flag` is given in `args`.
fn count_flag(args: &[String], flag: &str) -> usize {
    args.iter()
        .filter(|a| *a == flag || a.starts_with(&format!("{flag}=")))
        .count()
}

impl<G: Observe> Env<G> {
    /// A step with Python's answers (`actions`) and moves already made for some seats (`advised`).
    fn step_with(
        &mut self,
        actions: &[(Seat, String)],
        mut advised: Vec<(Seat, G::Move)>,
    ) -> Vec<SeatStep> {
        let n = self.seated.len();
        let mut steps = vec![SeatStep::default(); n];
        if self.is_done() {
            return steps;
        }
        let movers = self.game.to_move();
        let label = self.game.report_turn();
        let was_in: Vec<bool> = (0..n).map(|s| self.game.seat_in(s)).collect();
        let mut moves: Vec<G::Move> = vec![G::Move::default(); n];
        for seat in movers.iter().filter(|&s| s < n) {
            if let Some(i) = advised.iter().position(|(s, _)| *s == seat) {
                moves[seat] = advised.swap_remove(i).1;
                continue;
            }
            let given = actions.iter().find(|(s, _)| *s == seat).map(|(_, a)| a);
            let game = &self.game;
            match &mut self.seated[seat] {
                Seated::Bot(bot) => moves[seat] = G::bot_move(bot, game, seat),
                Seated::Python(Some(sp)) if self.text => {
                    let Some(text) = given else { continue };
                    {
                        let mut m = lock(&sp.mem);
                        m.queue.clear();
                        m.queue.extend(text.lines().map(str::to_string));
                    }
                    match sp.proto.answer(game, seat, &Clock::now()) {
                        Ok(answer) => {
                            moves[seat] = answer.mv;
                            for note in answer.notes {
                                if note.is_refusal() {
                                    steps[seat].refused += 1;
                                }
                                steps[seat].why.push(note.to_string());
                            }
                        }
                        Err(f) => {
                            moves[seat] = sp.proto.fault_move(game, seat, &f);
                            steps[seat].why.push(match f {
                                Fault::Timeout { .. } => {
                                    "incomplete answer: the protocol read past its end".into()
                                }
                                f => f.to_string(),
                            });
                        }
                    }
                    lock(&sp.mem).queue.clear();
                }
                Seated::Python(_) => {
                    let Some(text) = given else { continue };
                    match serde_json::from_str::<serde_json::Value>(text) {
                        Ok(v) => moves[seat] = game.read_action(seat, &v).into(),
                        Err(e) => {
                            steps[seat].refused += 1;
                            steps[seat].why.push(format!("unreadable action JSON: {e}"));
                        }
                    }
                }
            }
        }
        let stepped = self.game.play_step(&moves, SeatSet::EMPTY);
        for (seat, s) in steps.iter_mut().enumerate() {
            s.refused += u32::from(stepped.report.refused.get(seat).copied().unwrap_or(0));
        }
        for (seat, why) in &stepped.why {
            if let Some(s) = steps.get_mut(*seat) {
                s.why.push((*why).to_string());
            }
        }
        for (seat, f) in &stepped.notes {
            if let Some(s) = steps.get_mut(*seat) {
                s.why.push(f.to_string());
            }
        }
        self.history.push(moves);
        for seat in movers.iter().filter(|&s| s < n) {
            self.standings[seat].last_turn = label;
        }
        let out: Vec<Seat> = (0..n)
            .filter(|&s| was_in[s] && !self.game.seat_in(s))
            .collect();
        self.put_out = (out, label);
        if self.text || G::SEES_BY_PROTOCOL {
            self.ask_all();
        }
        steps
    }

    /// The index of the built-in bot `name` advising `seat` (made on first use).
    fn adviser(&mut self, seat: Seat, name: &str) -> Result<usize, String> {
        if let Some(i) = self
            .advisers
            .iter()
            .position(|(s, n, _)| *s == seat && n == name)
        {
            return Ok(i);
        }
        let bot =
            G::bot(name, arena_core::rng::bot_seed(self.plan.seed, seat)).ok_or_else(|| {
                format!(
                    "unknown bot `{name}` for {}: {}",
                    G::NAME,
                    G::BOTS.join(", ")
                )
            })?;
        self.advisers.push((seat, name.to_string(), bot));
        Ok(self.advisers.len() - 1)
    }
}

impl<G: Observe> DynEnv for Env<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        self.seated.len()
    }
    fn agents(&self) -> &[Seat] {
        &self.agents
    }
    fn names(&self) -> Vec<String> {
        self.plan.names.clone()
    }
    fn config(&self) -> String {
        self.plan.config.clone()
    }
    fn seed(&self) -> u64 {
        self.plan.seed
    }

    fn reset(&mut self, seed: u64) -> Result<(), String> {
        let (plan, game, seated, agents) = Self::open(&self.args, &self.bots, self.text, seed)?;
        self.start = game.turn();
        self.plan = plan;
        self.game = game;
        self.seated = seated;
        self.agents = agents;
        self.history.clear();
        self.advisers.clear();
        self.greet();
        Ok(())
    }

    fn to_move(&self) -> Vec<Seat> {
        if self.is_done() {
            return Vec::new();
        }
        self.game.to_move().iter().collect()
    }
    fn seat_in(&self, seat: Seat) -> bool {
        self.game.seat_in(seat)
    }
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    fn truncated(&self) -> bool {
        !self.game.is_over()
            && self
                .plan
                .max_turns
                .is_some_and(|m| u64::from(self.game.turn().saturating_sub(self.start)) >= m)
    }
    fn is_done(&self) -> bool {
        self.game.is_over() || self.truncated()
    }
    fn turn(&self) -> u32 {
        self.game.turn()
    }
    fn digest(&self) -> u64 {
        self.game.digest()
    }
    fn outcome(&self) -> Option<(Vec<u8>, Vec<i64>)> {
        let n = self.seated.len();
        self.game.outcome().map(|o| {
            (
                o.rank.iter().take(n).copied().collect(),
                o.score.iter().take(n).copied().collect(),
            )
        })
    }

    fn observe(&self, seat: Seat) -> String {
        match self.seated.get(seat) {
            Some(Seated::Python(Some(sp))) if self.text => sp.obs.clone(),
            _ => self.state_json(seat),
        }
    }

    fn observe_array_from_json(&self, seat: Seat) -> Option<Vec<i32>> {
        let mut out = Vec::new();
        let state = self.game.state_json(seat);
        if G::NAME == arena_core::games::tower_defense::TowerDefense::NAME {
            crate::obs::tower_defense(&state, seat, &mut out);
        } else if G::NAME == arena_core::games::colorfight::ColorFight::NAME {
            crate::obs::colorfight(&state, seat, &mut out);
        } else {
            return None;
        }
        Some(out)
    }

    fn observe_array(&self, seat: Seat, out: &mut Vec<i32>) {
        out.clear();
        let lines = match self.seated.get(seat) {
            Some(Seated::Python(Some(sp))) => Some((sp.obs.as_str(), &sp.view)),
            _ => None,
        };
        G::encode(&self.game, seat, lines, out);
    }

    fn state_json(&self, seat: Seat) -> String {
        self.game.state_json(seat).to_string()
    }

    fn step(&mut self, actions: &[(Seat, String)]) -> Vec<SeatStep> {
        self.step_with(actions, Vec::new())
    }

    fn step_policy(
        &mut self,
        actions: &[(Seat, String)],
        policy: &str,
    ) -> Result<Vec<SeatStep>, String> {
        let mut advised = Vec::new();
        if !self.is_done() {
            for seat in self.game.to_move().iter() {
                let python = matches!(self.seated.get(seat), Some(Seated::Python(_)));
                if python && !actions.iter().any(|(s, _)| *s == seat) {
                    let i = self.adviser(seat, policy)?;
                    let action = self.advisers[i].2.act(&self.game, seat);
                    advised.push((seat, G::Move::from(action)));
                }
            }
        }
        Ok(self.step_with(actions, advised))
    }

    fn bot_action(&mut self, seat: Seat, name: &str) -> Result<String, String> {
        if seat >= self.seated.len() {
            return Err(format!("no seat {seat}"));
        }
        let i = self.adviser(seat, name)?;
        let action = self.advisers[i].2.act(&self.game, seat);
        Ok(G::action_json(&action).to_string())
    }

    fn save_replay(&self, path: &Path) -> Result<(), String> {
        let plan = &self.plan;
        let mut game = G::boxed(plan).map_err(|e| format!("cannot set up the game: {e}"))?;
        game.drop_at_start(SeatSet::EMPTY);
        let mut out = LineWriter::create(Some(path)).map_err(|e| format!("{e:#}"))?;
        let mut rec = G::Recorder::new(plan);
        rec.begin(&game, plan, &mut out);
        for moves in &self.history {
            let turn = game.turn();
            let movers = game.to_move();
            let stepped = game.play_step(moves, SeatSet::EMPTY);
            let step = Step {
                turn,
                movers,
                moves,
                report: &stepped.report,
                why: &stepped.why,
            };
            rec.step(&game, &step, &mut out);
        }
        rec.end(&game, plan, &mut out);
        match out.error {
            Some(e) => Err(format!("{}: {e}", path.display())),
            None => Ok(()),
        }
    }

    fn render_rgb(&self, display: &str, scale: u32) -> Result<(u32, u32, Vec<u8>), String> {
        let d = Display::from_str(display, true).map_err(|_| {
            let names: Vec<String> = Display::value_variants()
                .iter()
                .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
                .collect();
            format!("render_display `{display}`: one of {}", names.join(", "))
        })?;
        let label = self.label();
        let picture = d.game(&*self.game, &label.get());
        let image = arena_host::render::image_of(&picture, scale);
        Ok((image.width(), image.height(), image.into_raw()))
    }

    fn render_ansi(&self) -> String {
        let mut canvas = Canvas::<embedded_graphics::pixelcolor::Gray4>::new(128, 64);
        let label = self.label();
        let Ok(()) = arena_firmware::screen::draw_game(&*self.game, &label.get(), &mut canvas);
        half_blocks(&canvas)
    }
}

/// The environment of game `name` (its folder name or its command-line name).
pub fn make(
    name: &str,
    args: Vec<String>,
    bots: Vec<(Seat, String)>,
    text: bool,
    seed: u64,
) -> Result<Box<dyn DynEnv>, String> {
    macro_rules! pick {
        ($($folder:ident: $game:ty),* $(,)?) => {
            $(
                if name == stringify!($folder) || name == <$game as Game>::NAME {
                    return Ok(Box::new(Env::<$game>::new(args, bots, text, seed)?));
                }
            )*
        };
    }
    arena_core::with_games!(pick);
    Err(format!("no game `{name}`: {}", game_names().join(", ")))
}

/// The games' folder names, as the Python modules are named.
pub fn game_names() -> Vec<&'static str> {
    macro_rules! names {
        ($($folder:ident: $game:ty),* $(,)?) => {
            vec![$(stringify!($folder)),*]
        };
    }
    arena_core::with_games!(names)
}

/// A game's built-in bots.
pub fn bots_of(name: &str) -> Vec<&'static str> {
    macro_rules! pick {
        ($($folder:ident: $game:ty),* $(,)?) => {
            $(
                if name == stringify!($folder) || name == <$game as Game>::NAME {
                    return <$game as arena_core::Roster>::BOTS.to_vec();
                }
            )*
        };
    }
    arena_core::with_games!(pick);
    Vec::new()
}
