#!/usr/bin/env node
// The Pocket Arena rp-pico firmware on an emulated Raspberry Pi Pico, driven as a debug probe
// drives a board: xtask (host/xtask/src/drive.rs) sends one command a line on stdin and reads one
// JSON reply a line on stdout. The harness models the hardware only; xtask reads the RTT log
// through these commands, decodes defmt, decides when a picture is taken and when to stop.
//
//   node pico.mjs --target FILE [--uf2 FILE] [--pace N]
//
// --target FILE: what xtask read from the release ELF, as a probe is given it (lib/target.mjs): the
//   loadable segments, the addresses of _SEGGER_RTT and ARENA_PACE. The harness reads no ELF.
// --uf2 FILE: flash from the UF2 file, as the boot ROM writes it in BOOTSEL mode (the target's
//   segments are then not loaded).
// --pace N: the turns a second the firmware keeps, written over its ARENA_PACE in flash before the
//   core starts (default 0: flat out; a real Pico keeps the 4 in its image, which the summary's
//   `pace.inImage` gives).
//
// Once loaded it says {"ready":true}; then, each command's reply (an {"error": "..."} for a bad one):
//   watch ADDR ...     a watchpoint on the word at ADDR (a store to it stops `run`; what
//                      follows, a ring's read offset and size, is not needed here)      {}
//   run CYCLES         runs until the watched word is written, the core halts (a fault, a
//                      lock-up, a missing ROM function) or CYCLES cycles have passed:
//                      {"stop": "watch"|"budget"|"halt", "cycles": N, "value": the watched
//                      word, and for "halt": "kind", "status", "message"}
//   read ADDR LEN      {"hex": the bytes} (SRAM or flash)
//   write ADDR HEX     {} (SRAM)
//   display            {"ext": "pgm", "hex": the OLED's 128x64 picture as a binary PGM, 0 off and
//                      the contrast's gray on; xtask writes the PNG}
//   mark M T game|result  the I2C bus's frame of match M (turn T) starts here (the counts per
//                      frame are in the summary's `bus`)                                {}
//   summary            what the hardware did: cycles, loading, the ROM, I2C, the OLED, the bus
//   quit               the emulator's warnings on stderr, then exit 0 (also at the end of stdin)
// ADDR, LEN, CYCLES and M are decimal. Exit status 2 when the target or the UF2 file is bad.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

import { EmulatedPico, HEIGHT, ProbeError, WIDTH } from './lib/pico.mjs';
import { framePgm } from './lib/pgm.mjs';
import { TargetError, parseTarget } from './lib/target.mjs';
import { Uf2Error } from './lib/uf2.mjs';

const USAGE = 'usage: node pico.mjs --target FILE [--uf2 FILE] [--pace N]';

function say(msg) {
  process.stderr.write(`emulator: ${msg}\n`);
}

function fail(status, msg) {
  say(msg);
  process.exit(status);
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    const v = argv[i + 1];
    if (a === '--pace') {
      const n = Number(v);
      if (v === undefined || !Number.isInteger(n) || n < 0 || n > 0xffffffff) fail(2, `--pace needs a whole number below 2^32, got ${v}\n${USAGE}`);
      opts.pace = n;
      i++;
    } else if (a === '--target' || a === '--uf2') {
      if (v === undefined) fail(2, `${a} needs a value\n${USAGE}`);
      opts[a.slice(2)] = v;
      i++;
    } else {
      fail(2, `unknown argument ${a}\n${USAGE}`);
    }
  }
  if (!opts.target) fail(2, `no --target\n${USAGE}`);
  return opts;
}

/** A whole number from a command's argument, or a ProbeError. */
function number(v, what) {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isSafeInteger(n) || n < 0) throw new ProbeError(`${what} is no whole number: ${v}`);
  return n;
}

/** The reply to one command line. */
function answer(pico, line) {
  const [cmd, ...args] = line.trim().split(/\s+/);
  switch (cmd) {
    case 'watch':
      pico.watch(number(args[0], 'the address'));
      return {};
    case 'run': {
      const budget = number(args[0], 'the cycles');
      const stop = pico.halted ? 'halt' : pico.run(budget);
      const reply = { stop, cycles: pico.cycles };
      if (pico.watched !== undefined) reply.value = pico.mcu.readUint32(pico.watched);
      if (stop === 'halt') Object.assign(reply, { kind: pico.halted.kind, status: pico.halted.status, message: pico.halted.message });
      return reply;
    }
    case 'read':
      return { hex: Buffer.from(pico.read(number(args[0], 'the address'), number(args[1], 'the length'))).toString('hex') };
    case 'write': {
      const hex = args[1] ?? '';
      if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) throw new ProbeError('the bytes are no even run of lowercase hex digits');
      pico.write(number(args[0], 'the address'), new Uint8Array(Buffer.from(hex, 'hex')));
      return {};
    }
    case 'display':
      return { ext: 'pgm', hex: framePgm(pico.oled.picture(), WIDTH, HEIGHT, pico.oled.onLevel).toString('hex') };
    case 'mark':
      if (args[2] !== 'game' && args[2] !== 'result') throw new ProbeError(`mark: the frame is "game" or "result", not ${args[2]}`);
      number(args[1], 'the turn');
      pico.busBoundary(number(args[0], 'the match'), args[2]);
      return {};
    case 'summary':
      return pico.summary();
    default:
      throw new ProbeError(`unknown command ${JSON.stringify(cmd)} (watch, run, read, write, display, mark, summary, quit)`);
  }
}

function farewell(pico) {
  for (const [w, n] of pico.warnings) say(`rp2040js: ${w}${n > 1 ? ` (${n} times)` : ''}`);
  for (const w of pico.oled.warnings) say(`SSD1306: ${w}`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let target;
  try {
    target = parseTarget(readFileSync(opts.target, 'utf8'));
  } catch (e) {
    fail(2, `${e instanceof TargetError ? '' : 'cannot read '}${opts.target}: ${e.message}`);
  }
  let uf2;
  if (opts.uf2) {
    try {
      uf2 = new Uint8Array(readFileSync(opts.uf2));
    } catch (e) {
      fail(2, `cannot read ${opts.uf2}: ${e.message}`);
    }
  }
  let pico;
  try {
    pico = new EmulatedPico(target, { pace: opts.pace, uf2 });
  } catch (e) {
    if (e instanceof Uf2Error) fail(2, `${opts.uf2}: ${e.message}`);
    if (e instanceof TargetError) fail(2, `${opts.target}: ${e.message}`);
    throw e;
  }
  if (!pico.boot2Ok) {
    say('warning: the 256 bytes at 0x10000000 are no boot2 with a valid checksum: the RP2040 boot ROM would not start this image from flash');
  }
  const send = (reply) => process.stdout.write(`${JSON.stringify(reply)}\n`);
  send({ ready: true });
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === 'quit') break;
    try {
      send(answer(pico, line));
    } catch (e) {
      if (!(e instanceof ProbeError)) throw e;
      send({ error: e.message });
    }
  }
  farewell(pico);
}

main().catch((e) => {
  say(`internal error: ${e.stack ?? e}`);
  process.exit(2);
});
