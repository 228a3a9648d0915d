//! Panics on purpose after drawing a frame: the panic handler must put the message on the OLED and in
//! the defmt log, and QEMU must exit with a non-zero status (checked by `cargo xtask test`).

#![no_std]
#![no_main]

use arena_qemu_lm3s6965::semi;
use cortex_m_rt::entry;

#[entry]
fn main() -> ! {
    let mut buf = [0u8; 256];
    let line = semi::cmdline(&mut buf);
    defmt::info!("panic test {=str}", line);
    let turns: [u32; 3] = [1, 2, 3];
    let i = core::hint::black_box(7usize);
    let t = turns[i % 8];
    defmt::info!("unreachable {=u32}", t);
    semi::exit(true)
}
