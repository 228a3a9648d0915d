//! Pocket Arena on a Raspberry Pi Pico: the rotation on an SSD1306 128x64 OLED, forever, with the
//! log over defmt-rtt (see the crate docs for what it logs).

#![no_std]
#![no_main]

#[cortex_m_rt::entry]
fn main() -> ! {
    let mut board = arena_rp_pico::init();
    let cfg = arena_rp_pico::run_config();
    defmt::info!(
        "rp-pico: SSD1306 ready, playing the rotation digest={=u32} snap={=u32} maxsteps={=u32}",
        cfg.digest_every,
        cfg.snapshot_every,
        cfg.max_steps
    );
    arena_firmware::run::<arena_firmware::PicoArcade, _>(&mut board, &cfg);
    loop {
        cortex_m::asm::wfi();
    }
}
