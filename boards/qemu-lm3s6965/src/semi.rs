//! Talking to the host through semihosting: the run's options, the snapshot handshake, the exit.
//!
//! Options come as `key=value` words on the semihosting command line (QEMU's
//! `-semihosting-config arg=...`): `matches=N` (default: play forever), `first=N`, `digest=N`,
//! `snap=N`, `maxsteps=N`, `seats=1` (each seat's cost and its bot's stack a turn:
//! `seat s= c= stack=`), `frames=N` (a game frame every N turns only), `hold=PATH`. With `hold`, each snapshot frame waits until the host file
//! `PATH-<k>` exists (k = 0, 1, ...): the host takes the screendump, then creates it.

use arena_firmware::RunConfig;
use cortex_m_semihosting::{debug, nr};

/// Room for the command line.
const CMDLINE: usize = 256;

/// The semihosting command line, or an empty string when the host gives none.
pub fn cmdline(buf: &mut [u8; CMDLINE]) -> &str {
    let mut block = [buf.as_mut_ptr() as usize, buf.len()];
    // SAFETY: GET_CMDLINE writes at most `block[1]` bytes into `buf` and updates `block[1]`.
    let rc =
        unsafe { cortex_m_semihosting::syscall1(nr::GET_CMDLINE, block.as_mut_ptr() as usize) };
    if rc != 0 {
        return "";
    }
    let len = block[1].min(buf.len());
    let text = buf.get(..len).unwrap_or(&[]);
    let text = text.split(|&b| b == 0).next().unwrap_or(&[]);
    core::str::from_utf8(text).unwrap_or("")
}

/// The run's options from the command line, on top of `RunConfig::default()`.
pub fn options(line: &str) -> (RunConfig, Hold) {
    let mut cfg = RunConfig::default();
    let mut hold = Hold::none();
    for word in line.split_ascii_whitespace() {
        let Some((key, value)) = word.split_once('=') else {
            continue;
        };
        let n = value.parse::<u32>().ok();
        match (key, n) {
            ("matches", Some(n)) => cfg.matches = Some(n),
            ("first", Some(n)) => cfg.first = n,
            ("digest", Some(n)) => cfg.digest_every = n,
            ("snap", Some(n)) => cfg.snapshot_every = n,
            ("maxsteps", Some(n)) => cfg.max_steps = n,
            ("seats", Some(n)) => cfg.seats = n != 0,
            ("frames", Some(n)) => cfg.frames_every = n,
            ("hold", _) => hold = Hold::at(value),
            _ => defmt::warn!("unknown option {=str}", word),
        }
    }
    (cfg, hold)
}

/// The snapshot handshake.
pub struct Hold {
    path: heapless::String<200>,
    next: u32,
}

impl Hold {
    pub fn none() -> Hold {
        Hold {
            path: heapless::String::new(),
            next: 0,
        }
    }

    fn at(path: &str) -> Hold {
        let mut h = Hold::none();
        let _ = h.path.push_str(path);
        h
    }

    /// Waits until the host has created `PATH-<k>` (returns at once without a path).
    pub fn wait(&mut self) {
        if self.path.is_empty() {
            return;
        }
        use core::fmt::Write;
        let mut name: heapless::String<220> = heapless::String::new();
        let _ = write!(name, "{}-{}\0", self.path, self.next);
        self.next += 1;
        loop {
            // SAFETY: OPEN reads the NUL-terminated name; mode 0 is "r".
            let handle = unsafe {
                cortex_m_semihosting::syscall!(OPEN, name.as_ptr(), 0usize, name.len() - 1)
            };
            if handle as isize != -1 {
                // SAFETY: closes the handle OPEN just gave.
                unsafe { cortex_m_semihosting::syscall!(CLOSE, handle) };
                return;
            }
            cortex_m::asm::delay(20_000);
        }
    }
}

/// Ends the QEMU run with status 0 (`ok`) or 1.
pub fn exit(ok: bool) -> ! {
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::bkpt();
    }
}
