//! A match re-played from its script, with keyframes: the state every `every` steps is kept, so
//! showing any state is a clone of the nearest keyframe before it and fewer than `every` steps.
//!
//! The interval is 64 steps, or more where 64 would keep more than [`KEYFRAME_BYTES`] of states
//! (the largest host state is over 400 KB): a 100,000-step match with a 4 KB state keeps 1,563
//! states, so a seek anywhere costs at most 63 steps (tens of microseconds).

use crate::code::{error, Error};
use crate::display::{Display, Picture};
use crate::script::Script;
use crate::Viewed;
use arena_core::Game;
use arena_firmware::screen::MatchLabel;
use serde_json::{json, Value};

/// At most this many bytes of keyframes (the interval grows instead).
pub const KEYFRAME_BYTES: usize = 64 << 20;

/// The smallest keyframe interval.
pub const EVERY: usize = 64;

/// A re-played match and the state now shown.
pub struct View<G: Viewed> {
    script: Script<G>,
    every: usize,
    /// `keys[i]` is the state at index `i * every` (index 0: the first state; index k: after step k).
    keys: Vec<Box<G>>,
    /// `turn()` of every state, by index.
    turns: Vec<u32>,
    /// The state shown and its index.
    shown: Box<G>,
    at: usize,
    /// What the step into the shown state refused (empty for index 0).
    faults: Vec<String>,
    /// The last state's outcome, as JSON.
    result: Value,
    game: &'static str,
    config: &'static str,
    bots: Vec<&'static str>,
}

impl<G: Viewed> View<G> {
    /// Re-plays the whole script once, keeping the keyframes.
    pub fn new(script: Script<G>, game: &'static str) -> Result<Self, Error> {
        let first = G::begin(&script.start)?;
        let size = core::mem::size_of::<G>().max(1);
        let steps = script.len();
        let most = (KEYFRAME_BYTES / size).max(1);
        let every = EVERY.max(steps.div_ceil(most));
        let mut keys = Vec::with_capacity(steps / every + 1);
        let mut turns = Vec::with_capacity(steps + 1);
        let mut g = first.clone();
        keys.push(first);
        turns.push(g.turn());
        for k in 0..steps {
            let parts = script
                .step(k)
                .ok_or_else(|| error(format!("step {k} is missing")))?;
            g.play(parts);
            turns.push(g.turn());
            if (k + 1) % every == 0 {
                keys.push(g.clone());
            }
        }
        let result = outcome_json(&*g);
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        let config = leak(&script.names.config);
        let bots = script.names.bots.iter().map(|b| leak(b)).collect();
        let shown = keys
            .first()
            .cloned()
            .ok_or_else(|| error("no first state"))?;
        Ok(View {
            script,
            every,
            keys,
            turns,
            shown,
            at: 0,
            faults: Vec::new(),
            result,
            game,
            config,
            bots,
        })
    }

    /// How many states: the first and one after every step.
    pub fn states(&self) -> usize {
        self.turns.len()
    }

    pub fn every(&self) -> usize {
        self.every
    }

    /// The turn state `index` is at.
    pub fn turn_of(&self, index: usize) -> Option<u32> {
        self.turns.get(index).copied()
    }

    /// The first state at turn `turn` (what `arena render --turn` draws), if the match reaches it.
    pub fn index_of_turn(&self, turn: u32) -> Option<usize> {
        let i = self.turns.partition_point(|&t| t < turn);
        (self.turns.get(i) == Some(&turn)).then_some(i)
    }

    /// Shows state `index` (clamped to the last one): from the shown state when it is a few steps
    /// before, otherwise from the keyframe at or before `index - 1`, then the step into it.
    pub fn seek(&mut self, index: usize) {
        let index = index.min(self.states().saturating_sub(1));
        if index == self.at {
            return;
        }
        if index == 0 {
            if let Some(first) = self.keys.first() {
                self.shown.clone_from(first);
            }
            self.at = 0;
            self.faults.clear();
            return;
        }
        let before = index - 1;
        let key = before / self.every;
        let from_key = key * self.every;
        // The shown state is the nearer start when it lies between the keyframe and `before`.
        if self.at > before || self.at < from_key {
            if let Some(k) = self.keys.get(key) {
                self.shown.clone_from(k);
                self.at = from_key;
            }
        }
        while self.at < index {
            let Some(parts) = self.script.step(self.at) else {
                break;
            };
            self.faults = self.shown.play(parts);
            self.at += 1;
        }
    }

    pub fn at(&self) -> usize {
        self.at
    }

    pub fn shown(&self) -> &G {
        &self.shown
    }

    pub fn label(&self) -> MatchLabel<'_> {
        MatchLabel {
            number: 0,
            game: self.game,
            config: self.config,
            seed: self.script.names.seed,
            bots: &self.bots,
        }
    }

    /// The shown state on `display`.
    pub fn draw(&self, display: Display) -> Picture {
        display.game(&*self.shown, &self.label())
    }

    /// The seats' parts of step `k` as canonical JSON (`null` past the end).
    fn parts_json(&self, k: usize) -> Value {
        match self.script.step(k) {
            Some(parts) => Value::Array(
                parts
                    .iter()
                    .map(|p| serde_json::from_str(&G::part_json(p)).unwrap_or(Value::Null))
                    .collect(),
            ),
            None => Value::Null,
        }
    }

    /// The shown state as the page prints it: its index and turn, the canonical state, the
    /// actions of the step into it and of the next one, and the faults of the step into it.
    pub fn info(&self) -> String {
        let state: Value = serde_json::from_str(&self.shown.shown_json()).unwrap_or(Value::Null);
        let into = if self.at == 0 {
            Value::Null
        } else {
            self.parts_json(self.at - 1)
        };
        json!({
            "index": self.at,
            "turn": self.shown.turn(),
            "over": self.shown.is_over(),
            "state": state,
            "actions": into,
            "next": self.parts_json(self.at),
            "faults": self.faults,
        })
        .to_string()
    }

    /// The match as the page's header shows it: game, configuration, seed, names, how many states
    /// and turns, and the result.
    pub fn summary(&self) -> String {
        json!({
            "game": self.game,
            "config": self.config,
            "seed": self.script.names.seed,
            "bots": self.bots,
            "states": self.states(),
            "first_turn": self.turns.first(),
            "last_turn": self.turns.last(),
            "every": self.every,
            "result": self.result,
        })
        .to_string()
    }
}

/// The end of a match: winner, ranks, scores and why it ended (`null` if it did not end).
fn outcome_json<G: Game>(g: &G) -> Value {
    match g.outcome() {
        None => Value::Null,
        Some(o) => json!({
            "winner": o.winner(),
            "reason": o.reason,
            "scores": o.scores(),
        }),
    }
}
