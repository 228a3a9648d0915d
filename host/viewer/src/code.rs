//! The bytes of a script: unsigned LEB128 varints, zigzag for signed numbers, length-prefixed
//! strings. Reading never panics: a short or malformed input is an [`Error`].

use std::fmt;

/// Why a script cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

pub fn error(what: impl Into<String>) -> Error {
    Error(what.into())
}

/// Appends values to a byte buffer.
#[derive(Clone, Debug, Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn u64(&mut self, mut v: u64) {
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.bytes.push(low);
                return;
            }
            self.bytes.push(low | 0x80);
        }
    }

    pub fn i64(&mut self, v: i64) {
        self.u64(((v << 1) ^ (v >> 63)) as u64);
    }

    pub fn usize(&mut self, v: usize) {
        self.u64(v as u64);
    }

    pub fn bool(&mut self, v: bool) {
        self.bytes.push(u8::from(v));
    }

    pub fn byte(&mut self, v: u8) {
        self.bytes.push(v);
    }

    pub fn str(&mut self, s: &str) {
        self.usize(s.len());
        self.bytes.extend_from_slice(s.as_bytes());
    }
}

/// Reads values back from bytes.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { rest: bytes }
    }

    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// Bytes left: a bound for any count of items that take at least a byte each.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    pub fn byte(&mut self) -> Result<u8, Error> {
        let (&b, rest) = self
            .rest
            .split_first()
            .ok_or_else(|| error("the script ends too soon"))?;
        self.rest = rest;
        Ok(b)
    }

    pub fn u64(&mut self) -> Result<u64, Error> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(error("a number in the script is too long"))
    }

    pub fn i64(&mut self) -> Result<i64, Error> {
        let z = self.u64()?;
        Ok((z >> 1) as i64 ^ -((z & 1) as i64))
    }

    /// A count or an index, at most `most`.
    pub fn usize(&mut self, most: usize) -> Result<usize, Error> {
        let v = self.u64()?;
        usize::try_from(v)
            .ok()
            .filter(|&v| v <= most)
            .ok_or_else(|| error(format!("a count of {v} in the script is over {most}")))
    }

    pub fn bool(&mut self) -> Result<bool, Error> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(error(format!("{b} is not a boolean"))),
        }
    }

    pub fn str(&mut self) -> Result<String, Error> {
        let n = self.usize(usize::MAX)?;
        let (s, rest) = self
            .rest
            .split_at_checked(n)
            .ok_or_else(|| error("the script ends inside a name"))?;
        self.rest = rest;
        String::from_utf8(s.to_vec()).map_err(|_| error("a name in the script is not UTF-8"))
    }

    /// A number that must fit `T`.
    pub fn int<T: TryFrom<i64>>(&mut self) -> Result<T, Error> {
        let v = self.i64()?;
        T::try_from(v).map_err(|_| error(format!("{v} is out of range")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_strings_round_trip() {
        let mut w = Writer::default();
        for v in [0u64, 1, 127, 128, 300, u64::MAX] {
            w.u64(v);
        }
        for v in [0i64, -1, 1, -64, 64, i64::MIN, i64::MAX] {
            w.i64(v);
        }
        w.str("héllo");
        w.bool(true);
        let mut r = Reader::new(&w.bytes);
        for v in [0u64, 1, 127, 128, 300, u64::MAX] {
            assert_eq!(r.u64().unwrap(), v);
        }
        for v in [0i64, -1, 1, -64, 64, i64::MIN, i64::MAX] {
            assert_eq!(r.i64().unwrap(), v);
        }
        assert_eq!(r.str().unwrap(), "héllo");
        assert!(r.bool().unwrap());
        assert!(r.is_empty());
    }

    #[test]
    fn bad_bytes_are_errors() {
        assert!(Reader::new(&[]).byte().is_err());
        assert!(Reader::new(&[0x80; 11]).u64().is_err());
        assert!(Reader::new(&[5, b'a']).str().is_err());
        assert!(Reader::new(&[2]).bool().is_err());
        assert!(Reader::new(&[200, 1]).usize(100).is_err());
        // 256 is zigzag for 128, one over i8::MAX (255, for -128, fits).
        assert!(Reader::new(&[0x80, 0x02]).int::<i8>().is_err());
        assert_eq!(Reader::new(&[0xff, 0x01]).int::<i8>(), Ok(-128));
    }
}
