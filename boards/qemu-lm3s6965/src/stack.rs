//! The stack runs from `_stack_start` (top of RAM) down towards the end of the static data
//! (`__sheap`, cortex-m-rt's symbol); there is no heap. Painting is
//! boards/stack_area.rs, shared by the boards.

#[path = "../../stack_area.rs"]
mod stack_area;
use stack_area::StackArea;

extern "C" {
    static __sheap: u32;
    static _stack_start: u32;
}

fn area() -> StackArea {
    StackArea {
        bottom: core::ptr::addr_of!(__sheap) as usize,
        top: core::ptr::addr_of!(_stack_start) as usize,
    }
}

fn sp() -> usize {
    cortex_m::register::msp::read() as usize
}

/// Bytes between the end of static data and the top of RAM.
pub fn size() -> u32 {
    area().size()
}

/// Paints the free stack below the current frame.
pub fn paint() {
    // SAFETY: below the stack pointer down to the static data is unused RAM.
    unsafe { area().paint(sp()) }
}

/// The most stack used since the last [`paint`], in bytes.
pub fn high_water() -> u32 {
    // SAFETY: the area is RAM.
    unsafe { area().high_water() }
}

/// Bytes of stack in use now.
pub fn depth() -> u32 {
    (area().top - sp()) as u32
}
