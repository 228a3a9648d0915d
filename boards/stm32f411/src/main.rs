//! Pocket Arena on an STM32F411 Black Pill: the rotation on an ST7789 240x240 LCD, forever, with
//! the log over defmt-rtt (see the crate docs for the board and what it logs).

#![no_std]
#![no_main]

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut board = arena_stm32f411::init();
    let cfg = arena_stm32f411::run_config();
    defmt::info!(
        "stm32f411: ST7789 ready, playing the rotation digest={=u32} snap={=u32} maxsteps={=u32}",
        cfg.digest_every,
        cfg.snapshot_every,
        cfg.max_steps
    );
    arena_firmware::run::<arena_firmware::F411Arcade, _>(&mut board, &cfg);
    loop {
        cortex_m::asm::wfi();
    }
}
