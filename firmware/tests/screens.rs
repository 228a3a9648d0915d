//! The board's 128x64 screens as a person reads them: every seat on the screen, every line inside
//! it and in full contrast, every player's land and units told apart, on every display.

#![allow(clippy::unwrap_used)]

use arena_core::games::ants::{self as ants_core, AntsGame};
use arena_core::games::colorfight::{self as cf, ColorFight, Kind};
use arena_core::games::mammut::{self as mm, Mammut};
use arena_core::rng::bot_seed;
use arena_core::{step_with_bots, Game, Roster};
use arena_firmware::games::ants::{self, AntsBoard};
use arena_firmware::games::colorfight;
use arena_firmware::screen::{draw_game, draw_result, MatchLabel};
use arena_firmware::{Layout, Palette};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::{BinaryColor, Gray4, Rgb565};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;
use embedded_graphics::text::{Baseline, Text};

mod common;
use common::Canvas;

/// `G` played to its end by the built-in bots `names`.
fn finished<G: Roster>(params: &G::Params, seed: u64, names: &[&str]) -> G {
    let mut g = G::new(params, seed).unwrap();
    let mut bots: Vec<G::Bot> = names
        .iter()
        .enumerate()
        .map(|(s, n)| G::bot(n, bot_seed(seed, s)).unwrap())
        .collect();
    while !g.is_over() {
        step_with_bots(&mut g, &mut bots);
    }
    g
}

const MAMMUT_BOTS: [&str; 5] = ["cautious", "greedy", "random", "greedy", "cautious"];

fn mammut_label(seed: u64) -> MatchLabel<'static> {
    MatchLabel {
        number: 2,
        game: "mammut",
        config: "five",
        seed,
        bots: &MAMMUT_BOTS,
    }
}

/// Mammut's five seats all get their line on the gray OLED (the fifth was cut off), and nothing is
/// drawn in the dim gray that the OLED barely shows (the seed line was).
#[test]
fn the_result_screen_shows_every_mammut_seat_in_full_contrast() {
    for seed in 0..4 {
        let g: Mammut = finished(&mm::Params, seed, &MAMMUT_BOTS);
        let mut c = Canvas::<Gray4>::new(128, 64);
        draw_result(&mammut_label(seed), &g, g.turn(), &mut c).unwrap();
        for seat in 0..5 {
            assert!(
                c.pixels.contains(&Gray4::seat(seat)),
                "seed {seed}: seat {seat}'s line is not on the screen"
            );
        }
        assert!(
            !c.pixels.contains(&Gray4::dim()),
            "seed {seed}: a line in the dim gray"
        );
        // Canvas fails on any pixel outside the display; the lines are inside it on the other
        // displays too.
        draw_result(
            &mammut_label(seed),
            &g,
            g.turn(),
            &mut Canvas::<BinaryColor>::new(128, 64),
        )
        .unwrap();
        draw_result(
            &mammut_label(seed),
            &g,
            g.turn(),
            &mut Canvas::<Rgb565>::new(240, 240),
        )
        .unwrap();
    }
}

/// The seed is on the screen in the text's colour (it was the dim last line, or cut off).
#[test]
fn the_result_screen_shows_the_seed_where_it_can_be_read() {
    let g: Mammut = finished(&mm::Params, 1, &MAMMUT_BOTS);
    let mut with = Canvas::<Gray4>::new(128, 64);
    draw_result(&mammut_label(1), &g, g.turn(), &mut with).unwrap();
    let mut other = Canvas::<Gray4>::new(128, 64);
    draw_result(&mammut_label(98_765), &g, g.turn(), &mut other).unwrap();
    // Only the seed differs: the pixels that differ are text-coloured.
    let differ: Vec<usize> = (0..with.pixels.len())
        .filter(|&i| with.pixels[i] != other.pixels[i])
        .collect();
    assert!(!differ.is_empty(), "the seed is not on the screen");
    assert!(differ.iter().all(
        |&i| [Gray4::text(), Gray4::background()].contains(&with.pixels[i])
            && [Gray4::text(), Gray4::background()].contains(&other.pixels[i])
    ));
}

fn colorfight_30x30() -> ColorFight {
    let params = cf::Params {
        variant: cf::Variant::Conquest,
        width: 30,
        height: 30,
        players: 4,
        ticks: 600,
        respawn: cf::Respawn::Auto,
    };
    let mut g = ColorFight::new(&params, 5).unwrap();
    let names = ["strategist", "expander", "strategist", "expander"];
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(s, n)| ColorFight::bot(n, bot_seed(5, s)).unwrap())
        .collect();
    for _ in 0..300 {
        step_with_bots(&mut g, &mut bots);
    }
    g
}

/// Where cell `idx` of `g` is drawn on a 128x64 screen, and its side.
fn cf_cell(g: &ColorFight, idx: usize) -> (Point, u32) {
    let layout = Layout::of(Size::new(128, 64));
    let place = layout.grid_with_panel(30, 30, colorfight::PANEL_CHARS, 4);
    let (x, y) = g.coords(idx);
    let c = place.cell as i32;
    (place.origin + Point::new(x * c, y * c), place.cell)
}

/// On the 1-bit OLED every player's land shows (odd seats' outlines vanished at 1 pixel a cell),
/// and on every display each mine shows (nothing marked them under 3 pixels a cell).
#[test]
fn colorfight_30x30_shows_every_players_land_and_every_mine() {
    let g = colorfight_30x30();
    let label = MatchLabel {
        number: 1,
        game: "colorfight",
        config: "conquest-30x30",
        seed: 5,
        bots: &[],
    };
    let mut mono = Canvas::<BinaryColor>::new(128, 64);
    draw_game(&g, &label, &mut mono).unwrap();
    let mut gray = Canvas::<Gray4>::new(128, 64);
    draw_game(&g, &label, &mut gray).unwrap();
    let mut lit = [0usize; 4];
    let mut mines = 0;
    for (idx, cell) in g.cells().iter().enumerate() {
        let (at, side) = cf_cell(&g, idx);
        let area = Rectangle::new(at, Size::new(side, side));
        if let Some(s) = cell.owner_seat() {
            lit[s] += area
                .points()
                .filter(|p| mono.at(p.x as u32, p.y as u32).is_on())
                .count();
        }
        if cell.kind != Kind::Normal && cell.attacker_seat().is_none() {
            mines += 1;
            assert_eq!(
                gray.at(at.x as u32, at.y as u32),
                Gray4::alert(),
                "mine at cell {idx}"
            );
        }
    }
    assert!(mines > 0, "the test needs mines");
    for (s, p) in g.players().iter().enumerate() {
        if p.cells > 0 {
            assert!(
                lit[s] > 0,
                "seat {s}'s {} cells are blank on the 1-bit display",
                p.cells
            );
        }
    }
}

/// An official 4-player Ants map of 120 x 120 squares: larger than a 128x64 screen's body.
const BIG_MAP: &str = "ants/maps/multi_hill_maze_04p_02.map";

type BigAnts = AntsGame<14_400, 1024, 1024, 16, 256>;

/// `G` after `turns` turns of the built-in "strong" bot in every seat.
fn ants_after<G: Roster>(params: &G::Params, turns: u32) -> Box<G> {
    let mut g = Box::new(G::new(params, 3).unwrap());
    let mut bots: Vec<G::Bot> = (0..g.seats())
        .map(|s| G::bot("strong", bot_seed(3, s)).unwrap())
        .collect();
    for _ in 0..turns {
        step_with_bots(&mut *g, &mut bots);
    }
    g
}

fn big_ants() -> Box<BigAnts> {
    // Where firmware/build.rs reads the golden data.
    let golden = std::env::var_os("ARENA_GOLDEN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/golden")
        });
    let path = golden.join(BIG_MAP);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set ARENA_GOLDEN)", path.display()));
    let params = ants_core::Params::new(ants_core::Map::parse(&text).unwrap(), 200);
    ants_after::<BigAnts>(&params, 30)
}

fn board_ants() -> Box<AntsBoard> {
    ants_after::<AntsBoard>(&ants::params(200).unwrap(), 30)
}

fn ants_label() -> MatchLabel<'static> {
    MatchLabel {
        number: 3,
        game: "ants",
        config: "big",
        seed: 3,
        bots: &[],
    }
}

/// Whether `line` stands whole somewhere on `screen` in `color`, on the background (not cut off,
/// not drawn over by the map).
fn shows_line<C: Palette + Default>(
    screen: &Canvas<C>,
    line: &str,
    color: C,
    font: &MonoFont,
) -> bool {
    let (cw, ch) = (font.character_size.width, font.character_size.height);
    let w = cw * line.len() as u32;
    let mut glyphs = Canvas::<C>::new(w, ch);
    glyphs.pixels.fill(C::background());
    Text::with_baseline(
        line,
        Point::zero(),
        MonoTextStyle::new(font, color),
        Baseline::Top,
    )
    .draw(&mut glyphs)
    .unwrap();
    let (sw, sh) = (screen.size.width, screen.size.height);
    (0..=sh.saturating_sub(ch)).any(|y0| {
        (0..=sw.saturating_sub(w))
            .any(|x0| (0..ch).all(|y| (0..w).all(|x| screen.at(x0 + x, y0 + y) == glyphs.at(x, y))))
    })
}

fn ants_panel_shows<C: Palette + Default>(g: &BigAnts, w: u32, h: u32) {
    let mut c = Canvas::<C>::new(w, h);
    draw_game(g, &ants_label(), &mut c).unwrap();
    let font = Layout::of(Size::new(w, h)).font;
    for seat in 0..g.players() {
        let line = format!("{} {}p {}a", seat, g.score(seat), g.ant_count(seat));
        let color = if g.is_alive(seat) {
            C::seat(seat)
        } else {
            C::dim()
        };
        assert!(
            shows_line(&c, &line, color, font),
            "{w}x{h}, {} bits: seat {seat}'s line {line:?} is not whole on the screen",
            C::DEPTH
        );
    }
}

/// On a map larger than the screen the score column stays whole and uncovered (the map was drawn
/// over it and off the display); the canvas fails on any pixel outside the display.
#[test]
fn ants_on_a_big_map_keep_every_score_line_on_the_screen() {
    let g = big_ants();
    assert!(g.rows() > 64 && g.players() == 4);
    ants_panel_shows::<BinaryColor>(&g, 128, 64);
    ants_panel_shows::<Gray4>(&g, 128, 64);
    ants_panel_shows::<Rgb565>(&g, 240, 240);
}

/// What a `w` x `h` display of `C` shows of an Ants game, cell by cell.
struct Pictures<C> {
    /// The display, for the messages: "128x64, 1 bits".
    at: String,
    /// For every ant alone in its cell (no other ant there; water, food and hills are drawn under
    /// the ants): the pixels of the cell, by seat.
    ants: Vec<Vec<Vec<C>>>,
    /// Every cell that shows water and nothing over it.
    water: Vec<Vec<C>>,
    /// Every cell that shows one standing hill and no ant or food, by the hill's seat.
    hills: Vec<Vec<Vec<C>>>,
    /// The side of a cell.
    cell: u32,
}

/// [`Pictures`] of `g` on a `w` x `h` display of `C`. Every lone ant must show (not be blank).
fn pictures<C, const SQ: usize, const A: usize, const F: usize, const H: usize, const O: usize>(
    g: &AntsGame<SQ, A, F, H, O>,
    w: u32,
    h: u32,
) -> Pictures<C>
where
    C: Palette + Default,
{
    #[derive(Default)]
    struct Holds {
        water: bool,
        ants: usize,
        over: usize,
        hills: Vec<u8>,
    }
    let at = format!("{w}x{h}, {} bits", C::DEPTH);
    let mut c = Canvas::<C>::new(w, h);
    draw_game(g, &ants_label(), &mut c).unwrap();
    let place = ants::place(g, &Layout::of(Size::new(w, h)), C::DEPTH);
    let cols = g.cols() as u32;
    let cell_of = |sq: usize| {
        let sq = sq as u32;
        ((sq % cols) / place.squares, (sq / cols) / place.squares)
    };
    let pixels = |&(cx, cy): &(u32, u32)| -> Vec<C> {
        let at = place.at(cx * place.squares, cy * place.squares);
        Rectangle::new(at, Size::new(place.cell, place.cell))
            .points()
            .map(|p| c.at(p.x as u32, p.y as u32))
            .collect()
    };
    let mut cells = std::collections::BTreeMap::<(u32, u32), Holds>::new();
    for sq in 0..g.rows() as usize * g.cols() as usize {
        if g.is_water(sq) {
            cells.entry(cell_of(sq)).or_default().water = true;
        }
    }
    for a in g.ants() {
        cells.entry(cell_of(a.sq as usize)).or_default().ants += 1;
    }
    let over = g
        .ants()
        .iter()
        .map(|a| a.sq)
        .chain(g.food().iter().map(|f| f.sq));
    for sq in over {
        cells.entry(cell_of(sq as usize)).or_default().over += 1;
    }
    for hill in g.hills().iter().filter(|h| h.end_turn.is_none()) {
        cells
            .entry(cell_of(hill.sq as usize))
            .or_default()
            .hills
            .push(hill.owner);
    }
    let mut ants = vec![Vec::new(); g.players()];
    for a in g.ants() {
        let cell = cell_of(a.sq as usize);
        if cells[&cell].ants != 1 {
            continue;
        }
        let mark = pixels(&cell);
        assert!(
            mark.iter().any(|&p| p != C::background()),
            "{at}: an ant of seat {} is blank",
            a.owner
        );
        ants[a.owner as usize].push(mark);
    }
    let water = (cells.iter())
        .filter(|(_, x)| x.water && x.over == 0 && x.hills.is_empty())
        .map(|(at, _)| pixels(at))
        .collect();
    let mut hills = vec![Vec::new(); g.players()];
    for (at, x) in &cells {
        if let ([seat], 0) = (x.hills.as_slice(), x.over) {
            hills[*seat as usize].push(pixels(at));
        }
    }
    Pictures {
        at,
        ants,
        water,
        hills,
        cell: place.cell,
    }
}

/// [`Pictures`] of `g` on every display: the OLEDs' 1 and 4 bits, the LCD's 16.
struct EveryDisplay {
    mono: Pictures<BinaryColor>,
    gray: Pictures<Gray4>,
    lcd: Pictures<Rgb565>,
}

fn every_display<
    const SQ: usize,
    const A: usize,
    const F: usize,
    const H: usize,
    const O: usize,
>(
    g: &AntsGame<SQ, A, F, H, O>,
) -> EveryDisplay {
    EveryDisplay {
        mono: pictures(g, 128, 64),
        gray: pictures(g, 128, 64),
        lcd: pictures(g, 240, 240),
    }
}

/// Asserts that no mark of `mine` is among `theirs`; `what` says which look alike.
fn apart<C: PartialEq>(mine: &[Vec<C>], theirs: &[Vec<C>], what: impl Fn() -> String) {
    assert!(mine.iter().all(|m| !theirs.contains(m)), "{}", what());
}

/// A check of the [`Pictures`] of one display.
trait Check {
    fn check<C: Palette>(p: &Pictures<C>);
}

/// `K`'s check of the board's map and the big one, on every display.
fn on_every_display<K: Check>() {
    for d in [every_display(&*board_ants()), every_display(&*big_ants())] {
        K::check(&d.mono);
        K::check(&d.gray);
        K::check(&d.lcd);
    }
}

struct AntsToldApart;

impl Check for AntsToldApart {
    fn check<C: Palette>(p: &Pictures<C>) {
        let at = &p.at;
        for (s, mine) in p.ants.iter().enumerate() {
            assert!(
                !mine.is_empty(),
                "{at}: the test needs an ant of seat {s} alone in its cell"
            );
            for (t, theirs) in p.ants.iter().enumerate().skip(s + 1) {
                apart(mine, theirs, || {
                    format!("{at}: seats {s} and {t} have ants that look alike")
                });
            }
        }
    }
}

/// Every player's ants look different from every other's on every display: on the 1-bit OLED
/// each seat's ant was the same lit square (or single pixel on a big map).
#[test]
fn every_players_ants_are_told_apart_on_every_display() {
    on_every_display::<AntsToldApart>();
}

struct HillsAndWaterToldApart;

impl Check for HillsAndWaterToldApart {
    fn check<C: Palette>(p: &Pictures<C>) {
        let Pictures {
            at,
            ants,
            water,
            hills,
            cell,
        } = p;
        assert!(!water.is_empty(), "{at}: the test needs a cell of water");
        for (s, mine) in ants.iter().enumerate() {
            apart(mine, water, || {
                format!("{at}: an ant of seat {s} looks like water")
            });
        }
        for (s, mine) in hills.iter().enumerate() {
            assert!(
                !mine.is_empty(),
                "{at}: the test needs a free hill of seat {s}"
            );
            apart(mine, water, || {
                format!("{at}: a hill of seat {s} looks like water")
            });
            for (t, theirs) in hills.iter().enumerate().skip(s + 1) {
                apart(mine, theirs, || {
                    format!("{at}: the hills of seats {s} and {t} look alike")
                });
            }
            // One pixel is one pixel: at that size a hill and an ant of its seat are its colour.
            if *cell >= 2 {
                for (t, theirs) in ants.iter().enumerate() {
                    apart(mine, theirs, || {
                        format!("{at}: a hill of seat {s} looks like an ant of seat {t}")
                    });
                }
            }
        }
    }
}

/// On the 1-bit OLED seat 0's ants were solid like the water, and every hill was the same lit
/// outline (a solid square at 2 pixels a cell): water, each seat's hills and each seat's ants
/// now all look different, on every display, at one square a cell and at several.
#[test]
fn water_and_every_players_hills_are_told_apart_on_every_display() {
    on_every_display::<HillsAndWaterToldApart>();
}
