// Reading a 32-bit little-endian ARM ELF: the loadable segments (at their load addresses, as a
// probe flashes them), the symbol table, and defmt's format strings.
//
// Every offset and size read from the file is checked against the file's length: a truncated or
// malformed ELF gives an `ElfError` that says what is wrong, never an exception from a typed array.

export class ElfError extends Error {}

const PT_LOAD = 1;
const SHT_SYMTAB = 2;
const EM_ARM = 40;

function need(cond, what) {
  if (!cond) throw new ElfError(what);
}

/** Parses `bytes` (a Uint8Array holding a whole ELF file). */
export function parseElf(bytes) {
  need(bytes instanceof Uint8Array, 'not a byte array');
  need(bytes.length >= 52, `too short for an ELF header (${bytes.length} bytes)`);
  need(
    bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46,
    'no ELF magic (\\x7fELF) at the start: not an ELF file',
  );
  need(bytes[4] === 1, 'not a 32-bit ELF (EI_CLASS is not ELFCLASS32)');
  need(bytes[5] === 1, 'not a little-endian ELF (EI_DATA is not ELFDATA2LSB)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (off) => {
    need(off + 2 <= bytes.length, `offset ${off} is past the end of the file`);
    return view.getUint16(off, true);
  };
  const u32 = (off) => {
    need(off + 4 <= bytes.length, `offset ${off} is past the end of the file`);
    return view.getUint32(off, true);
  };
  need(u16(18) === EM_ARM, `e_machine is ${u16(18)}, not ARM (40)`);
  const entry = u32(24);
  const phoff = u32(28);
  const shoff = u32(32);
  const phentsize = u16(42);
  const phnum = u16(44);
  const shentsize = u16(46);
  const shnum = u16(48);
  const shstrndx = u16(50);

  // The offsets of a header table's `count` entries of `size` bytes (at least `least`) from `at`.
  const entries = (what, at, count, size, least) => {
    if (count > 0) {
      need(size >= least, `${what} header entries of ${size} bytes (${least} expected)`);
      need(at + count * size <= bytes.length, `the ${what} headers run past the end of the file`);
    }
    return Array.from({ length: count }, (_, i) => at + i * size);
  };

  const segments = [];
  for (const [i, p] of entries('program', phoff, phnum, phentsize, 32).entries()) {
    const type = u32(p);
    const offset = u32(p + 4);
    const vaddr = u32(p + 8);
    const paddr = u32(p + 12);
    const filesz = u32(p + 16);
    const memsz = u32(p + 20);
    if (type !== PT_LOAD) continue;
    need(offset + filesz <= bytes.length, `segment ${i} (at 0x${paddr.toString(16)}) runs past the end of the file`);
    segments.push({ vaddr, paddr, filesz, memsz, data: bytes.subarray(offset, offset + filesz) });
  }

  const sections = [];
  for (const s of entries('section', shoff, shnum, shentsize, 40)) {
    sections.push({
      nameOff: u32(s),
      type: u32(s + 4),
      addr: u32(s + 12),
      offset: u32(s + 16),
      size: u32(s + 20),
      link: u32(s + 24),
      name: '',
    });
  }
  const cstr = (start, end) => {
    let e = start;
    while (e < end && bytes[e] !== 0) e++;
    return new TextDecoder().decode(bytes.subarray(start, e));
  };
  const shstr = sections[shstrndx];
  if (shstr && shstr.offset + shstr.size <= bytes.length) {
    for (const s of sections) {
      if (s.nameOff < shstr.size) s.name = cstr(shstr.offset + s.nameOff, shstr.offset + shstr.size);
    }
  }

  const symbols = [];
  for (const s of sections) {
    if (s.type !== SHT_SYMTAB) continue;
    const str = sections[s.link];
    need(str, 'the symbol table names no string table');
    need(s.offset + s.size <= bytes.length, 'the symbol table runs past the end of the file');
    need(str.offset + str.size <= bytes.length, 'the string table runs past the end of the file');
    for (let o = s.offset; o + 16 <= s.offset + s.size; o += 16) {
      const nameOff = u32(o);
      const shndx = u16(o + 14);
      symbols.push({
        name: nameOff < str.size ? cstr(str.offset + nameOff, str.offset + str.size) : '',
        value: u32(o + 4),
        size: u32(o + 8),
        section: sections[shndx] ? sections[shndx].name : '',
      });
    }
  }
  return { entry, segments, sections, symbols };
}

/** The address of symbol `name`, or undefined. */
export function symbolAddress(elf, name) {
  const sym = elf.symbols.find((s) => s.name === name);
  return sym ? sym.value : undefined;
}

/**
 * defmt's format strings: its symbols in the `.defmt` section are named with a JSON object whose
 * `data` is the format string; the symbol's value is the string's index in the log frames.
 * Returns a Map from index to `{ tag, data }`.
 */
export function defmtStrings(elf) {
  const out = new Map();
  for (const s of elf.symbols) {
    if (s.section !== '.defmt' || !s.name.startsWith('{')) continue;
    try {
      const j = JSON.parse(s.name);
      if (typeof j.data === 'string') out.set(s.value, { tag: j.tag, data: j.data });
    } catch {
      // Not one of defmt's JSON names (a section symbol or similar): not a format string.
    }
  }
  return out;
}
