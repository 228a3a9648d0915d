//! The stack runs from `_stack_start` (top of RAM) down towards the end of the static data
//! (`__sheap`, cortex-m-rt's symbol); there is no heap. Painting is
//! boards/stack_area.rs, shared by the boards.

#[path = "../../stack_area.rs"]
mod stack_area;

stack_area::board_stack!(__sheap);
