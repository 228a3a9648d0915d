//! Building the QEMU firmware and running it: the defmt log decoded live, the monitor for
//! screendumps, and the snapshot handshake (the firmware waits for a host file after each announced
//! frame, so every screendump shows exactly the frame announced).

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::{log, root, tools};

pub const BOARD: &str = "boards/qemu-lm3s6965";

/// Builds a board in release mode (its own workspace and target dir); returns its release folder.
pub fn build_board(board: &str, target: &str) -> Result<PathBuf> {
    let dir = root().join(board);
    let target_dir = dir.join("target");
    eprintln!("xtask: building {board}");
    tools::status(
        Command::new("cargo")
            .args(["build", "--release", "--bins"])
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", &target_dir)
            .env_remove("RUSTFLAGS"),
    )?;
    Ok(target_dir.join(target).join("release"))
}

pub fn build() -> Result<PathBuf> {
    build_board(BOARD, "thumbv7m-none-eabi")
}

/// One QEMU run.
pub struct Run<'a> {
    pub elf: &'a Path,
    /// `key=value` options for the firmware (its semihosting command line).
    pub args: Vec<String>,
    /// `-icount shift=0`: SysTick counts instructions.
    pub icount: bool,
    pub timeout_s: u32,
    /// Where snapshots go: the handshake files and the screendumps. QEMU runs in this folder, so
    /// the firmware's `hold=ack` (a semihosting path) names a file in it.
    pub snapshots: Option<&'a Path>,
    /// Print the decoded log as it comes.
    pub echo: bool,
    /// Called with each decoded line as it comes.
    pub tap: Option<&'a dyn Fn(&str)>,
}

impl<'a> Run<'a> {
    /// A run of `elf` with `args`, stopped after `timeout_s`: no `-icount`, no snapshots, no echo,
    /// no tap.
    pub fn new(elf: &'a Path, args: Vec<String>, timeout_s: u32) -> Run<'a> {
        Run {
            elf,
            args,
            icount: false,
            timeout_s,
            snapshots: None,
            echo: false,
            tap: None,
        }
    }
}

/// What a run left: its exit status, the decoded log, and the screendumps in order.
pub struct Ran {
    pub status: i32,
    pub lines: Vec<String>,
    pub frames: Vec<(String, PathBuf)>,
}

struct Monitor {
    stream: UnixStream,
}

impl Monitor {
    fn connect(path: &Path) -> Result<Monitor> {
        let mut last = None;
        for _ in 0..100 {
            match UnixStream::connect(path) {
                Ok(stream) => {
                    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
                    let mut m = Monitor { stream };
                    m.prompt()?;
                    return Ok(m);
                }
                Err(e) => last = Some(e),
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        bail!("no QEMU monitor at {}: {last:?}", path.display())
    }

    fn prompt(&mut self) -> Result<String> {
        let mut got = Vec::new();
        let mut buf = [0u8; 1024];
        while !String::from_utf8_lossy(&got).contains("(qemu) ") {
            let n = self
                .stream
                .read(&mut buf)
                .context("reading the QEMU monitor")?;
            if n == 0 {
                bail!("QEMU monitor closed");
            }
            got.extend_from_slice(&buf[..n]);
        }
        Ok(String::from_utf8_lossy(&got).into_owned())
    }

    fn command(&mut self, cmd: &str) -> Result<String> {
        self.stream.write_all(cmd.as_bytes())?;
        self.stream.write_all(b"\n")?;
        self.prompt()
    }

    fn screendump(&mut self, png: &Path) -> Result<()> {
        let reply = self.command(&format!("screendump {} -f png", png.display()))?;
        for _ in 0..100 {
            if image::open(png).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        bail!("screendump {} failed: {reply}", png.display())
    }
}

impl Run<'_> {
    pub fn go(&self) -> Result<Ran> {
        let mut semi = String::from("enable=on,target=native");
        for a in &self.args {
            semi.push_str(",arg=");
            semi.push_str(a);
        }
        let mut qemu = Command::new("timeout");
        qemu.args(["-k", "5", &self.timeout_s.to_string(), "qemu-system-arm"])
            .args(["-cpu", "cortex-m3", "-machine", "lm3s6965evb"])
            .args([
                "-display",
                "none",
                "-serial",
                "null",
                "-semihosting-config",
                &semi,
            ]);
        // Unix socket paths are limited to 108 bytes: the socket lives in the temporary folder.
        let socket = self
            .snapshots
            .map(|_| std::env::temp_dir().join(format!("arena-qemu-{}.sock", std::process::id())));
        match &socket {
            Some(s) => {
                let _ = std::fs::remove_file(s);
                qemu.args(["-monitor", &format!("unix:{},server,nowait", s.display())]);
            }
            None => {
                qemu.args(["-monitor", "none"]);
            }
        }
        if self.icount {
            qemu.args(["-icount", "shift=0"]);
        }
        qemu.arg("-kernel").arg(self.elf);
        if let Some(dir) = self.snapshots {
            qemu.current_dir(dir);
        }
        qemu.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut qemu = qemu.spawn().context("cannot start qemu-system-arm")?;
        let Some(out) = qemu.stdout.take() else {
            bail!("no QEMU stdout");
        };
        let Some(err) = qemu.stderr.take() else {
            bail!("no QEMU stderr");
        };
        let errors = std::thread::spawn(move || {
            BufReader::new(err)
                .lines()
                .map_while(Result::ok)
                .filter(|l| !l.contains("Timer with period zero"))
                .collect::<Vec<_>>()
        });
        let (mut print, decoded) = log::decode(self.elf, out)?;

        let mut monitor: Option<Monitor> = None;
        let mut frames = Vec::new();
        let lines = log::read_lines(decoded, self.echo, |line| {
            if let Some(tap) = self.tap {
                tap(line);
            }
            let announced = matches!(log::kind(line), "frame" | "panicframe");
            if let (true, Some(dir)) = (announced, self.snapshots) {
                if monitor.is_none() {
                    if let Some(s) = &socket {
                        monitor = Some(Monitor::connect(s)?);
                    }
                }
                let k = frames.len();
                let png = dir.join(format!("frame-{k:04}.png"));
                if let Some(m) = monitor.as_mut() {
                    m.screendump(&png)?;
                }
                std::fs::write(dir.join(format!("ack-{k}")), b"")?;
                frames.push((log::message(line).to_owned(), png));
            }
            Ok(())
        })?;
        let status = qemu.wait()?.code().unwrap_or(-1);
        if let Some(s) = &socket {
            let _ = std::fs::remove_file(s);
        }
        let _ = print.wait();
        for e in errors.join().unwrap_or_default() {
            eprintln!("qemu: {e}");
        }
        if status == 124 {
            bail!("QEMU timed out after {} s", self.timeout_s);
        }
        Ok(Ran {
            status,
            lines,
            frames,
        })
    }
}

/// A fresh folder for a run's snapshots.
pub fn fresh_dir(dir: &Path) -> Result<PathBuf> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    Ok(dir.canonicalize()?)
}
