//! # Pocket Arena on QEMU's lm3s6965evb
//!
//! The default board: anyone can run it without hardware. What it adds to arena-firmware:
//! - [`oled`]: the emulated SSD0323 128x64 16-gray OLED on SSI0, driven from a 4 KB framebuffer
//!   of which only the windows that changed are sent at each frame (`oled m=` in the log: the
//!   bytes on SSI0 a game frame, per match);
//! - [`clock`]: the core clock at 200 MHz and SysTick as the turn clock (under `-icount shift=0`
//!   one tick is exactly 5 instructions; DWT CYCCNT is not emulated);
//! - [`semi`]: the run's options from the semihosting command line, the snapshot handshake, and the
//!   exit status;
//! - [`stack`]: stack painting for the high-water mark;
//! - the panic handler: the message on the OLED and in the defmt log, then exit status 1; a hard
//!   fault is logged and exits with status 1 too.
//!
//! Registers are written directly (volatile) in this crate only: the firmware library stays free of
//! `unsafe`.

#![no_std]

pub mod clock;
pub mod oled;
pub mod semi;
pub mod stack;

use arena_firmware::board::{Event, FrameKind, Listener, Parts};
use arena_firmware::diff::Gray4Shown;
use arena_firmware::{CostStats, Gray4Frame};
use defmt_semihosting as _;

/// The board: the OLED's framebuffer, the SysTick clock and the run's options.
pub type Qemu = Parts<Gray4Frame, clock::SysTickClock, Events>;

/// What the QEMU board does of the loop's events: send what changed in the framebuffer to the
/// OLED, measure the stack, count the bytes each game frame puts on SSI0 (logged at the end of
/// each match: `oled m= frames= min= median= max=`), and hold each snapshot frame for the host.
pub struct Events {
    pub oled: oled::Oled,
    /// What the OLED shows.
    pub shown: Gray4Shown,
    /// The bytes on SSI0 of each game frame of the match being played.
    pub bytes: CostStats,
    pub hold: semi::Hold,
    /// Paint the stack at each match start and log its high-water mark at the end.
    pub measure_stack: bool,
}

/// The board, once (`None` on a second call: there is one framebuffer). In static memory, not in
/// `main`'s frame: the stack is left to the game. Out of line, so that the board built before it
/// moves into its static (4 KB of framebuffer) is in this function's frame, gone once it returns.
#[inline(never)]
pub fn board(syst: cortex_m::peripheral::SYST, hold: semi::Hold) -> Option<&'static mut Qemu> {
    clock::core_clock_200mhz();
    let clock = clock::SysTickClock::new(syst);
    let listener = Events {
        oled: oled::Oled::init(),
        shown: Gray4Shown::new(),
        bytes: CostStats::new(),
        hold,
        measure_stack: true,
    };
    cortex_m::singleton!(BOARD: Qemu = Parts {
        display: Gray4Frame::new(),
        clock,
        listener,
    })
}

impl Listener<Gray4Frame> for Events {
    /// Each seat's cost and its bot's stack (`seats=1`), out of `event`'s frame.
    fn seat(&mut self, _display: &mut Gray4Frame, event: &Event<'_>) {
        if self.measure_stack {
            stack::seat(event)
        }
    }

    fn event(&mut self, display: &mut Gray4Frame, event: &Event<'_>) {
        match event {
            Event::Frame { kind, .. } => {
                let bytes = self.oled.show(display, &mut self.shown);
                if *kind == FrameKind::Game {
                    self.bytes.record(bytes);
                }
            }
            Event::Start { number, .. } => {
                self.bytes = CostStats::new();
                if self.measure_stack {
                    defmt::info!("stackstart m={=u32} depth={=u32}", number, stack::depth());
                    stack::paint()
                }
            }
            Event::End { number, .. } => {
                let b = self.bytes.summary();
                defmt::info!(
                    "oled m={=u32} frames={=u32} min={=u32} median={=u32} max={=u32}",
                    number,
                    b.turns,
                    b.min,
                    b.median,
                    b.max
                );
                if !self.measure_stack {
                    return;
                }
                defmt::info!(
                    "stack m={=u32} used={=u32} of={=u32}",
                    number,
                    stack::high_water(),
                    stack::size()
                );
            }
            _ => {}
        }
    }
    fn hold(&mut self) {
        self.hold.wait();
    }
}

/// A fault (a bad access, or the stack running into the end of RAM) ends the run with status 1
/// instead of spinning in the default handler until the host's timeout.
#[cortex_m_rt::exception]
unsafe fn HardFault(frame: &cortex_m_rt::ExceptionFrame) -> ! {
    defmt::error!("hard fault at pc={=u32:#x}", frame.pc());
    semi::exit(false)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    use core::fmt::Write;
    cortex_m::interrupt::disable();
    let mut msg: heapless::String<160> = heapless::String::new();
    let _ = write!(msg, "{}", info.message());
    if let Some(loc) = info.location() {
        let _ = write!(msg, " at {}:{}", loc.file(), loc.line());
    }
    defmt::error!("panic: {=str}", msg.as_str());
    let mut frame = Gray4Frame::new();
    let _ = arena_firmware::screen::draw_panic(&msg, &mut frame);
    let oled = oled::Oled::init();
    oled.flush(&frame);
    // Under `cargo xtask test`, hold the panic screen until the host has taken its screendump.
    let mut buf = [0u8; 256];
    let (_, mut hold) = semi::options(semi::cmdline(&mut buf));
    defmt::error!("panicframe drawn");
    hold.wait();
    semi::exit(false)
}
