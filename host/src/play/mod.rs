//! The match loop on the desktop, for every game: built-in and external bots at one table, faults
//! counted, seats dropped and put out, every step handed to the recorder and the live view.
//!
//! Each step: every external bot that is to move is asked, then every answer is read in seat
//! order under its protocol's deadline; a fault plays what the protocol says instead, and after
//! enough of them (or a crash) the engine drops the bot. The step is played with every move and
//! the set of bots dropped in it; seats the rules put out hear the end at once, the others when
//! the match is over.

mod driver;

use crate::error::{Error, Result};
use crate::game::{End, Finish, Plan, Standing, Stepped, Summary};
use crate::process::Fault;
use crate::protocol::GameProtocol;
use crate::protocol::{Clock, Protocol};
use crate::record::Record;
use crate::record::{LineWriter, Recorder, Step, Watch};
use crate::seats::BotSpec;
use crate::turn_time::{CpuClock, SeatTimes, Start};
use arena_core::{Decision, Outcome, Seat, SeatSet};
use driver::{driver, Driver, Seated, Stamp};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Faults kept per seat for the report (a bot writing garbage every turn would fill memory).
pub const MAX_FAULTS: usize = 1_000;

/// A seat at the table, with what happened to it.
struct Player<G: GameProtocol + Record> {
    name: String,
    driver: Driver<G>,
    faults: Vec<(u32, Fault)>,
    /// Faults that count towards dropping the bot (notes do not).
    strikes: u32,
    refused: u32,
    /// Refusals by reason ([`Stepped::why`], the notes' own reasons).
    refused_by: BTreeMap<&'static str, u32>,
    /// Moves that were the bot's pass ([`crate::Playable::is_pass`]): a choice, not a refusal.
    passes: u32,
    standing: Standing,
    /// Told the end: closed before the next step.
    finished: bool,
    /// Times the seat's program was started again ([`crate::GameProtocol::rejoin_epoch`]).
    restarts: u32,
    /// Its time a turn.
    times: SeatTimes,
    /// The CPU clock its turns are timed on.
    cpu: Option<CpuClock>,
    /// When its external bot's last line arrived.
    stamp: Option<Stamp>,
    /// The turn it was last asked for, being timed.
    asked: Option<Start>,
}

impl<G: GameProtocol + Record> Player<G> {
    fn new(name: Option<String>, seated: Seated<G>) -> Self {
        let times = SeatTimes {
            cpu_of: match seated.cpu {
                Some(CpuClock::Thread) => crate::turn_time::CpuOf::Thread,
                Some(CpuClock::Tree(_)) => crate::turn_time::CpuOf::Process,
                None => crate::turn_time::CpuOf::None,
            },
            ..SeatTimes::default()
        };
        Player {
            name: name.unwrap_or_default(),
            driver: seated.driver,
            times,
            cpu: seated.cpu,
            stamp: seated.stamp,
            asked: None,
            faults: Vec::new(),
            strikes: 0,
            refused: 0,
            refused_by: BTreeMap::new(),
            passes: 0,
            standing: Standing::default(),
            finished: false,
            restarts: 0,
        }
    }

    /// What an answer got wrong without losing the answer: each noted, refusals counted.
    fn take_notes(&mut self, turn: u32, notes: Vec<Fault>) {
        for note in notes {
            if note.is_refusal() {
                self.refused += 1;
                *self.refused_by.entry(note.reason()).or_default() += 1;
            }
            self.note(turn, note);
        }
    }

    fn note(&mut self, turn: u32, fault: Fault) {
        if self.faults.len() < MAX_FAULTS {
            self.faults.push((turn, fault));
        }
    }

    fn is_external(&self) -> bool {
        matches!(self.driver, Driver::External(_))
    }

    /// The engine drops the bot: it is told nothing more.
    fn drop_bot(&mut self, turn: u32, fault: Fault) {
        if let Driver::External(p) = &mut self.driver {
            p.close();
        }
        self.driver = Driver::Gone;
        self.standing.dropped.get_or_insert((turn, fault));
    }
}

/// What a match came to.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The game's name.
    pub game: &'static str,
    /// The match's seed.
    pub seed: u64,
    /// The turns played, as the game counts them ([`arena_core::Game::turn`]).
    pub turns: u32,
    /// How the game ended: ranks, scores and the reason; `None` when it did not finish (a step
    /// limit).
    pub outcome: Option<Outcome>,
    /// What decided the ranking: the report prints the core's own words for it.
    pub decision: Option<Decision>,
    /// Per seat, in seat order: its bot's name, faults and refusals.
    pub seats: Vec<SeatReport>,
    /// The game's own additions to the report.
    pub summary: Summary,
}

/// One seat's part in a match report: what its bot did wrong, and how often the rules refused it.
#[derive(Clone, Debug)]
pub struct SeatReport {
    /// What the report calls the seat's bot.
    pub name: String,
    /// Every fault, with the turn it happened at.
    pub faults: Vec<(u32, Fault)>,
    /// The turn the engine dropped the bot at; `None` when it played on, or in a game a dropped
    /// seat can rejoin.
    pub disqualified: Option<u32>,
    /// Actions the rules refused, over the match.
    pub refused: u32,
    /// `refused` by reason, in the order of the reasons' names.
    pub refused_by: Vec<(&'static str, u32)>,
    /// Moves that were the bot's pass, counted apart from refusals.
    pub passes: u32,
    /// Its time a turn, on the wall and in CPU time.
    pub times: SeatTimes,
}

/// A match played: the state at the end, the report, and whether writing the replay failed.
pub struct Played<G> {
    /// The game as it stands at the end.
    pub game: Box<G>,
    /// The match's report.
    pub report: MatchReport,
    /// Why writing the replay failed, if it did: the match was played, its replay is incomplete.
    pub write_error: Option<String>,
}

/// Plays `plan`'s match to its end (or its step limit), writing the replay to `replay` as it goes
/// and showing it to `watch`.
pub fn play<G: GameProtocol + Record>(
    plan: &Plan<G>,
    replay: Option<&Path>,
    watch: Option<&mut dyn Watch<G>>,
) -> Result<Played<G>> {
    let open = crate::process::OpenReplay::new();
    let (mut table, lost) = Table::open(plan, replay, watch)?;
    let start = table.game.turn();
    table.greet(lost, start);
    let played = |g: &G| u64::from(g.turn().saturating_sub(start));
    let mut epoch = table.game.rejoin_epoch();
    // A signal ending arena stops the match at the step it is in: the replay ends on what is
    // whole (`verify --partial` takes it).
    while !table.game.is_over()
        && plan.max_turns.is_none_or(|m| played(&table.game) < m)
        && !crate::process::ending()
    {
        table.step(&mut epoch)?;
    }
    table.end();
    drop(open);
    Ok(table.report())
}

/// A match being played: the state, the seats, and what records and watches it.
struct Table<'p, 'w, G: GameProtocol + Record> {
    plan: &'p Plan<G>,
    game: Box<G>,
    players: Vec<Player<G>>,
    recorder: G::Recorder,
    out: LineWriter,
    /// Whether a replay is written.
    recording: bool,
    watch: Option<&'w mut dyn Watch<G>>,
}

/// The moves of one step, and the seats whose bots the engine dropped in it.
struct Moves<M> {
    moves: Vec<M>,
    dropped: SeatSet,
}

impl<'p, 'w, G: GameProtocol + Record> Table<'p, 'w, G> {
    /// The state and a seat for every bot, the replay begun and the watcher shown the start;
    /// with the seats whose bots could not start, and why.
    fn open(
        plan: &'p Plan<G>,
        replay: Option<&Path>,
        mut watch: Option<&'w mut dyn Watch<G>>,
    ) -> Result<(Self, Vec<(Seat, Fault)>)> {
        let game = G::boxed(plan).map_err(Error::Setup)?;
        let n = game.seats();
        if plan.bots.len() != n {
            return Err(Error::TooManyBots {
                game: G::NAME,
                seats: n,
                given: plan.bots.len(),
            });
        }
        let mut out = LineWriter::create(replay)?;
        let mut players: Vec<Player<G>> = Vec::with_capacity(n);
        let mut lost = Vec::new();
        for seat in 0..n {
            let mut seated = driver(plan, seat, 0)?;
            if let Some(f) = seated.fault.take() {
                lost.push((seat, f));
            }
            players.push(Player::new(plan.names.get(seat).cloned(), seated));
        }
        let mut recorder = G::Recorder::new(plan);
        let recording = out.is_open();
        if recording {
            recorder.begin(&game, plan, &mut out);
        }
        if let Some(w) = watch.as_deref_mut() {
            w.start(&game);
        }
        let table = Table {
            plan,
            game,
            players,
            recorder,
            out,
            recording,
            watch,
        };
        Ok((table, lost))
    }

    /// The engine drops `seat`'s bot at `turn` for `f`, and the replay says so.
    fn lose(&mut self, seat: Seat, turn: u32, f: Fault) {
        // A bot ended by a signal ending arena is not dropped by the rules: the replay keeps it.
        if self.recording && !crate::process::ending() {
            self.recorder.dropped(seat, turn, &f);
        }
        let p = &mut self.players[seat];
        p.note(turn, f.clone());
        p.drop_bot(turn, f);
    }

    /// Before the first step: the bots that could not start are dropped, then each bot is
    /// greeted, then every bot's answer to the greeting is read.
    fn greet(&mut self, lost: Vec<(Seat, Fault)>, start: u32) {
        let mut at_start = SeatSet::EMPTY;
        for (seat, f) in lost {
            self.lose(seat, start, f);
            at_start = at_start.with(seat);
        }
        self.tell_each(start, &mut at_start, |proto, game, seat| {
            proto.hello(game, seat)
        });
        let clock = Clock::now();
        self.tell_each(start, &mut at_start, |proto, game, seat| {
            proto.ready(game, seat, &clock)
        });
        self.game.drop_at_start(at_start);
    }

    /// `say` to every external bot in seat order; a bot that fails is dropped at `start`.
    fn tell_each(
        &mut self,
        start: u32,
        at_start: &mut SeatSet,
        say: impl Fn(&mut dyn Protocol<G>, &G, Seat) -> Result<(), Fault>,
    ) {
        for seat in 0..self.players.len() {
            let Driver::External(proto) = &mut self.players[seat].driver else {
                continue;
            };
            if let Err(f) = say(proto.as_mut(), &self.game, seat) {
                self.lose(seat, start, f);
                *at_start = at_start.with(seat);
            }
        }
    }

    /// One step: the bots told the end are closed, dropped programs started again in a new part
    /// of the match, every mover asked and answered, the step played, recorded and shown, and
    /// the seats it put out told.
    fn step(&mut self, epoch: &mut Option<u32>) -> Result<()> {
        for p in self.players.iter_mut().filter(|p| p.finished) {
            if let Driver::External(proto) = &mut p.driver {
                proto.close();
            }
            p.driver = Driver::Gone;
        }
        let movers = self.game.to_move();
        let turn = self.game.turn();
        let label = self.game.report_turn();
        if self.game.rejoin_epoch() != *epoch {
            *epoch = self.game.rejoin_epoch();
            self.rejoin_dropped(label)?;
        }
        let n = self.players.len();
        let was_in: Vec<bool> = (0..n).map(|s| self.game.seat_in(s)).collect();
        let asked = self.ask(movers);
        let Moves { moves, dropped } = self.answers(movers, label, &asked);
        if crate::process::ending() {
            // The bots were ended by a signal, not by the rules: this step is not played.
            return Ok(());
        }
        let stepped = self.game.play_step(&moves, dropped);
        self.tally(&stepped, movers, label);
        if self.recording {
            let step = Step {
                turn,
                movers,
                moves: &moves,
                report: &stepped.report,
                why: &stepped.why,
            };
            self.recorder.step(&self.game, &step, &mut self.out);
        }
        if let Some(w) = self.watch.as_deref_mut() {
            w.step(&self.game);
        }
        // Seats the rules put out hear it now, one after the other, each seeing those before it.
        for (seat, was) in was_in.into_iter().enumerate() {
            let put_out = was && !self.game.seat_in(seat);
            if !put_out || self.players[seat].standing.dropped.is_some() {
                continue;
            }
            self.players[seat].standing.out = Some(label);
            finish(&mut self.players, seat, &self.game, Finish::Out);
        }
        Ok(())
    }

    /// Every seat whose program the engine dropped, started again ([`rejoin`]).
    fn rejoin_dropped(&mut self, label: u32) -> Result<()> {
        for (seat, p) in self.players.iter_mut().enumerate() {
            let program = matches!(self.plan.bots.get(seat), Some(BotSpec::Command(_)));
            if program && p.standing.dropped.is_some() && !p.finished {
                rejoin(self.plan, &self.game, seat, p, label)?;
            }
        }
        Ok(())
    }

    /// Every external bot that is to move is asked: when, or the fault that stopped the request.
    fn ask(&mut self, movers: SeatSet) -> Vec<Result<Instant, Fault>> {
        let mut asked: Vec<Result<Instant, Fault>> = vec![
            Err(Fault::Exited {
                status: "not asked".into()
            });
            self.players.len()
        ];
        for (seat, p) in self.players.iter_mut().enumerate() {
            if let (true, Driver::External(proto)) = (movers.contains(seat), &mut p.driver) {
                let start = Start::now(p.cpu);
                asked[seat] = proto.ask(&self.game, seat).map(|()| Instant::now());
                p.asked = asked[seat].is_ok().then_some(start);
            }
        }
        asked
    }

    /// Every mover's move, in seat order: a built-in bot's, what a gone seat plays, an external
    /// bot's answer under its protocol's deadline (or what the protocol plays for its fault; a
    /// bot with too many faults, or that crashed, is dropped).
    fn answers(
        &mut self,
        movers: SeatSet,
        label: u32,
        asked: &[Result<Instant, Fault>],
    ) -> Moves<G::Move> {
        let n = self.players.len();
        let mut moves: Vec<G::Move> = vec![G::Move::default(); n];
        let mut dropped = SeatSet::EMPTY;
        let all_asked = Instant::now();
        let mut previous = all_asked;
        for seat in (0..n).filter(|&s| movers.contains(s)) {
            let game = &self.game;
            let p = &mut self.players[seat];
            let mv = &mut moves[seat];
            let (got, limit) = match &mut p.driver {
                Driver::Builtin(bot) => {
                    let start = Start::now(p.cpu);
                    *mv = G::bot_move(bot.as_mut(), game, seat);
                    start.stop(None, p.cpu, &mut p.times);
                    p.passes += u32::from(game.is_pass(seat, mv));
                    continue;
                }
                Driver::Gone => {
                    *mv = game.gone_move(seat);
                    continue;
                }
                Driver::External(proto) => {
                    let got = match &asked[seat] {
                        Ok(at) => {
                            let clock = Clock {
                                asked: *at,
                                all_asked,
                                previous,
                            };
                            if let Some(Ok(mut at)) = p.stamp.as_ref().map(|s| s.lock()) {
                                *at = None;
                            }
                            let got = proto.answer(game, seat, &clock);
                            previous = Instant::now();
                            let arrived = p
                                .stamp
                                .as_ref()
                                .and_then(|s| s.lock().ok().and_then(|at| *at));
                            if let Some(start) = p.asked.take() {
                                start.stop(Some(arrived.unwrap_or(previous)), p.cpu, &mut p.times);
                            }
                            got
                        }
                        // The answer to a request that could not be sent is that fault.
                        Err(f) => Err(f.clone()),
                    };
                    match got {
                        Ok(answer) => (Ok(answer), 0),
                        Err(f) => {
                            *mv = proto.fault_move(game, seat, &f);
                            (Err(f), proto.max_faults())
                        }
                    }
                }
            };
            match got {
                Ok(answer) => {
                    *mv = answer.mv;
                    p.passes += u32::from(game.is_pass(seat, mv));
                    p.take_notes(label, answer.notes);
                }
                Err(f) => {
                    let fatal = matches!(f, Fault::Exited { .. } | Fault::Spawn { .. });
                    p.note(label, f.clone());
                    p.strikes += 1;
                    if fatal || p.strikes >= limit {
                        self.lose_in_step(seat, label, f);
                        dropped = dropped.with(seat);
                    }
                }
            }
        }
        Moves { moves, dropped }
    }

    /// The engine drops `seat`'s bot during the step of `label` (its fault already noted).
    fn lose_in_step(&mut self, seat: Seat, label: u32, f: Fault) {
        if self.recording && !crate::process::ending() {
            self.recorder.dropped(seat, label, &f);
        }
        self.players[seat].drop_bot(label, f);
    }

    /// What the step did to each seat: its refusals by reason, its last turn to move, the notes
    /// the game gave.
    fn tally(&mut self, stepped: &Stepped, movers: SeatSet, label: u32) {
        for (seat, p) in self.players.iter_mut().enumerate() {
            let refused = u32::from(stepped.report.refused.get(seat).copied().unwrap_or(0));
            p.refused += refused;
            file_reasons(&mut p.refused_by, stepped, seat, refused);
            if movers.contains(seat) {
                p.standing.last_turn = label;
            }
        }
        for (seat, f) in &stepped.notes {
            if let Some(p) = self.players.get_mut(*seat) {
                p.note(label, f.clone());
            }
        }
    }

    /// The end: every bot still playing hears it, then every connection is closed, the replay
    /// ended and the watcher shown the end.
    fn end(&mut self) {
        let mut told = false;
        for seat in 0..self.players.len() {
            let p = &self.players[seat];
            if p.standing.dropped.is_none() && !p.finished {
                told |= p.is_external();
                finish(&mut self.players, seat, &self.game, Finish::Over);
            }
        }
        if told && self.players.iter().any(|p| p.is_external()) {
            // A moment to read the end before the engine stops them, as a courtesy.
            std::thread::sleep(Duration::from_millis(50));
        }
        for p in self.players.iter_mut() {
            if let Driver::External(proto) = &mut p.driver {
                proto.close();
            }
            p.driver = Driver::Gone;
        }
        if self.recording {
            self.recorder.end(&self.game, self.plan, &mut self.out);
        }
        if let Some(w) = self.watch.take() {
            w.end(&self.game);
        }
    }

    /// The match played: the state at the end and the report.
    fn report(self) -> Played<G> {
        let standings: Vec<Standing> = self.players.iter().map(|p| p.standing.clone()).collect();
        let game = self.game;
        let rejoins = game.rejoin_epoch().is_some();
        let report = MatchReport {
            game: G::NAME,
            seed: self.plan.seed,
            turns: game.turn(),
            outcome: game.outcome(),
            decision: game.decision(),
            summary: G::summary(&game, self.plan, &standings),
            seats: self
                .players
                .into_iter()
                .map(|p| SeatReport {
                    name: p.name,
                    disqualified: p.standing.dropped.filter(|_| !rejoins).map(|(t, _)| t),
                    faults: p.faults,
                    refused: p.refused,
                    refused_by: p.refused_by.into_iter().collect(),
                    passes: p.passes,
                    times: p.times,
                })
                .collect(),
        };
        Played {
            game,
            report,
            write_error: self.out.error,
        }
    }
}

/// Files `seat`'s `refused` refusals of a step by the reasons the game gave; those it gave none
/// for are "refused by the rules".
pub(crate) fn file_reasons(
    by: &mut BTreeMap<&'static str, u32>,
    stepped: &Stepped,
    seat: Seat,
    refused: u32,
) {
    let mut told = 0;
    for &(_, why) in stepped
        .why
        .iter()
        .filter(|(s, _)| *s == seat)
        .take(refused as usize)
    {
        *by.entry(why).or_default() += 1;
        told += 1;
    }
    if refused > told {
        *by.entry("refused by the rules").or_default() += refused - told;
    }
}

/// Starts `seat`'s program again ([`crate::GameProtocol::rejoin_epoch`]): a new process and protocol, greeted
/// as at the start. The seat's faults stay; its drop is forgotten unless it cannot start.
fn rejoin<G: GameProtocol + Record>(
    plan: &Plan<G>,
    game: &G,
    seat: Seat,
    p: &mut Player<G>,
    turn: u32,
) -> Result<()> {
    p.restarts += 1;
    let seated = driver(plan, seat, p.restarts)?;
    if let Some(f) = seated.fault {
        p.note(turn, f);
        return Ok(());
    }
    p.driver = seated.driver;
    p.cpu = seated.cpu;
    p.stamp = seated.stamp;
    p.standing.dropped = None;
    if let Driver::External(proto) = &mut p.driver {
        let started = proto
            .hello(game, seat)
            .and_then(|()| proto.ready(game, seat, &Clock::now()));
        if let Err(f) = started {
            p.note(turn, f.clone());
            p.drop_bot(turn, f);
        }
    }
    Ok(())
}

/// Tells `seat`'s bot the end (`why`), with every seat's standing as it is now.
fn finish<G: GameProtocol + Record>(players: &mut [Player<G>], seat: Seat, game: &G, why: Finish) {
    let standings: Vec<Standing> = players.iter().map(|p| p.standing.clone()).collect();
    let Some(p) = players.get_mut(seat) else {
        return;
    };
    if let Driver::External(proto) = &mut p.driver {
        proto.finish(
            game,
            seat,
            &End {
                why,
                standings: &standings,
            },
        );
    }
    p.finished = true;
}

impl std::fmt::Display for MatchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "game:   {}", self.game)?;
        writeln!(f, "seed:   {}", self.seed)?;
        writeln!(f, "turns:  {}", self.turns)?;
        match &self.outcome {
            Some(o) => {
                match o.winner() {
                    Some(w) => writeln!(
                        f,
                        "result: seat {w} ({}) wins",
                        self.seats.get(w).map(|s| s.name.as_str()).unwrap_or("?")
                    )?,
                    None => writeln!(f, "result: draw")?,
                }
                writeln!(f, "reason: {}", o.reason)?;
                if let Some(d) = &self.decision {
                    writeln!(f, "why:    {}", d.verdict())?;
                    writeln!(f, "rule:   {}", d.rule())?;
                }
            }
            None => writeln!(f, "result: not finished (turn limit)")?,
        }
        for (seat, s) in self.seats.iter().enumerate() {
            let (rank, score) = match &self.outcome {
                Some(o) => (
                    format!("rank {}", o.rank.get(seat).map(|r| r + 1).unwrap_or(0)),
                    format!("score {}", o.score.get(seat).copied().unwrap_or(0)),
                ),
                None => (String::new(), String::new()),
            };
            write!(
                f,
                "seat {seat}: {:<24} {rank:<7} {score:<14} refused actions {}",
                s.name, s.refused
            )?;
            if let Some(d) = &self.decision {
                let numbers = d.seat(seat).to_string();
                if !numbers.is_empty() {
                    write!(f, ", {numbers}")?;
                }
            }
            if !s.faults.is_empty() {
                write!(f, ", faults {}", s.faults.len())?;
            }
            if let Some(t) = s.disqualified {
                write!(f, ", disqualified at turn {t}")?;
            }
            writeln!(f)?;
            if s.passes > 0 || !s.refused_by.is_empty() {
                writeln!(f, "        {}", s.moves_line())?;
            }
            if s.times.wall.turns > 0 {
                writeln!(f, "        time a turn: {}", s.times.line())?;
            }
            for (turn, fault) in s.faults.iter().take(5) {
                writeln!(f, "        turn {turn}: {fault}")?;
            }
            if s.faults.len() > 5 {
                writeln!(f, "        ... and {} more", s.faults.len() - 5)?;
            }
        }
        for line in &self.summary.lines {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl SeatReport {
    /// Passes, then refusals by reason: `passes 100; refused: 12 move out of reach (snapped), 2 no reply`.
    pub fn moves_line(&self) -> String {
        let by: Vec<String> = self
            .refused_by
            .iter()
            .map(|(why, n)| format!("{n} {why}"))
            .collect();
        match by.is_empty() {
            true => format!("passes {}", self.passes),
            false => format!("passes {}; refused: {}", self.passes, by.join(", ")),
        }
    }
}

impl MatchReport {
    /// The report as JSON (`arena play --json`).
    pub fn json(&self) -> serde_json::Value {
        let seats: Vec<serde_json::Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                serde_json::json!({
                    "seat": i,
                    "bot": s.name,
                    "rank": self.outcome.map(|o| o.rank[i.min(arena_core::MAX_SEATS - 1)]),
                    "score": self.outcome.map(|o| o.score[i.min(arena_core::MAX_SEATS - 1)]),
                    "refused": s.refused,
                    "compared": self.decision.map(|d| d.seat(i).to_string()),
                    "defeated_at": self.decision.and_then(|d| d.defeated.get(i).copied().flatten()),
                    "refused_by": s.refused_by.iter().map(|(why, n)| (why.to_string(), serde_json::json!(n))).collect::<serde_json::Map<_, _>>(),
                    "passes": s.passes,
                    "time": s.times.json(),
                    "disqualified_at": s.disqualified,
                    "faults": s.faults.iter().map(|(t, f)| serde_json::json!({"turn": t, "kind": f.kind(), "what": f.to_string()})).collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut json = serde_json::json!({
            "game": self.game,
            "seed": self.seed,
            "turns": self.turns,
            "winner": self.outcome.and_then(|o| o.winner()),
            "reason": self.outcome.map(|o| o.reason),
            "decided_by": self.decision.map(|d| d.verdict().to_string()),
            "rule": self.decision.map(|d| d.rule().to_string()),
            "seats": seats,
        });
        if let Some(obj) = json.as_object_mut() {
            obj.extend(self.summary.json.clone());
        }
        json
    }
}
