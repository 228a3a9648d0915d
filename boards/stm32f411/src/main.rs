//! Pocket Arena on an STM32F411 Black Pill: the rotation on an ST7789 240x240 LCD (SPI1: SCK PA5,
//! MOSI PA7; DC PB0, RST PB1, CS PA4), the log over defmt-rtt, turn costs in DWT cycles.
//!
//! The LCD is drawn directly (no framebuffer: 240x240x2 bytes would take most of the RAM); the
//! screens clear and redraw each frame. A panic goes to the defmt log through panic-probe.

#![no_std]
#![no_main]

use arena_firmware::board::Parts;
use arena_firmware::{RunConfig, TurnClock};
use cortex_m::peripheral::DWT;
use defmt_rtt as _;
use embedded_hal_bus::spi::ExclusiveDevice;
use mipidsi::interface::SpiInterface;
use mipidsi::models::ST7789;
use mipidsi::options::ColorInversion;
use panic_probe as _;
use stm32f4xx_hal::pac;
use stm32f4xx_hal::prelude::*;
use stm32f4xx_hal::rcc::Config;
use stm32f4xx_hal::spi::{Mode, Phase, Polarity, Spi};

/// DWT CYCCNT: core cycles, 32 bits.
struct Cycles;

impl TurnClock for Cycles {
    fn now(&mut self) -> u32 {
        DWT::cycle_count()
    }
}

#[cortex_m_rt::entry]
fn main() -> ! {
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
    let mut buffer = [0u8; 512];
    let interface = SpiInterface::new(device, dc, &mut buffer);
    let Ok(display) = mipidsi::Builder::new(ST7789, interface)
        .display_size(240, 240)
        .invert_colors(ColorInversion::Inverted)
        .reset_pin(rst)
        .init(&mut delay)
    else {
        panic!("the ST7789 did not answer");
    };

    defmt::info!("stm32f411: ST7789 ready, playing the rotation");
    // The LCD shows what is drawn as it is drawn: the board does nothing of the loop's events.
    let mut board = Parts {
        display,
        clock: Cycles,
        listener: (),
    };
    arena_firmware::run::<arena_firmware::Arcade, _>(&mut board, &RunConfig::default());
    loop {
        cortex_m::asm::wfi();
    }
}
