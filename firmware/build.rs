//! Tells the firmware where the golden data is (`ARENA_GOLDEN`, else `../shared/golden`), for
//! the screens and lineups that embed a file of it (an official map): the data stays beside the
//! project, never in it. With the folder there, `cfg(golden)` is set and `ARENA_GOLDEN_DIR`
//! names it; without it the entries that need it cannot build their params, and the firmware's
//! tests say so.

// A build script may panic: it is how it reports to cargo.
#![allow(clippy::expect_used)]

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(golden)");
    println!("cargo:rerun-if-env-changed=ARENA_GOLDEN");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let golden = env::var_os("ARENA_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/golden"));
    // A folder: cargo re-runs this when anything in it changes.
    println!("cargo:rerun-if-changed={}", golden.display());
    match golden.canonicalize() {
        Ok(dir) if dir.is_dir() => {
            println!("cargo:rustc-cfg=golden");
            println!("cargo:rustc-env=ARENA_GOLDEN_DIR={}", dir.display());
        }
        _ => println!(
            "cargo:warning=no golden data at {}: the board entries that embed an official map \
             cannot be played; set ARENA_GOLDEN",
            golden.display()
        ),
    }
}
