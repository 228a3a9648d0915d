//! The desktop display (`--display desktop`, the viewer's largest): the board on the left, and on
//! the right each seat's bot name in its colour, the game's numbers read from the state, and a
//! legend. These tests find the text in the drawn picture, pixel for pixel, where the firmware's
//! panel font draws it, so what they check is what a person sees.

use arena_core::games::ants::{Ants, AntsMap, AntsParams};
use arena_core::games::ballroom::{self as bb, Ballroom};
use arena_core::games::colorfight::{self as cf, ColorFight};
use arena_core::games::mammut::{self as mm, Mammut, Side};
use arena_core::games::tower_defense::{self as td, TowerDefense, SPACES};
use arena_firmware::palette::Palette;
use arena_firmware::screen::desktop::{BOLD, FONT, SIDE_WIDTH};
use arena_firmware::screen::{draw_game, Layout, MatchLabel, Screen};
use arena_host::game::{Plan, Setup};
use arena_host::play::play;
use arena_host::process::Limits;
use arena_host::render::{Canvas, Display, Picture, ToRgb};
use arena_host::seats::BotSpec;
use arena_host::HostGame;
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb565;
use embedded_graphics::prelude::*;
use embedded_graphics::text::{Baseline, Text};

const W: u32 = 960;
const H: u32 = 600;

/// `bots` play `G` from `seed` for at most `turns` turns.
fn played<G: HostGame>(
    params: G::Params,
    config: &str,
    seed: u64,
    bots: &[&str],
    turns: u64,
) -> Box<G> {
    let specs = bots
        .iter()
        .map(|b| BotSpec::Builtin(b.to_string()))
        .collect();
    let setup = Setup::new(params, bots.len(), config);
    let mut plan = Plan::<G>::new(setup, seed, specs, Limits::default());
    plan.max_turns = Some(turns);
    play(&plan, None, None).unwrap().game
}

fn label<'a>(game: &'static str, bots: &'a [&'static str]) -> MatchLabel<'a> {
    MatchLabel {
        number: 3,
        game,
        config: "test",
        seed: 5,
        bots,
    }
}

/// `s` in `font` and `color` on the background, as the panel draws it.
fn glyphs(s: &str, font: &'static MonoFont<'static>, color: Rgb565) -> Picture {
    let size = font.character_size;
    let mut c = Canvas::<Rgb565>::new(size.width * s.len() as u32, size.height);
    Text::with_baseline(
        s,
        Point::zero(),
        MonoTextStyle::new(font, color),
        Baseline::Top,
    )
    .draw(&mut c)
    .unwrap();
    c.picture()
}

/// Where `s` (in `font` and `color`) is drawn in `pic`, pixel for pixel, with its whole box, in
/// the columns from `x0`; `None` if nowhere.
fn find(
    pic: &Picture,
    s: &str,
    font: &'static MonoFont<'static>,
    color: Rgb565,
    x0: u32,
) -> Option<(u32, u32)> {
    let g = glyphs(s, font, color);
    let lit: Vec<(u32, u32)> = (0..g.height)
        .flat_map(|y| (0..g.width).map(move |x| (x, y)))
        .filter(|&(x, y)| g.at(x, y) != Some([0; 3]))
        .collect();
    let (&(lx, ly), want) = (lit.first()?, color.to_rgb());
    for y in 0..pic.height.saturating_sub(g.height) + 1 {
        for x in x0..pic.width.saturating_sub(g.width) + 1 {
            if pic.at(x + lx, y + ly) != Some(want) {
                continue;
            }
            let all = (0..g.height)
                .all(|gy| (0..g.width).all(|gx| pic.at(x + gx, y + gy) == g.at(gx, gy)));
            if all {
                return Some((x, y));
            }
        }
    }
    None
}

/// The side panel's left edge.
fn side_x() -> u32 {
    W - SIDE_WIDTH
}

/// Asserts that `s` is drawn in the panel in the panel's font.
#[track_caller]
fn in_panel(pic: &Picture, s: &str, color: Rgb565) -> (u32, u32) {
    match find(pic, s, FONT, color, side_x()) {
        Some(at) => at,
        None => panic!("{s:?} is not in the panel"),
    }
}

/// The checks every game passes: drawn inside the display, every seat's name in its colour in
/// the panel (in seat order, top to bottom), the legend, and every seat's colour in the board
/// picture. Returns the picture.
fn common<G: Screen>(game: &G, name: &'static str, bots: &[&'static str]) -> Picture {
    let label = label(name, bots);
    let mut canvas = Canvas::<Rgb565>::new(W, H);
    draw_game(game, &label, &mut canvas).unwrap();
    assert_eq!(
        canvas.clipped(),
        0,
        "{name}: pixels drawn outside the display"
    );
    let pic = Display::Desktop.game(game, &label);
    assert_eq!(pic, canvas.picture(), "{name}: the display draws the same");
    assert_eq!((pic.width, pic.height), (W, H));
    let mut last = 0;
    for seat in 0..game.seats() {
        let who = format!("{seat} {}", bots[seat % bots.len()]);
        let at = find(&pic, &who, BOLD, Rgb565::seat(seat), side_x())
            .unwrap_or_else(|| panic!("{name}: seat {seat}'s name {who:?} is not in the panel"));
        assert!(
            at.1 > last,
            "{name}: seat {seat}'s name is below the one before"
        );
        last = at.1;
        let colour = Rgb565::seat(seat).to_rgb();
        let shown = (0..side_x()).any(|x| (24..H).any(|y| pic.at(x, y) == Some(colour)));
        assert!(shown, "{name}: seat {seat}'s colour is not on the board");
    }
    let legend = find(&pic, "Legend", BOLD, Rgb565::text(), side_x())
        .unwrap_or_else(|| panic!("{name}: no legend"));
    assert!(legend.1 > last, "{name}: the legend comes after the seats");
    // Something is drawn under the heading: the legend's first line.
    let below = (side_x()..W)
        .any(|x| (legend.1 + 16..legend.1 + 34).any(|y| pic.at(x, y).is_some_and(|p| p != [0; 3])));
    assert!(below, "{name}: the legend is empty");
    // The header names the game.
    let title = format!("{name} test seed 5");
    assert!(
        find(
            &pic,
            &title,
            &embedded_graphics::mono_font::ascii::FONT_10X20,
            Rgb565::text(),
            0
        )
        .is_some_and(|(_, y)| y < 22),
        "{name}: the header"
    );
    pic
}

#[test]
fn the_layout_is_the_desktop_one_only_on_a_large_display() {
    for (w, h) in [(128, 64), (240, 240), (320, 240)] {
        let l = Layout::of(Size::new(w, h));
        assert!(
            l.side.is_none() && l.compact(),
            "{w}x{h} is a board's layout"
        );
    }
    let l = Layout::of(Size::new(W, H));
    let side = l.side.expect("the desktop has a side panel");
    assert!(!l.compact());
    assert_eq!(side.top_left.x as u32 + side.size.width, W);
    assert!(l.body.top_left.x as u32 + l.body.size.width <= side.top_left.x as u32);
    assert_eq!(Display::Desktop.size(), (W, H));
}

#[test]
fn tower_defense_shows_life_gold_towers_and_the_leading_invaders() {
    let bots = ["strong", "army"];
    let params = td::Params {
        variant: td::Variant::Duel,
    };
    // A turn where a leading invader is stunned, so that its stun shows too.
    let mut turns = 60;
    let g = loop {
        let g = played::<TowerDefense>(params, "duel", 7, &bots, turns);
        let stunned = (0..2).any(|b| {
            (0..SPACES)
                .rev()
                .filter_map(|p| g.invader(b, p))
                .take(3)
                .any(|i| i.stun_time > 0)
        });
        if stunned || turns > 600 {
            break g;
        }
        turns += 20;
    };
    let pic = common(&*g, "tower-defense", &bots);
    let mut stun_seen = false;
    for seat in 0..2 {
        let income = g.players().unwrap()[seat].income;
        in_panel(
            &pic,
            &format!(
                "life {}  gold {}  income {}",
                g.life(seat),
                g.gold(seat),
                income
            ),
            Rgb565::text(),
        );
        let towers: Vec<_> = g.towers(seat ^ 1).collect();
        let top = towers.iter().map(|t| t.level).max().unwrap_or(0);
        let count = |k| towers.iter().filter(|t| t.kind == k).count();
        in_panel(
            &pic,
            &format!(
                "towers {}: {}T {}S {}B, top level {top}",
                towers.len(),
                count(td::TowerKind::Turret),
                count(td::TowerKind::Stunner),
                count(td::TowerKind::Bomb)
            ),
            Rgb565::text(),
        );
        let invaders: Vec<_> = g.invaders(seat).collect();
        assert!(
            !invaders.is_empty(),
            "seat {seat} has invaders at turn {turns}"
        );
        for i in invaders.iter().rev().take(3) {
            let mut line = format!("@{:<2} hp {}/{} def {}", i.pos, i.hp, i.maxhp, i.defense);
            if i.stun_time > 0 {
                line += &format!(" stun {}", i.stun_time);
                stun_seen = true;
            }
            in_panel(&pic, &line, Rgb565::seat(seat));
        }
    }
    assert!(stun_seen, "no stunned invader by turn {turns}");
}

#[test]
fn ballroom_shows_class_health_score_gold_and_item() {
    let bots = ["strong", "holder", "random", "strong"];
    let params = bb::Params {
        ruleset: bb::Ruleset::Engine,
        classes: None,
    };
    let g = played::<Ballroom>(params, "engine", 3, &bots, 30);
    let pic = common(&*g, "ballroom", &bots);
    for (seat, p) in g.players().iter().enumerate() {
        let class = p.class.name().to_lowercase();
        let s = p.stats();
        in_panel(
            &pic,
            &format!(
                "{class} health {}/{} score {}",
                p.health, s.max_health, p.score
            ),
            Rgb565::text(),
        );
        let item = p.item.name().to_lowercase().replace('_', " ");
        let (x, _) = in_panel(
            &pic,
            &format!("gold {}  item {item}", p.gold),
            Rgb565::text(),
        );
        assert!(x > side_x(), "seat {seat}");
    }
}

#[test]
fn colorfight_shows_cells_gold_energy_bases_and_mines() {
    let bots = ["strategist", "expander", "random"];
    let params = cf::Params {
        variant: cf::Variant::Conquest,
        width: 20,
        height: 12,
        players: 3,
        ticks: 600,
        respawn: cf::Respawn::Auto,
    };
    let g = played::<ColorFight>(params, "conquest", 3, &bots, 250);
    let pic = common(&*g, "colorfight", &bots);
    let tenths = |n: cf::Num| {
        // Rounded down to a tenth, as an f64 prints it (independent of the screen's own code).
        let t = (n.to_num::<f64>() * 10.0).floor() / 10.0;
        format!("{t:.1}")
    };
    for seat in 0..3 {
        let p = g.player(seat).unwrap();
        in_panel(
            &pic,
            &format!("gold {}  energy {}", tenths(p.gold), tenths(p.energy)),
            Rgb565::text(),
        );
        let building = if p.all_bases() > p.bases {
            " +1 built"
        } else {
            ""
        };
        in_panel(
            &pic,
            &format!(
                "bases {}/3{building}  mines {}g {}e",
                p.bases, p.gold_mines, p.energy_mines
            ),
            Rgb565::text(),
        );
    }
}

#[test]
fn ants_shows_each_players_ants_hills_and_score() {
    let bots = ["hunter", "strong"];
    let map = AntsMap::parse(arena_firmware::games::ants::MAP).unwrap();
    let g = played::<Ants>(AntsParams::new(map, 300), "24x24", 1, &bots, 40);
    let pic = common(&*g, "ants", &bots);
    for seat in 0..2 {
        let hills = g
            .hills()
            .iter()
            .filter(|h| h.owner as usize == seat && h.end_turn.is_none())
            .count();
        assert!(g.ant_count(seat) > 0);
        in_panel(
            &pic,
            &format!(
                "ants {}  hills {hills}  score {}",
                g.ant_count(seat),
                g.score(seat)
            ),
            Rgb565::text(),
        );
    }
}

#[test]
fn mammut_shows_points_furs_and_each_hand() {
    let bots = ["cautious", "greedy", "random", "greedy", "cautious"];
    let g = played::<Mammut>(mm::Params, "five", 4, &bots, 12);
    let pic = common(&*g, "mammut", &bots);
    for seat in 0..5 {
        let (p, f) = (g.points()[seat], g.furs()[seat]);
        let a = g.animals()[seat].count_ones();
        in_panel(
            &pic,
            &format!("points {p}  furs {f}  animals {a}"),
            Rgb565::text(),
        );
        if g.mover() == Some(seat) {
            in_panel(&pic, "> to move", Rgb565::text());
        }
        // The hand's first line: its size and the first side it shows.
        let hand = g.hand(seat);
        let first = Side::ALL
            .iter()
            .map(|&s| (s, hand.showing(s, g.deal()).len()))
            .find(|&(_, n)| n > 0);
        let start = match first {
            Some((side, n)) => format!("hand {}: {} {n}", hand.len(), side.name()),
            None => format!("hand {}:", hand.len()),
        };
        in_panel(&pic, &start, Rgb565::seat(seat));
    }
}

#[test]
fn a_long_bot_name_is_cut_at_the_display_edge() {
    let bots: [&'static str; 2] = [
        "python3 host/examples/a_very_long_path/to_a_bot_with_a_long_name.py --with --flags",
        "strong",
    ];
    let params = td::Params {
        variant: td::Variant::Duel,
    };
    let g = played::<TowerDefense>(params, "duel", 7, &["strong", "strong"], 10);
    let label = label("tower-defense", &bots);
    let mut canvas = Canvas::<Rgb565>::new(W, H);
    draw_game(&*g, &label, &mut canvas).unwrap();
    assert_eq!(canvas.clipped(), 0, "pixels drawn outside the display");
    let pic = canvas.picture();
    // What fits of it: the panel's width from the name's indent, in the bold font.
    let room = (SIDE_WIDTH as usize - arena_firmware::screen::desktop::INDENT as usize)
        / BOLD.character_size.width as usize;
    let shown = &format!("0 {}", bots[0])[..room];
    if find(&pic, shown, BOLD, Rgb565::seat(0), side_x()).is_none() {
        arena_host::render::image_of(&pic, 1)
            .save("/tmp/long.png")
            .unwrap();
        panic!("{shown:?} is not in the panel");
    }
}
