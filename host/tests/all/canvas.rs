//! The desktop canvas: the boards' screens drawn as a board draws them, in RGB as the emulator
//! shows them, and in a terminal.

use arena_firmware::screen::draw_game;
use arena_host::render::{ansi_gray, half_blocks, image_of, Canvas, Label, ToRgb};
use embedded_graphics::pixelcolor::{BinaryColor, Gray4, GrayColor, Rgb565, RgbColor};
use embedded_graphics::prelude::{DrawTarget, Pixel, Point};

#[test]
fn ansi_gray_picks_the_nearest_of_black_the_ramp_and_white() {
    assert_eq!(ansi_gray(0), 16);
    assert_eq!(ansi_gray(255), 231);
    assert_eq!(ansi_gray(8), 232);
    assert_eq!(ansi_gray(238), 255);
    assert_eq!(ansi_gray(17 * 8), 232 + 13); // 136 is 8 + 10 * 12.8: nearest 138
}

#[test]
fn half_blocks_put_the_top_pixel_in_front_and_the_bottom_one_behind() {
    let mut c = Canvas::<Gray4>::new(3, 3);
    c.draw_iter([
        Pixel(Point::new(0, 0), Gray4::WHITE),
        Pixel(Point::new(1, 1), Gray4::WHITE),
        Pixel(Point::new(2, 2), Gray4::WHITE),
    ])
    .unwrap();
    let text = half_blocks(&c);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 2, "3 pixel rows take 2 character rows");
    assert_eq!(
        rows[0],
        "\x1b[38;5;231m\x1b[48;5;16m\u{2580}\x1b[38;5;16m\x1b[48;5;231m\u{2580}\x1b[48;5;16m\u{2580}\x1b[0m"
    );
    // The last row has no pixel row below it: the background fills it.
    assert_eq!(
        rows[1],
        "\x1b[38;5;16m\x1b[48;5;16m\u{2580}\u{2580}\x1b[38;5;231m\u{2580}\x1b[0m"
    );
    assert_eq!(text.matches('\u{2580}').count(), 6);
}

/// Regression (fuzz target `render_replay`, LeakSanitizer on a ColorFight trace): a label made
/// again for the same names stores nothing new.
#[test]
fn labels_keep_each_name_once() {
    let bots = ["fuzz-label-a".to_string(), "fuzz-label-b".to_string()];
    let first = Label::new("colorfight", "fuzz-config", 1, &bots);
    let again = Label::new("colorfight", "fuzz-config", 2, &bots);
    assert!(std::ptr::eq(first.config, again.config));
    for (a, b) in first.bots.iter().zip(&again.bots) {
        assert!(std::ptr::eq(*a, *b));
    }
    assert_eq!(again.bots, ["fuzz-label-a", "fuzz-label-b"]);
    let other = Label::new("colorfight", "other-config", 1, &bots[..1]);
    assert_eq!(other.config, "other-config");
    assert_eq!(other.bots, ["fuzz-label-a"]);
}

#[test]
fn gray_levels_become_rgb_as_the_emulator_shows_them() {
    assert_eq!(Gray4::new(0).to_rgb(), [0, 0, 0]);
    assert_eq!(Gray4::new(1).to_rgb(), [17, 17, 17]);
    assert_eq!(Gray4::new(15).to_rgb(), [255, 255, 255]);
    assert_eq!(BinaryColor::On.to_rgb(), [255, 255, 255]);
    assert_eq!(Rgb565::WHITE.to_rgb(), [255, 255, 255]);
    assert_eq!(Rgb565::new(31, 0, 0).to_rgb(), [255, 0, 0]);
}

#[test]
fn the_gray_canvas_shows_what_the_boards_framebuffer_holds() {
    use arena_core::games::tower_defense::{Params, TowerDefense};
    use arena_core::{Game, Roster};
    let mut g = TowerDefense::new(&Params::default(), 3).unwrap();
    let mut bots = [
        TowerDefense::bot("strong", 1).unwrap(),
        TowerDefense::bot("random", 2).unwrap(),
    ];
    for _ in 0..150 {
        arena_core::step_with_bots(&mut g, &mut bots);
    }
    let label = Label::new(
        "tower-defense",
        "duel",
        3,
        &["strong".into(), "random".into()],
    );
    let mut frame = arena_firmware::Gray4Frame::new();
    draw_game(&g, &label.get(), &mut frame).unwrap();
    let mut canvas = Canvas::<Gray4>::new(128, 64);
    draw_game(&g, &label.get(), &mut canvas).unwrap();
    let image = image_of(&canvas.picture(), 1);
    let mut lit = 0;
    for y in 0..64u32 {
        for x in 0..128u32 {
            let v = frame.luma(x as usize, y as usize) * 17;
            assert_eq!(image.get_pixel(x, y).0, [v; 3], "({x}, {y})");
            lit += usize::from(v > 0);
        }
    }
    assert!(lit > 100, "the screen is not blank");
}

#[test]
fn the_canvas_clips_and_scales() {
    let mut c = Canvas::<Gray4>::new(2, 1);
    c.draw_iter([
        Pixel(Point::new(1, 0), Gray4::new(2)),
        Pixel(Point::new(2, 0), Gray4::WHITE),
        Pixel(Point::new(-1, 0), Gray4::WHITE),
    ])
    .unwrap();
    assert_eq!(c.pixel(0, 0), Some(Gray4::BLACK));
    assert_eq!(c.pixel(1, 0), Some(Gray4::new(2)));
    let img = image_of(&c.picture(), 3);
    assert_eq!(img.dimensions(), (6, 3));
    assert_eq!(img.get_pixel(5, 2).0, [34, 34, 34]);
    assert_eq!(img.get_pixel(2, 2).0, [0, 0, 0]);
}
