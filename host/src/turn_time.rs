//! Time a turn, per seat: what each answer took on the clock on the wall, and in CPU time (an
//! external bot's process and the processes it started; a built-in bot's own thread).
//!
//! Times are kept in a histogram of buckets about 3% wide (32 to every power of two, exact below
//! 32 ns), with the exact minimum and maximum, so that one seat's times over a long match take a
//! few hundred bytes and a tournament adds matches and shards together. A quantile is the upper
//! end of the bucket that holds it, capped by the maximum: it is never below the true value, and
//! at most one bucket (about 3%) above it; so `median <= p99 <= max` always holds.
//!
//! A turn of an external bot is the time between its request and its answer (the arrival of the
//! answer's last line, stamped by the reader thread; the deadline when none came): the wall time,
//! and the CPU time its processes used in it (per turn, as a difference, read from the kernel's
//! per-process CPU clocks: Linux's `clock_getcpuclockid`, nanoseconds). A built-in bot's turn is
//! its call, on the wall and on its thread's CPU clock.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Sub-buckets to every power of two: the buckets are 1/32 (about 3%) wide.
const SUB_BITS: u32 = 5;
const SUB: u64 = 1 << SUB_BITS;

/// The bucket of `ns`.
fn bucket(ns: u64) -> u16 {
    if ns < SUB {
        return ns as u16;
    }
    let e = 63 - ns.leading_zeros(); // >= SUB_BITS
    let shift = e - SUB_BITS;
    let mantissa = (ns >> shift) & (SUB - 1);
    ((u64::from(shift) + 1) * SUB + mantissa) as u16
}

/// The largest value bucket `b` holds.
fn bucket_top(b: u16) -> u64 {
    let b = u64::from(b);
    if b < SUB {
        return b;
    }
    let shift = b / SUB - 1;
    let mantissa = b % SUB;
    let low = (SUB + mantissa) << shift;
    low + ((1u64 << shift) - 1)
}

/// One measure (wall or CPU) of one seat's turns: a histogram of nanoseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Times {
    /// Turns counted.
    pub turns: u64,
    /// The shortest, in nanoseconds.
    pub min_ns: u64,
    /// The longest, in nanoseconds.
    pub max_ns: u64,
    /// Turns per bucket.
    buckets: BTreeMap<u16, u64>,
}

/// What a report shows of a seat's turns: median, 99th percentile and maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Turns counted.
    pub turns: u64,
    /// The median (nearest rank, to a bucket's upper end).
    pub median: Duration,
    /// The 99th percentile (nearest rank, to a bucket's upper end).
    pub p99: Duration,
    /// The longest.
    pub max: Duration,
}

impl Times {
    /// Counts one turn of `d`.
    pub fn add(&mut self, d: Duration) {
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        if self.turns == 0 || ns < self.min_ns {
            self.min_ns = ns;
        }
        self.max_ns = self.max_ns.max(ns);
        self.turns += 1;
        *self.buckets.entry(bucket(ns)).or_default() += 1;
    }

    /// Adds `other`'s turns (another match of the same bot).
    pub fn merge(&mut self, other: &Times) {
        if other.turns == 0 {
            return;
        }
        if self.turns == 0 || other.min_ns < self.min_ns {
            self.min_ns = other.min_ns;
        }
        self.max_ns = self.max_ns.max(other.max_ns);
        self.turns += other.turns;
        for (&b, &n) in &other.buckets {
            *self.buckets.entry(b).or_default() += n;
        }
    }

    /// The value of nearest rank `ceil(q * turns)` (`q` in thousandths), to its bucket's upper
    /// end, capped by the maximum.
    fn quantile(&self, per_mille: u64) -> u64 {
        let rank = (self.turns * per_mille).div_ceil(1000).max(1);
        let mut seen = 0;
        for (&b, &n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return bucket_top(b).clamp(self.min_ns, self.max_ns);
            }
        }
        self.max_ns
    }

    /// Median, p99 and maximum (all zero with no turns).
    pub fn stats(&self) -> Stats {
        if self.turns == 0 {
            return Stats::default();
        }
        Stats {
            turns: self.turns,
            median: Duration::from_nanos(self.quantile(500)),
            p99: Duration::from_nanos(self.quantile(990)),
            max: Duration::from_nanos(self.max_ns),
        }
    }
}

/// Whose CPU time a seat's CPU figure is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CpuOf {
    /// No CPU time measured (a TCP bot, a seat nobody played).
    #[default]
    None,
    /// An external bot's processes (user + system, every thread, its child processes).
    Process,
    /// A built-in bot's thread, for the length of its call.
    Thread,
}

impl CpuOf {
    /// `process`, `thread`, or `-` for none.
    pub fn name(self) -> &'static str {
        match self {
            CpuOf::Process => "process",
            CpuOf::Thread => "thread",
            CpuOf::None => "-",
        }
    }
}

/// One seat's time a turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTimes {
    /// On the clock on the wall.
    pub wall: Times,
    /// CPU time ([`SeatTimes::cpu_of`] says whose).
    pub cpu: Times,
    /// Whose CPU time `cpu` is.
    #[serde(default)]
    pub cpu_of: CpuOf,
}

impl SeatTimes {
    /// Adds another match's times of the same bot; the CPU's owner is kept if both agree.
    pub fn merge(&mut self, other: &SeatTimes) {
        self.wall.merge(&other.wall);
        self.cpu.merge(&other.cpu);
        self.cpu_of = match (self.cpu_of, other.cpu_of) {
            (CpuOf::None, o) => o,
            (s, _) => s,
        };
    }

    /// The times as JSON: per measure, turns and median, p99, max in microseconds.
    pub fn json(&self) -> serde_json::Value {
        let one = |t: &Times| {
            let s = t.stats();
            serde_json::json!({
                "turns": s.turns,
                "median_us": micros(s.median),
                "p99_us": micros(s.p99),
                "max_us": micros(s.max),
            })
        };
        let mut v = serde_json::json!({ "wall": one(&self.wall) });
        if let (Some(m), true) = (v.as_object_mut(), self.cpu.turns > 0) {
            m.insert("cpu".into(), one(&self.cpu));
            m.insert("cpu_of".into(), serde_json::json!(self.cpu_of));
        }
        v
    }

    /// `wall 1.2 ms/3.4 ms/5.6 ms, cpu (process) 1.0 ms/3.0 ms/5.0 ms (median/p99/max)`.
    pub fn line(&self) -> String {
        let mut s = format!("wall {}", triple(&self.wall.stats()));
        if self.cpu.turns > 0 {
            let of = self.cpu_of.name();
            s.push_str(&format!(", cpu ({of}) {}", triple(&self.cpu.stats())));
        }
        s.push_str(" (median/p99/max)");
        s
    }
}

/// Microseconds, with the nanoseconds as a fraction (3 decimals).
fn micros(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1000.0
}

/// `median/p99/max`, each in its own unit.
pub fn triple(s: &Stats) -> String {
    format!("{}/{}/{}", short(s.median), short(s.p99), short(s.max))
}

/// A duration in 3 or 4 figures: `850 ns`, `12.5 us`, `3.2 ms`, `1.5 s`.
pub fn short(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns < 1e4 {
        format!("{ns:.0} ns")
    } else if ns < 1e7 {
        format!("{:.1} us", ns / 1e3)
    } else if ns < 1e10 {
        format!("{:.1} ms", ns / 1e6)
    } else {
        format!("{:.1} s", ns / 1e9)
    }
}

/// The CPU clock a seat's CPU time is read from.
#[derive(Clone, Copy, Debug)]
pub enum CpuClock {
    /// The calling thread's (a built-in bot, in the match's thread).
    Thread,
    /// A process and its descendants (the process group's leader of an external bot).
    Tree(i32),
}

/// Processes looked at under one bot: a fork bomb is the sandbox's business, not the clock's.
const MAX_TREE: usize = 256;

impl CpuClock {
    /// The CPU time used so far, or `None` if it cannot be read (the process is gone).
    pub fn now(&self) -> Option<Duration> {
        use nix::time::{clock_gettime, ClockId};
        let read = |id: ClockId| {
            clock_gettime(id)
                .ok()
                .map(|t| Duration::new(t.tv_sec().max(0) as u64, t.tv_nsec().max(0) as u32))
        };
        match *self {
            CpuClock::Thread => read(ClockId::CLOCK_THREAD_CPUTIME_ID),
            CpuClock::Tree(root) => {
                let mut total = Duration::ZERO;
                let mut any = false;
                let mut todo = vec![root];
                let mut seen = 0;
                while let Some(pid) = todo.pop() {
                    seen += 1;
                    if seen > MAX_TREE {
                        break;
                    }
                    let pid_ = nix::unistd::Pid::from_raw(pid);
                    if let Some(t) = nix::time::clock_getcpuclockid(pid_).ok().and_then(read) {
                        total += t;
                        any = true;
                    }
                    children(pid, &mut todo);
                }
                any.then_some(total)
            }
        }
    }
}

/// `pid`'s child processes, from every thread's `/proc/<pid>/task/<tid>/children`.
fn children(pid: i32, out: &mut Vec<i32>) {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return;
    };
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|w| w.parse::<i32>().ok()),
            );
        }
    }
}

/// A turn being timed: the wall clock and the CPU clock at its start.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Start {
    /// Starts timing a turn on `clock` (and the wall).
    pub fn now(clock: Option<CpuClock>) -> Start {
        // The wall's turn holds the CPU clock's: the wall is read first here, last at the end.
        let wall = Instant::now();
        Start {
            cpu: clock.and_then(|c| c.now()),
            wall,
        }
    }

    /// When the turn started on the wall.
    pub fn wall(&self) -> Instant {
        self.wall
    }

    /// Ends the turn: its CPU time up to now on `clock` and its wall time up to `end` (now if
    /// `None`), counted in `times`.
    pub fn stop(self, end: Option<Instant>, clock: Option<CpuClock>, times: &mut SeatTimes) {
        if let (Some(c), Some(before)) = (clock, self.cpu) {
            if let Some(after) = c.now() {
                times.cpu.add(after.saturating_sub(before));
            }
        }
        let end = end.unwrap_or_else(Instant::now);
        times.wall.add(end.saturating_duration_since(self.wall));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hold_their_values_and_are_about_3_percent_wide() {
        for ns in [
            0,
            1,
            31,
            32,
            33,
            63,
            64,
            65,
            1000,
            20_000_000,
            123_456_789_012,
            u64::MAX / 2,
        ] {
            let b = bucket(ns);
            assert!(bucket_top(b) >= ns, "{ns}");
            if b > 0 {
                assert!(bucket_top(b - 1) < ns, "{ns}");
            }
            assert!(bucket_top(b) - ns <= ns / 32, "{ns}: {}", bucket_top(b));
        }
    }

    #[test]
    fn quantiles_are_nearest_rank_never_below_the_value() {
        let mut t = Times::default();
        for ms in 1..=100u64 {
            t.add(Duration::from_millis(ms));
        }
        let s = t.stats();
        assert_eq!(s.turns, 100);
        assert_eq!(s.max, Duration::from_millis(100));
        assert!(s.median >= Duration::from_millis(50), "{s:?}");
        assert!(s.median <= Duration::from_micros(51_600), "{s:?}");
        assert!(
            s.p99 >= Duration::from_millis(99) && s.p99 <= s.max,
            "{s:?}"
        );
        // Two halves merged are the whole.
        let (mut a, mut b) = (Times::default(), Times::default());
        for ms in 1..=100u64 {
            let half = if ms % 2 == 0 { &mut a } else { &mut b };
            half.add(Duration::from_millis(ms));
        }
        a.merge(&b);
        assert_eq!(a, t);
    }

    #[test]
    fn the_thread_clock_counts_work_done() {
        let start = Start::now(Some(CpuClock::Thread));
        let mut x = 1u64;
        let until = Instant::now() + Duration::from_millis(5);
        while Instant::now() < until {
            x = std::hint::black_box(x.wrapping_mul(3));
        }
        let mut times = SeatTimes::default();
        start.stop(None, Some(CpuClock::Thread), &mut times);
        assert_eq!(times.cpu.turns, 1);
        assert!(times.cpu.max_ns > 0);
        assert!(times.wall.max_ns >= 5_000_000);
    }
}
