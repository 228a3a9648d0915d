//! Stack painting: fill the unused stack with a pattern, later find the deepest word overwritten.
//!
//! The stack runs from `_stack_start` (top of RAM) down towards the end of the static data
//! (`__sheap`, cortex-m-rt's symbol); there is no heap.

use core::ptr::{read_volatile, write_volatile};

const PAINT: u32 = 0xC0DE_CAFE;
/// Words left unpainted below the current stack pointer (the painting code's own frame).
const MARGIN: usize = 64;

extern "C" {
    static __sheap: u32;
    static _stack_start: u32;
}

fn bottom() -> usize {
    core::ptr::addr_of!(__sheap) as usize
}

fn top() -> usize {
    core::ptr::addr_of!(_stack_start) as usize
}

/// Bytes between the end of static data and the top of RAM.
pub fn size() -> u32 {
    (top() - bottom()) as u32
}

/// Paints from the bottom of the stack area up to just below the current stack pointer.
#[inline(never)]
pub fn paint() {
    let sp = cortex_m::register::msp::read() as usize;
    let end = sp.saturating_sub(MARGIN * 4) & !3;
    let mut p = (bottom() + 3) & !3;
    while p < end {
        // SAFETY: [bottom, sp - margin) is RAM that no live frame uses.
        unsafe { write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
}

/// The most stack used since the last [`paint`], in bytes.
pub fn high_water() -> u32 {
    let mut p = (bottom() + 3) & !3;
    // SAFETY: reads of RAM between the static data and the top of the stack.
    while p < top() && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    (top() - p) as u32
}

/// Bytes of stack in use now.
pub fn depth() -> u32 {
    (top() - cortex_m::register::msp::read() as usize) as u32
}
