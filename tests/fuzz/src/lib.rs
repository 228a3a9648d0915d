//! What the targets share. The game targets play a game from fuzz bytes through the public
//! [`Game`] API, then check what every game promises whatever the actions hold; the trace and log
//! verifier targets go through [`verifier`].
//!
//! The promises checked: `new` and `step` never panic; `new` is a pure function of params and seed;
//! a finished game does not move; the same params, seed and actions give the same digest after every
//! step when played again (so a replay of the match reproduces it).

use std::fmt::{Debug, Display};

use arbitrary::Unstructured;
use arena_core::Game;
use arena_host::replay::{detect, Kind};

/// A verifier on any text: it never panics; a text it accepts is one `arena verify` recognises as a
/// `kind` file, and verifying it again gives the same report.
pub fn verifier<R: Debug, E: Debug + Display>(
    data: &[u8],
    kind: Kind,
    verify: impl Fn(&str) -> Result<R, E>,
) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match verify(text) {
        Ok(report) => {
            assert_eq!(detect(text), Ok(kind));
            let again = verify(text);
            assert_eq!(format!("{again:?}"), format!("{:?}", Ok::<_, E>(report)));
        }
        Err(mismatch) => {
            let _ = mismatch.to_string();
        }
    }
}

/// Plays `G` from `params` and `seed`, asking `action` for each moving seat's action while bytes
/// remain, then passes, for at most `max_steps` steps; then checks the promises above.
pub fn drive<G: Game>(
    params: &G::Params,
    seed: u64,
    u: &mut Unstructured,
    max_steps: usize,
    mut action: impl FnMut(&mut Unstructured, &G, usize) -> arbitrary::Result<G::Action>,
) {
    let Ok(mut game) = G::new(params, seed) else {
        return;
    };
    let start = game.digest();
    let again = G::new(params, seed).expect("new accepted these params once");
    assert_eq!(
        again.digest(),
        start,
        "new is not a function of params and seed"
    );

    let mut log: Vec<Vec<G::Action>> = Vec::new();
    let mut digests = Vec::new();
    while !game.is_over() && log.len() < max_steps {
        let movers = game.to_move();
        let mut actions = Vec::with_capacity(game.seats());
        for seat in 0..game.seats() {
            let a = if movers.contains(seat) && !u.is_empty() {
                action(u, &game, seat).unwrap_or_default()
            } else {
                G::Action::default()
            };
            actions.push(a);
        }
        let turn = game.turn();
        game.step(&actions);
        assert!(game.turn() >= turn, "the turn went back");
        log.push(actions);
        digests.push(game.digest());
    }

    if let Some(outcome) = game.outcome() {
        let before = game.digest();
        let passes = vec![G::Action::default(); game.seats()];
        game.step(&passes);
        assert_eq!(game.digest(), before, "a finished game moved");
        assert_eq!(
            game.outcome(),
            Some(outcome),
            "a finished game's outcome changed"
        );
    }

    let mut replay = G::new(params, seed).expect("new accepted these params once");
    for (i, (actions, &digest)) in log.iter().zip(&digests).enumerate() {
        replay.step(actions);
        assert_eq!(replay.digest(), digest, "replay differs after step {i}");
    }
}

/// A number in `lo..=hi` most of the time, any value of the type otherwise: rules must refuse what
/// is out of range, but most of the fuzzer's effort should go where the rules do something.
pub fn mostly_in(u: &mut Unstructured, lo: i64, hi: i64) -> arbitrary::Result<i64> {
    if u.ratio(1, 8)? {
        u.arbitrary()
    } else {
        u.int_in_range(lo..=hi)
    }
}
