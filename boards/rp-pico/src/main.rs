//! Pocket Arena on a Raspberry Pi Pico: the rotation on an SSD1306 128x64 OLED, forever, with the
//! log over defmt-rtt (see the crate docs for what it logs).

#![no_std]
#![no_main]

use arena_firmware::{board_main, PicoArcade};

board_main!(arena_rp_pico, PicoArcade, "rp-pico", "SSD1306");
