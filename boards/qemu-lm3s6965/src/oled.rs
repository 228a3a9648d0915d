//! The SSD0323 OLED of the lm3s6965evb, on SSI0 (a PL022) with D/C on PC7 and chip select on PD0.
//!
//! The controller's memory is 4 bits a pixel, two pixels a byte, 64 bytes a row, exactly the layout
//! of [`Gray4Frame`], and it writes any window of byte columns and rows: [`Oled::show`] sends only
//! the windows of the frame that differ from what the panel shows ([`Gray4Shown`]), each behind
//! its column and row address commands (6 bytes); [`Oled::flush`] (the panic screen) sends the
//! whole 4 KB. QEMU's PL022 stops when its receive FIFO is full, so every byte sent is also read
//! back.

use arena_firmware::diff::{Gray4Shown, Window};
use arena_firmware::Gray4Frame;
use core::ptr::{read_volatile, write_volatile};

const SYSCTL_RCGC1: usize = 0x400F_E104;
const SYSCTL_RCGC2: usize = 0x400F_E108;
const SSI0: usize = 0x4000_8000;
const SSI_CR0: usize = SSI0;
const SSI_CR1: usize = SSI0 + 0x04;
const SSI_DR: usize = SSI0 + 0x08;
const SSI_SR: usize = SSI0 + 0x0C;
const SSI_CPSR: usize = SSI0 + 0x10;
const SR_TNF: u32 = 1 << 1;
const SR_RNE: u32 = 1 << 2;
const GPIO_C: usize = 0x4000_6000;
const GPIO_D: usize = 0x4000_7000;
const GPIO_DIR: usize = 0x400;
const GPIO_DEN: usize = 0x51C;
const PIN_DC: u32 = 1 << 7; // PC7
const PIN_CS: u32 = 1 << 0; // PD0

fn write(addr: usize, v: u32) {
    // SAFETY: addr is one of the memory-mapped registers above, valid on the LM3S6965.
    unsafe { write_volatile(addr as *mut u32, v) }
}

fn read(addr: usize) -> u32 {
    // SAFETY: as in `write`.
    unsafe { read_volatile(addr as *const u32) }
}

/// Sets the pins of `mask` on GPIO port `port` to `value` (the port's data register is addressed
/// through the mask).
fn gpio_set(port: usize, mask: u32, value: bool) {
    write(port + ((mask as usize) << 2), if value { mask } else { 0 });
}

pub struct Oled;

impl Oled {
    /// Clocks SSI0 and the GPIO ports, sets up the SSI for 8-bit SPI frames and the controller for
    /// horizontal increment over the whole screen, and turns the display on.
    pub fn init() -> Oled {
        write(SYSCTL_RCGC1, read(SYSCTL_RCGC1) | 1 << 4);
        write(SYSCTL_RCGC2, read(SYSCTL_RCGC2) | 0b1111);
        for (port, pin) in [(GPIO_C, PIN_DC), (GPIO_D, PIN_CS)] {
            write(port + GPIO_DIR, read(port + GPIO_DIR) | pin);
            write(port + GPIO_DEN, read(port + GPIO_DEN) | pin);
        }
        gpio_set(GPIO_D, PIN_CS, true);
        write(SSI_CR1, 0);
        write(SSI_CPSR, 2);
        write(SSI_CR0, 7); // SPI, 8-bit frames
        write(SSI_CR1, 1 << 1); // SSE
        let oled = Oled;
        // Remap: horizontal address increment; display on.
        oled.command(&[0xA0, 0x00, 0xAF]);
        oled
    }

    fn send(&self, byte: u8) {
        while read(SSI_SR) & SR_TNF == 0 {}
        write(SSI_DR, byte as u32);
        while read(SSI_SR) & SR_RNE == 0 {}
        let _ = read(SSI_DR);
    }

    fn command(&self, bytes: &[u8]) {
        gpio_set(GPIO_C, PIN_DC, false);
        for &b in bytes {
            self.send(b);
        }
    }

    /// Shows `frame`, all of it.
    pub fn flush(&self, frame: &Gray4Frame) {
        self.command(&[0x15, 0, 63, 0x75, 0, 63]);
        gpio_set(GPIO_C, PIN_DC, true);
        for &b in frame.bytes() {
            self.send(b);
        }
    }

    /// Shows `frame` by sending the windows that differ from what the panel shows (`shown`, which
    /// then holds `frame`). The bytes that went over SSI0, commands included.
    pub fn show(&self, frame: &Gray4Frame, shown: &mut Gray4Shown) -> u32 {
        let mut bus = 0u32;
        let sent = shown.flush(frame, |w: Window, bytes| {
            self.command(&[0x15, w.col0, w.col1, 0x75, w.row0, w.row1]);
            gpio_set(GPIO_C, PIN_DC, true);
            for row in w.rows(bytes) {
                for &b in row {
                    self.send(b);
                }
            }
            bus = bus.saturating_add(6);
            Ok::<(), core::convert::Infallible>(())
        });
        let Ok(data) = sent;
        bus.saturating_add(data)
    }
}
