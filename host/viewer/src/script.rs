//! A match as the page re-plays it: who played, how it started, and what every step was fed.
//!
//! Steps repeat a lot (a long match is mostly passes), so a script keeps each distinct seat's
//! part once, each distinct step (a list of parts) once, and the match as a list of step numbers:
//! the 100,000 turns of the longest golden trace take about a byte each.

use crate::code::{error, Error, Reader, Writer};
use crate::Viewed;
use std::collections::HashMap;

/// The first bytes of every script.
const MAGIC: &[u8; 4] = b"PAV1";

/// Who played what, as the replay says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    pub config: String,
    pub seed: u64,
    pub bots: Vec<String>,
}

/// A whole match: its start and every step's parts, each distinct step kept once.
#[derive(Clone, Debug)]
pub struct Script<G: Viewed> {
    pub names: Names,
    pub start: G::Start,
    /// The distinct steps, each one part per seat.
    steps: Vec<Vec<G::Part>>,
    /// The match: an index into `steps` per step.
    order: Vec<u32>,
}

impl<G: Viewed> Script<G> {
    /// How many steps the match has.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The parts step `k` (0-based) was fed.
    pub fn step(&self, k: usize) -> Option<&[G::Part]> {
        let i = *self.order.get(k)? as usize;
        self.steps.get(i).map(Vec::as_slice)
    }

    /// The bytes of the script.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.bytes.extend_from_slice(MAGIC);
        w.str(G::NAME);
        w.str(&self.names.config);
        w.u64(self.names.seed);
        w.usize(self.names.bots.len());
        for b in &self.names.bots {
            w.str(b);
        }
        G::put_start(&self.start, &mut w);
        // Distinct parts, then steps as part numbers, then the match as step numbers.
        let mut parts: Vec<Vec<u8>> = Vec::new();
        let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut steps: Vec<Vec<usize>> = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            let mut ids = Vec::with_capacity(step.len());
            for part in step {
                let mut one = Writer::default();
                G::put_part(part, &mut one);
                let next = parts.len();
                let id = *seen.entry(one.bytes.clone()).or_insert(next);
                if id == next {
                    parts.push(one.bytes);
                }
                ids.push(id);
            }
            steps.push(ids);
        }
        w.usize(parts.len());
        for p in &parts {
            w.bytes.extend_from_slice(p);
        }
        w.usize(steps.len());
        for ids in &steps {
            w.usize(ids.len());
            for &id in ids {
                w.usize(id);
            }
        }
        w.usize(self.order.len());
        for &i in &self.order {
            w.u64(u64::from(i));
        }
        w.bytes
    }

    /// Reads a script of this game (see [`game_of`] for which game a script is).
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        let game = header(&mut r)?;
        if game != G::NAME {
            return Err(error(format!("a script of {game}, not of {}", G::NAME)));
        }
        let config = r.str()?;
        let seed = r.u64()?;
        let n = r.usize(r.remaining())?;
        let bots = (0..n).map(|_| r.str()).collect::<Result<_, _>>()?;
        let start = G::get_start(&mut r)?;
        let n = r.usize(r.remaining())?;
        let parts: Vec<G::Part> = (0..n)
            .map(|_| G::get_part(&mut r))
            .collect::<Result<_, _>>()?;
        let n = r.usize(r.remaining())?;
        let mut steps = Vec::with_capacity(n);
        for _ in 0..n {
            let seats = r.usize(arena_core::MAX_SEATS)?;
            let mut step = Vec::with_capacity(seats);
            for _ in 0..seats {
                let id = r.usize(parts.len().saturating_sub(1))?;
                let part = parts.get(id).ok_or_else(|| error("no such part"))?;
                step.push(part.clone());
            }
            steps.push(step);
        }
        let n = r.usize(r.remaining())?;
        let mut order = Vec::with_capacity(n);
        for _ in 0..n {
            let i = r.usize(steps.len().saturating_sub(1))?;
            if steps.is_empty() {
                return Err(error("a step of a script without steps"));
            }
            order.push(i as u32);
        }
        if !r.is_empty() {
            return Err(error("bytes after the end of the script"));
        }
        Ok(Script {
            names: Names { config, seed, bots },
            start,
            steps,
            order,
        })
    }
}

fn header(r: &mut Reader<'_>) -> Result<String, Error> {
    let mut magic = [0u8; 4];
    for b in &mut magic {
        *b = r.byte()?;
    }
    if &magic != MAGIC {
        return Err(error("not a Pocket Arena viewer script"));
    }
    r.str()
}

/// The game a script is of (its name, as the registry has it).
pub fn game_of(bytes: &[u8]) -> Result<String, Error> {
    header(&mut Reader::new(bytes))
}

/// Writes a script as a re-play goes: the start once, then each step's parts.
#[derive(Debug)]
pub struct Recorder<G: Viewed> {
    names: Names,
    start: Option<G::Start>,
    steps: Vec<Vec<G::Part>>,
    order: Vec<u32>,
    seen: HashMap<Vec<u8>, u32>,
}

impl<G: Viewed> Default for Recorder<G> {
    fn default() -> Self {
        Recorder {
            names: Names::default(),
            start: None,
            steps: Vec::new(),
            order: Vec::new(),
            seen: HashMap::new(),
        }
    }
}

impl<G: Viewed> Recorder<G> {
    pub fn names(&mut self, names: Names) {
        self.names = names;
    }

    pub fn start(&mut self, start: &G::Start) {
        self.start = Some(start.clone());
    }

    pub fn step(&mut self, parts: &[G::Part]) {
        let mut key = Writer::default();
        key.usize(parts.len());
        for p in parts {
            G::put_part(p, &mut key);
        }
        let next = self.steps.len() as u32;
        let id = *self.seen.entry(key.bytes).or_insert(next);
        if id == next {
            self.steps.push(parts.to_vec());
        }
        self.order.push(id);
    }

    /// The script, once the start has been seen.
    pub fn finish(self) -> Option<Script<G>> {
        Some(Script {
            names: self.names,
            start: self.start?,
            steps: self.steps,
            order: self.order,
        })
    }
}
