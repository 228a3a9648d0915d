//! Pocket Arena on an STM32F411 Black Pill: the rotation on an ST7789 240x240 LCD, forever, with
//! the log over defmt-rtt (see the crate docs for the board and what it logs).

#![no_std]
#![no_main]

use arena_firmware::{board_main, F411Arcade};

board_main!(arena_stm32f411, F411Arcade, "stm32f411", "ST7789");
