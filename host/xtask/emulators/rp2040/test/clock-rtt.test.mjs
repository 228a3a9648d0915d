import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Simulator } from 'rp2040js';

import { CycleClock } from '../lib/clock.mjs';
import { RttReader } from '../lib/rtt.mjs';

// The package exports its Simulator, whose clock is a SimulationClock: a fresh one of that class.
const SimulationClock = new Simulator().clock.constructor;

test('the cycle clock fires alarms exactly as rp2040js\'s SimulationClock under its Simulator', () => {
  // The same instruction lengths and the same alarms on both clocks: every callback must see the
  // same time, in the same order, and reads between instructions the same time too.
  const runs = [];
  for (const make of [() => new SimulationClock(), () => new CycleClock()]) {
    const clock = make();
    const seen = [];
    const alarms = [];
    for (let i = 0; i < 4; i++) {
      const a = clock.createAlarm(() => {
        seen.push(`a${i}@${clock.nanos}`);
        if (i < 2) a.schedule(1000 + 13 * i); // periodic, rescheduled from inside its callback
      });
      alarms.push(a);
    }
    alarms[0].schedule(500);
    alarms[1].schedule(500); // same due time: the order of scheduling decides
    alarms[2].schedule(77);
    alarms[3].schedule(123456);
    let s = 12345;
    for (let step = 0; step < 20000; step++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const cycles = 1 + (s % 5);
      if (step === 700) alarms[3].cancel();
      if (clock instanceof CycleClock) {
        clock.t += cycles;
        if (clock.t >= clock.nextDue) clock.fire();
      } else {
        clock.tick(cycles * 8);
      }
      if (step % 997 === 0) seen.push(`read@${clock.nanos}`);
    }
    runs.push(seen);
  }
  assert.ok(runs[0].length > 100);
  assert.deepEqual(runs[1], runs[0]);
});

/** A stand-in for the RP2040's SRAM with a defmt-rtt control block at 0x20000100. */
function fakeMcu(size) {
  const sram = new Uint8Array(4096);
  const mcu = { sram, sramView: new DataView(sram.buffer) };
  const cb = 0x100;
  const put = (o, v) => mcu.sramView.setUint32(o, v, true);
  return {
    mcu,
    init() {
      sram.set(new TextEncoder().encode('SEGGER RTT'), cb);
      put(cb + 16, 1);
      put(cb + 24 + 4, 0x20000400); // buffer
      put(cb + 24 + 8, size);
      put(cb + 24 + 20, 1); // non-blocking, as defmt-rtt starts
    },
    write(bytes) {
      let w = mcu.sramView.getUint32(cb + 24 + 12, true);
      for (const b of bytes) {
        sram[0x400 + w] = b;
        w = (w + 1) % size;
      }
      put(cb + 24 + 12, w);
    },
    flags: () => mcu.sramView.getUint32(cb + 24 + 20, true),
  };
}

test('RTT: nothing before the block is set up, then blocking mode and every byte, across the wrap', () => {
  const f = fakeMcu(16);
  const r = new RttReader(f.mcu, 0x20000100);
  assert.equal(r.drain(), null, 'no control block yet');
  f.init();
  assert.equal(r.drain(), null);
  assert.equal(f.flags() & 3, 2, 'switched to block-if-full, as probe-rs does');
  f.write([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(Array.from(r.drain()), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  f.write([11, 12, 13, 14, 15, 16, 17, 18]); // wraps past the end of the 16-byte buffer
  assert.deepEqual(Array.from(r.drain()), [11, 12, 13, 14, 15, 16, 17, 18]);
  assert.equal(r.drain(), null);
  assert.equal(r.bytes, 18);
});

test('RTT: a control block outside SRAM or with a bad buffer is an error', () => {
  const f = fakeMcu(16);
  assert.throws(() => new RttReader(f.mcu, 0x10000000), /not in the RP2040's SRAM/);
  f.init();
  f.mcu.sramView.setUint32(0x100 + 24 + 4, 0x50000000, true);
  const r = new RttReader(f.mcu, 0x20000100);
  assert.throws(() => r.drain(), /not in SRAM/);
});
