//! `cargo xtask scale-out`: the scale-out recipes of docs/tournaments.md run as written, on this
//! machine: a one-node Slurm cluster (munged, slurmctld, slurmd on localhost, started here as root
//! and stopped at the end whatever happens) runs the page's job script as a job array and merges the
//! shards; GNU parallel runs the page's localhost recipe; each merged result is compared with a single
//! run's (the job script's command without `--shard` and `--jobs`).
//!
//! The recipes are read from the page, not kept here: a block whose info string is
//! `console shard.sh` is the job script (written to `shard.sh`), `console slurm` the commands that
//! submit it and merge, `console parallel` the GNU parallel commands. Each runs with
//! `bash -e -o pipefail` in a scratch folder of `target/scale-out/` whose `target/release/arena` is
//! the `arena` under test.

use anyhow::{bail, ensure, Context, Result};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The page whose recipes are run.
const PAGE: &str = "docs/tournaments.md";
/// How long the cluster may take to show its node idle.
const START_SECONDS: u64 = 30;
/// How long one recipe (all its shards and the merge) may take.
const BLOCK_SECONDS: u64 = 120;
/// How long one Slurm client command (`sinfo`, `scancel`) may take.
const CLIENT_SECONDS: u64 = 10;

/// What one recipe measured.
struct Measure {
    name: &'static str,
    shards: usize,
    took: Duration,
    matches: usize,
}

/// The whole run: check that Slurm, munge and GNU parallel are there, build `arena` unless given
/// one, start the cluster, run both recipes and a single run, compare, stop the cluster.
pub fn run(arena: Option<PathBuf>) -> Result<()> {
    let root = crate::root();
    let page =
        std::fs::read_to_string(root.join(PAGE)).with_context(|| format!("cannot read {PAGE}"))?;
    let script = block(&page, "shard.sh")?;
    let slurm = block(&page, "slurm")?;
    let parallel = block(&page, "parallel")?;
    let single = single_command(&script)?;
    ensure!(
        id_u() == "0",
        "scale-out starts munged, slurmctld and slurmd as root: run it as root (CI does)"
    );
    installed()?;
    let total = Instant::now();
    let arena = match arena {
        Some(a) => a,
        None => {
            crate::run(
                "cargo",
                &["build", "--release", "-p", "arena-host", "--bin", "arena"],
            )?;
            root.join("target/release/arena")
        }
    };
    ensure!(arena.is_file(), "no arena at {}", arena.display());
    let arena = arena.canonicalize()?;

    let base = root.join("target/scale-out");
    sweep(&base, "left by an earlier run");
    if base.exists() {
        std::fs::remove_dir_all(&base)
            .with_context(|| format!("cannot empty {}", base.display()))?;
    }

    // The single run first: what both recipes' merges must equal.
    let single_dir = scratch(&base.join("single"), &arena)?;
    let start = Instant::now();
    run_block("single", &single_dir, &single, &[], BLOCK_SECONDS)?;
    let single_took = start.elapsed();
    let single_json = read_json(&single_dir.join("single.json"))?;
    let matches = single_json["results"].as_array().map_or(0, Vec::len);
    println!(
        "scale-out: single run ({matches} matches) in {:.1} s: {}",
        single_took.as_secs_f64(),
        single.trim()
    );

    let mut measures = vec![slurm_recipe(&base, &arena, &script, &slurm, &single_json)?];
    let dir = scratch(&base.join("parallel"), &arena)?;
    let start = Instant::now();
    run_block("parallel", &dir, &parallel, &[], BLOCK_SECONDS)?;
    measures.push(check(
        "parallel",
        &dir,
        &parallel,
        &single_json,
        start.elapsed(),
    )?);

    println!("scale-out: {PAGE}'s recipes, {matches} matches");
    println!(
        "  {:<10} {:>6} {:>9}  merged results",
        "recipe", "shards", "time"
    );
    println!(
        "  {:<10} {:>6} {:>7.1} s  (the reference)",
        "single",
        1,
        single_took.as_secs_f64()
    );
    for m in &measures {
        println!(
            "  {:<10} {:>6} {:>7.1} s  equal to the single run's ({} matches)",
            m.name,
            m.shards,
            m.took.as_secs_f64(),
            m.matches
        );
    }
    println!(
        "scale-out: all done in {:.1} s (logs and results in {})",
        total.elapsed().as_secs_f64(),
        base.display()
    );
    Ok(())
}

/// The Slurm recipe on a one-node cluster started for it (and stopped, by `Drop`, when this
/// returns); its measure.
fn slurm_recipe(
    base: &Path,
    arena: &Path,
    script: &str,
    slurm: &str,
    single_json: &Value,
) -> Result<Measure> {
    let start = Instant::now();
    let cluster = Cluster::start(&base.join("cluster"))?;
    let up = start.elapsed();
    println!(
        "scale-out: Slurm cluster up in {:.1} s (munged, slurmctld, slurmd; sinfo: {} idle)",
        up.as_secs_f64(),
        cluster.node
    );
    let dir = scratch(&base.join("slurm"), arena)?;
    std::fs::write(dir.join("shard.sh"), script)?;
    std::fs::set_permissions(dir.join("shard.sh"), std::fs::Permissions::from_mode(0o755))?;
    let start = Instant::now();
    let ran = run_block("slurm", &dir, slurm, &cluster.env(), BLOCK_SECONDS);
    let took = start.elapsed();
    if ran.is_err() {
        cluster.cancel_all();
    }
    ran?;
    let measure = check("slurm", &dir, slurm, single_json, took)?;
    if let Some(jobs) = jobs_span(&base.join("cluster/slurmctld.log")) {
        println!(
            "scale-out: slurm: from the submission to the last task's end {jobs:.1} s (slurmctld.log); the rest is sbatch --wait's polling and the merge"
        );
    }
    Ok(measure)
}

/// The text of the one fenced block of `page` whose info string is `console <marker>`.
fn block(page: &str, marker: &str) -> Result<String> {
    let mut found = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let words: Vec<&str> = info.split_whitespace().collect();
        let mut body = String::new();
        for l in lines.by_ref() {
            if l.trim() == "```" {
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        if words == ["console", marker] {
            found.push(body);
        }
    }
    match found.len() {
        1 => Ok(found.remove(0)),
        n => bail!("{PAGE} has {n} blocks marked ```console {marker} (one wanted)"),
    }
}

/// The job script's `arena tournament` command without `--shard` and `--jobs`, writing
/// `single.json`: the single run the merges are compared with.
fn single_command(script: &str) -> Result<String> {
    let joined = script.replace("\\\n", " ");
    let line = joined
        .lines()
        .find(|l| l.contains("arena tournament"))
        .context("the job script (```console shard.sh) runs no `arena tournament`")?;
    let mut words = line.split_whitespace();
    let mut out = Vec::new();
    let mut json = false;
    while let Some(w) = words.next() {
        match w {
            "--shard" | "--jobs" => {
                words.next();
            }
            "--results-json" => {
                words.next();
                json = true;
                out.extend(["--results-json", "single.json"]);
            }
            _ => out.push(w),
        }
    }
    ensure!(json, "the job script's command writes no --results-json");
    Ok(out.join(" ") + "\n")
}

/// The merged results of a recipe (its `arena merge ... --results-json FILE`) against the single
/// run's: every field of the JSON (game, format, bots, names, seed, games, shard, every match's
/// result, the standings and the ratings; it holds no timings), and the shards (one file per
/// shard, `shard-*.json`, each shard I of N once).
fn check(
    name: &'static str,
    dir: &Path,
    recipe: &str,
    single: &Value,
    took: Duration,
) -> Result<Measure> {
    let merged_file = recipe
        .replace("\\\n", " ")
        .lines()
        .filter(|l| l.contains("arena merge"))
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|w| *w == "--results-json")?;
            words.get(at + 1).map(|w| w.to_string())
        })
        .with_context(|| {
            format!("the {name} recipe has no `arena merge ... --results-json FILE`")
        })?;
    let merged = read_json(&dir.join(&merged_file))?;
    let mut shards = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        if file.starts_with("shard-") && file.ends_with(".json") {
            let json = read_json(&path)?;
            let shard = json["shard"]
                .as_array()
                .and_then(|s| Some((s.first()?.as_u64()? as usize, s.get(1)?.as_u64()? as usize)));
            shards.push(shard.with_context(|| format!("{} is no shard", path.display()))?);
        }
    }
    shards.sort();
    let n = shards.len();
    ensure!(
        n > 1 && shards.iter().enumerate().all(|(i, s)| *s == (i, n)),
        "the {name} recipe left the shards {shards:?} (wanted 0/{n} to {}/{n}, each once)",
        n.saturating_sub(1)
    );
    let differs = differences(&merged, single);
    ensure!(
        differs.is_empty(),
        "the {name} recipe's merged results ({}) differ from the single run's: {}",
        dir.join(&merged_file).display(),
        differs.join("; ")
    );
    let matches = merged["results"].as_array().map_or(0, Vec::len);
    println!(
        "scale-out: {name}: {n} shards merged in {:.1} s, results equal to the single run's ({matches} matches, standings and ratings; the times a turn are measured, and left out)",
        took.as_secs_f64(),
    );
    Ok(Measure {
        name,
        shards: n,
        took,
        matches,
    })
}

/// Where two results files differ: the top-level fields, and for the match results the first
/// match that differs.
fn differences(a: &Value, b: &Value) -> Vec<String> {
    let (a, b) = (untimed(a), untimed(b));
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec!["not both JSON objects".into()];
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        if x == y {
            continue;
        }
        let first = match (x.and_then(Value::as_array), y.and_then(Value::as_array)) {
            (Some(x), Some(y)) => match x.iter().zip(y).position(|(p, q)| p != q) {
                Some(i) => format!(" (first at [{i}]: {} against {})", x[i], y[i]),
                None => format!(" ({} entries against {})", x.len(), y.len()),
            },
            _ => String::new(),
        };
        out.push(format!("`{key}`{first}"));
    }
    out
}

/// `results` without its times a turn (`time_a_turn`, every match's `times`): measured on the
/// machine that played, they differ from run to run.
fn untimed(results: &Value) -> Value {
    let mut r = results.clone();
    if let Some(m) = r.as_object_mut() {
        m.remove("time_a_turn");
        if let Some(list) = m.get_mut("results").and_then(Value::as_array_mut) {
            for one in list.iter_mut().filter_map(Value::as_object_mut) {
                one.remove("times");
            }
        }
    }
    r
}

/// Seconds from the first job's submission to the last task's end, read off slurmctld's log
/// (`[2026-12-04T14:46:55.821] _slurm_rpc_submit_batch_job: ...`, `... _job_complete: ... done`).
fn jobs_span(log: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(log).ok()?;
    let at = |line: &str| -> Option<f64> {
        let time = line.strip_prefix('[')?.get(11..23)?;
        let mut parts = time.split(':');
        let h: f64 = parts.next()?.parse().ok()?;
        let m: f64 = parts.next()?.parse().ok()?;
        let s: f64 = parts.next()?.parse().ok()?;
        Some(h * 3600.0 + m * 60.0 + s)
    };
    let submit = text
        .lines()
        .find(|l| l.contains("_slurm_rpc_submit_batch_job"))
        .and_then(at)?;
    let done = text
        .lines()
        .rev()
        .filter(|l| l.contains("_job_complete") && l.ends_with(" done"))
        .find_map(at)?;
    // Across midnight, a day later.
    Some((done - submit).rem_euclid(86_400.0))
}

fn read_json(path: &Path) -> Result<Value> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is no JSON", path.display()))
}

/// A fresh folder where the recipes' `target/release/arena` is the `arena` under test.
fn scratch(dir: &Path, arena: &Path) -> Result<PathBuf> {
    let bin = dir.join("target/release");
    std::fs::create_dir_all(&bin).with_context(|| format!("cannot create {}", bin.display()))?;
    std::os::unix::fs::symlink(arena, bin.join("arena"))?;
    Ok(dir.to_owned())
}

/// Runs a recipe with `bash -e -o pipefail` in `dir`, its output in `dir/<name>.log`, in a process
/// group of its own that is ended if it runs out of time; fails with the log's end.
fn run_block(
    name: &str,
    dir: &Path,
    text: &str,
    env: &[(&str, String)],
    seconds: u64,
) -> Result<Duration> {
    let script = dir.join(format!(".{name}.sh"));
    let log = dir.join(format!("{name}.log"));
    std::fs::write(&script, text)?;
    let out = std::fs::File::create(&log)?;
    eprintln!("scale-out: {name}, in {}:", dir.display());
    for l in text.lines() {
        eprintln!("  {l}");
    }
    let start = Instant::now();
    let mut child = Command::new("bash")
        .args(["-e", "-o", "pipefail"])
        .arg(&script)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out)
        .process_group(0)
        .spawn()
        .context("cannot start bash")?;
    let group = format!("-{}", child.id());
    let status = wait(&mut child, Duration::from_secs(seconds));
    // What the recipe left running (a shard, a parallel job) ends with it.
    let _ = Command::new("kill")
        .args(["-KILL", "--", &group])
        .stderr(Stdio::null())
        .status();
    let took = start.elapsed();
    let failed = match status {
        Some(s) if s.success() => return Ok(took),
        Some(s) => format!("failed ({s})"),
        None => {
            let _ = child.wait();
            format!("did not end within {seconds} s and was ended")
        }
    };
    bail!(
        "the {name} recipe {failed}; the end of {}:\n{}",
        log.display(),
        tail(&log, 20)
    )
}

/// The child's status, or `None` (still running) after `limit`.
fn wait(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(50)),
            _ => return None,
        }
    }
}

/// A client command's stdout, or an error if it fails or takes more than `CLIENT_SECONDS`.
fn client(program: &str, args: &[&str], env: &[(&str, String)]) -> Result<String> {
    let dir = std::env::temp_dir();
    let out = dir.join(format!("xtask-scale-out-{}.out", std::process::id()));
    let file = std::fs::File::create(&out)?;
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(file.try_clone()?)
        .stderr(file)
        .spawn()
        .with_context(|| format!("cannot start {program}"))?;
    let status = wait(&mut child, Duration::from_secs(CLIENT_SECONDS));
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    match status {
        Some(s) if s.success() => Ok(text),
        Some(s) => bail!(
            "`{program} {}` failed ({s}): {}",
            args.join(" "),
            text.trim()
        ),
        None => bail!(
            "`{program} {}` did not answer within {CLIENT_SECONDS} s",
            args.join(" ")
        ),
    }
}

/// The last `n` lines of a file, indented.
fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(n);
    let mut out = String::new();
    for l in &lines[from..] {
        out.push_str("    ");
        out.push_str(l);
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("    (empty)\n");
    }
    out
}

fn id_u() -> String {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// A program on PATH or in /usr/sbin (where Debian puts the daemons; not on every user's PATH).
fn program(name: &str) -> Option<PathBuf> {
    if crate::on_path(name) {
        return Some(PathBuf::from(name));
    }
    let sbin = Path::new("/usr/sbin").join(name);
    sbin.is_file().then_some(sbin)
}

/// The programs the recipes and the cluster need: Debian's slurm-wlm (slurmctld, slurmd and the
/// clients), munge and GNU parallel, which `cargo xtask setup` installs.
const NEEDED: [&str; 7] = [
    "munged",
    "munge",
    "slurmctld",
    "slurmd",
    "sbatch",
    "sinfo",
    "parallel",
];

/// Fails, naming `cargo xtask setup`, when a program of [`NEEDED`] is missing.
fn installed() -> Result<()> {
    let missing: Vec<&str> = NEEDED
        .into_iter()
        .filter(|p| program(p).is_none())
        .collect();
    ensure!(
        missing.is_empty(),
        "scale-out needs {} (Debian's slurm-wlm, munge, parallel): run `cargo xtask setup`",
        missing.join(", ")
    );
    Ok(())
}

/// Ends every process working in `dir` (its working directory there or below), this one aside, and
/// waits up to 5 s for them to go: what a run of this task that was killed left behind (the
/// daemons, whose folder is `target/scale-out/cluster`, the jobs' slurmstepd, which start there
/// too, and a recipe's commands, in their own folder). Nothing else works in `target/scale-out/`.
fn sweep(dir: &Path, why: &str) {
    let Ok(dir) = dir.canonicalize() else {
        return;
    };
    let me = std::process::id().to_string();
    let working_in = || -> Vec<(String, String)> {
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        procs
            .filter_map(|e| {
                let pid = e.ok()?.file_name().to_string_lossy().into_owned();
                if pid == me || !pid.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?;
                let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
                // A zombie has no working directory left; one that has is still running.
                cwd.starts_with(&dir).then(|| (pid, comm.trim().to_owned()))
            })
            .collect()
    };
    let found = working_in();
    if found.is_empty() {
        return;
    }
    for (pid, comm) in &found {
        eprintln!("scale-out: ending {comm} (pid {pid}), {why}");
        let _ = Command::new("kill")
            .args(["-KILL", pid])
            .stderr(Stdio::null())
            .status();
    }
    let start = Instant::now();
    while !working_in().is_empty() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A one-node Slurm cluster on localhost; its daemons are stopped when it is dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    node: String,
    /// The daemons in the order they started, each with its log (stdout and stderr).
    daemons: Vec<(&'static str, Child, PathBuf)>,
}

impl Cluster {
    /// munged with a key of its own, then slurmctld and slurmd in the foreground (`-D`), all
    /// with their files in `dir`; ready when `sinfo` shows the node idle. A daemon that exits or
    /// a node not idle within `START_SECONDS` is an error with the end of every daemon's log.
    fn start(dir: &Path) -> Result<Cluster> {
        std::fs::create_dir_all(dir.join("state"))?;
        std::fs::create_dir_all(dir.join("spool"))?;
        // munged wants its socket's folders searchable by all and its key readable by it alone.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
        let key = dir.join("munge.key");
        let mut bytes = vec![0u8; 1024];
        std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut bytes)?;
        std::fs::write(&key, &bytes)?;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o400))?;
        let node = hostname()?;
        let conf = dir.join("slurm.conf");
        std::fs::write(&conf, slurm_conf(dir, &node, free_ports()?))?;
        let mut cluster = Cluster {
            dir: dir.to_owned(),
            conf,
            node,
            daemons: Vec::new(),
        };
        let socket = dir.join("munge.socket");
        let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
        cluster.spawn(
            "munged",
            &[
                "-F".into(),
                "--force".into(),
                format!("--key-file={}", p("munge.key")),
                format!("--socket={}", p("munge.socket")),
                format!("--pid-file={}", p("munged.pid")),
                format!("--seed-file={}", p("munged.seed")),
            ],
        )?;
        cluster.until("munged's socket", || Ok(socket.exists()))?;
        let conf = cluster.conf.to_string_lossy().into_owned();
        cluster.spawn("slurmctld", &["-D".into(), "-f".into(), conf.clone()])?;
        cluster.spawn("slurmd", &["-D".into(), "-f".into(), conf])?;
        let env = cluster.env();
        let node = cluster.node.clone();
        cluster.until(&format!("sinfo to show {node} idle"), || {
            let state =
                client("sinfo", &["-h", "-N", "-n", &node, "-o", "%T"], &env).unwrap_or_default();
            Ok(state.trim() == "idle")
        })?;
        Ok(cluster)
    }

    /// What the Slurm clients need to find this cluster (not /etc/slurm/slurm.conf).
    fn env(&self) -> Vec<(&'static str, String)> {
        vec![("SLURM_CONF", self.conf.to_string_lossy().into_owned())]
    }

    /// Starts a daemon, its stdout and stderr in `<name>.stderr` (what a daemon says before it
    /// opens its log file is only there; in the foreground Slurm's daemons copy their log there too).
    fn spawn(&mut self, name: &'static str, args: &[String]) -> Result<()> {
        let log = self.dir.join(format!("{name}.stderr"));
        let file = std::fs::File::create(&log)?;
        let program =
            program(name).with_context(|| format!("no {name} (Debian's slurm-wlm, munge)"))?;
        let child = Command::new(program)
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file)
            .spawn()
            .with_context(|| format!("cannot start {name}"))?;
        self.daemons.push((name, child, log));
        Ok(())
    }

    /// Polls `ready` until it holds; fails if a daemon exits or `START_SECONDS` pass.
    fn until(&mut self, what: &str, mut ready: impl FnMut() -> Result<bool>) -> Result<()> {
        let start = Instant::now();
        loop {
            let exited = self
                .daemons
                .iter_mut()
                .find_map(|(name, child, _)| Some((*name, child.try_wait().ok()??)));
            if let Some((name, status)) = exited {
                bail!(
                    "{name} exited ({status}) while waiting for {what}\n{}",
                    self.logs()
                );
            }
            if ready()? {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(START_SECONDS) {
                bail!("no {what} within {START_SECONDS} s\n{}", self.logs());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The end of every daemon's log.
    fn logs(&self) -> String {
        let mut out = String::new();
        for (name, _, log) in &self.daemons {
            out.push_str(&format!("  {name} ({}):\n{}", log.display(), tail(log, 10)));
        }
        out
    }

    /// Cancels every job of the cluster (a recipe that failed or ran out of time).
    fn cancel_all(&self) {
        if let Err(e) = client("scancel", &["--user", "root"], &self.env()) {
            eprintln!("scale-out: {e}");
        }
    }
}

impl Drop for Cluster {
    /// Stops the daemons, the last started first: SIGTERM, then SIGKILL after 5 s.
    fn drop(&mut self) {
        for (name, child, _) in self.daemons.iter_mut().rev() {
            let _ = Command::new("kill")
                .arg(child.id().to_string())
                .stderr(Stdio::null())
                .status();
            if wait(child, Duration::from_secs(5)).is_none() {
                eprintln!("scale-out: {name} did not stop on SIGTERM; killing it");
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        // A job's slurmstepd outlives slurmd (a recipe that failed or ran out of time).
        sweep(&self.dir, "a job step left by the cluster");
        if !self.daemons.is_empty() {
            eprintln!("scale-out: Slurm cluster stopped");
        }
    }
}

fn hostname() -> Result<String> {
    let out = Command::new("hostname")
        .arg("-s")
        .output()
        .context("cannot run hostname")?;
    let name = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    ensure!(!name.is_empty(), "hostname -s gave no name");
    Ok(name)
}

/// The smallest slurm.conf for one node on localhost: root runs everything, no accounting, no
/// cgroups (proctrack/linuxproc and task/none: these machines have cgroup v1 only), the node's
/// CPUs as this machine has them. `MinJobAge=4` (finished jobs forgotten after 4 s, not 300):
/// `sbatch --wait` polls after 2 s, then multiplies its wait by 4 (to at most 32 s) while it is
/// under half of MinJobAge, so here it polls every 2 s (with the default, 8 shards that ended
/// within 12 s were waited for until 42 s; with 6, every 8 s).
/// Two ports no one listens on now, for slurmctld and slurmd: not Slurm's 6817 and 6818, which
/// another cluster, or another run of this command, may hold.
fn free_ports() -> Result<(u16, u16)> {
    let a = std::net::TcpListener::bind("127.0.0.1:0").context("no free port")?;
    let b = std::net::TcpListener::bind("127.0.0.1:0").context("no free port")?;
    Ok((a.local_addr()?.port(), b.local_addr()?.port()))
}

fn slurm_conf(dir: &Path, node: &str, (ctld, slurmd): (u16, u16)) -> String {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let d = dir.display();
    format!(
        "# Written by `cargo xtask scale-out`: a one-node cluster on localhost.
ClusterName=scaleout
SlurmctldHost=localhost
SlurmctldPort={ctld}
SlurmdPort={slurmd}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
MinJobAge=4
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=local Nodes={node} Default=YES MaxTime=INFINITE State=UP
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_by_their_marker() {
        let page = "x\n\n```console shard.sh\n#!/bin/sh\narena tournament a \\\n  --shard $I/8 --jobs 1 --results-json s-$I.json\n```\n\n```console\nother\n```\n";
        let script = block(page, "shard.sh").unwrap();
        assert_eq!(
            script,
            "#!/bin/sh\narena tournament a \\\n  --shard $I/8 --jobs 1 --results-json s-$I.json\n"
        );
        assert!(block(page, "slurm").is_err());
        assert_eq!(
            single_command(&script).unwrap(),
            "arena tournament a --results-json single.json\n"
        );
    }

    #[test]
    fn the_jobs_span_is_read_off_slurmctld_log() {
        let dir = std::env::temp_dir().join(format!("xtask-jobs-span-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("slurmctld.log");
        std::fs::write(
            &log,
            "[2026-12-04T23:59:55.500] _slurm_rpc_submit_batch_job: JobId=1 InitPrio=1 usec=302\n\
             [2026-12-04T23:59:57.776] sched: Allocate JobId=1_0(2) NodeList=vm #CPUs=1\n\
             [2026-12-05T00:00:08.875] _job_complete: JobId=1_6(8) done\n\
             [2026-12-05T00:00:09.000] other\n",
        )
        .unwrap();
        let span = jobs_span(&log).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!((span - 13.375).abs() < 1e-6, "{span}");
    }

    #[test]
    fn differences_name_the_field_and_the_match() {
        let a: Value = serde_json::json!({"seed": 1, "results": [1, 2, 3]});
        let b: Value = serde_json::json!({"seed": 1, "results": [1, 5, 3]});
        assert_eq!(differences(&a, &a), Vec::<String>::new());
        // Times a turn are measured: left out.
        let timed = serde_json::json!({"seed": 1, "time_a_turn": [1], "results": [{"times": [2]}]});
        let other = serde_json::json!({"seed": 1, "time_a_turn": [7], "results": [{"times": [8]}]});
        assert_eq!(differences(&timed, &other), Vec::<String>::new());
        assert_eq!(
            differences(&a, &b),
            ["`results` (first at [1]: 2 against 5)"]
        );
    }
}
