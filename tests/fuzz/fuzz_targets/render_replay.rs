//! `arena render`'s path on any file: detect the game, re-play it (Ants on the map before the NUL
//! byte), read who played from the header, and draw the last state on one of the displays (chosen by
//! the input's length, so the golden files stay valid seeds). Never panics; a picture it makes has
//! the display's size.
#![no_main]
use arena_core::games::{
    ants::Ants, ballroom::Ballroom, colorfight::ColorFight, mammut::Mammut,
    tower_defense::TowerDefense,
};
use arena_host::commands::render::frame_at;
use arena_host::render::Display;
use arena_host::replay::{detect, Kind};
use libfuzzer_sys::fuzz_target;

const DISPLAYS: [Display; 4] = [
    Display::Oled128x64,
    Display::Gray128x64,
    Display::Rgb240x240,
    Display::Desktop,
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (map, replay) = match text.split_once('\0') {
        Some((map, replay)) => (Some(map), replay),
        None => (None, text),
    };
    let Ok(kind) = detect(replay) else {
        return;
    };
    let display = DISPLAYS[data.len() % DISPLAYS.len()];
    let drawn = match kind {
        Kind::TowerDefense => frame_at::<TowerDefense>(replay, map, display, 1, None),
        Kind::ColorFight => frame_at::<ColorFight>(replay, map, display, 1, None),
        Kind::Mammut => frame_at::<Mammut>(replay, map, display, 1, None),
        Kind::Ballroom => frame_at::<Ballroom>(replay, map, display, 1, None),
        Kind::Ants => frame_at::<Ants>(replay, map, display, 1, None),
    };
    match drawn {
        Ok((image, _turn)) => assert_eq!((image.width(), image.height()), display.size()),
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
