//! Each board's host side, one folder per board.

pub(crate) mod qemu;
pub(crate) mod rp_pico;
pub(crate) mod stm32f411;
