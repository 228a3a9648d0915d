//! Panics on purpose once the board is up (clocks, SPI1, LCD): the message must reach the defmt log
//! through panic-probe, and the core must end in the HardFault that a probe reports (checked by
//! `cargo xtask firmware-test` on the emulated STM32F411).

#![no_std]
#![no_main]

#[cortex_m_rt::entry]
fn main() -> ! {
    let _board = arena_stm32f411::init();
    defmt::info!("stm32f411 panic test: ST7789 ready");
    let turns: [u32; 3] = [1, 2, 3];
    let i = core::hint::black_box(7usize);
    let t = turns[i % 8];
    defmt::info!("unreachable {=u32}", t);
    loop {
        cortex_m::asm::wfi();
    }
}
