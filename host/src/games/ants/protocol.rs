//! A bot's answer, as the official engine reads it: order lines up to `go`.

use arena_core::games::ants::{parse_order, Order, OrderError};

/// The orders of one answer, with the line each came from, and the lines refused while parsing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotAnswer {
    pub orders: Vec<Order>,
    /// `lines[i]` is the (stripped) line `orders[i]` was read from.
    pub lines: Vec<String>,
    /// Lines refused by the parser, with the official reason.
    pub invalid: Vec<(String, OrderError)>,
    /// Whether `go` was seen.
    pub complete: bool,
}

impl BotAnswer {
    /// Reads lines until `go` (case-insensitive, stripped), as `get_moves` does.
    pub fn read<'a>(lines: impl IntoIterator<Item = &'a str>) -> BotAnswer {
        let mut a = BotAnswer::default();
        for raw in lines {
            let line = raw.trim();
            if line.eq_ignore_ascii_case("go") {
                a.complete = true;
                break;
            }
            match parse_order(line) {
                Ok(Some(o)) => {
                    a.orders.push(o);
                    a.lines.push(line.to_lowercase());
                }
                Ok(None) => {}
                Err(why) => a.invalid.push((line.to_lowercase(), why)),
            }
        }
        a
    }

    /// The official log line for a refused order: `"<line> # <reason>"`.
    pub fn describe(line: &str, why: OrderError) -> String {
        format!("{line} # {}", why.reason())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::games::ants::Dir;

    #[test]
    fn reads_until_go_and_keeps_refusals() {
        let a = BotAnswer::read(["o 1 2 N", "", "# hi", "x 1 2 n", "o 3 4 w", "GO", "o 5 5 n"]);
        assert!(a.complete);
        assert_eq!(a.orders.len(), 2);
        assert_eq!(
            a.orders[0],
            Order {
                row: 1,
                col: 2,
                dir: Dir::N
            }
        );
        assert_eq!(a.lines[1], "o 3 4 w");
        assert_eq!(
            a.invalid,
            vec![("x 1 2 n".to_string(), OrderError::UnknownAction)]
        );
        assert_eq!(
            BotAnswer::describe("x 1 2 n", OrderError::UnknownAction),
            "x 1 2 n # unknown action"
        );
    }
}
