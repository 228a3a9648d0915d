//! The shell examples of README.md and docs/*.md, run as a reader would run them, so that a step
//! that stops working fails CI.
//!
//! The convention (docs/README.md says it for writers):
//! - a ```` ```sh ```` block is run: with `bash -e -o pipefail`, `cargo arena` being the `arena`
//!   that `cargo test` built beside this test (the same source as the alias's release build), in
//!   a scratch folder per page
//!   (`target/doc-examples/<page>/`, emptied first) that links the repository's folders (`host`,
//!   `boards`, ...), with `../shared` beside it as beside the repository; a page's blocks run in
//!   order in the same folder, so a block may use the files an earlier one wrote; each has
//!   `BLOCK_SECONDS` seconds;
//! - a ```` ```console ```` block is shown, not run, and the paragraph just before it must say why,
//!   in words the reader sees: `Not run by the doc test: <reason>`;
//! - a block in another shell dialect (`bash`, `shell`, ...) or with no language at all is an
//!   error: every block says which of the two it is (or that it is no shell: `text`, `rust`, ...).
//!
//! A failing block is reported with its file and line, the line of the command that failed and
//! the end of its output.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The time one block may take (a short match of every game takes a second or two).
const BLOCK_SECONDS: u64 = 120;
/// The phrase the paragraph before a ```` ```console ```` block starts its reason with.
const NOT_RUN: &str = "not run by the doc test:";
/// What a block that is no shell may be marked as.
const SHELLS: [&str; 5] = ["bash", "shell", "zsh", "shell-session", "sh-session"];

#[derive(Debug)]
struct Block {
    file: PathBuf,
    /// The line of the opening fence, from 1.
    line: usize,
    lang: String,
    text: String,
    /// The paragraph just before the fence, on one line.
    before: String,
}

fn root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}

/// README.md and every page of docs/.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The fenced blocks of a Markdown text (fences of three backticks, indented or not).
fn blocks(file: &Path, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - trimmed.len();
        let lang = info.split_whitespace().next().unwrap_or("").to_owned();
        let mut para = Vec::new();
        for l in lines[..i].iter().rev() {
            if l.trim().is_empty() {
                if para.is_empty() {
                    continue;
                }
                break;
            }
            para.push(l.trim());
        }
        para.reverse();
        let mut body = String::new();
        let mut j = i + 1;
        while j < lines.len() && lines[j].trim() != "```" {
            let l = lines[j];
            let cut = l.len() - l.trim_start().len();
            body.push_str(&l[cut.min(indent)..]);
            body.push('\n');
            j += 1;
        }
        out.push(Block {
            file: file.to_owned(),
            line: i + 1,
            lang,
            text: body,
            before: para.join(" "),
        });
        i = j + 1;
    }
    out
}

fn all_blocks() -> Vec<Block> {
    let mut all = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", page.display()));
        all.extend(blocks(&page, &text));
    }
    all
}

fn place(b: &Block) -> String {
    let rel = b.file.strip_prefix(root()).unwrap_or(&b.file);
    format!("{}:{}", rel.display(), b.line)
}

/// What is wrong with a block's marking, if anything.
fn marking(b: &Block) -> Option<String> {
    match b.lang.as_str() {
        "sh" => None,
        "console" => {
            let before = b.before.to_lowercase();
            match before.find(NOT_RUN) {
                Some(at) if !before[at + NOT_RUN.len()..].trim().is_empty() => None,
                _ => Some("a ```console block is not run: the paragraph just before it must say why (\"Not run by the doc test: <reason>\")".to_owned()),
            }
        }
        "" => Some("a block says its language: ```sh (run by the doc test), ```console (not run, the reason just before it), or what it holds (```text, ```rust, ...)".to_owned()),
        lang if SHELLS.contains(&lang) => Some(format!(
            "```{lang}: a shell example is ```sh (run by the doc test) or ```console (not run, the reason just before it)"
        )),
        _ => None,
    }
}

#[test]
fn every_shell_example_is_run_or_says_why_not() {
    let mut wrong = String::new();
    for b in all_blocks() {
        if let Some(why) = marking(&b) {
            let _ = writeln!(wrong, "{}: {why}", place(&b));
        }
    }
    assert!(wrong.is_empty(), "{wrong}");
}

#[test]
fn the_convention_is_read_as_written() {
    let text = "# t\n\n```sh\ncargo arena bots\n```\n\nNot run by the doc test: it needs a probe.\n\n```console\ncargo xtask flash\n```\n\n- a list\n\n  ```sh\n  echo indented\n  ```\n\n```\nno language\n```\n\n```console\nno reason\n```\n";
    let got = blocks(Path::new("t.md"), text);
    let langs: Vec<(&str, usize)> = got.iter().map(|b| (b.lang.as_str(), b.line)).collect();
    assert_eq!(
        langs,
        [
            ("sh", 3),
            ("console", 9),
            ("sh", 15),
            ("", 19),
            ("console", 23)
        ]
    );
    assert_eq!(got[2].text, "echo indented\n");
    let marks: Vec<bool> = got.iter().map(|b| marking(b).is_none()).collect();
    assert_eq!(marks, [true, true, true, false, false]);
}

/// The `arena` this test binary was built with: the examples' `cargo arena` runs it. It is the
/// command line of the release build in the test profile; building `--release` once more only
/// for the examples was three and a half minutes of CI on two cores.
fn arena() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena"))
}

/// A fresh scratch folder for a page, with the repository's folders linked in and `../shared`
/// beside it.
fn scratch(page: &Path) -> PathBuf {
    let base = root().join("target/doc-examples");
    let rel = page.strip_prefix(root()).unwrap_or(page);
    let name = rel.with_extension("").to_string_lossy().replace('/', "-");
    let dir = base.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("cannot create the scratch folder");
    let shared = root().join("../shared");
    let link = base.join("shared");
    if shared.is_dir() && std::fs::symlink_metadata(&link).is_err() {
        let _ = std::os::unix::fs::symlink(shared.canonicalize().unwrap_or(shared), &link);
    }
    for entry in [
        "host",
        "boards",
        "core",
        "firmware",
        "tests",
        "benches",
        "docs",
        "templates",
    ] {
        let _ = std::os::unix::fs::symlink(
            root().join(entry).canonicalize().unwrap_or_default(),
            dir.join(entry),
        );
    }
    dir
}

/// Runs one block; the failure's description.
fn run(b: &Block, dir: &Path, prelude: &Path, arena: &Path) -> Result<Duration, String> {
    let script = dir.join(format!(".block-{}.sh", b.line));
    let log = dir.join(format!(".block-{}.log", b.line));
    std::fs::write(&script, &b.text).map_err(|e| e.to_string())?;
    let out = std::fs::File::create(&log).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut child = Command::new("bash")
        .args(["-e", "-o", "pipefail"])
        .arg(&script)
        .current_dir(dir)
        .env("BASH_ENV", prelude)
        .env("ARENA", arena)
        .stdin(Stdio::null())
        .stdout(out.try_clone().map_err(|e| e.to_string())?)
        .stderr(out)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start bash: {e}"))?;
    // The block's process group, ended when the block ends or runs out of time: what a block
    // started in the background (a server) and left behind goes with it.
    let group = format!("-{}", child.id());
    let end_group = || {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                end_group();
                break Some(status);
            }
            Ok(None) if start.elapsed() > Duration::from_secs(BLOCK_SECONDS) => {
                end_group();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let took = start.elapsed();
    let mut text = String::new();
    let _ = std::fs::File::open(&log).and_then(|mut f| f.read_to_string(&mut text));
    let failed = match status {
        Some(s) if s.success() => return Ok(took),
        Some(s) => format!("failed ({s})"),
        None => format!("did not end within {BLOCK_SECONDS} s"),
    };
    // The prelude's ERR trap names the failing command's line in the block.
    let at = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("doc test: line "))
        .and_then(|n| n.trim().parse::<usize>().ok());
    let line = at.map_or(String::new(), |n| {
        let command = b.text.lines().nth(n.saturating_sub(1)).unwrap_or("").trim();
        format!(", at line {}: `{command}`", b.line + n)
    });
    let tail: Vec<&str> = text.lines().rev().take(30).collect();
    let mut msg = format!(
        "{}: the ```sh block {failed}{line}, in {}:\n",
        place(b),
        dir.display()
    );
    for l in tail.iter().rev() {
        let _ = writeln!(msg, "    {l}");
    }
    Err(msg)
}

use std::os::unix::process::CommandExt as _;

#[test]
fn every_sh_example_runs() {
    let blocks = all_blocks();
    let arena = arena();
    let base = root().join("target/doc-examples");
    std::fs::create_dir_all(&base).expect("cannot create target/doc-examples");
    // `cargo arena` is the binary just built; every other cargo command is cargo's. The ERR trap
    // names the failing command's line: the function returns a failure rather than ending the
    // shell inside it (where the trap, not inherited by functions, would not run).
    let prelude = base.join("prelude.sh");
    std::fs::write(
        &prelude,
        "cargo() { if [ \"${1-}\" = arena ]; then shift; \"$ARENA\" \"$@\" || return; else command cargo \"$@\" || return; fi; }\n\
         trap 'echo \"doc test: line $LINENO\" >&2' ERR\n",
    )
    .expect("cannot write the prelude");
    let mut failures = String::new();
    let (mut ran, mut lines) = (0, 0);
    let mut dirs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for b in blocks.iter().filter(|b| b.lang == "sh") {
        let dir = match dirs.iter().find(|(page, _)| *page == b.file) {
            Some((_, dir)) => dir.clone(),
            None => {
                let dir = scratch(&b.file);
                dirs.push((b.file.clone(), dir.clone()));
                dir
            }
        };
        match run(b, &dir, &prelude, &arena) {
            Ok(took) => eprintln!("doc test: {} ok in {:.1} s", place(b), took.as_secs_f64()),
            Err(e) => {
                eprintln!("{e}");
                failures.push_str(&e);
            }
        }
        ran += 1;
        lines += b
            .text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
    }
    eprintln!("doc test: {ran} shell examples run ({lines} lines of commands)");
    assert!(ran > 0, "no ```sh block found");
    assert!(failures.is_empty(), "{failures}");
}
