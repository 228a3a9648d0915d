//! `cargo xtask size`: flash and static RAM of each board's firmware (llvm-size -A).
//!
//! Flash holds the vector table, code, read-only data and the initial values of `.data`; static RAM
//! is `.data`, `.bss` and `.uninit` (the rest of RAM is the stack).

use std::path::Path;
use std::process::Command;

use anyhow::{ensure, Context, Result};

use crate::boards::BOARDS;
use crate::tools;

const FLASH: &[&str] = &[
    ".vector_table",
    ".boot2",
    ".boot_loader",
    ".start_block",
    ".bi_entries",
    ".end_block",
    ".text",
    ".rodata",
    ".data",
    ".gnu.sgstubs",
];
const RAM: &[&str] = &[".data", ".bss", ".uninit"];

/// (flash, ram) bytes of an ELF.
pub fn measure(elf: &Path) -> Result<(u64, u64)> {
    let out = Command::new(tools::llvm_size()?)
        .arg("-A")
        .arg(elf)
        .output()
        .with_context(|| format!("llvm-size {}", elf.display()))?;
    ensure!(
        out.status.success(),
        "llvm-size failed on {}",
        elf.display()
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let (mut flash, mut ram) = (0, 0);
    for line in text.lines() {
        let mut w = line.split_whitespace();
        let (Some(name), Some(size)) = (w.next(), w.next().and_then(|s| s.parse::<u64>().ok()))
        else {
            continue;
        };
        if FLASH.contains(&name) {
            flash += size;
        }
        if RAM.contains(&name) {
            ram += size;
        }
    }
    Ok((flash, ram))
}

pub fn run() -> Result<Vec<(String, u64, u64)>> {
    let targets: Vec<&str> = BOARDS.iter().map(|b| b.target()).collect();
    tools::targets(&targets)?;
    let mut rows = Vec::new();
    println!(
        "{:<28} {:>10} {:>10} {:>12} {:>12}",
        "board", "flash", "static RAM", "chip flash", "chip RAM"
    );
    for b in BOARDS {
        let (board, (chip_flash, chip_ram)) = (b.folder(), b.chip());
        if !crate::root().join(board).join("Cargo.toml").is_file() {
            continue;
        }
        let elf = tools::build_board(board, b.target())?.join("arena");
        let (flash, ram) = measure(&elf)?;
        println!("{board:<28} {flash:>10} {ram:>10} {chip_flash:>12} {chip_ram:>12}");
        ensure!(
            flash <= chip_flash,
            "{board}: {flash} bytes of flash, the chip has {chip_flash}"
        );
        ensure!(
            ram <= chip_ram,
            "{board}: {ram} bytes of static RAM, the chip has {chip_ram}"
        );
        rows.push((board.to_owned(), flash, ram));
    }
    Ok(rows)
}
