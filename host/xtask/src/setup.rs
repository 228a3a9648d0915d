//! `cargo xtask setup`: installs what a fresh machine lacks, the only task that installs. Each step
//! checks first, so a second run costs nothing. `demo` and `test` run it first, and say so; every
//! other task checks what it needs with the functions below that take no [`Mode`] (`all`,
//! `cargo_fuzz`, ...) or with its board's `Board::setup` and, when something is missing, fails with
//! an error that names `cargo xtask setup`.
//!
//! What a board needs is its own ([`Needs`], `Board::needs`, in its folder under `boards/`): setup
//! installs every board's beside the tools of the rest of the project.

use anyhow::{bail, ensure, Context, Result};
use std::path::Path;
use std::process::Command;

/// Install what is missing (`cargo xtask setup`), or only check, with an error that says to run it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Mode {
    Install,
    Check,
}

/// Ok if nothing is `missing`; else, checking, the error that names `cargo xtask setup`.
fn checked(mode: Mode, missing: &[String]) -> Result<bool> {
    if missing.is_empty() {
        return Ok(true);
    }
    ensure!(
        mode == Mode::Install,
        "missing: {}; run `cargo xtask setup` (it installs what the tasks need)",
        missing.join(", ")
    );
    Ok(false)
}

/// The rustup targets: the boards' (`boards`: each board's `Board::target`, as the registry hands
/// them down), and wasm32 for the replay viewer's module (host/build.rs).
pub fn wanted_targets(boards: &[&'static str]) -> Vec<&'static str> {
    let mut all: Vec<&str> = boards.to_vec();
    all.push("wasm32-unknown-unknown");
    first_of_each(all)
}

/// `all` with each item kept at its first place only (the lists setup installs from, in order).
fn first_of_each<T: PartialEq>(all: Vec<T>) -> Vec<T> {
    let mut kept: Vec<T> = Vec::with_capacity(all.len());
    for x in all {
        if !kept.contains(&x) {
            kept.push(x);
        }
    }
    kept
}

fn output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// On PATH, or in /usr/sbin (Debian's daemons: munged, slurmctld, not on every user's PATH).
fn have(program: &str) -> bool {
    Command::new("sh")
        .args([
            "-c",
            &format!("command -v {program} || test -x /usr/sbin/{program}"),
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Runs one install step with its output in target/setup/<name>.log, printing one line (and the
/// log's end if it fails), so that apt's and cargo's progress does not flood what the user watches.
pub fn install(name: &str, what: &str, command: &mut Command) -> Result<()> {
    let dir = crate::root().join("target/setup");
    std::fs::create_dir_all(&dir)?;
    let log = dir.join(format!("{name}.log"));
    eprintln!("xtask: installing {what} (log in {})", log.display());
    let file = std::fs::File::create(&log)?;
    let status = command
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .with_context(|| format!("cannot start the install of {what}"))?;
    if !status.success() {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        for l in tail.iter().rev() {
            eprintln!("  {l}");
        }
        bail!(
            "installing {what} failed ({status}); the whole log is {}",
            log.display()
        );
    }
    Ok(())
}

/// Debian packages through apt-get (sudo unless root), in one `apt-get update` and one install,
/// without the packages they only recommend (an emulator's and chromium's pulled in desktop
/// audio, speech recognition and printing: a minute more of CI on a fresh machine, none of it
/// used here).
pub fn apt(name: &str, packages: &str) -> Result<()> {
    let sudo = if output("id", &["-u"]).trim() == "0" {
        ""
    } else {
        "sudo "
    };
    install(
        name,
        &format!("{packages} (apt-get)"),
        Command::new("sh").args([
            "-c",
            &format!(
                "{sudo}apt-get update -qq && {sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends {packages}"
            ),
        ]),
    )
}

/// `--debug`: these tools decode a log, wrap a linker and start cargo, none of it heavy, and an
/// unoptimised build takes half the CPU time of a release one (defmt-print: 139 s against 254 s
/// here), which a fresh machine pays before its first test.
fn cargo_install(krate: &str) -> Result<()> {
    install(
        krate,
        &format!("{krate} (cargo install)"),
        Command::new("cargo").args(["install", krate, "--locked", "--debug"]),
    )
}

/// What a board needs installed (`Board::needs`): `cargo xtask setup` installs it, the board's
/// tasks check it ([`needs`]).
pub struct Needs {
    /// Debian packages, each with a program that shows it is there.
    pub debian: &'static [(&'static str, &'static str)],
    /// Tools built from crates.io (`cargo install`).
    pub crates: &'static [&'static str],
    /// The rest (the rustup targets, an emulator's packages), installed or checked, after the
    /// packages and tools.
    pub more: fn(Mode) -> Result<()>,
    /// What the rest is, for `setup --help`.
    pub about: &'static str,
}

/// Installs or checks what a board needs: its Debian packages, its tools, then the rest.
pub fn needs(needs: &Needs, mode: Mode) -> Result<()> {
    debian(needs.debian, mode)?;
    crates(needs.crates, mode)?;
    (needs.more)(mode)
}

/// The Debian packages besides the boards' (each with a program that shows it is there): Mono for
/// the C# example bot's test, chromium for the viewer's browser test, bubblewrap for `--sandbox`,
/// Slurm (slurm-wlm: the daemons and the clients), munge and GNU parallel for the scale-out
/// recipes (tests/system).
pub(crate) const DEBIAN: [(&str, &str); 7] = [
    ("mcs", "mono-mcs"),
    ("mono", "mono-mcs"),
    ("chromium", "chromium"),
    ("bwrap", "bubblewrap"),
    ("sbatch", "slurm-wlm"),
    ("munge", "munge"),
    ("parallel", "parallel"),
];

/// The tools built from crates.io besides the boards': cargo-fuzz builds and runs the fuzz
/// targets; cargo-mutants runs the mutation tests (`cargo xtask mutants`, and `test`'s step over
/// the change).
pub(crate) const CRATES: [&str; 2] = ["cargo-fuzz", "cargo-mutants"];

/// Every Debian package setup installs: the boards' (in the registry's order), then the rest's.
pub(crate) fn all_debian(boards: &[Needs]) -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<(&str, &str)> = boards.iter().flat_map(|b| b.debian).copied().collect();
    all.extend(DEBIAN);
    first_of_each(all)
}

/// Every tool setup builds from crates.io: the boards' (in the registry's order), then the rest's.
pub(crate) fn all_crates(boards: &[Needs]) -> Vec<&'static str> {
    let mut all: Vec<&str> = boards.iter().flat_map(|b| b.crates).copied().collect();
    all.extend(CRATES);
    first_of_each(all)
}

/// `cargo xtask setup`: everything, one step after the other (`targets` and `boards`: every
/// board's target and needs, which the registry hands down: setup names no board).
pub fn run(targets: &[&'static str], boards: &[Needs]) -> Result<()> {
    install_targets(targets)?;
    install_rest(boards)
}

/// The rustup targets and llvm-tools: the first part of `setup` (`test` runs it before clippy,
/// which builds the viewer for wasm32).
pub fn install_targets(boards: &[&'static str]) -> Result<()> {
    targets(boards, Mode::Install)
}

/// All but the rustup targets: the rest of `setup` (`test` runs it beside fmt and clippy: apt waits
/// on the network, clippy on the cores).
pub fn install_rest(boards: &[Needs]) -> Result<()> {
    let mode = Mode::Install;
    debian(&all_debian(boards), mode)?;
    crates(&all_crates(boards), mode)?;
    for board in boards {
        (board.more)(mode)?;
    }
    nightly_in(mode)?;
    python_tools_in(mode)
}

/// Checks what every board needs (`firmware-test`): each board's [`Needs`] (`boards`).
pub fn all(boards: &[Needs]) -> Result<()> {
    for board in boards {
        needs(board, Mode::Check)?;
    }
    Ok(())
}

/// The Python packages of an emulator's harness (its `requirements.txt` in `harness`, from the
/// project's root) in a venv at `venv`, unless it was made from this very file already; cc for
/// a harness's C code, Debian's python3-venv when `python3 -m venv` lacks ensurepip. `who` names
/// the emulator (`the emulated board`), `tag` its install logs.
pub fn python_venv(harness: &str, venv: &Path, who: &str, tag: &str, mode: Mode) -> Result<()> {
    let dir = crate::root().join(harness);
    let wanted = std::fs::read(dir.join("requirements.txt"))
        .with_context(|| format!("{}/requirements.txt", dir.display()))?;
    let stamp = venv.join(".arena-installed-from");
    let current = std::fs::read(&stamp).ok().as_deref() == Some(&wanted[..]);
    if checked(
        mode,
        &(!current)
            .then(|| format!("{who}'s venv ({})", venv.display()))
            .into_iter()
            .collect::<Vec<_>>(),
    )? {
        return Ok(());
    }
    if !have("cc") {
        apt("cc", "gcc")?;
    }
    let make = || {
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(venv)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    if !make() {
        apt("python3-venv", "python3-venv")?;
        install(
            &format!("{tag}-venv"),
            &format!("a venv for {who}"),
            Command::new("python3")
                .args(["-m", "venv", "--clear"])
                .arg(venv),
        )?;
    }
    install(
        &format!("{tag}-emulator"),
        &format!("{who}'s Python packages (pip install -r {harness}/requirements.txt)"),
        Command::new(venv.join("bin/pip"))
            .args(["install", "--disable-pip-version-check", "-q", "-r"])
            .arg(dir.join("requirements.txt")),
    )?;
    std::fs::write(&stamp, &wanted)?;
    Ok(())
}

/// Checks cargo-fuzz, for `cargo xtask fuzz`.
pub fn cargo_fuzz() -> Result<()> {
    crates(&CRATES[..1], Mode::Check)
}

/// Checks cargo-mutants, for `cargo xtask mutants`.
pub fn cargo_mutants() -> Result<()> {
    crates(&CRATES[1..], Mode::Check)
}

/// The crates' tools that are missing, one `cargo install` each.
pub fn crates(wanted: &[&str], mode: Mode) -> Result<()> {
    let missing: Vec<String> = wanted
        .iter()
        .filter(|k| !have(k))
        .map(|k| format!("{k} (cargo install)"))
        .collect();
    if checked(mode, &missing)? {
        return Ok(());
    }
    for krate in wanted.iter().filter(|k| !have(k)) {
        cargo_install(krate)?;
    }
    Ok(())
}

/// The Debian packages that are missing, in one apt-get run.
pub fn debian(wanted: &[(&str, &str)], mode: Mode) -> Result<()> {
    let mut missing: Vec<&str> = wanted
        .iter()
        .filter(|(program, _)| !have(program))
        .map(|(_, package)| *package)
        .collect();
    missing.dedup();
    let named: Vec<String> = missing.iter().map(|p| format!("{p} (Debian)")).collect();
    if checked(mode, &named)? {
        return Ok(());
    }
    apt("debian", &missing.join(" "))
}

/// The rustup targets ([`wanted_targets`]) and llvm-tools: rust-toolchain.toml lists the targets, but
/// rustup does not install them on its own here.
pub fn targets(boards: &[&'static str], mode: Mode) -> Result<()> {
    let installed = output("rustup", &["target", "list", "--installed"]);
    let missing = crate::tools::not_listed(&installed, &wanted_targets(boards));
    let components = output("rustup", &["component", "list", "--installed"]);
    let llvm = components.contains("llvm-tools");
    let named: Vec<String> = (missing.iter().map(|t| format!("the {t} target")))
        .chain((!llvm).then(|| "llvm-tools".to_string()))
        .collect();
    if checked(mode, &named)? {
        return Ok(());
    }
    if !missing.is_empty() {
        install(
            "targets",
            &missing.join(", "),
            Command::new("rustup")
                .current_dir(crate::root())
                .args(["target", "add"])
                .args(&missing),
        )?;
    }
    if !llvm {
        install(
            "llvm-tools",
            "llvm-tools (rustup)",
            Command::new("rustup").current_dir(crate::root()).args([
                "component",
                "add",
                "llvm-tools",
            ]),
        )?;
    }
    Ok(())
}

/// `npm ci` in an emulator's harness folder (`harness`, from the project's root) from its
/// committed lock file, unless node_modules was installed from this very lock file already (Node
/// itself is a board's Debian package). `who` names the emulator (`the emulated board`).
pub fn node_packages(harness: &str, who: &str, mode: Mode) -> Result<()> {
    let dir = crate::root().join(harness);
    let lock = std::fs::read(dir.join("package-lock.json"))
        .with_context(|| format!("{}/package-lock.json", dir.display()))?;
    let stamp = dir.join("node_modules/.arena-installed-from");
    let current = std::fs::read(&stamp).ok().as_deref() == Some(&lock[..]);
    let named: Vec<String> = (!current)
        .then(|| format!("{who}'s Node packages ({harness}/node_modules)"))
        .into_iter()
        .collect();
    if checked(mode, &named)? {
        return Ok(());
    }
    install(
        "npm",
        &format!("the emulator's Node packages (npm ci in {harness})"),
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir),
    )?;
    std::fs::write(&stamp, &lock)?;
    Ok(())
}

/// Checks the nightly toolchain, which the fuzz targets need (sanitizers).
pub fn nightly() -> Result<()> {
    nightly_in(Mode::Check)
}

/// A minimal nightly toolchain beside stable, if there is none.
fn nightly_in(mode: Mode) -> Result<()> {
    let ok = Command::new("rustc")
        .args(["+nightly", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    let named: Vec<String> = (!ok)
        .then(|| "the nightly toolchain (rustup)".to_string())
        .into_iter()
        .collect();
    if checked(mode, &named)? {
        return Ok(());
    }
    install(
        "nightly",
        "a minimal nightly toolchain for the fuzz targets (rustup)",
        Command::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]),
    )
}

/// The venv of the Python tools that build the wheel (`python-test`, `test`'s Python step):
/// maturin and ziglang from PyPI.
pub fn python_tools_venv() -> std::path::PathBuf {
    crate::root().join("target/python-venv")
}

/// What the Python tools venv must hold, pip's names.
const PYTHON_TOOLS: [&str; 2] = ["maturin", "ziglang"];

/// Checks the Python tools venv.
pub fn python_tools() -> Result<()> {
    python_tools_in(Mode::Check)
}

fn python_tools_in(mode: Mode) -> Result<()> {
    let venv = python_tools_venv();
    let py = venv.join("bin/python");
    let ok = Command::new(&py)
        .args(["-c", &format!("import {}", PYTHON_TOOLS.join(", "))])
        .output()
        .is_ok_and(|o| o.status.success());
    let named: Vec<String> = (!ok)
        .then(|| format!("maturin and ziglang in {}", venv.display()))
        .into_iter()
        .collect();
    if checked(mode, &named)? {
        return Ok(());
    }
    if !py.exists() {
        install(
            "python-venv",
            "a venv for the Python tools",
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
        )?;
    }
    install(
        "python-tools",
        "maturin and ziglang (pip, into target/python-venv)",
        Command::new(&py)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(PYTHON_TOOLS),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task that checks fails on what is missing, naming it and `cargo xtask setup`; only setup
    /// goes on to install it.
    #[test]
    fn a_check_names_what_is_missing_and_the_setup_task() {
        let none: Vec<String> = Vec::new();
        let some = vec!["an-emulator (Debian)".to_string(), "flip-link".to_string()];
        assert!(checked(Mode::Check, &none).unwrap());
        assert!(checked(Mode::Install, &none).unwrap());
        assert!(!checked(Mode::Install, &some).unwrap());
        let e = checked(Mode::Check, &some).unwrap_err().to_string();
        assert_eq!(
            e,
            "missing: an-emulator (Debian), flip-link; run `cargo xtask setup` (it installs what the tasks need)"
        );
    }
}
