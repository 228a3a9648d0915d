//! # Pocket Arena on an STM32F411 Black Pill
//!
//! The board: an ST7789 240x240 LCD on SPI1 (SCK PA5, MOSI PA7; DC PB0, RST PB1, CS PA4), the log
//! over defmt-rtt, turn costs in DWT cycles. What it adds to arena-firmware:
//! - [`init`]: clocks (HSE 25 MHz, PLL to 100 MHz), SPI1 at 50 MHz, the display through mipidsi;
//! - [`Lcd`]: the display the screens draw on: a frame in RAM ([`DiffFrame`]) that goes to the
//!   panel as its changes only, when the loop says the frame is done;
//! - [`Cycles`]: the turn clock, DWT CYCCNT;
//! - [`stack`]: stack painting, for the high-water mark of each match (`stack m= used= of=`);
//! - [`run_config`]: the pace (turns a second, kept with SysTick delays after each game frame) and
//!   what the rotation logs: a digest after every turn, a snapshot frame
//!   announced every [`SNAPSHOT_EVERY`] turns and on each result screen (`frame m= t= k=`), which a
//!   probe shows and the emulated run checks.
//!
//! The screens draw each frame whole, into [`Lcd`]'s frame of 4-bit colour indices (RGB565 at
//! 240x240 would take 115 KB of the 128 KB of RAM; two frames of indices take 57.6 KB); at the
//! frame's event only the rectangles that differ from what the panel shows go over SPI1, each pixel
//! once in its final colour: the panel never blinks through the background. SPI1 runs at 50 MHz,
//! the most the F411 gives it (APB2's 100 MHz over its smallest prescaler, 2; RM0383 20.5.1) and
//! under the ST7789's 62.5 MHz (its 16 ns serial write cycle); SCK and MOSI at very high speed.
//! A panic goes to the defmt log through panic-probe, which
//! then takes the HardFault (probe-rs stops there and reports it).

#![no_std]

pub mod stack;

use arena_firmware::board::{Event, FrameKind, Listener, Parts};
use arena_firmware::diff::DiffFrame;
use arena_firmware::{CostStats, TurnClock};
use cortex_m::peripheral::DWT;
use defmt_rtt as _;
use embedded_graphics::pixelcolor::Rgb565;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_hal::delay::DelayNs;
use embedded_hal_bus::spi::ExclusiveDevice;
use mipidsi::interface::SpiInterface;
use mipidsi::models::ST7789;
use mipidsi::options::ColorInversion;
use panic_probe as _;
use stm32f4xx_hal::gpio::{Output, Pin, Speed};
use stm32f4xx_hal::pac;
use stm32f4xx_hal::prelude::*;
use stm32f4xx_hal::rcc::Config;
use stm32f4xx_hal::spi::{Mode, Phase, Polarity, Spi};
use stm32f4xx_hal::timer::SysDelay;

/// The core clock the board sets up.
pub const SYSCLK_HZ: u32 = 100_000_000;

// The rotation as the F411 plays it (the one every microcontroller board plays): forever, from
// match 0, with the loop's turn limit.
pub use arena_firmware::board::{DIGEST_EVERY, SNAPSHOT_EVERY};

/// The cost run's words (`arena_firmware::board::run_words`: the first match, whether each
/// seat's cost and bot stack are logged, how often a game frame is drawn), in flash under a name of their own: `cargo xtask cost`
/// writes over them in a copy of the ELF. Read at run time, never a copy the compiler folded in.
#[no_mangle]
#[used]
pub static ARENA_RUN: [u32; 3] = [0, 0, 0];

/// The rotation as every microcontroller board plays it (`arena_firmware::board::run_config`),
/// from match 0 (or [`ARENA_RUN`]'s).
pub fn run_config() -> arena_firmware::RunConfig {
    // SAFETY: a read of a static that lives as long as the program; volatile so that what is in
    // flash, possibly written over by xtask, is what counts.
    let words = unsafe { core::ptr::read_volatile(core::ptr::addr_of!(ARENA_RUN)) };
    arena_firmware::board::run_words(arena_firmware::board::run_config(), words)
}

/// DWT CYCCNT: core cycles, 32 bits (wraps after 42 s at 100 MHz).
pub struct Cycles;

impl TurnClock for Cycles {
    fn now(&mut self) -> u32 {
        DWT::cycle_count()
    }
}

/// mipidsi's SPI buffer: pixels go out in transfers of this many bytes (one chip select each).
static mut SPI_BUFFER: [u8; SPI_CHUNK] = [0; SPI_CHUNK];
/// The bytes of one SPI transfer of pixels: 1,024 pixels.
pub const SPI_CHUNK: usize = 2048;

/// The frame the screens draw, and what the panel shows (57,600 bytes together).
static mut FRAME: Frame = Frame::new();

/// A 240x240 frame of RGB565 colours held as 4-bit indices, sent as its changes.
pub type Frame = DiffFrame<Rgb565, 240, 240, { 240 * 240 / 2 }>;

type Bus = ExclusiveDevice<Spi<pac::SPI1>, Pin<'A', 4, Output>, embedded_hal_bus::spi::NoDelay>;
/// The ST7789 through mipidsi.
pub type Panel =
    mipidsi::Display<SpiInterface<'static, Bus, Pin<'B', 0, Output>>, ST7789, Pin<'B', 1, Output>>;

/// The LCD as the screens see it: they draw into the frame; [`Lcd::show`] sends what changed.
pub struct Lcd {
    panel: Panel,
    frame: &'static mut Frame,
}

impl Lcd {
    /// Sends the rectangles of the frame that differ from what the panel shows.
    pub fn show(&mut self) {
        let panel = &mut self.panel;
        let sent = self.frame.flush(|r: Rectangle, pixels| {
            let (x, y) = (r.top_left.x as u16, r.top_left.y as u16);
            let (w, h) = (r.size.width as u16, r.size.height as u16);
            panel.set_pixels(x, y, x + w - 1, y + h - 1, pixels)
        });
        if sent.is_err() {
            defmt::warn!("LCD: a transfer failed; the next frame is sent whole");
        }
    }
}

impl OriginDimensions for Lcd {
    fn size(&self) -> Size {
        self.frame.size()
    }
}

impl DrawTarget for Lcd {
    type Color = Rgb565;
    type Error = core::convert::Infallible;

    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb565>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        self.frame.draw_iter(pixels)
    }

    fn fill_solid(&mut self, area: &Rectangle, color: Rgb565) -> Result<(), Self::Error> {
        self.frame.fill_solid(area, color)
    }

    fn clear(&mut self, color: Rgb565) -> Result<(), Self::Error> {
        self.frame.clear(color)
    }
}

/// The board: the LCD, the turn clock, and stack painting per match.
pub type BlackPill = Parts<Lcd, Cycles, Events>;

/// What the F411 does of the loop's events: at each frame, send what changed to the LCD; the
/// stack painted at the start of a match, its high-water mark logged at the end; the cost of
/// each game frame (drawing it and sending its changes, from the turn's digest to the last byte
/// on SPI1) logged at the end of each match (`lcd m= frames= min= median= max=`, in cycles; in
/// instructions under the emulator's `--count`); and the pace of [`run_config`].
pub struct Events {
    delay: SysDelay,
    /// When the frame being drawn began (its turn's digest, or the match's start).
    drawing: u32,
    /// When the last paced frame was let go.
    paced: u32,
    frames: &'static mut CostStats,
}

/// The cost of the game frames of the match being played.
static mut FRAMES: CostStats = CostStats::new();

impl Listener<Lcd> for Events {
    /// Each seat's cost and its bot's stack (the cost run's `ARENA_RUN`), out of `event`'s frame.
    fn seat(&mut self, _display: &mut Lcd, event: &Event<'_>) {
        stack::seat(event)
    }

    fn event(&mut self, display: &mut Lcd, event: &Event<'_>) {
        match *event {
            Event::Frame { kind, .. } => {
                display.show();
                if kind == FrameKind::Game {
                    let cost = Cycles.elapsed(self.drawing, Cycles.now());
                    self.frames.record(cost);
                }
            }
            Event::Digest { .. } => self.drawing = Cycles.now(),
            Event::Start { .. } => {
                stack::watch(event);
                *self.frames = CostStats::new();
                self.drawing = Cycles.now();
            }
            Event::End { number, .. } => {
                stack::watch(event);
                let f = self.frames.summary();
                defmt::info!(
                    "lcd m={=u32} frames={=u32} min={=u32} median={=u32} max={=u32}",
                    number,
                    f.turns,
                    f.min,
                    f.median,
                    f.max
                );
            }
            Event::SetupFailed { .. } => stack::watch(event),
            // Told through `seat`, out of this frame.
            Event::Acting { .. } | Event::Acted { .. } => {}
        }
    }

    /// Waits (SysTick) until a turn's share of a second has passed since the last frame was let
    /// go; a turn slower than that goes on at once.
    fn pace(&mut self, turns_per_second: u32) {
        let period = SYSCLK_HZ.checked_div(turns_per_second).unwrap_or(0);
        let spent = Cycles.elapsed(self.paced, Cycles.now());
        if let Some(left) = period.checked_sub(spent).filter(|&l| l > 0) {
            self.delay.delay_us(left / (SYSCLK_HZ / 1_000_000));
        }
        self.paced = Cycles.now();
    }
}

/// Clocks, SPI1, the LCD; the cycle counter started. Panics (to the log) when the display does
/// not answer.
///
/// Never inlined: inlined into `main`, its set-up (about 5 KB of stack, mostly stm32f4xx-hal's
/// and mipidsi's temporaries) stayed in `main`'s frame for as long as the rotation runs, on top
/// of every match's stack.
#[inline(never)]
pub fn init() -> BlackPill {
    let (Some(dp), Some(mut cp)) = (pac::Peripherals::take(), cortex_m::Peripherals::take()) else {
        panic!("peripherals taken twice");
    };
    let mut rcc = dp.RCC.freeze(Config::hse(25.MHz()).sysclk(SYSCLK_HZ.Hz()));
    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();
    let mut delay = cp.SYST.delay(&rcc.clocks);

    let gpioa = dp.GPIOA.split(&mut rcc);
    let gpiob = dp.GPIOB.split(&mut rcc);
    // 50 MHz: APB2 (100 MHz) / 2, the F411's fastest SPI1 clock; the ST7789 takes up to 62.5 MHz.
    // SCK and MOSI switch at very high speed (OSPEEDR 11) for clean edges at that rate.
    let spi = Spi::new(
        dp.SPI1,
        (
            Some(gpioa.pa5.into_alternate().speed(Speed::VeryHigh)),
            Some(gpioa.pa6),
            Some(gpioa.pa7.into_alternate().speed(Speed::VeryHigh)),
        ),
        Mode {
            polarity: Polarity::IdleHigh,
            phase: Phase::CaptureOnSecondTransition,
        },
        50.MHz(),
        &mut rcc,
    );
    // A second caller of stm32f4xx-hal's `spi_write` (an empty write, before the LCD is selected):
    // with one caller only, LTO inlines it into the SPI device's `write`, and the emulator takes
    // SPI1's bytes a slice at a time at that routine's entry (without it, one register access at
    // a time, several times slower). Nothing reaches the bus.
    let mut spi = spi;
    let _ = embedded_hal::spi::SpiBus::<u8>::write(&mut spi, core::hint::black_box(&[]));
    let cs = gpioa.pa4.into_push_pull_output();
    let dc = gpiob.pb0.into_push_pull_output();
    let rst = gpiob.pb1.into_push_pull_output();
    let Ok(device) = ExclusiveDevice::new_no_delay(spi, cs);
    // SAFETY: `init` runs once (the peripherals above are taken once), so this is the only
    // reference to the buffer.
    let buffer = unsafe { &mut *core::ptr::addr_of_mut!(SPI_BUFFER) };
    let interface = SpiInterface::new(device, dc, buffer);
    let Ok(panel) = mipidsi::Builder::new(ST7789, interface)
        .display_size(240, 240)
        .invert_colors(ColorInversion::Inverted)
        .reset_pin(rst)
        .init(&mut delay)
    else {
        panic!("the ST7789 did not answer");
    };
    // SAFETY: as for the buffer: `init` runs once, so this is the only reference to the frame.
    let frame = unsafe { &mut *core::ptr::addr_of_mut!(FRAME) };
    // SAFETY: as for the buffer.
    let frames = unsafe { &mut *core::ptr::addr_of_mut!(FRAMES) };
    let now = Cycles.now();
    Parts {
        display: Lcd { panel, frame },
        clock: Cycles,
        listener: Events {
            delay,
            drawing: now,
            paced: now,
            frames,
        },
    }
}
