#!/usr/bin/env node
// The Pocket Arena rp-pico firmware on an emulated Raspberry Pi Pico.
//
//   node pico.mjs --target FILE [--uf2 FILE] [--matches N] [--frames DIR] [--every N] [--summary FILE]
//                 [--timeout SECONDS] [--silence CYCLES] [--max-cycles CYCLES] [--pace N]
//
// --pace N: the turns a second the firmware keeps, written over its ARENA_PACE in flash before the
//   core starts (default 0: flat out; a real Pico keeps the 4 in its image, which the summary's
//   `pace.inImage` gives).
// --target FILE: what xtask read from the release ELF, as a probe is given it (lib/target.mjs): the
//   loadable segments, the addresses of _SEGGER_RTT and ARENA_PACE, the defmt string indices of
//   the start/frame/digest/final log lines. The harness reads no ELF itself.
// --uf2 FILE: flash from the UF2 file, as the boot ROM writes it in BOOTSEL mode (the target's
//   segments are then not loaded: it gives the symbols only).
// stdout: the RTT up-channel 0, byte for byte as a probe reads it (xtask pipes it to
//   `defmt-print -e ELF`).
// stderr: what the harness says, each line starting with "emulator:".
// --frames DIR: each frame the firmware announces ("frame m=.. t=.. k=.." in its log) as
//   DIR/frame-NNNN.pgm (the OLED's 128x64 frame buffer as the panel shows it: a binary PGM, one byte
//   a pixel, 0 off and the contrast's gray on; xtask writes the PNG from it) and a line of
//   DIR/frames.jsonl (whose `png` names the PNG xtask writes); with --every N, the picture after
//   every N-th turn of each match too (taken when the firmware logs the next turn's digest, so it
//   needs a digest every turn).
// Exit status: 0 when N matches were played; 1 when the firmware faulted (a panic ends in a
// HardFault), the core locked up or the ROM lacked a function; 2 for bad arguments or a bad target;
// 3 when the run timed out: --timeout seconds of wall clock (default 900), --max-cycles emulated
// cycles, or --silence cycles without a log line (default 1,000,000,000: 8 s at 125 MHz).

import { mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';

import { DefmtError } from './lib/defmt.mjs';
import { RttError } from './lib/rtt.mjs';
import { EmulatedPico, HEIGHT, WIDTH } from './lib/pico.mjs';
import { framePgm } from './lib/pgm.mjs';
import { TargetError, parseTarget } from './lib/target.mjs';
import { Uf2Error } from './lib/uf2.mjs';

const USAGE =
  'usage: node pico.mjs --target FILE [--uf2 FILE] [--matches N] [--frames DIR] [--every N] [--summary FILE] ' +
  '[--timeout SECONDS] [--silence CYCLES] [--max-cycles CYCLES] [--pace N]';

function say(msg) {
  process.stderr.write(`emulator: ${msg}\n`);
}

function fail(status, msg) {
  say(msg);
  process.exit(status);
}

function parseArgs(argv) {
  const opts = { timeout: 900, silence: 1e9, maxCycles: Infinity, chunk: 8192 };
  const numbers = { '--every': 'every', '--matches': 'matches', '--timeout': 'timeout', '--silence': 'silence', '--max-cycles': 'maxCycles', '--chunk': 'chunk', '--pace': 'pace' };
  const strings = { '--target': 'target', '--uf2': 'uf2', '--frames': 'frames', '--summary': 'summary' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    const v = argv[i + 1];
    if (a in numbers) {
      const n = Number(v);
      if (v === undefined || !Number.isFinite(n) || n < 0 || !Number.isInteger(n)) fail(2, `${a} needs a whole number, got ${v}\n${USAGE}`);
      opts[numbers[a]] = n;
      i++;
    } else if (a in strings) {
      if (v === undefined) fail(2, `${a} needs a value\n${USAGE}`);
      opts[strings[a]] = v;
      i++;
    } else {
      fail(2, `unknown argument ${a}\n${USAGE}`);
    }
  }
  if (!opts.target) fail(2, `no --target\n${USAGE}`);
  if (opts.chunk < 1) fail(2, '--chunk must be at least 1');
  if (opts.pace !== undefined && opts.pace > 0xffffffff) fail(2, '--pace must fit in 32 bits');
  return opts;
}

/** stdout with backpressure: the run waits while the reader (defmt-print) catches up. */
class Output {
  constructor() {
    this.waiting = null;
    this.broken = null;
    process.stdout.on('error', (e) => {
      this.broken = e;
    });
  }

  write(bytes) {
    if (this.broken) return;
    if (!process.stdout.write(bytes) && !this.waiting) {
      this.waiting = new Promise((resolve) => process.stdout.once('drain', () => {
        this.waiting = null;
        resolve();
      }));
    }
  }

  async settle() {
    if (this.waiting) await this.waiting;
    await new Promise((resolve) => setImmediate(resolve));
  }
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
  if (opts.frames) {
    mkdirSync(opts.frames, { recursive: true });
    writeFileSync(join(opts.frames, 'frames.jsonl'), '');
  }
  const out = new Output();
  out.write(Uint8Array.of(0)); // defmt-rtt's leading frame separator
  let pico;
  try {
    pico = new EmulatedPico(target, {
      matches: opts.matches,
      every: opts.every,
      pace: opts.pace,
      uf2,
      onLog: (bytes) => out.write(bytes),
      onFrame: opts.frames
        ? (k, f) => {
            const stem = `frame-${String(k).padStart(4, '0')}`;
            const name = `${stem}.png`;
            writeFileSync(join(opts.frames, `${stem}.pgm`), framePgm(f.picture, WIDTH, HEIGHT, f.onLevel));
            appendFileSync(join(opts.frames, 'frames.jsonl'), `${JSON.stringify({ k, m: f.m, t: f.t, announced: f.announced, cycle: f.cycle, png: name })}\n`);
          }
        : undefined,
    });
  } catch (e) {
    if (e instanceof Uf2Error) fail(2, `${opts.uf2}: ${e.message}`);
    if (e instanceof TargetError || e instanceof DefmtError || e instanceof RttError) fail(2, `${opts.target}: ${e.message}`);
    throw e;
  }
  if (!pico.boot2Ok) {
    say('warning: the 256 bytes at 0x10000000 are no boot2 with a valid checksum: the RP2040 boot ROM would not start this image from flash');
  }

  const started = Date.now();
  let nextYield = started + 25;
  while (!pico.halted) {
    pico.step(opts.chunk);
    pico.drain();
    const cycles = pico.cycles;
    if (cycles > opts.maxCycles) pico.halt('timeout', 3, `stopped after ${opts.maxCycles} emulated cycles (--max-cycles)`);
    if (cycles - pico.lastLogCycle > opts.silence) {
      pico.halt('silent', 3, `the firmware has logged nothing for ${opts.silence} cycles (${(opts.silence / 125e6).toFixed(1)} s of emulated time at 125 MHz)`);
    }
    const now = Date.now();
    if (now >= nextYield) {
      if ((now - started) / 1000 > opts.timeout) pico.halt('timeout', 3, `timed out after ${opts.timeout} s (wall clock)`);
      await out.settle();
      if (out.broken) pico.halt('output', 2, `stdout closed: ${out.broken.message}`);
      nextYield = Date.now() + 25;
    }
  }
  pico.drain();
  const wall = (Date.now() - started) / 1000;
  const h = pico.halted;
  const summary = { status: h.status, kind: h.kind, message: h.message, wallSeconds: wall, ...pico.summary() };
  if (pico.splitter.pending.length > 0) summary.unfinishedLogBytes = pico.splitter.pending.length;
  if (opts.summary) writeFileSync(opts.summary, `${JSON.stringify(summary, null, 2)}\n`);
  for (const [w, n] of pico.warnings) say(`rp2040js: ${w}${n > 1 ? ` (${n} times)` : ''}`);
  for (const w of pico.oled.warnings) say(`SSD1306: ${w}`);
  const mcps = (summary.cycles / 1e6 / Math.max(wall, 1e-3)).toFixed(0);
  say(`${h.kind === 'done' ? '' : 'stopped: '}${h.message}; ${summary.cycles} cycles in ${wall.toFixed(1)} s (${mcps} M cycles/s), ${summary.logFrames} log frames, ${summary.frames} frames announced`);
  await out.settle();
  process.exitCode = h.status;
}

main().catch((e) => {
  say(`internal error: ${e.stack ?? e}`);
  process.exit(2);
});
