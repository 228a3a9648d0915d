//! Ants: whatever text a bot or a map file holds, the readers refuse it cleanly.

use arena_core::games::ants::{parse_order, AntsMcu, AntsMcuMap, AntsMcuParams};
use arena_core::Game;
use proptest::prelude::*;

proptest! {
    #[test]
    fn any_order_line_parses_or_is_refused(line in ".{0,40}") {
        let _ = parse_order(&line);
    }

    #[test]
    fn order_like_lines_parse_or_are_refused(
        a in prop_oneof![Just("o"), Just("O"), Just("x"), Just("")],
        r in "[-+_0-9a]{0,8}", c in "[-+_0-9]{0,8}", d in "[neswNESWx]{0,2}",
    ) {
        let _ = parse_order(&format!("{a} {r} {c} {d}"));
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
                // A readable map either sets up or is refused (e.g. not symmetric); never a panic.
                let _ = AntsMcu::new(&AntsMcuParams::new(map, 20), 1);
            }
            Err(arena_core::SetupError::Map { line, column, .. }) => {
                prop_assert!(line >= 1 && column >= 1);
            }
            Err(e) => prop_assert!(false, "unexpected error kind {e}"),
        }
    }
}
