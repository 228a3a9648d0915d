import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BootRom, RomError, code } from '../lib/bootrom.mjs';
import { FLASH, boot2Crc, writePace } from '../lib/pico.mjs';
import { framePgm } from '../lib/pgm.mjs';
import { TargetError, parseTarget } from '../lib/target.mjs';

test('the target file: segments and symbols checked', () => {
  const t = parseTarget(JSON.stringify({ segments: [{ addr: 0x10000000, hex: '00ff10' }], rtt: 0x20000010, pace: null, formats: { start: 3, frame: 7 } }));
  assert.deepEqual([...t.segments[0].data], [0, 255, 16]);
  assert.equal(t.segments[0].addr, 0x10000000);
  assert.equal(t.pace, undefined);
  const bad = (j, says) => assert.throws(() => parseTarget(typeof j === 'string' ? j : JSON.stringify(j)), (e) => e instanceof TargetError && says.test(e.message));
  bad('{"segments": [', /not JSON/);
  bad({ rtt: 1 }, /no "segments"/);
  bad({ segments: [{ addr: -1, hex: '' }], rtt: 1 }, /addr is no 32-bit address/);
  bad({ segments: [{ addr: 1, hex: 'abc' }], rtt: 1 }, /hex is no even run/);
  bad({ segments: [], rtt: 1, pace: 'x' }, /"pace" is no 32-bit address/);
});

test('the ROM: header, lookup and functions', () => {
  const rom = new BootRom();
  const img = rom.image;
  const v = new DataView(img.buffer);
  assert.deepEqual(Array.from(img.subarray(0x10, 0x13)), [0x4d, 0x75, 0x01]);
  const mem = {
    bytes: new Uint8Array(256),
    moved: 0,
    read16: (a) => v.getUint16(a, true),
    fill(d, c, n) {
      this.moved += n;
      this.bytes.fill(c, d, d + n);
    },
    copy(d, s, n) {
      this.moved += n;
      this.bytes.copyWithin(d, s, s + n);
    },
  };
  const regs = new Uint32Array(16);
  const lookup = (c) => {
    regs[0] = v.getUint16(0x14, true);
    regs[1] = code(c[0], c[1]);
    rom.trap(v.getUint16(0x18, true) & ~1, 0x01, regs, mem);
    return regs[0];
  };
  const call = (c, ...args) => {
    const f = lookup(c);
    assert.equal(f & 1, 1, 'a Thumb pointer');
    assert.equal(v.getUint16(f & ~1, true) >> 8, 0xbe, 'the stub is a BKPT');
    assert.equal(v.getUint16((f & ~1) + 2, true), 0x4770, 'then BX LR');
    args.forEach((a, i) => (regs[i] = a));
    rom.trap(f & ~1, v.getUint16(f & ~1, true) & 0xff, regs, mem);
    return regs[0];
  };
  assert.equal(call('L3', 1), 31);
  assert.equal(call('L3', 0), 32);
  assert.equal(call('T3', 0x80), 7);
  assert.equal(call('P3', 0xf0f0), 8);
  assert.equal(call('R3', 1), 0x80000000);
  mem.bytes.set([1, 2, 3, 4], 0);
  assert.equal(call('MC', 16, 0, 4), 16, 'memcpy returns dest');
  assert.deepEqual(Array.from(mem.bytes.subarray(16, 20)), [1, 2, 3, 4]);
  assert.equal(call('MS', 32, 0x1ab, 3), 32);
  assert.deepEqual(Array.from(mem.bytes.subarray(32, 36)), [0xab, 0xab, 0xab, 0]);
  assert.deepEqual(rom.stats().memcpy, { calls: 1, bytes: 4 });
  assert.throws(() => lookup('RE'), RomError, 'flash programming is not provided');
});

test('boot2 checksum and the frame buffer as PGM', () => {
  // CRC-32/MPEG-2 of "123456789" is 0x0376e6e7.
  const digits = new TextEncoder().encode('123456789');
  assert.equal(boot2Crc(digits), 0x0376e6e7);
  const pgm = framePgm(Uint8Array.from([0, 1, 1, 0, 0, 1]), 3, 2, 200);
  assert.deepEqual(Array.from(pgm), [...Buffer.from('P5\n3 2\n255\n'), 0, 200, 200, 0, 0, 200]);
  assert.throws(() => framePgm(Uint8Array.from([0, 1]), 3, 2, 200), /pixel count/);
});

test('the pace: the image\'s ARENA_PACE read and written over, in flash only', () => {
  const flash = new Uint8Array(64);
  flash.set([4, 0, 0, 0], 16);
  assert.deepEqual(writePace(FLASH + 16, flash, 0), { inImage: 4, set: 0 });
  assert.deepEqual([...flash.subarray(16, 20)], [0, 0, 0, 0]);
  assert.deepEqual(writePace(FLASH + 16, flash, 0x01020304), { inImage: 0, set: 0x01020304 });
  assert.deepEqual([...flash.subarray(16, 20)], [4, 3, 2, 1]);
  assert.equal(writePace(undefined, flash, 0), null);
  for (const bad of [0x20000000, FLASH + 62, FLASH + 17]) {
    assert.throws(() => writePace(bad, flash, 0), TargetError);
  }
});
