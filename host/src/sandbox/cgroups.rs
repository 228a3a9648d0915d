//! The cgroups (v1) a sandboxed bot runs in: which controllers can be used here, and the folders
//! of one bot.
//!
//! arena's folder in each hierarchy is `arena` for root and `arena-<uid>` for another user, so a
//! folder root made does not stop a normal user (it gets its own, or none where it may not make
//! one). A controller counts as usable only when a folder can really be made and removed in it
//! (checked once, by [`usable`]): `--sandbox` learns before the match what it has, rather than
//! from a "Permission denied" at the first bot.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The cgroup v1 controllers used, when they are mounted and writable.
pub(crate) const CONTROLLERS: [&str; 3] = ["pids", "memory", "cpu"];

/// Where the v1 hierarchies are mounted.
const MOUNTS: &str = "/sys/fs/cgroup";

/// The effective user of this process (the owner of `/proc/self`).
pub(crate) fn euid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map_or(u32::MAX, |m| m.uid())
}

/// arena's folder in `controller`'s hierarchy, for this user.
pub(crate) fn arena_root(controller: &str) -> PathBuf {
    let name = match euid() {
        0 => "arena".to_string(),
        uid => format!("arena-{uid}"),
    };
    Path::new(MOUNTS).join(controller).join(name)
}

/// Whether `controller` can be used: its v1 hierarchy is mounted (a v2 folder has
/// `cgroup.controllers`; nothing is made where no hierarchy is), arena's folder exists or can be
/// made, and a folder can be made in it and removed.
fn probe(controller: &str) -> bool {
    let mount = Path::new(MOUNTS).join(controller);
    if !mount.join("cgroup.procs").exists() || mount.join("cgroup.controllers").exists() {
        return false;
    }
    let root = arena_root(controller);
    if std::fs::create_dir(&root).is_err() && !root.join("cgroup.procs").exists() {
        return false;
    }
    let probe = root.join(format!("probe-{}", std::process::id()));
    match std::fs::create_dir(&probe) {
        Ok(()) => std::fs::remove_dir(&probe).is_ok(),
        Err(e) => e.kind() == io::ErrorKind::AlreadyExists && std::fs::remove_dir(&probe).is_ok(),
    }
}

/// The controllers this process can use (probed once).
pub(crate) fn usable() -> &'static [&'static str] {
    static USABLE: OnceLock<Vec<&'static str>> = OnceLock::new();
    USABLE.get_or_init(|| CONTROLLERS.into_iter().filter(|c| probe(c)).collect())
}

/// Makes `name`'s folder in `controller`'s hierarchy and writes its caps.
pub(crate) fn make(controller: &str, name: &str, writes: &[(&str, String)]) -> io::Result<PathBuf> {
    let dir = arena_root(controller).join(name);
    std::fs::create_dir(&dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot make cgroup {}: {e}", dir.display()),
        )
    })?;
    for (file, value) in writes {
        if let Err(e) = std::fs::write(dir.join(file), value) {
            let _ = std::fs::remove_dir(&dir);
            return Err(io::Error::new(
                e.kind(),
                format!("cannot write {}/{file}: {e}", dir.display()),
            ));
        }
    }
    Ok(dir)
}

/// The weight of a process in the cpu controller (`cpu.shares`), and the most it may be set to.
const SHARES: u64 = 1024;
const MAX_SHARES: u64 = 262_144;

/// Gives arena's cpu folder the weight of the bots in it, one process's each, so that against
/// the other processes of a loaded machine the sandboxed bots together get what as many
/// unsandboxed processes would: left at the default, the folder weighs one process, and every
/// sandboxed bot of every arena shared that one process's part (a bot took 2.8 times as long
/// beside a 1,200-match tournament). Each bot keeps its own quota of one core. Called when a bot's
/// folder is made or removed; a failure leaves the weight as it was (never the match).
pub(crate) fn weigh_cpu() {
    let root = arena_root("cpu");
    let bots = std::fs::read_dir(&root).map_or(0, |d| {
        d.filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .count() as u64
    });
    let shares = (bots.max(1) * SHARES).min(MAX_SHARES);
    let _ = std::fs::write(root.join("cpu.shares"), shares.to_string());
}
