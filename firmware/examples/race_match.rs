//! Plays the throwaway Race lineup on the host and prints what a board would log: the same matches,
//! digests and results as `boards/qemu-lm3s6965` (run `cargo run -p arena-firmware --example race_match`).

#[path = "common/race.rs"]
mod race;

use arena_firmware::board::{Board, Event};
use arena_firmware::cost::NoClock;
use arena_firmware::{Gray4Frame, RunConfig};

struct Host {
    frame: Gray4Frame,
    clock: NoClock,
}

impl Board for Host {
    type Color = embedded_graphics::pixelcolor::Gray4;
    type Display = Gray4Frame;
    type Clock = NoClock;
    fn display(&mut self) -> &mut Gray4Frame {
        &mut self.frame
    }
    fn clock(&mut self) -> &mut NoClock {
        &mut self.clock
    }
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Start {
                number,
                game,
                config,
                seed,
                bots,
                ..
            } => {
                println!("start m={number} game={game} config={config} seed={seed} bots={bots:?}")
            }
            Event::Digest {
                number,
                turn,
                digest,
            } => println!("digest m={number} t={turn} d={digest}"),
            Event::End {
                number,
                turns,
                digest,
                outcome,
                ..
            } => {
                println!("final m={number} t={turns} d={digest} outcome={outcome:?}")
            }
            _ => {}
        }
    }
}

fn main() {
    let mut host = Host {
        frame: Gray4Frame::new(),
        clock: NoClock,
    };
    let cfg = RunConfig {
        matches: Some(3),
        ..RunConfig::default()
    };
    arena_firmware::run::<race::RaceLineup, _>(&mut host, &cfg);
}
