"""Reading a 32-bit little-endian ARM ELF: the loadable segments (at their load addresses, as a
probe flashes them), the symbol table, and defmt's format strings.

Every offset and size read from the file is checked against the file's length: a truncated or
malformed ELF gives an ElfError that says what is wrong, never an exception from struct.
"""

import json
import struct

PT_LOAD = 1
SHT_SYMTAB = 2
EM_ARM = 40


class ElfError(Exception):
    pass


def need(cond, what):
    if not cond:
        raise ElfError(what)


class Segment:
    def __init__(self, vaddr, paddr, filesz, memsz, flags, data):
        self.vaddr, self.paddr, self.filesz, self.memsz, self.flags, self.data = (
            vaddr, paddr, filesz, memsz, flags, data)


class Symbol:
    def __init__(self, name, value, size, section, kind):
        self.name, self.value, self.size, self.section, self.kind = name, value, size, section, kind


class Elf:
    def __init__(self, data):
        need(isinstance(data, (bytes, bytearray)), 'not bytes')
        need(len(data) >= 52, f'too short for an ELF header ({len(data)} bytes)')
        need(data[:4] == b'\x7fELF', 'no ELF magic (\\x7fELF) at the start: not an ELF file')
        need(data[4] == 1, 'not a 32-bit ELF (EI_CLASS is not ELFCLASS32)')
        need(data[5] == 1, 'not a little-endian ELF (EI_DATA is not ELFDATA2LSB)')
        self.data = data

        def u16(off):
            need(off + 2 <= len(data), f'offset {off} is past the end of the file')
            return struct.unpack_from('<H', data, off)[0]

        def u32(off):
            need(off + 4 <= len(data), f'offset {off} is past the end of the file')
            return struct.unpack_from('<I', data, off)[0]

        need(u16(18) == EM_ARM, f'e_machine is {u16(18)}, not ARM (40)')
        self.entry = u32(24)
        phoff, shoff = u32(28), u32(32)
        phentsize, phnum = u16(42), u16(44)
        shentsize, shnum, shstrndx = u16(46), u16(48), u16(50)

        def entries(what, at, count, size, least):
            if count > 0:
                need(size >= least, f'{what} header entries of {size} bytes ({least} expected)')
                need(at + count * size <= len(data), f'the {what} headers run past the end of the file')
            return [at + i * size for i in range(count)]

        self.segments = []
        for i, p in enumerate(entries('program', phoff, phnum, phentsize, 32)):
            kind, offset, vaddr, paddr, filesz, memsz, flags = struct.unpack_from('<7I', data, p)
            if kind != PT_LOAD:
                continue
            need(offset + filesz <= len(data),
                 f'segment {i} (at 0x{paddr:x}) runs past the end of the file')
            self.segments.append(Segment(vaddr, paddr, filesz, memsz, flags,
                                         bytes(data[offset:offset + filesz])))

        sections = []
        for s in entries('section', shoff, shnum, shentsize, 40):
            name_off, kind, _flags, addr, offset, size, link = struct.unpack_from('<7I', data, s)
            sections.append({'name_off': name_off, 'type': kind, 'addr': addr, 'offset': offset,
                             'size': size, 'link': link, 'name': ''})

        def cstr(start, end):
            e = data.find(b'\0', start, end)
            return bytes(data[start:end if e < 0 else e]).decode('utf-8', 'replace')

        if shstrndx < len(sections):
            shstr = sections[shstrndx]
            if shstr['offset'] + shstr['size'] <= len(data):
                for s in sections:
                    if s['name_off'] < shstr['size']:
                        s['name'] = cstr(shstr['offset'] + s['name_off'], shstr['offset'] + shstr['size'])
        self.sections = sections

        self.symbols = []
        for s in sections:
            if s['type'] != SHT_SYMTAB:
                continue
            need(s['link'] < len(sections), 'the symbol table names no string table')
            strtab = sections[s['link']]
            need(s['offset'] + s['size'] <= len(data), 'the symbol table runs past the end of the file')
            need(strtab['offset'] + strtab['size'] <= len(data),
                 'the string table runs past the end of the file')
            for o in range(s['offset'], s['offset'] + s['size'] - 15, 16):
                name_off, value, size, info, _other, shndx = struct.unpack_from('<IIIBBH', data, o)
                name = (cstr(strtab['offset'] + name_off, strtab['offset'] + strtab['size'])
                        if name_off < strtab['size'] else '')
                section = sections[shndx]['name'] if shndx < len(sections) else ''
                self.symbols.append(Symbol(name, value, size, section, info & 0xf))
        self._by_name = {}
        for sym in self.symbols:
            self._by_name.setdefault(sym.name, sym)
        # Functions, for naming a PC: (start, end, name), sorted.
        self._functions = sorted((sym.value & ~1, (sym.value & ~1) + max(sym.size, 1), sym.name)
                                 for sym in self.symbols if sym.kind == 2 and sym.name)

    def symbol(self, name):
        """The address of symbol `name`, or None."""
        sym = self._by_name.get(name)
        return None if sym is None else sym.value

    def function_at(self, address):
        """The name of the function whose code holds `address` (+offset), or '?'."""
        import bisect
        i = bisect.bisect_right(self._functions, (address, 0xffffffff, '')) - 1
        if i >= 0:
            start, end, name = self._functions[i]
            if start <= address < end:
                return f'{name}+0x{address - start:x}'
        return '?'

    def defmt_strings(self):
        """defmt's format strings: {index: data} from the `.defmt` section's JSON-named symbols."""
        out = {}
        for sym in self.symbols:
            if sym.section != '.defmt' or not sym.name.startswith('{'):
                continue
            try:
                j = json.loads(sym.name)
            except ValueError:
                continue
            if isinstance(j.get('data'), str):
                out[sym.value] = j['data']
        return out

    def flash_image(self, start, size):
        """The bytes a probe writes to flash [start, start + size): the loadable segments' file
        contents at their load addresses; (image, lowest, highest) with gaps 0xff."""
        image = bytearray(b'\xff' * size)
        low, high = None, None
        for s in self.segments:
            if s.filesz == 0:
                continue
            need(start <= s.paddr and s.paddr + s.filesz <= start + size,
                 f'a loadable segment at 0x{s.paddr:x} ({s.filesz} bytes) is not in flash')
            o = s.paddr - start
            image[o:o + s.filesz] = s.data
            low = o if low is None else min(low, o)
            high = o + s.filesz if high is None else max(high, o + s.filesz)
        return image, low, high
