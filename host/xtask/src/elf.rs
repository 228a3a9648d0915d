//! The loadable segments of a 32-bit little-endian ELF, at their load addresses: what a probe
//! writes to flash, and so what a UF2 file or a DFU image must hold. Bad input gives an error that
//! says what is wrong, never a panic.

/// One loadable segment with file contents: its load (physical) address and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub addr: u32,
    /// Where its bytes start in the file.
    pub offset: usize,
    pub data: Vec<u8>,
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| {
            format!(
                "offset {at} is past the end of the file ({} bytes)",
                b.len()
            )
        })
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| {
            format!(
                "offset {at} is past the end of the file ({} bytes)",
                b.len()
            )
        })
}

/// The `PT_LOAD` segments with data (file size above 0), in file order.
pub fn load_segments(b: &[u8]) -> Result<Vec<Segment>, String> {
    if b.get(..4) != Some(b"\x7fELF") {
        return Err("no ELF magic (\\x7fELF) at the start: not an ELF file".into());
    }
    if b.get(4) != Some(&1) || b.get(5) != Some(&1) {
        return Err("not a 32-bit little-endian ELF".into());
    }
    let phoff = u32_at(b, 28)? as usize;
    let phentsize = u16_at(b, 42)? as usize;
    let phnum = u16_at(b, 44)? as usize;
    if phnum > 0 && phentsize < 32 {
        return Err(format!(
            "program header entries of {phentsize} bytes (32 expected)"
        ));
    }
    let mut out = Vec::new();
    for i in 0..phnum {
        let p = phoff.saturating_add(i.saturating_mul(phentsize));
        if u32_at(b, p)? != 1 {
            continue;
        }
        let offset = u32_at(b, p + 4)? as usize;
        let paddr = u32_at(b, p + 12)?;
        let filesz = u32_at(b, p + 16)? as usize;
        if filesz == 0 {
            continue;
        }
        let data = b
            .get(offset..offset.saturating_add(filesz))
            .ok_or_else(|| {
                format!("segment {i} (at 0x{paddr:08x}) runs past the end of the file")
            })?;
        out.push(Segment {
            addr: paddr,
            offset,
            data: data.to_vec(),
        });
    }
    if out.is_empty() {
        return Err("no loadable segment with data".into());
    }
    Ok(out)
}

/// The bytes of flash `[start, start + size)` that the segments write, as one image from the
/// lowest written address to the highest (gaps `fill`); its start address. Fails when a segment
/// lies outside that flash.
pub fn flash_image(
    segments: &[Segment],
    start: u32,
    size: u32,
    fill: u8,
) -> Result<(u32, Vec<u8>), String> {
    let end = u64::from(start) + u64::from(size);
    for s in segments {
        let (a, n) = (u64::from(s.addr), s.data.len() as u64);
        if a < u64::from(start) || a + n > end {
            return Err(format!(
                "a loadable segment at 0x{:08x} ({n} bytes) is not in flash (0x{start:08x}, {size} bytes)",
                s.addr
            ));
        }
    }
    let low = segments.iter().map(|s| s.addr).min().unwrap_or(start);
    let high = segments
        .iter()
        .map(|s| s.addr as usize + s.data.len())
        .max()
        .unwrap_or(low as usize);
    let mut image = vec![fill; high - low as usize];
    for s in segments {
        let o = (s.addr - low) as usize;
        image[o..o + s.data.len()].copy_from_slice(&s.data);
    }
    Ok((low, image))
}

/// One entry of the ELF's symbol table: its name (as in the file: mangled), address and size in
/// bytes, and whether it is a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub addr: u32,
    pub size: u32,
    pub func: bool,
}

/// The section header `i`: its type, file offset, size and link.
fn section(b: &[u8], i: usize) -> Result<(u32, usize, usize, usize), String> {
    let shoff = u32_at(b, 32)? as usize;
    let shentsize = u16_at(b, 46)? as usize;
    if shentsize < 40 {
        return Err(format!(
            "section header entries of {shentsize} bytes (40 expected)"
        ));
    }
    let at = shoff.saturating_add(i.saturating_mul(shentsize));
    Ok((
        u32_at(b, at + 4)?,
        u32_at(b, at + 16)? as usize,
        u32_at(b, at + 20)? as usize,
        u32_at(b, at + 24)? as usize,
    ))
}

/// The symbols of the ELF's symbol table (`.symtab`), named ones only; an error when it has none
/// (a stripped file).
pub fn symbols(b: &[u8]) -> Result<Vec<Symbol>, String> {
    if b.get(..4) != Some(b"\x7fELF") || b.get(4) != Some(&1) || b.get(5) != Some(&1) {
        return Err("not a 32-bit little-endian ELF".into());
    }
    let shnum = u16_at(b, 48)? as usize;
    let Some((_, off, size, link)) = (0..shnum)
        .map(|i| section(b, i))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .find(|s| s.0 == 2)
    else {
        return Err("no symbol table (.symtab): a stripped ELF".into());
    };
    let (_, str_off, str_size, _) = section(b, link)?;
    let strings = b
        .get(str_off..str_off.saturating_add(str_size))
        .ok_or("the symbol names run past the end of the file")?;
    let mut out = Vec::new();
    for at in (off..off.saturating_add(size)).step_by(16) {
        let name_at = u32_at(b, at)? as usize;
        let name = strings
            .get(name_at..)
            .and_then(|s| s.split(|&c| c == 0).next())
            .ok_or_else(|| format!("symbol name at {name_at} is past the names' end"))?;
        if name.is_empty() {
            continue;
        }
        out.push(Symbol {
            name: String::from_utf8_lossy(name).into_owned(),
            addr: u32_at(b, at + 4)?,
            size: u32_at(b, at + 8)?,
            func: b.get(at + 12).is_some_and(|i| i & 0xf == 2),
        });
    }
    Ok(out)
}

/// Where the bytes loaded at `addr` (flash: its load address) are in the file.
pub fn file_offset(b: &[u8], addr: u32) -> Result<usize, String> {
    load_segments(b)?
        .iter()
        .find(|s| addr >= s.addr && ((addr - s.addr) as usize) < s.data.len())
        .map(|s| s.offset + (addr - s.addr) as usize)
        .ok_or_else(|| format!("no loadable segment holds 0x{addr:08x}"))
}

/// A Rust symbol's path (legacy mangling, `_ZN...E`: the components joined with `::`, `<`, `>`,
/// spaces and `&` written out, the hash left off); the name itself when it is not one.
pub fn demangle(name: &str) -> String {
    let Some(mut rest) = name.strip_prefix("_ZN") else {
        return name.to_owned();
    };
    let mut parts = Vec::new();
    while let Some(digits) = rest.find(|c: char| !c.is_ascii_digit()).filter(|&d| d > 0) {
        let Ok(len) = rest[..digits].parse::<usize>() else {
            break;
        };
        let Some(part) = rest.get(digits..digits + len) else {
            break;
        };
        rest = &rest[digits + len..];
        if part.len() == 17
            && part.starts_with('h')
            && part[1..].chars().all(|c| c.is_ascii_hexdigit())
        {
            continue;
        }
        let part = part
            .strip_prefix('_')
            .filter(|p| p.starts_with('$'))
            .unwrap_or(part);
        parts.push(
            part.replace("$LT$", "<")
                .replace("$GT$", ">")
                .replace("$u20$", " ")
                .replace("$RF$", "&")
                .replace("$C$", ",")
                .replace("$u7b$", "{")
                .replace("$u7d$", "}")
                .replace("..", "::"),
        );
    }
    parts.join("::")
}

/// Bytes of the functions and data of the code under path `module` (a crate, `mybot`, or a
/// module, `arena_core::games::<game>::bots`): symbols whose path is in it, and `<T as Trait>`
/// impls of a type in it for a trait of arena-core (a bot's `Bot::act`), not those for the
/// firmware's traits (the lineup a user's crate names is the match loop's code, not the bot's).
pub fn code_bytes(symbols: &[Symbol], module: &str) -> u64 {
    let inside = format!("{module}::");
    let as_bot = format!("<{module}::");
    symbols
        .iter()
        .filter(|s| {
            let path = demangle(&s.name);
            path.starts_with(&inside)
                || (path.starts_with(&as_bot) && path.contains(" as arena_core::"))
        })
        .map(|s| u64::from(s.size))
        .sum()
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A minimal ELF: a header and one program header per `(type, paddr, data)`.
    pub fn elf(segments: &[(u32, u32, &[u8])]) -> Vec<u8> {
        let mut b = vec![0u8; 52];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 1;
        b[5] = 1;
        b[18] = 40;
        b[28..32].copy_from_slice(&52u32.to_le_bytes());
        b[42..44].copy_from_slice(&32u16.to_le_bytes());
        b[44..46].copy_from_slice(&(segments.len() as u16).to_le_bytes());
        let mut data_at = 52 + 32 * segments.len();
        let mut tail = Vec::new();
        for (kind, paddr, data) in segments {
            let mut p = [0u8; 32];
            p[..4].copy_from_slice(&kind.to_le_bytes());
            p[4..8].copy_from_slice(&(data_at as u32).to_le_bytes());
            p[8..12].copy_from_slice(&paddr.to_le_bytes());
            p[12..16].copy_from_slice(&paddr.to_le_bytes());
            p[16..20].copy_from_slice(&(data.len() as u32).to_le_bytes());
            p[20..24].copy_from_slice(&(data.len() as u32).to_le_bytes());
            b.extend_from_slice(&p);
            tail.extend_from_slice(data);
            data_at += data.len();
        }
        b.extend_from_slice(&tail);
        b
    }

    #[test]
    fn reads_loadable_segments_and_makes_one_flash_image() {
        let f = elf(&[
            (1, 0x1000_0000, b"abcd"),
            (4, 0, b"note"),
            (1, 0x1000_0008, b"ef"),
        ]);
        let s = load_segments(&f).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].addr, 0x1000_0008);
        let (at, image) = flash_image(&s, 0x1000_0000, 0x100, 0).unwrap();
        assert_eq!(at, 0x1000_0000);
        assert_eq!(image, b"abcd\0\0\0\0ef");
        let err = flash_image(&s, 0x0800_0000, 0x100, 0).unwrap_err();
        assert!(err.contains("not in flash"), "{err}");
    }

    #[test]
    fn names_of_rust_symbols_and_a_modules_bytes() {
        assert_eq!(
            demangle("_ZN5mybot7Builder3new17h0123456789abcdefE"),
            "mybot::Builder::new"
        );
        let act = "_ZN65_$LT$mybot..Builder$u20$as$u20$arena_core..game..Bot$LT$G$GT$$GT$3act17h0123456789abcdefE";
        assert_eq!(
            demangle(act),
            "<mybot::Builder as arena_core::game::Bot<G>>::act"
        );
        assert_eq!(demangle("memcpy"), "memcpy");
        let sym = |name: &str, size| Symbol {
            name: name.into(),
            addr: 0,
            size,
            func: true,
        };
        let lineup = "_ZN66_$LT$mybot..MyLineup$u20$as$u20$arena_firmware..lineup..Lineup$GT$5visit17h0123456789abcdefE";
        let all = [
            sym("_ZN5mybot7Builder3new17h0123456789abcdefE", 10),
            sym(act, 300),
            sym(lineup, 5000),
            sym(
                "_ZN10arena_core5games5chess4bots4walk17h0123456789abcdefE",
                70,
            ),
        ];
        assert_eq!(code_bytes(&all, "mybot"), 310);
        assert_eq!(code_bytes(&all, "arena_core::games::chess::bots"), 70);
        assert_eq!(code_bytes(&all, "arena_core::games::chess::bot"), 0);
    }

    #[test]
    fn bad_files_give_errors() {
        assert!(load_segments(b"not an elf")
            .unwrap_err()
            .contains("no ELF magic"));
        let f = elf(&[(1, 0x1000_0000, b"abcd")]);
        assert!(load_segments(&f[..60])
            .unwrap_err()
            .contains("past the end"));
        assert!(load_segments(&f[..f.len() - 1])
            .unwrap_err()
            .contains("runs past the end"));
        assert!(load_segments(&elf(&[]))
            .unwrap_err()
            .contains("no loadable segment"));
    }
}
