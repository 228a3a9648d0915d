//! The board's 128x64 screens as a person reads them: every seat on the screen, every line inside
//! it and in full contrast, every player's land and units told apart, on every display.

#![allow(clippy::unwrap_used)]

use arena_core::games::colorfight::{self as cf, ColorFight, Kind};
use arena_core::games::mammut::{self as mm, Mammut};
use arena_core::rng::bot_seed;
use arena_core::{step_with_bots, Game, Roster};
use arena_firmware::games::colorfight;
use arena_firmware::screen::{draw_game, draw_result, MatchLabel};
use arena_firmware::{Layout, Palette};
use embedded_graphics::pixelcolor::{BinaryColor, Gray4, Rgb565};
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

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
