//! Pocket Arena on a Raspberry Pi Pico: the rotation on an SSD1306 128x64 OLED (I2C0, SDA GP4, SCL
//! GP5, address 0x3C), the log over defmt-rtt, turn costs in core cycles.
//!
//! The Cortex-M0+ has no DWT cycle counter: SysTick on the 125 MHz core clock counts cycles instead
//! (a 24-bit down-counter, so turns longer than 134 ms would wrap). A panic goes to the defmt log
//! through panic-probe, which halts the core.

#![no_std]
#![no_main]

use arena_firmware::board::{Board, Event};
use arena_firmware::{RunConfig, TurnClock};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use defmt_rtt as _;
use embedded_graphics::pixelcolor::BinaryColor;
use hal::fugit::RateExtU32;
use hal::pac;
use panic_probe as _;
use rp2040_hal as hal;
use ssd1306::mode::BufferedGraphicsMode;
use ssd1306::prelude::*;
use ssd1306::{I2CDisplayInterface, Ssd1306};

/// The second-stage bootloader for the Pico's W25Q080 flash.
#[link_section = ".boot2"]
#[used]
pub static BOOT2: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

const XTAL_HZ: u32 = 12_000_000;

struct Cycles;

impl TurnClock for Cycles {
    fn now(&mut self) -> u32 {
        SYST::get_current()
    }
    fn elapsed(&self, start: u32, end: u32) -> u32 {
        start.wrapping_sub(end) & 0x00FF_FFFF
    }
}

type Display<I> = Ssd1306<I, DisplaySize128x64, BufferedGraphicsMode<DisplaySize128x64>>;

struct Pico<I> {
    display: Display<I>,
    clock: Cycles,
}

impl<I: WriteOnlyDataCommand> Board for Pico<I> {
    type Color = BinaryColor;
    type Display = Display<I>;
    type Clock = Cycles;
    fn display(&mut self) -> &mut Display<I> {
        &mut self.display
    }
    fn clock(&mut self) -> &mut Cycles {
        &mut self.clock
    }
    fn event(&mut self, event: &Event<'_>) {
        if let Event::Frame { .. } = event {
            if self.display.flush().is_err() {
                defmt::warn!("display flush failed");
            }
        }
    }
}

#[cortex_m_rt::entry]
fn main() -> ! {
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
    let sda: hal::gpio::Pin<_, hal::gpio::FunctionI2C, hal::gpio::PullUp> =
        pins.gpio4.reconfigure();
    let scl: hal::gpio::Pin<_, hal::gpio::FunctionI2C, hal::gpio::PullUp> =
        pins.gpio5.reconfigure();
    let i2c = hal::I2C::i2c0(
        pac.I2C0,
        sda,
        scl,
        400.kHz(),
        &mut pac.RESETS,
        &clocks.system_clock,
    );
    let mut display = Ssd1306::new(
        I2CDisplayInterface::new(i2c),
        DisplaySize128x64,
        DisplayRotation::Rotate0,
    )
    .into_buffered_graphics_mode();
    if display.init().is_err() {
        panic!("no SSD1306 at 0x3C on I2C0 (SDA GP4, SCL GP5)");
    }

    let mut syst = core.SYST;
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(0x00FF_FFFF);
    syst.clear_current();
    syst.enable_counter();

    defmt::info!("rp-pico: SSD1306 ready, playing the rotation");
    let mut board = Pico {
        display,
        clock: Cycles,
    };
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut board, &RunConfig::default());
    loop {
        cortex_m::asm::wfi();
    }
}
