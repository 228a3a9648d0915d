//! Hands the firmware the official Ants map the boards with room for it play (tutorial1), read
//! from the golden data beside the project (`ARENA_GOLDEN`, else `../shared/golden`), never kept
//! in the project. Without it the map is empty, the entry cannot build its params, and the
//! firmware's tests say so.

// A build script may panic: it is how it reports to cargo.
#![allow(clippy::expect_used)]

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let golden = env::var_os("ARENA_GOLDEN")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/golden"));
    let map = golden.join("ants/maps/tutorial1.map");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = fs::read_to_string(&map).unwrap_or_else(|e| {
        println!(
            "cargo:warning=no official Ants map for the boards ({}: {e}); set ARENA_GOLDEN",
            map.display()
        );
        String::new()
    });
    fs::write(out.join("tutorial1.map"), text).expect("write into OUT_DIR");
    println!("cargo:rerun-if-changed={}", map.display());
    println!("cargo:rerun-if-env-changed=ARENA_GOLDEN");
}
