//! A stable hash of a game state, identical on x86-64 and on a Cortex-M.
//!
//! Games feed their fields one by one (never raw memory: layout and padding differ between targets),
//! as little-endian integers, into FNV-1a 64. It is not a cryptographic hash: it only has to notice
//! when two runs of the same match diverge.

#[derive(Clone, Copy, Debug)]
/// An FNV-1a 64 hash being fed a state, field by field ([`Digest::finish`] gives the value).
pub struct Digest(u64);

impl Default for Digest {
    fn default() -> Self {
        Self::new()
    }
}

impl Digest {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// A digest of nothing yet: FNV-1a's offset basis.
    pub const fn new() -> Digest {
        Digest(Self::OFFSET)
    }

    /// Feeds raw bytes, in order.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
        self
    }

    /// Feeds a `u8`.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.bytes(&[v])
    }
    /// Feeds a `u16`, little-endian.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Feeds a `u32`, little-endian.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Feeds a `u64`, little-endian.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Feeds an `i32`, little-endian (two's complement).
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Feeds an `i64`, little-endian (two's complement).
    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// `usize` differs in width between targets: it is hashed as a u64.
    pub fn usize(&mut self, v: usize) -> &mut Self {
        self.u64(v as u64)
    }
    /// Feeds a `bool` as one byte, 0 or 1.
    pub fn bool(&mut self, v: bool) -> &mut Self {
        self.u8(v as u8)
    }

    /// The hash of everything fed so far.
    pub const fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_reference_and_width_independence() {
        // FNV-1a 64 of "a" is a published test vector.
        assert_eq!(Digest::new().bytes(b"a").finish(), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            Digest::new().usize(7).finish(),
            Digest::new().u64(7).finish()
        );
        assert_ne!(Digest::new().u32(1).finish(), Digest::new().u32(2).finish());
    }
}
