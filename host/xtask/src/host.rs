//! The host side of the cross-platform checks: the same lineup, the same match loop and the same
//! screens, recording what the board logs and the frames it shows.

use arena_firmware::board::{Event, FrameKind, Listener, Parts};
use arena_firmware::cost::NoClock;
use arena_firmware::{Gray4Frame, RunConfig};
use embedded_graphics::draw_target::DrawTarget;

/// The house's lineup, as the boards play it ([`play`] records it).
pub type Lineup = arena_firmware::Arcade;

/// The matches of one rotation (every entry of the board's lineup once).
pub fn rotation() -> u32 {
    <Lineup as arena_firmware::Lineup>::LEN as u32
}

/// What a board logs and shows, recorded on the host: the listener of a host board whose display
/// is of type `D`.
#[derive(Default)]
pub struct Recorder<D = Gray4Frame> {
    /// `(match, game, config, bots)` of each match started.
    pub started: Vec<(u32, String, String, String)>,
    /// `(match, turns, outcome)` of each match ended.
    pub ended: Vec<(u32, u32, Option<arena_core::Outcome>)>,
    /// `(match, turn, digest)` for every digest event, then the final one.
    pub digests: Vec<(u32, u32, u64)>,
    pub finals: Vec<(u32, u32, u64)>,
    /// Snapshot frames: `(match, turn, result screen?)` and the pixels.
    pub frames: Vec<((u32, u32, bool), D)>,
}

impl<D: Clone> Listener<D> for Recorder<D> {
    fn event(&mut self, display: &mut D, event: &Event<'_>) {
        match *event {
            Event::Start {
                number,
                game,
                config,
                bots,
                ..
            } => self
                .started
                .push((number, game.into(), config.into(), bots.join(" vs "))),
            Event::End {
                number,
                turns,
                outcome,
                digest,
                ..
            } => {
                self.ended.push((number, turns, outcome.copied()));
                self.finals.push((number, turns, digest));
            }
            Event::Digest {
                number,
                turn,
                digest,
            } => self.digests.push((number, turn, digest)),
            Event::Frame {
                number,
                turn,
                kind,
                snapshot: true,
            } => self
                .frames
                .push(((number, turn, kind == FrameKind::Result), display.clone())),
            _ => {}
        }
    }
}

/// Plays `cfg` of lineup `L` on the host, on a display of type `D`.
pub fn play_on<L, D>(cfg: &RunConfig) -> Recorder<D>
where
    L: arena_firmware::Lineup,
    D: DrawTarget<Color: arena_firmware::Palette> + Clone + Default,
{
    let mut board = Parts {
        display: D::default(),
        clock: NoClock,
        listener: Recorder::default(),
    };
    arena_firmware::run::<L, _>(&mut board, cfg);
    board.listener
}

/// Plays `cfg` on the host.
pub fn play(cfg: &RunConfig) -> Recorder {
    play_on::<Lineup, Gray4Frame>(cfg)
}

/// `cargo xtask lineup`: what the board will play, computed on the host.
pub fn preview(matches: u32) -> anyhow::Result<()> {
    for line in preview_lines(matches) {
        println!("{line}");
    }
    Ok(())
}

/// One line per match: what `lineup` prints.
fn preview_lines(matches: u32) -> Vec<String> {
    let rec = play(&RunConfig {
        matches: Some(matches),
        digest_every: 0,
        ..RunConfig::default()
    });
    let mut lines = Vec::new();
    for (((m, game, config, bots), (_, turns, outcome)), (_, _, digest)) in
        rec.started.iter().zip(&rec.ended).zip(&rec.finals)
    {
        let result = match outcome {
            Some(o) => format!(
                "ranks {:?} scores {:?} ({})",
                o.ranks(),
                o.scores(),
                o.reason
            ),
            None => "stopped at the turn limit".to_owned(),
        };
        lines.push(format!(
            "match {m}: {game} {config} {bots}: {turns} turns, {result}, final digest {digest}"
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    /// `lineup --help` promises each match's digest: the one the board logs as `final`.
    #[test]
    fn the_lineup_preview_gives_each_match_its_final_digest() {
        let lines = super::preview_lines(2);
        let rec = super::play(&arena_firmware::RunConfig {
            matches: Some(2),
            ..arena_firmware::RunConfig::default()
        });
        assert_eq!(lines.len(), 2);
        for (line, (_, _, digest)) in lines.iter().zip(&rec.finals) {
            assert!(line.ends_with(&format!("final digest {digest}")), "{line}");
        }
    }
}
