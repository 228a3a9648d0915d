import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Simulator } from 'rp2040js';

import { CycleClock } from '../lib/clock.mjs';
import { EmulatedPico, ProbeError } from '../lib/pico.mjs';
import { parseTarget } from '../lib/target.mjs';

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

/** A firmware of four instructions at the vector table boot2 leaves (0x10000100): it stores 5 at
 * 0x20000800, then spins. */
function tinyPico() {
  const img = Buffer.alloc(20);
  img.writeUInt32LE(0x20001000, 0); // initial SP
  img.writeUInt32LE(0x10000109, 4); // reset: 0x10000108, Thumb
  img.writeUInt16LE(0x4801, 8); //     ldr r0, [pc, #4]   (the word at 0x10000110)
  img.writeUInt16LE(0x2105, 10); //    movs r1, #5
  img.writeUInt16LE(0x6001, 12); //    str r1, [r0]
  img.writeUInt16LE(0xe7fe, 14); //    b .
  img.writeUInt32LE(0x20000800, 16);
  const target = parseTarget(JSON.stringify({ segments: [{ addr: 0x10000100, hex: img.toString('hex') }], rtt: 0x20000000, pace: null }));
  return new EmulatedPico(target);
}

test('the probe: a store to the watched word stops the run right after it; budgets; memory', () => {
  const pico = tinyPico();
  pico.watch(0x20000802); // a word the store overlaps
  assert.equal(pico.run(1000), 'watch');
  assert.equal(pico.mcu.core.PC >>> 0, 0x1000010e, 'stopped after the store, before the branch');
  assert.deepEqual([...pico.read(0x20000800, 4)], [5, 0, 0, 0]);
  const at = pico.cycles;
  assert.equal(pico.run(100), 'budget', 'the spin writes nothing');
  assert.ok(pico.cycles >= at + 100 && pico.cycles < at + 110);
  pico.write(0x20000900, Uint8Array.of(1, 2, 3));
  assert.deepEqual([...pico.read(0x20000900, 3)], [1, 2, 3]);
  assert.deepEqual([...pico.read(0x10000100, 4)], [0x00, 0x10, 0x00, 0x20], 'flash reads too');
  assert.throws(() => pico.read(0x30000000, 4), ProbeError);
  assert.throws(() => pico.write(0x10000100, Uint8Array.of(0)), ProbeError, 'flash is not written by a probe write');
  pico.watch(0x20000c00);
  const fresh = tinyPico();
  fresh.watch(0x20000c00); // a word nobody writes
  assert.equal(fresh.run(50), 'budget');
  assert.equal(fresh.read(0x20000800, 1)[0], 5, 'the store happened all the same');
});
