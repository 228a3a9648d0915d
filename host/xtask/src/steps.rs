//! How long each step of `cargo xtask test` took: CI has a time budget, and a log that says where
//! the minutes went shows what to make faster.

use anyhow::Result;
use std::time::{Duration, Instant};

pub struct Clock {
    start: Instant,
    done: Vec<(&'static str, Duration)>,
    beside: Vec<(String, Duration)>,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            start: Instant::now(),
            done: Vec::new(),
            beside: Vec::new(),
        }
    }
}

impl Clock {
    /// Runs `f` as the step `name`, and says when it ends how long it took (failed or not).
    pub fn step<T>(&mut self, name: &'static str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        eprintln!("xtask test: {name} ...");
        let start = Instant::now();
        let out = f();
        let took = start.elapsed();
        eprintln!(
            "xtask test: {name} {} in {:.0} s",
            if out.is_ok() { "done" } else { "FAILED" },
            took.as_secs_f64()
        );
        self.done.push((name, took));
        out
    }

    /// A step that ran beside the others.
    pub fn record(&mut self, name: &'static str, took: Duration) {
        eprintln!("xtask test: {name} took {:.0} s", took.as_secs_f64());
        self.beside.push((name.to_owned(), took));
    }

    /// The steps of `other`, which ran beside this clock's, as steps that ran beside (named
    /// `what: step`).
    pub fn absorb(&mut self, what: &'static str, other: &Clock) {
        let done = other.done.iter().map(|(n, d)| (*n, *d));
        let beside = other.beside.iter().map(|(n, d)| (n.as_str(), *d));
        for (name, d) in done.chain(beside) {
            self.beside.push((format!("{what}: {name}"), d));
        }
    }

    /// One line per step and the time since the clock started (what steps run beside others
    /// overlap).
    pub fn report(&self) {
        let total = self.start.elapsed();
        eprintln!("xtask test: time by step");
        for (name, d) in &self.done {
            eprintln!("  {name:<16} {:>6.0} s", d.as_secs_f64());
        }
        for (name, d) in &self.beside {
            eprintln!(
                "  {name:<16} {:>6.0} s (beside the steps above)",
                d.as_secs_f64()
            );
        }
        eprintln!("  {:<16} {:>6.0} s", "total", total.as_secs_f64());
    }
}
