//! mybot's lineup on an STM32F411 Black Pill (the project's board set-up: ST7789 LCD, defmt-rtt).

#![no_std]
#![no_main]

arena_firmware::board_main!(arena_stm32f411, mybot::MyLineup, "stm32f411", "ST7789");
