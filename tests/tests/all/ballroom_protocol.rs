//! Protocol: re-playing golden game seed1 from the handshake, every line the official engine sent
//! player 0 (`<` in `seed1.player0-messages.txt`) is reproduced byte for byte by `phase_message`,
//! and every reply player 0 sent (`>`) parses to the action the log recorded for it.

use arena_core::games::ballroom::{Action, Ballroom, Class, Flags, Item, Params, Phase, Sent};
use arena_core::Game;
use arena_host::games::ballroom::json::{
    action_line, parse_action_line, parse_reply, phase_message, Fault,
};
use serde_json::Value;

fn golden_text(name: &str) -> String {
    let path = arena_tests::golden("ballroom").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The recorded actions of one phase of one log turn, as actions.
fn recorded(turn: &Value, phase: Phase) -> [Action; 4] {
    let key = match phase {
        Phase::Use => "use_actions",
        Phase::Move => "move_actions",
        Phase::Attack => "attack_actions",
        Phase::Buy => "buy_actions",
        Phase::Class => unreachable!(),
    };
    core::array::from_fn(|s| {
        let a = &turn[key][s];
        match phase {
            Phase::Use => Action::Use(a["use"].as_bool().unwrap()),
            Phase::Move => Action::Move {
                x: a["destination"]["x"].as_i64().unwrap() as i32,
                y: a["destination"]["y"].as_i64().unwrap() as i32,
            },
            Phase::Attack => Action::Attack {
                target: a["target"].as_i64().unwrap() as i32,
            },
            _ => Action::Buy(Item::from_name(a["item"].as_str().unwrap()).unwrap()),
        }
    })
}

#[test]
fn seed1_player0_messages_are_reproduced_byte_for_byte() {
    let log: Value = serde_json::from_str(&golden_text("seed1.json")).unwrap();
    let transcript = golden_text("seed1.player0-messages.txt");
    // Group the transcript into (engine text before a reply, the reply).
    let mut exchanges: Vec<(String, Option<String>)> = vec![(String::new(), None)];
    for line in transcript.lines() {
        if let Some(sent) = line.strip_prefix("< ") {
            let last = exchanges.last_mut().unwrap();
            if last.1.is_some() {
                exchanges.push((String::new(), None));
            }
            let last = exchanges.last_mut().unwrap();
            last.0.push_str(sent);
            last.0.push('\n');
        } else if let Some(reply) = line.strip_prefix("> ") {
            exchanges.last_mut().unwrap().1 = Some(reply.to_string());
        } else {
            panic!("unexpected transcript line {line:?}");
        }
    }
    assert_eq!(exchanges.len(), 402, "handshake + 400 phases + fin");

    let mut game = Ballroom::new(&Params::default(), 1).unwrap();
    let classes: [Action; 4] = core::array::from_fn(|s| {
        let name = log["turns"][0]["player_states"][s]["class"]
            .as_str()
            .unwrap();
        Action::Class(Class::from_name(name).unwrap())
    });
    let mut compared = 0;
    for (i, (sent, reply)) in exchanges.iter().enumerate() {
        assert_eq!(
            &phase_message(&game, 0),
            sent,
            "engine text before exchange {i}"
        );
        compared += sent.lines().count();
        let Some(phase) = game.phase() else {
            assert!(reply.is_none());
            break;
        };
        let actions = match phase {
            Phase::Class => classes,
            p => recorded(&log["turns"][game.turn() as usize + 1], p),
        };
        let reply = reply.as_deref().expect("a reply to every phase");
        assert_eq!(parse_action_line(phase, reply), Ok(actions[0]), "reply {i}");
        assert_eq!(action_line(0, &actions[0]), reply, "reply {i} rendered");
        game.step(&actions);
    }
    assert!(game.is_over());
    assert_eq!(compared, 403, "wake, 0, 400 phase lines, fin");
}

#[test]
fn replies_are_read_as_jackson_reads_them() {
    let p = |phase, line| parse_action_line(phase, line);
    // Jackson's lenient primitives.
    assert_eq!(
        p(Phase::Use, r#"{"executor":0,"use":"true"}"#),
        Ok(Action::Use(true))
    );
    assert_eq!(
        p(Phase::Use, r#"{"executor":0,"use":1}"#),
        Ok(Action::Use(true))
    );
    assert_eq!(p(Phase::Use, r#"{"executor":0}"#), Ok(Action::Use(false)));
    assert_eq!(
        p(Phase::Attack, r#"{"executor":0,"target":"1"}"#),
        Ok(Action::Attack { target: 1 })
    );
    assert_eq!(
        p(Phase::Attack, r#"{"executor":0}"#),
        Ok(Action::Attack { target: 0 })
    );
    // The executor is not trusted (the seat acts for itself): even one that would crash the
    // reference is just ignored.
    assert_eq!(
        p(Phase::Use, r#"{"executor":7,"use":true}"#),
        Ok(Action::Use(true))
    );
    // Extra fields ignored; a missing executor is fine.
    assert_eq!(
        p(Phase::Move, r#"{"destination":{"x":-3,"y":40},"extra":1}"#),
        Ok(Action::Move { x: -3, y: 40 })
    );
    // "null" (what a timeout reads as) drops the bot.
    assert_eq!(p(Phase::Buy, "null"), Ok(Action::Null));
    // Where the reference crashes: the default action.
    let crash = p(Phase::Move, r#"{"executor":0}"#).unwrap_err();
    assert!(matches!(crash, Fault::Crash(_)) && crash.action() == Action::Pass);
    assert_eq!(
        p(Phase::Buy, r#"{"executor":0}"#).unwrap_err().action(),
        Action::Pass
    );
    assert_eq!(
        p(Phase::Class, "KNIGHT").unwrap_err().action(),
        Action::Malformed
    );
    assert_eq!(
        p(Phase::Class, r#""PALADIN""#).unwrap_err().action(),
        Action::Pass
    );
    // Where the reference drops the bot: Malformed.
    assert_eq!(
        p(Phase::Buy, r#"{"item":"SWORD"}"#).unwrap_err().action(),
        Action::Malformed
    );
    assert_eq!(
        p(Phase::Use, "{not json").unwrap_err().action(),
        Action::Malformed
    );
    assert_eq!(
        p(Phase::Attack, r#"{"target":99999999999}"#)
            .unwrap_err()
            .action(),
        Action::Malformed
    );
    assert_eq!(
        p(Phase::Class, r#""ARCHER""#),
        Ok(Action::Class(Class::Archer))
    );
    // Jackson reads enums from their ordinals too.
    assert_eq!(p(Phase::Class, "1"), Ok(Action::Class(Class::Wizard)));
    assert_eq!(
        p(Phase::Buy, r#"{"item":0}"#),
        Ok(Action::Buy(Item::Shield))
    );
    assert_eq!(
        p(Phase::Buy, r#"{"item":12}"#).unwrap_err().action(),
        Action::Malformed
    );
    assert_eq!(p(Phase::Use, r#"{"use":"True"}"#), Ok(Action::Use(true)));
    assert_eq!(
        p(Phase::Attack, r#"{"target":2.9}"#),
        Ok(Action::Attack { target: 2 })
    );
    assert_eq!(
        p(Phase::Attack, r#"{"target":true}"#).unwrap_err().action(),
        Action::Malformed
    );
}

#[test]
fn a_reply_is_the_first_json_value_on_its_line_as_jackson_reads_it() {
    // Measured with the official engine's action classes and Jackson 2.14 (the reference
    // harness's): `readValue` stops after the first value; at the root a number must be followed
    // by whitespace, and null/true/false by no letter, digit or `_`.
    fn p(phase: Phase, line: &str) -> Result<Action, Fault> {
        parse_action_line(phase, line)
    }
    for tail in [r#"{"x":1}"#, "garbage", r#" {"executor":1}"#, "]", "}"] {
        let line = format!(r#"{{"executor":0,"use":true}}{tail}"#);
        assert_eq!(p(Phase::Use, &line), Ok(Action::Use(true)), "{line}");
    }
    assert_eq!(
        p(Phase::Move, "\t {\"destination\":{\"x\":1,\"y\":2}} x"),
        Ok(Action::Move { x: 1, y: 2 })
    );
    for line in ["null x", "null}", "null,", "null-", "null:"] {
        assert_eq!(p(Phase::Buy, line), Ok(Action::Null), "{line}");
    }
    for line in ["nullx", "null1", "null_", "", "   "] {
        assert_eq!(
            p(Phase::Buy, line).unwrap_err().action(),
            Action::Malformed,
            "{line:?}"
        );
    }
    assert_eq!(
        p(Phase::Class, r#""KNIGHT"garbage"#),
        Ok(Action::Class(Class::Knight))
    );
    assert_eq!(p(Phase::Class, "1 x"), Ok(Action::Class(Class::Wizard)));
    for line in ["1x", "1,", "1]", "1}"] {
        assert_eq!(
            p(Phase::Class, line).unwrap_err().action(),
            Action::Malformed,
            "{line}"
        );
    }
    // An unfinished first value is no value, whatever follows.
    assert_eq!(
        p(Phase::Use, r#"{"executor":0,"use":true {"use":true}"#)
            .unwrap_err()
            .action(),
        Action::Malformed
    );
}

#[test]
fn result_flags_are_read_with_the_action_of_their_phase_as_jackson_reads_them() {
    fn r(phase: Phase, line: &str) -> Result<Sent, Fault> {
        parse_reply(phase, line)
    }
    let flags = |valid, damage, nullified| Flags {
        valid,
        damage,
        nullified,
    };
    let sent = |action, f| Sent { action, flags: f };
    // None sent: the engine's initial values.
    assert_eq!(
        r(Phase::Use, r#"{"use":true}"#),
        Ok(sent(Action::Use(true), Flags::NONE))
    );
    // `isValid` in every phase; null, "", "null", 0 and "FALSE" are false; any other integer and
    // " True " are true.
    for v in [
        "false",
        "null",
        r#""""#,
        r#""null""#,
        "0",
        r#""FALSE""#,
        r#"" false ""#,
    ] {
        let line = format!(r#"{{"use":true,"isValid":{v}}}"#);
        assert_eq!(
            r(Phase::Use, &line),
            Ok(sent(Action::Use(true), flags(false, 0, false))),
            "{line}"
        );
    }
    for v in ["true", "2", "-1", r#"" True ""#, r#""TRUE""#] {
        let line = format!(r#"{{"item":"NONE","isValid":{v}}}"#);
        assert_eq!(
            r(Phase::Buy, &line),
            Ok(sent(Action::Buy(Item::None), Flags::NONE)),
            "{line}"
        );
    }
    assert_eq!(
        r(
            Phase::Move,
            r#"{"destination":{"x":3,"y":4},"isValid":false}"#
        ),
        Ok(sent(Action::Move { x: 3, y: 4 }, flags(false, 0, false)))
    );
    // `damage` and `nullified` are ATTACK's: Java ints and booleans.
    assert_eq!(
        r(
            Phase::Attack,
            r#"{"target":1,"damage":-7,"nullified":true,"isValid":false}"#
        ),
        Ok(sent(Action::Attack { target: 1 }, flags(false, -7, true)))
    );
    for (v, d) in [
        ("99", 99),
        (r#"" 12 ""#, 12),
        ("12.9", 12),
        ("1e2", 100),
        ("null", 0),
        (r#""""#, 0),
    ] {
        let line = format!(r#"{{"target":2,"damage":{v},"nullified":1}}"#);
        assert_eq!(
            r(Phase::Attack, &line),
            Ok(sent(Action::Attack { target: 2 }, flags(true, d, true))),
            "{line}"
        );
    }
    // Fields another phase's class has are unknown here, and ignored whatever they hold.
    assert_eq!(
        r(
            Phase::Use,
            r#"{"use":false,"damage":"abc","nullified":[1]}"#
        ),
        Ok(sent(Action::Use(false), Flags::NONE))
    );
    // A flag Jackson cannot read is a parse error: the bot is dropped, even where the action
    // itself would crash the engine.
    for (phase, line) in [
        (Phase::Use, r#"{"use":true,"isValid":"abc"}"#),
        (Phase::Use, r#"{"use":true,"isValid":0.0}"#),
        (Phase::Attack, r#"{"target":1,"damage":true}"#),
        (Phase::Attack, r#"{"target":1,"damage":2147483648}"#),
        (Phase::Attack, r#"{"target":1,"damage":"1e2"}"#),
        (Phase::Attack, r#"{"target":1,"nullified":"yes"}"#),
        (Phase::Move, r#"{"isValid":[false]}"#),
    ] {
        assert_eq!(
            r(phase, line).unwrap_err().action(),
            Action::Malformed,
            "{line}"
        );
    }
}
