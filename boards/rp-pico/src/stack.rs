//! Stack painting: fill the unused stack with a pattern, later find the deepest word overwritten.
//!
//! The stack runs from `_stack_start` down to `_stack_end` (cortex-m-rt's symbols). With flip-link
//! (the board's linker) it sits at the bottom of RAM, below the static data, and ends at the start
//! of SRAM, so an overflow faults instead of corrupting the statics; without flip-link it would end
//! at the static data. There is no heap.

use core::ptr::{read_volatile, write_volatile};

const PAINT: u32 = 0xC0DE_CAFE;
/// Words left unpainted below the current stack pointer (the painting code's own frame).
const MARGIN: usize = 64;
extern "C" {
    static _stack_end: u32;
    static _stack_start: u32;
}

fn top() -> usize {
    core::ptr::addr_of!(_stack_start) as usize
}

fn bottom() -> usize {
    core::ptr::addr_of!(_stack_end) as usize
}

/// Bytes of stack between its bottom and its top.
pub fn size() -> u32 {
    (top() - bottom()) as u32
}

/// Paints from the bottom of the stack up to just below the current stack pointer.
#[inline(never)]
pub fn paint() {
    let sp = cortex_m::register::msp::read() as usize;
    let end = sp.saturating_sub(MARGIN * 4) & !3;
    let mut p = (bottom() + 3) & !3;
    while p < end {
        // SAFETY: [bottom, sp - margin) is stack that no live frame uses.
        unsafe { write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// The most stack used since the last [`paint`], in bytes.
pub fn high_water() -> u32 {
    let mut p = (bottom() + 3) & !3;
    // SAFETY: reads of the stack area, which is RAM.
    while p < top() && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    (top() - p) as u32
}
