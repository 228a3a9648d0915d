//! Ants: a bot's answer (order lines up to `go`). Never panics; each order read agrees with
//! `parse_order` on its line, and an order written back as `o ROW COL DIR` reads back the same.
#![no_main]
use arena_core::games::ants::parse_order;
use arena_host::games::ants::BotAnswer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let answer = BotAnswer::read(text.lines());
    assert_eq!(answer.orders.len(), answer.lines.len());
    for (order, line) in answer.orders.iter().zip(&answer.lines) {
        assert_eq!(parse_order(line), Ok(Some(*order)));
        let written = format!(
            "o {} {} {}",
            order.row,
            order.col,
            order.dir.letter() as char
        );
        assert_eq!(parse_order(&written), Ok(Some(*order)));
    }
    for (line, why) in &answer.invalid {
        assert_eq!(parse_order(line), Err(*why));
        let _ = BotAnswer::describe(line, *why);
    }
});
