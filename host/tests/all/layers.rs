//! Layers, arrows pointing down (DESIGN.md): the modules of host/src sit in layers, a module names
//! only modules of its own layer or of a layer below, and the graph of the top-level modules has no
//! cycle. Read off the source: every `crate::m` path (`$crate::m` in macros, `crate::{m, ...}`
//! groups, a top-level module's `super::m`, a `#[macro_export]` macro or a re-export at the root
//! counted as the module that defines it), comments left out. A new module must be put in a layer
//! here; an arrow that points up, or a cycle, fails with the file and line that draw it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// host/src, top to bottom.
const HOST_LAYERS: &[(&str, &[&str])] = &[
    ("the command line", &["cli", "commands"]),
    ("the game folders", &["games"]),
    (
        "the match machinery",
        &["play", "render", "tournament", "viewer"],
    ),
    (
        "the contracts a game implements",
        &[
            "error",
            "format",
            "game",
            "host_game",
            "protocol",
            "record",
            "replay",
            "seats",
            "setup",
            "verify",
        ],
    ),
    (
        "processes and output",
        &["out", "process", "sandbox", "turn_time"],
    ),
];

/// Only the command line names these.
const COMMAND_LINE: &[&str] = &["cli", "commands"];

/// One arrow: `from` names `to` at `at` (file:line).
#[derive(Clone, Debug)]
struct Arrow {
    from: String,
    to: String,
    at: String,
}

/// The top-level modules of a crate's `src` and every arrow between them.
struct Graph {
    modules: BTreeSet<String>,
    arrows: Vec<Arrow>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path below the crate root: `a.rs` and `a/mod.rs` are `[a]`, `a/b.rs` is
/// `[a, b]`; the root files (`lib.rs`, `main.rs`) are `[]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("a file below src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "mod.rs" => {}
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        _ => parts.push(last.trim_end_matches(".rs").to_string()),
    }
    parts
}

/// The line without its comment (a `//` outside a string literal).
fn code_of(line: &str) -> &str {
    let mut in_str = false;
    let mut escaped = false;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
        } else if b == b'"' {
            in_str = true;
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            return &line[..i];
        }
    }
    line
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The path (`a::b::c`) that starts `s`, up to what is not a name.
fn path_at(s: &str) -> Vec<String> {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let id = ident_at(rest);
        if id.is_empty() {
            break;
        }
        segs.push(id.to_string());
        match rest[id.len()..].strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    segs
}

/// The paths a path names once it reaches `rest`: one, or each item of a `{a::b, c, d::{e}}`
/// group (each to its first `{`).
fn paths_after(rest: &str) -> Vec<Vec<String>> {
    let Some(group) = rest.strip_prefix('{') else {
        return vec![path_at(rest)];
    };
    let mut paths = Vec::new();
    let mut depth = 0;
    let mut expect = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => expect = true,
            c if expect && depth == 0 && (c.is_ascii_alphanumeric() || c == '_') => {
                paths.push(path_at(&group[i..]));
                expect = false;
            }
            _ => {}
        }
    }
    paths
}

/// Whether `code[..pos]` ends where a path may start (not inside a name or another path).
fn path_starts(code: &str, pos: usize) -> bool {
    !code[..pos]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

/// Every path the code of the file of module `me` names, from the crate root, with its line:
/// `crate::...` (`$crate::...` in macros), `super::...` resolved, and `child::...` for a child
/// module of `me`.
fn paths_named(
    me: &[String],
    modules: &BTreeSet<Vec<String>>,
    text: &str,
) -> Vec<(Vec<String>, usize)> {
    // Multi-line `use crate::{...}` groups: the code as one string, lines remembered.
    let code = text.lines().map(code_of).collect::<Vec<_>>().join("\n");
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    let mut named = Vec::new();
    for (pos, _) in code.match_indices("crate::") {
        let dollar = pos > 0 && code[..pos].ends_with('$');
        if dollar || path_starts(&code, pos) {
            for p in paths_after(&code[pos + "crate::".len()..]) {
                named.push((p, line_of(pos)));
            }
        }
    }
    for (pos, _) in code.match_indices("super::") {
        if !path_starts(&code, pos) {
            continue;
        }
        let mut rest = &code[pos..];
        let mut base = me.to_vec();
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            base.pop();
        }
        for p in paths_after(rest) {
            named.push(([base.clone(), p].concat(), line_of(pos)));
        }
    }
    for (pos, _) in code.match_indices("::") {
        let start = code[..pos]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let child = [me.to_vec(), vec![code[start..pos].to_string()]].concat();
        if path_starts(&code, start) && modules.contains(&child) {
            named.push((
                [me.to_vec(), path_at(&code[start..])].concat(),
                line_of(pos),
            ));
        }
    }
    named
}

/// The graph of `src`'s modules: its top-level modules (`top`), or every module.
fn graph_of(src: &Path, top: bool) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let texts: Vec<(Vec<String>, PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let mut t =
                std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            // A file's unit tests (`#[cfg(test)] mod tests`, at its end) are not the library.
            if let Some(i) = t.find(
                "#[cfg(test)]
mod ",
            ) {
                t.truncate(i);
            }
            (module_path(src, &f), f, t)
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = (texts.iter())
        .filter(|(m, ..)| !m.is_empty())
        .map(|(m, ..)| m.clone())
        .collect();
    // What a name at the root stands for: the module that defines an exported macro, or that a
    // root re-export comes from.
    let mut owner: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, _, text) in &texts {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let line = line.trim();
            if let Some(name) = line.strip_prefix("macro_rules! ") {
                let exported = lines[..i]
                    .iter()
                    .rev()
                    .take(8)
                    .any(|l| l.trim() == "#[macro_export]");
                if exported && !path.is_empty() {
                    owner.insert(ident_at(name).to_string(), path.clone());
                }
            }
            if let (true, Some(used)) = (path.is_empty(), line.strip_prefix("pub use ")) {
                let from = path_at(used);
                let last = used.trim_end_matches(';').rsplit("::").next().unwrap_or("");
                let module: Vec<String> = from
                    .iter()
                    .take(from.len().saturating_sub(1))
                    .cloned()
                    .collect();
                if modules.contains(&module) {
                    owner.insert(ident_at(last).to_string(), module);
                }
            }
        }
    }
    // The module a path lands in: its longest prefix that is a module, else what a root name
    // stands for.
    let land = |p: &[String]| -> Option<Vec<String>> {
        (1..=p.len())
            .rev()
            .map(|k| p[..k].to_vec())
            .find(|m| modules.contains(m))
            .or_else(|| p.first().and_then(|n| owner.get(n)).cloned())
    };
    let name = |m: &[String]| {
        if top {
            m.first().cloned().unwrap_or_default()
        } else {
            m.join("::")
        }
    };
    let mut arrows = Vec::new();
    for (me, f, text) in &texts {
        if me.is_empty() {
            continue;
        }
        for (p, line) in paths_named(me, &modules, text) {
            let Some(to) = land(&p) else {
                continue;
            };
            let (from, to) = (name(me), name(&to));
            if from != to {
                arrows.push(Arrow {
                    from,
                    to,
                    at: format!("{}:{line}", f.display()),
                });
            }
        }
    }
    Graph {
        modules: modules.iter().map(|m| name(m)).collect(),
        arrows,
    }
}

/// The graph of `src`'s top-level modules.
fn graph(src: &Path) -> Graph {
    graph_of(src, true)
}

/// A cycle of the graph, if it has one: the modules in order, and the arrows that close it.
fn cycle(g: &Graph) -> Option<Vec<Arrow>> {
    let mut out: BTreeMap<&str, Vec<&Arrow>> = BTreeMap::new();
    for a in &g.arrows {
        out.entry(a.from.as_str()).or_default().push(a);
    }
    // Depth-first search; 1: on the path, 2: done.
    fn visit<'a>(
        m: &'a str,
        out: &BTreeMap<&'a str, Vec<&'a Arrow>>,
        state: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a Arrow>,
    ) -> Option<Vec<Arrow>> {
        state.insert(m, 1);
        for a in out.get(m).into_iter().flatten() {
            match state.get(a.to.as_str()) {
                Some(1) => {
                    let start = path
                        .iter()
                        .position(|p| p.from == a.to)
                        .unwrap_or(path.len());
                    let mut c: Vec<Arrow> = path[start..].iter().map(|&p| p.clone()).collect();
                    c.push((*a).clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    path.push(a);
                    if let Some(c) = visit(&a.to, out, state, path) {
                        return Some(c);
                    }
                    path.pop();
                }
            }
        }
        state.insert(m, 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in &g.modules {
        if !state.contains_key(m.as_str()) {
            if let Some(c) = visit(m, &out, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn show(arrows: &[Arrow]) -> String {
    arrows
        .iter()
        .map(|a| format!("  {} -> {} ({})", a.from, a.to, a.at))
        .collect::<Vec<_>>()
        .join("\n")
}

fn src_of(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(krate)
        .join("src")
}

#[test]
fn the_host_modules_are_layers_with_arrows_pointing_down() {
    let g = graph(&src_of("."));
    let layer_of = |m: &str| HOST_LAYERS.iter().position(|(_, ms)| ms.contains(&m));
    let unplaced: Vec<&String> = g.modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        unplaced.is_empty(),
        "modules in no layer (put each in HOST_LAYERS): {unplaced:?}"
    );
    let up: Vec<Arrow> = (g.arrows.iter())
        .filter(|a| layer_of(&a.to) < layer_of(&a.from))
        .cloned()
        .collect();
    assert!(
        up.is_empty(),
        "arrows pointing up (a module names a higher layer's):\n{}",
        show(&up)
    );
    let command_line: Vec<Arrow> = (g.arrows.iter())
        .filter(|a| {
            COMMAND_LINE.contains(&a.to.as_str()) && !COMMAND_LINE.contains(&a.from.as_str())
        })
        .cloned()
        .collect();
    assert!(
        command_line.is_empty(),
        "only the command line names crate::cli and crate::commands:\n{}",
        show(&command_line)
    );
}

#[test]
fn the_host_module_graph_has_no_cycle() {
    let g = graph(&src_of("."));
    assert!(
        g.arrows.len() > 20,
        "the graph was read: {} arrows",
        g.arrows.len()
    );
    if let Some(c) = cycle(&g) {
        panic!("host/src's modules form a cycle:\n{}", show(&c));
    }
}

#[test]
fn no_module_of_the_host_is_in_a_cycle() {
    let g = graph_of(&src_of("."), false);
    assert!(
        g.arrows.len() > 50,
        "the graph was read: {} arrows",
        g.arrows.len()
    );
    if let Some(c) = cycle(&g) {
        panic!(
            "host/src's modules form a cycle:
{}",
            show(&c)
        );
    }
}

#[test]
fn the_xtask_module_graph_has_no_cycle() {
    let g = graph(&src_of("xtask"));
    if let Some(c) = cycle(&g) {
        panic!("host/xtask/src's modules form a cycle:\n{}", show(&c));
    }
}

/// The reader sees an arrow wherever one is drawn (so that the checks above cannot pass by reading
/// nothing): a planted back-arrow is a cycle and an arrow pointing up.
#[test]
fn a_planted_back_arrow_is_caught() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let p = src.join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("a folder");
        std::fs::write(p, text).expect("a file");
    };
    write("lib.rs", "pub mod high;\npub mod low;\n");
    write("high/mod.rs", "use crate::low::Thing;\npub mod part;\n");
    write("high/part.rs", "use super::super::low::Thing;\n");
    write(
        "low.rs",
        "// crate::high in a comment is no arrow\npub struct Thing;\n",
    );
    assert!(cycle(&graph(src)).is_none());
    write(
        "low.rs",
        "pub struct Thing;\nfn f() { let _ = crate::{high::part}; }\n",
    );
    let g = graph(src);
    let c = cycle(&g).expect("the planted arrow closes a cycle");
    assert!(show(&c).contains("low -> high"), "{}", show(&c));
    // Inside a module: a child naming its parent's item while the parent names the child's.
    write("low.rs", "pub struct Thing;\n");
    write(
        "high/mod.rs",
        "pub use part::Part;\npub mod part;\npub struct Own;\n",
    );
    write(
        "high/part.rs",
        "pub struct Part;\nfn f() { let _ = super::Own; }\n",
    );
    assert!(cycle(&graph(src)).is_none());
    let c = cycle(&graph_of(src, false)).expect("a child and its parent name each other");
    assert!(show(&c).contains("high::part -> high"), "{}", show(&c));
}
