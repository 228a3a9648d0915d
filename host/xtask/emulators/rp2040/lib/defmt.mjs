// Just enough of defmt's wire format to know *when* the firmware logs certain messages, so that the
// harness can act at that instant (take the OLED's picture, stop after N matches). The log itself
// is decoded by `defmt-print`, never here.
//
// defmt-rtt writes one 0x00 byte first, then frames encoded with rzCOBS, each ending in 0x00. A
// decoded frame starts with the format string's index (u16, little endian), then the arguments
// (the firmware has no timestamp).

export class DefmtError extends Error {}

/**
 * rzCOBS decoding, the inverse of defmt's encoder (defmt/src/encoding/rzcobs.rs): groups are read
 * from the end of the frame backwards, each ending in its code byte:
 * - 0x01..0x7f: seven positions, LSB first; a set bit is a 0x00, a clear bit one byte of the group;
 * - 0x80..0xfe: (code & 0x7f) + 7 bytes, then a 0x00;
 * - 0xff: 134 bytes.
 * The result may end in padding zeros, as defmt's decoder allows.
 */
export function rzcobsDecode(enc) {
  const groups = [];
  let i = enc.length;
  while (i > 0) {
    const x = enc[--i];
    if (x === 0) throw new DefmtError('0x00 inside a frame');
    if (x < 0x80) {
      let n = 0;
      for (let b = 0; b < 7; b++) if (!(x & (1 << b))) n++;
      if (i < n) throw new DefmtError('frame shorter than its code byte says');
      const data = enc.subarray(i - n, i);
      i -= n;
      const g = [];
      let d = 0;
      for (let b = 0; b < 7; b++) g.push(x & (1 << b) ? 0 : data[d++]);
      groups.push(g);
    } else {
      const n = x === 0xff ? 134 : (x & 0x7f) + 7;
      if (i < n) throw new DefmtError('frame shorter than its code byte says');
      const g = Array.from(enc.subarray(i - n, i));
      if (x !== 0xff) g.push(0);
      i -= n;
      groups.push(g);
    }
  }
  groups.reverse();
  return Uint8Array.from(groups.flat());
}

/** Splits the RTT byte stream into frames; `onFrame(encodedBytes)` per complete frame. */
export class FrameSplitter {
  constructor(onFrame) {
    this.onFrame = onFrame;
    this.pending = [];
  }

  push(bytes) {
    for (const b of bytes) {
      if (b === 0) {
        if (this.pending.length > 0) {
          const frame = Uint8Array.from(this.pending);
          this.pending = [];
          this.onFrame(frame);
        }
      } else {
        this.pending.push(b);
      }
    }
  }
}

/** A decoded frame's format index and the u32 argument at byte `at` after the index. */
export function frameIndex(decoded) {
  if (decoded.length < 2) throw new DefmtError('frame without an index');
  return decoded[0] | (decoded[1] << 8);
}

export function u32At(decoded, at) {
  const o = 2 + at;
  if (decoded.length < o + 4) return undefined;
  return (decoded[o] | (decoded[o + 1] << 8) | (decoded[o + 2] << 16) | (decoded[o + 3] << 24)) >>> 0;
}
