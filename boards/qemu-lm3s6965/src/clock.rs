//! The core clock and the turn clock.
//!
//! QEMU derives the LM3S6965's clock from RCC's SYSDIV: 0 gives 200 MHz (a 5 ns period). With
//! `-icount shift=0` an instruction takes 1 ns of virtual time, so SysTick on the core clock ticks once
//! every 5 instructions: the turn clock reports `ticks * 5`, in instructions, identical run to run.
//! SysTick is a 24-bit down-counter: a turn longer than 2^24 ticks (84 million instructions) would
//! wrap.

use arena_firmware::TurnClock;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;

const SYSCTL_RCC: usize = 0x400F_E060;
const RCC_SYSDIV: u32 = 0xF << 23;
/// Instructions per SysTick tick at 200 MHz under `-icount shift=0`.
pub const INSTRUCTIONS_PER_TICK: u32 = 5;
const RELOAD: u32 = 0x00FF_FFFF;

pub fn core_clock_200mhz() {
    // SAFETY: RCC is a valid system-control register; only its SYSDIV field changes.
    unsafe {
        let rcc = core::ptr::read_volatile(SYSCTL_RCC as *const u32);
        core::ptr::write_volatile(SYSCTL_RCC as *mut u32, rcc & !RCC_SYSDIV);
    }
}

pub struct SysTickClock {
    _syst: SYST,
}

impl SysTickClock {
    pub fn new(mut syst: SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(RELOAD);
        syst.clear_current();
        syst.enable_counter();
        SysTickClock { _syst: syst }
    }
}

impl TurnClock for SysTickClock {
    fn now(&mut self) -> u32 {
        SYST::get_current()
    }
    fn elapsed(&self, start: u32, end: u32) -> u32 {
        (start.wrapping_sub(end) & RELOAD).wrapping_mul(INSTRUCTIONS_PER_TICK)
    }
}
