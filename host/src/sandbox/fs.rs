//! The file system a sandboxed bot sees, built up from nothing: the system's programs and
//! libraries (`/usr` and its `/bin`, `/sbin`, `/lib*` links), the few `/etc` files a dynamic
//! loader and an interpreter read, a `passwd` and `group` that name the bot alone, its own
//! `/proc`, a few devices, one tmpfs (`/tmp`, its scratch folder, and `/dev/shm`), the folder of
//! every file its command line names and the installation of an interpreter that lives in a home
//! folder. Nothing else: not the current folder, not `/sys`, `/run`, `/var`, not the homes.
//!
//! The paths a command line names are checked against the [`Fence`]: a path that leads into an
//! output of arena (replays, logs, results, reports), into another entry's folder, or into a home
//! folder outside the bot's own is refused, with the reason.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// What no sandboxed bot may see: arena's outputs and every entry's own folder.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Fence {
    /// Outputs (files and folders), as real paths: replays, logs, results, reports.
    outputs: Vec<(String, PathBuf)>,
    /// The own folder of each `cmd:` entry.
    entries: Vec<PathBuf>,
}

impl Fence {
    /// The fence of a match or tournament: `outputs` are (flag, path) (`--replay`,
    /// `--bot-logs`, ...; they need not exist yet), `commands` every `cmd:` command line.
    pub fn new<'a>(
        outputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
        commands: impl IntoIterator<Item = &'a str>,
    ) -> Fence {
        let mut entries: Vec<PathBuf> = commands.into_iter().filter_map(own_folder).collect();
        entries.sort();
        entries.dedup();
        Fence {
            outputs: outputs
                .into_iter()
                .map(|(flag, p)| (flag.to_string(), real_path(p)))
                .collect(),
            entries,
        }
    }
}

impl Fence {
    /// Whether `command` can be run sandboxed: `Err` names the path it may not see, and why.
    pub fn check(&self, command: &str) -> Result<(), String> {
        shown_folders(command, Some(self)).map(|_| ())
    }
}

/// `path` made absolute and real as far as it exists (the rest appended as it is): an output that
/// is not written yet.
pub(crate) fn real_path(path: &Path) -> PathBuf {
    let abs = std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let mut existing = abs.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return rest.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return abs,
        }
    }
}

/// The folders of the system a bot sees whole, read-only (or as the links they are).
const SYSTEM: [&str; 7] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
];

/// Paths a command line may name without their folder being shown: they are in the sandbox's
/// own view already (`/dev/zero`, `/proc/self`), or must stay hidden (`/etc`, `/sys`).
const NOT_SHOWN: [&str; 5] = ["/dev", "/proc", "/sys", "/etc", "/run"];

/// The `/etc` files (and folders) a dynamic loader and the usual interpreters read, where they
/// exist: found by running python3, node, java, mono, perl and sh in the sandbox.
const ETC: [&str; 11] = [
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "nsswitch.conf",
    "localtime",
    "timezone",
    "alternatives",
    "mime.types",
    "mono",
    "perl",
    "ssl/openssl.cnf",
];

/// `/etc` folders whose name starts so (`java-17-openjdk`, `python3.11`).
const ETC_PREFIXES: [&str; 2] = ["java-", "python3"];

/// The home folders: `/root`, every folder in `/home`, and `$HOME`.
pub(crate) fn homes() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("/root")];
    if let Ok(dir) = std::fs::read_dir("/home") {
        out.extend(dir.filter_map(Result::ok).map(|e| e.path()));
    }
    out.push(PathBuf::from("/home"));
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
        if home.is_absolute() && home != Path::new("/") {
            out.push(home);
        }
    }
    out.into_iter()
        .map(|h| h.canonicalize().unwrap_or(h))
        .collect()
}

/// The words of a command line, quotes taken off: what may name a path.
fn words(command: &str) -> impl Iterator<Item = &str> {
    command
        .split(|c: char| {
            c.is_whitespace() || c == ';' || c == '&' || c == '|' || c == '(' || c == ')'
        })
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .filter(|w| !w.is_empty())
}

/// The paths a command line names that exist, in order: each as written (absolute) and as its
/// real path; leaving out those in the sandbox's own view or hidden ([`NOT_SHOWN`], [`SYSTEM`]).
fn named_paths(command: &str) -> Vec<(PathBuf, PathBuf)> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut out: Vec<(PathBuf, PathBuf)> = Vec::new();
    for word in words(command) {
        // `--flag=path` and `VAR=path` name a path too.
        let word = word.rsplit_once('=').map_or(word, |(_, v)| v);
        if word.is_empty() || word.starts_with('-') {
            continue;
        }
        let Ok(path) = Path::new(word).canonicalize() else {
            continue;
        };
        // `/` and the top folders (`ls /`, `cd /tmp`) are not the bot's: they show nothing
        // (a file in one is refused, as it would show all of its folder).
        if in_any(&path, &NOT_SHOWN) || in_any(&path, &SYSTEM) || path.is_dir() && depth(&path) < 2
        {
            continue;
        }
        if !out.iter().any(|(_, p)| *p == path) {
            out.push((cwd.join(word), path));
        }
    }
    out
}

/// Whether `path` is in the system folders every bot sees ([`SYSTEM`]).
pub(crate) fn in_system(path: &Path) -> bool {
    in_any(path, &SYSTEM)
}

fn in_any(path: &Path, roots: &[&str]) -> bool {
    roots.iter().any(|r| {
        let r = Path::new(r);
        path.starts_with(r) || r.canonicalize().is_ok_and(|real| path.starts_with(real))
    })
}

/// The folder a named path shows: itself for a folder, its parent for a file.
fn folder_of(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        Some(path.to_path_buf())
    } else {
        path.parent().map(Path::to_path_buf)
    }
}

/// The entry's own folder: the folder of the first path its command line names (`python3
/// bots/a/bot.py`: `bots/a`, as a real path).
pub(crate) fn own_folder(command: &str) -> Option<PathBuf> {
    let (written, _) = named_paths(command).into_iter().next()?;
    // Where it is written, not where a link leads: a `bot.py` that is a link into a home folder
    // does not make that folder the bot's own.
    let is_link = std::fs::symlink_metadata(&written).is_ok_and(|m| m.file_type().is_symlink());
    let folder = if written.is_dir() && !is_link {
        written
    } else {
        written.parent()?.to_path_buf()
    };
    folder.canonicalize().ok()
}

/// The program a command line starts: its first word (after `exec` and `VAR=value`s), found in
/// `PATH` when it has no `/`, as a real path.
fn program(command: &str) -> Option<PathBuf> {
    let first = command
        .split_whitespace()
        .find(|w| *w != "exec" && !w.contains('='))?;
    let first = first.trim_matches(|c| c == '"' || c == '\'');
    if first.contains('/') {
        return Path::new(first).canonicalize().ok();
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(first))
        .find(|p| p.is_file())
        .and_then(|p| p.canonicalize().ok())
}

/// The installation an interpreter in a home folder belongs to, and the `bin` folder to put first
/// in its `PATH`. A pyenv shim (`/root/.pyenv/shims/python3`, a shell script that asks pyenv
/// which version to run, a second or more on a loaded machine) is resolved the way pyenv resolves
/// it (`PYENV_VERSION`, else a `.python-version` here or above, else pyenv's `version` file): the
/// version's folder (`/root/.pyenv/versions/3.11.7`) is shown and its `bin` put first. Another
/// program (nvm's `.../v20/bin/node`): the folder above its `bin`, else its own folder.
fn installation(program: &Path) -> Option<(PathBuf, Option<PathBuf>)> {
    let dir = program.parent()?;
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("shims") => {
            let root = dir.parent()?;
            let version = pyenv_version(root)?;
            let real = root.join("versions").join(version).canonicalize().ok()?;
            let bin = real.join("bin");
            bin.join(program.file_name()?)
                .is_file()
                .then_some((real, Some(bin)))
        }
        Some("bin") => dir.parent().map(|p| (p.to_path_buf(), None)),
        _ => Some((dir.to_path_buf(), None)),
    }
}

/// The Python version pyenv would run here (its first, when several are named).
fn pyenv_version(root: &Path) -> Option<String> {
    let first = |text: &str| {
        text.split(|c: char| c == ':' || c.is_whitespace())
            .find(|v| !v.is_empty())
            .map(str::to_string)
    };
    if let Some(v) = std::env::var("PYENV_VERSION").ok().and_then(|v| first(&v)) {
        return Some(v);
    }
    let cwd = std::env::current_dir().ok()?;
    let file = cwd
        .ancestors()
        .map(|d| d.join(".python-version"))
        .find(|f| f.is_file())
        .unwrap_or_else(|| root.join("version"));
    std::fs::read_to_string(file)
        .ok()
        .and_then(|t| first(&t))
        .filter(|v| v != "system" && !v.contains('/') && v != "..")
}

/// How deep a path is (`/a/b`: 2).
fn depth(path: &Path) -> usize {
    path.components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count()
}

/// Whether `a` is `b`, inside it, or holds it.
fn overlaps(a: &Path, b: &Path) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// What of the host a bot sees beyond the system: folders, read-only, and a `bin` folder to put
/// first in its `PATH`.
#[derive(Debug, Default)]
pub(crate) struct View {
    /// Folders shown, read-only, each at its own path.
    pub(crate) folders: Vec<PathBuf>,
    /// The interpreter's `bin` folder, first in `PATH` (a pyenv version's).
    pub(crate) path_first: Option<PathBuf>,
}

/// The folders of the host shown to a bot, read-only, for its command line: those of the paths it
/// names and the installation of its interpreter when that is in a home folder; or why not.
pub(crate) fn shown_folders(command: &str, fence: Option<&Fence>) -> Result<Vec<PathBuf>, String> {
    view(command, fence).map(|v| v.folders)
}

/// [`shown_folders`] and the `bin` folder to put first in the bot's `PATH`.
pub(crate) fn view(command: &str, fence: Option<&Fence>) -> Result<View, String> {
    let mut path_first = None;
    let homes = homes();
    let own = own_folder(command);
    let mut shown: Vec<PathBuf> = Vec::new();
    let mut check = |path: &Path, folder: PathBuf, is_interpreter: bool| -> Result<(), String> {
        let what = if is_interpreter {
            format!("its interpreter's installation {}", folder.display())
        } else {
            format!("{} (named on its command line)", path.display())
        };
        if depth(&folder) < 2 {
            return Err(format!(
                "{what} would show all of {}: put the bot in a folder of its own",
                folder.display()
            ));
        }
        if let Some(h) = homes
            .iter()
            .find(|h| folder != **h && h.starts_with(&folder) || **h == folder)
        {
            return Err(format!("{what} would show the home folder {}", h.display()));
        }
        let in_own = own.as_ref().is_some_and(|o| folder.starts_with(o));
        if !is_interpreter && !in_own {
            if let Some(h) = homes.iter().find(|h| folder.starts_with(h)) {
                return Err(format!(
                    "{what} leads into the home folder {}, outside the bot's own folder",
                    h.display()
                ));
            }
        }
        if let Some(fence) = fence {
            if let Some((flag, o)) = fence.outputs.iter().find(|(_, o)| overlaps(&folder, o)) {
                return Err(format!(
                    "{what} would show arena's output {} ({flag}): write outputs outside the bots' folders",
                    o.display()
                ));
            }
            let mine = own.as_ref();
            if let Some(e) = fence
                .entries
                .iter()
                .find(|e| Some(*e) != mine && overlaps(&folder, e))
            {
                return Err(format!(
                    "{what} would show another entry's folder {}: put each entry in a folder of its own",
                    e.display()
                ));
            }
        }
        if !shown.contains(&folder) {
            shown.push(folder);
        }
        Ok(())
    };
    if let Some(prog) = program(command) {
        if homes.iter().any(|h| prog.starts_with(h)) {
            if let Some((inst, bin)) = installation(&prog) {
                check(&prog, inst, true)?;
                path_first = bin;
            }
        }
    }
    for (_, path) in named_paths(command) {
        if let Some(folder) = folder_of(&path) {
            check(&path, folder, false)?;
        }
    }
    // A folder inside another shown one adds nothing.
    let all = shown.clone();
    shown.retain(|f| !all.iter().any(|g| g != f && f.starts_with(g)));
    Ok(View {
        folders: shown,
        path_first,
    })
}

/// The bwrap arguments of the system part of the view: `/usr` and the `/bin`, `/sbin`, `/lib*`
/// that exist (links kept as links, as usr-merged systems have them), and the `/etc` files.
pub(crate) fn system_args() -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::new();
    let mut push = |a: &[&std::ffi::OsStr]| args.extend(a.iter().map(|s| s.to_os_string()));
    for dir in SYSTEM {
        let path = Path::new(dir);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    push(&["--symlink".as_ref(), target.as_os_str(), path.as_os_str()]);
                }
            }
            Ok(m) if m.is_dir() => {
                push(&["--ro-bind".as_ref(), path.as_os_str(), path.as_os_str()])
            }
            _ => {}
        }
    }
    let mut etc: Vec<PathBuf> = ETC.iter().map(|f| Path::new("/etc").join(f)).collect();
    if let Ok(dir) = std::fs::read_dir("/etc") {
        let mut extra: Vec<PathBuf> = dir
            .filter_map(Result::ok)
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                ETC_PREFIXES.iter().any(|p| name.starts_with(p))
            })
            .map(|e| e.path())
            .collect();
        extra.sort();
        etc.extend(extra);
    }
    // bwrap makes the folders above a bind closed (0700, root's): these are open.
    for dir in ["/etc", "/etc/ssl"] {
        push(&[
            "--perms".as_ref(),
            "0755".as_ref(),
            "--dir".as_ref(),
            dir.as_ref(),
        ]);
    }
    for path in etc.iter().filter(|p| p.exists()) {
        push(&["--ro-bind".as_ref(), path.as_os_str(), path.as_os_str()]);
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_path_into_an_output_another_entry_or_a_home_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        let bots = root.join("bots");
        for d in ["a", "b"] {
            std::fs::create_dir_all(bots.join(d)).unwrap();
            std::fs::write(bots.join(d).join("bot.py"), "").unwrap();
        }
        let out = root.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let a = format!("cat {}", bots.join("a/bot.py").display());
        let b = format!("cat {}", bots.join("b/bot.py").display());
        let replay = out.join("r.jsonl");
        let fence = Fence::new([("--replay", replay.as_path())], [a.as_str(), b.as_str()]);
        assert_eq!(
            shown_folders(&a, Some(&fence)).unwrap(),
            vec![bots.join("a")]
        );
        // Its own folder and a file of its own: one folder.
        let own_file = format!("{a} {}", bots.join("a/bot.py").display());
        assert_eq!(
            shown_folders(&own_file, Some(&fence)).unwrap(),
            vec![bots.join("a")]
        );
        let into_b = format!("{a} {}", bots.join("b/bot.py").display());
        let why = shown_folders(&into_b, Some(&fence)).unwrap_err();
        assert!(why.contains("another entry's folder"), "{why}");
        let into_out = format!("{a} {}", out.display());
        let why = shown_folders(&into_out, Some(&fence)).unwrap_err();
        assert!(why.contains("output") && why.contains("--replay"), "{why}");
        // A symlink is followed to where it leads.
        let link = bots.join("a/link");
        std::os::unix::fs::symlink(&out, &link).unwrap();
        let why = shown_folders(&format!("{a} {}", link.display()), Some(&fence)).unwrap_err();
        assert!(why.contains("--replay"), "{why}");
        // A bot file that is a link into a home folder does not make that folder its own.
        let home = homes()[0].clone();
        if let Ok(secret) = tempfile::tempdir_in(&home) {
            let link = bots.join("a/evil.py");
            std::os::unix::fs::symlink(secret.path(), &link).unwrap();
            let why = shown_folders(&format!("cat {}", link.display()), None).unwrap_err();
            assert!(why.contains("home folder"), "{why}");
        }
        // All of / or a top folder is never shown.
        let top = Path::new("/arena-sandbox-test-top");
        if std::fs::write(top, "").is_ok() {
            let why = shown_folders(&format!("cat {}", top.display()), None).unwrap_err();
            let _ = std::fs::remove_file(top);
            assert!(why.contains("would show all of /"), "{why}");
        }
        assert!(shown_folders("ls / /opt", None).unwrap().is_empty());
        // System paths are there already and show nothing more.
        assert!(
            shown_folders("head -c 1 /dev/zero /usr/bin/env /etc/passwd", None)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn an_output_not_written_yet_is_fenced_by_its_real_path() {
        let root = tempfile::tempdir().unwrap();
        let real = root.path().canonicalize().unwrap();
        assert_eq!(
            real_path(&root.path().join("logs/0.stderr")),
            real.join("logs/0.stderr")
        );
    }
}
