//! The stack runs from `_stack_start` down to `_stack_end` (cortex-m-rt's symbols). With flip-link
//! (the board's linker) it sits at the bottom of RAM, below the static data, and ends at the start
//! of SRAM, so an overflow faults instead of corrupting the statics; without flip-link it would end
//! at the static data. There is no heap. Painting is
//! boards/stack_area.rs, shared by the boards.

#[path = "../../stack_area.rs"]
mod stack_area;
use stack_area::StackArea;

extern "C" {
    static _stack_end: u32;
    static _stack_start: u32;
}

fn area() -> StackArea {
    StackArea {
        bottom: core::ptr::addr_of!(_stack_end) as usize,
        top: core::ptr::addr_of!(_stack_start) as usize,
    }
}

/// Bytes of stack between its bottom and its top.
pub fn size() -> u32 {
    area().size()
}

/// Paints the free stack below the current frame.
pub fn paint() {
    // SAFETY: below the stack pointer down to the stack's end is unused stack.
    unsafe { area().paint(cortex_m::register::msp::read() as usize) }
}

/// The most stack used since the last [`paint`], in bytes.
pub fn high_water() -> u32 {
    // SAFETY: the stack area is RAM.
    unsafe { area().high_water() }
}
