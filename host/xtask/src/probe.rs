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

/// The target description of the ELF `b`: its segments (none when `segments` is false: the board
/// boots from another image and the ELF only names the symbols), `rtt` (the address of
/// `_SEGGER_RTT`), `pace` (of `ARENA_PACE`, or null) and `formats` (`log line name -> index` for
/// each `(name, prefix)` of `formats` the firmware has).
pub fn target(b: &[u8], segments: bool, formats: &[(&str, &str)]) -> Result<Value, String> {
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
    for (name, prefix) in formats {
        if let Some(i) = defmt_index(&strings, prefix)? {
            found.insert((*name).to_owned(), i.into());
        }
    }
    let segs: Vec<Value> = if segments {
        segs.iter()
            .map(|s| json!({ "addr": s.addr, "hex": hex(&s.data) }))
            .collect()
    } else {
        Vec::new()
    };
    Ok(json!({
        "segments": segs,
        "rtt": rtt,
        "pace": address("ARENA_PACE"),
        "formats": found,
    }))
}

/// [`target`] of the ELF at `elf`, written to `to`.
pub fn write_target(elf: &Path, segments: bool, formats: &[(&str, &str)], to: &Path) -> Result<()> {
    let b = std::fs::read(elf).with_context(|| format!("cannot read {}", elf.display()))?;
    let t = target(&b, segments, formats)
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
    fn bad_elfs_are_refused_with_a_reason() {
        assert!(target(b"#!/bin/sh\n", true, &[])
            .unwrap_err()
            .contains("no ELF magic"));
        // Segments but no symbol table: a stripped ELF.
        let e = elf::tests::elf(&[(1, 0x1000_0000, &[1, 2, 3])]);
        assert!(target(&e, true, &[]).unwrap_err().contains("stripped"));
        assert_eq!(hex(&[0, 0xab, 0x10]), "00ab10");
    }
}
