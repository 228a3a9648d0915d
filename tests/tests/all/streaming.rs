//! The games whose verify reads its file as a stream (Tower Defense, ColorFight, Mammut: JSON
//! lines) hold no more memory for a long file than for a short one: the most memory a re-play
//! holds at once, counted by this test binary's allocator on the re-playing thread, is the same
//! for the first lines of a trace as for the whole of it.
//!
//! (Ants and Ballroom read their one JSON document whole: not here.)

use arena_core::games::colorfight::ColorFight;
use arena_core::games::mammut::Mammut;
use arena_core::games::tower_defense::TowerDefense;
use arena_core::Roster;
use arena_host::HostGame;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each thread's live bytes and their peak.
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn count(grow: usize, shrink: usize) {
    // `try_with`: nothing to count while the thread's locals are torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(grow).saturating_sub(shrink);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed on to `System` unchanged; the counting touches only
// const-initialised thread locals, which neither allocate nor panic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size, layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes this thread held at once while `f` ran, above what it held before.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, PEAK.with(Cell::get) - base)
}

/// The peak memory of re-playing the first `short` lines of `text` and of re-playing all of it
/// (which must verify, as far as it goes, and have many more lines).
fn peaks<G: HostGame>(text: &str, short: usize) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10 * short, "{} lines", lines.len());
    let head = lines[..short].join("\n");
    let run = |t: &str| {
        let (verified, peak) = peak_during(|| arena_tests::verify::<G>(t));
        let verified = verified.unwrap_or_else(|d| panic!("{}: {d}", G::NAME));
        assert!(verified.steps > 0);
        peak
    };
    (run(&head), run(text))
}

/// A long file costs what a short one does, give or take two buffers of a line (the line read,
/// and for Tower Defense the text of our state compared with it: the longest line so far) and
/// allocation rounding.
fn assert_flat(game: &str, (short, long): (usize, usize), line: usize) {
    eprintln!("{game}: peak {short} bytes for the short file, {long} for the long one");
    assert!(
        long <= short + 2 * line + 4096,
        "{game}: {long} bytes at most for the long file, {short} for the short one"
    );
}

fn longest(text: &str) -> usize {
    text.lines().map(str::len).max().unwrap_or(0)
}

#[test]
fn tower_defense_verify_memory_does_not_grow_with_turns() {
    let path = arena_tests::golden("tower-defense").join("builder-army-full.jsonl");
    let text = std::fs::read_to_string(&path).expect("the golden trace");
    // 2,000 turns (4 recorded states) against 100,000 (201).
    assert_flat(
        "tower-defense",
        peaks::<TowerDefense>(&text, 2_002),
        longest(&text),
    );
}

#[test]
fn colorfight_verify_memory_does_not_grow_with_ticks() {
    let every_7th = |g: &ColorFight| g.tick().is_multiple_of(7);
    let text = arena_tests::games::colorfight::bots_trace(3_000, 5, |_| {}, every_7th);
    assert_flat(
        "colorfight",
        peaks::<ColorFight>(&text, 200),
        longest(&text),
    );
}

#[test]
fn mammut_verify_memory_does_not_grow_with_turns() {
    use arena_host::games::mammut::trace::play_traced;
    let names = ["cautious", "greedy", "random", "greedy", "random"];
    let mut bots: Vec<_> = (0..names.len())
        .map(|s| Mammut::bot(names[s], 3 + s as u64).unwrap())
        .collect();
    let (_, text) = play_traced(3, &names, &mut bots).unwrap();
    let lines = text.lines().count();
    assert_flat("mammut", peaks::<Mammut>(&text, lines / 20), longest(&text));
}
