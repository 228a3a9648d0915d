//! Every registered game is reachable from every command that lists games: `play`, `verify` and
//! `tournament` subcommands with their help, `arena bots`, and `arena --help`.

use crate::common::*;
use arena_host::commands::GAMES;

fn stdout(args: &[&str]) -> String {
    let out = arena(args);
    assert!(out.status.success(), "arena {args:?}: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_registered_game_has_every_command() {
    assert!(GAMES.len() >= 5);
    let bots = stdout(&["bots"]);
    for command in ["play", "verify", "tournament"] {
        let listed = stdout(&[command, "--help"]);
        for g in GAMES {
            assert!(
                listed.contains(g.name),
                "`arena {command} --help` lacks {}",
                g.name
            );
            let help = stdout(&[command, g.name, "--help"]);
            assert!(help.contains("Usage:"), "{command} {}: {help}", g.name);
        }
    }
    for g in GAMES {
        let line = bots
            .lines()
            .find(|l| l.split_whitespace().next() == Some(g.name))
            .unwrap_or_else(|| panic!("`arena bots` lacks {}", g.name));
        for b in g.bots {
            assert!(line.contains(b), "`arena bots` lacks {}'s bot {b}", g.name);
            // And one line saying what the bot does.
            let note = format!("    {b}: ");
            assert!(
                bots.lines().any(|l| l.starts_with(&note)) && g.bot_notes.len() == g.bots.len(),
                "`arena bots` does not say what {}'s bot {b} does",
                g.name
            );
        }
        assert!(
            stdout(&["play", g.name, "--help"]).contains(g.about),
            "{}: the help says what the game is",
            g.name
        );
    }
}

#[test]
fn an_unknown_game_is_refused_with_the_list() {
    let out = arena(&["play", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    let t = text(&out);
    for g in GAMES {
        assert!(t.contains(g.name), "{t}");
    }
}

/// The firmware rotation (its one-line-per-entry table) plays every registered game.
#[test]
fn every_registered_game_plays_on_the_boards() {
    use arena_firmware::{Entry, Lineup, Visit};
    struct Name;
    impl Visit for Name {
        type Out = Option<&'static str>;
        fn visit<G: arena_firmware::Screen + arena_core::Roster>(
            self,
            _: &Entry,
            _: &[arena_firmware::lineup::Pick<G>],
            _: &dyn Fn() -> Option<G::Params>,
        ) -> Self::Out {
            Some(G::NAME)
        }
        fn skip(self, _: &Entry) -> Self::Out {
            None
        }
    }
    let played: Vec<_> = (0..arena_firmware::Arcade::LEN)
        .map(|i| arena_firmware::Arcade::visit(i, Name).expect("every entry builds its params"))
        .collect();
    for g in GAMES {
        assert!(
            played.contains(&g.name),
            "{} is not in the boards' rotation {played:?}",
            g.name
        );
    }
}
