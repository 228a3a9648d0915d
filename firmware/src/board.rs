//! What a board gives the match loop, and what the loop tells it.
//!
//! A board is a display, a turn clock, and a listener: the loop draws a frame, then says so with an
//! [`Event::Frame`] (the board flushes it to the controller); it reports the start, digests and end of
//! each match the same way, so a board can add its own figures (stack high-water mark) and the host
//! can collect what the board would have logged.
//!
//! Every board is a [`Parts`]: the display and the clock are the same two fields on every board,
//! so they are written once here, and a board brings only what really differs, its [`Listener`].

use arena_core::Outcome;
use embedded_graphics::prelude::DrawTarget;

use crate::cost::{CostSummary, TurnClock};
use crate::palette::Palette;

/// What a frame shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FrameKind {
    /// The game after `turn` turns.
    Game,
    /// The result screen after the match.
    Result,
}

/// What happened, in the order it happened.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A match begins.
    Start {
        /// The match's number in the lineup, from 0.
        number: u32,
        /// The game's name ([`arena_core::Game::NAME`]).
        game: &'static str,
        /// The lineup entry's configuration label.
        config: &'static str,
        /// The match's seed.
        seed: u64,
        /// The bots' names, by seat.
        bots: &'a [&'static str],
        /// `size_of` the game's state on this target.
        state_bytes: usize,
    },
    /// The game or a bot refused the setup (bad params or an unknown bot name): the match is skipped.
    SetupFailed {
        /// The match's number.
        number: u32,
    },
    /// The state digest after `turn` turns.
    Digest {
        /// The match's number.
        number: u32,
        /// Turns played.
        turn: u32,
        /// The state's digest ([`arena_core::Game::digest`]).
        digest: u64,
    },
    /// The display holds a finished frame. With `snapshot`, the loop will call [`Board::hold`] next,
    /// after logging that the frame is ready.
    Frame {
        /// The match's number.
        number: u32,
        /// Turns played.
        turn: u32,
        /// A game frame or the result screen.
        kind: FrameKind,
        /// Whether the board will hold the frame for a snapshot.
        snapshot: bool,
    },
    /// With [`crate::RunConfig::seats`]: the bot of `seat` is about to decide (the turn clock
    /// is read after the board is done with this event). A board paints the stack below here, for
    /// the bot's own high-water mark.
    Acting {
        /// The seat whose bot decides.
        seat: usize,
    },
    /// With [`crate::RunConfig::seats`]: the bot of `seat` has decided, at `cost` (the turn
    /// clock read before this event). A board logs the seat's cost and its bot's stack.
    Acted {
        /// The seat whose bot decided.
        seat: usize,
        /// What its decision cost, in the board's unit.
        cost: u32,
    },
    /// The match is over (or stopped at its turn limit).
    End {
        /// The match's number.
        number: u32,
        /// Turns played.
        turns: u32,
        /// The final state's digest.
        digest: u64,
        /// How the game ended; `None` for a match stopped before its end.
        outcome: Option<&'a Outcome>,
        /// The rules' cost per turn (`step` only).
        cost: CostSummary,
        /// The bots' cost per turn (every seat's decision).
        bots_cost: CostSummary,
        /// Actions refused over the match, every seat together.
        refused: u32,
    },
}

/// What the match loop drives. [`Parts`] is the one implementation the boards need; the loop takes
/// a `Board` so that its functions have one type parameter for the board rather than three.
pub trait Board {
    /// The display the screens draw on.
    type Display: DrawTarget<Color: Palette>;
    /// The clock that times each turn.
    type Clock: TurnClock;

    /// The display.
    fn display(&mut self) -> &mut Self::Display;
    /// The turn clock.
    fn clock(&mut self) -> &mut Self::Clock;
    /// Something happened; on [`Event::Frame`] the board shows what the display holds.
    fn event(&mut self, event: &Event<'_>);
    /// A seat's bot is about to decide or has decided ([`Event::Acting`], [`Event::Acted`]): told
    /// from under the bots' frames, apart from [`Board::event`] so that what a board does of the
    /// other events (a frame's flush) is not on that stack.
    fn seat(&mut self, event: &Event<'_>) {
        self.event(event);
    }
    /// A snapshot frame is on screen and announced: wait until whoever watches has taken it.
    fn hold(&mut self);
    /// A game frame is on screen: wait until `turns_per_second` allows the next turn (counted
    /// from the last time it returned). The default plays on at once.
    fn pace(&mut self, turns_per_second: u32) {
        let _ = turns_per_second;
    }
}

/// What a board does of the loop's events, beside the display it is handed: flush the frame to the
/// controller, paint the stack, log its figures, record what happened (on the host).
pub trait Listener<D> {
    /// Something happened; on [`Event::Frame`] the board shows what `display` holds.
    fn event(&mut self, display: &mut D, event: &Event<'_>);
    /// A seat's bot is about to decide or has decided ([`Board::seat`]); by default told as any
    /// other event. A board whose `event` has a deep frame (a display's flush) overrides this, as
    /// it is called from under the bots' frames.
    fn seat(&mut self, display: &mut D, event: &Event<'_>) {
        self.event(display, event);
    }
    /// A snapshot frame is on screen and announced: wait until whoever watches has taken it.
    fn hold(&mut self) {}
    /// A game frame is on screen: wait until `turns_per_second` allows the next turn (see
    /// [`Board::pace`]). The default plays on at once.
    fn pace(&mut self, turns_per_second: u32) {
        let _ = turns_per_second;
    }
}

/// A board that does nothing of the events: its display shows what is drawn as it is drawn.
impl<D> Listener<D> for () {
    fn event(&mut self, _display: &mut D, _event: &Event<'_>) {}
}

/// A board: its display, its turn clock, and its [`Listener`].
pub struct Parts<D, C, L> {
    /// The display the screens draw on.
    pub display: D,
    /// The clock that times each turn.
    pub clock: C,
    /// What the board does with the events.
    pub listener: L,
}

impl<D, C, L> Board for Parts<D, C, L>
where
    D: DrawTarget<Color: Palette>,
    C: TurnClock,
    L: Listener<D>,
{
    type Display = D;
    type Clock = C;

    fn display(&mut self) -> &mut D {
        &mut self.display
    }
    fn clock(&mut self) -> &mut C {
        &mut self.clock
    }
    fn event(&mut self, event: &Event<'_>) {
        self.listener.event(&mut self.display, event);
    }
    fn seat(&mut self, event: &Event<'_>) {
        self.listener.seat(&mut self.display, event);
    }
    fn hold(&mut self) {
        self.listener.hold();
    }
    fn pace(&mut self, turns_per_second: u32) {
        self.listener.pace(turns_per_second);
    }
}

/// A digest in the log after every this many turns, on the microcontroller boards (the Pico, the
/// F411).
pub const DIGEST_EVERY: u32 = 1;
/// A snapshot frame announced every this many turns (and each result screen), on the
/// microcontroller boards.
pub const SNAPSHOT_EVERY: u32 = 25;

/// Turns a second on a real board, so that a person can follow a match (a Tower Defense Duel of
/// 700 turns in about three minutes). The QEMU board keeps no pace (it plays flat out); the
/// emulated F411 keeps it but its SysTick delays take no time (the harness's SysTick has wrapped
/// at every read); the emulated Pico plays flat out because its harness writes 0 over the pace
/// in its flash (`ARENA_PACE`) before it boots.
pub const TURNS_PER_SECOND: u32 = 4;

/// The rotation as the microcontroller boards play it: forever, from match 0, with the loop's turn
/// limit, a digest every [`DIGEST_EVERY`] turns, a frame announced every [`SNAPSHOT_EVERY`], and
/// [`TURNS_PER_SECOND`].
pub fn run_config() -> crate::RunConfig {
    crate::RunConfig {
        digest_every: DIGEST_EVERY,
        snapshot_every: SNAPSHOT_EVERY,
        turns_per_second: TURNS_PER_SECOND,
        ..crate::RunConfig::default()
    }
}

/// The words a microcontroller board keeps in flash under the name `ARENA_RUN` (`[first, seats,
/// frames_every]`, all 0 as built), on top of `cfg`: the rotation from match `first` (its seed the
/// entry's own for that round, as when the rotation came to it), with `seats` not 0 each seat's
/// decision told to the board ([`crate::RunConfig::seats`]), and with `frames_every` not 0 a game
/// frame drawn only every so many turns ([`crate::RunConfig::frames_every`]). `cargo xtask cost` writes them in a copy of the ELF
/// (the emulators boot a given ELF), so the board plays only the picked match, without a
/// build of its own.
pub fn run_words(cfg: crate::RunConfig, words: [u32; 3]) -> crate::RunConfig {
    let [first, seats, frames_every] = words;
    crate::RunConfig {
        first,
        seats: seats != 0,
        frames_every: if frames_every == 0 {
            cfg.frames_every
        } else {
            frames_every
        },
        ..cfg
    }
}

/// A microcontroller board's `main` (its `src/main.rs`): the rotation of lineup `$lineup`, forever,
/// on the board that `$board::init()` brings up, with `$board::run_config()` ([`run_config`], or
/// the board's own: the Pico's reads its pace from flash, where its emulator writes 0). First the
/// boot line
/// (`<name>: <display> ready, playing the rotation digest= snap= maxsteps= pace= first= seats=
/// frames=`):
/// the host's checks read from it how to replay the rotation. Expanded in the board's crate, which has cortex-m,
/// cortex-m-rt and defmt.
#[macro_export]
macro_rules! board_main {
    ($board:ident, $lineup:ty, $name:literal, $display:literal) => {
        #[cortex_m_rt::entry]
        fn main() -> ! {
            let mut board = $board::init();
            let cfg = $board::run_config();
            defmt::info!(
                "{=str}: {=str} ready, playing the rotation digest={=u32} snap={=u32} maxsteps={=u32} pace={=u32} first={=u32} seats={=bool} frames={=u32}",
                $name,
                $display,
                cfg.digest_every,
                cfg.snapshot_every,
                cfg.max_steps,
                cfg.turns_per_second,
                cfg.first,
                cfg.seats,
                cfg.frames_every
            );
            $crate::run::<$lineup, _>(&mut board, &cfg);
            loop {
                cortex_m::asm::wfi();
            }
        }
    };
}

/// A microcontroller board's `panic-test` (its `src/bin/panic_test.rs`): brings the board up with
/// `$board::init()`, logs `<name> panic test: <display> ready`, then indexes out of bounds, so the
/// host's checks find the message in the defmt log (through panic-probe) and the HardFault after it.
#[macro_export]
macro_rules! board_panic_test {
    ($board:ident, $name:literal, $display:literal) => {
        #[cortex_m_rt::entry]
        fn main() -> ! {
            let _board = $board::init();
            defmt::info!("{=str} panic test: {=str} ready", $name, $display);
            let turns: [u32; 3] = [1, 2, 3];
            let i = core::hint::black_box(7usize);
            let t = turns[i % 8];
            defmt::info!("unreachable {=u32}", t);
            loop {
                cortex_m::asm::wfi();
            }
        }
    };
}
