//! One match of any game, driven from Python: the host's own setup (`arena play`'s flags), the
//! core's rules, the game's protocol for text observations and actions, its recorder for replays
//! and the firmware's screens for pictures. Nothing of a game's rules is written here.

use crate::config::Kwargs;
use crate::games::Observe;
use crate::reward::{self, Teach};
use arena_core::{Bot, Game, Seat, SeatSet, MAX_SEATS};
use arena_host::game::{End, Finish, Plan, Standing};
use arena_host::process::{Fault, Line, Lines};
use arena_host::protocol::{Clock, Protocol};
use arena_host::record::{LineWriter, Recorder, Step};
use arena_host::render::{half_blocks, Canvas, Display, Label};
use arena_host::seats::BotSpec;
use arena_host::HostGame;
use clap::ValueEnum;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// What one seat's step came to, for `info`.
#[derive(Clone, Debug, Default)]
pub struct SeatStep {
    /// Actions (orders, for Ants) the rules refused this step.
    pub refused: u32,
    /// The reasons the game gave for them, and the protocol's notes (unreadable lines...): most
    /// are the game's own words (`&'static str`), kept without a copy.
    pub why: Vec<Cow<'static, str>>,
}

/// A game's match behind one interface, so that Python holds any game.
pub trait DynEnv: Send {
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
    /// The same layout read off the canonical state JSON (what a bot written in Python reads:
    /// the reference the direct one is tested against); `None` for Ants.
    fn observe_array_from_json(&self, seat: Seat) -> Option<Vec<i32>>;
    /// The default observation written in place, in the row's dtype (`scratch`: room for games
    /// that build it aside, [`crate::games::ObsRow`]).
    fn observe_into(&self, seat: Seat, out: crate::games::ObsOut<'_>, scratch: &mut Vec<i32>);
    /// [`DynEnv::observe_into`] into a row that holds what was written there last with `written`
    /// (or anything, when `written` is unknown): only what changed since is written where the
    /// game can tell ([`crate::games::Observe::encode_update`]); `written` is updated.
    fn observe_update(
        &self,
        seat: Seat,
        out: crate::games::ObsOut<'_>,
        scratch: &mut Vec<i32>,
        written: &mut crate::obs::Written,
    );
    /// Each seat's score now ([`Observe::score`]; the outcome's once over).
    fn scores(&self) -> Vec<i64>;
    /// Each seat's measure change (`crate::reward`) since the last time it was taken (or the
    /// match began): the step reward, whatever number of steps the built-in bots played in
    /// between.
    fn take_gained(&mut self) -> &[f64];
    /// Each seat's measure now, the one [`DynEnv::take_gained`] follows.
    fn measures(&self) -> Vec<f64>;
    /// Which measure the rewards follow (from now: the change so far is dropped).
    fn set_reward(&mut self, kind: reward::Kind);
    /// How many actions the game's list has (0: not listed).
    fn listed(&self) -> usize;
    /// Which actions of the list the rules take from `seat` now (`out`: [`DynEnv::listed`] bytes).
    fn mask_into(&self, seat: Seat, out: &mut [i8]);
    /// [`DynEnv::mask_into`] into a row holding this method's last write for `seat` (`written`:
    /// what it holds), writing only what changed (`crate::games::Observe::mask_update`).
    fn mask_update(&self, seat: Seat, out: &mut [i8], written: &mut crate::obs::Written);
    /// Action `i` of `seat`'s list as its canonical JSON.
    fn listed_json(&self, seat: Seat, i: usize) -> Option<String>;
    /// The index in `seat`'s list of the action whose canonical JSON is `json` (`None`: not
    /// listed, as a Tower Defense spawn that splits its boost).
    fn listed_index(&self, seat: Seat, json: &str) -> Option<usize>;
    /// For each action of `seat`'s list, whether the core refuses it now, found by playing it on
    /// a copy of the match (every other seat passing): what the tests hold the mask to. An
    /// action the list has none for now (an Ants slot without an ant) counts as refused.
    fn refused_listed(&self, seat: Seat) -> Vec<bool>;
    /// A factored list's `(slots, choices)` (`crate::games::Observe::factors`), `None` for a list
    /// of single actions.
    fn factors(&self) -> Option<(usize, usize)>;
    /// The canonical action JSON of one choice per slot (`None`: not as many picks as slots, or
    /// a pick past its slot's choices).
    fn factored_json(&self, seat: Seat, picks: &[usize]) -> Option<String>;
    /// The choice per slot of the action whose canonical JSON is `json` (`None` when the
    /// factored space cannot say it).
    fn factored_index(&self, seat: Seat, json: &str) -> Option<Vec<usize>>;
    /// Whether steps are kept for [`DynEnv::save_replay`] (a vector env, which never writes
    /// replays, keeps none).
    fn set_recording(&mut self, on: bool);
    /// One step: `actions` holds Python's seats' answers (text or action JSON); returns what each
    /// seat's step came to.
    fn step(&mut self, actions: &[(Seat, String)]) -> &[SeatStep];
    /// Plays the built-in bots' steps until a Python seat is to move or the match is done.
    fn advance(&mut self);
    /// `VectorEnv`'s step: [`DynEnv::step_listed`]'s, each seat's refusals returned. A match
    /// without text seats keeps nothing else of the step (`self.steps` is left as it was); one
    /// with text seats takes `step_listed` itself.
    fn step_lean(
        &mut self,
        picks: &[(Seat, usize)],
        policy: Option<&str>,
    ) -> Result<[u32; MAX_SEATS], String>;
    /// `VectorEnv`'s end of a step, into the match's rows ([`crate::vector::stepped`]).
    fn stepped(
        &mut self,
        agents: &[Seat],
        row: &mut crate::vector::Row<'_>,
        scratch: &mut crate::vector::Scratch,
        refused: &[u32; MAX_SEATS],
    );
    /// One step in which Python's seats that were given no action play the built-in bot
    /// `policy`'s moves (kept per seat for the match, seeded as at a table).
    fn step_policy(
        &mut self,
        actions: &[(Seat, String)],
        policy: &str,
    ) -> Result<&[SeatStep], String>;
    /// One step with Python's seats' picks from the list (`(seat, index)`, each played as the
    /// list's action itself; an index past the list is refused, the seat passing) and other
    /// seats' answers as text (`actions`, as [`DynEnv::step`] takes them); seats given neither
    /// play `policy`, or pass.
    fn step_listed(
        &mut self,
        picks: &[(Seat, usize)],
        actions: &[(Seat, String)],
        policy: Option<&str>,
    ) -> Result<&[SeatStep], String>;
    /// One step with Python's seats' choices of a factored list (`(seat, one choice per slot)`:
    /// [`DynEnv::factors`]); picks that make no action (not one per slot, or past a slot's
    /// choices) are refused, the seat passing; seats without picks play `policy`, or pass.
    fn step_factored(
        &mut self,
        picks: &[(Seat, Vec<usize>)],
        policy: Option<&str>,
    ) -> Result<&[SeatStep], String>;
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
struct Speaker<G: HostGame> {
    proto: Box<dyn Protocol<G>>,
    mem: Arc<Mutex<Mem>>,
    /// The lines of the current observation.
    obs: String,
    /// Ants: what the seat has been shown so far.
    view: crate::obs::AntsView,
}

// SAFETY: the only part of a speaker whose type is not `Send` is the protocol object, a
// `Box<dyn Protocol<G>>` the host makes over the `Box<dyn Lines>` given to it (trait objects that
// say nothing of `Send`). The connection given here is always `MemLines`, an `Arc<Mutex<Mem>>`,
// which is `Send`; the host's protocols hold that connection, their limits and plain data (no
// `Rc`, no `Cell`, no thread-locals: host/src/protocol.rs and host/src/games/*). So a speaker moved
// to another thread with its env takes nothing tied to the thread that made it.
unsafe impl<G: HostGame> Send for Speaker<G> {}

enum Seated<G: HostGame> {
    Python(Option<Speaker<G>>),
    Bot(G::Bot),
}

pub struct Env<G: Teach> {
    /// The match's options, as Python gave them (`crate::config`).
    kwargs: Kwargs,
    /// Built-in bots by seat.
    bots: Vec<(Seat, String)>,
    text: bool,
    /// The seed the match was asked for: what plays it again (the plan's own may differ, as
    /// Ants' engine seed is signed and its RNG takes its magnitude).
    seed: u64,
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
    /// Whether `history` is kept.
    record: bool,
    /// Each seat's measure when [`DynEnv::take_gained`] last took it (`crate::reward`).
    taken: [f64; MAX_SEATS],
    /// Each seat's measure now, and its change ([`DynEnv::take_gained`]'s answer): fixed
    /// arrays, as a match has at most [`MAX_SEATS`] seats.
    now: [f64; MAX_SEATS],
    gained: [f64; MAX_SEATS],
    /// The last step's outcome per seat (the step functions' answer).
    steps: Vec<SeatStep>,
    /// The game's own account of the last step, its room reused.
    stepped: arena_host::game::Stepped,
    /// A step's moves, and the moves made for some seats before it (`advise`).
    moves: Vec<G::Move>,
    advised: Vec<(Seat, G::Move)>,
    /// The measure rewards follow.
    reward: reward::Kind,
    /// The state this turn's actions meet, for games that play part of a turn before them
    /// ([`crate::games::Observe::LOOKS_AHEAD`]).
    ahead: RefCell<Ahead<G>>,
}

/// A look-ahead made once a turn, when the mask or the list first asks for it; the step
/// finishes from it ([`crate::games::Observe::look_ahead`]). Behind a `RefCell` because the
/// mask is asked of a shared match.
struct Ahead<G> {
    /// Allocated once, then written over each turn.
    state: Option<Box<G>>,
    /// Made from the match as it is now (every step and reset clears it).
    fresh: bool,
    /// A turn begun, which the next step finishes (false: a copy, the match being over).
    begun: bool,
}

impl<G> Default for Ahead<G> {
    fn default() -> Self {
        Ahead {
            state: None,
            fresh: false,
            begun: false,
        }
    }
}

/// The plan `arena play <game>` makes for the same options (`kwargs`, by name and type) and
/// seed, and how many names were given.
pub fn plan_of<G: Observe>(kwargs: &Kwargs, seed: u64) -> Result<(Plan<G>, usize), String> {
    let mut kw = kwargs.clone();
    let mut request = crate::config::request(&mut kw, seed)?;
    let options = G::options(&mut kw)?;
    kw.finish(G::NAME)?;
    // A bot for every seat, as games that want each seat named (Ants) ask; Python's seats and
    // the built-in bots asked for are put in afterwards.
    let seats = G::setup(&options, 0).map_err(|e| e.to_string())?.seats;
    let default = G::BOTS.first().copied().unwrap_or("random");
    request.bots = vec![default.to_string(); seats];
    let given = request.names.len();
    let plan = G::plan(&options, &request).map_err(|e| e.to_string())?;
    Ok((plan, given))
}

impl<G: Teach> Env<G> {
    pub fn new(
        kwargs: Kwargs,
        bots: Vec<(Seat, String)>,
        text: bool,
        seed: u64,
    ) -> Result<Self, String> {
        let (plan, game, seated, agents) = Self::open(&kwargs, &bots, text, seed)?;
        let start = game.turn();
        let mut env = Env {
            kwargs,
            bots,
            text,
            seed,
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
            record: true,
            taken: [0.0; MAX_SEATS],
            now: [0.0; MAX_SEATS],
            gained: [0.0; MAX_SEATS],
            steps: Vec::new(),
            stepped: arena_host::game::Stepped::default(),
            moves: Vec::new(),
            advised: Vec::new(),
            reward: reward::Kind::default(),
            ahead: RefCell::default(),
        };
        env.greet();
        Ok(env)
    }

    #[allow(clippy::type_complexity)]
    fn open(
        kwargs: &Kwargs,
        bots: &[(Seat, String)],
        text: bool,
        seed: u64,
    ) -> Result<(Plan<G>, Box<G>, Vec<Seated<G>>, Vec<Seat>), String> {
        let (mut plan, given_names) = plan_of::<G>(kwargs, seed)?;
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
        self.measure_now();
        std::mem::swap(&mut self.taken, &mut self.now);
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

    /// What `seat` was sent this turn and has seen, where the observation is read from it.
    fn lines(&self, seat: Seat) -> crate::games::Lines<'_> {
        match self.seated.get(seat) {
            Some(Seated::Python(Some(sp))) => Some((sp.obs.as_str(), &sp.view)),
            _ => None,
        }
    }

    fn label(&self) -> Label {
        Label::new(G::NAME, &self.plan.config, self.plan.seed, &self.plan.names)
    }
}

impl<G: Teach> Env<G> {
    /// A step with Python's answers (`actions`) and the moves already made for some seats
    /// (`self.advised`, emptied): its outcome per seat in `self.steps`. The buffers are taken
    /// out of the match for the step and put back, so that a step allocates nothing.
    fn step_with(&mut self, actions: &[(Seat, String)]) {
        let n = self.seated.len();
        let mut steps = std::mem::take(&mut self.steps);
        steps.resize_with(n, SeatStep::default);
        for s in &mut steps {
            s.refused = 0;
            s.why.clear();
        }
        let mut advised = std::mem::take(&mut self.advised);
        let mut moves = std::mem::take(&mut self.moves);
        if !self.is_done() {
            moves.clear();
            moves.resize(n, G::Move::default());
            self.play_moves(actions, &mut advised, &mut moves, &mut steps);
        }
        advised.clear();
        self.advised = advised;
        self.moves = moves;
        self.steps = steps;
    }

    /// [`Env::step_with`]'s step, of a match that is not done.
    fn play_moves(
        &mut self,
        actions: &[(Seat, String)],
        advised: &mut Vec<(Seat, G::Move)>,
        moves: &mut [G::Move],
        steps: &mut [SeatStep],
    ) {
        let n = self.seated.len();
        let movers = self.game.to_move();
        let label = self.game.report_turn();
        let was_in = self.seats_in();
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
                                steps[seat].why.push(note.to_string().into());
                            }
                        }
                        Err(f) => {
                            moves[seat] = sp.proto.fault_move(game, seat, &f);
                            steps[seat].why.push(match f {
                                Fault::Timeout { .. } => {
                                    "incomplete answer: the protocol read past its end".into()
                                }
                                f => f.to_string().into(),
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
                            steps[seat]
                                .why
                                .push(format!("unreadable action JSON: {e}").into());
                        }
                    }
                }
            }
        }
        let mut stepped = std::mem::take(&mut self.stepped);
        self.play_step(moves, &mut stepped);
        for (seat, s) in steps.iter_mut().enumerate() {
            s.refused += u32::from(stepped.report.refused.get(seat).copied().unwrap_or(0));
        }
        for &(seat, why) in &stepped.why {
            if let Some(s) = steps.get_mut(seat) {
                s.why.push(why.into());
            }
        }
        for (seat, f) in &stepped.notes {
            if let Some(s) = steps.get_mut(*seat) {
                s.why.push(f.to_string().into());
            }
        }
        if self.record {
            self.history.push(moves.to_vec());
        }
        for seat in movers.iter().filter(|&s| s < n) {
            self.standings[seat].last_turn = label;
        }
        self.stepped = stepped;
        // Almost every step puts nobody out: then the list is only emptied.
        let out = was_in.bits() & !self.seats_in().bits();
        self.put_out.0.clear();
        self.put_out
            .0
            .extend((0..n.min(MAX_SEATS)).filter(|&s| out >> s & 1 == 1));
        self.put_out.1 = label;
        if self.text || G::SEES_BY_PROTOCOL {
            self.ask_all();
        }
    }

    /// The match's step with `moves`: finished from the look-ahead when one was made this turn
    /// (the same step: `Observe::look_ahead`), else played whole.
    fn play_step(&mut self, moves: &[G::Move], out: &mut arena_host::game::Stepped) {
        Self::from_ahead(&mut self.game, self.ahead.get_mut());
        self.game.play_step_into(moves, SeatSet::EMPTY, out);
    }

    /// The turn begun in the look-ahead, if one was made this turn, made the match's state (the
    /// step then finishes it: `Observe::look_ahead`).
    fn from_ahead(game: &mut Box<G>, ahead: &mut Ahead<G>) {
        if std::mem::take(&mut ahead.fresh) && ahead.begun {
            if let Some(state) = ahead.state.as_mut() {
                std::mem::swap(game, state);
            }
        }
    }

    /// Whether the turn limit `turn_limit=` set is reached (the match's own end aside).
    fn past_limit(&self) -> bool {
        self.plan
            .max_turns
            .is_some_and(|m| u64::from(self.game.turn().saturating_sub(self.start)) >= m)
    }

    /// The seats still in the match (at most [`arena_core::MAX_SEATS`]).
    fn seats_in(&self) -> SeatSet {
        (0..self.seated.len().min(arena_core::MAX_SEATS))
            .filter(|&s| self.game.seat_in(s))
            .fold(SeatSet::EMPTY, SeatSet::with)
    }

    /// `f` of the state this turn's actions meet: the match itself, or its look-ahead for games
    /// that play part of a turn before the actions (made once a turn).
    fn with_judged<T>(&self, f: impl FnOnce(&G) -> T) -> T {
        if !G::LOOKS_AHEAD {
            return f(&self.game);
        }
        let Ok(mut ahead) = self.ahead.try_borrow_mut() else {
            // Asked again from inside `f` (never): a look-ahead of its own.
            let mut state = Box::new((*self.game).clone());
            G::look_ahead(&self.game, &mut state);
            return f(&state);
        };
        let ahead = &mut *ahead;
        let game = &*self.game;
        let state = ahead.state.get_or_insert_with(|| Box::new(game.clone()));
        if !ahead.fresh {
            ahead.begun = G::look_ahead(game, state);
            ahead.fresh = true;
        }
        f(state)
    }

    /// Each seat's score now: the game's measure, the outcome's once over.
    fn score_now(&self) -> Vec<i64> {
        scores_of(&*self.game, self.seated.len())
    }

    /// Each seat's measure now, the one its rewards follow (`crate::reward::measures`), into
    /// `self.now`.
    fn measure_now(&mut self) {
        let n = self.seated.len().min(MAX_SEATS);
        let game = &*self.game;
        reward::measures(game, self.reward, &mut self.now[..n], || scores_of(game, n));
    }

    /// The moves of a listed step into `self.advised`: `policy`'s for Python's seats to move
    /// without a pick that are not `answered` otherwise, then each pick's action in the game's
    /// list (judged on the turn's look-ahead); `past(seat, i)` for a pick `i` not in the list.
    fn listed_moves(
        &mut self,
        picks: &[(Seat, usize)],
        answered: impl Fn(Seat) -> bool,
        policy: Option<&str>,
        mut past: impl FnMut(Seat, usize),
    ) -> Result<(), String> {
        let given = |seat| answered(seat) || picks.iter().any(|(s, _)| *s == seat);
        self.advise_unless(given, policy)?;
        for &(seat, i) in picks {
            match self.listed_move(seat, i) {
                Some(m) => self.advised.push((seat, m)),
                None => past(seat, i),
            }
        }
        Ok(())
    }

    /// `seat`'s move for the pick `i` of the game's list, judged on the turn's look-ahead;
    /// `None` for a pick past the list.
    fn listed_move(&self, seat: Seat, i: usize) -> Option<G::Move> {
        let listed = G::listed(&self.game);
        self.with_judged(|g| G::listed_action(g, seat, i))
            .filter(|_| i < listed)
            .map(Into::into)
    }

    /// `advise` when a `policy` is given, else no moves (`self.advised` emptied either way).
    fn advise_unless(
        &mut self,
        given: impl Fn(Seat) -> bool,
        policy: Option<&str>,
    ) -> Result<(), String> {
        match policy {
            Some(p) => self.advise(given, p),
            None => {
                self.advised.clear();
                Ok(())
            }
        }
    }

    /// The moves the built-in bot `policy` makes for Python's seats to move that are not
    /// `given`, into `self.advised` (emptied first).
    fn advise(&mut self, given: impl Fn(Seat) -> bool, policy: &str) -> Result<(), String> {
        self.advised.clear();
        if !self.is_done() {
            for seat in self.game.to_move().iter() {
                let python = matches!(self.seated.get(seat), Some(Seated::Python(_)));
                if python && !given(seat) {
                    let i = self.adviser(seat, policy)?;
                    let action = self.advisers[i].2.act(&self.game.view(seat));
                    self.advised.push((seat, G::Move::from(action)));
                }
            }
        }
        Ok(())
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

/// Each of the first `n` seats' score in `game` now: the game's measure, the outcome's once over.
fn scores_of<G: Teach>(game: &G, n: usize) -> Vec<i64> {
    match game.outcome() {
        Some(o) => o.score.iter().take(n).copied().collect(),
        None => (0..n).map(|s| G::score(game, s)).collect(),
    }
}

impl<G: Teach> DynEnv for Env<G> {
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
        self.seed
    }

    fn reset(&mut self, seed: u64) -> Result<(), String> {
        let (plan, game, seated, agents) = Self::open(&self.kwargs, &self.bots, self.text, seed)?;
        self.start = game.turn();
        self.seed = seed;
        self.plan = plan;
        self.game = game;
        self.seated = seated;
        self.agents = agents;
        self.history.clear();
        self.advisers.clear();
        self.ahead.get_mut().fresh = false;
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
        !self.game.is_over() && self.past_limit()
    }
    fn is_done(&self) -> bool {
        self.game.is_over() || self.past_limit()
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
        let read = crate::obs::json_reader(G::NAME)?;
        let mut out = Vec::new();
        read(&self.game.state_json(seat), seat, &mut out);
        Some(out)
    }

    fn observe_array(&self, seat: Seat, out: &mut Vec<i32>) {
        out.clear();
        G::encode(&self.game, seat, self.lines(seat), out);
    }

    fn state_json(&self, seat: Seat) -> String {
        self.game.state_json(seat).to_string()
    }

    fn observe_into(&self, seat: Seat, out: crate::games::ObsOut<'_>, scratch: &mut Vec<i32>) {
        use crate::games::{ObsOut, ObsRow};
        let lines = self.lines(seat);
        match out {
            ObsOut::I32(out) => G::encode_into(&self.game, seat, lines, ObsRow { out, scratch }),
            ObsOut::I16(out) => G::encode_into(&self.game, seat, lines, ObsRow { out, scratch }),
        }
    }

    fn observe_update(
        &self,
        seat: Seat,
        out: crate::games::ObsOut<'_>,
        scratch: &mut Vec<i32>,
        written: &mut crate::obs::Written,
    ) {
        use crate::games::{ObsOut, ObsRow};
        let lines = self.lines(seat);
        match out {
            ObsOut::I32(out) => {
                G::encode_update(&self.game, seat, lines, ObsRow { out, scratch }, written)
            }
            ObsOut::I16(out) => {
                G::encode_update(&self.game, seat, lines, ObsRow { out, scratch }, written)
            }
        }
    }

    fn scores(&self) -> Vec<i64> {
        self.score_now()
    }

    fn measures(&self) -> Vec<f64> {
        let n = self.seated.len().min(MAX_SEATS);
        let mut out = vec![0.0; n];
        let game = &*self.game;
        reward::measures(game, self.reward, &mut out, || scores_of(game, n));
        out
    }

    fn set_reward(&mut self, kind: reward::Kind) {
        self.reward = kind;
        self.measure_now();
        std::mem::swap(&mut self.taken, &mut self.now);
    }

    fn take_gained(&mut self) -> &[f64] {
        self.measure_now();
        let n = self.seated.len().min(MAX_SEATS);
        let (gained, now, taken) = (&mut self.gained[..n], &self.now[..n], &mut self.taken[..n]);
        for ((g, n), t) in gained.iter_mut().zip(now).zip(taken) {
            *g = n - *t;
            *t = *n;
        }
        gained
    }

    fn listed(&self) -> usize {
        G::listed(&self.game)
    }

    fn mask_into(&self, seat: Seat, out: &mut [i8]) {
        self.with_judged(|g| G::mask(g, seat, out));
    }
    fn mask_update(&self, seat: Seat, out: &mut [i8], written: &mut crate::obs::Written) {
        self.with_judged(|g| G::mask_update(g, seat, out, written));
    }

    fn listed_json(&self, seat: Seat, i: usize) -> Option<String> {
        let listed = self.listed();
        let action = self
            .with_judged(|g| G::listed_action(g, seat, i))
            .filter(|_| i < listed)?;
        Some(G::action_json(&action).to_string())
    }

    fn listed_index(&self, seat: Seat, json: &str) -> Option<usize> {
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(json) {
            let action = G::action_from_json(&value);
            if let Some(i) = self.with_judged(|g| G::index_of(g, seat, &action)) {
                return Some(i);
            }
        }
        (0..self.listed()).find(|&i| self.listed_json(seat, i).is_some_and(|j| j == json))
    }

    fn refused_listed(&self, seat: Seat) -> Vec<bool> {
        let n = self.seated.len();
        (0..self.listed())
            .map(|i| {
                let mut game = self.game.clone();
                let mut moves = vec![G::Move::default(); n];
                let Some(a) = self.with_judged(|g| G::listed_action(g, seat, i)) else {
                    return true;
                };
                moves[seat] = a.into();
                let stepped = game.play_step(&moves, SeatSet::EMPTY);
                stepped.report.refused.get(seat).is_some_and(|&r| r > 0)
            })
            .collect()
    }

    fn factors(&self) -> Option<(usize, usize)> {
        G::factors(&self.game)
    }

    fn factored_json(&self, seat: Seat, picks: &[usize]) -> Option<String> {
        let action = self.with_judged(|g| G::factored_action(g, seat, picks))?;
        Some(G::action_json(&action).to_string())
    }

    fn factored_index(&self, seat: Seat, json: &str) -> Option<Vec<usize>> {
        let value: serde_json::Value = serde_json::from_str(json).ok()?;
        let action = G::action_from_json(&value);
        self.with_judged(|g| G::factored_picks(g, seat, &action))
    }

    fn set_recording(&mut self, on: bool) {
        self.record = on;
        if !on {
            self.history.clear();
        }
    }

    fn step(&mut self, actions: &[(Seat, String)]) -> &[SeatStep] {
        self.advised.clear();
        self.step_with(actions);
        &self.steps
    }

    fn advance(&mut self) {
        while !self.is_done() && !self.game.to_move().iter().any(|s| self.agents.contains(&s)) {
            self.advised.clear();
            self.step_with(&[]);
        }
    }

    fn stepped(
        &mut self,
        agents: &[Seat],
        row: &mut crate::vector::Row<'_>,
        scratch: &mut crate::vector::Scratch,
        refused: &[u32; MAX_SEATS],
    ) {
        crate::vector::stepped(self, agents, row, scratch, refused);
    }

    fn step_policy(
        &mut self,
        actions: &[(Seat, String)],
        policy: &str,
    ) -> Result<&[SeatStep], String> {
        self.advise(|seat| actions.iter().any(|(s, _)| *s == seat), policy)?;
        self.step_with(actions);
        Ok(&self.steps)
    }

    fn step_listed(
        &mut self,
        picks: &[(Seat, usize)],
        actions: &[(Seat, String)],
        policy: Option<&str>,
    ) -> Result<&[SeatStep], String> {
        let mut past = Vec::new();
        let answered = |seat| actions.iter().any(|(s, _)| *s == seat);
        self.listed_moves(picks, answered, policy, |seat, i| past.push((seat, i)))?;
        self.step_with(actions);
        for (seat, i) in past {
            if let Some(s) = self.steps.get_mut(seat) {
                s.refused += 1;
                s.why.push(format!("action {i}: not in the list").into());
            }
        }
        Ok(&self.steps)
    }

    fn step_lean(
        &mut self,
        picks: &[(Seat, usize)],
        policy: Option<&str>,
    ) -> Result<[u32; MAX_SEATS], String> {
        if self.text || G::SEES_BY_PROTOCOL {
            return Ok(crate::vector::refusals(self.step_listed(
                picks,
                &[],
                policy,
            )?));
        }
        let n = self.seated.len().min(MAX_SEATS);
        let mut refused = [0; MAX_SEATS];
        // Each pick's move; a pick past the list is refused (the seat passes). A seat given a
        // pick is not advised.
        let mut picked: [Option<G::Move>; MAX_SEATS] = std::array::from_fn(|_| None);
        let mut given = 0u32;
        for &(seat, i) in picks.iter().filter(|(s, _)| *s < n) {
            given |= 1 << seat;
            match self.listed_move(seat, i) {
                Some(m) => picked[seat] = Some(m),
                None => refused[seat] += 1,
            }
        }
        if self.is_done() {
            return Ok(refused);
        }
        let movers = self.game.to_move();
        // The advisers first (an unknown policy is refused before any bot draws).
        let mut advisers = [usize::MAX; MAX_SEATS];
        if let Some(p) = policy {
            for seat in movers.iter().filter(|&s| s < n && given >> s & 1 == 0) {
                if matches!(self.seated[seat], Seated::Python(_)) {
                    advisers[seat] = self.adviser(seat, p)?;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        moves.resize(n, G::Move::default());
        for seat in movers.iter().filter(|&s| s < n) {
            moves[seat] = match &mut self.seated[seat] {
                Seated::Bot(bot) => G::bot_move(bot, &self.game, seat),
                Seated::Python(_) => match (picked[seat].take(), advisers[seat]) {
                    (Some(m), _) => m,
                    (None, usize::MAX) => G::Move::default(),
                    (None, i) => G::bot_move(&mut self.advisers[i].2, &self.game, seat),
                },
            };
        }
        Self::from_ahead(&mut self.game, self.ahead.get_mut());
        self.game
            .play_report_into(&moves, SeatSet::EMPTY, &mut self.stepped);
        for (r, &x) in refused.iter_mut().zip(&self.stepped.report.refused).take(n) {
            *r += u32::from(x);
        }
        if self.record {
            self.history.push(moves.clone());
        }
        self.moves = moves;
        Ok(refused)
    }

    fn step_factored(
        &mut self,
        picks: &[(Seat, Vec<usize>)],
        policy: Option<&str>,
    ) -> Result<&[SeatStep], String> {
        self.advise_unless(|seat| picks.iter().any(|(s, _)| *s == seat), policy)?;
        let mut off = Vec::new();
        for (seat, choices) in picks {
            match self.with_judged(|g| G::factored_action(g, *seat, choices)) {
                Some(a) => self.advised.push((*seat, a.into())),
                None => off.push(*seat),
            }
        }
        self.step_with(&[]);
        for seat in off {
            if let Some(s) = self.steps.get_mut(seat) {
                s.refused += 1;
                s.why
                    .push("picks: not one choice of the space per slot".into());
            }
        }
        Ok(&self.steps)
    }

    fn bot_action(&mut self, seat: Seat, name: &str) -> Result<String, String> {
        if seat >= self.seated.len() {
            return Err(format!("no seat {seat}"));
        }
        let i = self.adviser(seat, name)?;
        let action = self.advisers[i].2.act(&self.game.view(seat));
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
    kwargs: Kwargs,
    bots: Vec<(Seat, String)>,
    text: bool,
    seed: u64,
) -> Result<Box<dyn DynEnv>, String> {
    macro_rules! pick {
        ($($folder:ident: $game:ty),* $(,)?) => {
            $(
                if name == stringify!($folder) || name == <$game as Game>::NAME {
                    return Ok(Box::new(Env::<$game>::new(kwargs, bots, text, seed)?));
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
