//! The sandbox for external bots (`--sandbox`), for a bot that knows it is in one and is run by
//! root: what Debian gives, on the command line of the process that is started, so that nothing
//! here needs `unsafe`.
//!
//! - **No privilege.** Where arena is root, the bot runs as a user of its own, one per seat
//!   ([`Jail::uid`]: util-linux's `setpriv` takes the uid and gid, clears the groups, the
//!   capability bounding set and sets `no_new_privs` before bubblewrap starts), so seats cannot
//!   touch each other's processes or files and root-only files stay closed. bubblewrap
//!   (`bwrap`, Debian's `bubblewrap`) then runs it with no capabilities (`--cap-drop ALL`), in a
//!   new session with no terminal (`--new-session`: no `TIOCSTI` into arena's terminal), with
//!   further user namespaces disabled and a seccomp filter (`seccomp.rs`) that refuses mounts, new
//!   namespaces, `ptrace`, keyrings, `bpf`, terminal `ioctl`s, modules and the like.
//! - **A minimal file system** (`fs.rs`), built up: `/usr` (and its links), the loader's and
//!   interpreters' `/etc` files, its own `/proc` (its own PID namespace: arena's command line is
//!   not in it), a few devices, one tmpfs of `disk_mb` for `/tmp`, its scratch folder [`SCRATCH`]
//!   (its `HOME` and `TMPDIR`) and `/dev/shm`; the folders of the files its command line names,
//!   read-only, checked against the [`Fence`] (no output of arena, no other entry's folder, no
//!   home folder outside its own); the installation of its interpreter when that is in a home
//!   folder. Its own network namespace (`--unshare-all`: only its own `lo`). Every file
//!   descriptor arena inherited is closed on exec, so none reaches the bot.
//! - **rlimits** set by the `sh` that runs the bot's command line (`ulimit`, its first line, after
//!   `setpriv`): CPU seconds of each
//!   process (`RLIMIT_CPU`, SIGXCPU), file size (`RLIMIT_FSIZE`, SIGXFSZ), open files
//!   (`RLIMIT_NOFILE`), processes (`RLIMIT_NPROC`: the seat's own uid's processes where arena is
//!   root; else the user's processes at the start plus the cap) and, where there is no memory
//!   cgroup, address space (`RLIMIT_AS`).
//! - **cgroups** (`cgroups.rs`) where they can be written (v1): `pids.max`, the memory controller's
//!   `memory.limit_in_bytes` (resident memory and the tmpfs pages the bot writes), and one core of
//!   CPU (`cpu.cfs_quota_us`). A small `sh` joins the cgroups and `exec`s the rest: every process
//!   of the bot is in them from the start, and with no capabilities and no `/sys` it cannot leave.
//!
//! A cap a bot ran into is named in its fault ([`Jail::tripped`], [`capped_status`]).

mod cgroups;
mod fs;
mod seccomp;

pub use fs::Fence;

use std::io::Write;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Where the bot's scratch folder is, inside its sandbox.
pub const SCRATCH: &str = "/tmp/scratch";

/// The environment variables a sandboxed bot keeps (the others, tokens and keys among them, are
/// not passed on; `HOME` and `TMPDIR` are its scratch folder).
const KEPT_ENV: [&str; 5] = ["PATH", "LANG", "LC_ALL", "TERM", "PYTHONPATH"];

/// The seats' own uids (arena run as root): `UID_BASE + (arena's pid << 8) + slot`, a slot for
/// each sandbox alive in this arena. A pid is at most 2^22, so every uid is below 2^31, and two
/// arenas running at once never share one. No such user exists; none is needed.
pub const UID_BASE: u32 = 1 << 30;

/// Sandboxes alive at once in one arena, at most.
const SLOTS: usize = 256;

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
    /// The size of its tmpfs (`/tmp`, its scratch folder and `/dev/shm` together), in MB.
    pub disk_mb: u64,
    /// Open files of each process.
    pub open_files: u64,
    /// Keep the machine's network (for a bot that must connect to arena's ports).
    pub share_net: bool,
    /// What no bot of this match or tournament may see (outputs, the other entries' folders).
    pub fence: Option<&'static Fence>,
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
            fence: None,
        }
    }
}

impl Caps {
    /// These caps with `fence` (kept for the rest of the run) checked for every bot.
    pub fn fenced(self, fence: Fence) -> Caps {
        Caps {
            fence: Some(Box::leak(Box::new(fence))),
            ..self
        }
    }
}

const MB: u64 = 1 << 20;

fn is_root() -> bool {
    cgroups::euid() == 0
}

/// Whether `program` is an executable file in a folder of `PATH` (as `Command` and bwrap look it
/// up), found without running it.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        std::fs::metadata(dir.join(program))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// Whether bots can be sandboxed here with these caps: `Err` says why not (`--sandbox` then
/// refuses to start; it never runs a bot unsandboxed). The programs it needs are looked for on
/// `PATH`, then a sandbox is made as a bot's (its cgroups, namespaces, mounts, seccomp filters,
/// its user and rlimits) and `exit 0` run in it (once per arena process: a tournament checks
/// once).
pub fn check(caps: &Caps) -> Result<(), String> {
    if !on_path("bwrap") {
        return Err("bubblewrap is not installed (Debian: apt-get install bubblewrap)".into());
    }
    if is_root() && !on_path("setpriv") {
        return Err(
            "running as root, and util-linux's setpriv is missing: a bot would run as root".into(),
        );
    }
    if is_root() && !cgroups::usable().contains(&"pids") {
        return Err(
            "running as root, and no writable pids cgroup: the process cap (RLIMIT_NPROC) does not hold for root"
                .into(),
        );
    }
    if caps.procs == 0 || caps.memory_mb == 0 || caps.cpu_s == 0 || caps.open_files == 0 {
        return Err("a cap of 0 leaves a bot nothing to run with".into());
    }
    let trial = Caps {
        fence: None,
        ..*caps
    };
    let jail = Jail::new(trial).map_err(|e| format!("cannot make a sandbox: {e}"))?;
    let out = jail
        .command("exit 0")
        .map_err(|e| e.to_string())?
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    match out {
        Err(e) => Err(format!("cannot run bwrap: {e}")),
        Ok(out) if !out.status.success() => Err(format!(
            "bwrap cannot make a sandbox here (user namespaces off?): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(_) => Ok(()),
    }
}

/// A cap that only a cgroup holds: asked for, it is refused where arena cannot write that cgroup
/// ([`refuse_unheld`]). Each front end names it its own way (the command line `--bot-memory`,
/// Python `bot_memory`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CgroupCap {
    /// The bot's memory, all its processes and its tmpfs pages together.
    Memory,
    /// The bot's processes.
    Procs,
}

impl CgroupCap {
    /// Its cgroup controller.
    fn controller(self) -> &'static str {
        match self {
            CgroupCap::Memory => "memory",
            CgroupCap::Procs => "pids",
        }
    }

    /// What is left of it without the cgroup.
    fn left(self) -> &'static str {
        match self {
            CgroupCap::Memory => {
                "memory would be capped per process only (RLIMIT_AS), which a bot of several \
                 processes, or one that fills its tmpfs, escapes"
            }
            CgroupCap::Procs => {
                "processes would be capped by RLIMIT_NPROC only, which counts every process of \
                 this user: one seat's processes would count against the other seats'"
            }
        }
    }
}

impl std::fmt::Display for CgroupCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CgroupCap::Memory => "the memory cap",
            CgroupCap::Procs => "the process cap",
        })
    }
}

/// A [`CgroupCap`] asked for that cannot hold here: why, and how to get its cgroup. Its message
/// speaks of the cap ("the memory cap needs a memory cgroup..."); [`Unheld::naming`] gives the
/// same words with the front end's name for the option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unheld {
    /// The cap refused.
    pub cap: CgroupCap,
    whose: String,
    how: String,
}

impl Unheld {
    /// The message with `option` (the front end's name of the cap) as its subject.
    pub fn naming(&self, option: &str) -> String {
        format!(
            "{option} needs a {} cgroup, and there is {}: {}. To get one, {}",
            self.cap.controller(),
            self.whose,
            self.cap.left(),
            self.how
        )
    }
}

impl std::fmt::Display for Unheld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.naming(&self.cap.to_string()))
    }
}

impl std::error::Error for Unheld {}

/// How to get the cgroup folder `controller` needs, for this user.
fn how_to_delegate(controller: &str) -> String {
    let uid = cgroups::euid();
    if uid == 0 {
        return format!(
            "mount the cgroup v1 {controller} hierarchy at /sys/fs/cgroup/{controller}, writable"
        );
    }
    let dir = cgroups::arena_root(controller);
    format!(
        "run arena as root, or have root delegate a cgroup v1 folder to uid {uid}: `mkdir {d} && \
         chown {uid} {d}` (cgroup v2 and systemd scopes are not used)",
        d = dir.display()
    )
}

/// Refuses the caps asked for (`given`) that only a cgroup holds, when arena cannot write that
/// cgroup here: the error names the cap, says why and how to get one. The caps not asked for
/// keep their defaults, with what holds without a cgroup ([`unheld_note`]).
pub fn refuse_unheld(given: impl IntoIterator<Item = CgroupCap>) -> Result<(), Unheld> {
    let usable = cgroups::usable();
    for cap in given {
        let controller = cap.controller();
        if usable.contains(&controller) {
            continue;
        }
        let whose = if is_root() {
            "no writable cgroup v1 hierarchy".to_string()
        } else {
            format!(
                "no cgroup delegation for this user (uid {}, not root)",
                cgroups::euid()
            )
        };
        return Err(Unheld {
            cap,
            whose,
            how: how_to_delegate(controller),
        });
    }
    Ok(())
}

/// What holds here and what does not, when a cap only a cgroup holds is missing (`None`: every
/// cap holds, as for root with the pids, memory and cpu cgroups).
pub fn unheld_note(caps: &Caps) -> Option<String> {
    let usable = cgroups::usable();
    let mut held = vec![
        format!("CPU time {} s a process (RLIMIT_CPU)", caps.cpu_s),
        format!(
            "file size and tmpfs {} MB (RLIMIT_FSIZE, the tmpfs's size)",
            caps.disk_mb
        ),
        format!("open files {} a process (RLIMIT_NOFILE)", caps.open_files),
    ];
    let mut not = Vec::new();
    if usable.contains(&"memory") {
        held.push(format!("memory {} MB (memory cgroup)", caps.memory_mb));
    } else {
        not.push(format!(
            "no memory cap (each process's address space is kept under {} MB, a guard, not a \
             cap: a bot's processes and its tmpfs pages add up past it)",
            caps.memory_mb
        ));
    }
    if usable.contains(&"pids") {
        held.push(format!("processes {} (pids cgroup)", caps.procs));
    } else {
        not.push(format!(
            "no process cap of its own (RLIMIT_NPROC at this user's processes plus {}, counting \
             every process of the user)",
            caps.procs
        ));
    }
    if !usable.contains(&"cpu") {
        not.push("no cap of one core in all (the cpu cgroup)".into());
    }
    if !is_root() {
        not.push("no user of its own per seat (every seat runs as this user)".into());
    }
    if not.is_empty() {
        return None;
    }
    Some(format!(
        "caps that hold here: {}; not held: {}",
        held.join(", "),
        not.join("; ")
    ))
}

/// What every sandbox of this arena reads through a file descriptor: the two seccomp filters
/// (with each sandbox's `passwd` and `group`, memory files, no file on disk, read by the wrapper
/// `sh` through `/proc/<arena>/fd/<n>` and passed to bwrap as its descriptors 3 to 6).
struct Blobs {
    files: [std::fs::File; 2],
}

fn memfd(name: &std::ffi::CStr, bytes: &[u8]) -> Result<std::fs::File, String> {
    use nix::sys::memfd::{memfd_create, MFdFlags};
    let fd = memfd_create(name, MFdFlags::MFD_CLOEXEC).map_err(|e| format!("memfd_create: {e}"))?;
    let mut file = std::fs::File::from(fd);
    file.write_all(bytes)
        .map_err(|e| format!("writing the sandbox's {name:?}: {e}"))?;
    Ok(file)
}

fn blobs() -> Result<&'static Blobs, String> {
    static BLOBS: OnceLock<Result<Blobs, String>> = OnceLock::new();
    BLOBS
        .get_or_init(|| {
            Ok(Blobs {
                files: [
                    memfd(c"arena-seccomp-eperm", &seccomp::refusing()?)?,
                    memfd(c"arena-seccomp-clone3", &seccomp::no_clone3()?)?,
                ],
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The `passwd` and `group` a bot sees: itself (`bot`) and `nobody`.
fn ids(uid: u32, gid: u32) -> std::io::Result<Vec<std::fs::File>> {
    let passwd = format!(
        "bot:x:{uid}:{gid}:bot:{SCRATCH}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    );
    let group = format!("bot:x:{gid}:\nnogroup:x:65534:\n");
    [(c"arena-passwd", passwd), (c"arena-group", group)]
        .into_iter()
        .map(|(name, text)| memfd(name, text.as_bytes()).map_err(std::io::Error::other))
        .collect()
}

/// The slots of the seats' uids taken by sandboxes alive in this arena.
static TAKEN: Mutex<[bool; SLOTS]> = Mutex::new([false; SLOTS]);

fn take_slot() -> std::io::Result<usize> {
    let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
    let slot = taken
        .iter()
        .position(|t| !t)
        .ok_or_else(|| std::io::Error::other(format!("more than {SLOTS} sandboxes at once")))?;
    taken[slot] = true;
    Ok(slot)
}

fn free_slot(slot: usize) {
    let mut taken = TAKEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = taken.get_mut(slot) {
        *t = false;
    }
}

/// One bot's sandbox: its uid (root only), its cgroups (removed on drop) and the command line
/// that starts it.
#[derive(Debug)]
pub struct Jail {
    caps: Caps,
    cgroups: Vec<(&'static str, PathBuf)>,
    /// The seat's own uid and its slot, where arena is root.
    uid: Option<(u32, usize)>,
    /// Its `passwd` and `group` files.
    ids: Vec<std::fs::File>,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

impl Jail {
    /// Takes a uid of its own (root), makes the bot's cgroups (those that can be made) with
    /// their caps.
    pub fn new(caps: Caps) -> std::io::Result<Jail> {
        let name = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut jail = Jail {
            caps,
            cgroups: Vec::new(),
            uid: None,
            ids: Vec::new(),
        };
        if is_root() {
            let pid = std::process::id();
            if pid >= 1 << 22 {
                return Err(std::io::Error::other(format!(
                    "arena's pid {pid} is over 2^22: no uid of its own for a bot"
                )));
            }
            let slot = take_slot()?;
            jail.uid = Some((UID_BASE + (pid << 8) + slot as u32, slot));
        }
        let (uid, gid) = match jail.uid {
            Some((uid, _)) => (uid, uid),
            None => {
                use std::os::unix::fs::MetadataExt;
                std::fs::metadata("/proc/self").map_or((65534, 65534), |m| (m.uid(), m.gid()))
            }
        };
        jail.ids = ids(uid, gid)?;
        for &controller in cgroups::usable() {
            let writes: Vec<(&str, String)> = match controller {
                "pids" => vec![("pids.max", caps.procs.to_string())],
                "memory" => vec![
                    ("memory.limit_in_bytes", (caps.memory_mb * MB).to_string()),
                    ("memory.swappiness", "0".into()),
                ],
                _ => vec![
                    ("cpu.cfs_period_us", "100000".into()),
                    ("cpu.cfs_quota_us", "100000".into()),
                ],
            };
            let dir = cgroups::make(controller, &name, &writes)?;
            jail.cgroups.push((controller, dir));
            if controller == "cpu" {
                cgroups::weigh_cpu();
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

    /// The uid the bot runs as (outside its user namespace), where arena is root; `None`: the
    /// user that runs arena.
    pub fn uid(&self) -> Option<u32> {
        self.uid.map(|(uid, _)| uid)
    }

    /// The command that runs `command` (with `sh -c`) in this sandbox; an error says why the
    /// command line cannot be run sandboxed (a path it names that a bot may not see).
    pub fn command(&self, command: &str) -> std::io::Result<Command> {
        let mut cmd = self.sandbox(command)?;
        self.inside(&mut cmd);
        cmd.args(["sh", "-c"])
            .arg(format!("{}\n{command}", self.limits()));
        Ok(cmd)
    }

    /// The command that makes this sandbox for `command` (its cgroups, bwrap's namespaces,
    /// mounts, seccomp filters and environment), up to bwrap's `--`: what runs in it follows.
    fn sandbox(&self, command: &str) -> std::io::Result<Command> {
        let caps = &self.caps;
        let view = fs::view(command, caps.fence)
            .map_err(|why| std::io::Error::new(std::io::ErrorKind::PermissionDenied, why))?;
        let shown = &view.folders;
        let blobs = blobs().map_err(std::io::Error::other)?;
        // What the process that runs arena was given and did not mark close-on-exec (a shell's,
        // a CI runner's descriptors) would reach the bot: none does.
        close_fds::set_fds_cloexec_threadsafe(3, &[]);
        let join: String = self
            .cgroups
            .iter()
            .map(|(_, d)| format!("echo $$ > {}/cgroup.procs && ", d.display()))
            .collect();
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!(
                "{join}a=$1 b=$2 c=$3 d=$4; shift 4; exec \"$@\" 3<\"$a\" 4<\"$b\" 5<\"$c\" 6<\"$d\""
            ))
            .arg("sh");
        let me = std::process::id();
        for file in blobs.files.iter().chain(&self.ids) {
            cmd.arg(format!("/proc/{me}/fd/{}", file.as_raw_fd()));
        }
        cmd.arg("bwrap");
        self.unshare(&mut cmd);
        cmd.args(["--die-with-parent", "--new-session"])
            .args(fs::system_args())
            .args(["--perms", "0644", "--ro-bind-data", "5", "/etc/passwd"])
            .args(["--perms", "0644", "--ro-bind-data", "6", "/etc/group"])
            .args(["--proc", "/proc"]);
        writable(&mut cmd, caps);
        // The folders above a shown one are made (empty, open to the bot's user), then it is
        // bound over its place.
        let mut made: Vec<PathBuf> = vec!["/".into(), "/tmp".into()];
        let mut make_above = |cmd: &mut Command, dir: &Path| {
            let above: Vec<PathBuf> = dir.ancestors().skip(1).map(Path::to_path_buf).collect();
            for a in above.into_iter().rev() {
                if !made.contains(&a) && !fs::in_system(&a) {
                    cmd.args(["--perms", "0755", "--dir"]).arg(&a);
                    made.push(a);
                }
            }
        };
        for dir in shown {
            make_above(&mut cmd, dir);
            cmd.arg("--ro-bind").arg(dir).arg(dir);
        }
        // The current folder's path, so that relative paths of the command line lead where
        // they did (to the folders shown); its content is not shown.
        if let Ok(cwd) = std::env::current_dir() {
            if !shown.iter().any(|d| cwd.starts_with(d)) && !fs::in_system(&cwd) {
                make_above(&mut cmd, &cwd);
                cmd.args(["--perms", "0755", "--dir"]).arg(&cwd);
            }
            cmd.arg("--chdir").arg(&cwd);
        }
        cmd.args(["--remount-ro", "/"])
            .args(["--add-seccomp-fd", "3", "--add-seccomp-fd", "4"])
            .arg("--clearenv")
            .args(["--setenv", "HOME", SCRATCH, "--setenv", "TMPDIR", SCRATCH]);
        for name in KEPT_ENV {
            let Some(mut value) = std::env::var_os(name) else {
                continue;
            };
            if let (Some(bin), "PATH") = (&view.path_first, name) {
                let mut first = bin.as_os_str().to_os_string();
                first.push(":");
                first.push(&value);
                value = first;
            }
            cmd.arg("--setenv").arg(name).arg(value);
        }
        cmd.arg("--");
        Ok(cmd)
    }

    /// bwrap's namespaces and capabilities.
    fn unshare(&self, cmd: &mut Command) {
        let caps = &self.caps;
        match self.uid() {
            // Root: bwrap makes the namespaces and mounts as root, in the machine's user
            // namespace (so the bot, without capabilities there, can change none of them), and
            // `setpriv` below makes the bot the seat's own user.
            Some(_) => {
                cmd.args([
                    "--unshare-pid",
                    "--unshare-ipc",
                    "--unshare-uts",
                    "--unshare-cgroup-try",
                ]);
                if !caps.share_net {
                    cmd.arg("--unshare-net");
                }
                cmd.args(["--cap-drop", "ALL"])
                    .args(["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"])
                    .args(["--cap-add", "CAP_SETPCAP"]);
            }
            // Another user: bwrap makes a user namespace of its own, with no capabilities in it.
            None => {
                cmd.args(["--unshare-all", "--unshare-user", "--disable-userns"]);
                if caps.share_net {
                    cmd.arg("--share-net");
                }
                cmd.args(["--cap-drop", "ALL"]);
            }
        }
    }

    /// What runs inside before the bot: `setpriv` to the seat's own user (root).
    fn inside(&self, cmd: &mut Command) {
        if let Some(uid) = self.uid() {
            cmd.arg("setpriv")
                .arg(format!("--reuid={uid}"))
                .arg(format!("--regid={uid}"))
                .args([
                    "--clear-groups",
                    "--inh-caps=-all",
                    "--bounding-set=-all",
                    "--no-new-privs",
                    "--",
                ]);
        }
    }

    /// The rlimits, the first line of the `sh -c` that runs the bot's command line (`ulimit`,
    /// inside, after `setpriv`: the bot inherits them; with no capability, it cannot raise a hard
    /// limit): CPU seconds (soft, SIGXCPU; the hard limit a second later, SIGKILL), file size (in
    /// 512-byte blocks), open files, processes, and address space where there is no memory
    /// cgroup. A `ulimit` that fails ends that `sh` (exit status 126) before the command line
    /// runs: no bot runs without its limits.
    fn limits(&self) -> String {
        let caps = &self.caps;
        let mut limits = format!(
            "ulimit -t {} && ulimit -S -t {} && ulimit -f {} && ulimit -n {} && ulimit -p {}",
            caps.cpu_s + 1,
            caps.cpu_s,
            caps.file_mb * MB / 512,
            caps.open_files,
            self.nproc()
        );
        if !self.has("memory") {
            limits.push_str(&format!(" && ulimit -v {}", caps.memory_mb * 1024));
        }
        limits + " || exit 126"
    }

    /// `RLIMIT_NPROC`: the cap, where the bot has a uid of its own or the pids cgroup holds it
    /// (the rlimit is then a second guard); else the cap above the user's processes now, since
    /// the rlimit counts every process of the user, not the bot's alone.
    fn nproc(&self) -> u64 {
        if self.uid.is_some() || self.has("pids") {
            return self.caps.procs;
        }
        use std::os::unix::fs::MetadataExt;
        let me = cgroups::euid();
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

/// The one tmpfs a bot may write (`/tmp`, its scratch folder, `/dev/shm`) and its `/dev`.
fn writable(cmd: &mut Command, caps: &Caps) {
    // One tmpfs for all a bot may write: a megabyte over the file size cap, so that one
    // file written to the cap meets the cap (SIGXFSZ, named) before a full disk (ENOSPC).
    let disk = ((caps.disk_mb + 1) * MB).to_string();
    cmd.args(["--perms", "1777", "--size", &disk, "--tmpfs", "/tmp"])
        .args(["--perms", "1777", "--dir", SCRATCH])
        .args(["--perms", "1777", "--dir", "/tmp/.shm"]);
    // A /dev of its own: the harmless devices, /dev/shm in the tmpfs above, read-only.
    cmd.args(["--size", "65536", "--tmpfs", "/dev"]);
    for dev in ["null", "zero", "full", "random", "urandom"] {
        let path = format!("/dev/{dev}");
        cmd.args(["--dev-bind", &path, &path]);
    }
    cmd.args(["--symlink", "/tmp/.shm", "/dev/shm"]).args([
        "--symlink",
        "/proc/self/fd",
        "/dev/fd",
    ]);
    for (i, std) in ["stdin", "stdout", "stderr"].iter().enumerate() {
        cmd.arg("--symlink")
            .arg(format!("/proc/self/fd/{i}"))
            .arg(format!("/dev/{std}"));
    }
    cmd.args(["--remount-ro", "/dev"]);
}

/// How long a dropped sandbox waits for its cgroups to empty. A killed process is gone a moment
/// after SIGKILL on a quiet machine; on a loaded one a fork bomb's last children took over the half
/// second this once was, and their cgroups were left behind.
const EMPTY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Drop for Jail {
    fn drop(&mut self) {
        let emptied = self.release();
        // The uid is free again once none of its processes is left (the cgroups are empty);
        // otherwise it stays taken for the rest of this arena.
        if let (Some((_, slot)), true) = (self.uid, emptied) {
            free_slot(slot);
        }
    }
}

impl Jail {
    /// Kills what is left in the bot's cgroups and removes them (what dropping the sandbox does;
    /// also called by the signal handler, which ends arena without dropping anything). Safe to
    /// call more than once; says whether every cgroup was emptied.
    pub fn release(&self) -> bool {
        let start = std::time::Instant::now();
        let mut tries = 0u32;
        let mut emptied = true;
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
                    emptied = false;
                    break;
                }
                if tries.is_multiple_of(20) {
                    self.kill_all();
                }
                tries = tries.wrapping_add(1);
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        if self.has("cpu") {
            cgroups::weigh_cpu();
        }
        emptied
    }
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
    fn an_unheld_cap_speaks_of_the_cap_and_takes_a_front_ends_name() {
        let unheld = Unheld {
            cap: CgroupCap::Procs,
            whose: "no writable cgroup v1 hierarchy".into(),
            how: "mount it".into(),
        };
        let said = unheld.to_string();
        assert!(
            said.starts_with("the process cap needs a pids cgroup, and there is no writable"),
            "{said}"
        );
        assert!(
            !said.contains("--"),
            "a library message names no flag: {said}"
        );
        assert!(said.ends_with("To get one, mount it"), "{said}");
        assert_eq!(
            unheld.naming("bot_procs"),
            said.replacen("the process cap", "bot_procs", 1)
        );
    }

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
    fn two_sandboxes_alive_at_once_have_two_uids() {
        let a = take_slot().unwrap();
        let b = take_slot().unwrap();
        assert_ne!(a, b);
        free_slot(a);
        let c = take_slot().unwrap();
        assert_eq!(c, a);
        free_slot(b);
        free_slot(c);
    }
}
