//! Ants: whatever text a bot or a map file holds, the readers refuse it cleanly, and what they
//! accept is what the text says.

use arena_core::games::ants::{
    parse_order, AntsMcu, AntsMcuMap, AntsMcuParams, Dir, Order, OrderError,
};
use arena_core::{Game, SetupError};
use proptest::prelude::*;

/// What Python's `int()` makes of a token (an optional sign, then digits, single underscores
/// between them), clamped to an `i16` as the rules hold rows and columns; `None` if it raises.
fn python_int(token: &str) -> Option<i16> {
    let (neg, digits) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    let parts: Vec<&str> = digits.split('_').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let value: i128 = parts.concat().parse().ok()?;
    let value = if neg { -value } else { value };
    Some(value.clamp(i16::MIN.into(), i16::MAX.into()) as i16)
}

/// The official engine's reading of one line, written the plain way: blank and `#` lines are
/// nothing, then the action word, the count of tokens, the row and column, the direction.
fn expected_order(line: &str) -> Result<Option<Order>, OrderError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if !tokens[0].eq_ignore_ascii_case("o") {
        return Err(OrderError::UnknownAction);
    }
    if tokens.len() != 4 {
        return Err(OrderError::IncorrectlyFormatted);
    }
    let (Some(row), Some(col)) = (python_int(tokens[1]), python_int(tokens[2])) else {
        return Err(OrderError::InvalidRowOrCol);
    };
    let dir = match tokens[3].to_ascii_lowercase().as_str() {
        "n" => Dir::N,
        "e" => Dir::E,
        "s" => Dir::S,
        "w" => Dir::W,
        _ => return Err(OrderError::InvalidDirection),
    };
    Ok(Some(Order { row, col, dir }))
}

#[test]
fn the_plain_reading_agrees_with_a_few_lines_by_hand() {
    // The model itself, on lines whose reading is known from the official engine's code.
    assert_eq!(
        expected_order(" o 1_0 -2 W"),
        Ok(Some(Order {
            row: 10,
            col: -2,
            dir: Dir::W
        }))
    );
    assert_eq!(
        expected_order("o 1__0 2 n"),
        Err(OrderError::InvalidRowOrCol)
    );
    assert_eq!(
        expected_order("o 1 2 nn"),
        Err(OrderError::InvalidDirection)
    );
    assert_eq!(
        expected_order("o 99999999 0 s").map(|o| o.map(|o| o.row)),
        Ok(Some(i16::MAX))
    );
}

proptest! {
    #[test]
    fn any_order_line_is_read_as_the_engine_reads_it(line in ".{0,40}") {
        let got = parse_order(&line);
        prop_assert_eq!(got, expected_order(&line), "{:?}", line);
        // An order read back from its own protocol line is the same order.
        if let Ok(Some(o)) = got {
            let again = format!("o {} {} {}", o.row, o.col, o.dir.letter() as char);
            prop_assert_eq!(parse_order(&again), Ok(Some(o)));
        }
    }

    #[test]
    fn order_like_lines_are_read_as_the_engine_reads_them(
        a in prop_oneof![Just("o"), Just("O"), Just("x"), Just("")],
        r in "[-+_0-9a]{0,8}", c in "[-+_0-9]{0,8}", d in "[neswNESWx]{0,2}",
    ) {
        let line = format!("{a} {r} {c} {d}");
        prop_assert_eq!(parse_order(&line), expected_order(&line), "{:?}", line);
    }

    #[test]
    fn any_map_text_parses_or_is_refused_with_a_position(
        rows in 0u32..6, cols in 0u32..6, players in 0u32..12,
        lines in proptest::collection::vec("[.%*a-jA-J0-9 x]{0,7}", 0..7),
    ) {
        let mut text = format!("rows {rows}\ncols {cols}\nplayers {players}\n");
        for l in &lines {
            text.push_str("m ");
            text.push_str(l);
            text.push('\n');
        }
        match AntsMcuMap::parse(&text) {
            Ok(map) => {
                // A readable map either sets up as its header says or is refused as a whole
                // (e.g. not symmetric); never a panic.
                match AntsMcu::new(&AntsMcuParams::new(map, 20), 1) {
                    Ok(game) => {
                        prop_assert_eq!(
                            (u32::from(game.rows()), u32::from(game.cols()), game.seats()),
                            (rows, cols, players as usize)
                        );
                        prop_assert!(!game.ants().is_empty(), "no ant on any hill");
                        prop_assert!(game.ants().iter().all(|a| u32::from(a.owner) < players));
                    }
                    Err(SetupError::Map { .. }) => {
                        prop_assert!(false, "a map that was read is refused as unreadable")
                    }
                    Err(SetupError::Invalid(why) | SetupError::Capacity(why)) => {
                        prop_assert!(!why.is_empty())
                    }
                }
            }
            Err(SetupError::Map { line, column, .. }) => {
                prop_assert!(line >= 1 && column >= 1);
            }
            Err(e) => prop_assert!(false, "unexpected error kind {e}"),
        }
    }
}
