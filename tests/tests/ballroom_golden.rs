//! Conformance: every Ballroom Blitz log written by the official engine replays through ours with
//! the same action flags and player states on every turn; a corrupted log fails where it was cut.

use arena_core::games::ballroom::Ballroom;
use arena_host::verify::{Difference, Verified};

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

/// Verifies `seed12.json` after `edit`, returning where it failed.
fn verify_edited(edit: impl FnOnce(&mut serde_json::Value)) -> Difference {
    let mut log: serde_json::Value = serde_json::from_str(&golden_text("seed12.json")).unwrap();
    edit(&mut log);
    verify_log(&log.to_string()).expect_err("a corrupted log must not verify")
}

#[test]
fn a_corrupted_flag_fails_at_its_turn_phase_seat_and_field() {
    let m = verify_edited(|log| {
        let d = &mut log["turns"][38]["attack_actions"][2]["damage"];
        *d = (d.as_i64().unwrap() + 1).into();
    });
    assert_eq!(
        (m.turn, m.path.as_str()),
        (Some(38), "attack_actions[2].damage")
    );
    assert!(
        m.to_string()
            .starts_with("turn 38: attack_actions[2].damage"),
        "{m}"
    );
}

#[test]
fn a_corrupted_state_fails_at_its_turn_seat_and_field() {
    let m = verify_edited(|log| {
        let g = &mut log["turns"][50]["player_states"][1]["gold"];
        *g = (g.as_i64().unwrap() + 1).into();
    });
    assert_eq!(
        (m.turn, m.path.as_str()),
        (Some(50), "player_states[1].gold")
    );
}

#[test]
fn a_shield_flag_flipped_fails_on_nullified() {
    // Turn 38 of seed12: P3's shield is consulted by no attack on P3 (the quirk); claiming P2's hit
    // was nullified must fail on that field.
    let m = verify_edited(|log| {
        log["turns"][38]["attack_actions"][2]["nullified"] = true.into();
    });
    assert_eq!(
        (m.turn, m.path.as_str()),
        (Some(38), "attack_actions[2].nullified")
    );
}

#[test]
fn an_action_for_another_seat_is_refused_by_the_verifier() {
    let m = verify_edited(|log| {
        log["turns"][3]["move_actions"][1]["executor"] = 2.into();
    });
    assert_eq!(
        (m.turn, m.path.as_str()),
        (Some(3), "move_actions[1].executor")
    );
}
