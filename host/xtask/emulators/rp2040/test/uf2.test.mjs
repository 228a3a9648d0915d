import { test } from 'node:test';
import assert from 'node:assert/strict';

import { RP2040_FAMILY, Uf2Error, uf2Blocks } from '../lib/uf2.mjs';

function block(n, count, address, payload, family = RP2040_FAMILY) {
  const b = new Uint8Array(512);
  const v = new DataView(b.buffer);
  const words = [0x0a324655, 0x9e5d5157, 0x2000, address, payload.length, n, count, family];
  words.forEach((w, i) => v.setUint32(i * 4, w, true));
  b.set(payload, 32);
  v.setUint32(508, 0x0ab16f30, true);
  return b;
}

test('UF2 blocks give their addresses and payloads', () => {
  const a = block(0, 2, 0x10000000, Uint8Array.of(1, 2, 3));
  const b = block(1, 2, 0x10000100, Uint8Array.of(9));
  const file = new Uint8Array(1024);
  file.set(a, 0);
  file.set(b, 512);
  const blocks = uf2Blocks(file);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[1].address, 0x10000100);
  assert.deepEqual([...blocks[0].data], [1, 2, 3]);
});

test('bad UF2 files are refused with a reason', () => {
  assert.throws(() => uf2Blocks(new Uint8Array(100)), Uf2Error);
  assert.throws(() => uf2Blocks(block(0, 1, 0x10000000, Uint8Array.of(1), 0x12345678)), /family/);
  assert.throws(() => uf2Blocks(block(3, 1, 0x10000000, Uint8Array.of(1))), /numbered/);
  const bad = block(0, 1, 0x10000000, Uint8Array.of(1));
  bad[0] ^= 1;
  assert.throws(() => uf2Blocks(bad), /magic/);
});
