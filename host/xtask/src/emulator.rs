//! What the emulated boards' harnesses have in common (each board's own, in Node or Python, some
//! driven as a probe by `crate::drive`): a run with the RTT log decoded by `defmt-print`, its
//! summary and its frames ([`Run::go`]), the boot line's run options, and the checks both boards
//! pass (a panic's log and HardFault, bad input rejected with a message).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, ensure, Context, Result};
use serde_json::{json, Value};

use crate::host::Recorder;
use crate::log;
use arena_firmware::RunConfig;

/// What the host recorded of a rotation, with the run options it played it under.
type Played<D> = Result<(RunConfig, Recorder<D>)>;

/// The host's side of a rotation run on board `H`, on a thread of its own beside the emulator: as
/// soon as the boot line has come through `lines` (the run's tap), the same `matches` matches
/// under the options it gives, recorded by `play`; then the rest of the log, until the run ends.
pub fn host_side<H: Harness, D: Send + 'static>(
    lines: std::sync::mpsc::Receiver<String>,
    matches: u32,
    play: fn(&RunConfig) -> Recorder<D>,
) -> std::thread::JoinHandle<Played<D>> {
    let (prefix, board) = (H::BOOT, H::SHORT);
    std::thread::spawn(move || {
        let Some(boot) = lines.iter().find(|l| log::message(l).starts_with(prefix)) else {
            bail!("the {board}'s log has no `{prefix}` boot line");
        };
        let cfg = RunConfig {
            matches: Some(matches),
            ..logged_config::<H>(&[boot])?
        };
        ensure!(
            cfg.digest_every > 0 && cfg.snapshot_every > 0,
            "the {board} firmware logs digests every {} and announces frames every {} turns: both are needed",
            cfg.digest_every,
            cfg.snapshot_every
        );
        let rec = play(&cfg);
        for _ in lines {} // the rest of the log, until the run ends
        Ok((cfg, rec))
    })
}

/// What [`host_side`] recorded, once `ran` is over: its options must still be those of the boot
/// line `ran` logged.
pub fn host_played<H: Harness, D>(
    host: std::thread::JoinHandle<Played<D>>,
    ran: &Ran,
) -> Result<Recorder<D>> {
    let Ok(played) = host.join() else {
        bail!("the host's replay panicked");
    };
    let (cfg, want) = played?;
    let unchanged = RunConfig {
        matches: None,
        ..cfg
    };
    ensure!(
        logged_config::<H>(&ran.lines)? == unchanged,
        "the {}'s boot line changed under the run",
        H::SHORT
    );
    Ok(want)
}

/// The matches of `ran` against the host's: the same digests turn by turn, the same finals and
/// games (see [`log::same_matches`]); how many.
pub fn same_matches<H: Harness, D>(ran: &Ran, want: &Recorder<D>) -> Result<String> {
    log::same_matches(
        &ran.lines,
        H::SHORT,
        &want.digests,
        &want.finals,
        &want.started,
    )
}

/// A frame the host drew, that a board's emulated display must show pixel for pixel.
pub trait HostFrame {
    /// The display in messages (`the emulated {DISPLAY}`).
    const DISPLAY: &'static str;
    /// Where the emulated display's `picture` first differs from this frame, in words (`(x, y):
    /// got, want`); `Err` when it is no picture of the display.
    fn differs(&self, picture: &image::DynamicImage) -> Result<Option<String>, String>;
    /// This frame drawn as the emulated display's pictures are (the size of `like`).
    fn picture(&self, like: &image::DynamicImage) -> image::DynamicImage;
}

/// Every frame board `H` announced in `ran` equals the host's of the same match and turn, in the
/// same order; at the first that differs, the host's picture is saved beside it (`.host.png`).
pub fn same_frames<H: Harness, D: HostFrame>(
    ran: &Ran,
    want: &[((u32, u32, bool), D)],
) -> Result<()> {
    let board = H::SHORT;
    ensure!(
        ran.frames.len() == want.len(),
        "the {board} announced {} frames, the host {}",
        ran.frames.len(),
        want.len()
    );
    for ((line, png, _), ((m, t, result), frame)) in ran.frames.iter().zip(want) {
        let line = line.as_deref().unwrap_or("");
        let key = (
            log::num::<u32>(line, "m"),
            log::num::<u32>(line, "t"),
            log::value(line, "k") == Some("Result"),
        );
        ensure!(
            key == (Some(*m), Some(*t), *result),
            "frame order: {board} `{line}`, host m={m} t={t} result={result}"
        );
        let img = image::open(png).with_context(|| png.display().to_string())?;
        match frame.differs(&img) {
            Ok(None) => {}
            Ok(Some(at)) => {
                let host = png.with_extension("host.png");
                frame.picture(&img).save(&host)?;
                bail!(
                    "{line}: the emulated {} {} differs from the host rendering {} at {at}",
                    D::DISPLAY,
                    png.display(),
                    host.display()
                );
            }
            Err(e) => bail!("{}: {e}", png.display()),
        }
    }
    Ok(())
}

/// What a run left: the harness's exit status, the decoded log, the frames in order (the
/// announcing line for the announced ones, `None` for those taken with `every`), the summary.
pub struct Ran {
    pub status: i32,
    pub lines: Vec<String>,
    pub frames: Vec<(Option<String>, PathBuf, Value)>,
    pub summary: Value,
    pub messages: Vec<String>,
    pub seconds: f64,
}

impl Ran {
    /// The harness's last word (why it stopped), for error messages.
    pub fn why(&self) -> String {
        self.summary["message"]
            .as_str()
            .map(str::to_owned)
            .or_else(|| self.messages.last().cloned())
            .unwrap_or_else(|| format!("exit status {}", self.status))
    }
}

/// A board's harness: its name, and the options only it takes.
pub trait Harness: Default + Sized {
    /// The board in messages: `the emulated {BOARD} did not stop`.
    const BOARD: &'static str;
    /// Its short name in the checks' messages: `the {SHORT}'s log`.
    const SHORT: &'static str;
    /// How its firmware's boot line starts (`<board>:`), the line that gives the run options.
    const BOOT: &'static str;
    /// The summary file's name: `arena-{TAG}-PID-N.json` in the temporary folder.
    const TAG: &'static str;
    /// The error when the harness does not start.
    const CANNOT_START: &'static str;
    /// The options of a run that ends soon after the log falls silent, as `panic-test`'s does
    /// after its HardFault.
    fn silenced() -> Self;
    /// The harness's command line for `run`: the program under [`Run::timeout`], given the
    /// target file it writes from the ELF at `summary` with the extension `.target.json` (read
    /// back by [`Run::go`] for the run's plan, and removed), and the board's own options; an error
    /// when what it needs from the ELF cannot be had.
    fn command(run: &Run<'_, Self>, summary: &Path) -> Result<Command>;
    /// What the harness left in the frames folder `dir` made into the PNG frames that
    /// frames.jsonl names (a harness that hands back frame buffers); by default nothing to do.
    fn pictures(_dir: &Path) -> Result<()> {
        Ok(())
    }
    /// The emulated cycles without a log line before the run is stopped.
    fn silence(&self) -> u64 {
        1_000_000_000
    }
    /// The seconds of wall clock without a log line before the run is stopped (none: only the
    /// cycles count).
    fn silence_s(&self) -> Option<u32> {
        None
    }
    /// Stop once this many frames have been announced.
    fn frames_max(&self) -> Option<u32> {
        None
    }
}

/// One emulated run; `own` holds the options of the board's harness alone.
pub struct Run<'a, H> {
    pub elf: &'a Path,
    /// Stop when match N starts (after N matches); `None` runs until the firmware stops.
    pub matches: Option<u32>,
    /// Where the announced frames go (PNG and frames.jsonl); `None` keeps none.
    pub frames: Option<&'a Path>,
    /// Also keep the picture after every N-th turn (`--every`).
    pub every: Option<u32>,
    pub timeout_s: u32,
    /// Print the decoded log as it comes.
    pub echo: bool,
    /// Each decoded line as it comes, to whoever wants to start on it early.
    pub tap: Option<std::sync::mpsc::Sender<String>>,
    pub own: H,
}

impl<'a, H: Harness> Run<'a, H> {
    /// A run of `elf` until the firmware stops or `timeout_s` passes: no frames kept, no echo,
    /// no tap, the harness's own defaults.
    pub fn new(elf: &'a Path, timeout_s: u32) -> Self {
        Run {
            elf,
            matches: None,
            frames: None,
            every: None,
            timeout_s,
            echo: false,
            tap: None,
            own: H::default(),
        }
    }

    /// The harness's command line.
    pub fn command(&self, summary: &Path) -> Result<Command> {
        H::command(self, summary)
    }

    /// `timeout`, 30 s after the run's own limit (which xtask keeps), to put a harness under.
    pub fn timeout(&self) -> Command {
        let mut cmd = Command::new("timeout");
        cmd.args(["-k", "5", &(self.timeout_s + 30).to_string()]);
        cmd
    }
}

impl<H: Harness> Run<'_, H> {
    /// Runs the harness, driven as a debug probe ([`crate::drive`]) on a thread of its own, the
    /// log's bytes through a pipe to `defmt-print`, the decoded lines read here.
    pub fn go(&self) -> Result<Ran> {
        let started = std::time::Instant::now();
        let summary_path = std::env::temp_dir().join(format!(
            "arena-{}-{}-{}.json",
            H::TAG,
            std::process::id(),
            started.elapsed().as_nanos()
        ));
        let target_path = summary_path.with_extension("target.json");
        let mut child = self
            .command(&summary_path)?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context(H::CANNOT_START)?;
        let target: Value = serde_json::from_str(
            &std::fs::read_to_string(&target_path)
                .with_context(|| target_path.display().to_string())?,
        )?;
        let messages = said(&mut child)?;
        let (reader, writer) = std::io::pipe()?;
        let (mut print, decoded) = log::decode(self.elf, reader)?;
        let probe = crate::drive::probe_of(&mut child);
        // Read once the harness says it is ready (or has ended).
        let _ = std::fs::remove_file(&target_path);
        let probe = match probe {
            Ok(p) => p,
            Err(e) => {
                drop(writer);
                let status = child.wait()?.code().unwrap_or(-1);
                let _ = print.wait();
                let messages = messages.join().unwrap_or_default();
                return Ok(Ran {
                    status,
                    lines: Vec::new(),
                    frames: Vec::new(),
                    summary: json!({ "message": messages.last().cloned().unwrap_or(format!("{e:#}")) }),
                    messages,
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
        };
        let driver = self.driver(&target, probe, writer)?;
        let lines = log::read_lines(decoded, self.echo, |line| {
            if let Some(tap) = &self.tap {
                let _ = tap.send(line.to_owned());
            }
            Ok(())
        })?;
        let summary = match driver.join() {
            Ok(s) => s,
            Err(_) => bail!("the emulator's driver panicked"),
        };
        let code = child.wait()?.code().unwrap_or(-1);
        let _ = print.wait();
        let messages = messages.join().unwrap_or_default();
        if code == 124 || code == 137 {
            bail!(
                "the emulated {} did not stop within {} s (killed)",
                H::BOARD,
                self.timeout_s + 30
            );
        }
        let summary = summary.with_context(|| {
            format!("driving the emulated {}: {}", H::BOARD, messages.join("; "))
        })?;
        let status = summary["status"]
            .as_i64()
            .and_then(|s| i32::try_from(s).ok())
            .unwrap_or(-1);
        let mut messages = messages;
        let word = last_word(&summary);
        eprintln!("{word}");
        messages.push(word);
        let frames = match self.frames {
            Some(dir) => {
                H::pictures(dir)?;
                frames(dir, &lines)?
            }
            None => Vec::new(),
        };
        Ok(Ran {
            status,
            lines,
            frames,
            summary,
            messages,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

impl<H: Harness> Run<'_, H> {
    /// The run's plan driven through `probe` on a thread of its own, the log into `log`; the
    /// summary, once done.
    fn driver<R, W>(
        &self,
        target: &Value,
        mut probe: crate::drive::Probe<R, W>,
        log: std::io::PipeWriter,
    ) -> Result<std::thread::JoinHandle<Result<Value>>>
    where
        R: BufRead + Send + 'static,
        W: std::io::Write + Send + 'static,
    {
        let frames = self.frames.map(Path::to_path_buf);
        let rtt = target["rtt"]
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .context("no rtt address in the target file")?;
        let (matches, every, timeout_s, silence) =
            (self.matches, self.every, self.timeout_s, self.own.silence());
        let (silence_s, frames_max) = (self.own.silence_s(), self.own.frames_max());
        let formats = crate::drive::Formats::of(target);
        Ok(std::thread::spawn(move || {
            let plan = crate::drive::Plan {
                rtt,
                formats,
                matches,
                frames: frames.as_deref(),
                every,
                timeout_s,
                silence,
                silence_s,
                frames_max,
            };
            let out = crate::drive::run(&mut probe, &plan, std::io::BufWriter::new(log));
            probe.quit();
            out
        }))
    }
}

/// What the harness says on stderr, echoed and collected on a thread of its own.
fn said(child: &mut std::process::Child) -> Result<std::thread::JoinHandle<Vec<String>>> {
    let Some(err) = child.stderr.take() else {
        bail!("no stderr from the emulator");
    };
    Ok(std::thread::spawn(move || {
        BufReader::new(err)
            .lines()
            .map_while(Result::ok)
            .inspect(|l| eprintln!("{l}"))
            .collect::<Vec<_>>()
    }))
}

/// How a probe-driven run ended, in the words the harnesses used for it.
fn last_word(summary: &Value) -> String {
    format!(
        "emulator: {}{}; {}{:.1} s, {} log frames, {} frames announced",
        if summary["kind"] == "done" {
            ""
        } else {
            "stopped: "
        },
        summary["message"].as_str().unwrap_or(""),
        summary["cycles"]
            .as_u64()
            .or(summary["instructions"].as_u64())
            .map_or(String::new(), |n| format!("{n} cycles in ")),
        summary["wallSeconds"].as_f64().unwrap_or(0.0),
        summary["logFrames"],
        summary["frames"]
    )
}

/// The frames the harness wrote to `dir` (frames.jsonl), each announced one with its line.
fn frames(dir: &Path, lines: &[String]) -> Result<Vec<(Option<String>, PathBuf, Value)>> {
    let mut announced = lines.iter().filter(|l| log::kind(l) == "frame");
    let manifest = std::fs::read_to_string(dir.join("frames.jsonl")).unwrap_or_default();
    let mut frames = Vec::new();
    for entry in manifest.lines() {
        let v: Value = serde_json::from_str(entry)
            .with_context(|| format!("{}/frames.jsonl: {entry}", dir.display()))?;
        let png = dir.join(v["png"].as_str().unwrap_or(""));
        let line = if v["announced"].as_bool() == Some(true) {
            Some(announced.next().cloned().with_context(|| {
                format!("frame {entry} has no announcing line in the decoded log")
            })?)
        } else {
            None
        };
        frames.push((line, png, v));
    }
    Ok(frames)
}

/// The rotation's run options as board `H`'s firmware logs them at boot
/// (`{BOOT} ... digest=D snap=S maxsteps=M`).
pub fn logged_config<H: Harness>(lines: &[String]) -> Result<RunConfig> {
    let (prefix, board) = (H::BOOT, H::SHORT);
    let Some(boot) = lines.iter().find(|l| log::message(l).starts_with(prefix)) else {
        bail!("no `{prefix}` boot line in the {board}'s log");
    };
    let n = |k: &str| -> Result<u32> {
        log::num(boot, k).with_context(|| format!("no {k}= in the boot line `{boot}`"))
    };
    Ok(RunConfig {
        // From match 0 unless the cost run wrote another (older firmware logs none).
        first: log::num(boot, "first").unwrap_or(0),
        matches: None,
        digest_every: n("digest")?,
        snapshot_every: n("snap")?,
        max_steps: n("maxsteps")?,
        // The pace a real board keeps (older firmware logs none); the host plays flat out.
        turns_per_second: log::num(boot, "pace").unwrap_or(0),
        seats: log::value(boot, "seats") == Some("true"),
        frames_every: log::num(boot, "frames").unwrap_or(1),
    })
}

/// `checks` of board `H`, then how long they took.
pub fn timed<H: Harness>(checks: impl FnOnce() -> Result<()>) -> Result<()> {
    let started = std::time::Instant::now();
    checks()?;
    println!(
        "xtask test: the emulated {} checks took {:.0} s",
        H::BOARD,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `panic-test` (`elf`) run on board `H`: a failure status, the HardFault that panic-probe takes,
/// the panic's message in the decoded log.
pub fn panic_test<H: Harness>(elf: &Path) -> Result<()> {
    let ran = Run {
        own: H::silenced(),
        ..Run::new(elf, 120)
    }
    .go()?;
    let (board, emulated) = (H::SHORT, format!("the emulated {}", H::BOARD));
    ensure!(
        ran.status != 0,
        "a panic must end {emulated} with a failure status"
    );
    ensure!(
        ran.summary["kind"] == "hardfault",
        "the panic must end in the HardFault that panic-probe takes, not: {}",
        ran.why()
    );
    let text = ran.lines.join("\n");
    let Some(at) = ran
        .lines
        .iter()
        .find(|l| log::message(l).starts_with("panicked at"))
    else {
        bail!("no panic message in the {board}'s log: {text}");
    };
    ensure!(
        text.contains("index out of bounds: the len is 3 but the index is 7"),
        "unexpected panic message: {text}"
    );
    println!(
        "xtask test: the {board}'s panic is in the decoded log (`{}`), then {}; exit status {}",
        log::message(at),
        ran.why(),
        ran.status
    );
    Ok(())
}

/// The bad input a harness must reject, each with a message and a non-zero status.
pub struct BadInput<'a> {
    /// The harness in messages (`the <board> emulator`).
    pub name: &'a str,
    /// Where the truncated ELF goes.
    pub dir: &'a Path,
    /// The firmware, and `panic-test` (which never starts a match).
    pub elf: &'a Path,
    pub panic_elf: &'a Path,
    /// A file that is no ELF.
    pub not_elf: &'a Path,
    /// A firmware that never logs, and the `--silence` that stops it.
    pub silent: (&'a Path, &'a str),
    /// The `--timeout` too short for a thousand matches.
    pub timeout: &'a str,
}

impl BadInput<'_> {
    /// Runs the checks; `harness` runs an ELF with the given options (`--silence N`, `--matches
    /// N`, `--timeout S`) and says its exit status and what it said, or xtask's refusal of the
    /// ELF before any harness starts (which counts as exit status 2, the harness's for a bad ELF,
    /// with the error as its message).
    pub fn check(
        &self,
        harness: impl Fn(&Path, &[&str]) -> Result<(Option<i32>, String)>,
    ) -> Result<()> {
        let expect_failure = |args: &[&str], elf: &Path, status: i32, says: &str| -> Result<()> {
            let (code, err) = match harness(elf, args) {
                Ok(said) => said,
                Err(e) => (Some(2), format!("{e:#}")),
            };
            ensure!(
                code == Some(status) && err.contains(says),
                "the emulator on {} {args:?}: want exit status {status} and `{says}`, got {:?}: {err}",
                elf.display(),
                code
            );
            Ok(())
        };
        let bytes = std::fs::read(self.elf)?;
        let truncated = self.dir.join("truncated.elf");
        std::fs::write(&truncated, &bytes[..bytes.len().min(4096)])?;
        expect_failure(&[], &truncated, 2, "past the end of the file")?;
        expect_failure(&[], self.not_elf, 2, "no ELF magic")?;
        expect_failure(&[], &self.dir.join("missing.elf"), 2, "cannot read")?;
        // A firmware that never logs, or never plays a match: clear errors, never a hang.
        let (silent, silence) = self.silent;
        expect_failure(&["--silence", silence], silent, 3, "has logged nothing")?;
        expect_failure(&["--matches", "1"], self.panic_elf, 2, "start m=")?;
        expect_failure(
            &["--timeout", self.timeout, "--matches", "1000"],
            self.elf,
            3,
            "timed out",
        )?;
        println!(
            "xtask test: {} rejects a truncated ELF, a file that is no ELF and a missing one, and \
             stops a firmware that stays silent or never starts a match, each with a message and a \
             non-zero status",
            self.name
        );
        Ok(())
    }
}

/// The cost rows of a run of the rotation's `matches` matches on board `H`, per turn in `unit`s
/// (`cycles`, `instructions`): the run must end well and log a cost line for every match.
pub fn cost_rows<H: Harness>(ran: &Ran, matches: u32, unit: &str) -> Result<Vec<Value>> {
    ensure!(
        ran.status == 0,
        "the emulated {} stopped: {}",
        H::BOARD,
        ran.why()
    );
    let rows = log::cost_rows(&ran.lines, matches, unit, true);
    for r in &rows {
        ensure!(
            r["turns"].as_u64().unwrap_or(0) > 0,
            "no cost line for match {} in the {}'s log",
            r["match"],
            H::SHORT
        );
    }
    Ok(rows)
}

/// A board's cost report: the `board`, the `unit`, the per-match `rows` and the reports it stands
/// beside (each a `<board>_<core>` key), written to target/`name` and printed whole when `json_only`;
/// the report, and where it went when the table is to follow (not `json_only`).
pub fn cost_report(
    name: &str,
    (board, unit): (&str, &str),
    rows: &[Value],
    beside: &[(&str, &Value)],
    json_only: bool,
) -> Result<(Value, Option<PathBuf>)> {
    let mut report = json!({ "board": board, "unit": unit, "matches": rows });
    for (key, other) in beside {
        report[*key] = (*other).clone();
    }
    let out = crate::root().join("target").join(name);
    std::fs::write(&out, serde_json::to_string_pretty(&report)?)?;
    if json_only {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok((report, None));
    }
    Ok((report, Some(out)))
}

/// The rotation's `matches` matches on the board with the options `own`, and their cost rows per
/// turn in `unit`s (see [`cost_rows`]).
pub fn rotation_cost<H: Harness>(
    elf: &Path,
    matches: u32,
    timeout_s: u32,
    own: H,
    unit: &str,
) -> Result<Vec<Value>> {
    let ran = Run {
        matches: Some(matches),
        own,
        ..Run::new(elf, timeout_s)
    }
    .go()?;
    cost_rows::<H>(&ran, matches, unit)
}

/// `min / median / max` of a per-turn figure.
pub fn min_median_max(v: &Value) -> String {
    format!(
        "{} / {} / {}",
        v["min"].as_u64().unwrap_or(0),
        v["median"].as_u64().unwrap_or(0),
        v["max"].as_u64().unwrap_or(0)
    )
}

/// The columns every board's cost table starts with: game, config, turns, the rules' cost per
/// turn (`rules` heads it) and the bots' median; the header with `r` `None`.
pub fn leading_columns(r: Option<&Value>, rules: &str, unit: &str) -> String {
    let Some(r) = r else {
        return format!(
            "{:<14} {:<15} {:>5} | {:>27} {:>10}",
            "game", "config", "turns", rules, "bots med"
        );
    };
    format!(
        "{:<14} {:<15} {:>5} | {:>27} {:>10}",
        r["game"].as_str().unwrap_or("?"),
        r["config"].as_str().unwrap_or("?"),
        r["turns"].to_string(),
        min_median_max(&r[format!("{unit}_per_turn")]),
        r[format!("bots_{unit}_per_turn")]["median"].to_string(),
    )
}
