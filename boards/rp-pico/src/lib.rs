//! # Pocket Arena on a Raspberry Pi Pico
//!
//! The board: an SSD1306 128x64 OLED on I2C0 (SDA GP4, SCL GP5, address 0x3C), the log over
//! defmt-rtt, turn costs in core cycles. What it adds to arena-firmware:
//! - [`init`]: clocks (125 MHz from the 12 MHz crystal), I2C0 at 400 kHz, the display;
//! - [`Oled`]: the display the screens draw on: a 1-bit frame in RAM ([`PageFrame`]) of which only
//!   the changed columns of the changed pages go over I2C at each frame (1 KB each time before);
//! - [`Cycles`]: the turn clock, SysTick on the core clock extended to 32 bits by counting its
//!   wraps (the Cortex-M0+ has no DWT cycle counter, and 24 bits wrap after 134 ms);
//! - [`stack`]: stack painting, for the high-water mark of each match (`stack m= used= of=`, the
//!   QEMU board's log line);
//! - [`run_config`]: the pace ([`ARENA_PACE`] turns a second, kept by waiting on the core clock
//!   after each game frame) and what the rotation logs: a digest after every turn, a snapshot
//!   frame announced every [`SNAPSHOT_EVERY`] turns and on each result screen (`frame m= t= k=`),
//!   which a probe shows and the emulated run checks.
//!
//! A panic goes to the defmt log through panic-probe, which then takes the HardFault (probe-rs
//! stops there and reports it).

#![no_std]

pub mod stack;

use core::sync::atomic::{AtomicU32, Ordering};

use arena_firmware::board::{Event, Listener, Parts};
use arena_firmware::diff::PageFrame;
use arena_firmware::TurnClock;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{SCB, SYST};
use defmt_rtt as _;
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use hal::fugit::RateExtU32;
use hal::pac;
use panic_probe as _;
use rp2040_hal as hal;
use ssd1306::mode::BasicMode;
use ssd1306::prelude::*;
use ssd1306::{I2CDisplayInterface, Ssd1306};

/// The second-stage bootloader for the Pico's W25Q080 flash.
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

const XTAL_HZ: u32 = 12_000_000;

pub use arena_firmware::board::{DIGEST_EVERY, SNAPSHOT_EVERY, TURNS_PER_SECOND};

/// The core clock `init` sets up (the PLL from the 12 MHz crystal).
pub const SYSCLK_HZ: u32 = 125_000_000;

/// The turns a second the Pico keeps ([`TURNS_PER_SECOND`], the pace a person can follow), in
/// flash under a name of its own: the emulated Pico's harness writes 0 over it before the core
/// starts (`pico.mjs --pace N` writes N), so the emulated run plays flat out instead of spending
/// a quarter of a second of emulated cycles (31 M) waiting after every turn. [`run_config`] reads
/// it at run time, never a copy the compiler folded in.
#[no_mangle]
#[used]
pub static ARENA_PACE: u32 = TURNS_PER_SECOND;

/// The cost run's words (`arena_firmware::board::run_words`: the first match, whether each
/// seat's cost and bot stack are logged, how often a game frame is drawn), in flash under a name of their own: `cargo xtask cost`
/// writes over them in a copy of the ELF. Read at run time, like [`ARENA_PACE`].
#[no_mangle]
#[used]
pub static ARENA_RUN: [u32; 3] = [0, 0, 0];

/// The rotation as the Pico plays it (the one every microcontroller board plays, `arena_firmware`'s
/// `board::run_config`): forever, from match 0 (or [`ARENA_RUN`]'s), with the loop's turn limit;
/// at [`ARENA_PACE`].
pub fn run_config() -> arena_firmware::RunConfig {
    // SAFETY: reads of statics that live as long as the program; volatile so that what is in
    // flash, possibly written over by the emulator or xtask, is what counts.
    let (pace, words) = unsafe {
        (
            core::ptr::read_volatile(core::ptr::addr_of!(ARENA_PACE)),
            core::ptr::read_volatile(core::ptr::addr_of!(ARENA_RUN)),
        )
    };
    let cfg = arena_firmware::RunConfig {
        turns_per_second: pace,
        ..arena_firmware::board::run_config()
    };
    arena_firmware::board::run_words(cfg, words)
}

const RELOAD: u32 = 0x00FF_FFFF;

/// SysTick wraps since the clock started (SysTick's exception counts them).
static WRAPS: AtomicU32 = AtomicU32::new(0);

#[cortex_m_rt::exception]
fn SysTick() {
    // Only this handler writes WRAPS: a load and a store (the M0+ has no atomic add).
    WRAPS.store(
        WRAPS.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
}

/// Core cycles since the clock started, as a 32-bit up-counter (wraps after 34 s at 125 MHz).
pub struct Cycles {
    _syst: SYST,
}

impl Cycles {
    fn start(mut syst: SYST) -> Cycles {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(RELOAD);
        syst.clear_current();
        syst.enable_interrupt();
        syst.enable_counter();
        Cycles { _syst: syst }
    }
}

impl TurnClock for Cycles {
    fn now(&mut self) -> u32 {
        cycles()
    }
}

/// Core cycles since [`Cycles`] started: SysTick's count below its wraps.
fn cycles() -> u32 {
    loop {
        let wraps = WRAPS.load(Ordering::Relaxed);
        let current = SYST::get_current();
        let pending = SCB::is_pendst_pending();
        if WRAPS.load(Ordering::Relaxed) != wraps {
            continue; // the handler ran in between: read again
        }
        // A wrap whose exception is still pending (interrupts masked) shows as a pending
        // SysTick with the counter just reloaded (high); a counter near 0 has not wrapped yet.
        let wraps = if pending && current > RELOAD / 2 {
            wraps.wrapping_add(1)
        } else {
            wraps
        };
        return (wraps << 24) | (RELOAD - current);
    }
}

/// The I2C bus the OLED is on.
pub type Bus = hal::I2C<
    pac::I2C0,
    (
        hal::gpio::Pin<hal::gpio::bank0::Gpio4, hal::gpio::FunctionI2C, hal::gpio::PullUp>,
        hal::gpio::Pin<hal::gpio::bank0::Gpio5, hal::gpio::FunctionI2C, hal::gpio::PullUp>,
    ),
>;
/// The SSD1306 through the `ssd1306` crate, its commands only (the frame is [`Oled`]'s).
pub type Panel = Ssd1306<I2CInterface<Bus>, DisplaySize128x64, BasicMode>;

/// The OLED as the screens see it: they draw into its frame (the SSD1306's GDDRAM layout, 1 KB,
/// beside 1 KB of what the panel shows); [`Oled::show`] sends, page by page, only the columns
/// from the first to the last that changed: a turn that moves one piece and the turn counter
/// sends two short runs, not the 1,024 bytes the `ssd1306` crate's buffered mode sends after a
/// clear.
pub struct Oled {
    panel: Panel,
    /// In a static: the board lives in `main`'s frame, under every match's stack.
    frame: &'static mut Frame,
}

/// The OLED's frame and what the panel shows.
pub type Frame = PageFrame<128, 1024>;

impl Oled {
    /// Sends what changed since the last frame.
    pub fn show(&mut self) {
        let panel = &mut self.panel;
        let sent = self.frame.flush(|page, x0, run| {
            let end = x0.saturating_add(run.len() as u8);
            panel.set_draw_area(
                (x0, page.saturating_mul(8)),
                (end, page.saturating_add(1).saturating_mul(8)),
            )?;
            panel.draw(run)
        });
        if sent.is_err() {
            defmt::warn!("display flush failed; the next frame is sent whole");
        }
    }
}

impl OriginDimensions for Oled {
    fn size(&self) -> Size {
        self.frame.size()
    }
}

impl DrawTarget for Oled {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<BinaryColor>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        self.frame.draw_iter(pixels)
    }

    fn clear(&mut self, color: BinaryColor) -> Result<(), Self::Error> {
        self.frame.clear(color)
    }
}

/// The board's display.
pub type Display = Oled;

/// The board: the OLED, the turn clock, and stack painting per match.
pub type Pico = Parts<Display, Cycles, Events>;

/// What the Pico does of the loop's events: send each frame's changes to the OLED, paint the stack
/// at the start of a match and log its high-water mark at the end; and keep the pace.
pub struct Events {
    /// When the last paced frame was let go (core cycles).
    paced: u32,
}

impl Listener<Display> for Events {
    /// Each seat's cost and its bot's stack (the cost run's `ARENA_RUN`), out of `event`'s frame.
    fn seat(&mut self, _display: &mut Display, event: &Event<'_>) {
        stack::seat(event)
    }

    fn event(&mut self, display: &mut Display, event: &Event<'_>) {
        match event {
            Event::Frame { .. } => display.show(),
            _ => stack::watch(event),
        }
    }

    /// Waits on the core clock until a turn's share of a second has passed since the last frame
    /// was let go; a turn slower than that goes on at once.
    fn pace(&mut self, turns_per_second: u32) {
        let period = SYSCLK_HZ.checked_div(turns_per_second).unwrap_or(0);
        while cycles().wrapping_sub(self.paced) < period {
            cortex_m::asm::nop();
        }
        self.paced = cycles();
    }
}

/// Clocks, I2C0 and the display; the turn clock started. Panics (to the log) when the crystal
/// or the display does not answer.
///
/// Out of line: inlined into `main`, the display it builds (its 1 KB buffer) and the board it
/// returns were two copies in `main`'s frame, under every match's stack.
#[inline(never)]
pub fn init() -> Pico {
    let (Some(mut pac), Some(core)) = (pac::Peripherals::take(), pac::CorePeripherals::take())
    else {
        panic!("peripherals taken twice");
    };
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    let Ok(clocks) = hal::clocks::init_clocks_and_plls(
        XTAL_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    ) else {
        panic!("clocks did not start");
    };
    let sio = hal::Sio::new(pac.SIO);
    let pins = hal::gpio::Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );
    let i2c = hal::I2C::i2c0(
        pac.I2C0,
        pins.gpio4.reconfigure(),
        pins.gpio5.reconfigure(),
        400.kHz(),
        &mut pac.RESETS,
        &clocks.system_clock,
    );
    let mut panel = Ssd1306::new(
        I2CDisplayInterface::new(i2c),
        DisplaySize128x64,
        DisplayRotation::Rotate0,
    );
    if panel.init().is_err() {
        panic!("no SSD1306 at 0x3C on I2C0 (SDA GP4, SCL GP5)");
    }
    let Some(frame) = cortex_m::singleton!(: Frame = PageFrame::new()) else {
        panic!("the OLED's frame taken twice");
    };
    Parts {
        display: Oled { panel, frame },
        clock: Cycles::start(core.SYST),
        listener: Events { paced: cycles() },
    }
}
