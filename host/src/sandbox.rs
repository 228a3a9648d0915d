//! The sandbox for external bots (`--sandbox`): what Debian gives, on the command line of the
//! process that is started, so that nothing here needs `unsafe`.
//!
//! - **bubblewrap** (`bwrap`, Debian's `bubblewrap`, Flatpak's sandbox): new user, PID, network,
//!   IPC and UTS namespaces (`--unshare-all`: the bot has only its own `lo`, so it reaches
//!   nothing, arena's ports included; it talks over stdin/stdout), a read-only view of `/`, a
//!   private `/tmp`, the home folders hidden (an empty tmpfs over `/root`, `/home` and `$HOME`;
//!   the current folder and the folders of the files the command line names stay visible,
//!   read-only, so `cmd:python3 bots/x.py` works), and its own
//!   scratch folder, a tmpfs of `disk_mb` at [`SCRATCH`] (its `HOME` and `TMPDIR`), gone with
//!   the sandbox. Its PID namespace ends every process of the bot when the bot's first process
//!   dies, daemons that left the process group included (`--die-with-parent` too).
//! - **rlimits** through util-linux's `prlimit` (run inside, before the bot): CPU seconds of each
//!   process (`RLIMIT_CPU`, SIGXCPU), file size (`RLIMIT_FSIZE`, SIGXFSZ), open files
//!   (`RLIMIT_NOFILE`), processes (`RLIMIT_NPROC`, which Linux does not enforce for root, and
//!   which counts every process of the user: without a pids cgroup it is the user's processes at
//!   the start plus the cap) and,
//!   where there is no memory cgroup, address space (`RLIMIT_AS`).
//! - **cgroups** where they can be written (v1 here; the v2 files where the unified hierarchy has
//!   them are not used yet): `pids.max` (the process cap that holds for root too), the memory
//!   controller's `memory.limit_in_bytes` (the memory cap counts resident memory, not address
//!   space: a runtime that reserves much and uses little is not stopped), and one core of CPU
//!   (`cpu.cfs_quota_us`), so a bot spinning on every core takes one. A small `sh` joins the
//!   cgroups and `exec`s bwrap: every process of the bot is in them from the start.
//!
//! A cap a bot ran into is named in its fault ([`Jail::tripped`], [`capped_status`]).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

/// Where the bot's scratch folder is, inside its sandbox.
pub const SCRATCH: &str = "/tmp/scratch";

/// The environment variables a sandboxed bot keeps (the others, tokens and keys among them, are
/// not passed on; `HOME` and `TMPDIR` are its scratch folder).
const KEPT_ENV: [&str; 5] = ["PATH", "LANG", "LC_ALL", "TERM", "PYTHONPATH"];

/// The caps on one external bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Memory, in MB (the memory cgroup; else address space).
    pub memory_mb: u64,
    /// CPU time of each process, in seconds.
    pub cpu_s: u64,
    /// Processes and threads.
    pub procs: u64,
    /// Size of one file, in MB.
    pub file_mb: u64,
    /// The scratch folder's size, in MB.
    pub disk_mb: u64,
    /// Open files of each process.
    pub open_files: u64,
    /// Keep the machine's network (for a bot that must connect to arena's ports).
    pub share_net: bool,
}

impl Default for Caps {
    /// Caps a tournament can live with: 1 GB, 10 minutes of CPU per process, 128 processes and
    /// threads, 256 MB a file and 256 MB of scratch, 256 open files, no network.
    fn default() -> Self {
        Caps {
            memory_mb: 1024,
            cpu_s: 600,
            procs: 128,
            file_mb: 256,
            disk_mb: 256,
            open_files: 256,
            share_net: false,
        }
    }
}

const MB: u64 = 1 << 20;

/// The cgroup v1 controllers used, when they are mounted and writable.
const CONTROLLERS: [&str; 3] = ["pids", "memory", "cpu"];

fn cgroup_root(controller: &str) -> PathBuf {
    Path::new("/sys/fs/cgroup").join(controller).join("arena")
}

/// Whether `controller` can be used: its v1 hierarchy is mounted (a v2 folder has
/// `cgroup.controllers`; nothing is made where no hierarchy is) and its `arena` group exists or
/// can be made.
fn controller_usable(controller: &str) -> bool {
    let mount = Path::new("/sys/fs/cgroup").join(controller);
    if !mount.join("cgroup.procs").exists() || mount.join("cgroup.controllers").exists() {
        return false;
    }
    let root = cgroup_root(controller);
    std::fs::create_dir(&root).is_ok() || root.join("cgroup.procs").exists()
}

fn is_root() -> bool {
    // The owner of /proc/self is the process's effective user.
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Whether bots can be sandboxed here with these caps: `Err` says why not (`--sandbox` then
/// refuses to start; it never runs a bot unsandboxed).
pub fn check(caps: &Caps) -> Result<(), String> {
    let probe = Command::new("bwrap")
        .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"])
        .args([
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "prlimit",
            "--nofile=64",
            "true",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    match probe {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("bubblewrap is not installed (Debian: apt-get install bubblewrap)".into())
        }
        Err(e) => return Err(format!("cannot run bwrap: {e}")),
        Ok(out) if !out.status.success() => {
            return Err(format!(
                "bwrap cannot make a sandbox here (user namespaces off?): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
        Ok(_) => {}
    }
    if is_root() && !controller_usable("pids") {
        return Err(
            "running as root, and no writable pids cgroup: the process cap (RLIMIT_NPROC) does not hold for root"
                .into(),
        );
    }
    if caps.procs == 0 || caps.memory_mb == 0 || caps.cpu_s == 0 || caps.open_files == 0 {
        return Err("a cap of 0 leaves a bot nothing to run with".into());
    }
    Ok(())
}

/// One bot's sandbox: its cgroups (removed on drop) and the command line that starts it.
#[derive(Debug)]
pub struct Jail {
    caps: Caps,
    cgroups: Vec<(&'static str, PathBuf)>,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

impl Jail {
    /// Makes the bot's cgroups (those that can be made) with their caps.
    pub fn new(caps: Caps) -> std::io::Result<Jail> {
        let name = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut jail = Jail {
            caps,
            cgroups: Vec::new(),
        };
        for controller in CONTROLLERS {
            if !controller_usable(controller) {
                continue;
            }
            let dir = cgroup_root(controller).join(&name);
            std::fs::create_dir(&dir)?;
            jail.cgroups.push((controller, dir.clone()));
            let writes: &[(&str, String)] = match controller {
                "pids" => &[("pids.max", caps.procs.to_string())],
                "memory" => &[
                    ("memory.limit_in_bytes", (caps.memory_mb * MB).to_string()),
                    ("memory.swappiness", "0".into()),
                ],
                _ => &[
                    ("cpu.cfs_period_us", "100000".into()),
                    ("cpu.cfs_quota_us", "100000".into()),
                ],
            };
            for (file, value) in writes {
                std::fs::write(dir.join(file), value)?;
            }
        }
        if is_root() && !jail.has("pids") {
            return Err(std::io::Error::other(
                "no pids cgroup to cap a root bot's processes",
            ));
        }
        Ok(jail)
    }

    fn has(&self, controller: &str) -> bool {
        self.cgroups.iter().any(|(c, _)| *c == controller)
    }

    fn dir(&self, controller: &str) -> Option<&Path> {
        self.cgroups
            .iter()
            .find(|(c, _)| *c == controller)
            .map(|(_, d)| d.as_path())
    }

    /// The command that runs `command` (with `sh -c`) in this sandbox.
    pub fn command(&self, command: &str) -> Command {
        let caps = &self.caps;
        let join: String = self
            .cgroups
            .iter()
            .map(|(_, d)| format!("echo $$ > {}/cgroup.procs && ", d.display()))
            .collect();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("{join}exec \"$@\""))
            .arg("sh")
            .arg("bwrap")
            .arg("--unshare-all");
        if caps.share_net {
            cmd.arg("--share-net");
        }
        cmd.args(["--die-with-parent", "--ro-bind", "/", "/"])
            .args(["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]);
        let hidden = hidden_folders();
        for folder in &hidden {
            cmd.arg("--tmpfs").arg(folder);
        }
        // The bot's own files stay readable when they are under a hidden home folder: the
        // current folder, and the folder of each file its command line names.
        if let Ok(cwd) = std::env::current_dir() {
            cmd.arg("--ro-bind-try")
                .arg(&cwd)
                .arg(&cwd)
                .arg("--chdir")
                .arg(&cwd);
        }
        for dir in named_folders(command, &hidden) {
            cmd.arg("--ro-bind-try").arg(&dir).arg(&dir);
        }
        // A megabyte over the file size cap, so that one file written to the cap meets the cap
        // (SIGXFSZ, named) before a full disk (ENOSPC, which a bot may take as it likes).
        let disk = ((caps.disk_mb + 1) * MB).to_string();
        cmd.args(["--size", &disk, "--tmpfs", SCRATCH])
            .arg("--clearenv")
            .args(["--setenv", "HOME", SCRATCH, "--setenv", "TMPDIR", SCRATCH]);
        for name in KEPT_ENV {
            if let Some(value) = std::env::var_os(name) {
                cmd.arg("--setenv").arg(name).arg(value);
            }
        }
        cmd.arg("--")
            .arg("prlimit")
            .arg(format!("--cpu={}:{}", caps.cpu_s, caps.cpu_s + 1))
            .arg(format!("--fsize={}", caps.file_mb * MB))
            .arg(format!("--nofile={}", caps.open_files))
            .arg(format!("--nproc={}", self.nproc()));
        if !self.has("memory") {
            cmd.arg(format!("--as={}", caps.memory_mb * MB));
        }
        cmd.args(["--", "sh", "-c", command]);
        cmd
    }

    /// `RLIMIT_NPROC`: the cap, where the pids cgroup holds it (the rlimit is then a second
    /// guard that applies to a user other than root); else the cap above the user's processes
    /// now, since the rlimit counts every process of the user, not the bot's alone.
    fn nproc(&self) -> u64 {
        if self.has("pids") {
            return self.caps.procs;
        }
        use std::os::unix::fs::MetadataExt;
        let me = std::fs::metadata("/proc/self")
            .map(|m| m.uid())
            .unwrap_or(0);
        let mine = std::fs::read_dir("/proc")
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .bytes()
                            .all(|b| b.is_ascii_digit())
                    })
                    .filter(|e| e.metadata().is_ok_and(|m| m.uid() == me))
                    .count() as u64
            })
            .unwrap_or(0);
        mine + self.caps.procs
    }

    /// The cap the bot ran into, if a cgroup says so (the process cap, or the memory cap when
    /// the kernel killed a process for it).
    pub fn tripped(&self) -> Option<String> {
        let read = |c: &str, f: &str| {
            self.dir(c)
                .and_then(|d| std::fs::read_to_string(d.join(f)).ok())
        };
        let count = |text: &str, key: &str| {
            text.lines()
                .filter_map(|l| l.strip_prefix(key))
                .find_map(|n| n.trim().parse::<u64>().ok())
                .unwrap_or(0)
        };
        if read("pids", "pids.events").is_some_and(|t| count(&t, "max ") > 0) {
            return Some(format!(
                "process cap ({} processes and threads)",
                self.caps.procs
            ));
        }
        if read("memory", "memory.oom_control").is_some_and(|t| count(&t, "oom_kill ") > 0) {
            return Some(format!("memory cap ({} MB)", self.caps.memory_mb));
        }
        None
    }

    /// Kills every process still in the bot's cgroups (the PID namespace has ended them when the
    /// bot's first process died; this is for the moment in between).
    pub fn kill_all(&self) {
        for (_, dir) in &self.cgroups {
            let Ok(procs) = std::fs::read_to_string(dir.join("cgroup.procs")) else {
                continue;
            };
            for pid in procs.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
        }
    }

    /// The bot's caps.
    pub fn caps(&self) -> &Caps {
        &self.caps
    }
}

/// How long a dropped sandbox waits for its cgroups to empty. A killed process is gone a moment
/// after SIGKILL on a quiet machine; on a loaded one a fork bomb's last children took over the half
/// second this once was, and their cgroups were left behind.
const EMPTY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Drop for Jail {
    fn drop(&mut self) {
        self.release();
    }
}

impl Jail {
    /// Kills what is left in the bot's cgroups and removes them (what dropping the sandbox does;
    /// also called by the signal handler, which ends arena without dropping anything). Safe to
    /// call more than once.
    pub fn release(&self) {
        let start = std::time::Instant::now();
        let mut tries = 0u32;
        for (_, dir) in &self.cgroups {
            // A cgroup is removed once its last process has gone. What a fork bomb forked
            // between a read of cgroup.procs and the kills is killed on a later try.
            while std::fs::remove_dir(dir).is_err() && dir.exists() {
                if start.elapsed() > EMPTY_WAIT {
                    crate::errln!(
                        "sandbox: {} still has processes after {} s; left behind",
                        dir.display(),
                        EMPTY_WAIT.as_secs()
                    );
                    break;
                }
                if tries.is_multiple_of(20) {
                    self.kill_all();
                }
                tries = tries.wrapping_add(1);
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }
}

/// The folders of the files and folders a command line names (`python3 bots/x.py`: `bots`, as
/// its real path) that are in a `hidden` home folder, which the bot is to read all the same (the
/// others it sees already, as they are: `/dev/zero` stays a device).
fn named_folders(command: &str, hidden: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for word in command.split_whitespace() {
        let word = word.trim_matches(|c| c == '"' || c == '\'');
        let Ok(path) = Path::new(word).canonicalize() else {
            continue;
        };
        let dir = if path.is_dir() {
            path
        } else {
            match path.parent() {
                Some(p) => p.to_path_buf(),
                None => continue,
            }
        };
        if hidden.iter().any(|h| dir.starts_with(h)) && !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

/// The home folders hidden from bots.
fn hidden_folders() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["/root", "/home"]
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .collect();
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
        if home.is_dir() && home != Path::new("/") && !out.iter().any(|h| home.starts_with(h)) {
            out.push(home);
        }
    }
    out
}

/// The cap an exit status shows (bwrap exits with 128 + the signal that ended the bot): SIGXCPU
/// is the CPU cap, SIGXFSZ the file size cap.
pub fn capped_status(code: Option<i32>, caps: &Caps) -> Option<String> {
    match code? - 128 {
        n if n == nix::sys::signal::Signal::SIGXCPU as i32 => Some(format!(
            "CPU time cap ({} s a process, SIGXCPU)",
            caps.cpu_s
        )),
        n if n == nix::sys::signal::Signal::SIGXFSZ as i32 => {
            Some(format!("file size cap ({} MB, SIGXFSZ)", caps.file_mb))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_status_names_the_cpu_and_file_size_caps() {
        let caps = Caps::default();
        let cpu = capped_status(Some(128 + 24), &caps).unwrap();
        assert!(cpu.contains("CPU time cap (600 s"), "{cpu}");
        let file = capped_status(Some(128 + 25), &caps).unwrap();
        assert!(file.contains("file size cap (256 MB"), "{file}");
        assert_eq!(capped_status(Some(1), &caps), None);
        assert_eq!(capped_status(Some(128 + 9), &caps), None);
        assert_eq!(capped_status(None, &caps), None);
    }

    #[test]
    fn only_named_folders_in_a_hidden_home_are_shown() {
        let home = tempfile::tempdir().unwrap();
        let bot = home.path().join("bots/a");
        std::fs::create_dir_all(&bot).unwrap();
        std::fs::write(bot.join("x.py"), "").unwrap();
        let real = bot.canonicalize().unwrap();
        let hidden = vec![home.path().canonicalize().unwrap()];
        let command = format!(
            "python3 '{}' /dev/zero /nonexistent",
            bot.join("x.py").display()
        );
        assert_eq!(named_folders(&command, &hidden), vec![real]);
        assert!(named_folders("head -c 1 /dev/zero", &hidden).is_empty());
    }
}
