// UF2 files, as the RP2040's boot ROM takes them in BOOTSEL mode: 512-byte blocks, each with two
// start magics, flags (0x2000: a family id is present), the target address, the payload's size, the
// block's number and the block count, the family id (0xe48bff56 for the RP2040), up to 476 bytes of
// payload and an end magic. Every field is checked: a bad file gives a Uf2Error saying what.

export class Uf2Error extends Error {}

const MAGIC_START0 = 0x0a324655;
const MAGIC_START1 = 0x9e5d5157;
const MAGIC_END = 0x0ab16f30;
const FLAG_FAMILY_ID = 0x00002000;
export const RP2040_FAMILY = 0xe48bff56;
const BLOCK = 512;

/** The blocks of `bytes` (a Uint8Array) as `{ address, data }`, in file order. */
export function uf2Blocks(bytes, family = RP2040_FAMILY) {
  if (bytes.length === 0 || bytes.length % BLOCK !== 0) {
    throw new Uf2Error(`${bytes.length} bytes: not a whole number of 512-byte UF2 blocks`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes.length / BLOCK;
  const out = [];
  for (let n = 0; n < count; n++) {
    const o = n * BLOCK;
    const w = (i) => view.getUint32(o + i, true);
    if (w(0) !== MAGIC_START0 || w(4) !== MAGIC_START1 || w(BLOCK - 4) !== MAGIC_END) {
      throw new Uf2Error(`block ${n}: no UF2 magic`);
    }
    if (!(w(8) & FLAG_FAMILY_ID) || w(28) !== family) {
      throw new Uf2Error(`block ${n}: family 0x${w(28).toString(16)}, not 0x${family.toString(16)}`);
    }
    const size = w(16);
    if (size > 476) throw new Uf2Error(`block ${n}: a payload of ${size} bytes`);
    if (w(20) !== n || w(24) !== count) {
      throw new Uf2Error(`block ${n}: numbered ${w(20)} of ${w(24)} in a file of ${count} blocks`);
    }
    out.push({ address: w(12), data: bytes.subarray(o + 32, o + 32 + size) });
  }
  return out;
}
