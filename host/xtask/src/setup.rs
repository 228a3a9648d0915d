//! Installs what a fresh machine lacks. Each step checks first, so a second run costs nothing.

use anyhow::{bail, Context, Result};
use std::process::Command;

/// The boards' targets, and wasm32 for the replay viewer's module (host/build.rs).
pub const TARGETS: [&str; 4] = [
    "thumbv6m-none-eabi",
    "thumbv7m-none-eabi",
    "thumbv7em-none-eabihf",
    "wasm32-unknown-unknown",
];

fn output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
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
/// without the packages they only recommend (QEMU's and chromium's pulled in desktop audio, speech
/// recognition and printing: a minute more of CI on a fresh machine, none of it used here).
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

/// The Debian packages, each with a program that shows it is there: QEMU for the QEMU board (the
/// main job needs only this one), Mono for the C# example bot's test, chromium for the viewer's
/// browser test, Node for the emulated Pico, bubblewrap for `--sandbox`, Slurm (slurm-wlm: the
/// daemons and the clients), munge and GNU parallel for the scale-out recipes (tests/system).
const DEBIAN: [(&str, &str); 10] = [
    ("qemu-system-arm", "qemu-system-arm"),
    ("mcs", "mono-mcs"),
    ("mono", "mono-mcs"),
    ("chromium", "chromium"),
    ("node", "nodejs"),
    ("npm", "npm"),
    ("bwrap", "bubblewrap"),
    ("sbatch", "slurm-wlm"),
    ("munge", "munge"),
    ("parallel", "parallel"),
];

/// The tools built from crates.io: defmt-print decodes the boards' logs (the main job needs only
/// this one); the real boards link through flip-link (stack overflow protection); cargo-fuzz
/// builds and runs the fuzz targets; cargo-mutants runs the mutation tests (`cargo xtask
/// mutants`, and `test`'s step over the change).
const CRATES: [&str; 4] = ["defmt-print", "flip-link", "cargo-fuzz", "cargo-mutants"];

/// What the QEMU board needs (`cargo xtask demo`, `cost`, `panics`): the targets, QEMU and
/// defmt-print.
pub fn board() -> Result<()> {
    targets()?;
    debian(&DEBIAN[..1])?;
    crates(&CRATES[..1])
}

/// What the STM32F411's checks need (`firmware-test --board stm32f411`, `emulate stm32f411`,
/// `cost --board stm32f411`): defmt-print, flip-link, the emulator's venv (the board's target is
/// added by its build; `cost` adds the QEMU board's needs for the M3 figures).
pub fn stm32_board() -> Result<()> {
    crates(&CRATES[..2])?;
    stm32_emulator()
}

/// Everything, one step after the other.
pub fn all() -> Result<()> {
    targets()?;
    rest()
}

/// All but the rustup targets: what `cargo xtask test` installs while clippy runs (apt waits on
/// the network, clippy on the cores).
pub fn rest() -> Result<()> {
    debian(&DEBIAN)?;
    crates(&CRATES)?;
    node_packages()?;
    stm32_emulator()
}

/// The emulated STM32F411's venv (target/stm32f411-emulator/venv).
pub fn stm32_venv() -> std::path::PathBuf {
    crate::root().join("target/stm32f411-emulator/venv")
}

/// The emulated STM32F411's Python packages (Unicorn from PyPI, pinned in the harness's
/// requirements.txt) in a venv under target/, unless it was made from this very file already; cc
/// for the harness's C fast path, Debian's python3-venv when `python3 -m venv` lacks ensurepip.
pub fn stm32_emulator() -> Result<()> {
    let dir = crate::root().join("boards/stm32f411/emulator");
    let wanted = std::fs::read(dir.join("requirements.txt"))
        .with_context(|| format!("{}/requirements.txt", dir.display()))?;
    let venv = stm32_venv();
    let stamp = venv.join(".arena-installed-from");
    if std::fs::read(&stamp).ok().as_deref() == Some(&wanted[..]) {
        return Ok(());
    }
    if !have("cc") {
        apt("cc", "gcc")?;
    }
    let make = || {
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    if !make() {
        apt("python3-venv", "python3-venv")?;
        install(
            "stm32-venv",
            "a venv for the emulated STM32F411",
            Command::new("python3")
                .args(["-m", "venv", "--clear"])
                .arg(&venv),
        )?;
    }
    install(
        "stm32-emulator",
        "the emulated STM32F411's Python packages (pip install -r boards/stm32f411/emulator/requirements.txt)",
        Command::new(venv.join("bin/pip"))
            .args(["install", "--disable-pip-version-check", "-q", "-r"])
            .arg(dir.join("requirements.txt")),
    )?;
    std::fs::write(&stamp, &wanted)?;
    Ok(())
}

/// cargo-fuzz, for `cargo xtask fuzz` alone.
pub fn cargo_fuzz() -> Result<()> {
    crates(&CRATES[2..3])
}

/// cargo-mutants, for `cargo xtask mutants` alone.
pub fn cargo_mutants() -> Result<()> {
    crates(&CRATES[3..])
}

/// The crates' tools that are missing, one `cargo install` each.
fn crates(wanted: &[&str]) -> Result<()> {
    for krate in wanted {
        if !have(krate) {
            cargo_install(krate)?;
        }
    }
    Ok(())
}

/// The Debian packages that are missing, in one apt-get run.
fn debian(wanted: &[(&str, &str)]) -> Result<()> {
    let mut missing: Vec<&str> = wanted
        .iter()
        .filter(|(program, _)| !have(program))
        .map(|(_, package)| *package)
        .collect();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    apt("debian", &missing.join(" "))
}

/// rust-toolchain.toml lists the targets, but rustup does not install them on its own here.
pub fn targets() -> Result<()> {
    let installed = output("rustup", &["target", "list", "--installed"]);
    let missing = crate::tools::not_listed(&installed, &TARGETS);
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
    let components = output("rustup", &["component", "list", "--installed"]);
    if !components.contains("llvm-tools") {
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

/// The emulated Pico's harness (Node, rp2040js).
pub const PICO_EMULATOR: &str = "boards/rp-pico/emulator";

/// `npm ci` in the harness folder from the committed lock file, unless node_modules was installed
/// from this very lock file already (Node itself is one of `setup`'s Debian packages).
pub fn node_packages() -> Result<()> {
    let dir = crate::root().join(PICO_EMULATOR);
    let lock = std::fs::read(dir.join("package-lock.json"))
        .with_context(|| format!("{}/package-lock.json", dir.display()))?;
    let stamp = dir.join("node_modules/.arena-installed-from");
    if std::fs::read(&stamp).ok().as_deref() == Some(&lock[..]) {
        return Ok(());
    }
    install(
        "npm",
        &format!("the emulator's Node packages (npm ci in {PICO_EMULATOR})"),
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir),
    )?;
    std::fs::write(&stamp, &lock)?;
    Ok(())
}
