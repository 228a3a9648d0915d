//! The page's interface: plain `extern "C"` functions over this module's memory (no bindings
//! generator). The page writes the script into a buffer this module hands out ([`buffer`]),
//! [`open`]s it, then asks for states by index: [`seek`], [`draw`] (RGBA pixels, read at
//! [`pixels`]), [`info`] and [`summary`] (JSON text, read at [`text`]). Numbers are `u32`;
//! pointers are offsets into the module's memory.
//!
//! `no_mangle` counts as unsafe code: it is allowed here only, for the exports.
#![allow(unsafe_code)]

use crate::display::{Display, Picture};
use crate::script::{game_of, Script};
use crate::view::View;
use crate::Viewed;
use std::sync::Mutex;

/// A view of any game.
trait AnyView: Send {
    fn states(&self) -> usize;
    fn index_of_turn(&self, turn: u32) -> Option<usize>;
    fn turn_of(&self, index: usize) -> Option<u32>;
    fn seek(&mut self, index: usize);
    fn draw(&self, display: Display) -> Picture;
    fn info(&self) -> String;
    fn summary(&self) -> String;
}

impl<G: Viewed + Send> AnyView for View<G>
where
    G::Start: Send,
    G::Part: Send,
{
    fn states(&self) -> usize {
        View::states(self)
    }
    fn index_of_turn(&self, turn: u32) -> Option<usize> {
        View::index_of_turn(self, turn)
    }
    fn turn_of(&self, index: usize) -> Option<u32> {
        View::turn_of(self, index)
    }
    fn seek(&mut self, index: usize) {
        View::seek(self, index)
    }
    fn draw(&self, display: Display) -> Picture {
        View::draw(self, display)
    }
    fn info(&self) -> String {
        View::info(self)
    }
    fn summary(&self) -> String {
        View::summary(self)
    }
}

struct Module {
    input: Vec<u8>,
    view: Option<Box<dyn AnyView>>,
    pixels: Vec<u8>,
    size: (u32, u32),
    text: String,
}

static MODULE: Mutex<Module> = Mutex::new(Module {
    input: Vec::new(),
    view: None,
    pixels: Vec::new(),
    size: (0, 0),
    text: String::new(),
});

fn with<T>(f: impl FnOnce(&mut Module) -> T) -> T {
    let mut m = MODULE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f(&mut m)
}

fn open_as<G: Viewed + Send>(bytes: &[u8]) -> Result<Box<dyn AnyView>, crate::Error>
where
    G::Start: Send,
    G::Part: Send,
{
    let script = Script::<G>::decode(bytes)?;
    Ok(Box::new(View::new(script, G::NAME)?))
}

fn open_any(bytes: &[u8]) -> Result<Box<dyn AnyView>, crate::Error> {
    let game = game_of(bytes)?;
    macro_rules! open {
        ($($folder:ident: $game:ty),* $(,)?) => {
            $(if game == <$game as arena_core::Game>::NAME {
                return open_as::<$game>(bytes);
            })*
        };
    }
    arena_core::with_games!(open);
    Err(crate::code::error(format!("no viewer for the game {game}")))
}

/// A buffer of `len` bytes for the script; returns where it is.
#[no_mangle]
pub extern "C" fn buffer(len: u32) -> u32 {
    with(|m| {
        m.input.clear();
        m.input.resize(len as usize, 0);
        m.input.as_ptr() as u32
    })
}

/// Reads the script in the buffer and re-plays it; 1 on success, 0 with the error at [`text`].
#[no_mangle]
pub extern "C" fn open() -> u32 {
    with(|m| {
        let input = std::mem::take(&mut m.input);
        match open_any(&input) {
            Ok(v) => {
                m.view = Some(v);
                1
            }
            Err(e) => {
                m.view = None;
                m.text = e.to_string();
                0
            }
        }
    })
}

/// How many states the match has.
#[no_mangle]
pub extern "C" fn states() -> u32 {
    with(|m| m.view.as_ref().map_or(0, |v| v.states() as u32))
}

/// The index of the first state at `turn`, or `u32::MAX` if the match never reaches it.
#[no_mangle]
pub extern "C" fn index_of_turn(turn: u32) -> u32 {
    with(|m| {
        m.view
            .as_ref()
            .and_then(|v| v.index_of_turn(turn))
            .map_or(u32::MAX, |i| i as u32)
    })
}

/// The turn of state `index` (`u32::MAX` past the end).
#[no_mangle]
pub extern "C" fn turn_of(index: u32) -> u32 {
    with(|m| {
        m.view
            .as_ref()
            .and_then(|v| v.turn_of(index as usize))
            .unwrap_or(u32::MAX)
    })
}

/// Shows state `index`.
#[no_mangle]
pub extern "C" fn seek(index: u32) {
    with(|m| {
        if let Some(v) = m.view.as_mut() {
            v.seek(index as usize);
        }
    })
}

/// Draws the shown state on display `display` (0 oled128x64, 1 gray128x64, 2 rgb240x240,
/// 3 desktop); returns the number of bytes at [`pixels`] (width x height x 4).
#[no_mangle]
pub extern "C" fn draw(display: u32) -> u32 {
    with(|m| {
        let Some(d) = Display::ALL.get(display as usize).copied() else {
            return 0;
        };
        match m.view.as_ref().map(|v| v.draw(d)) {
            Some(p) => {
                m.size = (p.width, p.height);
                m.pixels = p.rgba();
            }
            None => {
                m.size = (0, 0);
                m.pixels.clear();
            }
        }
        m.pixels.len() as u32
    })
}

/// The last drawing's width.
#[no_mangle]
pub extern "C" fn width() -> u32 {
    with(|m| m.size.0)
}

/// The last drawing's height.
#[no_mangle]
pub extern "C" fn height() -> u32 {
    with(|m| m.size.1)
}

/// The length of the last text (the error of a failed [`open`]).
#[no_mangle]
pub extern "C" fn text_len() -> u32 {
    with(|m| m.text.len() as u32)
}

/// Where the last drawing is.
#[no_mangle]
pub extern "C" fn pixels() -> u32 {
    with(|m| m.pixels.as_ptr() as u32)
}

/// The shown state as JSON; returns its length in bytes, at [`text`].
#[no_mangle]
pub extern "C" fn info() -> u32 {
    with(|m| {
        m.text = m.view.as_ref().map_or_else(String::new, |v| v.info());
        m.text.len() as u32
    })
}

/// The match as JSON; returns its length in bytes, at [`text`].
#[no_mangle]
pub extern "C" fn summary() -> u32 {
    with(|m| {
        m.text = m.view.as_ref().map_or_else(String::new, |v| v.summary());
        m.text.len() as u32
    })
}

/// Where the last text is (UTF-8).
#[no_mangle]
pub extern "C" fn text() -> u32 {
    with(|m| m.text.as_ptr() as u32)
}
