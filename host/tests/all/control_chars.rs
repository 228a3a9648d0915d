//! Terminal control characters from bots (their answers, echoed in fault texts) and in names
//! reach the text reports escaped (`\x1b`), never as the raw bytes a terminal would act on.

use crate::common::*;

/// A name that would clear the screen and retitle the terminal window.
const EVIL: &str = "\u{1b}[2J\u{1b}]0;pwned\u{7}";

/// A Tower Defense bot that answers every turn with a line of escape sequences.
const ESCAPING_BOT: &str =
    r#"cmd:sh -c 'while read l; do printf "\033[2J\033]0;owned\007\n"; done'"#;

fn raw(text: &[u8]) -> bool {
    text.iter().any(|&b| b == 0x1b || b == 0x07)
}

#[test]
fn a_bots_escape_sequences_and_an_evil_name_are_escaped_in_the_match_report() {
    let out = Arena::play("tower-defense")
        .bots(&[ESCAPING_BOT, "strong"])
        .args(&["--name", EVIL, "--name", "strong"])
        .args(&["--seed", "2", "--max-turns", "5"])
        .ok();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!raw(&out.stdout), "{report:?}");
    assert!(report.contains("\\x1b[2J\\x1b]0;pwned\\x07"), "{report}");
    assert!(
        report.contains("\\x1b]0;owned\\x07"),
        "the bot's answer: {report}"
    );
}

#[test]
fn an_evil_name_is_escaped_in_the_tournament_table() {
    let out = Arena::tournament("tower-defense")
        .bots(&["strong", "random"])
        .args(&["--name", EVIL, "--name", "random", "--seed", "2", "--quiet"])
        .ok();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(!raw(&out.stdout), "{table:?}");
    assert!(table.contains("\\x1b[2J\\x1b]0;pwned\\x07"), "{table}");
}
