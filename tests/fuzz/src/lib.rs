//! What the targets share: one driver per kind of target, generic over the game, so that each
//! `game_<game>`, `action_<game>` and `verify_<game>` target is one line naming its game.
//!
//! - [`game`]: params, seed and every action from the game's arbitrary generator (arena-core's
//!   [`ArbitraryGame`], the one the property tests and the soak play), through the public [`Game`]
//!   API. Checked: `new` and `step` never panic; `new` is a pure function of params and seed; the
//!   turn never goes back; a finished game does not move; the same params, seed and actions give
//!   the same digest after every step when played again (so a replay of the match reproduces it).
//! - [`action`]: any JSON as a bot's action ([`HostGame::action_from_json`]) never panics, and
//!   decoding is a fixed point: written back ([`HostGame::action_json`]) and read again, the same
//!   action; and the actions the game's generator draws from the same bytes, in the states it
//!   plays to, written and read back, play the same step as they do.
//! - [`verify`]: the game's replay reader on any text ([`HostGame::replay`]; games whose replays
//!   are re-played on a map beside them take the map, a NUL byte, then the replay) never panics; a
//!   text it accepts is one the registry ([`arena_host::games::detect`]) says is this game's, and
//!   it verifies again with the same report.
//! - [`render`] and [`detect`]: `arena render`'s path on any file and `arena verify`'s first look
//!   at one, through the registry.

use arena_core::arbitrary::{ArbitraryGame, Unstructured};
use arena_core::Game;
use arena_host::commands::render::frame_at;
use arena_host::render::Display;
use arena_host::replay::{Head, ReplayContext};
use arena_host::verify::Verified;
use arena_host::HostGame;

/// Plays `G` from the bytes (params, seed, then each moving seat's action while bytes remain,
/// passes after) for at most `max_steps` steps; then checks the promises above.
pub fn game<G: ArbitraryGame>(data: &[u8], max_steps: usize) {
    let mut u = Unstructured::new(data);
    let (Ok(params), Ok(seed)) = (G::arbitrary_params(&mut u), u.arbitrary::<u64>()) else {
        return;
    };
    let Ok(mut game) = G::new(&params, seed) else {
        return;
    };
    let start = game.digest();
    let again = G::new(&params, seed).expect("new accepted these params once");
    assert_eq!(
        again.digest(),
        start,
        "new is not a function of params and seed"
    );

    let mut log: Vec<Vec<G::Action>> = Vec::new();
    let mut digests = Vec::new();
    while !game.is_over() && log.len() < max_steps {
        let movers = game.to_move();
        let actions: Vec<G::Action> = (0..game.seats())
            .map(|seat| match movers.contains(seat) && !u.is_empty() {
                true => G::arbitrary_action(&mut u, &game, seat).unwrap_or_default(),
                false => G::Action::default(),
            })
            .collect();
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

    let mut replay = G::new(&params, seed).expect("new accepted these params once");
    for (i, (actions, &digest)) in log.iter().zip(&digests).enumerate() {
        replay.step(actions);
        assert_eq!(replay.digest(), digest, "replay differs after step {i}");
    }
}

/// The most steps [`action`] plays to reach states whose actions it writes.
const ACTION_STEPS: usize = 30;

/// Any JSON as `G`'s action: never panics, and decoding is a fixed point. Then the same bytes as
/// the game's generator's draws: the actions it makes, in the states it plays to, written and read
/// back, play the same step as the actions themselves.
pub fn action<G: HostGame + ArbitraryGame>(data: &[u8]) {
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
        let a = G::action_from_json(&value);
        assert_eq!(G::action_from_json(&G::action_json(&a)), a);
    }
    let mut u = Unstructured::new(data);
    let (Ok(params), Ok(seed)) = (G::arbitrary_params(&mut u), u.arbitrary::<u64>()) else {
        return;
    };
    let Ok(mut game) = G::new(&params, seed) else {
        return;
    };
    for _ in 0..ACTION_STEPS {
        if game.is_over() || u.is_empty() {
            break;
        }
        let movers = game.to_move();
        let actions: Vec<G::Action> = (0..game.seats())
            .map(|seat| match movers.contains(seat) {
                true => G::arbitrary_action(&mut u, &game, seat).unwrap_or_default(),
                false => G::Action::default(),
            })
            .collect();
        // What a bot reads back may be normalised (Tower Defense reads a negative boost as the 0
        // the rules count it as), so the check is on the rules: the same step either way.
        let read: Vec<G::Action> = actions
            .iter()
            .map(|a| G::action_from_json(&G::action_json(a)))
            .collect();
        let mut sent = game.clone();
        sent.step(&read);
        game.step(&actions);
        assert_eq!(
            sent.digest(),
            game.digest(),
            "{actions:?} written and read back as {read:?} play another step"
        );
    }
}

/// The input of a replay target: the text, split into map and replay for games that re-play on
/// a map beside the replay.
fn replay_input<G: HostGame>(data: &[u8]) -> Option<(ReplayContext, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    Some(match text.split_once('\0') {
        Some((map, replay)) if G::MAP_BESIDE => (
            ReplayContext {
                map: Some(map.to_string()),
                ruleset: None,
            },
            replay,
        ),
        _ => (ReplayContext::default(), text),
    })
}

/// `G`'s replay reader on any text: see the module docs. Returns what a text that verifies
/// holds, with the seat count of the states it handed out (the same for all of them).
pub fn verify<G: HostGame>(data: &[u8]) -> Option<(Verified, usize)> {
    let (ctx, replay) = replay_input::<G>(data)?;
    let mut seats = None;
    let run = |seats: &mut Option<usize>| {
        G::replay(&mut replay.as_bytes(), &ctx, &mut |g: &G| {
            let n = *seats.get_or_insert(g.seats());
            assert_eq!(g.seats(), n, "the seat count changed during a replay");
        })
    };
    match run(&mut seats) {
        Ok(report) => {
            let head = Head::read(replay.as_bytes()).expect("a replay that verifies has a head");
            let entry =
                arena_host::games::detect(&head).expect("a replay that verifies is detected");
            assert_eq!(
                entry.name,
                G::NAME,
                "verified as {} but detected as {}",
                G::NAME,
                entry.name
            );
            assert_eq!(
                run(&mut None),
                Ok(report.clone()),
                "verified twice, two reports"
            );
            Some((report, seats.unwrap_or(0)))
        }
        Err(difference) => {
            let _ = difference.to_string();
            None
        }
    }
}

/// The displays [`render`] draws on, chosen by the input's length (so the golden files stay
/// valid seeds).
const DISPLAYS: [Display; 4] = [
    Display::Oled128x64,
    Display::Gray128x64,
    Display::Rgb240x240,
    Display::Desktop,
];

macro_rules! frames {
    ($($folder:ident: $game:ty),* $(,)?) => {
        /// `arena render`'s picture of the last state of a replay of the game called `name` (any
        /// game of the registry), as its size or why there is none.
        fn frame(
            name: &str,
            replay: &str,
            ctx: &ReplayContext,
            display: Display,
        ) -> Result<(u32, u32), String> {
            $(if name == <$game as Game>::NAME {
                return frame_at::<$game>(&mut replay.as_bytes(), ctx, display, 1, None)
                    .map(|(image, _turn)| (image.width(), image.height()))
                    .map_err(|e| e.to_string());
            })*
            panic!("{name} is in the registry but cannot be drawn")
        }
    };
}

arena_core::with_games!(frames);

/// `arena render`'s path on any file: the registry detects the game from the file's head, its
/// reader re-plays it (on the map before a NUL byte, for games that need one) and the last state
/// is drawn on one of the displays. Never panics; a picture it makes has the display's size.
pub fn render(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (map, replay) = match text.split_once('\0') {
        Some((map, replay)) => (Some(map.to_string()), replay),
        None => (None, text),
    };
    let Ok(head) = Head::read(replay.as_bytes()) else {
        return;
    };
    let Ok(entry) = arena_host::games::detect(&head) else {
        return;
    };
    let display = DISPLAYS[data.len() % DISPLAYS.len()];
    if let Ok(size) = frame(
        entry.name,
        replay,
        &ReplayContext { map, ruleset: None },
        display,
    ) {
        assert_eq!(size, display.size());
    }
}

/// `arena verify`/`arena render`'s first look at a file: its head, and which game of the registry
/// it is. Never panics; the answer is a function of the text.
pub fn detect(data: &[u8]) {
    let named = |head: Head| arena_host::games::detect(&head).map(|e| e.name);
    let look = || Head::read(data).map(|head| named(head).map_err(|e| e.to_string()));
    let answer = look();
    if let Ok(Ok(name)) = &answer {
        assert!(!name.is_empty());
    }
    assert_eq!(look(), answer);
}
