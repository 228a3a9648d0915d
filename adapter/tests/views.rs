//! The view the adapter builds from the protocol's text, turn by turn, against the engine's own
//! `view(seat)`, over random matches (several seeds, two maps or variants a game): the text is what
//! `arena` sends a `cmd:` seat (arena-host's request lines and Ants feed).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use arena_adapter::{ants, colorfight, tower_defense, Error};
use arena_core::games::ants::{Ants, AntsParams, AntsView, Map, Sight};
use arena_core::games::colorfight::{self as cf, ColorFight};
use arena_core::games::tower_defense::{self as td, TowerDefense};
use arena_core::{Bot, Game, Roster, Seat};
use arena_host::games::ants::SeatFeed;
use arena_host::protocol::GameProtocol;
use std::collections::BTreeMap;

/// Plays `game` with built-in bots `names` (seeded by `seed`) for at most `steps` steps, calling
/// `each(game)` before every step.
fn play<G: Roster>(game: &mut G, names: &[&str], seed: u64, steps: u32, mut each: impl FnMut(&G)) {
    let mut bots: Vec<G::Bot> = (names.iter().enumerate())
        .map(|(seat, n)| G::bot(n, arena_core::rng::bot_seed(seed, seat)).unwrap())
        .collect();
    let mut n = 0;
    while !game.is_over() && n < steps {
        each(game);
        let movers = game.to_move();
        let actions: Vec<G::Action> = (0..game.seats())
            .map(|s| {
                if movers.contains(s) {
                    bots[s].act(&game.view(s))
                } else {
                    G::Action::default()
                }
            })
            .collect();
        game.step(&actions);
        n += 1;
    }
}

fn parse(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap()
}

#[test]
fn tower_defense_states_rebuilt_from_the_requests_equal_the_engines() {
    let mut checked = 0u32;
    let mut towers = 0usize;
    for variant in [td::Variant::Duel, td::Variant::Siege] {
        for seed in [1u64, 2, 3] {
            let params = td::Params { variant };
            let mut game = TowerDefense::new(&params, seed).unwrap();
            let mut readers = [tower_defense::Reader::new(), tower_defense::Reader::new()];
            let names = ["random", if seed == 2 { "army" } else { "strong" }];
            play(&mut game, &names, seed, 3000, |g| {
                for (seat, reader) in readers.iter_mut().enumerate() {
                    let line = g.request(seat).unwrap();
                    let (read_seat, rebuilt) = reader.read(&parse(&line), 1).unwrap();
                    assert_eq!(read_seat, seat);
                    // The whole state, field by field (towers' invested gold included), so every
                    // answer the view gives is the engine's.
                    assert_eq!(rebuilt, g, "{variant:?} seed {seed} turn {}", g.turn());
                    assert_eq!(rebuilt.digest(), g.digest());
                    checked += 1;
                }
                towers += (0..g.boards()).map(|b| g.towers(b).count()).sum::<usize>();
            });
        }
    }
    assert!(checked > 1000, "{checked} views checked");
    assert!(towers > 100, "the matches built towers ({towers})");
}

#[test]
fn colorfight_states_rebuilt_from_the_requests_equal_the_engines() {
    let mut checked = 0u32;
    let grids = [
        (
            cf::Variant::Conquest,
            20,
            12,
            4,
            ["strategist", "expander", "random", "expander"],
        ),
        (
            cf::Variant::Skirmish,
            10,
            10,
            3,
            ["random", "expander", "strategist", ""],
        ),
    ];
    for (variant, width, height, players, names) in grids {
        for seed in [1u64, 2, 3] {
            let params = cf::Params {
                variant,
                width,
                height,
                players,
                ticks: 900,
                ..cf::Params::default()
            };
            let mut game = ColorFight::new(&params, seed).unwrap();
            let mut readers: Vec<colorfight::Reader> =
                (0..players).map(|_| colorfight::Reader::new()).collect();
            let names = &names[..players as usize];
            play(&mut game, names, seed, 900, |g| {
                for (seat, reader) in readers.iter_mut().enumerate() {
                    let Some(line) = g.request(seat) else {
                        continue;
                    };
                    let (read_seat, rebuilt) = reader.read(&parse(&line), 1).unwrap();
                    assert_eq!(read_seat, seat);
                    let at = format!("{variant:?} seed {seed} tick {}", g.tick());
                    assert_eq!(rebuilt.params(), g.params(), "{at}");
                    assert_eq!(rebuilt.tick(), g.tick(), "{at}");
                    assert_eq!(rebuilt.cells(), g.cells(), "{at}");
                    assert_eq!(rebuilt.players(), g.players(), "{at}");
                    // What the bots ask the rules.
                    for s in 0..g.seats() {
                        assert_eq!(rebuilt.may_build(s), g.may_build(s), "{at}");
                        assert_eq!(rebuilt.final_score(s), g.final_score(s), "{at}");
                    }
                    checked += 1;
                }
            });
        }
    }
    assert!(checked > 1000, "{checked} views checked");
}

fn golden(path: &str) -> String {
    let root = std::env::var_os("ARENA_GOLDEN").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden"),
        std::path::PathBuf::from,
    );
    let file = root.join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "golden data {} not found ({e}): put ../shared beside the project or set ARENA_GOLDEN",
            file.display()
        )
    })
}

type View<'a> = <Ants as Game>::View<'a>;

/// The engine's view and the adapter's agree, up to the protocol's numbering of the players
/// (`names[engine owner] = protocol owner`, filled as owners appear, the seat itself 0).
fn same_ants_view(
    engine: &View<'_>,
    adapter: &View<'_>,
    names: &mut BTreeMap<Seat, Seat>,
    at: &str,
) {
    assert_eq!(adapter.seat(), 0);
    names.insert(engine.seat(), 0);
    assert_eq!(engine.turn(), adapter.turn(), "{at}");
    assert_eq!(
        (
            engine.rows(),
            engine.cols(),
            engine.turns(),
            engine.player_seed()
        ),
        (
            adapter.rows(),
            adapter.cols(),
            adapter.turns(),
            adapter.player_seed()
        ),
        "{at}"
    );
    assert_eq!(
        (
            engine.viewradius2(),
            engine.attackradius2(),
            engine.spawnradius2()
        ),
        (
            adapter.viewradius2(),
            adapter.attackradius2(),
            adapter.spawnradius2()
        ),
        "{at}"
    );
    assert!(adapter.players() <= engine.players(), "{at}");
    let mut rename = |list: Vec<(usize, Seat)>, theirs: Vec<(usize, Seat)>, what: &str| {
        let mut ours: Vec<(usize, Seat)> = Vec::new();
        for &(sq, p) in &theirs {
            // The adapter's number, mapped back: each engine owner has one protocol number.
            let known = names.iter().find(|&(_, &q)| q == p).map(|(&e, _)| e);
            let e = match known {
                Some(e) => e,
                None => {
                    // A player first seen now: the one the engine lists on that square that has
                    // no number yet (dead ants may share a square).
                    let unnamed: Vec<Seat> = (list.iter())
                        .filter(|&&(s, e)| s == sq && !names.contains_key(&e))
                        .map(|&(_, e)| e)
                        .collect();
                    assert_eq!(unnamed.len(), 1, "{at}: {what} owner {p} on {sq}");
                    names.insert(unnamed[0], p);
                    unnamed[0]
                }
            };
            ours.push((sq, e));
        }
        let (mut a, mut b) = (list, ours);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{at}: {what}");
    };
    rename(engine.ants().collect(), adapter.ants().collect(), "ants");
    rename(engine.hills().collect(), adapter.hills().collect(), "hills");
    rename(engine.dead().collect(), adapter.dead().collect(), "dead");
    let sorted = |v: &View<'_>| {
        let mut f: Vec<usize> = v.food().collect();
        f.sort_unstable();
        f
    };
    assert_eq!(sorted(engine), sorted(adapter), "{at}: food");
    let squares = usize::from(engine.rows()) * usize::from(engine.cols());
    // Every square every fifth turn (each answer scans the seat's ants), else every 13th.
    let every = if engine.turn().is_multiple_of(5) {
        1
    } else {
        13
    };
    for sq in (0..squares).step_by(every) {
        assert_eq!(
            engine.is_visible(sq),
            adapter.is_visible(sq),
            "{at}: sq {sq}"
        );
        assert_eq!(engine.is_water(sq), adapter.is_water(sq), "{at}: sq {sq}");
        for other in [0, sq / 2, squares - 1] {
            assert_eq!(engine.distance2(sq, other), adapter.distance2(sq, other));
        }
    }
    let seen = |v: &View<'_>| {
        let mut s = Vec::new();
        v.for_each_visible(|sq, w| s.push((sq, w)));
        // Ant by ant, in the source's order of the ants.
        s.sort_unstable();
        s
    };
    assert_eq!(seen(engine), seen(adapter), "{at}: for_each_visible");
    assert_eq!(engine.is_finished(), adapter.is_finished());
}

#[test]
fn ants_views_built_from_the_protocol_equal_the_engines() {
    let mut checked = 0u32;
    let mut others = 0usize;
    for (map, bots) in [
        ("ants/maps/tutorial1.map", &["hunter", "strong"][..]),
        (
            "ants/maps/multi_hill_maze_04p_02.map",
            &["strong", "hunter", "hold", "strong"][..],
        ),
    ] {
        for seed in [1u64, 2] {
            let params = AntsParams::new(Map::parse(&golden(map)).unwrap(), 150);
            let mut game: Box<Ants> = Box::new(Ants::blank());
            game.init(&params, seed).unwrap();
            let n = game.players();
            assert_eq!(n, bots.len());
            let mut feeds: Vec<SeatFeed> = (0..n).map(|p| SeatFeed::new(&game, p)).collect();
            let mut readers: Vec<ants::Reader> = (0..n).map(|_| ants::Reader::new()).collect();
            let mut names: Vec<BTreeMap<Seat, Seat>> = vec![BTreeMap::new(); n];
            for r in &mut readers {
                for line in SeatFeed::start_text(&game).lines() {
                    r.feed(line, 1).unwrap();
                }
            }
            play(&mut *game, bots, seed, 150, |g| {
                for p in (0..n).filter(|&p| g.is_alive(p)) {
                    let text = feeds[p].turn_text(g);
                    let mut done = None;
                    for line in text.lines() {
                        done = readers[p].feed(line, 1).unwrap();
                    }
                    assert_eq!(done, Some(ants::Event::Turn));
                    let sight: Sight<'_> = readers[p].sight();
                    let adapter: View<'_> = AntsView::from_sight(&sight, 0);
                    let at = format!("{map} seed {seed} turn {} seat {p}", g.turn());
                    same_ants_view(&g.view(p), &adapter, &mut names[p], &at);
                    others += adapter.ants().filter(|&(_, o)| o != 0).count();
                    checked += 1;
                }
            });
        }
    }
    assert!(checked > 500, "{checked} views checked");
    assert!(others > 50, "other players' ants were in sight ({others})");
}

#[test]
fn garbled_messages_are_errors_not_panics() {
    struct Pass;
    impl Bot<TowerDefense> for Pass {
        fn act(&mut self, _: &arena_core::Open<'_, TowerDefense>) -> td::Action {
            td::Action::Pass
        }
    }
    impl Bot<ColorFight> for Pass {
        fn act(&mut self, _: &arena_core::Open<'_, ColorFight>) -> cf::Action {
            cf::Action::Pass
        }
    }
    impl Bot<Ants> for Pass {
        fn act(&mut self, _: &View<'_>) -> <Ants as Game>::Action {
            heapless::Vec::new()
        }
    }
    let game = TowerDefense::new(&td::Params::default(), 1).unwrap();
    let good = game.request(0).unwrap();
    let mut out = Vec::new();
    let input = format!("{good}\n{good}\n");
    assert_eq!(
        tower_defense::play(&mut Pass, input.as_bytes(), &mut out),
        Ok(2)
    );
    assert_eq!(String::from_utf8(out).unwrap(), "null\nnull\n");
    for (input, want) in [
        ("{\"turn\":0", Error::NotJson { line: 1 }),
        (
            "{\"seat\":0}",
            Error::Missing {
                line: 1,
                field: "state",
            },
        ),
        (
            &good.replace("\"gold\":500", "\"gold\":-5")[..],
            Error::Missing {
                line: 1,
                field: "gold",
            },
        ),
        (
            &good.replace("\"seat\":0", "\"seat\":7")[..],
            Error::Bad {
                line: 1,
                what: "seat is not 0 or 1",
            },
        ),
    ] {
        let got = tower_defense::play(&mut Pass, format!("\n{input}\n").as_bytes(), Vec::new());
        let want = match want {
            Error::NotJson { .. } => Error::NotJson { line: 2 },
            Error::Missing { field, .. } => Error::Missing { line: 2, field },
            Error::Bad { what, .. } => Error::Bad { line: 2, what },
            e => e,
        };
        assert_eq!(got, Err(want), "{input}");
    }
    // A tower whose level its power and range do not make.
    let cf_game = ColorFight::new(&cf::Params::default(), 1).unwrap();
    let line = cf_game.request(0).unwrap();
    assert_eq!(
        colorfight::play(&mut Pass, format!("{line}\n").as_bytes(), Vec::new()),
        Ok(1)
    );
    let no_extra = line.split(",\"extra\"").next().unwrap().to_owned() + "}";
    assert_eq!(
        colorfight::play(&mut Pass, format!("{no_extra}\n").as_bytes(), Vec::new()),
        Err(Error::Missing {
            line: 1,
            field: "extra"
        })
    );
    let start = "turn 0\nloadtime 3000\nturntime 1000\nrows 4\ncols 5\nturns 10\nviewradius2 5\nattackradius2 5\nspawnradius2 1\nplayer_seed 7\nready\n";
    let mut out = Vec::new();
    let ok = format!("{start}turn 1\na 0 0 0\nf 3 4\nw 1 1\ngo\nend\nplayers 2\nscore 1 0\ngo\n");
    assert_eq!(ants::play(&mut Pass, ok.as_bytes(), &mut out), Ok(1));
    assert_eq!(String::from_utf8(out).unwrap(), "go\ngo\n");
    for (tail, what) in [
        ("turn 1\na 9 0 0\ngo\n", "a square off the map"),
        ("turn 1\na 0 0\ngo\n", "a map line of the wrong length"),
        ("turn 1\nx 0 0\ngo\n", "a line the protocol does not have"),
        ("a 0 0 0\n", "expected `turn N` or `end`"),
        ("turn 1\na 0 0 99\ngo\n", "an owner that is no player"),
    ] {
        let got = ants::play(&mut Pass, format!("{start}{tail}").as_bytes(), Vec::new());
        assert!(
            matches!(got, Err(Error::Bad { what: w, .. }) if w == what),
            "{tail:?}: {got:?}"
        );
    }
    assert!(matches!(
        ants::play(&mut Pass, "rows 3\n".as_bytes(), Vec::new()),
        Err(Error::Bad { line: 1, .. })
    ));
}

/// Every byte the original engine (playgame.py) sent each bot of an official game (golden
/// `botN.input`) is read, and every turn answered: the protocol a process speaks to `arena` is
/// the original's.
#[test]
fn the_original_engines_messages_are_read() {
    /// Counts its own ants each turn and orders none.
    struct Count(Vec<usize>);
    impl Bot<Ants> for Count {
        fn act(&mut self, view: &View<'_>) -> <Ants as Game>::Action {
            self.0
                .push(view.ants().filter(|&(_, o)| o == view.seat()).count());
            heapless::Vec::new()
        }
    }
    for bot in ["bot0", "bot1"] {
        let input = golden(&format!("ants/tut_hunter_greedy_s7/{bot}.input"));
        let turns = input.lines().filter(|l| l.starts_with("turn ")).count() - 1;
        let mut count = Count(Vec::new());
        let mut out = Vec::new();
        let answered = ants::play(&mut count, input.as_bytes(), &mut out).unwrap();
        assert_eq!(answered as usize, turns, "{bot}");
        assert!(turns > 100, "{bot}: {turns} turns");
        // Each turn answered `go`, and `ready` too.
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), turns + 1);
        // The bot's ants as the engine listed them: one at the start, more once it gathered food.
        assert_eq!(count.0.first(), Some(&1), "{bot}");
        assert!(count.0.iter().any(|&n| n > 5), "{bot}: {:?}", count.0);
    }
}
