//! `cargo xtask panics`: every panic path left in the QEMU firmware that plays the demo rotation,
//! read off the release ELF, and the check that none but the explained ones remain.
//!
//! The lints keep `unwrap`, indexing and overflow out of the source, but the compiler still links a
//! panic wherever it cannot prove a library call's own check away (`slice::swap`, `Vec::remove`,
//! a division by a variable). So the proof is read from the machine code: `llvm-objdump` lists the
//! direct calls of every function; a library function (core, compiler-builtins) is a *sink* when it
//! reaches `core::panicking::panic_fmt` through library functions; a *site* is a call from a
//! function of ours or of another crate into a sink. Each site must match [`ALLOWED`], which says
//! why it cannot fire; any other fails `cargo xtask test` with its inlined source lines (through
//! `addr2line`, when installed), so a new panic path is caught the day it is compiled in.
//!
//! Blind spot: calls through function pointers and vtables are not followed. In this firmware they
//! are `core::fmt`'s (the panic handler's message, defmt does not use `core::fmt`) and the `Bot`
//! trait is generic, not `dyn`, so the game code is all reached by direct calls.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::tools;

/// The panic paths that remain, each with why it cannot fire while the rotation plays: (caller
/// prefix, sink prefix, why).
pub const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "_defmt_",
        "core::panicking::panic_fmt",
        "defmt-semihosting's guard against a log call inside another (acquire, write, release): it \
         logs in a critical section, so only a fault can interleave, and the firmware logs from the \
         main loop, the panic handler and the HardFault handler, the last two ending the run anyway",
    ),
    (
        "semihosting::io::Write::write_all",
        "core::panicking::panic",
        "the semihosting crate asserts that a file handle is not -1; the handle is its own stdout, \
         opened once (an open that fails is an error, not a -1 handle)",
    ),
    (
        "",
        "core::slice::sort::",
        "core's sort panics when `Ord` is not a total order; every sort in arena-core and \
         arena-firmware is of integers or tuples of integers (the games' rankings and queues, \
         a bot's targets, the cost summary)",
    ),
];

/// A call from outside the library into a function that can panic.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    pub caller: String,
    pub sink: String,
    pub addr: u64,
}

/// A library function: core's (monomorphised here or not) and compiler-builtins'.
fn library(name: &str) -> bool {
    [
        "core::",
        "<core::",
        "<char as core::",
        "<str as core::",
        "<&",
        "<[",
        "compiler_builtins::",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// `foo::bar::h0123456789abcdef` without its hash.
fn unhashed(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            head
        }
        _ => name,
    }
}

/// The direct calls and branches out of each function: (caller, callee, address of the call).
fn calls(disassembly: &str) -> Vec<(String, String, u64)> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in disassembly.lines() {
        // `0000fa1e <arena_core::rng::Rng::shuffle::h4eca6e48eea14037>:`
        if let Some(head) = line.strip_suffix(">:") {
            if let Some((addr, name)) = head.split_once(" <") {
                if u64::from_str_radix(addr, 16).is_ok() {
                    current = Some(name.to_string());
                    continue;
                }
            }
        }
        let Some(caller) = &current else { continue };
        // `    fa7e:      \tbl\t0x1de68 <__aeabi_uldivmod> @ imm = #0xe3e6`
        let Some((addr, rest)) = line.trim_start().split_once(':') else {
            continue;
        };
        let Ok(addr) = u64::from_str_radix(addr, 16) else {
            continue;
        };
        let mut fields = rest.split('\t').map(str::trim).filter(|f| !f.is_empty());
        let (Some(op), Some(operand)) = (fields.next(), fields.next()) else {
            continue;
        };
        if !(op.starts_with('b') || op.starts_with("cb")) {
            continue;
        }
        let operand = operand.split(" @ ").next().unwrap_or(operand);
        let Some(target) = operand
            .split_once(" <")
            .and_then(|(_, t)| t.strip_suffix('>'))
        else {
            continue;
        };
        // A branch inside a function (`<f+0x1a>`) is not a call.
        if target.rsplit_once("+0x").is_some() || target == caller {
            continue;
        }
        out.push((caller.clone(), target.to_string(), addr));
    }
    out
}

/// Every site of the ELF.
pub fn sites(elf: &Path) -> Result<Vec<Site>> {
    let out = Command::new(tools::llvm_tool("llvm-objdump")?)
        .args(["-d", "-C", "--no-show-raw-insn"])
        .arg(elf)
        .output()
        .with_context(|| format!("llvm-objdump {}", elf.display()))?;
    if !out.status.success() {
        bail!(
            "llvm-objdump failed on {}: {}",
            elf.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let calls = calls(&String::from_utf8_lossy(&out.stdout));
    let mut callers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (caller, callee, _) in &calls {
        callers.entry(callee).or_default().insert(caller);
    }
    let mut sinks: BTreeSet<&str> = ["core::panicking::panic_fmt"].into();
    let mut todo: Vec<&str> = sinks.iter().copied().collect();
    while let Some(sink) = todo.pop() {
        for &caller in callers.get(sink).into_iter().flatten() {
            if library(caller) && sinks.insert(caller) {
                todo.push(caller);
            }
        }
    }
    if !callers.contains_key("core::panicking::panic_fmt") {
        bail!(
            "{}: no call of core::panicking::panic_fmt at all; is this the firmware (with its panic handler)?",
            elf.display()
        );
    }
    let mut out: Vec<Site> = calls
        .iter()
        .filter(|(caller, callee, _)| !library(caller) && sinks.contains(callee.as_str()))
        .map(|(caller, callee, addr)| Site {
            caller: unhashed(caller).to_string(),
            sink: unhashed(callee).to_string(),
            addr: *addr,
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Why a site cannot fire, if it is one of the explained ones.
pub fn why(site: &Site) -> Option<&'static str> {
    ALLOWED
        .iter()
        .find(|(caller, sink, _)| site.caller.starts_with(caller) && site.sink.starts_with(sink))
        .map(|(_, _, why)| *why)
}

/// The source lines, inlined frames included, of an address (empty without `addr2line`).
fn source(elf: &Path, addr: u64) -> Vec<String> {
    let Ok(out) = Command::new("addr2line")
        .args(["-f", "-i", "-C", "-e"])
        .arg(elf)
        .arg(format!("{addr:#x}"))
        .output()
    else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks(2)
        .map(|pair| match pair {
            [f, at] => format!("{} at {}", unhashed(f), at),
            other => other.join(" "),
        })
        .collect()
}

/// Prints every site with its reason; fails on any site without one.
pub fn check(elf: &Path) -> Result<()> {
    let sites = sites(elf)?;
    let mut unexplained = 0;
    let mut explained: BTreeMap<&str, BTreeSet<(&str, &str)>> = BTreeMap::new();
    for site in &sites {
        match why(site) {
            Some(reason) => {
                explained
                    .entry(reason)
                    .or_default()
                    .insert((&site.caller, &site.sink));
            }
            None => {
                unexplained += 1;
                eprintln!(
                    "UNEXPLAINED panic path at {:#x}: {} -> {}",
                    site.addr, site.caller, site.sink
                );
                for frame in source(elf, site.addr) {
                    eprintln!("    {frame}");
                }
            }
        }
    }
    for (reason, paths) in &explained {
        for (caller, sink) in paths {
            println!("panic path: {caller} -> {sink}");
        }
        println!("    why it cannot fire: {reason}");
    }
    println!(
        "panic paths in {}: {} call sites, {} explained, {unexplained} unexplained",
        elf.file_name()
            .map_or_else(|| elf.display().to_string(), |f| f.to_string_lossy().into()),
        sites.len(),
        sites.len() - unexplained,
    );
    if unexplained > 0 {
        bail!("{unexplained} panic path(s) in the firmware that no rule explains (see above and host/xtask/src/panics.rs)");
    }
    Ok(())
}

/// `cargo xtask panics [--elf FILE]`: build the QEMU firmware and check it (or check FILE).
pub fn run(elf: Option<&str>) -> Result<()> {
    if let Some(elf) = elf {
        return check(Path::new(elf));
    }
    crate::boards::Board::setup(&super::Qemu)?;
    let release = super::build()?;
    check(&release.join("arena"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISASSEMBLY: &str = "
0000fa1e <arena_core::rng::Rng::shuffle::h4eca6e48eea14037>:
    fa20:      \tcmp\tr2, r1
    fa22:      \tbls\t0xfa4e <arena_core::rng::Rng::shuffle::h4eca6e48eea14037+0x30> @ imm = #0xa
    fa7e:      \tbl\t0x1b968 <core::panicking::panic_bounds_check> @ imm = #0xe3e6
    fa80:      \tbl\t0x1de68 <__aeabi_uldivmod> @ imm = #0xe3e6

0001b968 <core::panicking::panic_bounds_check>:
   1b970:      \tbl\t0x1b148 <core::panicking::panic_fmt> @ imm = #0x12
";

    #[test]
    fn calls_are_read_from_objdump_lines() {
        let calls = calls(DISASSEMBLY);
        let shuffle = "arena_core::rng::Rng::shuffle::h4eca6e48eea14037".to_string();
        assert_eq!(
            calls,
            vec![
                (
                    shuffle.clone(),
                    "core::panicking::panic_bounds_check".into(),
                    0xfa7e
                ),
                (shuffle, "__aeabi_uldivmod".into(), 0xfa80),
                (
                    "core::panicking::panic_bounds_check".into(),
                    "core::panicking::panic_fmt".into(),
                    0x1b970
                ),
            ]
        );
    }

    #[test]
    fn reasons_match_by_prefix() {
        let site = |caller: &str, sink: &str| Site {
            caller: caller.into(),
            sink: sink.into(),
            addr: 0,
        };
        assert!(why(&site("_defmt_write", "core::panicking::panic_fmt")).is_some());
        assert!(why(&site(
            "arena_firmware::play::step",
            "core::slice::sort::unstable::ipnsort"
        ))
        .is_some());
        assert!(why(&site(
            "arena_core::rng::Rng::shuffle",
            "core::panicking::panic_bounds_check"
        ))
        .is_none());
        assert_eq!(unhashed("a::b::h4eca6e48eea14037"), "a::b");
        assert_eq!(unhashed("a::b"), "a::b");
    }
}
