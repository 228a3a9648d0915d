//! Installs what a fresh machine lacks. Each step checks first, so a second run costs nothing.

use crate::run;
use anyhow::Result;
use std::process::Command;

pub const TARGETS: [&str; 3] = [
    "thumbv6m-none-eabi",
    "thumbv7m-none-eabi",
    "thumbv7em-none-eabihf",
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

pub fn all() -> Result<()> {
    targets()?;
    qemu()?;
    mono()?;
    defmt_print()?;
    flip_link()?;
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
        let mut args = vec!["target", "add"];
        args.extend(missing);
        run("rustup", &args)?;
    }
    let components = output("rustup", &["component", "list", "--installed"]);
    if !components.contains("llvm-tools") {
        run("rustup", &["component", "add", "llvm-tools"])?;
    }
    Ok(())
}

pub fn qemu() -> Result<()> {
    if have("qemu-system-arm") {
        return Ok(());
    }
    let sudo = if output("id", &["-u"]).trim() == "0" {
        ""
    } else {
        "sudo "
    };
    run(
        "sh",
        &[
            "-c",
            &format!(
                "{sudo}apt-get update -qq && {sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-system-arm"
            ),
        ],
    )
}

/// The Mammut C# starter's test compiles a bot with Debian's `mcs` and runs it with `mono`.
pub fn mono() -> Result<()> {
    if have("mcs") && have("mono") {
        return Ok(());
    }
    let sudo = if output("id", &["-u"]).trim() == "0" {
        ""
    } else {
        "sudo "
    };
    run(
        "sh",
        &[
            "-c",
            &format!(
                "{sudo}apt-get update -qq && {sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mono-mcs"
            ),
        ],
    )
}

pub fn defmt_print() -> Result<()> {
    if have("defmt-print") {
        return Ok(());
    }
    run("cargo", &["install", "defmt-print", "--locked"])
}

/// The real boards link through flip-link (stack overflow protection); 5 s to install.
pub fn flip_link() -> Result<()> {
    if have("flip-link") {
        return Ok(());
    }
    run("cargo", &["install", "flip-link", "--locked"])
}
