//! mybot's lineup on a Raspberry Pi Pico (the project's board set-up: SSD1306 OLED, defmt-rtt).

#![no_std]
#![no_main]

arena_firmware::board_main!(arena_rp_pico, mybot::MyLineup, "rp-pico", "SSD1306");
