//! A board's harness driven as a debug probe drives a board: one command a line on the harness's
//! stdin, one JSON reply a line on its stdout (a harness's own header says its commands: `watch`,
//! `run`, `read`, `write`, `display`, `mark`, `summary`, `quit`). xtask holds the log's side: the
//! RTT up channel read through a watchpoint on its write offset ([`crate::rtt`]), the defmt frames
//! split and recognised by their string indices, the log bytes handed on to `defmt-print`; it
//! decides when the display is read out (each announced frame, and with `every` the turns), marks
//! the bus's frames, stops after N matches, after `silence` cycles without a log line or at the
//! wall-clock timeout. Bad replies give an error that says what is wrong, never a panic.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde_json::{json, Map, Value};

use crate::rtt;

/// The most cycles one `run` is given: the wall clock is checked between runs.
const CHUNK: u64 = 20_000_000;

/// The harness's end of the pipes.
pub struct Probe<R, W> {
    replies: R,
    commands: W,
    line: String,
}

impl<R: BufRead, W: Write> Probe<R, W> {
    /// Waits for the harness's `{"ready": true}`; its absence is an error.
    pub fn new(replies: R, commands: W) -> Result<Self> {
        let mut p = Probe {
            replies,
            commands,
            line: String::new(),
        };
        let hello = p.reply()?;
        if hello["ready"] != true {
            bail!("the harness did not say it is ready: {hello}");
        }
        Ok(p)
    }

    fn reply(&mut self) -> Result<Value> {
        self.line.clear();
        let n = self.replies.read_line(&mut self.line)?;
        if n == 0 {
            bail!("the harness ended (no reply)");
        }
        let v: Value = serde_json::from_str(&self.line)
            .with_context(|| format!("the harness's reply is no JSON: {}", self.line.trim()))?;
        if let Some(e) = v.get("error") {
            bail!("the harness: {e}");
        }
        Ok(v)
    }

    /// Sends `command` and reads its reply.
    pub fn ask(&mut self, command: &str) -> Result<Value> {
        writeln!(self.commands, "{command}")?;
        self.commands.flush()?;
        self.reply()
    }

    /// Sends `first` and `then` at once (one round trip); `then`'s reply.
    pub fn ask_after(&mut self, first: &str, then: &str) -> Result<Value> {
        writeln!(self.commands, "{first}\n{then}")?;
        self.commands.flush()?;
        self.reply()?;
        self.reply()
    }

    /// `len` bytes at `addr`.
    pub fn read(&mut self, addr: u32, len: u32) -> Result<Vec<u8>> {
        let r = self.ask(&format!("read {addr} {len}"))?;
        let bytes = unhex(r["hex"].as_str().unwrap_or(""))?;
        if bytes.len() != len as usize {
            bail!(
                "the harness read {} bytes at 0x{addr:x}, not {len}",
                bytes.len()
            );
        }
        Ok(bytes)
    }

    /// Writes `bytes` at `addr`.
    pub fn write(&mut self, addr: u32, bytes: &[u8]) -> Result<()> {
        self.ask(&write_command(addr, bytes)).map(drop)
    }

    /// Ends the session.
    pub fn quit(&mut self) {
        let _ = writeln!(self.commands, "quit");
        let _ = self.commands.flush();
    }
}

/// The command that writes `bytes` at `addr`.
fn write_command(addr: u32, bytes: &[u8]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("write {addr} {hex}")
}

/// Bytes from lowercase or uppercase hex digits.
pub fn unhex(s: &str) -> Result<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        bail!("an odd number of hex digits");
    }
    (0..s.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(s.get(i..i + 2).unwrap_or(""), 16)
                .with_context(|| format!("no hex byte at {i}"))
        })
        .collect()
}

/// The defmt string indices of the log lines the driver acts on (each may be absent).
#[derive(Clone, Copy, Default, Debug)]
pub struct Formats {
    pub start: Option<u16>,
    pub frame: Option<u16>,
    pub digest: Option<u16>,
    pub fin: Option<u16>,
}

impl Formats {
    /// From the `formats` object of a target description ([`crate::probe::target`]).
    pub fn of(target: &Value) -> Self {
        let f = |k: &str| {
            target["formats"][k]
                .as_u64()
                .and_then(|v| u16::try_from(v).ok())
        };
        Formats {
            start: f("start"),
            frame: f("frame"),
            digest: f("digest"),
            fin: f("final"),
        }
    }
}

/// What one run is to do.
pub struct Plan<'a> {
    /// The address of `_SEGGER_RTT`.
    pub rtt: u32,
    pub formats: Formats,
    /// Stop when match N starts (after N matches).
    pub matches: Option<u32>,
    /// Where the pictures go (`frame-NNNN.<ext>` and frames.jsonl).
    pub frames: Option<&'a Path>,
    /// Also the picture after every N-th turn (from the digests).
    pub every: Option<u32>,
    pub timeout_s: u32,
    /// Emulated cycles without a log line before the run is stopped.
    pub silence: u64,
    /// Seconds of wall clock without a log line before the run is stopped.
    pub silence_s: Option<u32>,
    /// Stop once this many frames have been announced.
    pub frames_max: Option<u32>,
}

/// Why the run ended, as the harnesses said it before: `kind`, exit `status`, `message`.
struct Halt {
    kind: String,
    status: i32,
    message: String,
}

fn halt(kind: &str, status: i32, message: impl Into<String>) -> Option<Halt> {
    Some(Halt {
        kind: kind.to_owned(),
        status,
        message: message.into(),
    })
}

/// The log's side of a run.
struct Log<'a, L> {
    plan: &'a Plan<'a>,
    out: L,
    out_broken: bool,
    splitter: rtt::Splitter,
    up: Option<rtt::Up>,
    /// The read offset to write back before the core runs on.
    read_back: Option<u32>,
    /// Runs stopped by the watchpoint.
    stops: u64,
    bytes: u64,
    log_frames: u64,
    starts: u32,
    frames: u64,
    captures: u64,
    last_turn: String,
    halted: Option<Halt>,
}

impl<L: Write> Log<'_, L> {
    fn emit(&mut self, bytes: &[u8]) {
        if !self.out_broken && self.out.write_all(bytes).is_err() {
            self.out_broken = true;
        }
    }

    /// Reads the up channel up to `write` (the write offset), once the firmware has set it up.
    fn drain<R: BufRead, W: Write>(
        &mut self,
        probe: &mut Probe<R, W>,
        write: Option<u32>,
        cycles: u64,
    ) -> Result<bool> {
        if self.up.is_none() {
            let block = probe.read(self.plan.rtt, rtt::BLOCK)?;
            match rtt::up_channel(&block) {
                Ok(Some(up)) => {
                    probe.write(self.plan.rtt + rtt::FLAGS, &up.blocking_flags.to_le_bytes())?;
                    let rtt = self.plan.rtt;
                    probe.ask(&format!(
                        "watch {} {} {}",
                        rtt + rtt::WRITE_OFFSET,
                        rtt + rtt::READ_OFFSET,
                        up.size
                    ))?;
                    self.up = Some(up);
                }
                Ok(None) => return Ok(false),
                Err(e) => {
                    self.halted = halt("rtt", 1, format!("RTT: {e}"));
                    return Ok(false);
                }
            }
        }
        let Some(mut up) = self.up else {
            return Ok(false);
        };
        let write = match write {
            Some(w) => w,
            None => {
                let w = probe.read(self.plan.rtt + rtt::WRITE_OFFSET, 4)?;
                u32::from_le_bytes([w[0], w[1], w[2], w[3]])
            }
        };
        let pieces = match up.pending(write) {
            Ok(p) => p,
            Err(e) => {
                self.halted = halt("rtt", 1, format!("RTT: {e}"));
                return Ok(false);
            }
        };
        if pieces.is_empty() {
            return Ok(false);
        }
        let mut bytes = Vec::new();
        for (addr, len) in pieces {
            bytes.extend(probe.read(addr, len)?);
        }
        up.read = write;
        self.up = Some(up);
        self.read_back = Some(write);
        self.bytes += bytes.len() as u64;
        for frame in self.splitter.push(&bytes) {
            self.frame(probe, &frame, cycles)?;
        }
        if !self.out_broken && self.out.flush().is_err() {
            self.out_broken = true;
        }
        Ok(true)
    }

    fn read_offset_command(&self, read: u32) -> String {
        write_command(self.plan.rtt + rtt::READ_OFFSET, &read.to_le_bytes())
    }

    fn done(&self) -> bool {
        self.halted.as_ref().is_some_and(|h| h.kind == "done")
    }

    /// One defmt frame (rzCOBS-encoded, without its 0x00).
    fn frame<R: BufRead, W: Write>(
        &mut self,
        probe: &mut Probe<R, W>,
        encoded: &[u8],
        cycles: u64,
    ) -> Result<()> {
        if self.done() {
            return Ok(());
        }
        let decoded = match rtt::rzcobs_decode(encoded) {
            Ok(d) => d,
            Err(e) => {
                self.halted = halt("log", 1, format!("a defmt frame that does not decode: {e}"));
                return Ok(());
            }
        };
        let index = match rtt::frame_index(&decoded) {
            Ok(i) => Some(i),
            Err(e) => {
                self.halted = halt("log", 1, format!("a defmt frame that does not decode: {e}"));
                return Ok(());
            }
        };
        let f = self.plan.formats;
        let m = rtt::u32_at(&decoded, 0).unwrap_or(0);
        let t = rtt::u32_at(&decoded, 4).map_or(-1, i64::from);
        if index.is_some() && (index == f.start || index == f.digest || index == f.fin) {
            // Where a frame's bus traffic starts: the loop draws frame 0 after "start", turn t's
            // frame after "digest t" and the result screen after "final".
            let kind = if index == f.fin { "result" } else { "game" };
            let turn = if index == f.start { 0 } else { t.max(0) };
            probe.ask(&format!("mark {m} {turn} {kind}"))?;
        }
        if index.is_some() && index == f.start {
            self.starts += 1;
            if let Some(n) = self.plan.matches {
                if self.starts > n {
                    self.halted = halt("done", 0, format!("{n} matches played"));
                    return Ok(());
                }
            }
        }
        self.log_frames += 1;
        // The picture first, then the log line that announced it.
        if index.is_some() && index == f.frame {
            self.capture(probe, m, t, true, cycles)?;
            self.frames += 1;
            if let Some(limit) = self.plan.frames_max {
                if self.frames >= u64::from(limit) {
                    let mut out = encoded.to_vec();
                    out.push(0);
                    self.emit(&out);
                    self.halted = halt("done", 0, format!("{limit} frames announced"));
                    return Ok(());
                }
            }
        } else if let Some(every) = self.plan.every {
            if index.is_some() && (index == f.digest || index == f.fin) {
                // The loop logs a turn's digest before it draws that turn: at "digest t" the panel
                // still shows turn t - 1; at "final t" (after the last turn) it shows turn t.
                let shown = if index == f.digest { t - 1 } else { t };
                if shown % i64::from(every.max(1)) == 0 {
                    self.capture(probe, m, shown, false, cycles)?;
                }
            }
        }
        let mut out = encoded.to_vec();
        out.push(0);
        self.emit(&out);
        Ok(())
    }

    /// The display's picture: every announced frame, and each turn taken from the digests once
    /// (not again when the firmware announced that turn already).
    fn capture<R: BufRead, W: Write>(
        &mut self,
        probe: &mut Probe<R, W>,
        m: u32,
        t: i64,
        announced: bool,
        cycles: u64,
    ) -> Result<()> {
        let Some(dir) = self.plan.frames else {
            return Ok(());
        };
        let turn = format!("{m}/{t}");
        if !announced && turn == self.last_turn {
            return Ok(());
        }
        self.last_turn = turn;
        let shown = probe.ask("display")?;
        let ext = shown["ext"].as_str().unwrap_or("");
        if !matches!(ext, "pgm" | "ppm") {
            bail!("the harness's display read-out is no PGM/PPM: {ext:?}");
        }
        let stem = format!("frame-{:04}", self.captures);
        std::fs::write(
            dir.join(format!("{stem}.{ext}")),
            unhex(shown["hex"].as_str().unwrap_or(""))?,
        )?;
        let entry = json!({
            "k": self.captures, "m": m, "t": t, "announced": announced, "cycle": cycles,
            "png": format!("{stem}.png"),
        });
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join("frames.jsonl"))?;
        writeln!(f, "{entry}")?;
        self.captures += 1;
        Ok(())
    }
}

/// Runs `plan` through `probe`, the log's bytes (whole defmt frames, after defmt-rtt's leading
/// 0x00) into `log`; the summary: the harness's (`summary`) with why the run ended and the log's
/// counts.
pub fn run<R: BufRead, W: Write, L: Write>(
    probe: &mut Probe<R, W>,
    plan: &Plan<'_>,
    log: L,
) -> Result<Value> {
    let started = Instant::now();
    if let Some(dir) = plan.frames {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join("frames.jsonl"), "")?;
    }
    let mut l = Log {
        plan,
        out: log,
        out_broken: false,
        splitter: rtt::Splitter::default(),
        up: None,
        read_back: None,
        stops: 0,
        bytes: 0,
        log_frames: 0,
        starts: 0,
        frames: 0,
        captures: 0,
        last_turn: String::new(),
        halted: None,
    };
    l.halted = plan.unplayable();
    l.emit(&[0]); // defmt-rtt's leading frame separator
    probe.ask(&format!("watch {}", plan.rtt + rtt::WRITE_OFFSET))?;
    let mut last_log = 0u64;
    let mut last_log_at = Instant::now();
    let mut cycles = 0u64;
    while l.halted.is_none() {
        if started.elapsed().as_secs_f64() > f64::from(plan.timeout_s) {
            l.halted = halt(
                "timeout",
                3,
                format!("timed out after {} s (wall clock)", plan.timeout_s),
            );
            break;
        }
        let budget = CHUNK.min(
            plan.silence
                .saturating_sub(cycles.saturating_sub(last_log))
                .max(1),
        );
        let run = format!("run {budget}");
        let r = match l.read_back.take() {
            Some(w) => probe.ask_after(&l.read_offset_command(w), &run)?,
            None => probe.ask(&run)?,
        };
        cycles = r["cycles"]
            .as_u64()
            .context("no cycles in the run's reply")?;
        let value = r["value"].as_u64().and_then(|v| u32::try_from(v).ok());
        match r["stop"].as_str() {
            Some("halt") => {
                l.halted = halt(
                    r["kind"].as_str().unwrap_or("halt"),
                    r["status"]
                        .as_i64()
                        .and_then(|s| i32::try_from(s).ok())
                        .unwrap_or(1),
                    r["message"].as_str().unwrap_or("the core halted"),
                );
            }
            Some("watch") => {
                l.stops += 1;
                if l.drain(probe, value, cycles)? {
                    last_log = cycles;
                    last_log_at = Instant::now();
                }
            }
            Some("budget") => {}
            other => bail!("the harness's run stopped for no known reason: {other:?}"),
        }
        if l.out_broken && l.halted.is_none() {
            l.halted = halt("output", 2, "the log's reader (defmt-print) went away");
        }
        if l.halted.is_none() {
            l.halted = plan.silent(cycles.saturating_sub(last_log), last_log_at);
        }
    }
    if !l.done() && l.halted.as_ref().is_some_and(|h| h.kind != "target") {
        // What the firmware logged before it stopped (a panic's message before its HardFault).
        let _ = l.drain(probe, None, cycles);
    }
    if let Some(w) = l.read_back.take() {
        probe.ask(&l.read_offset_command(w))?;
    }
    let hardware = probe.ask("summary")?;
    probe.quit();
    Ok(l.summary(hardware, started))
}

impl<L> Log<'_, L> {
    /// The summary: the harness's `hardware` with why the run ended and the log's counts.
    fn summary(self, hardware: Value, started: std::time::Instant) -> Value {
        let plan = self.plan;
        let l = self;
        let h = l.halted.unwrap_or(Halt {
            kind: "done".into(),
            status: 0,
            message: "stopped".into(),
        });
        let mut s = Map::new();
        s.insert("status".into(), h.status.into());
        s.insert("kind".into(), h.kind.into());
        s.insert("message".into(), h.message.into());
        s.insert("wallSeconds".into(), started.elapsed().as_secs_f64().into());
        if let Value::Object(hw) = hardware {
            s.extend(hw);
        }
        s.insert("rttBytes".into(), l.bytes.into());
        s.insert("watchpointStops".into(), l.stops.into());
        s.insert("logFrames".into(), l.log_frames.into());
        let started_matches = plan.matches.map_or(l.starts, |n| l.starts.min(n));
        s.insert("matchesStarted".into(), started_matches.into());
        s.insert("frames".into(), l.frames.into());
        s.insert("captures".into(), l.captures.into());
        if !l.splitter.pending.is_empty() {
            s.insert("unfinishedLogBytes".into(), l.splitter.pending.len().into());
        }
        Value::Object(s)
    }
}

impl Plan<'_> {
    /// Why the run stops when the firmware has logged nothing for `cycles` emulated cycles and
    /// since `last`.
    fn silent(&self, cycles: u64, last: Instant) -> Option<Halt> {
        if let Some(s) = self.silence_s {
            if last.elapsed().as_secs_f64() > f64::from(s) {
                return halt(
                    "silent",
                    3,
                    format!("the firmware has logged nothing for {s} s of wall clock"),
                );
            }
        }
        if cycles > self.silence {
            return halt(
                "silent",
                3,
                format!(
                    "the firmware has logged nothing for {} emulated cycles",
                    self.silence
                ),
            );
        }
        None
    }

    /// Why the firmware cannot be run as planned: the log lines `matches` or `every` need are
    /// not in its ELF.
    fn unplayable(&self) -> Option<Halt> {
        let f = self.formats;
        if self.matches.is_some() && f.start.is_none() {
            return halt(
                "target",
                2,
                "--matches needs the firmware's \"start m=...\" log line, and its ELF has none",
            );
        }
        if self.every.is_some() && (f.digest.is_none() || f.fin.is_none()) {
            return halt(
                "target",
                2,
                "--every needs the firmware's \"digest m=...\" and \"final m=...\" log lines, and its ELF lacks one",
            );
        }
        None
    }
}

/// The probe over a child process's pipes.
pub fn probe_of(
    child: &mut std::process::Child,
) -> Result<Probe<BufReader<std::process::ChildStdout>, std::process::ChildStdin>> {
    let (Some(out), Some(inp)) = (child.stdout.take(), child.stdin.take()) else {
        bail!("no stdin/stdout to the harness");
    };
    Probe::new(BufReader::new(out), inp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted harness: the replies it gives, in order; what it was asked.
    fn probe(replies: &[&str]) -> Probe<std::io::Cursor<Vec<u8>>, Vec<u8>> {
        let mut text = String::from("{\"ready\":true}\n");
        for r in replies {
            text.push_str(r);
            text.push('\n');
        }
        Probe::new(std::io::Cursor::new(text.into_bytes()), Vec::new()).unwrap()
    }

    #[test]
    fn replies_are_checked() {
        let mut p = probe(&[
            r#"{"hex":"00ff"}"#,
            r#"{"hex":"0"}"#,
            r#"{"error":"no"}"#,
            "x",
        ]);
        assert_eq!(p.read(4, 2).unwrap(), [0, 255]);
        assert!(p.read(4, 1).is_err(), "odd hex");
        assert!(format!("{:#}", p.ask("y").unwrap_err()).contains("no"));
        assert!(p.ask("z").is_err(), "no JSON");
        assert!(p.ask("again").is_err(), "the harness ended");
        assert_eq!(
            String::from_utf8(p.commands).unwrap(),
            "read 4 2\nread 4 1\ny\nz\nagain\n"
        );
        assert!(Probe::new(std::io::Cursor::new(b"{}\n".to_vec()), Vec::new()).is_err());
    }

    #[test]
    fn the_log_is_read_through_the_watchpoint_and_acted_on() {
        // The control block at 0x2000_0000, a 16-byte buffer at 0x2000_0400; the firmware logs
        // one "start m=0" frame (index 1, u32 0) as [0x01, 0x7f-coded...]: encode by hand.
        let mut block = vec![0u8; 48];
        block[..10].copy_from_slice(rtt::ID);
        for (at, v) in [(16usize, 1u32), (28, 0x2000_0400), (32, 16)] {
            block[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        // decoded [1, 0, 0, 0, 0, 0] (index 1, m = 0): one group, bits set for the zeros
        // (positions 1-5, and 6 padding) -> code 0b1111110 = 0x7e after the byte 0x01.
        let frame = [0x01, 0x7e, 0x00];
        let replies = [
            "{}".to_owned(),                                        // watch
            r#"{"stop":"watch","cycles":10,"value":3}"#.to_owned(), // run
            format!(r#"{{"hex":"{}"}}"#, hex(&block)),              // read block
            "{}".to_owned(),                                        // write flags
            "{}".to_owned(),                                        // watch the ring
            format!(r#"{{"hex":"{}"}}"#, hex(&frame)),              // read ring
            "{}".to_owned(),                                        // write RdOff
            "{}".to_owned(),                                        // mark
            r#"{"stop":"halt","cycles":20,"kind":"hardfault","status":1,"message":"udf"}"#
                .to_owned(),
            r#"{"hex":"03000000"}"#.to_owned(), // the final drain reads WrOff: nothing new
            r#"{"cycles":20}"#.to_owned(),      // summary
        ];
        let replies: Vec<&str> = replies.iter().map(String::as_str).collect();
        let mut p = probe(&replies);
        let plan = Plan {
            rtt: 0x2000_0000,
            formats: Formats {
                start: Some(1),
                ..Formats::default()
            },
            matches: Some(3),
            frames: None,
            every: None,
            timeout_s: 60,
            silence: 1000,
            silence_s: None,
            frames_max: None,
        };
        let mut log = Vec::new();
        let s = run(&mut p, &plan, &mut log).unwrap();
        assert_eq!(
            String::from_utf8(p.commands).unwrap(),
            "watch 536870948\nrun 1000\nread 536870912 48\nwrite 536870956 02000000\n\
             watch 536870948 536870952 16\nread 536871936 3\nmark 0 0 game\nwrite 536870952 03000000\nrun 1000\n\
             read 536870948 4\nsummary\nquit\n"
        );
        assert_eq!(
            log,
            [0, 0x01, 0x7e, 0x00],
            "the separator, then the whole frame"
        );
        assert_eq!(s["kind"], "hardfault");
        assert_eq!(s["status"], 1);
        assert_eq!(s["logFrames"], 1);
        assert_eq!(s["matchesStarted"], 1);
        assert_eq!(s["rttBytes"], 3);
        assert_eq!(s["cycles"], 20);
    }
}
