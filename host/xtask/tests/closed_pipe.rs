//! A closed output pipe is not a crash: `cargo xtask lineup --help | head -1` panicked with
//! "failed printing to stdout: Broken pipe".

use std::process::{Command, Stdio};

#[test]
fn help_into_a_closed_pipe_ends_quietly() {
    // The reading end is gone before xtask writes a byte, so every write fails (EPIPE).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["lineup", "--help"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("xtask starts");
    let out = child.wait_with_output().expect("xtask ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}
