"""Just enough of defmt's wire format to know *when* the firmware logs certain messages, so that
the harness can act at that instant (take the LCD's picture, stop after N matches). The log itself
is decoded by `defmt-print`, never here.

defmt-rtt writes frames encoded with rzCOBS, each ending in 0x00. A decoded frame starts with the
format string's index (u16, little endian), then the arguments (the firmware has no timestamp).
"""


class DefmtError(Exception):
    pass


def rzcobs_decode(enc):
    """rzCOBS decoding, the inverse of defmt's encoder (defmt/src/encoding/rzcobs.rs): groups are
    read from the end of the frame backwards, each ending in its code byte:
    0x01..0x7f: seven positions, LSB first, a set bit a 0x00, a clear bit one byte of the group;
    0x80..0xfe: (code & 0x7f) + 7 bytes, then a 0x00; 0xff: 134 bytes."""
    groups = []
    i = len(enc)
    while i > 0:
        i -= 1
        x = enc[i]
        if x == 0:
            raise DefmtError('0x00 inside a frame')
        if x < 0x80:
            n = sum(1 for b in range(7) if not x & (1 << b))
            if i < n:
                raise DefmtError('frame shorter than its code byte says')
            data = enc[i - n:i]
            i -= n
            g, d = [], 0
            for b in range(7):
                if x & (1 << b):
                    g.append(0)
                else:
                    g.append(data[d])
                    d += 1
            groups.append(g)
        else:
            n = 134 if x == 0xff else (x & 0x7f) + 7
            if i < n:
                raise DefmtError('frame shorter than its code byte says')
            g = list(enc[i - n:i])
            if x != 0xff:
                g.append(0)
            i -= n
            groups.append(g)
    groups.reverse()
    return bytes(b for g in groups for b in g)


class FrameSplitter:
    """Splits the RTT byte stream into frames: on_frame(encoded) per complete frame."""

    def __init__(self, on_frame):
        self.on_frame = on_frame
        self.pending = bytearray()

    def push(self, data):
        start = 0
        while True:
            z = data.find(0, start)
            if z < 0:
                self.pending += data[start:]
                return
            self.pending += data[start:z]
            start = z + 1
            if self.pending:
                frame = bytes(self.pending)
                self.pending = bytearray()
                self.on_frame(frame)


def frame_index(decoded):
    if len(decoded) < 2:
        raise DefmtError('frame without an index')
    return decoded[0] | (decoded[1] << 8)


def u32_at(decoded, at):
    o = 2 + at
    if len(decoded) < o + 4:
        return None
    return int.from_bytes(decoded[o:o + 4], 'little')
