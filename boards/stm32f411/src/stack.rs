//! The stack runs from `_stack_start` down to `_stack_end` (cortex-m-rt's symbols). With flip-link
//! (the board's linker) it sits at the bottom of RAM, below the static data, and ends at the start
//! of SRAM, so an overflow faults instead of corrupting the statics. There is no heap. Painting is
//! boards/stack_area.rs, shared by the boards.

#[path = "../../stack_area.rs"]
mod stack_area;

stack_area::board_stack!(_stack_end);
