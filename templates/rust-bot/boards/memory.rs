//! Each board folder's build script: puts the folder's memory.x where the linker finds it
//! (cortex-m-rt's link.x includes it), as the project's boards do.

use std::{env, fs, path::PathBuf};

fn main() {
    let board = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::copy(board.join("memory.x"), out.join("memory.x")).expect("copy the board's memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!(
        "cargo:rerun-if-changed={}",
        board.join("memory.x").display()
    );
}
