//! What a board's firmware plays, as the cost commands read it (the rotation, its entries, the
//! host's final digests) and a match of it played alone on an emulated board: the part of `cost`
//! the boards' own code calls (`boards/<b>/`), below the registry, so that the boards use it and
//! the commands over the registry (cost_pick.rs, cost_template.rs) use both.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, ensure, Context, Result};
use arena_core::Roster;
use arena_firmware::lineup::{Entry, Visit};
use arena_firmware::{Lineup, Screen};
use serde_json::{json, Value};

/// The rotation a board's firmware plays, as the cost commands read it.
pub struct Rotation {
    /// Every entry of the lineup, in rotation order.
    pub entries: fn() -> Vec<Listed>,
    /// The final digest of match `m` played alone on the host (the rotation's match `m`, its seed
    /// the entry's own for that round).
    pub host_final: fn(u32) -> Option<String>,
}

impl Rotation {
    /// The rotation of lineup `L`.
    pub fn of<L: Lineup>() -> Rotation {
        Rotation {
            entries: entries::<L>,
            host_final: host_final::<L>,
        }
    }
}

/// An entry as the cost command lists it: its index, game, config and bots.
#[derive(Clone, Debug)]
pub struct Listed {
    pub index: u32,
    pub game: &'static str,
    pub config: &'static str,
    pub bots: &'static [&'static str],
    /// Whether each named seat's bot is a user's (`Pick::User`), not a built-in: a user's bot may
    /// have a built-in's name (the template's `builder`).
    pub users: Vec<bool>,
}

struct Describe(u32);

impl Visit for Describe {
    type Out = Listed;
    fn visit<G: Screen + Roster>(
        self,
        entry: &Entry,
        seats: &[arena_firmware::lineup::Pick<G>],
        _params: &dyn Fn() -> Option<G::Params>,
    ) -> Listed {
        Listed {
            index: self.0,
            game: G::NAME,
            config: entry.config,
            bots: entry.bots,
            users: seats
                .iter()
                .map(|p| matches!(p, arena_firmware::lineup::Pick::User { .. }))
                .collect(),
        }
    }
    fn skip(self, entry: &Entry) -> Listed {
        Listed {
            index: self.0,
            game: "?",
            config: entry.config,
            bots: entry.bots,
            users: Vec::new(),
        }
    }
}

/// Every entry of lineup `L`, in rotation order.
pub fn entries<L: Lineup>() -> Vec<Listed> {
    (0..L::LEN as u32)
        .map(|i| L::visit(i as usize, Describe(i)))
        .collect()
}

/// The cost row of match `m` out of `lines`, with the `final` digest the board logged for it.
pub fn rows_with_finals(lines: &[String], m: u32, unit: &str, stack_size: bool) -> Vec<Value> {
    let mut rows = crate::log::cost_rows_of(lines, std::iter::once(m), unit, stack_size);
    let fin = crate::log::triples(lines, "final");
    for r in &mut rows {
        if let Some((_, _, d)) = fin.iter().find(|f| f.0 == m) {
            r["final_digest"] = json!(d.to_string());
        }
    }
    rows
}

/// The final digest of match `m` of lineup `L` played alone on the host (the rotation's match `m`,
/// its seed the entry's own for that round).
fn host_final<L: Lineup>(m: u32) -> Option<String> {
    let rec = crate::host::play_on::<L, arena_firmware::Gray4Frame>(&arena_firmware::RunConfig {
        first: m,
        matches: Some(1),
        digest_every: 0,
        ..arena_firmware::RunConfig::default()
    });
    rec.finals.first().map(|f| f.2.to_string())
}

/// A game frame every this many turns in a cost run (and the snapshots'): an emulated Cortex-M4 board spent
/// 99% of a match drawing and sending a frame every turn (Tower Defense siege: 2.0 G
/// instructions, 159 s), none of it in the figures.
pub const FRAMES_EVERY: u32 = arena_firmware::board::SNAPSHOT_EVERY;

/// A copy of the firmware `elf` whose `ARENA_RUN` words (`arena_firmware::board::run_words`) are
/// `[first, 1, FRAMES_EVERY]`: it plays the rotation from match `first` (the same match as in the
/// rotation), logs each seat's cost and bot stack, and draws a frame every `FRAMES_EVERY` turns. The emulators boot the copy as they boot the board's ELF.
pub fn with_run_words(elf: &Path, first: u32) -> Result<PathBuf> {
    let mut bytes = std::fs::read(elf).with_context(|| elf.display().to_string())?;
    let symbols = crate::elf::symbols(&bytes).map_err(|e| anyhow!("{}: {e}", elf.display()))?;
    let Some(words) = symbols.iter().find(|s| s.name == "ARENA_RUN") else {
        bail!(
            "{} has no ARENA_RUN words: a firmware built before the cost run could pick its match",
            elf.display()
        );
    };
    ensure!(
        words.size == 12,
        "ARENA_RUN is {} bytes, not 12",
        words.size
    );
    let at = crate::elf::file_offset(&bytes, words.addr).map_err(|e| anyhow!("ARENA_RUN: {e}"))?;
    let Some(slot) = bytes.get_mut(at..at + 12) else {
        bail!("ARENA_RUN at {at} is past the end of {}", elf.display());
    };
    for (word, value) in slot.chunks_mut(4).zip([first, 1, FRAMES_EVERY]) {
        word.copy_from_slice(&value.to_le_bytes());
    }
    let name = elf.file_name().and_then(|n| n.to_str()).unwrap_or("arena");
    let out = elf.with_file_name(format!("{name}-cost-{first}"));
    std::fs::write(&out, &bytes).with_context(|| out.display().to_string())?;
    Ok(out)
}

/// Match `first` alone on an emulated board (`H`'s harness, `own` its options): the firmware
/// `elf` with its run words written over, stopped when the next match starts; its cost row.
pub fn emulated_entry<H: crate::emulator::Harness>(
    elf: &Path,
    first: u32,
    timeout_s: u32,
    own: H,
    unit: &str,
) -> Result<Vec<Value>> {
    let copy = with_run_words(elf, first)?;
    let ran = crate::emulator::Run {
        matches: Some(1),
        own,
        ..crate::emulator::Run::new(&copy, timeout_s)
    }
    .go();
    let _ = std::fs::remove_file(&copy);
    let ran = ran?;
    ensure!(
        ran.status == 0,
        "the emulated {} stopped: {}",
        H::BOARD,
        ran.why()
    );
    let rows = rows_with_finals(&ran.lines, first, unit, true);
    ensure!(
        rows.iter().all(|r| r["turns"].as_u64().unwrap_or(0) > 0),
        "no cost line for match {first} in the {}'s log",
        H::SHORT
    );
    Ok(rows)
}
