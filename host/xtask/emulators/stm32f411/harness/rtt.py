"""The RTT up-channel 0, read as a debug probe reads it: through the `_SEGGER_RTT` control block in
RAM (SEGGER's layout, as defmt-rtt declares it):

  +0   char id[16]            "SEGGER RTT"
  +16  u32 max up channels, +20 u32 max down channels
  +24  up channel 0: +0 name, +4 buffer, +8 size, +12 write offset (target), +16 read offset
       (host), +20 flags (bits 0-1: mode; 2 = block if full)

Like probe-rs, the reader switches the channel to "block if full" once the firmware has set up the
block (defmt-rtt starts non-blocking and treats blocking mode as "a host is attached"), so no byte is
ever lost: the firmware waits whenever the buffer is full until it is drained.
"""

import struct

ID = b'SEGGER RTT'
MODE_MASK = 3
MODE_BLOCK_IF_FULL = 2


class RttError(Exception):
    pass


class RttReader:
    def __init__(self, mem_read, mem_write, address, ram_start, ram_size):
        self.read, self.write = mem_read, mem_write
        self.address = address
        self.ram = (ram_start, ram_size)
        if not ram_start <= address < ram_start + ram_size - 48:
            raise RttError(f'_SEGGER_RTT at 0x{address:x} is not in SRAM')
        self.ready = False
        self.bytes = 0

    def u32(self, offset):
        return struct.unpack('<I', bytes(self.read(self.address + offset, 4)))[0]

    def check(self):
        """Whether the firmware has set up the control block (its id is in place)."""
        if self.ready:
            return True
        if bytes(self.read(self.address, len(ID))) != ID:
            return False
        up = self.u32(16)
        buffer, size = self.u32(24 + 4), self.u32(24 + 8)
        if up < 1:
            raise RttError('the RTT control block has no up channel')
        start, length = self.ram
        if size == 0 or not start <= buffer and buffer + size <= start + length:
            raise RttError(f'RTT up channel 0: buffer 0x{buffer:x} of {size} bytes is not in SRAM')
        self.buffer, self.size = buffer, size
        flags = self.u32(24 + 20)
        self.write(self.address + 24 + 20,
                   struct.pack('<I', (flags & ~MODE_MASK) | MODE_BLOCK_IF_FULL))
        self.ready = True
        self.consumed = self.u32(24 + 16)
        return True

    @property
    def write_offset_at(self):
        return self.address + 24 + 12

    @property
    def read_offset_at(self):
        return self.address + 24 + 16

    def take(self, until=None):
        """The bytes from what was taken last up to write offset `until` (the one now when None),
        without telling the firmware (see `commit`); None when there are none."""
        if not self.check():
            return None
        write = self.u32(24 + 12) if until is None else until
        read = self.consumed
        if write == read:
            return None
        if write >= self.size or read >= self.size:
            raise RttError(f'RTT up channel 0 offsets out of range (write {write}, read {read}, '
                           f'size {self.size})')
        if write > read:
            out = bytes(self.read(self.buffer + read, write - read))
        else:
            out = (bytes(self.read(self.buffer + read, self.size - read))
                   + bytes(self.read(self.buffer, write)))
        self.consumed = write
        self.bytes += len(out)
        return out

    def commit(self):
        """Moves the read offset to what was taken: the firmware may write over it now."""
        if self.ready:
            self.write(self.address + 24 + 16, struct.pack('<I', self.consumed))
