//! xtask's one RTT reader and its one splitter of defmt frames: what a debug probe does with the
//! log of a board it drives (`drive.rs`). The harnesses model hardware only; this reads the
//! up channel through their `read`/`write` commands.
//!
//! The control block at `_SEGGER_RTT` (SEGGER's layout, as defmt-rtt declares it):
//!
//! ```text
//! +0   char id[16]            "SEGGER RTT"
//! +16  u32 max up channels, +20 u32 max down channels
//! +24  up channel 0: +0 name, +4 buffer, +8 size, +12 write offset (target), +16 read offset
//!      (host), +20 flags (bits 0-1: mode; 2 = block if full)
//! ```
//!
//! Like probe-rs, the reader switches the channel to "block if full" once the firmware has set up
//! the block (defmt-rtt starts non-blocking and treats blocking mode as "a host is attached"), so
//! no byte is ever lost. defmt-rtt writes one 0x00 byte first, then frames encoded with rzCOBS,
//! each ending in 0x00; a decoded frame starts with its format string's index (u16, little
//! endian), then the arguments (the firmware logs no timestamp). The log's text is `defmt-print`'s
//! work; this only knows which line a frame is and its leading `u32` arguments.

/// The control block's first bytes once the firmware has set it up.
pub const ID: &[u8] = b"SEGGER RTT";
/// The bytes of the control block up to the end of up channel 0.
pub const BLOCK: u32 = 48;
/// Where up channel 0's write offset is, from the start of the block: the word a watchpoint
/// watches.
pub const WRITE_OFFSET: u32 = 24 + 12;
/// Up channel 0's read offset, and flags.
pub const READ_OFFSET: u32 = 24 + 16;
pub const FLAGS: u32 = 24 + 20;
const MODE_MASK: u32 = 3;
const MODE_BLOCK_IF_FULL: u32 = 2;

fn word(b: &[u8], at: u32) -> u32 {
    let at = at as usize;
    b.get(at..at + 4)
        .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Up channel 0 as the firmware set it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Up {
    pub buffer: u32,
    pub size: u32,
    pub read: u32,
    /// The flags with the mode switched to "block if full", to be written back.
    pub blocking_flags: u32,
}

/// Up channel 0 of the control block whose first [`BLOCK`] bytes are `block`: `None` while its id
/// is not in place yet; an error when it is no usable channel (a buffer outside memory is the
/// board's to refuse, when it is read).
pub fn up_channel(block: &[u8]) -> Result<Option<Up>, String> {
    if block.len() < BLOCK as usize {
        return Err(format!(
            "the RTT control block: {} bytes, {BLOCK} expected",
            block.len()
        ));
    }
    if !block.starts_with(ID) {
        return Ok(None);
    }
    if word(block, 16) < 1 {
        return Err("the RTT control block has no up channel".into());
    }
    let (buffer, size) = (word(block, 24 + 4), word(block, 24 + 8));
    if size == 0 || buffer.checked_add(size).is_none() {
        return Err(format!(
            "RTT up channel 0: a buffer of {size} bytes at 0x{buffer:x}"
        ));
    }
    Ok(Some(Up {
        buffer,
        size,
        read: word(block, READ_OFFSET),
        blocking_flags: (word(block, FLAGS) & !MODE_MASK) | MODE_BLOCK_IF_FULL,
    }))
}

impl Up {
    /// The pieces of the ring (`(address, length)`, one, or two across the wrap) written between
    /// the read offset and `write`; an error for offsets outside the buffer.
    pub fn pending(&self, write: u32) -> Result<Vec<(u32, u32)>, String> {
        let (read, size) = (self.read, self.size);
        if write >= size || read >= size {
            return Err(format!(
                "RTT up channel 0 offsets out of range (write {write}, read {read}, size {size})"
            ));
        }
        Ok(if write == read {
            Vec::new()
        } else if write > read {
            vec![(self.buffer + read, write - read)]
        } else if write == 0 {
            vec![(self.buffer + read, size - read)]
        } else {
            vec![(self.buffer + read, size - read), (self.buffer, write)]
        })
    }
}

/// The RTT byte stream cut into frames at the 0x00 bytes, across reads.
#[derive(Default)]
pub struct Splitter {
    pub pending: Vec<u8>,
}

impl Splitter {
    /// The frames `bytes` completes (each without its 0x00), in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for &b in bytes {
            if b == 0 {
                if !self.pending.is_empty() {
                    out.push(std::mem::take(&mut self.pending));
                }
            } else {
                self.pending.push(b);
            }
        }
        out
    }
}

/// rzCOBS decoding, the inverse of defmt's encoder (defmt/src/encoding/rzcobs.rs): groups are read
/// from the end of the frame backwards, each ending in its code byte:
/// - 0x01..0x7f: seven positions, LSB first; a set bit is a 0x00, a clear bit one byte of the group;
/// - 0x80..0xfe: (code & 0x7f) + 7 bytes, then a 0x00;
/// - 0xff: 134 bytes.
///
/// The result may end in padding zeros, as defmt's decoder allows.
pub fn rzcobs_decode(enc: &[u8]) -> Result<Vec<u8>, String> {
    let mut groups: Vec<Vec<u8>> = Vec::new();
    let mut i = enc.len();
    while i > 0 {
        i -= 1;
        let x = enc[i];
        let short = || "a frame shorter than its code byte says".to_owned();
        if x == 0 {
            return Err("0x00 inside a frame".into());
        }
        if x < 0x80 {
            let n = (0..7).filter(|b| x & (1 << b) == 0).count();
            let data = enc
                .get(i.checked_sub(n).ok_or_else(short)?..i)
                .unwrap_or(&[]);
            i -= n;
            let mut d = data.iter();
            groups.push(
                (0..7)
                    .map(|b| {
                        if x & (1 << b) != 0 {
                            0
                        } else {
                            d.next().copied().unwrap_or(0)
                        }
                    })
                    .collect(),
            );
        } else {
            let n = if x == 0xff {
                134
            } else {
                usize::from(x & 0x7f) + 7
            };
            let start = i.checked_sub(n).ok_or_else(short)?;
            let mut g = enc[start..i].to_vec();
            if x != 0xff {
                g.push(0);
            }
            i = start;
            groups.push(g);
        }
    }
    Ok(groups.into_iter().rev().flatten().collect())
}

/// A decoded frame's format string index.
pub fn frame_index(decoded: &[u8]) -> Result<u16, String> {
    match decoded {
        [a, b, ..] => Ok(u16::from_le_bytes([*a, *b])),
        _ => Err("a frame without an index".into()),
    }
}

/// The `u32` argument `at` bytes after a decoded frame's index, if the frame is that long.
pub fn u32_at(decoded: &[u8], at: usize) -> Option<u32> {
    decoded
        .get(2 + at..2 + at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rzcobs_decodes_the_encodings_of_defmts_own_tests() {
        let cases: [(&[u8], &[u8]); 6] = [
            (&[0x00], &[0x7f]),
            (&[0x01], &[0x01, 0x7e]),
            (&[0x00, 0x01], &[0x01, 0x7d]),
            (&[0x01, 0x02], &[0x01, 0x02, 0x7c]),
            (
                &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00],
                &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x40],
            ),
            (
                &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77],
                &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x80],
            ),
        ];
        for (plain, enc) in cases {
            let got = rzcobs_decode(enc).unwrap();
            assert_eq!(&got[..plain.len()], plain, "decode {enc:?}");
            assert!(got[plain.len()..].iter().all(|&b| b == 0), "only padding");
        }
        let long: Vec<u8> = (0..134).map(|i| (i % 255) as u8 + 1).collect();
        let mut enc = long.clone();
        enc.push(0xff);
        assert_eq!(rzcobs_decode(&enc).unwrap(), long);
        assert!(rzcobs_decode(&[1, 2, 0x7e]).is_err());
        assert!(rzcobs_decode(&[1, 0, 0x7e]).is_err());
        assert!(rzcobs_decode(&[0x90]).is_err());
    }

    #[test]
    fn frames_split_on_zero_bytes_across_reads() {
        let mut s = Splitter::default();
        assert!(s.push(&[0, 1, 2]).is_empty());
        assert_eq!(s.push(&[3, 0, 0, 4, 0, 5]), [vec![1, 2, 3], vec![4]]);
        assert_eq!(s.pending, [5]);
        let d = [0x34, 0x12, 7, 0, 0, 0];
        assert_eq!(frame_index(&d), Ok(0x1234));
        assert_eq!((u32_at(&d, 0), u32_at(&d, 4)), (Some(7), None));
        assert!(frame_index(&[1]).is_err());
    }

    /// A control block with its buffer at 0x2000_0400.
    fn block(size: u32, read: u32, flags: u32) -> Vec<u8> {
        let mut b = vec![0u8; BLOCK as usize];
        b[..ID.len()].copy_from_slice(ID);
        for (at, v) in [
            (16, 1),
            (28, 0x2000_0400),
            (32, size),
            (40, read),
            (44, flags),
        ] {
            b[at..at + 4].copy_from_slice(&u32::to_le_bytes(v));
        }
        b
    }

    #[test]
    fn the_up_channel_is_read_across_the_wrap_in_blocking_mode() {
        assert_eq!(up_channel(&[0; 48]), Ok(None), "not set up yet");
        let up = up_channel(&block(16, 12, 1)).unwrap().unwrap();
        assert_eq!(up.blocking_flags & 3, 2, "switched to block-if-full");
        assert_eq!((up.buffer, up.size, up.read), (0x2000_0400, 16, 12));
        assert_eq!(up.pending(12), Ok(vec![]));
        assert_eq!(up.pending(14), Ok(vec![(0x2000_040c, 2)]));
        assert_eq!(up.pending(0), Ok(vec![(0x2000_040c, 4)]));
        assert_eq!(
            up.pending(2),
            Ok(vec![(0x2000_040c, 4), (0x2000_0400, 2)]),
            "wraps past the end of the 16-byte buffer"
        );
        assert!(up.pending(16).unwrap_err().contains("out of range"));
        let mut past = block(16, 0, 0);
        past[28..32].copy_from_slice(&0xffff_fff8u32.to_le_bytes());
        assert!(up_channel(&past)
            .unwrap_err()
            .contains("a buffer of 16 bytes"));
        assert!(up_channel(&block(0, 0, 0)).is_err());
        let mut none = block(16, 0, 0);
        none[16..20].copy_from_slice(&[0; 4]);
        assert!(up_channel(&none).unwrap_err().contains("no up channel"));
        assert!(up_channel(&[0; 8]).is_err());
    }
}
