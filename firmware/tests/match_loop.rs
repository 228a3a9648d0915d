//! The match loop and the screens on every kind of display, over the boards' lineup.

#![allow(clippy::unwrap_used)]

use arena_core::games::tower_defense::{self as td, TowerDefense};
use arena_core::rng::bot_seed;
use arena_core::{step_with_bots, Game, Roster};
use arena_firmware::board::{Board, Event, FrameKind, Listener, Parts};
use arena_firmware::cost::TurnClock;
use arena_firmware::{Gray4Frame, Lineup, RunConfig};
use embedded_graphics::pixelcolor::{BinaryColor, Rgb565};
use embedded_graphics::prelude::*;

mod common;
use common::Canvas;

/// A clock that advances one unit per reading.
#[derive(Default)]
struct Ticks(u32);
impl TurnClock for Ticks {
    fn now(&mut self) -> u32 {
        self.0 += 7;
        self.0
    }
}

/// What the host board logs, and the distinct frames it was shown.
struct Log<D> {
    lines: Vec<String>,
    distinct_frames: std::collections::BTreeSet<Vec<u8>>,
    snapshot: fn(&D) -> Vec<u8>,
}

type Host<D> = Parts<D, Ticks, Log<D>>;

impl<D> Log<D> {
    /// The lines that start with `prefix`, in order.
    fn starting(&self, prefix: &str) -> Vec<&String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with(prefix))
            .collect()
    }
}

impl<D> Listener<D> for Log<D> {
    fn event(&mut self, display: &mut D, event: &Event<'_>) {
        match *event {
            Event::Start {
                number, seed, bots, ..
            } => self.lines.push(format!("start {number} {seed} {bots:?}")),
            Event::Digest {
                number,
                turn,
                digest,
            } => self.lines.push(format!("digest {number} {turn} {digest}")),
            Event::Frame {
                number,
                turn,
                kind,
                snapshot,
            } => {
                self.distinct_frames.insert((self.snapshot)(display));
                self.lines
                    .push(format!("frame {number} {turn} {kind:?} {snapshot}"))
            }
            Event::End {
                number,
                turns,
                digest,
                cost,
                ..
            } => self.lines.push(format!(
                "end {number} {turns} {digest} {} {}",
                cost.turns, cost.median
            )),
            Event::SetupFailed { number } => self.lines.push(format!("failed {number}")),
            Event::Acting { seat } => self.lines.push(format!("acting {seat}")),
            Event::Acted { seat, cost } => self.lines.push(format!("acted {seat} {cost}")),
        }
    }
}

fn host<D>(display: D, snapshot: fn(&D) -> Vec<u8>) -> Host<D> {
    Parts {
        display,
        clock: Ticks::default(),
        listener: Log {
            lines: Vec::new(),
            distinct_frames: Default::default(),
            snapshot,
        },
    }
}

/// A host with the 1-bit 128x64 OLED's canvas.
fn mono_host() -> Host<Canvas<BinaryColor>> {
    host(Canvas::new(128, 64), |c| {
        c.pixels.iter().map(|p| p.is_on() as u8).collect()
    })
}

/// A host with the RGB565 240x240 LCD's canvas.
fn lcd_host() -> Host<Canvas<Rgb565>> {
    host(Canvas::new(240, 240), |c| {
        c.pixels
            .iter()
            .flat_map(|p| p.into_storage().to_le_bytes())
            .collect()
    })
}

#[test]
fn match_n_plays_entry_n_with_the_entrys_seed_and_the_digests_of_plain_stepping() {
    let mut h = host(Gray4Frame::new(), |f| f.bytes().to_vec());
    let cfg = RunConfig {
        first: 7,
        matches: Some(2),
        digest_every: 1,
        ..RunConfig::default()
    };
    assert_eq!(
        arena_firmware::run::<arena_firmware::Arcade, _>(&mut h, &cfg),
        2
    );
    // Match 7 is entry 7 (Siege, strong invader, random defender) the first time round: its seed
    // is the entry's own.
    let entry = arena_firmware::Entry {
        config: "siege",
        bots: &["strong", "random"],
    };
    let seed = arena_firmware::lineup::entry_seed("tower-defense", &entry, 0);
    assert!(
        h.listener.lines[0].starts_with(&format!("start 7 {seed} [\"strong\", \"random\"]")),
        "{}",
        h.listener.lines[0]
    );

    // Replay match 7 by hand: same bots, same seeds, same digests after every turn.
    let siege = td::Params {
        variant: td::Variant::Siege,
    };
    let mut game = TowerDefense::new(&siege, seed).unwrap();
    let mut bots = [
        TowerDefense::bot("strong", bot_seed(seed, 0)).unwrap(),
        TowerDefense::bot("random", bot_seed(seed, 1)).unwrap(),
    ];
    let mut want = Vec::new();
    while !game.is_over() && game.turn() < cfg.max_steps {
        step_with_bots(&mut game, &mut bots);
        want.push(format!("digest 7 {} {}", game.turn(), game.digest()));
    }
    assert_eq!(
        h.listener.starting("digest 7 "),
        want.iter().collect::<Vec<_>>()
    );
    let end = h.listener.starting("end 7 ")[0];
    // Every reading of Ticks advances 7: each turn costs 7.
    assert_eq!(
        end,
        &format!("end 7 {} {} {} 7", game.turn(), game.digest(), game.turn())
    );
}

mod seam {
    use arena_core::games::tower_defense::{self as td, Action, TowerDefense};
    use arena_core::{Bot, Open};

    /// A user's bot: passes, and counts the turns it was asked.
    pub struct Idle {
        pub asked: u32,
    }
    impl Idle {
        pub fn new(_seed: u64) -> Idle {
            Idle { asked: 0 }
        }
    }
    impl Bot<TowerDefense> for Idle {
        fn act(&mut self, _view: &Open<'_, TowerDefense>) -> Action {
            self.asked += 1;
            Action::default()
        }
    }

    const DUEL: Option<td::Params> = Some(td::Params {
        variant: td::Variant::Duel,
    });

    arena_firmware::lineup! {
        pub Two {
            TowerDefense: "duel", ["strong", "random"], DUEL;
            TowerDefense: "duel", [builtin("army"), user("idle", Idle::new)], DUEL;
        }
    }

    arena_firmware::lineup! {
        /// `Two` with an entry inserted between its two.
        pub Three {
            TowerDefense: "duel", ["strong", "random"], DUEL;
            TowerDefense: "duel", ["builder", "strong"], DUEL;
            TowerDefense: "duel", [builtin("army"), user("idle", Idle::new)], DUEL;
        }
    }
}

/// The final digest line of every match of `L`'s first `rounds` rounds, by entry label
/// (bots and round), as the run logged them.
fn finals<L: Lineup>(rounds: u32) -> Vec<(String, String)> {
    let mut h = host(Gray4Frame::new(), |f| f.bytes().to_vec());
    let cfg = RunConfig {
        matches: Some(L::LEN as u32 * rounds),
        digest_every: 0,
        ..RunConfig::default()
    };
    arena_firmware::run::<L, _>(&mut h, &cfg);
    let starts = h.listener.starting("start ");
    let ends = h.listener.starting("end ");
    assert_eq!(starts.len(), ends.len());
    starts
        .iter()
        .zip(ends.iter())
        .enumerate()
        .map(|(n, (start, end))| {
            // "start N SEED [bots]": the bots, and the round.
            let bots = start.split_once('[').unwrap().1;
            let round = n / L::LEN;
            // "end N turns digest ...": drop the match number.
            let rest = end.splitn(3, ' ').nth(2).unwrap();
            (format!("{bots} round {round}"), rest.to_string())
        })
        .collect()
}

#[test]
fn an_entry_added_to_a_lineup_changes_no_other_entrys_matches() {
    let two = finals::<seam::Two>(2);
    let three = finals::<seam::Three>(2);
    assert_eq!(two.len(), 4);
    assert_eq!(three.len(), 6);
    // Every match of `Two` is in `Three`, same seed, same turns, same digest.
    for m in &two {
        assert!(three.contains(m), "{m:?} not in {three:?}");
    }
    // The entry with the user's bot played, once a round.
    let idle = two.iter().filter(|(bots, _)| bots.contains("idle")).count();
    assert_eq!(idle, 2);
    // Rounds differ: an entry's second match is not its first.
    assert_ne!(two[0].1, two[2].1);
}

#[test]
fn frames_every_turn_snapshots_on_schedule_and_a_result_screen() {
    let mut h = host(Gray4Frame::new(), |f| f.bytes().to_vec());
    let cfg = RunConfig {
        matches: Some(1),
        snapshot_every: 5,
        digest_every: 0,
        ..RunConfig::default()
    };
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut h, &cfg);
    let frames = h.listener.starting("frame");
    let end_turns: u32 = h.listener.starting("end")[0]
        .split(' ')
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        frames.len() as u32,
        end_turns + 2,
        "turn 0, every turn, the result"
    );
    assert_eq!(frames[0], "frame 0 0 Game true");
    assert_eq!(frames[1], "frame 0 1 Game false");
    assert_eq!(frames[5], "frame 0 5 Game true");
    assert_eq!(
        *frames.last().unwrap(),
        &format!("frame 0 {end_turns} {:?} true", FrameKind::Result)
    );
    assert!(
        h.listener.distinct_frames.len() > 5,
        "the screen changes as the game goes"
    );
}

#[test]
fn a_setup_error_skips_the_match_and_the_run_goes_on() {
    struct Bad;
    struct Skip<'a, B>(&'a mut B);
    impl<B: Board> arena_firmware::Visit for Skip<'_, B> {
        type Out = Option<arena_firmware::MatchSummary>;
        fn visit<G: arena_firmware::Screen + Roster>(
            self,
            entry: &arena_firmware::Entry,
            seats: &[arena_firmware::lineup::Pick<G>],
            params: &dyn Fn() -> Option<G::Params>,
        ) -> Self::Out {
            let cfg = RunConfig::default();
            arena_firmware::play_match::<G, B>(self.0, entry, seats, params, 0, 0, &cfg)
        }
        fn skip(self, _entry: &arena_firmware::Entry) -> Self::Out {
            None
        }
    }
    impl Lineup for Bad {
        const LEN: usize = 1;
        fn visit<V: arena_firmware::Visit>(_index: usize, v: V) -> V::Out {
            v.visit::<TowerDefense>(
                &arena_firmware::Entry {
                    config: "bad",
                    bots: &["nobody"],
                },
                // Built by hand, not by `lineup!` (which would not build with this name).
                &[arena_firmware::lineup::Pick::Builtin("nobody")],
                &|| Some(td::Params::default()),
            )
        }
    }
    let mut h = host(Gray4Frame::new(), |f| f.bytes().to_vec());
    assert_eq!(Bad::visit(0, Skip(&mut h)), None);
    assert_eq!(h.listener.lines.last().unwrap(), "failed 0");
    let cfg = RunConfig {
        matches: Some(3),
        ..RunConfig::default()
    };
    assert_eq!(arena_firmware::run::<Bad, _>(&mut h, &cfg), 3);
}

#[test]
fn the_same_match_draws_on_1_bit_128x64_and_rgb565_240x240() {
    let cfg = RunConfig {
        matches: Some(1),
        ..RunConfig::default()
    };
    let mut mono = mono_host();
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut mono, &cfg);
    let mut lcd = lcd_host();
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut lcd, &cfg);
    assert_eq!(
        mono.listener.starting("end"),
        lcd.listener.starting("end"),
        "the display does not change the match"
    );
    assert!(mono.listener.distinct_frames.len() > 5 && lcd.listener.distinct_frames.len() > 5);
    // On the colour display both seats' colours are on screen.
    use arena_firmware::Palette;
    let mut game_only = Canvas::<Rgb565>::new(240, 240);
    let g = TowerDefense::new(&td::Params::default(), 0).unwrap();
    let label = arena_firmware::screen::MatchLabel {
        number: 0,
        game: "tower-defense",
        config: "x",
        seed: 0,
        bots: &["a", "b"],
    };
    arena_firmware::screen::draw_game(&g, &label, &mut game_only).unwrap();
    assert!(
        game_only.pixels.contains(&Rgb565::seat(0)) && game_only.pixels.contains(&Rgb565::seat(1))
    );
}

#[test]
fn every_lineup_entry_draws_inside_every_display() {
    use arena_firmware::Lineup;
    // Canvas fails the test on any pixel outside the display; 40 turns of each entry, each display.
    let cfg = RunConfig {
        matches: Some(arena_firmware::Arcade::LEN as u32),
        max_steps: 40,
        ..RunConfig::default()
    };
    let mut mono = mono_host();
    let mut gray = host(
        Canvas::<embedded_graphics::pixelcolor::Gray4>::new(128, 64),
        |c| c.pixels.iter().map(|p| p.luma()).collect(),
    );
    let mut lcd = lcd_host();
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut mono, &cfg);
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut gray, &cfg);
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut lcd, &cfg);
    for ends in [
        mono.listener.starting("end"),
        gray.listener.starting("end"),
        lcd.listener.starting("end"),
    ] {
        assert_eq!(ends.len(), arena_firmware::Arcade::LEN);
    }
    // Every match moves the picture along.
    let per_match = 5 * arena_firmware::Arcade::LEN;
    assert!(mono.listener.distinct_frames.len() > per_match);
    assert!(gray.listener.distinct_frames.len() > per_match);
    assert!(lcd.listener.distinct_frames.len() > per_match);
}

/// Counts the game frames and when the loop asked for the pace.
#[derive(Default)]
struct Paced {
    game_frames: u32,
    /// (game frames shown when asked, turns a second asked).
    asked: Vec<(u32, u32)>,
}

impl<D> Listener<D> for Paced {
    fn event(&mut self, _display: &mut D, event: &Event<'_>) {
        if let Event::Frame {
            kind: FrameKind::Game,
            ..
        } = event
        {
            self.game_frames += 1;
        }
    }
    fn pace(&mut self, turns_per_second: u32) {
        self.asked.push((self.game_frames, turns_per_second));
    }
}

#[test]
fn the_pace_is_kept_after_every_game_frame_and_only_when_set() {
    for tps in [0, 4] {
        let mut board = Parts {
            display: Canvas::<Rgb565>::new(240, 240),
            clock: Ticks::default(),
            listener: Paced::default(),
        };
        let cfg = RunConfig {
            matches: Some(2),
            max_steps: 30,
            turns_per_second: tps,
            ..RunConfig::default()
        };
        arena_firmware::run::<arena_firmware::Arcade, _>(&mut board, &cfg);
        let frames = board.listener.game_frames;
        assert!(frames > 30, "{frames} game frames");
        let want: Vec<(u32, u32)> = if tps == 0 {
            Vec::new()
        } else {
            (1..=frames).map(|f| (f, tps)).collect()
        };
        assert_eq!(board.listener.asked, want, "turns a second {tps}");
    }
}

/// The work a [`Worker`] bot does, on the clock [`Work`] reads.
static WORK: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// A clock that reads [`WORK`] (and counts one for the reading itself).
#[derive(Default)]
struct Work;
impl TurnClock for Work {
    fn now(&mut self) -> u32 {
        WORK.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    }
}

/// A user's bot that does 1,000 units of work a turn and passes.
struct Worker;
impl arena_core::Bot<TowerDefense> for Worker {
    fn act(&mut self, _view: &arena_core::Open<'_, TowerDefense>) -> td::Action {
        WORK.fetch_add(1000, std::sync::atomic::Ordering::SeqCst);
        td::Action::default()
    }
}

arena_firmware::lineup! {
    /// The worker against a built-in.
    Working {
        TowerDefense: "duel", [user("worker", |_| Worker), builtin("random")], Some(td::Params::default());
    }
}

/// What a board hears of the seats, and the bots' cost of the match.
#[derive(Default)]
struct Seats {
    acted: Vec<(usize, u32)>,
    acting: usize,
    bots_total: u64,
    bots_turns: u32,
}

impl<D> Listener<D> for Seats {
    fn event(&mut self, _display: &mut D, event: &Event<'_>) {
        match *event {
            Event::Acting { .. } => self.acting += 1,
            Event::Acted { seat, cost } => self.acted.push((seat, cost)),
            Event::End { bots_cost, .. } => {
                self.bots_total = bots_cost.total;
                self.bots_turns = bots_cost.turns;
            }
            _ => {}
        }
    }
}

#[test]
fn each_seats_bot_is_timed_apart_and_the_bots_cost_is_their_sum() {
    let play = |seats: bool| {
        let mut board = Parts {
            display: Gray4Frame::new(),
            clock: Work,
            listener: Seats::default(),
        };
        let cfg = RunConfig {
            matches: Some(1),
            max_steps: 40,
            seats,
            ..RunConfig::default()
        };
        arena_firmware::run::<Working, _>(&mut board, &cfg);
        board.listener
    };
    let told = play(true);
    assert_eq!(told.bots_turns, 40);
    assert_eq!(told.acted.len(), 80, "two seats a turn");
    assert_eq!(told.acting, 80);
    // The worker's seat costs its work and the clock's second reading; the built-in's is its own.
    for (i, &(seat, cost)) in told.acted.iter().enumerate() {
        assert_eq!(seat, i % 2);
        if seat == 0 {
            assert_eq!(cost, 1001, "turn {}", i / 2);
        } else {
            assert!(cost < 1000, "the built-in's seat: {cost}");
        }
    }
    let sum: u64 = told.acted.iter().map(|&(_, c)| u64::from(c)).sum();
    assert_eq!(told.bots_total, sum);
    // Without `seats`, the board hears nothing of them, and the bots cost as much.
    let quiet = play(false);
    assert!(quiet.acted.is_empty() && quiet.acting == 0);
    assert_eq!(quiet.bots_total, sum);
}

#[test]
fn with_frames_every_a_game_frame_is_drawn_on_its_turns_and_the_snapshots_only() {
    let frames = |frames_every: u32| {
        let mut h = host(Gray4Frame::new(), |f| f.bytes().to_vec());
        let cfg = RunConfig {
            matches: Some(1),
            max_steps: 60,
            snapshot_every: 25,
            digest_every: 1,
            frames_every,
            ..RunConfig::default()
        };
        arena_firmware::run::<arena_firmware::Arcade, _>(&mut h, &cfg);
        let turns: Vec<String> = h
            .listener
            .starting("frame ")
            .iter()
            .map(|l| l.split(' ').nth(2).unwrap_or("").to_owned())
            .collect();
        let digests = h.listener.starting("digest ").len();
        (turns, digests)
    };
    let (every, digests) = frames(1);
    assert_eq!(
        every.len(),
        62,
        "the first frame, 60 turns, the result: {every:?}"
    );
    let (sparse, sparse_digests) = frames(10);
    assert_eq!(
        sparse,
        ["0", "10", "20", "25", "30", "40", "50", "60", "60"],
        "every 10th turn, the snapshots, the result"
    );
    assert_eq!(sparse_digests, digests, "the same match, turn by turn");
}
