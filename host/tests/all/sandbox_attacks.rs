//! A bot that knows it is sandboxed, run by root (as CI runs these tests): one hostile bot per
//! attack of issue 36, in every game. Each attack is a small Python script (`attack.py`) the test
//! writes into a folder of its own, beside `hostile.py` (what the attacks share) and the game's
//! shim (`game.py`: the game's example bot, with `json_lines.py`): the bot tries its attack at
//! its start, says on stderr what it got (`ESCAPED: ...` when the attack worked, `held: ...` when
//! it did not), then plays on as the shim (same process, same sandbox). Every `cmd:` bot speaks
//! through a pipe, so every attack applies to all five games. For each: the attack fails, the
//! match completes, the honest seat (the example bot, sandboxed too) plays exactly the match it
//! plays against a bot that only plays (the replays are the same), or, where a cap stops the
//! hostile bot, against a bot that exits at its start; the replay verifies, and nothing is left
//! behind (processes, cgroups, files in the bots' folders); where a cap stopped the bot, the
//! report names it. The matches of one game run side by side, the games one after the other.

use crate::common::*;
use crate::sandbox_bots::{cgroups_left, sandbox_available};
use std::path::{Path, PathBuf};

/// A game as these tests play it: a short match, the seats after the hostile one (the honest
/// example bot, then built-ins), how its replay is verified.
struct Game {
    name: &'static str,
    /// `arena play <game>` and the game's own options (a short match).
    play: Vec<String>,
    /// The honest seat: the game's example bot (its shim is a copy of it).
    example: &'static str,
    /// Built-in bots for the seats after the honest one.
    others: &'static [&'static str],
    replay_ext: &'static str,
    verify_extra: Vec<String>,
}

fn games() -> Vec<Game> {
    let map = golden("ants")
        .join("maps/tutorial1.map")
        .display()
        .to_string();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        Game {
            name: "tower-defense",
            play: s(&["play", "tower-defense", "--max-turns", "40"]),
            example: "host/examples/tower_defense_bot.py",
            others: &[],
            replay_ext: "jsonl",
            verify_extra: vec![],
        },
        Game {
            name: "colorfight",
            play: s(&["play", "colorfight", "--size", "8x8", "--ticks", "60"]),
            example: "host/examples/colorfight_bot.py",
            others: &[],
            replay_ext: "jsonl",
            verify_extra: vec![],
        },
        Game {
            name: "mammut",
            play: s(&["play", "mammut"]),
            example: "host/examples/mammut_bot.py",
            others: &["greedy", "random", "cautious"],
            replay_ext: "jsonl",
            verify_extra: vec![],
        },
        Game {
            name: "ballroom",
            play: s(&["play", "ballroom", "--max-turns", "15"]),
            example: "host/examples/ballroom_bot.py",
            others: &["strong", "holder"],
            replay_ext: "json",
            verify_extra: vec![],
        },
        Game {
            name: "ants",
            play: s(&[
                "play",
                "ants",
                "--map",
                &map,
                "--turns",
                "30",
                "--engine-seed",
                "1",
            ]),
            example: "host/examples/ants_bot.py",
            others: &[],
            replay_ext: "json",
            verify_extra: vec!["--map".into(), map],
        },
    ]
}

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
            name: "signals",
            caps: CAPS,
            // Killing its parent ends its own sandbox: the bot is dropped, as one that exits.
            fault: Some("exited"),
            shows: &[
                "held: pids it may signal: [",
                "held: SIGSTOP sent to [",
                "held: kill(parent 2, SIGKILL)",
            ],
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

/// A match of `bot` (seat 0) against the sandboxed example bot of `game` (seat 1) and its
/// built-ins: its report, the replay (a line-by-line replay's header left out), and seat 0's
/// stderr. `inherit`: run arena with descriptors 7 (a file to read) and 8 (a file to write)
/// inherited, as a shell may leave them; `user`: run it as that normal user (by `setpriv`).
fn play(
    game: &Game,
    bot: &str,
    caps: &[&str],
    out: &Path,
    name: &str,
    inherit: Option<(&Path, &Path)>,
    user: Option<User>,
) -> Result<Played, String> {
    let replay = out.join(format!("{name}.{}", game.replay_ext));
    let logs = out.join(format!("logs-{name}"));
    let honest = format!("cmd:python3 {}", game.example);
    let mut bots = vec![bot, honest.as_str()];
    bots.extend(game.others.iter().copied());
    let args: Vec<&str> = game.play.iter().map(String::as_str).collect();
    let arena = Arena::new(&args)
        .args(&["--seed", SEED, "--no-timeout", "--json"])
        .bots(&bots)
        .args(&["--sandbox", "--bot-cpu", "5"])
        .args(caps)
        .replay(&replay)
        .file("--bot-logs", &logs);
    let output = if inherit.is_none() && user.is_none() {
        arena.run()
    } else {
        let inner = arena.command();
        let mut words: Vec<std::ffi::OsString> = vec![inner.get_program().into()];
        words.extend(inner.get_args().map(Into::into));
        let mut cmd = std::process::Command::new("sh");
        cmd.current_dir(workspace());
        if let Some(user) = user {
            // As that user, with nothing of root's environment.
            words.splice(0..0, user.setpriv().into_iter().map(Into::into));
            cmd.env_clear()
                .env("PATH", "/usr/bin:/bin")
                .env("HOME", user.home);
        }
        let (read, write) = inherit.unwrap_or((Path::new("/dev/null"), Path::new("/dev/null")));
        cmd.arg("-c")
            .arg("exec \"$@\" 7<\"$R\" 8>>\"$W\"")
            .arg("sh")
            .args(words)
            .env("R", read)
            .env("W", write);
        cmd.output().map_err(|e| e.to_string())?
    };
    if !output.status.success() {
        return Err(format!("arena failed: {}", text(&output)));
    }
    let mut verify = vec!["verify", game.name, arg(&replay), "--partial"];
    verify.extend(game.verify_extra.iter().map(String::as_str));
    let v = Arena::new(&verify).run();
    if !v.status.success() {
        return Err(format!("the replay does not verify: {}", text(&v)));
    }
    let skip = usize::from(game.replay_ext == "jsonl");
    let turns: Vec<String> = std::fs::read_to_string(&replay)
        .map_err(|e| e.to_string())?
        .lines()
        .skip(skip)
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

pub(crate) fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The bots' folders and what their attacks aim at.
struct Planted {
    bots: PathBuf,
    listener: std::os::unix::net::UnixListener,
    fd_read: PathBuf,
    fd_write: PathBuf,
}

/// The targets every game's bots share: a unix socket outside /tmp, files for the descriptors
/// arena inherits.
fn plant(root: &Path) -> Planted {
    let bots = root.join("bots");
    let sock_dir = root.join("sock");
    std::fs::create_dir_all(&sock_dir).unwrap();
    let listener = std::os::unix::net::UnixListener::bind(sock_dir.join("s")).unwrap();
    listener.set_nonblocking(true).unwrap();
    let (fd_read, fd_write) = (root.join("fd-secret"), root.join("fd-sink"));
    std::fs::write(&fd_read, "INHERITED-SECRET").unwrap();
    std::fs::write(&fd_write, "").unwrap();
    // Open to `nobody` too (the run as a normal user).
    open_to_all(root);
    open_to_all(&fd_write);
    Planted {
        bots,
        listener,
        fd_read,
        fd_write,
    }
}

/// One game's bots, each in a folder of its own under `bots/<game>` (its script as attack.py,
/// hostile.py, and the game's shim), and their targets: the other seat's logs and the replay
/// being written, the unix socket, a root-only file in the bot's own folder, the test's pid. The
/// scripts of the attacks, then of the bot that only plays and of the one that exits at once.
fn plant_game(p: &Planted, root: &Path, game: &Game, attacks: &[Attack]) -> Vec<PathBuf> {
    let bots = p.bots.join(game.name);
    let out = root.join("out").join(game.name);
    std::fs::create_dir_all(&out).unwrap();
    open_to_all(&out);
    let example = workspace().join(game.example);
    let script = |name: &str, file: &str| {
        let dir = bots.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(fixture("hostile.py"), dir.join("hostile.py")).unwrap();
        std::fs::copy(&example, dir.join("game.py")).unwrap();
        let lines = workspace().join("host/examples/json_lines.py");
        std::fs::copy(lines, dir.join("json_lines.py")).unwrap();
        let path = dir.join("attack.py");
        std::fs::copy(fixture(file), &path).unwrap();
        path
    };
    let mut scripts: Vec<PathBuf> = attacks
        .iter()
        .map(|a| script(a.name, &format!("{}.py", a.name.replace('-', "_"))))
        .collect();
    scripts.push(script("pass", "passing.py"));
    scripts.push(script("exits", "exits.py"));
    let planted = |name: &str| attacks.iter().any(|a| a.name == name);
    let targets = |name: &str, list: &[String]| {
        if planted(name) {
            std::fs::write(bots.join(name).join("targets.txt"), list.join("\n")).unwrap();
        }
    };
    let path = |p: PathBuf| p.display().to_string();
    targets(
        "peek",
        &[
            path(out.join("logs-peek/1.stderr")),
            path(out.join("logs-peek/1.input")),
            path(out.join(format!("peek.{}", game.replay_ext))),
        ],
    );
    targets("unix-socket", &[path(root.join("sock/s"))]);
    targets("signals", &[std::process::id().to_string()]);
    if planted("root-only") {
        use std::os::unix::fs::PermissionsExt;
        let secret = bots.join("root-only/secret");
        std::fs::write(&secret, "ROOT-ONLY-SECRET").unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    scripts
}

type Played = (serde_json::Value, Vec<String>, String);

/// A normal user arena is run as (the tests run as root): its uid and `HOME`, and whether root
/// delegated cgroup folders to it (so that the memory cap holds).
#[derive(Clone, Copy)]
struct User<'a> {
    uid: u32,
    home: &'a Path,
    delegated: bool,
}

impl User<'_> {
    /// `setpriv` to this user, groups cleared.
    fn setpriv(&self) -> Vec<String> {
        vec![
            "setpriv".into(),
            format!("--reuid={}", self.uid),
            format!("--regid={}", self.uid),
            "--clear-groups".into(),
            "--".into(),
        ]
    }
}

/// The caps that only a cgroup holds, refused for a normal user without delegated cgroups.
const CGROUP_ONLY: [&str; 2] = ["--bot-memory", "--bot-procs"];

/// `caps` without the options (and their values) refused to a normal user without cgroups.
fn held_caps(caps: &[&'static str]) -> Vec<&'static str> {
    caps.chunks(2)
        .filter(|pair| !CGROUP_ONLY.contains(&pair[0]))
        .flatten()
        .copied()
        .collect()
}

/// A seat of a report without its timings (`time`: the wall and CPU time of its answers, which
/// differ from run to run).
fn result_of(seat: &serde_json::Value) -> serde_json::Value {
    let mut seat = seat.clone();
    if let Some(o) = seat.as_object_mut() {
        o.remove("time");
    }
    seat
}

/// Mode 0777 (0666 for a file): a test run as `nobody` writes there.
fn open_to_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if path.is_dir() { 0o777 } else { 0o666 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// What went wrong in one attack's match in `game`, against the baseline's (`base`: the match
/// against the bot that only plays, or against the one that exits at once where a cap stops the
/// attack).
fn judge(
    game: &str,
    a: &Attack,
    result: Result<Played, String>,
    base: &Played,
    memory_cgroup: bool,
) -> Vec<String> {
    let what = format!("{game}: {}", a.name);
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
    // A root-only file is readable by a bot run by its owner; a memory cgroup is root's or
    // delegated.
    let unproven = match a.name {
        "root-only" => !is_root(),
        "fill-shm-memory" => !memory_cgroup,
        _ => false,
    };
    if !unproven {
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
            "{what}: the honest seat played another match than against the baseline"
        ));
    }
    let (honest, baseline) = (
        result_of(&report["seats"][1]),
        result_of(&base.0["seats"][1]),
    );
    if honest != baseline {
        failures.push(format!(
            "{what}: the honest seat's result differs: {honest} against {baseline}"
        ));
    }
    failures
}

/// Every attack of one game, side by side with its two baselines: the failures.
fn attack_game(
    p: &Planted,
    root: &Path,
    game: &Game,
    attacks: &[Attack],
    user: Option<User>,
) -> Vec<String> {
    let scripts = plant_game(p, root, game, attacks);
    // A normal user without delegated cgroups is refused the caps that would not hold.
    let caps_of = |caps: &[&'static str]| match user {
        Some(u) if !u.delegated => held_caps(caps),
        _ => caps.to_vec(),
    };
    let caps: Vec<Vec<&str>> = (0..scripts.len())
        .map(|i| caps_of(attacks.get(i).map_or(CAPS, |a| a.caps)))
        .collect();
    let folder = p.bots.join(game.name);
    let before = files(&folder);
    let out = root.join("out").join(game.name);
    let bot = |path: &Path| format!("cmd:python3 {}", path.display());
    let results: Vec<Result<Played, String>> = std::thread::scope(|s| {
        let runs: Vec<_> = scripts
            .iter()
            .enumerate()
            .map(|(i, path)| {
                let (out, inherit) = (&out, (p.fd_read.as_path(), p.fd_write.as_path()));
                let a = attacks.get(i);
                let name = a.map_or(if i == attacks.len() { "pass" } else { "exits" }, |a| {
                    a.name
                });
                let caps = &caps[i];
                let inherit = (name == "inherited-fd").then_some(inherit);
                let bot = bot(path);
                s.spawn(move || play(game, &bot, caps, out, name, inherit, user))
            })
            .collect();
        runs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let after = files(&folder);
    let mut failures = Vec::new();
    if after != before {
        failures.push(format!(
            "{}: files in the bots' folders changed: {before:?} -> {after:?}",
            game.name
        ));
    }
    let mut results = results.into_iter();
    let attacked: Vec<_> = results.by_ref().take(attacks.len()).collect();
    let (pass, exits) = match (results.next(), results.next()) {
        (Some(Ok(pass)), Some(Ok(exits))) => (pass, exits),
        (pass, exits) => {
            failures.push(format!(
                "{}: a baseline match failed: {:?} {:?}",
                game.name,
                pass.map(|r| r.map(|p| p.0)),
                exits.map(|r| r.map(|e| e.0))
            ));
            return failures;
        }
    };
    failures.extend(attacks.iter().zip(attacked).flat_map(|(a, r)| {
        let base = if a.fault.is_some() { &exits } else { &pass };
        let memory_cgroup = user.map_or(is_root(), |u| u.delegated);
        judge(game.name, a, r, base, memory_cgroup)
    }));
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
    let p = plant(&root);
    let old_cgroups = cgroups_left(&[]);
    let mut failures = Vec::new();
    for game in games() {
        let started = std::time::Instant::now();
        failures.extend(attack_game(&p, &root, &game, &attacks, None));
        eprintln!("{}: {:?}", game.name, started.elapsed());
    }
    if p.listener.accept().is_ok() {
        failures.push("unix-socket: a bot connected to the unix socket".into());
    }
    let written = std::fs::read_to_string(&p.fd_write).unwrap();
    if !written.is_empty() {
        failures.push(format!(
            "inherited-fd: the bot wrote through fd 8: {written}"
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

/// The attack set as a normal user (`nobody`, by `setpriv`, where the tests run as root: arena
/// and its bots on copies in a world-readable temp folder), in Tower Defense, on a machine where
/// root has run sandboxes (its `arena` cgroup folders are there, and not the user's to write):
/// `--sandbox` runs without cgroups rather than failing at the first bot, without the options
/// only a cgroup holds (`--bot-memory`, `--bot-procs`: refused, see below), and every attack that
/// a normal user's sandbox is to hold fails as it does for root, the honest seat's match the same
/// as against a bot that only plays. Left out: `fill-shm-memory`, which only a memory cgroup
/// stops (played by a user with delegated cgroups below).
#[test]
fn the_attack_set_as_a_normal_user() {
    if !sandbox_available() || !is_root() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    let attacks: Vec<Attack> = attacks()
        .into_iter()
        .filter(|a| a.name != "fill-shm-memory")
        .collect();
    let p = plant(&root);
    let game = games().into_iter().next().unwrap();
    // Root first: its cgroup folders are there when `nobody` plays.
    let scripts = plant_game(&p, &root, &game, &attacks);
    let pass = format!("cmd:python3 {}", scripts[attacks.len()].display());
    let out = root.join("out").join(game.name);
    if let Err(e) = play(&game, &pass, CAPS, &out, "as-root", None, None) {
        panic!("as root: {e}");
    }
    let nobody = User {
        uid: 65534,
        home: &root,
        delegated: false,
    };
    let mut failures = attack_game(&p, &root, &game, &attacks, Some(nobody));
    let log = std::fs::read_to_string(root.join("out/tower-defense/logs-capabilities/0.stderr"))
        .unwrap_or_default();
    if !log.contains("held: CapEff 0") {
        failures.push(format!("as nobody: {log}"));
    }
    if p.listener.accept().is_ok() {
        failures.push("unix-socket: a bot connected to the unix socket".into());
    }
    let written = std::fs::read_to_string(&p.fd_write).unwrap();
    if !written.is_empty() {
        failures.push(format!(
            "inherited-fd: the bot wrote through fd 8: {written}"
        ));
    }
    assert_no_failures(&failures);
}

/// As a normal user without cgroups (`nobody`, after root made its `arena` folders): the options
/// whose cap only a cgroup holds are refused before the match, naming the option, why, and how to
/// get a cgroup; no output is written. Without them, the match is played and arena says which caps
/// hold and which do not.
#[test]
fn a_normal_user_without_cgroups_is_refused_the_caps_that_would_not_hold() {
    if !sandbox_available() || !is_root() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    open_to_all(&root);
    // Root first: its cgroup folders are there, not nobody's to write.
    Arena::play("tower-defense")
        .args(&["--bot", "cmd:true", "--max-turns", "1", "--sandbox"])
        .ok();
    let nobody = User {
        uid: 65534,
        home: &root,
        delegated: false,
    };
    let replay = root.join("match.jsonl");
    let as_nobody = |extra: &[&str]| {
        let mut cmd = std::process::Command::new("setpriv");
        cmd.args(&nobody.setpriv()[1..])
            .arg(env!("CARGO_BIN_EXE_arena"))
            .args([
                "play",
                "tower-defense",
                "--bot",
                "cmd:true",
                "--bot",
                "random",
            ])
            .args(["--max-turns", "2", "--sandbox", "--replay"])
            .arg(&replay)
            .args(extra)
            .current_dir(&root)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &root);
        cmd.output().unwrap()
    };
    let mut failures = Vec::new();
    for (extra, controller) in [
        (["--bot-memory", "256"], "memory"),
        (["--bot-procs", "64"], "pids"),
    ] {
        let out = as_nobody(&extra);
        let said = text(&out);
        let wants = [
            format!("--sandbox: {} needs a {controller} cgroup", extra[0]),
            "no cgroup delegation for this user (uid 65534, not root)".into(),
            "run arena as root".into(),
            format!("/sys/fs/cgroup/{controller}/arena-65534"),
        ];
        if out.status.success() || wants.iter().any(|w| !said.contains(w.as_str())) {
            failures.push(format!("{extra:?}: not refused as it should be: {said}"));
        }
        if replay.exists() {
            failures.push(format!(
                "{extra:?}: the replay was written before the refusal"
            ));
        }
    }
    let out = as_nobody(&["--bot-disk", "64", "--bot-cpu", "5", "--bot-files", "64"]);
    let said = text(&out);
    let wants = [
        "caps that hold here: CPU time 5 s a process (RLIMIT_CPU)",
        "file size and tmpfs 64 MB",
        "open files 64 a process",
        "not held: no memory cap",
        "no process cap of its own",
    ];
    if !out.status.success() || wants.iter().any(|w| !said.contains(w)) {
        failures.push(format!(
            "the caps that hold: not played or not said: {said}"
        ));
    }
    let verify = Arena::new(&["verify", "tower-defense", arg(&replay), "--partial"]).run();
    if !verify.status.success() {
        failures.push(format!("its replay does not verify: {}", text(&verify)));
    }
    assert_no_failures(&failures);
}

/// Root's delegated cgroup folders of one user (`/sys/fs/cgroup/<c>/arena-<uid>`, owned by it),
/// removed on drop (they must be empty by then: nothing of its sandboxes left).
struct Delegated {
    dirs: Vec<PathBuf>,
}

impl Delegated {
    fn new(uid: u32) -> Option<Delegated> {
        let mut dirs = Vec::new();
        for c in ["pids", "memory"] {
            let dir = PathBuf::from(format!("/sys/fs/cgroup/{c}/arena-{uid}"));
            if !dir.parent()?.join("cgroup.procs").exists() {
                return None;
            }
            std::fs::create_dir(&dir).ok()?;
            std::os::unix::fs::chown(&dir, Some(uid), Some(uid)).ok()?;
            dirs.push(dir);
        }
        Some(Delegated { dirs })
    }
}

impl Drop for Delegated {
    fn drop(&mut self) {
        for dir in &self.dirs {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// A normal user to whom root delegated cgroup folders (a uid of its own here, 65533, so that
/// the test of `nobody` without cgroups, running beside it, keeps none): `--bot-memory` and
/// `--bot-procs` are accepted, and the memory cap holds as for root: the bot that fills
/// `/dev/shm` beyond `--bot-memory 48` (tmpfs pages, which no address space limit sees) is stopped
/// by the memory cap, named in its fault, the honest seat's match the same as against a bot that
/// exits; the delegated folders are empty after (removed).
#[test]
fn a_normal_user_with_delegated_cgroups_keeps_the_memory_cap() {
    if !sandbox_available() || !is_root() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    let Some(delegated) = Delegated::new(65533) else {
        eprintln!("no cgroup v1 folders to delegate here: not tested");
        return;
    };
    let attacks: Vec<Attack> = attacks()
        .into_iter()
        .filter(|a| a.name == "fill-shm-memory")
        .collect();
    let p = plant(&root);
    let game = games().into_iter().next().unwrap();
    let user = User {
        uid: 65533,
        home: &root,
        delegated: true,
    };
    // `judge` wants the fault to name the memory cap (read from the memory cgroup's
    // `memory.oom_control`: no cgroup, no such fault).
    let mut failures = attack_game(&p, &root, &game, &attacks, Some(user));
    for dir in &delegated.dirs {
        let left: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name())
            .collect();
        if !left.is_empty() {
            failures.push(format!("cgroups left in {}: {left:?}", dir.display()));
        }
    }
    drop(delegated);
    assert_no_failures(&failures);
}

/// A sandboxed tournament of every attacker with built-in bots, played with one job and with two
/// (side by side): the same results; every attacker's match ends that bot at its start (it
/// attacks, then exits: its shim is the bot that exits at once); nothing is left behind
/// (processes, cgroups, files in the bots' folders). 13 attackers and 3 built-ins, 240 matches a
/// run, without time limits (a loaded machine would time out a bot's start in one run and not in
/// the other): a thousand Python attackers' starts would take minutes on CI's two cores (the
/// thousand-match mix of `sandbox_bots` has shell bots). `ARENA_ATTACK_GAMES=N` plays the
/// schedule N times (`--games N`, 240 x N matches a run: docs/reliability.md's 1,200-match run);
/// the time and a digest of the results are printed (`--nocapture`).
#[test]
fn a_tournament_of_every_attacker_gives_the_same_results_for_one_and_two_jobs() {
    if !sandbox_available() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let root = root.path().canonicalize().unwrap();
    let attacks = attacks();
    let p = plant(&root);
    let game = games().into_iter().next().unwrap();
    let scripts = plant_game(&p, &root, &game, &attacks);
    let folder = p.bots.join(game.name);
    for dir in std::fs::read_dir(&folder).unwrap().filter_map(Result::ok) {
        std::fs::copy(fixture("exits.py"), dir.path().join("game.py")).unwrap();
    }
    let before = files(&folder);
    let old_cgroups = cgroups_left(&[]);
    let mut bots: Vec<String> = scripts[..attacks.len()]
        .iter()
        // Debian's Python without `site`: a start half as long as pyenv's shim (each match
        // of an attacker is mostly its start).
        .map(|s| format!("cmd:/usr/bin/python3 -S {}", s.display()))
        .collect();
    bots.extend(["strong", "random", "army"].map(String::from));
    let bots: Vec<&str> = bots.iter().map(String::as_str).collect();
    let games: usize = std::env::var("ARENA_ATTACK_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(1)
        .max(1);
    let games_arg = games.to_string();
    let run = |jobs: &str| {
        let file = root.join(format!("jobs-{jobs}.json"));
        Arena::tournament("tower-defense")
            .bots(&bots)
            .args(&[
                "--seed",
                "31",
                "--quiet",
                "--no-replay",
                "--sandbox",
                "--no-timeout",
            ])
            .args(CAPS)
            .args(&["--bot-cpu", "5", "--jobs", jobs, "--games", &games_arg])
            .file("--results-json", &file)
            .ok();
        untimed(read_json(&file))
    };
    let started = std::time::Instant::now();
    let (one, two) = std::thread::scope(|s| {
        let one = s.spawn(|| run("1"));
        let two = s.spawn(|| run("2"));
        (one.join().unwrap(), two.join().unwrap())
    });
    // FNV-1a (64 bits) of the results without their timings: a digest to quote.
    let digest = one
        .to_string()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    eprintln!(
        "{} matches, twice (jobs 1 and 2 side by side): {:?}; results digest {digest:016x}",
        240 * games,
        started.elapsed()
    );
    let matches = one["results"].as_array().unwrap();
    assert_eq!(matches.len(), 16 * 15 * games);
    assert_eq!(one, two);
    let mut failures = Vec::new();
    let mut attacker_seats = 0;
    for m in matches {
        for (at, seat) in m["seats"].as_array().unwrap().iter().enumerate() {
            if seat.as_u64().unwrap() < attacks.len() as u64 {
                attacker_seats += 1;
                if m["faults"][at]["crashes"] != 1 {
                    failures.push(format!("an attacker did not end at its start: {m}"));
                }
            }
        }
    }
    // Each attacker plays each of the 15 others twice, seats swapped, in each pass.
    assert_eq!(attacker_seats, 13 * 30 * games);
    if files(&folder) != before {
        failures.push(format!(
            "files in the bots' folders changed: {:?}",
            files(&folder)
        ));
    }
    if p.listener.accept().is_ok() {
        failures.push("unix-socket: a bot connected to the unix socket".into());
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
