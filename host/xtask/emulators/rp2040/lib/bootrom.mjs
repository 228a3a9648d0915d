// A boot ROM of the harness's own for the emulated RP2040: the ROM header and lookup function of the
// RP2040 datasheet (section 2.8, "Bootrom"), and the public functions the firmware calls, each a
// `BKPT #n; BX LR` stub that traps to the harness, which does the work on the emulated memory and
// puts the result in r0. It is not the RP2040's ROM (none can be had here): no boot sequence, no
// USB boot, no flash programming, no floating-point library; a lookup of anything it lacks stops
// the run with an error naming the code.
//
// Layout (addresses in the ROM at 0x0000_0000):
//   0x00  initial stack pointer, reset, NMI and HardFault vectors (the harness starts the core
//         as boot2 hands over, so these only trap if something jumps there)
//   0x10  'M', 'u', 0x01, version      (datasheet 2.8.2: the magic and the ROM version)
//   0x14  u16 pointer to the public function table
//   0x16  u16 pointer to the public data table
//   0x18  u16 pointer to rom_table_lookup (Thumb bit set)
//   0x100 rom_table_lookup stub
//   0x200 function table, 0x300 data table: (u16 code, u16 pointer) pairs, ended by code 0
//   0x400 one stub per function, 0x800 the data

export const ROM_SIZE = 16 * 1024;
const LOOKUP = 0x100;
const FUNC_TABLE = 0x200;
const DATA_TABLE = 0x300;
const STUBS = 0x400;
const DATA = 0x800;
const BKPT = 0xbe00;
const BX_LR = 0x4770;

/** The ROM version byte: 3, as on the Pico's RP2040-B2. */
export const VERSION = 3;

/** Trap numbers of the stubs that are not functions of the table. */
const TRAP_LOOKUP = 0x01;
const TRAP_VECTOR = 0x02;

export function code(a, b) {
  return a.charCodeAt(0) | (b.charCodeAt(0) << 8);
}

export function codeName(c) {
  return String.fromCharCode(c & 0xff, (c >> 8) & 0xff);
}

const clz32 = (v) => Math.clz32(v);
const ctz32 = (v) => (v === 0 ? 32 : 31 - Math.clz32(v & -v));
const popcount32 = (v) => {
  let n = 0;
  for (let x = v >>> 0; x; x &= x - 1) n++;
  return n;
};
const reverse32 = (v) => {
  let r = 0;
  for (let i = 0; i < 32; i++) r = (r << 1) | ((v >>> i) & 1);
  return r >>> 0;
};

/**
 * The public functions (datasheet 2.8.3.1, table "Fast Bit Counting / Manipulation Functions" and
 * "Fast Bulk Memory Fill / Copy Functions"): name, the datasheet's signature, and what it does to
 * the registers and memory. `S4` is the code the real ROM (and rp2040-hal) uses for memset4.
 */
const FUNCTIONS = [
  ['P3', 'popcount32', (m, r) => popcount32(r[0])],
  ['R3', 'reverse32', (m, r) => reverse32(r[0])],
  ['L3', 'clz32', (m, r) => clz32(r[0])],
  ['T3', 'ctz32', (m, r) => ctz32(r[0])],
  // uint8_t *_memset(uint8_t *ptr, uint8_t c, uint32_t n)
  ['MS', 'memset', (m, r) => m.fill(r[0], r[1] & 0xff, r[2])],
  // uint32_t *_memset4(uint32_t *ptr, uint8_t c, uint32_t n): ptr word aligned
  ['S4', 'memset4', (m, r) => m.fill(r[0], r[1] & 0xff, r[2], 4)],
  // uint8_t *_memcpy(uint8_t *dest, uint8_t *src, uint32_t n)
  ['MC', 'memcpy', (m, r) => m.copy(r[0], r[1], r[2])],
  // uint8_t *_memcpy44(uint32_t *dest, uint32_t *src, uint32_t n): both word aligned
  ['C4', 'memcpy44', (m, r) => m.copy(r[0], r[1], r[2], 4)],
];

const DATA_ITEMS = [
  ['CR', 'Pocket Arena emulated ROM: not the RP2040 boot ROM\0'],
  ['GR', '\0\0\0\0'],
];

export class RomError extends Error {}

/** The ROM image (16 KB) and its trap handler. */
export class BootRom {
  constructor() {
    const img = new Uint8Array(ROM_SIZE);
    const v = new DataView(img.buffer);
    const h16 = (a, x) => v.setUint16(a, x, true);
    const w32 = (a, x) => v.setUint32(a, x >>> 0, true);
    // Vectors: SP at the top of SRAM, every handler a trap.
    const vectorStub = STUBS + 4 * FUNCTIONS.length;
    h16(vectorStub, BKPT | TRAP_VECTOR);
    h16(vectorStub + 2, BX_LR);
    w32(0x00, 0x20042000);
    for (const a of [0x04, 0x08, 0x0c]) w32(a, vectorStub | 1);
    img[0x10] = 0x4d; // 'M'
    img[0x11] = 0x75; // 'u'
    img[0x12] = 0x01;
    img[0x13] = VERSION;
    h16(0x14, FUNC_TABLE);
    h16(0x16, DATA_TABLE);
    h16(0x18, LOOKUP | 1);
    h16(LOOKUP, BKPT | TRAP_LOOKUP);
    h16(LOOKUP + 2, BX_LR);
    this.functions = new Map(); // trap number -> function
    FUNCTIONS.forEach(([c, name, run], i) => {
      const stub = STUBS + 4 * i;
      const trap = 0x10 + i;
      h16(stub, BKPT | trap);
      h16(stub + 2, BX_LR);
      h16(FUNC_TABLE + 4 * i, code(c[0], c[1]));
      h16(FUNC_TABLE + 4 * i + 2, stub | 1);
      this.functions.set(trap, { code: c, name, run, calls: 0, bytes: 0 });
    });
    let at = DATA;
    DATA_ITEMS.forEach(([c, text], i) => {
      h16(DATA_TABLE + 4 * i, code(c[0], c[1]));
      h16(DATA_TABLE + 4 * i + 2, at);
      for (const ch of text) img[at++] = ch.charCodeAt(0);
      at = (at + 3) & ~3;
    });
    this.image = img;
    this.lookups = new Map(); // code name -> count
  }

  /** Puts the image into an RP2040 of rp2040js. */
  install(mcu) {
    mcu.bootrom.set(new Uint32Array(this.image.buffer));
  }

  /** Whether `pc` (the address of a BKPT) is one of this ROM's stubs. */
  owns(pc) {
    return pc < ROM_SIZE;
  }

  /**
   * Handles the trap of the BKPT at `pc` with immediate `imm`: `regs` is the core's register
   * file (r0 gets the result), `mem` the emulated memory ({ read8, fill, copy }). Throws RomError
   * for what this ROM does not provide.
   */
  trap(pc, imm, regs, mem) {
    if (imm === TRAP_LOOKUP) {
      // void *rom_table_lookup(uint16_t *table, uint32_t code)
      const table = regs[0];
      const want = regs[1] & 0xffff;
      for (let p = table; ; p += 4) {
        const c = mem.read16(p);
        if (c === 0) break;
        if (c === want) {
          this.lookups.set(codeName(want), (this.lookups.get(codeName(want)) ?? 0) + 1);
          regs[0] = mem.read16(p + 2);
          return;
        }
      }
      const which = table === mem.read16(0x14) ? 'function' : table === mem.read16(0x16) ? 'data' : 'a';
      throw new RomError(
        `the firmware looked up '${codeName(want)}' in the ROM's ${which} table, which this emulated ROM does not provide ` +
          `(it has ${which === 'data' ? DATA_ITEMS.map((d) => d[0]).join(', ') : FUNCTIONS.map((f) => f[0]).join(', ')})`,
      );
    }
    const f = this.functions.get(imm);
    if (f) {
      f.calls++;
      const before = mem.moved;
      const result = f.run(mem, regs);
      f.bytes += mem.moved - before;
      // memset/memcpy return their first argument; the bit functions their result.
      regs[0] = result === undefined ? regs[0] : result >>> 0;
      return;
    }
    if (imm === TRAP_VECTOR) {
      throw new RomError(`the core entered the ROM's vector stub at 0x${pc.toString(16)} (a reset, NMI or HardFault through the ROM's vector table)`);
    }
    throw new RomError(`BKPT #${imm} at 0x${pc.toString(16)} inside the ROM is no stub of this ROM`);
  }

  /** Calls and bytes per function, for the run's summary. */
  stats() {
    const out = {};
    for (const f of this.functions.values()) if (f.calls) out[f.name] = { calls: f.calls, bytes: f.bytes };
    return out;
  }
}

function checkLength(what, n) {
  if (n > 0x01000000) throw new RomError(`${what} of ${n} bytes: more than the whole address space of RAM and flash`);
}

/**
 * The emulated memory the ROM functions work on: byte reads and writes through rp2040js, with
 * fast paths when a range lies wholly in SRAM (or copies from flash to SRAM).
 */
export class RomMemory {
  constructor(mcu) {
    this.mcu = mcu;
    this.moved = 0;
  }

  read16(a) {
    return this.mcu.readUint16(a >>> 0);
  }

  sramOffset(a, n) {
    const o = (a >>> 0) - 0x20000000;
    return o >= 0 && o + n <= this.mcu.sram.length ? o : -1;
  }

  flashOffset(a, n) {
    const o = (a >>> 0) - 0x10000000;
    return o >= 0 && o + n <= 0x01000000 ? o : -1;
  }

  fill(dest, c, n, align = 1) {
    checkLength('memset', n);
    if (align === 4 && dest & 3) throw new RomError(`memset4 to 0x${dest.toString(16)}, which is not word aligned`);
    this.moved += n;
    const o = this.sramOffset(dest, n);
    if (o >= 0) {
      this.mcu.sram.fill(c, o, o + n);
    } else {
      for (let i = 0; i < n; i++) this.mcu.writeUint8((dest + i) >>> 0, c);
    }
    return undefined;
  }

  copy(dest, src, n, align = 1) {
    checkLength('memcpy', n);
    if (align === 4 && (dest & 3 || src & 3)) {
      throw new RomError(`memcpy44 from 0x${src.toString(16)} to 0x${dest.toString(16)}, which are not both word aligned`);
    }
    this.moved += n;
    const d = this.sramOffset(dest, n);
    const s = this.sramOffset(src, n);
    const f = this.flashOffset(src, n);
    if (d >= 0 && s >= 0) {
      this.mcu.sram.copyWithin(d, s, s + n);
    } else if (d >= 0 && f >= 0) {
      this.mcu.sram.set(this.mcu.flash.subarray(f, f + n), d);
    } else {
      for (let i = 0; i < n; i++) this.mcu.writeUint8((dest + i) >>> 0, this.mcu.readUint8((src + i) >>> 0));
    }
    return undefined;
  }
}
