// The RTT up-channel 0, read as a debug probe reads it: through the `_SEGGER_RTT` control block in
// RAM (SEGGER's layout, as defmt-rtt declares it):
//
//   +0   char id[16]            "SEGGER RTT"
//   +16  u32 max up channels, +20 u32 max down channels
//   +24  up channel 0: +0 name, +4 buffer, +8 size, +12 write offset (target), +16 read offset
//        (host), +20 flags (bits 0-1: mode; 2 = block if full)
//
// Like probe-rs, the reader switches the channel to "block if full" once the firmware has set up
// the block (defmt-rtt starts non-blocking and treats blocking mode as "a host is attached"), so
// no byte is ever lost; the firmware then waits whenever the buffer is full until it is drained.

const ID = 'SEGGER RTT';
const MODE_MASK = 3;
const MODE_BLOCK_IF_FULL = 2;

export class RttError extends Error {}

export class RttReader {
  constructor(mcu, address) {
    this.mcu = mcu;
    this.address = address >>> 0;
    const o = this.address - 0x20000000;
    if (o < 0 || o + 48 > mcu.sram.length) {
      throw new RttError(`_SEGGER_RTT at 0x${this.address.toString(16)} is not in the RP2040's SRAM`);
    }
    this.offset = o;
    this.ready = false;
    this.bytes = 0;
  }

  u32(o) {
    return this.mcu.sramView.getUint32(this.offset + o, true);
  }

  /** Whether the firmware has initialised the control block (its id is in place). */
  check() {
    if (this.ready) return true;
    const id = new TextDecoder().decode(this.mcu.sram.subarray(this.offset, this.offset + ID.length));
    if (id !== ID) return false;
    const up = this.u32(16);
    const buffer = this.u32(24 + 4);
    const size = this.u32(24 + 8);
    if (up < 1) throw new RttError('the RTT control block has no up channel');
    const b = buffer - 0x20000000;
    if (b < 0 || size === 0 || b + size > this.mcu.sram.length) {
      throw new RttError(`RTT up channel 0: buffer 0x${buffer.toString(16)} of ${size} bytes is not in SRAM`);
    }
    this.bufferOffset = b;
    this.size = size;
    const flags = this.u32(24 + 20);
    this.mcu.sramView.setUint32(this.offset + 24 + 20, ((flags & ~MODE_MASK) | MODE_BLOCK_IF_FULL) >>> 0, true);
    this.ready = true;
    return true;
  }

  /** The bytes written since the last drain (empty when none), and the read offset moved on. */
  drain() {
    if (!this.check()) return null;
    const write = this.u32(24 + 12);
    const read = this.u32(24 + 16);
    if (write === read) return null;
    if (write >= this.size || read >= this.size) {
      throw new RttError(`RTT up channel 0 offsets out of range (write ${write}, read ${read}, size ${this.size})`);
    }
    const buf = this.mcu.sram;
    const b = this.bufferOffset;
    let out;
    if (write > read) {
      out = buf.slice(b + read, b + write);
    } else {
      out = new Uint8Array(this.size - read + write);
      out.set(buf.subarray(b + read, b + this.size), 0);
      out.set(buf.subarray(b, b + write), this.size - read);
    }
    this.mcu.sramView.setUint32(this.offset + 24 + 16, write, true);
    this.bytes += out.length;
    return out;
  }
}
