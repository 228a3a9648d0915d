//! Panics on purpose once the board is up (clocks, SPI1, LCD): the message must reach the defmt log
//! through panic-probe, and the core must end in the HardFault that a probe reports (checked by
//! `cargo xtask firmware-test` on the emulated STM32F411).

#![no_std]
#![no_main]

arena_firmware::board_panic_test!(arena_stm32f411, "stm32f411", "ST7789");
