//! Stack painting, for the boards' high-water marks: fill the unused stack with a pattern, later
//! find the deepest word overwritten. Each board names its stack area (its linker symbols) and
//! reads its stack pointer; the rest is this file, which every board includes
//! (`#[path = "../../stack_area.rs"]`, as they share `memory.rs` for their build scripts).
//! It is here rather than in arena-firmware because it is `unsafe` and the firmware is not.

use core::ptr::{read_volatile, write_volatile};

const PAINT: u32 = 0xC0DE_CAFE;
/// Bytes left unpainted below the current stack pointer (the painting code's own frame).
const MARGIN: usize = 256;
/// Bytes painted below the stack pointer for one seat's decision ([`StackArea::paint_window`]):
/// a bot deeper than this shows as this deep (the stack's budget is the state + 12 KB).
pub const SEAT_WINDOW: usize = 16 * 1024;
/// Bytes left unpainted below the stack pointer for a seat: the painting loop's own frame.
const SEAT_MARGIN: usize = 64;

/// A descending stack between two addresses.
#[derive(Clone, Copy, Debug)]
pub struct StackArea {
    /// The lowest address the stack may reach.
    pub bottom: usize,
    /// Where it starts (its first push goes just below).
    pub top: usize,
}

impl StackArea {
    fn first_word(&self) -> usize {
        self.bottom.saturating_add(3) & !3
    }

    /// Bytes between bottom and top.
    pub fn size(&self) -> u32 {
        self.top.saturating_sub(self.bottom) as u32
    }

    /// Paints from the bottom up to just below `sp`, the current stack pointer.
    ///
    /// # Safety
    /// `[bottom, sp)` must be RAM that no live frame or static uses.
    #[inline(never)]
    pub unsafe fn paint(&self, sp: usize) {
        let end = sp.saturating_sub(MARGIN) & !3;
        let mut p = self.first_word();
        while p < end {
            // SAFETY: the caller's promise: [bottom, sp - margin) is unused RAM.
            unsafe { write_volatile(p as *mut u32, PAINT) };
            p = p.saturating_add(4);
        }
    }

    /// Paints [`SEAT_WINDOW`] bytes below `sp` (or down to the bottom), but the last
    /// `SEAT_MARGIN` bytes under it; returns the lowest word painted, for
    /// [`high_water_from`](Self::high_water_from).
    ///
    /// # Safety
    /// `[bottom, sp)` must be RAM that no live frame or static uses.
    #[inline(never)]
    pub unsafe fn paint_window(&self, sp: usize) -> usize {
        let end = sp.saturating_sub(SEAT_MARGIN) & !3;
        let low = (sp.saturating_sub(SEAT_WINDOW).saturating_add(3) & !3).max(self.first_word());
        let mut p = low;
        while p < end {
            // SAFETY: the caller's promise: [bottom, sp - margin) is unused RAM.
            unsafe { write_volatile(p as *mut u32, PAINT) };
            p = p.saturating_add(4);
        }
        low
    }

    /// The stack's depth (bytes from the top) at its deepest since the last
    /// [`paint_window`](Self::paint_window), which returned `low`.
    ///
    /// # Safety
    /// `[low, top)` must be readable RAM.
    pub unsafe fn high_water_from(&self, low: usize) -> u32 {
        let mut p = low.max(self.first_word());
        // SAFETY: the caller's promise: the area is RAM.
        while p < self.top && unsafe { read_volatile(p as *const u32) } == PAINT {
            p = p.saturating_add(4);
        }
        self.top.saturating_sub(p) as u32
    }

    /// The most stack used since the last [`paint`](Self::paint), in bytes.
    ///
    /// # Safety
    /// `[bottom, top)` must be readable RAM.
    pub unsafe fn high_water(&self) -> u32 {
        let mut p = self.first_word();
        // SAFETY: the caller's promise: the area is RAM.
        while p < self.top && unsafe { read_volatile(p as *const u32) } == PAINT {
            p = p.saturating_add(4);
        }
        self.top.saturating_sub(p) as u32
    }
}

/// Run by xtask's tests (the boards build for their targets only).
/// A board's stack functions over the stack from cortex-m-rt's `_stack_start` down to the linker
/// symbol `$bottom`: `size`, `paint`, `high_water`, `depth` (bytes in use now), and `watch` (the
/// stack at a match's start and end). Called in the board's `stack` module, beside
/// `mod stack_area`.
// xtask includes this file for its tests of `StackArea`, and has no board stack to declare.
#[allow(unused_macros)]
macro_rules! board_stack {
    ($bottom:ident) => {
        extern "C" {
            static $bottom: u32;
            static _stack_start: u32;
        }

        fn area() -> stack_area::StackArea {
            stack_area::StackArea {
                bottom: core::ptr::addr_of!($bottom) as usize,
                top: core::ptr::addr_of!(_stack_start) as usize,
            }
        }

        fn sp() -> usize {
            cortex_m::register::msp::read() as usize
        }

        /// Bytes of stack between its bottom and its top.
        pub fn size() -> u32 {
            area().size()
        }

        /// Paints the free stack below the current frame.
        pub fn paint() {
            // SAFETY: below the stack pointer down to the stack's bottom is unused RAM.
            unsafe { area().paint(sp()) }
        }

        /// The most stack used since the last [`paint`], in bytes.
        pub fn high_water() -> u32 {
            // SAFETY: the stack area is RAM.
            unsafe { area().high_water() }
        }

        /// Bytes of stack in use now.
        pub fn depth() -> u32 {
            (area().top - sp()) as u32
        }

        /// Where the window painted for the seat deciding now starts, and the stack's depth
        /// then.
        static SEAT_LOW: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);
        static SEAT_DEPTH: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

        /// What the board does of a seat's decision (the cost run's `RunConfig::seats`): before
        /// it, paints the stack's window below here; after it, logs the seat's cost and its bot's
        /// stack, the deepest the stack went while it decided below the depth it had here
        /// (`seat s= c= stack=`; its match is the last `start` line's). Out of line, and not
        /// reached from [`watch`]: inlined into a board's listener, its frame was under every
        /// frame's flush (the Pico's Ants on tutorial1 went 52 B past its stack budget).
        #[inline(never)]
        pub fn seat(event: &arena_firmware::Event<'_>) {
            use core::sync::atomic::Ordering::Relaxed;
            match *event {
                arena_firmware::Event::Acting { .. } => {
                    let at = sp();
                    SEAT_DEPTH.store((area().top - at) as u32, Relaxed);
                    // SAFETY: below the stack pointer down to the stack's bottom is unused RAM.
                    SEAT_LOW.store(unsafe { area().paint_window(at) }, Relaxed);
                }
                arena_firmware::Event::Acted { seat, cost } => {
                    // SAFETY: the stack area is RAM.
                    let deepest = unsafe { area().high_water_from(SEAT_LOW.load(Relaxed)) };
                    defmt::info!(
                        "seat s={=u8} c={=u32} stack={=u32}",
                        seat as u8,
                        cost,
                        deepest.saturating_sub(SEAT_DEPTH.load(Relaxed))
                    );
                }
                _ => {}
            }
        }

        /// What the board does of a match's start and end: paints the stack at the start, logs
        /// its high-water mark at the end (`stack m= used= of=`). A seat's decision is the
        /// board's `Listener::seat`'s, with [`seat`].
        pub fn watch(event: &arena_firmware::Event<'_>) {
            match event {
                arena_firmware::Event::Start { .. } => paint(),
                arena_firmware::Event::End { number, .. } => defmt::info!(
                    "stack m={=u32} used={=u32} of={=u32}",
                    number,
                    high_water(),
                    size()
                ),
                _ => {}
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use board_stack;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_high_water_is_the_deepest_word_written() {
        let mut ram = [0u32; 256];
        let area = StackArea {
            bottom: ram.as_mut_ptr() as usize,
            top: ram.as_mut_ptr() as usize + 1024,
        };
        assert_eq!(area.size(), 1024);
        // "sp" at the top: all but the margin below it is painted.
        unsafe { area.paint(area.top) };
        assert_eq!(unsafe { area.high_water() }, MARGIN as u32);
        // a frame reaching 600 bytes below the top
        unsafe { write_volatile((area.top - 600) as *mut u32, 7) };
        assert_eq!(unsafe { area.high_water() }, 600);
    }

    #[test]
    fn a_seats_window_is_painted_below_the_stack_pointer_only() {
        let mut ram = vec![0u32; SEAT_WINDOW / 4 + 1024];
        let bottom = ram.as_mut_ptr() as usize;
        let area = StackArea {
            bottom,
            top: bottom + ram.len() * 4,
        };
        // "sp" 1,000 bytes below the top: the window reaches SEAT_WINDOW below it.
        let sp = area.top - 1000;
        let low = unsafe { area.paint_window(sp) };
        assert_eq!(low, sp - SEAT_WINDOW);
        assert_eq!(ram[0], 0, "below the window: not painted");
        // Nothing written since: the deepest is the margin under sp.
        assert_eq!(
            unsafe { area.high_water_from(low) },
            1000 + SEAT_MARGIN as u32
        );
        // A bot's frame 3,000 bytes below sp.
        unsafe { write_volatile((sp - 3000) as *mut u32, 7) };
        assert_eq!(unsafe { area.high_water_from(low) }, 4000);
        // A window cut at the bottom.
        let low = unsafe { area.paint_window(bottom + 400) };
        assert_eq!(low, bottom);
    }
}
