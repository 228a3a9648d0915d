//! The F411's way of drawing (a frame in memory, only its changes sent) against drawing straight
//! onto a panel, over every entry of the boards' lineup: the same picture at every frame, every
//! pixel sent at most once a frame, and far fewer pixels than a whole frame a turn (the whole
//! rotation, as the F411 plays it).

#![allow(clippy::unwrap_used)]

use arena_firmware::board::{Event, FrameKind, Listener, Parts};
use arena_firmware::cost::TurnClock;
use arena_firmware::diff::DiffFrame;
use arena_firmware::{Lineup, RunConfig};
use embedded_graphics::pixelcolor::Rgb565;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

mod common;
use common::Canvas;

const W: usize = 240;
const H: usize = 240;
type Lcd = DiffFrame<Rgb565, W, H, { W * H / 2 }>;

#[derive(Default)]
struct Ticks(u32);
impl TurnClock for Ticks {
    fn now(&mut self) -> u32 {
        self.0 += 3;
        self.0
    }
}

/// Draws every call on both: the diffing frame, and a canvas drawn directly.
struct Both {
    diff: Box<Lcd>,
    direct: Canvas<Rgb565>,
}

impl OriginDimensions for Both {
    fn size(&self) -> Size {
        Size::new(W as u32, H as u32)
    }
}

impl DrawTarget for Both {
    type Color = Rgb565;
    type Error = core::convert::Infallible;
    fn draw_iter<I: IntoIterator<Item = Pixel<Rgb565>>>(
        &mut self,
        pixels: I,
    ) -> Result<(), Self::Error> {
        let pixels: Vec<_> = pixels.into_iter().collect();
        self.diff.draw_iter(pixels.iter().copied())?;
        self.direct.draw_iter(pixels)
    }
    fn fill_solid(&mut self, area: &Rectangle, color: Rgb565) -> Result<(), Self::Error> {
        self.diff.fill_solid(area, color)?;
        self.direct.fill_solid(area, color)
    }
    fn clear(&mut self, color: Rgb565) -> Result<(), Self::Error> {
        self.diff.clear(color)?;
        self.direct.clear(color)
    }
}

/// The panel the changes go to, and what each frame sent.
struct Panel {
    shows: Vec<Option<Rgb565>>,
    /// Pixels sent by each frame: (match, kind, pixels, rectangles).
    sent: Vec<(u32, FrameKind, u32, u32)>,
}

impl Listener<Both> for Panel {
    fn event(&mut self, display: &mut Both, event: &Event<'_>) {
        let Event::Frame {
            number, turn, kind, ..
        } = *event
        else {
            return;
        };
        let mut writes = vec![0u8; W * H];
        let shows = &mut self.shows;
        let flushed = display
            .diff
            .flush(|rect, colors| {
                let mut n = 0u32;
                for (p, c) in rect.points().zip(colors) {
                    let i = p.y as usize * W + p.x as usize;
                    shows[i] = Some(c);
                    writes[i] += 1;
                    n += 1;
                }
                assert_eq!(n, rect.size.width * rect.size.height);
                Ok::<(), ()>(())
            })
            .unwrap();
        assert!(
            writes.iter().all(|&w| w <= 1),
            "match {number} turn {turn}: a pixel sent twice in one frame"
        );
        let differ = (0..W * H)
            .filter(|&i| self.shows[i] != Some(display.direct.pixels[i]))
            .count();
        assert_eq!(
            differ, 0,
            "match {number} turn {turn}: the panel differs from a direct drawing"
        );
        self.sent
            .push((number, kind, flushed.pixels, flushed.rects));
    }
}

#[test]
fn only_changes_are_sent_and_every_frame_is_the_direct_drawing() {
    let mut board = Parts {
        display: Both {
            diff: Box::new(Lcd::new()),
            direct: Canvas::new(W as u32, H as u32),
        },
        clock: Ticks::default(),
        listener: Panel {
            shows: vec![None; W * H],
            sent: Vec::new(),
        },
    };
    let entries = <arena_firmware::F411Arcade as Lineup>::LEN;
    let cfg = RunConfig {
        matches: Some(entries as u32),
        max_steps: 2000,
        ..RunConfig::default()
    };
    arena_firmware::run::<arena_firmware::F411Arcade, _>(&mut board, &cfg);
    let sent = &board.listener.sent;
    assert!(sent.len() > 8 * 40, "{} frames", sent.len());
    // The first frame knows nothing of the panel: all of it.
    assert_eq!(sent[0].2, (W * H) as u32);
    for m in 0..entries as u32 {
        let mut px: Vec<(u32, u32)> = sent
            .iter()
            .filter(|s| s.0 == m && s.1 == FrameKind::Game)
            .map(|s| (s.2, s.3))
            .collect();
        px.sort_unstable();
        println!(
            "match {m}: {} game frames, (pixels, rectangles) median {:?}, max {:?}",
            px.len(),
            px[px.len() / 2],
            px.last()
        );
    }
    assert_eq!(
        board.display.diff.overflow(),
        0,
        "a colour beyond the table"
    );
    let mut game: Vec<u32> = sent
        .iter()
        .skip(1)
        .filter(|s| s.1 == FrameKind::Game)
        .map(|s| s.2)
        .collect();
    game.sort_unstable();
    let median = game[game.len() / 2];
    let max = *game.last().unwrap();
    println!(
        "{} frames; game frames' pixels sent: median {median}, max {max} (a whole frame {})",
        sent.len(),
        W * H
    );
    // A turn sends its changes: a median under 10 KB of pixels (5,000 at two bytes).
    assert!(median < 5_000, "median {median} pixels a game frame");
}
