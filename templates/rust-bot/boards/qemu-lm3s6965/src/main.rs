//! mybot's lineup on QEMU's lm3s6965evb: the project's QEMU board set-up (semihosting options,
//! OLED, SysTick clock), then `mybot::MyLineup`; exits with status 0 after `matches=N` matches.

#![no_std]
#![no_main]

use arena_qemu_lm3s6965::semi;
use cortex_m_rt::entry;

#[entry]
fn main() -> ! {
    let Some(cp) = cortex_m::Peripherals::take() else {
        semi::exit(false)
    };
    let mut buf = [0u8; 256];
    let line = semi::cmdline(&mut buf);
    let (cfg, hold) = semi::options(line);
    defmt::info!("boot {=str}", line);
    let Some(board) = arena_qemu_lm3s6965::board(cp.SYST, hold) else {
        semi::exit(false)
    };
    let played = arena_firmware::run::<mybot::MyLineup, _>(board, &cfg);
    defmt::info!("done matches={=u32}", played);
    semi::exit(true)
}
