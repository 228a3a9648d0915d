//! Orders: the text a bot sends, parsed and refused with the official reasons.
//!
//! An order is kept as the bot wrote it (row and column may be negative or past the edge: the
//! official validation gives such orders their own reasons), saturated to `i16`, which changes no
//! verdict since no map is 32767 squares high.

/// A direction an ant can move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Dir {
    /// North: one row up.
    N,
    /// East: one column right.
    E,
    /// South: one row down.
    S,
    /// West: one column left.
    W,
}

impl Dir {
    /// The four directions, in the order N, E, S, W.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// `(d_row, d_col)`.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Dir::N => (-1, 0),
            Dir::E => (0, 1),
            Dir::S => (1, 0),
            Dir::W => (0, -1),
        }
    }

    /// The letter used in orders and replays.
    pub const fn letter(self) -> u8 {
        match self {
            Dir::N => b'n',
            Dir::E => b'e',
            Dir::S => b's',
            Dir::W => b'w',
        }
    }

    /// The direction of an order's letter (`n`, `e`, `s`, `w`); `None` for any other byte.
    pub const fn from_letter(c: u8) -> Option<Dir> {
        match c {
            b'n' => Some(Dir::N),
            b'e' => Some(Dir::E),
            b's' => Some(Dir::S),
            b'w' => Some(Dir::W),
            _ => None,
        }
    }
}

/// `o row col dir`: move the ant at (row, col).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Order {
    /// Row of the ant to move (as sent: checked against the map by the rules).
    pub row: i16,
    /// Column of the ant to move (as sent: checked against the map by the rules).
    pub col: i16,
    /// Where it moves.
    pub dir: Dir,
}

/// Why an order was refused: the official engine's reasons, in its words ([`OrderError::reason`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum OrderError {
    /// A line that is not an `o` order.
    UnknownAction,
    /// An `o` line without exactly a row, a column and a direction.
    IncorrectlyFormatted,
    /// A row or column that is not a number.
    InvalidRowOrCol,
    /// A direction that is not `n`, `e`, `s` or `w`.
    InvalidDirection,
    /// A second order for the same ant this turn.
    Duplicate,
    /// No ant of this player stands on the square.
    NotPlayerAnt,
    /// A row or column outside the map.
    OutOfBounds,
    /// Ignored rather than invalid in the official engine: the destination is food or water.
    MoveBlocked,
    /// More orders than this build's capacity for one turn (not an official reason).
    TooMany,
}

impl OrderError {
    /// The official engine's words for the refusal.
    pub const fn reason(self) -> &'static str {
        match self {
            OrderError::UnknownAction => "unknown action",
            OrderError::IncorrectlyFormatted => "incorrectly formatted order",
            OrderError::InvalidRowOrCol => "invalid row or col",
            OrderError::InvalidDirection => "invalid direction",
            OrderError::Duplicate => "duplicate order",
            OrderError::NotPlayerAnt => "not player ant",
            OrderError::OutOfBounds => "out of bounds",
            OrderError::MoveBlocked => "move blocked",
            OrderError::TooMany => "too many orders",
        }
    }
}

/// Python's `int()` on one token: sign, ASCII digits, single underscores between digits. Saturates.
fn py_int(token: &str) -> Option<i16> {
    let bytes = token.as_bytes();
    let (neg, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    let (Some(first), Some(last)) = (digits.first(), digits.last()) else {
        return None;
    };
    if !first.is_ascii_digit() || !last.is_ascii_digit() {
        return None;
    }
    let mut value: i32 = 0;
    let mut prev_underscore = false;
    for &b in digits {
        if b == b'_' {
            if prev_underscore {
                return None;
            }
            prev_underscore = true;
            continue;
        }
        if !b.is_ascii_digit() {
            return None;
        }
        prev_underscore = false;
        value = value
            .saturating_mul(10)
            .saturating_add(b.saturating_sub(b'0') as i32)
            .min(1 << 20);
    }
    // `value` is at most 2^20, so the negation is exact.
    let v = if neg { value.saturating_neg() } else { value };
    Some(v.clamp(i16::MIN as i32, i16::MAX as i32) as i16)
}

/// One line of a bot's answer: `Ok(None)` for blank and `#` lines, else the order or the official
/// parsing refusal. The line is stripped and lower-cased first, as the official engine does.
pub fn parse_order(line: &str) -> Result<Option<Order>, OrderError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut tokens = line.split_whitespace();
    let first = tokens.next().unwrap_or("");
    if !first.eq_ignore_ascii_case("o") {
        return Err(OrderError::UnknownAction);
    }
    let (Some(row), Some(col), Some(dir), None) =
        (tokens.next(), tokens.next(), tokens.next(), tokens.next())
    else {
        return Err(OrderError::IncorrectlyFormatted);
    };
    let (Some(row), Some(col)) = (py_int(row), py_int(col)) else {
        return Err(OrderError::InvalidRowOrCol);
    };
    let dir = match dir.as_bytes() {
        [c] => Dir::from_letter(c.to_ascii_lowercase()).ok_or(OrderError::InvalidDirection)?,
        _ => return Err(OrderError::InvalidDirection),
    };
    Ok(Some(Order { row, col, dir }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn parsing_gives_the_official_reasons() {
        assert_eq!(parse_order("  # note"), Ok(None));
        assert_eq!(parse_order("   "), Ok(None));
        assert_eq!(
            parse_order(" O 3 -4 S "),
            Ok(Some(Order {
                row: 3,
                col: -4,
                dir: Dir::S
            }))
        );
        assert_eq!(parse_order("x 1 2 n"), Err(OrderError::UnknownAction));
        assert_eq!(parse_order("o 1 2"), Err(OrderError::IncorrectlyFormatted));
        assert_eq!(
            parse_order("o 1 2 n n"),
            Err(OrderError::IncorrectlyFormatted)
        );
        assert_eq!(parse_order("o 1 a n"), Err(OrderError::InvalidRowOrCol));
        assert_eq!(parse_order("o 1 2 q"), Err(OrderError::InvalidDirection));
        assert_eq!(
            parse_order("o 1 2 north"),
            Err(OrderError::InvalidDirection)
        );
    }

    /// Each direction's letter reads back as that direction, in either case (the official
    /// engine lower-cases the line), and those four letters are the only ones.
    #[test]
    fn every_direction_reads_back_from_its_letter() {
        for d in Dir::ALL {
            assert_eq!(Dir::from_letter(d.letter()), Some(d), "{d:?}");
            let upper = [
                b'o',
                b' ',
                b'0',
                b' ',
                b'0',
                b' ',
                d.letter().to_ascii_uppercase(),
            ];
            let line = core::str::from_utf8(&upper).unwrap();
            assert_eq!(
                parse_order(line),
                Ok(Some(Order {
                    row: 0,
                    col: 0,
                    dir: d
                })),
                "{line}"
            );
        }
        assert_eq!(Dir::ALL.map(Dir::letter), *b"nesw");
        for c in 0..=u8::MAX {
            let read = Dir::from_letter(c).is_some();
            assert_eq!(read, b"nesw".contains(&c), "{c}");
        }
    }

    /// The reasons are the official engine's words (`ants.py` `do_moves`: `'%s # %s' %
    /// (line, reason)` in the bot's error and ignored lists), and the one of our own.
    #[test]
    fn refusals_give_the_official_engines_words() {
        let words = [
            (OrderError::UnknownAction, "unknown action"),
            (
                OrderError::IncorrectlyFormatted,
                "incorrectly formatted order",
            ),
            (OrderError::InvalidRowOrCol, "invalid row or col"),
            (OrderError::InvalidDirection, "invalid direction"),
            (OrderError::Duplicate, "duplicate order"),
            (OrderError::NotPlayerAnt, "not player ant"),
            (OrderError::OutOfBounds, "out of bounds"),
            (OrderError::MoveBlocked, "move blocked"),
            (OrderError::TooMany, "too many orders"),
        ];
        for (e, said) in words {
            assert_eq!(e.reason(), said, "{e:?}");
        }
    }

    #[test]
    fn integers_follow_python_int() {
        assert_eq!(py_int("+7"), Some(7));
        assert_eq!(py_int("1_0"), Some(10));
        assert_eq!(py_int("1__0"), None);
        assert_eq!(py_int("_1"), None);
        assert_eq!(py_int("99999999999"), Some(i16::MAX));
        assert_eq!(py_int("-99999999999"), Some(i16::MIN));
        assert_eq!(py_int("-"), None);
    }
}
