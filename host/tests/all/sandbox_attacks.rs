//! A bot that knows it is sandboxed, run by root (as CI runs these tests): one hostile bot per
//! attack of issue 36, each a small Python script the test writes into a folder of its own. Each
//! tries its attack at its start, says on stderr what it got (`ESCAPED: ...` when the attack
//! worked, `held: ...` when it did not), then passes every turn. For each: the attack fails, the
//! match completes, the honest seat (the example bot, sandboxed too) plays exactly the match it
//! plays against a bot that only passes (the replays' turns are the same line for line), the
//! replay verifies, and nothing is left behind (processes, cgroups, files in the bots' folders);
//! where a cap stopped the bot, the report names it. The matches run side by side.

use crate::common::*;
use crate::sandbox_bots::{cgroups_left, sandbox_available};
use std::path::{Path, PathBuf};

/// The hostile bots' scripts: one per attack, and `hostile.py`, what they share.
fn fixture(file: &str) -> PathBuf {
    workspace().join("host/tests/bots/sandbox").join(file)
}

/// One attack: its name (its folder; its script is the name with `_` for `-`), the caps after
/// `--sandbox`, and what its report must name (a cap that stopped it).
struct Attack {
    name: &'static str,
    caps: &'static [&'static str],
    fault: Option<&'static str>,
    /// Lines its stderr must hold (a protection seen at work, not only an attack that failed).
    shows: &'static [&'static str],
}

const CAPS: &[&str] = &[
    "--bot-memory",
    "256",
    "--bot-procs",
    "64",
    "--bot-disk",
    "64",
];

fn attacks() -> Vec<Attack> {
    vec![
        Attack {
            name: "capabilities",
            caps: CAPS,
            fault: None,
            shows: &["held: CapEff 0", "held: seccomp filter on"],
        },
        Attack {
            name: "remount",
            caps: CAPS,
            fault: None,
            shows: &["held: unshare: EPERM", "held: remount /: EPERM"],
        },
        Attack {
            name: "umount",
            caps: CAPS,
            fault: None,
            shows: &["held: umount /proc: EPERM"],
        },
        Attack {
            name: "host-proc",
            caps: CAPS,
            fault: None,
            shows: &["processes in view"],
        },
        Attack {
            name: "cgroups",
            caps: CAPS,
            fault: None,
            shows: &["held: no /sys", "held: mount cgroup: EPERM"],
        },
        Attack {
            name: "tiocsti",
            caps: CAPS,
            fault: None,
            // EPERM, not ENOTTY: the seccomp filter refuses the ioctl before the kernel looks
            // at the descriptor.
            shows: &["held: /dev/tty: ENOENT", "held: TIOCSTI on 0: EPERM"],
        },
        Attack {
            name: "peek",
            caps: CAPS,
            fault: None,
            shows: &["ENOENT"],
        },
        Attack {
            name: "unix-socket",
            caps: CAPS,
            fault: None,
            shows: &["ENOENT"],
        },
        Attack {
            name: "root-only",
            caps: CAPS,
            fault: None,
            shows: &["secret: EACCES", "/etc/shadow: ENOENT"],
        },
        Attack {
            name: "inherited-fd",
            caps: CAPS,
            fault: None,
            shows: &["descriptors: [0, 1, 2, 3]"],
        },
        Attack {
            name: "fill-tmp",
            caps: &[
                "--bot-memory",
                "256",
                "--bot-procs",
                "64",
                "--bot-disk",
                "16",
            ],
            fault: None,
            shows: &["/dev/shm full after", "ENOSPC"],
        },
        Attack {
            name: "fill-shm-memory",
            caps: &[
                "--bot-memory",
                "48",
                "--bot-procs",
                "64",
                "--bot-disk",
                "256",
            ],
            fault: Some("memory cap (48 MB)"),
            shows: &[],
        },
    ]
}

/// The seed of every match here: no bot may find it in a command line.
const SEED: &str = "9173";

/// A match of `bot` (seat 0) against the sandboxed example bot: its report, the replay's turns
/// (its header left out), and seat 0's stderr. `inherit`: run arena with descriptors 7 (a file
/// to read) and 8 (a file to write) inherited, as a shell may leave them.
fn play(
    bot: &str,
    caps: &[&str],
    out: &Path,
    name: &str,
    inherit: Option<(&Path, &Path)>,
) -> Result<Played, String> {
    let replay = out.join(format!("{name}.jsonl"));
    let logs = out.join(format!("logs-{name}"));
    let arena = Arena::play("tower-defense")
        .args(&[
            "--max-turns",
            "40",
            "--seed",
            SEED,
            "--turn-ms",
            "500",
            "--json",
        ])
        .bots(&[bot, "cmd:python3 host/examples/tower_defense_bot.py"])
        .args(&["--sandbox", "--bot-cpu", "5"])
        .args(caps)
        .replay(&replay)
        .file("--bot-logs", &logs);
    let output = match inherit {
        None => arena.run(),
        Some((read, write)) => {
            let inner = arena.command();
            let mut cmd = std::process::Command::new("sh");
            cmd.arg("-c")
                .arg("exec \"$@\" 7<\"$R\" 8>>\"$W\"")
                .arg("sh")
                .arg(inner.get_program())
                .args(inner.get_args())
                .env("R", read)
                .env("W", write)
                .current_dir(workspace());
            cmd.output().map_err(|e| e.to_string())?
        }
    };
    if !output.status.success() {
        return Err(format!("arena failed: {}", text(&output)));
    }
    let v = Arena::verify("tower-defense", &replay)
        .args(&["--partial"])
        .run();
    if !v.status.success() {
        return Err(format!("the replay does not verify: {}", text(&v)));
    }
    let turns: Vec<String> = std::fs::read_to_string(&replay)
        .map_err(|e| e.to_string())?
        .lines()
        .skip(1)
        .map(String::from)
        .collect();
    let stderr = std::fs::read_to_string(logs.join("0.stderr")).unwrap_or_default();
    Ok((report(&output), turns, stderr))
}

/// Every file under `dir`, as paths relative to it.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p.strip_prefix(dir).unwrap_or(&p).to_path_buf());
        }
    }
    out.sort();
    out
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The bots' folders and what their attacks aim at.
struct Planted {
    bots: PathBuf,
    out: PathBuf,
    scripts: Vec<PathBuf>,
    pass: PathBuf,
    listener: std::os::unix::net::UnixListener,
    fd_read: PathBuf,
    fd_write: PathBuf,
}

/// Each bot in a folder of its own under `root/bots` (its script as attack.py, and hostile.py),
/// the outputs under `root/out`, and their targets: the other seat's logs and the replay being
/// written, a unix socket outside /tmp, a root-only file in the bot's own folder, files for the
/// descriptors arena inherits.
fn plant(root: &Path, attacks: &[Attack]) -> Planted {
    let (bots, out) = (root.join("bots"), root.join("out"));
    std::fs::create_dir_all(&out).unwrap();
    let script = |name: &str, file: &str| {
        let dir = bots.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(fixture("hostile.py"), dir.join("hostile.py")).unwrap();
        let path = dir.join("attack.py");
        std::fs::copy(fixture(file), &path).unwrap();
        path
    };
    let pass = script("pass", "passing.py");
    let scripts: Vec<PathBuf> = attacks
        .iter()
        .map(|a| script(a.name, &format!("{}.py", a.name.replace('-', "_"))))
        .collect();
    let targets = |name: &str, paths: &[PathBuf]| {
        let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        std::fs::write(bots.join(name).join("targets.txt"), list.join("\n")).unwrap();
    };
    targets(
        "peek",
        &[
            out.join("logs-peek/1.stderr"),
            out.join("logs-peek/1.input"),
            out.join("peek.jsonl"),
        ],
    );
    let sock_dir = root.join("sock");
    std::fs::create_dir_all(&sock_dir).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(sock_dir.join("s")).unwrap();
    listener.set_nonblocking(true).unwrap();
    targets("unix-socket", &[sock_dir.join("s")]);
    {
        use std::os::unix::fs::PermissionsExt;
        let secret = bots.join("root-only/secret");
        std::fs::write(&secret, "ROOT-ONLY-SECRET").unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (fd_read, fd_write) = (root.join("fd-secret"), root.join("fd-sink"));
    std::fs::write(&fd_read, "INHERITED-SECRET").unwrap();
    std::fs::write(&fd_write, "").unwrap();
    Planted {
        bots,
        out,
        scripts,
        pass,
        listener,
        fd_read,
        fd_write,
    }
}

type Played = (serde_json::Value, Vec<String>, String);

/// What went wrong in one attack's match, against the baseline's (`base`).
fn judge(a: &Attack, result: Result<Played, String>, base: &Played) -> Vec<String> {
    let what = a.name;
    let (report, turns, stderr) = match result {
        Ok(r) => r,
        Err(e) => return vec![format!("{what}: {e}")],
    };
    eprintln!("--- {what}:\n{}", stderr.trim());
    let mut failures: Vec<String> = stderr
        .lines()
        .filter(|l| l.contains("ESCAPED"))
        .map(|l| format!("{what}: {l}"))
        .collect();
    // A root-only file is readable by a bot run by its owner; a memory cgroup is root's.
    let root_only = a.name == "root-only" || a.name == "fill-shm-memory";
    if !root_only || is_root() {
        for want in a.shows {
            if !stderr.contains(want) {
                failures.push(format!("{what}: its log does not show `{want}`: {stderr}"));
            }
        }
        if let Some(cap) = a.fault {
            let faults = report["seats"][0]["faults"].to_string();
            if !faults.contains(cap) {
                failures.push(format!("{what}: no fault names the {cap}: {faults}"));
            }
        }
    }
    if turns != base.1 {
        failures.push(format!(
            "{what}: the honest seat played another match than against a passing bot"
        ));
    }
    if report["seats"][1] != base.0["seats"][1] {
        failures.push(format!(
            "{what}: the honest seat's result differs: {} against {}",
            report["seats"][1], base.0["seats"][1]
        ));
    }
    failures
}

#[test]
fn every_attack_of_a_sandboxed_bot_fails_and_the_honest_seat_plays_on() {
    if !sandbox_available() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    let attacks = attacks();
    let p = plant(&root, &attacks);
    let before_files = files(&p.bots);
    let old_cgroups = cgroups_left(&[]);
    let pass_bot = format!("cmd:python3 {}", p.pass.display());
    // Side by side: each match mostly waits on Python starting.
    let results: Vec<Result<Played, String>> = std::thread::scope(|s| {
        let baseline = s.spawn(|| play(&pass_bot, CAPS, &p.out, "baseline", None));
        let runs: Vec<_> = attacks
            .iter()
            .zip(&p.scripts)
            .map(|(a, path)| {
                let (out, inherit) = (&p.out, (p.fd_read.as_path(), p.fd_write.as_path()));
                let inherit = (a.name == "inherited-fd").then_some(inherit);
                s.spawn(move || {
                    let bot = format!("cmd:python3 {}", path.display());
                    play(&bot, a.caps, out, a.name, inherit)
                })
            })
            .collect();
        std::iter::once(baseline)
            .chain(runs)
            .map(|h| h.join().unwrap())
            .collect()
    });
    let mut results = results.into_iter();
    let base = results.next().unwrap().expect("the baseline match");
    let mut failures: Vec<String> = attacks
        .iter()
        .zip(results)
        .flat_map(|(a, r)| judge(a, r, &base))
        .collect();
    if p.listener.accept().is_ok() {
        failures.push("unix-socket: a bot connected to the unix socket".into());
    }
    let written = std::fs::read_to_string(&p.fd_write).unwrap();
    if !written.is_empty() {
        failures.push(format!(
            "inherited-fd: the bot wrote through fd 8: {written}"
        ));
    }
    let after_files = files(&p.bots);
    if after_files != before_files {
        failures.push(format!(
            "files in the bots' folders changed: {before_files:?} -> {after_files:?}"
        ));
    }
    let pgrep = std::process::Command::new("pgrep")
        .args(["-af", &root.display().to_string()])
        .output()
        .unwrap();
    let left = String::from_utf8_lossy(&pgrep.stdout).into_owned();
    if !left.trim().is_empty() {
        failures.push(format!("processes left behind: {left}"));
    }
    let left = cgroups_left(&old_cgroups);
    if !left.is_empty() {
        failures.push(format!("cgroups left: {left:?}"));
    }
    assert_no_failures(&failures);
}

/// A path its command line names that leads into a hidden home folder (a link in the bot's own
/// folder), into another entry's folder or into an output of arena: `--sandbox` refuses before
/// the match, naming the path and why.
#[test]
fn a_command_line_naming_what_a_bot_may_not_see_is_refused() {
    if !sandbox_available() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    let bot = root.join("bots/a");
    std::fs::create_dir_all(&bot).unwrap();
    std::fs::write(bot.join("bot.py"), "").unwrap();
    let home = std::path::PathBuf::from(std::env::var("HOME").unwrap_or_else(|_| "/root".into()));
    let hidden = tempfile::Builder::new()
        .prefix(".arena-sandbox-test")
        .tempdir_in(&home)
        .unwrap();
    std::fs::write(hidden.path().join("id_rsa"), "HOME-SECRET").unwrap();
    std::os::unix::fs::symlink(hidden.path(), bot.join("keys")).unwrap();
    let other = root.join("bots/b");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("bot.py"), "").unwrap();
    let a = format!("cmd:python3 {}", bot.join("bot.py").display());
    let b = format!("cmd:python3 {}", other.join("bot.py").display());
    let cases: Vec<(String, Vec<String>, &str)> = vec![
        (
            format!("{a} {}", bot.join("keys").display()),
            vec![],
            "leads into the home folder",
        ),
        (
            format!("{a} {}", other.join("bot.py").display()),
            vec![b.clone()],
            "another entry's folder",
        ),
        (
            a.clone(),
            vec![
                "--replay".into(),
                bot.join("match.jsonl").display().to_string(),
            ],
            "arena's output",
        ),
        (
            a.clone(),
            vec!["--bot-logs".into(), bot.join("logs").display().to_string()],
            "(--bot-logs)",
        ),
    ];
    let mut failures = Vec::new();
    for (first, rest, why) in &cases {
        let mut args: Vec<&str> = vec!["--bot", first];
        match rest.first() {
            Some(other) if other.starts_with("cmd:") => args.extend(["--bot", other]),
            _ => {
                args.extend(["--bot", "random"]);
                args.extend(rest.iter().map(String::as_str));
            }
        }
        let out = Arena::play("tower-defense")
            .args(&args)
            .args(&["--max-turns", "3", "--sandbox"])
            .run();
        let said = text(&out);
        if out.status.success() || !said.contains("--sandbox: cmd:") || !said.contains(why) {
            failures.push(format!(
                "{first} {rest:?}: not refused with `{why}`: {said}"
            ));
        }
        if bot.join("logs").exists() || bot.join("match.jsonl").exists() {
            failures.push(format!("{first}: an output was written before the refusal"));
        }
    }
    assert_no_failures(&failures);
}

/// As a normal user on a machine where root has run sandboxes (its `arena` cgroup folders are
/// there, and not the user's to write): `--sandbox` runs without cgroups, rather than failing at
/// the first bot with "Permission denied"; no capability, the seccomp filter and the tmpfs's size
/// hold; the example bot plays the match it plays for root. Run where the tests run as root, by
/// `setpriv` to `nobody`.
#[test]
fn a_normal_user_after_root_sandboxes_without_cgroups() {
    if !sandbox_available() || !is_root() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let bot = dir.path().join("bots/capabilities");
    std::fs::create_dir_all(&bot).unwrap();
    for (from, to) in [
        ("hostile.py", "hostile.py"),
        ("capabilities.py", "attack.py"),
    ] {
        std::fs::copy(fixture(from), bot.join(to)).unwrap();
    }
    let play = |hostile: &Path, logs: &Path, user: bool| {
        let arena = Arena::play("tower-defense")
            .args(&[
                "--max-turns",
                "30",
                "--seed",
                SEED,
                "--turn-ms",
                "500",
                "--json",
            ])
            .bots(&[
                "cmd:python3 host/examples/tower_defense_bot.py",
                &format!("cmd:python3 {}", hostile.display()),
            ])
            .args(&["--sandbox", "--bot-disk", "16"])
            .file("--bot-logs", logs);
        if !user {
            return arena.run();
        }
        let inner = arena.command();
        std::process::Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(inner.get_program())
            .args(inner.get_args())
            .current_dir(workspace())
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", dir.path())
            .output()
            .unwrap()
    };
    let hostile = bot.join("attack.py");
    let as_root = play(&hostile, &dir.path().join("root-logs"), false);
    let as_user = play(&hostile, &dir.path().join("user-logs"), true);
    assert!(as_root.status.success(), "{}", text(&as_root));
    assert!(as_user.status.success(), "{}", text(&as_user));
    assert_eq!(report(&as_user)["seats"][0], report(&as_root)["seats"][0]);
    let log = std::fs::read_to_string(dir.path().join("user-logs/1.stderr")).unwrap();
    assert!(
        log.contains("held: CapEff 0") && !log.contains("ESCAPED"),
        "{log}"
    );
}
