//! Panics on purpose once the board is up (clocks, I2C, OLED): the message must reach the defmt log
//! through panic-probe, and the core must end in the HardFault that a probe reports (checked by
//! `cargo xtask firmware-test` on the emulated Pico).

#![no_std]
#![no_main]

arena_firmware::board_panic_test!(arena_rp_pico, "rp-pico", "SSD1306");
