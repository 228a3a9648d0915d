//! Conformance: every Ballroom Blitz log written by the official engine replays through ours with
//! the same action flags and player states on every turn; a corrupted log fails where it was cut.

use arena_core::games::ballroom::Ballroom;
use arena_host::verify::{Difference, Verified};
use serde_json::Value;

fn verify_log(text: &str) -> Result<Verified, Difference> {
    arena_tests::verify::<Ballroom>(text)
}

#[test]
fn every_golden_log_verifies() {
    let files = arena_tests::golden_files("ballroom", "json");
    for f in &files {
        let text = std::fs::read_to_string(f).expect("golden log readable");
        match verify_log(&text) {
            Ok(report) => {
                assert_eq!(report.turns, 100, "{}", f.display());
                assert!(report.checks >= 8_444, "{}", f.display());
            }
            Err(m) => panic!("{}: {m}", f.display()),
        }
    }
    assert!(files.len() >= 17);
}

fn golden_text(name: &str) -> String {
    let path = arena_tests::golden("ballroom").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What an edit writes in place of a field.
type Edit<'a> = &'a dyn Fn(&Value) -> Value;

/// A log edited at one place fails there: at the edit's turn, phase, seat and field.
#[test]
fn a_corrupted_log_fails_at_its_turn_phase_seat_and_field() {
    let plus_one = |v: &Value| Value::from(v.as_i64().unwrap() + 1);
    // (where the edit is, what it writes, the turn and field it must fail at)
    let edits: [(&str, Edit, u32, &str); 5] = [
        // A corrupted action flag.
        (
            "/turns/38/attack_actions/2/damage",
            &plus_one,
            38,
            "attack_actions[2].damage",
        ),
        // A corrupted player state.
        (
            "/turns/50/player_states/1/gold",
            &plus_one,
            50,
            "player_states[1].gold",
        ),
        // Turn 38 of seed12: P3's shield is consulted by no attack on P3 (the quirk); the log of
        // a nullified hit (damage 0: the engine sets none) must fail on that field. (`nullified:
        // true` alone could be the bot's own flag, which the engine keeps: rules, Protocol.)
        (
            "/turns/38/attack_actions/2/damage",
            &|_| 0.into(),
            38,
            "attack_actions[2].damage",
        ),
        // Turn 44: P2's shield nullifies P3's hit; no bot's flag can make it `nullified: false`.
        (
            "/turns/44/attack_actions/3/nullified",
            &|_| false.into(),
            44,
            "attack_actions[3].nullified",
        ),
        // An action for another seat is refused by the verifier.
        (
            "/turns/3/move_actions/1/executor",
            &|_| 2.into(),
            3,
            "move_actions[1].executor",
        ),
    ];
    let golden: Value = serde_json::from_str(&golden_text("seed12.json")).unwrap();
    for (at, edit, turn, path) in edits {
        let mut log = golden.clone();
        let field = log.pointer_mut(at).unwrap_or_else(|| panic!("no {at}"));
        *field = edit(field);
        let m = verify_log(&log.to_string()).expect_err("a corrupted log must not verify");
        assert_eq!((m.turn, m.path.as_str()), (Some(turn), path), "{at}");
        assert!(
            m.to_string().starts_with(&format!("turn {turn}: {path}")),
            "{m}"
        );
    }
}
