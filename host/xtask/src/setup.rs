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

/// Debian packages through apt-get (sudo unless root).
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
                "{sudo}apt-get update -qq && {sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq {packages}"
            ),
        ]),
    )
}

fn cargo_install(krate: &str) -> Result<()> {
    install(
        krate,
        &format!("{krate} (cargo install)"),
        Command::new("cargo").args(["install", krate, "--locked"]),
    )
}

pub fn all() -> Result<()> {
    targets()?;
    qemu()?;
    mono()?;
    defmt_print()?;
    flip_link()?;
    chromium()?;
    crate::pico::node_packages()
}

/// rust-toolchain.toml lists the targets, but rustup does not install them on its own here.
pub fn targets() -> Result<()> {
    let installed = output("rustup", &["target", "list", "--installed"]);
    let missing: Vec<&str> = TARGETS
        .iter()
        .copied()
        .filter(|t| !installed.lines().any(|l| l.trim() == *t))
        .collect();
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

pub fn qemu() -> Result<()> {
    if have("qemu-system-arm") {
        return Ok(());
    }
    apt("qemu", "qemu-system-arm")
}

/// The C# starter's test compiles a bot with Debian's `mcs` and runs it with `mono`.
pub fn mono() -> Result<()> {
    if have("mcs") && have("mono") {
        return Ok(());
    }
    apt("mono", "mono-mcs")
}

/// The viewer's browser test (tests/browser/viewer.py) drives Debian's chromium, never a download.
pub fn chromium() -> Result<()> {
    if have("chromium") {
        return Ok(());
    }
    apt("chromium", "chromium")
}

pub fn defmt_print() -> Result<()> {
    if have("defmt-print") {
        return Ok(());
    }
    cargo_install("defmt-print")
}

/// The real boards link through flip-link (stack overflow protection); 5 s to install.
pub fn flip_link() -> Result<()> {
    if have("flip-link") {
        return Ok(());
    }
    cargo_install("flip-link")
}
