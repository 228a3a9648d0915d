//! Builds the replay viewer's WebAssembly module (`host/viewer` for `wasm32-unknown-unknown`) so
//! that `arena render --out match.html` can embed it: a user's `cargo build` of the host makes the
//! whole command, with no other tool to run and nothing built when a replay is rendered.
//!
//! Why here: the module is built from the same sources as the host (arena-core's rules,
//! arena-firmware's screens, the host's canonical JSON), so it must be rebuilt whenever they
//! change, and cargo only knows that from a build script. The inner build has its own target
//! directory (`<target>/viewer-wasm`), so it never waits on the outer build's lock, and starts from
//! a clean environment of flags (the outer build's RUSTFLAGS, sanitizers or clippy wrapper are for
//! the host, not for the module). Its release profile drops debug information: the page carries
//! the module, and its size is what a viewer file weighs.
//!
//! Without the wasm32 target (`rustup target add wasm32-unknown-unknown`; rust-toolchain.toml
//! lists it, but rustup adds its targets only when it installs the toolchain) the host still
//! builds, says so in a warning, and `arena render --out x.html` explains why it cannot write the
//! page. The script watches the toolchain's list of installed components, which `rustup target
//! add` rewrites, so the next build after the target is added runs it again and embeds the module
//! (without that, cargo kept the empty module until a source file changed).

use std::path::PathBuf;
use std::process::Command;
use std::{env, fs};

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest.join("..");
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    let target_dir = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("viewer-wasm");
    for path in [
        "viewer",
        "src/games",
        "../core",
        "../firmware",
        "../Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", manifest.join(path).display());
    }
    // Builds that never write a page skip the module: the fuzz targets, built by nightly (which
    // has no wasm32 here) under sanitizers (`cargo xtask fuzz` sets this).
    println!("cargo:rerun-if-env-changed=ARENA_NO_VIEWER");
    if env::var_os("ARENA_NO_VIEWER").is_some() {
        if let Err(e) = fs::write(out.join("arena_viewer.wasm"), []) {
            println!("cargo:warning=cannot write the viewer module into OUT_DIR: {e}");
        }
        return;
    }
    watch_installed_targets();
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .args(["build", "--release", "--package", "arena-viewer", "--lib"])
        .args(["--target", TARGET])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        // What the inner cargo prints is for a person; the outer one reads this script's stdout.
        .stdout(std::io::stderr());
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
    ] {
        build.env_remove(var);
    }
    let module = target_dir.join(TARGET).join("release/arena_viewer.wasm");
    let bytes = match build.status() {
        Ok(s) if s.success() => fs::read(&module).unwrap_or_default(),
        Ok(s) => {
            println!("cargo:warning=the replay viewer's WebAssembly module did not build ({s}): `arena render --out x.html` will say so; is the {TARGET} target installed? (`rustup target add {TARGET}` or `cargo xtask setup`; the next build then embeds the viewer)");
            Vec::new()
        }
        Err(e) => {
            println!("cargo:warning=cannot run cargo to build the replay viewer: {e}");
            Vec::new()
        }
    };
    if let Err(e) = fs::write(out.join("arena_viewer.wasm"), bytes) {
        println!("cargo:warning=cannot write the viewer module into OUT_DIR: {e}");
    }
}

/// Asks cargo to run this script again when the toolchain's targets change: rustup rewrites
/// `<sysroot>/lib/rustlib/components` on every `rustup target add` or `remove`. A toolchain
/// without that file (not installed by rustup) has the wasm32 standard library watched instead: a
/// path that does not exist makes cargo run the script on every build, until the target is there.
fn watch_installed_targets() {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let sysroot = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    if sysroot.is_empty() {
        println!("cargo:warning=cannot ask rustc for its sysroot: a wasm32 target added later needs a change to host/build.rs to be used");
        return;
    }
    let rustlib = PathBuf::from(sysroot).join("lib/rustlib");
    let components = rustlib.join("components");
    let watched = if components.is_file() {
        components
    } else {
        rustlib.join(TARGET)
    };
    println!("cargo:rerun-if-changed={}", watched.display());
}
