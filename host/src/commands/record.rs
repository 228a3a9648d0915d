//! Replays as a match is played: one recorder per game, used by `arena play` and by tournaments.

use super::LineWriter;
use crate::play::{self, Player, Step};
use arena_core::{Game, Roster};
use std::path::PathBuf;

/// Writes a game's replay format while the match is played.
pub trait Recorder<G: Game> {
    /// The start of the match (header, first state).
    fn begin(&mut self, game: &G, names: &[String], seed: u64, out: &mut LineWriter);
    /// After every step.
    fn step(&mut self, game: &G, step: &Step<'_, G>, out: &mut LineWriter);
    /// The end of the match (formats written whole, like Ballroom's log, are written here).
    fn end(&mut self, _game: &G, _out: &mut LineWriter) {}
}

impl<G: Game, R: Recorder<G> + ?Sized> Recorder<G> for Box<R> {
    fn begin(&mut self, game: &G, names: &[String], seed: u64, out: &mut LineWriter) {
        (**self).begin(game, names, seed, out)
    }
    fn step(&mut self, game: &G, step: &Step<'_, G>, out: &mut LineWriter) {
        (**self).step(game, step, out)
    }
    fn end(&mut self, game: &G, out: &mut LineWriter) {
        (**self).end(game, out)
    }
}

/// Someone looking at the match as it is played (`arena play --watch`).
pub trait Watch<G: Game> {
    /// Before the first step.
    fn start(&mut self, game: &G);
    /// After every step.
    fn step(&mut self, game: &G);
    /// After the last step.
    fn end(&mut self, game: &G);
}

/// Plays a match, writing its replay to `replay` (if any) and showing it to `watch` (if any) as it
/// goes. Without either, the match runs with nothing but the step loop.
pub fn run_recorded<G: Roster, R: Recorder<G>>(
    game: G,
    seed: u64,
    players: &mut [Player<G>],
    max_turns: Option<u64>,
    mut recorder: R,
    replay: Option<&PathBuf>,
    mut watch: Option<&mut dyn Watch<G>>,
) -> anyhow::Result<(play::MatchReport, Option<String>)> {
    let mut out = LineWriter::create(replay)?;
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    if replay.is_some() {
        recorder.begin(&game, &names, seed, &mut out);
    }
    if let Some(w) = watch.as_deref_mut() {
        w.start(&game);
    }
    let recording = replay.is_some();
    let (game, report) = play::run(game, seed, players, max_turns, |g, step| {
        if recording {
            recorder.step(g, step, &mut out);
        }
        if let Some(w) = watch.as_deref_mut() {
            w.step(g);
        }
    });
    if recording {
        recorder.end(&game, &mut out);
    }
    if let Some(w) = watch {
        w.end(&game);
    }
    Ok((report, out.error))
}
