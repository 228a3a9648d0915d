//! The match loop: a rotation of bot-vs-bot matches, one step and one frame at a time.
//!
//! A "turn" here is one `Game::step` (one phase, in games whose turns have phases; one seat's move,
//! in games played one seat at a time): the log's `t=`, the schedules and the turn limit count
//! steps.
//!
//! Match `n` plays entry `n % L::LEN` of the lineup with the entry's own seed for round
//! `n / L::LEN` ([`crate::lineup::entry_seed`]), so match `n` is the same match on every board and
//! on the host, and an entry's matches do not change when other entries are added. Each turn: the
//! bots decide, each seat's timed apart, then the game steps, timed by the turn clock (with
//! [`RunConfig::seats`] the board hears of each seat's decision, and the cost run's boards log its
//! cost and its bot's stack); then, outside the timed spans, the digest every `digest_every`
//! turns, the frame (every `frames_every` turns), and on snapshot turns the "frame ready" log and
//! [`Board::hold`]. After the match: the final
//! digest, the result, the cost summary and the result screen.

use arena_core::{Bot, Game, Moment, Roster};

use crate::board::{Board, Event, FrameKind};
use crate::cost::{CostStats, CostSummary, TurnClock};
use crate::lineup::{entry_seed, with_bots, Entry, Lineup, Pick, Visit};
use crate::screen::{draw_game, draw_result, MatchLabel, Screen};

/// What a run plays and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// The number of the first match (and so its seed).
    pub first: u32,
    /// How many matches; `None` plays forever.
    pub matches: Option<u32>,
    /// Log the digest after every `digest_every` steps (0: only at the end).
    pub digest_every: u32,
    /// Snapshot frames (announced, then held) every `snapshot_every` steps and on the result screen
    /// (0: never).
    pub snapshot_every: u32,
    /// A match that has not ended after this many steps is stopped (no outcome).
    pub max_steps: u32,
    /// The pace a person can watch: after each game frame the board waits until this many turns a
    /// second ([`Board::pace`]; a board that cannot wait, or the host, plays on). 0: flat out.
    pub turns_per_second: u32,
    /// Tell the board around each seat's decision ([`Event::Acting`], [`Event::Acted`]): the
    /// cost run's boards log each seat's cost a turn and its bot's stack high-water (which they
    /// measure by painting the stack, outside the timed spans).
    pub seats: bool,
    /// Draw the game's frame after every `frames_every` steps only (and on snapshot turns, and the
    /// first and result screens); 0 or 1: after every step. The cost run draws fewer: on an
    /// emulated board, drawing and sending frames took 99% of the run's time.
    pub frames_every: u32,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            first: 0,
            matches: None,
            digest_every: 10,
            snapshot_every: 0,
            max_steps: 2000,
            turns_per_second: 0,
            seats: false,
            frames_every: 1,
        }
    }
}

/// What a match came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    /// The match's number in the lineup.
    pub number: u32,
    /// Turns played.
    pub turns: u32,
    /// The final state's digest.
    pub digest: u64,
    /// The single winner; `None` for a draw or a match not finished.
    pub winner: Option<usize>,
    /// Whether the game reached its end (not stopped at the turn limit).
    pub finished: bool,
    /// The rules' cost per turn (`step`).
    pub cost: CostSummary,
    /// The bots' cost per turn (every seat's decision, the seats' costs added).
    pub bots_cost: CostSummary,
    /// Actions refused over the match, every seat together.
    pub refused: u32,
}

/// Plays matches `cfg.first ..` of lineup `L` on `board`; returns how many were played.
pub fn run<L: Lineup, B: Board>(board: &mut B, cfg: &RunConfig) -> u32 {
    let mut played = 0;
    let mut number = cfg.first;
    while cfg.matches.is_none_or(|m| played < m) {
        let round = (number as usize).checked_div(L::LEN).unwrap_or(0) as u32;
        L::visit(
            number as usize,
            Player {
                board,
                cfg,
                number,
                round,
            },
        );
        played = played.saturating_add(1);
        number = number.wrapping_add(1);
    }
    played
}

struct Player<'a, B> {
    board: &'a mut B,
    cfg: &'a RunConfig,
    number: u32,
    /// How many times the rotation came round before this match.
    round: u32,
}

impl<B: Board> Visit for Player<'_, B> {
    type Out = Option<MatchSummary>;
    fn visit<G: Screen + Roster>(
        self,
        entry: &Entry,
        seats: &[Pick<G>],
        params: &dyn Fn() -> Option<G::Params>,
    ) -> Self::Out {
        let seed = entry_seed(G::NAME, entry, self.round);
        play_match::<G, B>(
            self.board,
            entry,
            seats,
            params,
            self.number,
            seed,
            self.cfg,
        )
    }
    fn skip(self, _entry: &Entry) -> Self::Out {
        setup_failed(self.board, self.number)
    }
}

fn frame<B: Board>(board: &mut B, number: u32, turn: u32, kind: FrameKind, snapshot: bool) {
    board.event(&Event::Frame {
        number,
        turn,
        kind,
        snapshot,
    });
    if snapshot {
        #[cfg(feature = "defmt")]
        defmt::info!("frame m={=u32} t={=u32} k={}", number, turn, kind);
        board.hold();
    }
}

/// Plays match `number` of entry `entry` with seed `seed`, `seats` playing (see
/// [`with_bots`]), its state set up with what `params` builds; `None` when it could not be set
/// up.
///
/// Never inlined: inlined once per lineup entry, each copy would reserve its own room for the state
/// in the caller's frame. Its steps below are always inlined into it: one frame, as before they
/// were named, so the stack high-water and the cycle counts stay as they were.
#[inline(never)]
pub fn play_match<G: Screen + Roster, B: Board>(
    board: &mut B,
    entry: &Entry,
    seats: &[Pick<G>],
    params: &dyn Fn() -> Option<G::Params>,
    number: u32,
    seed: u64,
    cfg: &RunConfig,
) -> Option<MatchSummary> {
    announce_start::<G, B>(board, entry, number, seed);
    // The state is built where it lives, in this frame (`blank`, then `init` in place): on a
    // Cortex-M3 every temporary copy of a 13 KB state is 13 KB more stack.
    let mut state = blank_game::<G>();
    if !init_game(&mut state, params, seed) {
        return setup_failed(board, number);
    }
    let game = &mut state;
    if game.seats() > BOARD_SEATS {
        return setup_failed(board, number);
    }
    let label = MatchLabel {
        number,
        game: G::NAME,
        config: entry.config,
        seed,
        bots: entry.bots,
    };
    let mut costs = Costs {
        step: CostStats::new(),
        bots: CostStats::new(),
    };
    let mut played = None;
    let seated = game.seats();
    with_bots(seats, seated, seed, &mut |bots| {
        played = Some(play_steps(board, game, bots, &label, cfg, &mut costs));
    });
    let Some((turns, refused)) = played else {
        return setup_failed(board, number);
    };
    let outcome = game.outcome();
    let summary = MatchSummary {
        number,
        turns,
        digest: game.digest(),
        winner: outcome.and_then(|o| o.winner()),
        finished: outcome.is_some(),
        cost: costs.step.summary(),
        bots_cost: costs.bots.summary(),
        refused,
    };
    announce_end(board, &summary, outcome.as_ref());
    #[cfg(feature = "defmt")]
    log_end::<G>(&summary, outcome.as_ref(), game.turn_limit_us());
    let _ = draw_result(&label, game, turns, board.display());
    frame(
        board,
        number,
        turns,
        FrameKind::Result,
        cfg.snapshot_every != 0,
    );
    Some(summary)
}

/// Whether the frame after `turn` steps is a snapshot.
fn snapshot_due(cfg: &RunConfig, turn: u32) -> bool {
    cfg.snapshot_every != 0 && turn.is_multiple_of(cfg.snapshot_every)
}

/// The match is starting: the event and the log line.
#[inline(always)]
fn announce_start<G: Screen + Roster, B: Board>(
    board: &mut B,
    entry: &Entry,
    number: u32,
    seed: u64,
) {
    board.event(&Event::Start {
        number,
        game: G::NAME,
        config: entry.config,
        seed,
        bots: entry.bots,
        state_bytes: core::mem::size_of::<G>(),
    });
    #[cfg(feature = "defmt")]
    defmt::info!(
        "start m={=u32} game={=str} config={=str} seed={=u64} state={=u32} bots={=[?]}",
        number,
        G::NAME,
        entry.config,
        seed,
        core::mem::size_of::<G>() as u32,
        entry.bots
    );
}

/// The first frame, then the steps until the game is over or `cfg.max_steps` are played, each
/// followed by its digest (every `digest_every` steps) and its frame. The steps played and the
/// actions refused.
#[inline(always)]
fn play_steps<G: Screen + Roster, B: Board>(
    board: &mut B,
    game: &mut G,
    bots: &mut [&mut dyn Bot<G>],
    label: &MatchLabel<'_>,
    cfg: &RunConfig,
    costs: &mut Costs,
) -> (u32, u32) {
    let number = label.number;
    let _ = draw_game(game, label, board.display());
    frame(board, number, 0, FrameKind::Game, snapshot_due(cfg, 0));
    pace(board, cfg);
    let mut refused: u32 = 0;
    // The schedule counts steps, not `Game::turn`: a step may be a phase of a turn, or one seat's
    // move.
    let mut steps: u32 = 0;
    while !game.is_over() && steps < cfg.max_steps {
        let report = play_turn(game, bots, board, cfg.seats, costs);
        refused = refused.saturating_add(report.total_refused());
        steps = steps.saturating_add(1);
        let turn = steps;
        if cfg.digest_every != 0 && turn.is_multiple_of(cfg.digest_every) {
            let digest = game.digest();
            board.event(&Event::Digest {
                number,
                turn,
                digest,
            });
            #[cfg(feature = "defmt")]
            defmt::info!("digest m={=u32} t={=u32} d={=u64}", number, turn, digest);
        }
        show_turn(board, game, label, cfg, turn);
    }
    (steps, refused)
}

/// The game's frame after `turn` steps, when one is due (every `frames_every` turns and on
/// snapshot turns), then the pace. Out of line: in the loop, what deciding it takes was in the
/// frame under every turn's and every frame's stack (the Pico's Ants on tutorial1 went past its
/// budget).
#[inline(never)]
fn show_turn<G: Screen, B: Board>(
    board: &mut B,
    game: &G,
    label: &MatchLabel<'_>,
    cfg: &RunConfig,
    turn: u32,
) {
    if turn.is_multiple_of(cfg.frames_every.max(1)) || snapshot_due(cfg, turn) {
        let _ = draw_game(game, label, board.display());
        frame(
            board,
            label.number,
            turn,
            FrameKind::Game,
            snapshot_due(cfg, turn),
        );
        pace(board, cfg);
    }
}

/// A game frame is shown: the board keeps the pace of `cfg`, if any.
#[inline(always)]
fn pace<B: Board>(board: &mut B, cfg: &RunConfig) {
    if cfg.turns_per_second != 0 {
        board.pace(cfg.turns_per_second);
    }
}

/// The match is over: the event.
#[inline(always)]
fn announce_end<B: Board>(
    board: &mut B,
    summary: &MatchSummary,
    outcome: Option<&arena_core::Outcome>,
) {
    board.event(&Event::End {
        number: summary.number,
        turns: summary.turns,
        digest: summary.digest,
        outcome,
        cost: summary.cost,
        bots_cost: summary.bots_cost,
        refused: summary.refused,
    });
}

/// The match is over: the log lines of its digest, result and cost.
#[cfg(feature = "defmt")]
#[inline(always)]
fn log_end<G: Roster>(
    summary: &MatchSummary,
    outcome: Option<&arena_core::Outcome>,
    limit_us: u32,
) {
    let MatchSummary {
        number,
        turns,
        digest,
        cost,
        bots_cost,
        refused,
        ..
    } = *summary;
    {
        defmt::info!("final m={=u32} t={=u32} d={=u64}", number, turns, digest);
        match outcome {
            Some(o) => defmt::info!(
                "result m={=u32} turns={=u32} ranks={=[u8]} scores={=[?]} reason={=str} refused={=u32}",
                number,
                turns,
                o.ranks(),
                o.scores(),
                o.reason,
                refused
            ),
            None => defmt::warn!("result m={=u32} turns={=u32} stopped (max steps)", number, turns),
        }
        defmt::info!(
            "cost m={=u32} game={=str} turns={=u32} min={=u32} median={=u32} p99={=u32} max={=u32} total={=u64} bots_min={=u32} bots_median={=u32} bots_p99={=u32} bots_max={=u32} limit_us={=u32}",
            number,
            G::NAME,
            cost.turns,
            cost.min,
            cost.median,
            cost.p99,
            cost.max,
            cost.total,
            bots_cost.min,
            bots_cost.median,
            bots_cost.p99,
            bots_cost.max,
            limit_us
        );
    }
}

/// Out of line, so that `blank`'s temporaries (an array built, then moved into the state) live
/// in its own frame, gone once it returns: the caller's frame holds the state only.
#[inline(never)]
fn blank_game<G: Game>() -> G {
    G::blank()
}

/// Sets `game` up with the params `params` builds; whether it could. Out of line, so that the
/// params (a map is kilobytes) live in its frame, gone once it returns: no match holds them while
/// it plays. Building them and `init` are deeper frames, one after the other.
#[inline(never)]
fn init_game<G: Game>(game: &mut G, params: &dyn Fn() -> Option<G::Params>, seed: u64) -> bool {
    match &params() {
        Some(p) => init_with(game, p, seed),
        None => false,
    }
}

/// Out of line, so that `init`'s own temporaries live in its frame, gone once it returns.
#[inline(never)]
fn init_with<G: Game>(game: &mut G, params: &G::Params, seed: u64) -> bool {
    game.init(params, seed).is_ok()
}

fn setup_failed<B: Board>(board: &mut B, number: u32) -> Option<MatchSummary> {
    board.event(&Event::SetupFailed { number });
    #[cfg(feature = "defmt")]
    defmt::error!("setup failed m={=u32}", number);
    None
}

/// The most seats a board's match has (five: the most any game of the rotation seats): the room for
/// actions and bots. A game with more seats than this fails its setup on a board.
pub const BOARD_SEATS: usize = 5;

/// One turn: the bots decide, then the game steps ([`Roster::step_bots`], room for the actions of
/// [`BOARD_SEATS`]), timed apart (the budget is the rules'; the bots are as costly as their
/// authors made them): each seat's bot from just before its view is built to just after its
/// action is held, the bots' cost of the turn the seats' added, the rules' from then to the end of
/// the step. With `seats`, the board hears of each seat's decision ([`Event::Acting`] before the
/// clock's first reading, [`Event::Acted`] after its second: neither is in any timed span).
/// Out of line, so that the actions are held during the turn only, not while the state is set up
/// or drawn.
#[inline(never)]
fn play_turn<G: Roster, B: Board>(
    game: &mut G,
    bots: &mut [&mut dyn Bot<G>],
    board: &mut B,
    seats: bool,
    costs: &mut Costs,
) -> arena_core::StepReport {
    // One place for what the moments update, so that the closure holds one reference: its frame
    // is under every bot's.
    let mut t = Tally {
        board,
        seats,
        at: 0,
        spent: 0,
    };
    let report = game.step_bots::<BOARD_SEATS, _>(bots, |m| t.moment(m));
    let end = t.board.clock().now();
    costs.bots.record(t.spent);
    costs.step.record(t.board.clock().elapsed(t.at, end));
    report
}

/// A match's costs a turn: the rules' and the bots'. One struct, so that the loop's frames hold
/// one reference to them.
struct Costs {
    step: CostStats,
    bots: CostStats,
}

/// A turn's clock readings (see [`play_turn`]).
struct Tally<'a, B> {
    board: &'a mut B,
    seats: bool,
    /// When the seat deciding now began; once every seat has decided, when they had.
    at: u32,
    /// The seats' costs so far this turn.
    spent: u32,
}

impl<B: Board> Tally<'_, B> {
    /// Out of line: inlined, the clock's readings and the board's handling of the seats' events
    /// had room in the frame of the game's `decide`, under every bot's (212 B more stack for Ants
    /// on tutorial1 on the Pico, past its budget).
    #[inline(never)]
    fn moment(&mut self, m: Moment) {
        match m {
            Moment::Acting(seat) => {
                if self.seats {
                    self.board.seat(&Event::Acting { seat });
                }
                self.at = self.board.clock().now();
            }
            Moment::Acted(seat) => {
                let now = self.board.clock().now();
                let cost = self.board.clock().elapsed(self.at, now);
                self.spent = self.spent.saturating_add(cost);
                if self.seats {
                    self.board.seat(&Event::Acted { seat, cost });
                }
            }
            Moment::Decided => self.at = self.board.clock().now(),
        }
    }
}
