//! What an emulated board is given from its ELF, as a debug probe is given it: the loadable
//! segments at their load addresses, the addresses of the symbols its harness needs
//! (`_SEGGER_RTT`, the pace word) and the defmt string indices of the log lines it acts on. xtask
//! reads the ELF ([`crate::elf`], its one ELF reader) and hands this to the harness as a JSON file
//! (`--target FILE`; a harness's reader of it, e.g. `lib/target.mjs`, says its shape). Bad input gives an
//! error that says what is wrong, never a panic.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};

use crate::elf;

/// defmt's format strings in the ELF: `(index, string)` for each symbol named with defmt's JSON
/// (`{"tag":"defmt_...","data":"..."}`), whose address is the string's index in the log frames.
pub fn defmt_strings(symbols: &[elf::Symbol]) -> Vec<(u32, String)> {
    symbols
        .iter()
        .filter(|s| s.name.starts_with('{'))
        .filter_map(|s| {
            let j: Value = serde_json::from_str(&s.name).ok()?;
            let tag = j["tag"].as_str()?;
            let data = j["data"].as_str()?;
            tag.starts_with("defmt_").then(|| (s.addr, data.to_owned()))
        })
        .collect()
}

/// The index of the one defmt string that starts with `prefix` (`frame m=`), `None` when none
/// does; an error when two do (the harness would not know which one announces the event).
pub fn defmt_index(strings: &[(u32, String)], prefix: &str) -> Result<Option<u32>, String> {
    let hits: Vec<_> = strings
        .iter()
        .filter(|(_, s)| s.starts_with(prefix))
        .collect();
    match hits.as_slice() {
        [] => Ok(None),
        [(i, _)] => Ok(Some(*i)),
        _ => Err(format!(
            "{} defmt strings start with \"{prefix}\": {}",
            hits.len(),
            hits.iter()
                .map(|(_, s)| s.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        )),
    }
}

/// The address (Thumb bit clear) of the one function whose name holds every one of `parts`;
/// `None` when none or several do.
pub fn function(symbols: &[elf::Symbol], parts: &[&str]) -> Option<u32> {
    let mut hits = symbols
        .iter()
        .filter(|s| s.func && parts.iter().all(|p| s.name.contains(p)));
    match (hits.next(), hits.next()) {
        (Some(s), None) => Some(s.addr & !1),
        _ => None,
    }
}

/// The functions as `(address, size, name)`, Thumb bit clear, sorted by address.
pub fn names(symbols: &[elf::Symbol]) -> Vec<(u32, u32, &str)> {
    let mut names: Vec<_> = symbols
        .iter()
        .filter(|s| s.func)
        .map(|s| (s.addr & !1, s.size, s.name.as_str()))
        .collect();
    names.sort_unstable();
    names
}

/// What a harness asks of the ELF besides the segments, `_SEGGER_RTT` and `ARENA_PACE`.
#[derive(Clone, Copy, Default)]
pub struct Wants<'a> {
    /// The loadable segments (false: the board boots from another image and the ELF only names
    /// the symbols).
    pub segments: bool,
    /// `(log line name, prefix)`: the defmt string index of each log line the harness acts on.
    pub formats: &'a [(&'a str, &'a str)],
    /// `(name, parts)`: the address of the one function whose (mangled) name holds every part, as
    /// `functions.<name>` (null when none or several do: the harness does without it).
    pub functions: &'a [(&'a str, &'a [&'a str])],
    /// Every named function as `[address, size, name]`, sorted, in `names`: for naming a PC in a
    /// fault report.
    pub names: bool,
}

/// The target description of the ELF `b`: its segments (`[]` unless `want.segments`), `rtt` (the
/// address of `_SEGGER_RTT`), `pace` (of `ARENA_PACE`, or null), `formats` (`log line name ->
/// index` for each of `want.formats` the firmware has), `functions` and `names` (see [`Wants`]).
pub fn target(b: &[u8], want: &Wants<'_>) -> Result<Value, String> {
    let segs = elf::load_segments(b)?;
    let symbols = elf::symbols(b)?;
    let address = |name: &str| symbols.iter().find(|s| s.name == name).map(|s| s.addr);
    let rtt = address("_SEGGER_RTT")
        .ok_or("no _SEGGER_RTT symbol: the firmware does not log over RTT (defmt-rtt)")?;
    let strings = defmt_strings(&symbols);
    if strings.is_empty() {
        return Err("no defmt format strings in the ELF's symbols".into());
    }
    let mut found = Map::new();
    for (name, prefix) in want.formats {
        if let Some(i) = defmt_index(&strings, prefix)? {
            found.insert((*name).to_owned(), i.into());
        }
    }
    let mut functions = Map::new();
    for (name, parts) in want.functions {
        let one = function(&symbols, parts).map_or(Value::Null, Value::from);
        functions.insert((*name).to_owned(), one);
    }
    let segs: Vec<Value> = if want.segments {
        segs.iter()
            .map(|s| json!({ "addr": s.addr, "hex": hex(&s.data) }))
            .collect()
    } else {
        Vec::new()
    };
    let mut out = json!({
        "segments": segs,
        "rtt": rtt,
        "pace": address("ARENA_PACE"),
        "formats": found,
        "functions": functions,
    });
    if want.names {
        out["names"] = names(&symbols)
            .iter()
            .map(|(a, n, s)| json!([a, n, s]))
            .collect();
    }
    Ok(out)
}

/// [`target`] of the ELF at `elf`, written to `to`.
pub fn write_target(elf: &Path, want: &Wants<'_>, to: &Path) -> Result<()> {
    let b = std::fs::read(elf).with_context(|| format!("cannot read {}", elf.display()))?;
    let t = target(&b, want)
        .map_err(anyhow::Error::msg)
        .with_context(|| elf.display().to_string())?;
    std::fs::write(to, t.to_string()).with_context(|| to.display().to_string())
}

fn hex(b: &[u8]) -> String {
    use std::fmt::Write;
    b.iter()
        .fold(String::with_capacity(b.len() * 2), |mut s, x| {
            let _ = write!(s, "{x:02x}");
            s
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(name: &str, addr: u32) -> elf::Symbol {
        elf::Symbol {
            name: name.to_owned(),
            addr,
            size: 0,
            func: false,
        }
    }

    #[test]
    fn defmt_strings_are_the_json_named_symbols() {
        let symbols = [
            sym(
                r#"{"package":"p","tag":"defmt_info","data":"frame m={=u32}","disambiguator":"1"}"#,
                7,
            ),
            sym(
                r#"{"package":"p","tag":"defmt_info","data":"start m={=u32}","disambiguator":"2"}"#,
                3,
            ),
            sym(r#"{"package":"p","tag":"other","data":"frame m=x"}"#, 9),
            sym("{not json", 10),
            sym("_SEGGER_RTT", 0x2000_0000),
        ];
        let strings = defmt_strings(&symbols);
        assert_eq!(
            strings,
            [
                (7, "frame m={=u32}".to_owned()),
                (3, "start m={=u32}".to_owned())
            ]
        );
        assert_eq!(defmt_index(&strings, "frame m="), Ok(Some(7)));
        assert_eq!(defmt_index(&strings, "final m="), Ok(None));
        let two = [(1, "frame m=a".to_owned()), (2, "frame m=b".to_owned())];
        assert!(defmt_index(&two, "frame m=")
            .unwrap_err()
            .contains("2 defmt strings start with \"frame m=\""));
    }

    #[test]
    fn functions_are_found_by_their_name_parts_and_named_by_address() {
        let f = |name: &str, addr| elf::Symbol {
            func: true,
            size: 8,
            ..sym(name, addr)
        };
        let symbols = [
            f("_ZN3hal3spi9spi_write17h1E", 0x0800_1235),
            f("_ZN3hal3spi8spi_read17h2E", 0x0800_1001),
            f("_ZN3hal5i2c9spi_write17h3E", 0x0800_2001),
            sym("_ZN3hal3spi9spi_write_DATA", 0x2000_0000),
        ];
        assert_eq!(
            function(&symbols, &["3spi", "9spi_write"]),
            Some(0x0800_1234)
        );
        // Two functions hold "9spi_write": which one is meant is unknown.
        assert_eq!(function(&symbols, &["9spi_write"]), None);
        assert_eq!(function(&symbols, &["uart"]), None);
        assert_eq!(
            names(&symbols),
            [
                (0x0800_1000, 8, "_ZN3hal3spi8spi_read17h2E"),
                (0x0800_1234, 8, "_ZN3hal3spi9spi_write17h1E"),
                (0x0800_2000, 8, "_ZN3hal5i2c9spi_write17h3E"),
            ]
        );
    }

    #[test]
    fn bad_elfs_are_refused_with_a_reason() {
        let all = Wants {
            segments: true,
            ..Wants::default()
        };
        assert!(target(b"#!/bin/sh\n", &all)
            .unwrap_err()
            .contains("no ELF magic"));
        // Segments but no symbol table: a stripped ELF.
        let e = elf::tests::elf(&[(1, 0x1000_0000, &[1, 2, 3])]);
        assert!(target(&e, &all).unwrap_err().contains("stripped"));
        assert_eq!(hex(&[0, 0xab, 0x10]), "00ab10");
    }
}
