//! The official map format, read without allocation, with a line and column for every refusal.
//!
//! A map is `rows H`, `cols W`, `players P` and H lines `m <W squares>`; `#` comments and blank
//! lines are skipped and unknown keys ignored, as the official parser does. Outside scenario mode
//! the official engine ignores the ants and food drawn in the file (one ant starts on each hill), so
//! they are accepted and dropped here too. Where the official parser would crash or accept a map
//! the game cannot use (a player without a hill, a `m` line before `rows`/`cols`), this one refuses
//! it with a [`SetupError::Map`].

use crate::game::SetupError;

/// Square contents in the official encoding: `0..=9` an ant of that player, then these.
pub const LAND: u8 = 10;
/// A square with food on it.
pub const FOOD: u8 = 11;
/// A water square: nothing moves onto it.
pub const WATER: u8 = 12;

/// Players a map may have (the official range).
pub const MIN_PLAYERS: usize = 2;
/// The most players a map may have (the official range).
pub const MAX_PLAYERS: usize = 10;

/// A parsed map: the terrain and the hills, for a build holding `SQUARES` squares and `HILLS` hills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map<const SQUARES: usize, const HILLS: usize> {
    /// Rows of the map.
    pub rows: u16,
    /// Columns of the map.
    pub cols: u16,
    /// Players the map is for: the number of distinct hill owners.
    pub players: u8,
    /// `LAND` or `WATER` per square, row-major; only the first `rows * cols` are used.
    pub terrain: [u8; SQUARES],
    /// Hills as `(square, owner)` in the official order: owners by first appearance in the file,
    /// each owner's hills row-major.
    pub hills: heapless::Vec<(u16, u8), HILLS>,
}

fn err(line: usize, column: usize, what: &'static str) -> SetupError {
    SetupError::Map {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        what,
    }
}

fn parse_number(text: &str) -> Option<u32> {
    let t = text.trim();
    if t.is_empty() || t.len() > 9 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

impl<const SQUARES: usize, const HILLS: usize> Map<SQUARES, HILLS> {
    /// Squares in use: `rows * cols`.
    pub fn squares(&self) -> usize {
        // Both are u16: the product fits a usize.
        (self.rows as usize).saturating_mul(self.cols as usize)
    }

    /// Reads a map in the official format.
    pub fn parse(text: &str) -> Result<Self, SetupError> {
        let mut read = Reading::<HILLS> {
            rows: None,
            cols: None,
            players: None,
            found: heapless::Vec::new(),
            row: 0,
        };
        let mut terrain = [LAND; SQUARES];
        let mut last_line = 0usize;
        for (index, raw) in text.split('\n').enumerate() {
            let line_no = index.saturating_add(1);
            last_line = line_no;
            let lead = raw.len().saturating_sub(raw.trim_start().len());
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, value)) = line.split_once(' ') else {
                return Err(err(line_no, lead.saturating_add(1), "expected `key value`"));
            };
            let at = (line_no, lead.saturating_add(key.len()).saturating_add(2));
            let key_lower = |k: &str| key.eq_ignore_ascii_case(k);
            if key_lower("rows") || key_lower("cols") {
                read.size(key_lower("rows"), value, at, SQUARES)?;
            } else if key_lower("players") {
                read.players(value, at)?;
            } else if key_lower("m") {
                read.map_line(&mut terrain, value, at)?;
            }
        }
        let (Some(h), Some(w), Some(p)) = (read.rows, read.cols, read.players) else {
            return Err(err(last_line, 1, "missing rows, cols or players"));
        };
        if read.row != h as usize {
            return Err(err(last_line, 1, "fewer map lines than rows"));
        }
        let hills = read.hills_by_owner();
        for player in 0..p {
            if !hills.iter().any(|&(_, o)| o == player) {
                return Err(err(last_line, 1, "a player has no hill"));
            }
        }
        Ok(Map {
            rows: h,
            cols: w,
            players: p,
            terrain,
            hills,
        })
    }
}

/// What [`Map::parse`] has read so far. `at` arguments are the line number and the column of the
/// value after the key, both 1-based.
struct Reading<const HILLS: usize> {
    rows: Option<u16>,
    cols: Option<u16>,
    players: Option<u8>,
    /// Hills row-major; [`Reading::hills_by_owner`] re-orders them at the end.
    found: heapless::Vec<(u16, u8), HILLS>,
    /// Map lines read.
    row: usize,
}

impl<const HILLS: usize> Reading<HILLS> {
    /// `rows N` (`is_rows`) or `cols N`: both come before the map lines, and together hold at
    /// most `squares`.
    fn size(
        &mut self,
        is_rows: bool,
        value: &str,
        (line_no, value_col): (usize, usize),
        squares: usize,
    ) -> Result<(), SetupError> {
        let n = parse_number(value)
            .filter(|&n| (1..=i16::MAX as u32).contains(&n))
            .ok_or(err(line_no, value_col, "expected a size from 1 to 32767"))?;
        if self.row > 0 {
            return Err(err(line_no, 1, "rows and cols must come before map lines"));
        }
        if is_rows {
            self.rows = Some(n as u16);
        } else {
            self.cols = Some(n as u16);
        }
        if let (Some(r), Some(c)) = (self.rows, self.cols) {
            if (r as usize).saturating_mul(c as usize) > squares {
                return Err(err(
                    line_no,
                    value_col,
                    "map has more squares than this build holds",
                ));
            }
        }
        Ok(())
    }

    /// `players N`, before the map lines.
    fn players(
        &mut self,
        value: &str,
        (line_no, value_col): (usize, usize),
    ) -> Result<(), SetupError> {
        let n = parse_number(value)
            .filter(|&n| (MIN_PLAYERS as u32..=MAX_PLAYERS as u32).contains(&n))
            .ok_or(err(
                line_no,
                value_col,
                "player count must be between 2 and 10",
            ))?;
        if self.row > 0 {
            return Err(err(line_no, 1, "players must come before map lines"));
        }
        self.players = Some(n as u8);
        Ok(())
    }

    /// `m <squares>`: one row of the map, after the sizes and the players, exactly `cols` long:
    /// its water into `terrain`, its hills into `found`.
    fn map_line<const SQUARES: usize>(
        &mut self,
        terrain: &mut [u8; SQUARES],
        value: &str,
        (line_no, value_col): (usize, usize),
    ) -> Result<(), SetupError> {
        let Some(p) = self.players else {
            return Err(err(line_no, 1, "players count expected before map lines"));
        };
        let (Some(h), Some(w)) = (self.rows, self.cols) else {
            return Err(err(line_no, 1, "rows and cols expected before map lines"));
        };
        let row = self.row;
        if row >= h as usize {
            return Err(err(line_no, 1, "more map lines than rows"));
        }
        let squares = value.trim();
        let indent = value.len().saturating_sub(value.trim_start().len());
        let squares_col = value_col.saturating_add(indent);
        let mut col = 0usize;
        // `before`: the characters before this one (its column within the squares).
        for (before, ch) in squares.chars().enumerate() {
            let column = squares_col.saturating_add(before);
            if col >= w as usize {
                return Err(err(line_no, column, "row longer than cols"));
            }
            // Below rows * cols, which fits SQUARES.
            let sq = row.saturating_mul(w as usize).saturating_add(col);
            let hill_owner = match ch {
                '.' | '*' => None,
                '%' => {
                    if let Some(t) = terrain.get_mut(sq) {
                        *t = WATER;
                    }
                    None
                }
                // The arms bound `ch`, so the subtractions never saturate.
                'a'..='j' if (ch as u8).saturating_sub(b'a') < p => None,
                '0'..='9' if (ch as u8).saturating_sub(b'0') < p => {
                    Some((ch as u8).saturating_sub(b'0'))
                }
                'A'..='J' if (ch as u8).saturating_sub(b'A') < p => {
                    Some((ch as u8).saturating_sub(b'A'))
                }
                _ => return Err(err(line_no, column, "invalid character in map")),
            };
            if let Some(owner) = hill_owner {
                self.found
                    .push((sq as u16, owner))
                    .map_err(|_| err(line_no, column, "more hills than this build holds"))?;
            }
            col = col.saturating_add(1);
        }
        if col != w as usize {
            let column = squares_col.saturating_add(col);
            return Err(err(line_no, column, "row shorter than cols"));
        }
        self.row = row.saturating_add(1);
        Ok(())
    }

    /// The hills in the official order: owners by first appearance (row-major), each owner's
    /// hills row-major.
    fn hills_by_owner(&self) -> heapless::Vec<(u16, u8), HILLS> {
        let found = &self.found;
        let mut hills: heapless::Vec<(u16, u8), HILLS> = heapless::Vec::new();
        for (i, &(_, owner)) in found.iter().enumerate() {
            if found.iter().take(i).any(|&(_, o)| o == owner) {
                continue;
            }
            for &hill in found.iter().filter(|&&(_, o)| o == owner) {
                // Same number of items as `found`: cannot overflow.
                let _ = hills.push(hill);
            }
        }
        hills
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    type M = Map<64, 8>;

    fn map_err(text: &str) -> (u32, u32, &'static str) {
        match M::parse(text) {
            Err(SetupError::Map { line, column, what }) => (line, column, what),
            other => panic!("expected a map error, got {other:?}"),
        }
    }

    #[test]
    fn parses_terrain_hills_in_official_order() {
        let m = M::parse("# c\nrows 2\ncols 4\nplayers 2\nm %1.a\nm 0*B.\n").unwrap();
        assert_eq!((m.rows, m.cols, m.players), (2, 4, 2));
        assert_eq!(m.terrain[0], WATER);
        assert_eq!(m.terrain[2], LAND);
        assert_eq!(m.terrain[5], LAND, "food is ignored outside scenarios");
        // Player 1 appears first (row 0), then player 0.
        assert_eq!(m.hills.as_slice(), &[(1, 1), (6, 1), (4, 0)]);
    }

    #[test]
    fn refuses_unknown_characters_with_position() {
        assert_eq!(
            map_err("rows 1\ncols 3\nplayers 2\nm 0c1\n"),
            (4, 4, "invalid character in map")
        );
        assert_eq!(
            map_err("rows 1\ncols 3\nplayers 2\nm 0x1\n"),
            (4, 4, "invalid character in map")
        );
        // A hill (digit) or an ant on a hill (capital) of a player the map does not have.
        assert_eq!(
            map_err("rows 1\ncols 3\nplayers 2\nm 021\n"),
            (4, 4, "invalid character in map")
        );
        assert_eq!(
            map_err("rows 1\ncols 3\nplayers 2\nm 0C1\n"),
            (4, 4, "invalid character in map")
        );
    }

    #[test]
    fn refuses_wrong_row_lengths() {
        assert_eq!(
            map_err("rows 1\ncols 3\nplayers 2\nm 01\n"),
            (4, 5, "row shorter than cols")
        );
        assert_eq!(
            map_err("rows 1\ncols 3\nplayers 2\nm 01..\n"),
            (4, 6, "row longer than cols")
        );
    }

    #[test]
    fn refuses_missing_rows_cols_players() {
        assert_eq!(
            map_err("rows 2\ncols 2\nplayers 2\nm 01\n"),
            (5, 1, "fewer map lines than rows")
        );
        assert_eq!(
            map_err("cols 2\nplayers 2\nm 01\n").2,
            "rows and cols expected before map lines"
        );
        assert_eq!(
            map_err("rows 1\ncols 2\nm 01\n").2,
            "players count expected before map lines"
        );
        assert_eq!(
            map_err("rows 1\ncols 2\n").2,
            "missing rows, cols or players"
        );
        assert_eq!(
            map_err("rows 1\ncols 2\nplayers 11\n"),
            (3, 9, "player count must be between 2 and 10")
        );
        assert_eq!(
            map_err("rows 1\ncols 2\nplayers 2\nm 00\n").2,
            "a player has no hill"
        );
        assert_eq!(
            map_err("rows 1\ncols 2\nplayers 2\nm 01\nm 01\n"),
            (5, 1, "more map lines than rows")
        );
        assert_eq!(map_err("rows\n"), (1, 1, "expected `key value`"));
    }

    /// Every player of the `players` line needs a hill of its own: one missing among
    /// others that have theirs is refused too, whichever it is.
    #[test]
    fn every_player_needs_a_hill_of_its_own() {
        for text in [
            "rows 1\ncols 3\nplayers 3\nm 0.1\n",
            "rows 1\ncols 3\nplayers 3\nm 2.1\n",
            "rows 1\ncols 3\nplayers 3\nm 0.2\n",
            "rows 1\ncols 3\nplayers 3\nm 00.\n",
        ] {
            assert_eq!(map_err(text), (5, 1, "a player has no hill"), "{text}");
        }
        let m = M::parse("rows 1\ncols 3\nplayers 3\nm 201\n").unwrap();
        assert_eq!(m.hills.as_slice(), &[(0, 2), (1, 0), (2, 1)]);
    }

    /// The sizes and the player count shape every map line, so they come before the first
    /// one (in any order among themselves); after it they are refused, not taken.
    #[test]
    fn sizes_and_players_come_before_the_map_lines() {
        let m = M::parse("players 2\ncols 2\nrows 1\nm 01\n").unwrap();
        assert_eq!((m.rows, m.cols, m.players), (1, 2, 2));
        for (text, what) in [
            (
                "rows 1\ncols 2\nplayers 2\nm 01\nrows 1\n",
                "rows and cols must come before map lines",
            ),
            (
                "rows 1\ncols 2\nplayers 2\nm 01\ncols 3\n",
                "rows and cols must come before map lines",
            ),
            (
                "rows 1\ncols 2\nplayers 2\nm 01\nplayers 3\n",
                "players must come before map lines",
            ),
        ] {
            assert_eq!(map_err(text), (5, 1, what), "{text}");
        }
    }

    #[test]
    fn refuses_maps_over_capacity() {
        assert_eq!(
            map_err("rows 8\ncols 9\nplayers 2\n"),
            (2, 6, "map has more squares than this build holds")
        );
        assert_eq!(
            map_err("rows 1\ncols 10\nplayers 2\nm 0101010101\n"),
            (4, 11, "more hills than this build holds")
        );
    }
}
