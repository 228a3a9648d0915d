// The emulated Raspberry Pi Pico: rp2040js's RP2040 with the release ELF's segments in its flash
// (as xtask read them from the ELF, see target.mjs), the harness's boot ROM, an SSD1306 on I2C0,
// and what a debug probe has: a watchpoint (a store to a watched word stops the run right after
// that instruction), memory reads and writes. It knows no log format: xtask reads the RTT log
// through the probe (host/xtask/src/rtt.rs).

import { RP2040 } from 'rp2040js';

import { BootRom, RomError, RomMemory } from './bootrom.mjs';
import { CycleClock } from './clock.mjs';
import { HEIGHT, Ssd1306, WIDTH } from './ssd1306.mjs';
import { TargetError } from './target.mjs';
import { Uf2Error, uf2Blocks } from './uf2.mjs';

export const FLASH = 0x10000000;
const FLASH_SIZE = 16 * 1024 * 1024; // the address window rp2040js maps
const SRAM = 0x20000000;
const SRAM_SIZE = 264 * 1024;
/** Where boot2 leaves the vector table (VTOR) before it jumps to the reset handler. */
export const VECTORS = 0x10000100;
const I2C_WRITE = 0;

/** CRC-32 as the RP2040 boot ROM checks boot2 (datasheet 2.8.1.3.1): polynomial 0x04c11db7, no
 * reflection, initial value 0xffffffff, no final XOR; stored little endian after the first 252 bytes. */
export function boot2Crc(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  }
  return c >>> 0;
}

/** Why a run ended. `status`: the harness's exit status. */
/**
 * The firmware's pace (`ARENA_PACE` at `at`, turns a second, a little-endian word in flash) written
 * over with `pace` (0: flat out, no emulated cycles spent waiting) in `flash` (the image as loaded,
 * at FLASH), before the core starts. Returns `{ inImage, set }` (the image's own value and the one
 * written), or null for a firmware without the symbol (`at` undefined: it keeps no pace anyway).
 */
export function writePace(at, flash, pace) {
  if (at === undefined) return null;
  if (at < FLASH || at + 4 > FLASH + flash.length || at & 3) {
    throw new TargetError(`ARENA_PACE at 0x${at.toString(16)} is not a word in flash`);
  }
  const o = at - FLASH;
  const inImage = (flash[o] | (flash[o + 1] << 8) | (flash[o + 2] << 16) | (flash[o + 3] << 24)) >>> 0;
  for (let i = 0; i < 4; i++) flash[o + i] = (pace >>> (8 * i)) & 0xff;
  return { inImage, set: pace };
}

export class ProbeError extends Error {}

export class Halt {
  constructor(kind, status, message) {
    this.kind = kind;
    this.status = status;
    this.message = message;
  }
}

export class EmulatedPico {
  /**
   * `target`: what xtask read from the ELF (target.mjs's parseTarget). Options: `pace` (turns a
   * second written over the firmware's `ARENA_PACE` before it starts; default 0), `uf2` (boot
   * from this UF2 file's blocks instead of the target's segments).
   */
  constructor(target, opts = {}) {
    this.opts = opts;
    this.target = target;
    this.clock = new CycleClock();
    this.mcu = new RP2040(this.clock);
    this.warnings = new Map();
    this.halted = null;
    this.mcu.logger = {
      debug() {},
      info() {},
      warn: (component, message) => this.emulatorWarning(component, message),
      error: (component, message) => this.emulatorWarning(component, message, true),
    };
    this.rom = new BootRom();
    this.rom.install(this.mcu);
    this.romMemory = new RomMemory(this.mcu);
    this.load();
    this.setPace();
    this.start();

    // The OLED on I2C0.
    this.oled = new Ssd1306(0x3c);
    const i2c = this.mcu.i2c[0];
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (address, mode) => {
      this.i2cBytes++; // the address byte
      i2c.completeConnect(this.oled.connect(address, mode !== I2C_WRITE));
    };
    i2c.onWriteByte = (value) => {
      this.i2cBytes++;
      i2c.completeWrite(this.oled.writeByte(value));
    };
    i2c.onReadByte = () => i2c.completeRead(0xff);
    i2c.onStop = () => {
      this.oled.stop();
      i2c.completeStop();
    };
    // The second I2C has nothing on it: every address is not acknowledged.
    const i2c1 = this.mcu.i2c[1];
    i2c1.onConnect = () => i2c1.completeConnect(false);

    // The bus a frame at a time, as a logic analyser would count it: I2C bytes (address bytes
    // included) between one mark and the next (xtask marks the start of each frame: the loop
    // draws frame 0 after "start", turn t's frame after "digest t", the result screen after
    // "final").
    this.i2cBytes = 0;
    this.busOpen = null;
    this.busMatches = new Map();
    this.busGame = [];
    this.mcu.onBreak = (imm) => this.onBreak(imm);
    this.watchHit = false;
    this.watched = undefined;
  }

  /** A watchpoint on the word at `address` (none when undefined): a store to any of its bytes
   * stops `run` right after that instruction. */
  watch(address) {
    if (this.watched === undefined && address !== undefined) {
      const mcu = this.mcu;
      const w32 = mcu.writeUint32.bind(mcu);
      const w16 = mcu.writeUint16.bind(mcu);
      const w8 = mcu.writeUint8.bind(mcu);
      const hit = (a, n) => {
        const w = this.watched;
        if (w !== undefined && a >>> 0 < w + 4 && (a >>> 0) + n > w) this.watchHit = true;
      };
      mcu.writeUint32 = (a, v) => {
        w32(a, v);
        hit(a, 4);
      };
      mcu.writeUint16 = (a, v) => {
        w16(a, v);
        hit(a, 2);
      };
      mcu.writeUint8 = (a, v) => {
        w8(a, v);
        hit(a, 1);
      };
    }
    this.watched = address === undefined ? undefined : address >>> 0;
  }

  /** `n` bytes at `address` (SRAM or flash, as a probe reads them). */
  read(address, n) {
    const a = address >>> 0;
    if (a >= SRAM && a + n <= SRAM + SRAM_SIZE) return this.mcu.sram.slice(a - SRAM, a - SRAM + n);
    if (a >= FLASH && a + n <= FLASH + FLASH_SIZE) return this.mcu.flash.slice(a - FLASH, a - FLASH + n);
    throw new ProbeError(`cannot read ${n} bytes at 0x${a.toString(16)}: neither SRAM nor flash`);
  }

  /** `bytes` written at `address` (SRAM only, as a probe writes memory while the core is halted). */
  write(address, bytes) {
    const a = address >>> 0;
    if (!(a >= SRAM && a + bytes.length <= SRAM + SRAM_SIZE)) {
      throw new ProbeError(`cannot write ${bytes.length} bytes at 0x${a.toString(16)}: not SRAM`);
    }
    this.mcu.sram.set(bytes, a - SRAM);
  }

  /** The ELF's loadable segments at their load addresses, as a probe writes them to flash; or,
   * with `opts.uf2`, the UF2 file's blocks, as the boot ROM writes them in BOOTSEL mode (the
   * target then only gives the symbols). */
  load() {
    let loaded = 0;
    if (this.opts.uf2) {
      for (const b of uf2Blocks(this.opts.uf2)) {
        if (b.address < FLASH || b.address + b.data.length > FLASH + FLASH_SIZE) {
          throw new Uf2Error(`a block for 0x${b.address.toString(16)} is not in flash`);
        }
        this.mcu.flash.set(b.data, b.address - FLASH);
        loaded += b.data.length;
      }
      this.loadedBytes = loaded;
      this.loadedFrom = 'uf2';
      this.checkBoot2();
      return;
    }
    for (const s of this.target.segments) {
      const n = s.data.length;
      if (n === 0) continue;
      const a = s.addr >>> 0;
      if (a >= FLASH && a + n <= FLASH + FLASH_SIZE) {
        this.mcu.flash.set(s.data, a - FLASH);
      } else if (a >= SRAM && a + n <= SRAM + SRAM_SIZE) {
        this.mcu.sram.set(s.data, a - SRAM);
      } else {
        throw new TargetError(`a loadable segment at 0x${a.toString(16)} (${n} bytes) is neither in flash nor in SRAM`);
      }
      loaded += n;
    }
    if (loaded === 0) throw new TargetError('no loadable segment with data');
    this.loadedBytes = loaded;
    this.loadedFrom = 'elf';
    this.checkBoot2();
  }

  /** The firmware's pace written over with `opts.pace` (default 0), see [writePace]. */
  setPace() {
    this.pace = writePace(this.target.pace, this.mcu.flash, this.opts.pace ?? 0);
  }

  checkBoot2() {
    const f = this.mcu.flash;
    const boot2 = f.subarray(0, 252);
    const stored = (f[252] | (f[253] << 8) | (f[254] << 16) | (f[255] << 24)) >>> 0;
    this.boot2Ok = boot2.some((b) => b !== 0xff) && boot2Crc(boot2) === stored;
  }

  /** The core as boot2 leaves it: VTOR at 0x10000100, SP and PC from the vector table there. */
  start() {
    const sp = this.mcu.readUint32(VECTORS);
    const pc = this.mcu.readUint32(VECTORS + 4);
    if (sp < SRAM || sp > SRAM + SRAM_SIZE || sp & 3) {
      throw new TargetError(`the initial stack pointer at 0x${VECTORS.toString(16)} is 0x${sp.toString(16)}: not in SRAM (no vector table there?)`);
    }
    if (!(pc & 1) || pc < FLASH || pc >= FLASH + FLASH_SIZE) {
      throw new TargetError(`the reset vector at 0x${(VECTORS + 4).toString(16)} is 0x${pc.toString(16)}: not a Thumb address in flash`);
    }
    const core = this.mcu.core;
    core.VTOR = VECTORS;
    core.SP = sp;
    core.PC = pc & ~1;
  }

  get cycles() {
    return this.clock.t;
  }

  halt(kind, status, message) {
    if (!this.halted) this.halted = new Halt(kind, status, message);
  }

  emulatorWarning(component, message, error = false) {
    const pc = `pc=0x${(this.mcu.core.PC >>> 0).toString(16)}`;
    if (/invalid memory address|undefined address/i.test(message)) {
      // A real RP2040 answers an access to nothing with a bus fault (HardFault): with flip-link,
      // a stack overflow ends here too, below the start of SRAM.
      this.halt('bus-fault', 1, `bus fault: ${message} (${pc}); on the RP2040 this is a HardFault (a stack overflow runs below 0x20000000)`);
      return;
    }
    if (/not implemented/i.test(message) && component === 'CortexM0Core') {
      this.halt('unimplemented', 1, `${message} (${pc})`);
      return;
    }
    if (error) {
      this.halt('emulator-error', 1, `${component}: ${message} (${pc})`);
      return;
    }
    const key = `${component}: ${message}`;
    this.warnings.set(key, (this.warnings.get(key) ?? 0) + 1);
  }

  onBreak(imm) {
    const core = this.mcu.core;
    const at = (core.PC - 2) >>> 0;
    const op = this.mcu.readUint16(at);
    if (op >> 8 === 0xbe && this.rom.owns(at)) {
      try {
        this.rom.trap(at, imm, core.registers, this.romMemory);
      } catch (e) {
        if (!(e instanceof RomError)) throw e;
        this.halt('rom', 1, `boot ROM: ${e.message} (lr=0x${(core.LR >>> 0).toString(16)})`);
      }
      return;
    }
    if (op >> 8 === 0xde) {
      // panic-probe ends a panic with `udf`, which takes the HardFault on a real core: probe-rs
      // stops there and reports the fault.
      this.halt('hardfault', 1, `HardFault: udf #${imm} at 0x${at.toString(16)} (panic-probe ends a panic this way)`);
      return;
    }
    if ((op & 0xfff0) === 0xf7f0) {
      this.halt('hardfault', 1, `HardFault: udf.w at 0x${at.toString(16)}`);
      return;
    }
    this.halt('breakpoint', 1, `bkpt #${imm} at 0x${at.toString(16)}: the core halts, as under a probe`);
  }

  /** A frame of match `m` of `kind` starts on the bus: the one before it ends. */
  busBoundary(m, kind) {
    if (this.busOpen) {
      const { m: om, kind: okind, at } = this.busOpen;
      const bytes = this.i2cBytes - at;
      if (!this.busMatches.has(om)) this.busMatches.set(om, { game: [], result: 0 });
      const row = this.busMatches.get(om);
      if (okind === 'game') {
        row.game.push(bytes);
        this.busGame.push(bytes);
      } else {
        row.result = bytes;
      }
    }
    this.busOpen = { m, kind, at: this.i2cBytes };
  }

  /** Runs until the watched word is written, the run halts or `budget` cycles have passed; says
   * which (`watch`, `halt`, `budget`). */
  run(budget) {
    const { core } = this.mcu;
    const clock = this.clock;
    const end = clock.t + budget;
    this.watchHit = false;
    // An alarm that fell due with the instruction the last run stopped after, first: the same
    // order as a run that had not stopped there.
    if (clock.t >= clock.nextDue) clock.fire();
    while (clock.t < end) {
      if (core.waiting) {
        if (core.interruptsUpdated && core.checkForInterrupts()) {
          core.waiting = false;
          continue;
        }
        if (!clock.sleep()) {
          this.halt('asleep', 1, `the core sleeps (WFI/WFE at 0x${(core.PC >>> 0).toString(16)}) with no timer to wake it`);
          return 'halt';
        }
      } else {
        clock.t += core.executeInstruction();
        if (this.watchHit) return this.halted ? 'halt' : 'watch';
        if (clock.t >= clock.nextDue) clock.fire();
      }
      if (this.halted) return 'halt';
    }
    return 'budget';
  }

  /** What the run did, for the summary. */
  summary() {
    return {
      cycles: this.cycles,
      loadedBytes: this.loadedBytes,
      loadedFrom: this.loadedFrom,
      boot2ChecksumOk: this.boot2Ok,
      pace: this.pace,
      rom: this.rom.stats(),
      romLookups: Object.fromEntries(this.rom.lookups),
      bus: busSummary(this.busMatches, this.busGame),
      i2c: {
        bytes: this.i2cBytes,
        transactions: this.oled.transactions,
        commands: this.oled.commandsSeen,
        dataBytes: this.oled.dataBytes,
      },
      oled: {
        displayOn: this.oled.displayOn,
        chargePump: this.oled.chargePump,
        contrast: this.oled.contrast,
        addressingMode: this.oled.mode,
        segmentRemap: this.oled.segRemap,
        comRemap: this.oled.comRemap,
        warnings: this.oled.warnings,
      },
      emulatorWarnings: Object.fromEntries(this.warnings),
    };
  }
}

/** Median and max of a list of per-frame byte counts. */
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return { n: 0, median: 0, max: 0, total: 0 };
  return { n: s.length, median: s[s.length >> 1], max: s[s.length - 1], total: s.reduce((a, b) => a + b, 0) };
}

function busSummary(matches, game) {
  return {
    gameFrameBytes: stats(game),
    matches: [...matches.entries()].sort((a, b) => a[0] - b[0])
      .map(([m, r]) => ({ m, bytes: stats(r.game), resultBytes: r.result })),
  };
}

export { WIDTH, HEIGHT };
