import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Ssd1306, WIDTH } from '../lib/ssd1306.mjs';

/** One I2C write transaction to the display. */
function send(oled, bytes) {
  assert.equal(oled.connect(0x3c, false), true);
  for (const b of bytes) assert.equal(oled.writeByte(b), true);
  oled.stop();
}

const cmd = (oled, ...c) => {
  for (const b of c) send(oled, [0x00, b]);
};

/** The ssd1306 crate's init for 128x64, rotation 0, horizontal addressing. */
function init(oled) {
  for (const c of [[0xae], [0xd5, 0x80], [0xa8, 63], [0xd3, 0], [0x40], [0x8d, 0x14], [0x20, 0], [0xda, 0x12], [0xa1], [0xc8], [0xd9, 0x21], [0x81, 0x5f], [0xdb, 0x40], [0xa4], [0xa6], [0x2e], [0xaf]]) {
    send(oled, [0x00, ...c]);
  }
}

test('the crate init sequence turns the panel on with the module upright', () => {
  const o = new Ssd1306();
  assert.equal(o.lit, false, 'off after reset');
  assert.ok(o.gddram.some((b) => b !== 0), 'GDDRAM holds noise after power-on');
  init(o);
  assert.equal(o.lit, true);
  assert.equal(o.mode, 0);
  assert.equal(o.contrast, 0x5f);
  assert.equal(o.onLevel, 163);
  assert.deepEqual(o.warnings, []);
  // A full-screen write: column 0..127, pages 0..7, 16 data bytes a transaction.
  send(o, [0x00, 0x21, 0, 127]);
  send(o, [0x00, 0x22, 0, 7]);
  const ram = new Uint8Array(1024);
  ram[0] = 0x01; // pixel (0, 0)
  ram[127] = 0x80; // pixel (127, 7)
  ram[1023] = 0x80; // pixel (127, 63)
  for (let i = 0; i < 1024; i += 16) send(o, [0x40, ...ram.subarray(i, i + 16)]);
  const p = o.picture();
  const on = [];
  p.forEach((v, i) => v && on.push([i % WIDTH, Math.floor(i / WIDTH)]));
  assert.deepEqual(on, [[0, 0], [127, 7], [127, 63]]);
});

test('remaps off turn the picture half a turn, as on the module', () => {
  const o = new Ssd1306();
  init(o);
  cmd(o, 0xa0, 0xc0);
  send(o, [0x00, 0x21, 0, 127, 0x22, 0, 7]);
  send(o, [0x40, ...new Uint8Array(1024)]); // the power-on noise cleared, back at (0, 0)
  send(o, [0x40, 0x01]); // column 0, row 0 of the RAM
  const p = o.picture();
  assert.equal(p[63 * WIDTH + 127], 1);
  assert.equal(p.reduce((a, b) => a + b, 0), 1);
});

test('horizontal addressing wraps inside the column and page window', () => {
  const o = new Ssd1306();
  init(o);
  send(o, [0x00, 0x21, 10, 11, 0x00, 0x22, 2, 3]);
  send(o, [0x40, 1, 2, 3, 4, 5]);
  assert.deepEqual([o.gddram[2 * 128 + 10], o.gddram[2 * 128 + 11], o.gddram[3 * 128 + 10], o.gddram[3 * 128 + 11], o.gddram[2 * 128 + 10]], [5, 2, 3, 4, 5]);
});

test('vertical and page addressing', () => {
  const o = new Ssd1306();
  init(o);
  send(o, [0x00, 0x20, 1, 0x21, 0, 1, 0x22, 0, 1]);
  send(o, [0x40, 1, 2, 3]);
  assert.deepEqual([o.gddram[0], o.gddram[128], o.gddram[1]], [1, 2, 3]);
  send(o, [0x00, 0x20, 2, 0xb5, 0x0e, 0x17]); // page 5, column 0x7e
  send(o, [0x40, 7, 8, 9]);
  assert.deepEqual([o.gddram[5 * 128 + 126], o.gddram[5 * 128 + 127], o.gddram[5 * 128 + 126]], [9, 8, 9]);
});

test('Co = 1 control bytes alternate single commands and data', () => {
  const o = new Ssd1306();
  init(o);
  send(o, [0x80, 0xa7, 0x80, 0x81, 0x80, 0xff, 0xc0, 0x55]);
  assert.equal(o.inverse, true);
  assert.equal(o.contrast, 0xff);
  assert.equal(o.onLevel, 255);
});

test('display off, charge pump off, entire display on, inverse', () => {
  const o = new Ssd1306();
  init(o);
  cmd(o, 0xa5);
  assert.equal(o.picture().every((v) => v === 1), true);
  cmd(o, 0xa4, 0xae);
  assert.equal(o.picture().every((v) => v === 0), true, 'off: dark');
  cmd(o, 0xaf);
  send(o, [0x00, 0x8d, 0x10]);
  assert.equal(o.lit, false, 'no charge pump, no VCC: dark');
});

test('other addresses, reads, unknown commands and cut-off commands', () => {
  const o = new Ssd1306();
  assert.equal(o.connect(0x3d, false), false);
  assert.equal(o.connect(0x3c, true), false);
  send(o, [0x00, 0xfe]);
  send(o, [0x00, 0x81]);
  assert.equal(o.warnings.length, 3, o.warnings.join('; '));
  assert.equal(o.writeByte(0x00), false, 'no byte is taken outside a transaction');
});
