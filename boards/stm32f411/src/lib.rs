//! # Pocket Arena on an STM32F411 Black Pill
//!
//! The board: an ST7789 240x240 LCD on SPI1 (SCK PA5, MOSI PA7; DC PB0, RST PB1, CS PA4), the log
//! over defmt-rtt, turn costs in DWT cycles. What it adds to arena-firmware:
//! - [`init`]: clocks (HSE 25 MHz, PLL to 100 MHz), SPI1 at 24 MHz, the display through mipidsi;
//! - [`Cycles`]: the turn clock, DWT CYCCNT;
//! - [`stack`]: stack painting, for the high-water mark of each match (`stack m= used= of=`);
//! - [`run_config`]: what the rotation logs: a digest after every turn, a snapshot frame
//!   announced every [`SNAPSHOT_EVERY`] turns and on each result screen (`frame m= t= k=`), which a
//!   probe shows and the emulated run checks.
//!
//! The LCD is drawn directly (no framebuffer: 240x240x2 bytes would take most of the RAM); the
//! screens clear and redraw each frame. A panic goes to the defmt log through panic-probe, which
//! then takes the HardFault (probe-rs stops there and reports it).

#![no_std]

pub mod stack;

use arena_firmware::board::{Event, Listener, Parts};
use arena_firmware::TurnClock;
use cortex_m::peripheral::DWT;
use defmt_rtt as _;
use embedded_hal_bus::spi::ExclusiveDevice;
use mipidsi::interface::SpiInterface;
use mipidsi::models::ST7789;
use mipidsi::options::ColorInversion;
use panic_probe as _;
use stm32f4xx_hal::gpio::{Output, Pin};
use stm32f4xx_hal::pac;
use stm32f4xx_hal::prelude::*;
use stm32f4xx_hal::rcc::Config;
use stm32f4xx_hal::spi::{Mode, Phase, Polarity, Spi};

// The rotation as the F411 plays it (the one every microcontroller board plays): forever, from
// match 0, with the loop's turn limit.
pub use arena_firmware::board::{run_config, DIGEST_EVERY, SNAPSHOT_EVERY};

/// DWT CYCCNT: core cycles, 32 bits (wraps after 42 s at 100 MHz).
pub struct Cycles;

impl TurnClock for Cycles {
    fn now(&mut self) -> u32 {
        DWT::cycle_count()
    }
}

/// mipidsi's SPI buffer: pixels go out in batches of this many bytes.
static mut SPI_BUFFER: [u8; 512] = [0; 512];

type Bus = ExclusiveDevice<Spi<pac::SPI1>, Pin<'A', 4, Output>, embedded_hal_bus::spi::NoDelay>;
pub type Display =
    mipidsi::Display<SpiInterface<'static, Bus, Pin<'B', 0, Output>>, ST7789, Pin<'B', 1, Output>>;

/// The board: the LCD, the turn clock, and stack painting per match.
pub type BlackPill = Parts<Display, Cycles, Events>;

/// What the F411 does of the loop's events: the LCD shows what is drawn as it is drawn, so only
/// the stack: painted at the start of a match, its high-water mark logged at the end.
pub struct Events;

impl Listener<Display> for Events {
    fn event(&mut self, _display: &mut Display, event: &Event<'_>) {
        stack::watch(event);
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
    let mut rcc = dp.RCC.freeze(Config::hse(25.MHz()).sysclk(100.MHz()));
    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();
    let mut delay = cp.SYST.delay(&rcc.clocks);

    let gpioa = dp.GPIOA.split(&mut rcc);
    let gpiob = dp.GPIOB.split(&mut rcc);
    let spi = Spi::new(
        dp.SPI1,
        (Some(gpioa.pa5), Some(gpioa.pa6), Some(gpioa.pa7)),
        Mode {
            polarity: Polarity::IdleHigh,
            phase: Phase::CaptureOnSecondTransition,
        },
        24.MHz(),
        &mut rcc,
    );
    let cs = gpioa.pa4.into_push_pull_output();
    let dc = gpiob.pb0.into_push_pull_output();
    let rst = gpiob.pb1.into_push_pull_output();
    let Ok(device) = ExclusiveDevice::new_no_delay(spi, cs);
    // SAFETY: `init` runs once (the peripherals above are taken once), so this is the only
    // reference to the buffer.
    let buffer = unsafe { &mut *core::ptr::addr_of_mut!(SPI_BUFFER) };
    let interface = SpiInterface::new(device, dc, buffer);
    let Ok(display) = mipidsi::Builder::new(ST7789, interface)
        .display_size(240, 240)
        .invert_colors(ColorInversion::Inverted)
        .reset_pin(rst)
        .init(&mut delay)
    else {
        panic!("the ST7789 did not answer");
    };
    Parts {
        display,
        clock: Cycles,
        listener: Events,
    }
}
