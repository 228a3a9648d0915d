"""An ST7789 (Sitronix ST7789V datasheet, v1.6) as a 240x240 module wires it: 240x320 of GRAM, of
which the panel shows columns 0-239 and rows 0-239; 4-line serial interface (D/C# pin), RGB565.

What is modelled: hardware reset (RST low), SWRESET, SLPIN/SLPOUT, NORON/PTLON, INVOFF/INVON,
DISPOFF/DISPON, CASET/RASET (the window), RAMWR/RAMWRC (pixels fill the window row by row and wrap
to its start), MADCTL (MY, MX, MV row/column exchange, RGB/BGR order), COLMOD (16 bits a pixel;
any other format is reported and its pixels ignored), TEON/TEOFF, VSCRDEF/VSCSAD, IDMON/IDMOFF,
GAMSET and the brightness commands (accepted, no effect on the picture), NOP. Anything else is
reported as an unknown command with its argument bytes ignored. GRAM holds noise at power-on, as
a real panel's does.

Frames, as a logic analyser on the bus would count them: between `begin_frame` and `end_frame`
the model counts the bytes it is sent and the flicker pixels: pixels written with a colour that
is neither what the panel showed at the frame's start nor what it shows at its end (a clear to
the background under a piece that stays is one; a pixel written once, in its final colour, never
is).

The picture: the panels sold as 240x240 ST7789 modules are IPS, normally black: they show the
GRAM's colours only with display inversion on (INVON), and their complement with it off; a
display that is off or asleep shows black.
"""

import array
import sys

WIDTH = 240
HEIGHT = 240
GRAM_COLS = 240
GRAM_ROWS = 320
SHOWN = WIDTH * HEIGHT * 2  # the GRAM bytes the panel shows (rows 0-239)

# Commands with a fixed number of argument bytes.
ARGS = {
    0x00: ('NOP', 0), 0x01: ('SWRESET', 0), 0x10: ('SLPIN', 0), 0x11: ('SLPOUT', 0),
    0x12: ('PTLON', 0), 0x13: ('NORON', 0), 0x20: ('INVOFF', 0), 0x21: ('INVON', 0),
    0x26: ('GAMSET', 1), 0x28: ('DISPOFF', 0), 0x29: ('DISPON', 0), 0x2A: ('CASET', 4),
    0x2B: ('RASET', 4), 0x30: ('PTLAR', 4), 0x33: ('VSCRDEF', 6), 0x34: ('TEOFF', 0),
    0x35: ('TEON', 1), 0x36: ('MADCTL', 1), 0x37: ('VSCSAD', 2), 0x38: ('IDMOFF', 0),
    0x39: ('IDMON', 0), 0x3A: ('COLMOD', 1), 0x51: ('WRDISBV', 1), 0x53: ('WRCTRLD', 1),
    0x55: ('WRCACE', 1),
}
# The commands that only turn one of the panel's states on or off: (attribute, value).
SWITCHES = {
    'SLPIN': ('sleeping', True), 'SLPOUT': ('sleeping', False),
    'INVOFF': ('inverted', False), 'INVON': ('inverted', True),
    'DISPOFF': ('display_on', False), 'DISPON': ('display_on', True),
}
RAMWR = 0x2C
RAMWRC = 0x3C


def expand(value, bits):
    """A colour channel widened to 8 bits as embedded-graphics converts Rgb565 to Rgb888."""
    top = (1 << bits) - 1
    return (value * 255 + top // 2) // top


# RGB565 -> RGB888 bytes, for every 16-bit value.
_RGB = [bytes((expand(v >> 11, 5), expand((v >> 5) & 0x3f, 6), expand(v & 0x1f, 5)))
        for v in range(65536)]


class St7789:
    def __init__(self, seed=0x5EED):
        # Power-on GRAM: noise (a fixed sequence, so runs are reproducible).
        x = seed & 0xffffffff or 1
        noise = bytearray(GRAM_COLS * GRAM_ROWS * 2)
        for i in range(0, len(noise), 4):
            x ^= (x << 13) & 0xffffffff
            x ^= x >> 17
            x ^= (x << 5) & 0xffffffff
            noise[i:i + 4] = x.to_bytes(4, 'little')
        self.gram = noise
        self.warnings = {}
        self.commands = [0] * 256
        self.bytes = 0
        self.pixels = 0
        self.resets = 0
        self.writes = None  # the frame's GRAM writes, (offset, bytes), while a frame is open
        self.prev = b''
        self.frame_bytes_at = 0
        self.reset()

    def warn(self, what):
        self.warnings[what] = self.warnings.get(what, 0) + 1

    def reset(self):
        """Hardware or software reset: the registers to their reset values (GRAM kept)."""
        self.resets += 1
        self.sleeping = True
        self.display_on = False
        self.inverted = False
        self.idle = False
        self.madctl = 0
        self.colmod = 0x66
        self.xs, self.xe = 0, GRAM_COLS - 1
        self.ys, self.ye = 0, GRAM_ROWS - 1
        self.scroll_start = 0
        self.command = None
        self.args = bytearray()
        self.need = 0
        self.writing = False
        self.pending = b''

    def feed(self, data, dc):
        """Bytes sent with CS low, D/C# at `dc` (False: command, True: parameter or pixel data)."""
        self.bytes += len(data)
        if not dc:
            for b in data:
                self.start(b)
            return
        if self.writing:
            self.write_pixels(data)
            return
        if self.need == 4 and len(data) == 4:
            # The window commands' four bytes, the most common case: at once.
            self.args = data
            self.need = 0
            self.apply()
            return
        i = 0
        while i < len(data):
            if self.need > 0:
                take = min(self.need, len(data) - i)
                self.args += data[i:i + take]
                self.need -= take
                i += take
                if self.need == 0:
                    self.apply()
            else:
                self.warn(f'{len(data) - i} data bytes after command 0x{(self.command or 0):02x} '
                          'and its arguments')
                return

    def start(self, cmd):
        if self.writing and self.pending:
            self.warn('a pixel write ended with half a pixel')
        self.writing = False
        self.pending = b''
        self.commands[cmd] += 1
        self.command = cmd
        if cmd == 0x2A or cmd == 0x2B:
            self.need = 4
            self.args = bytearray()
            return
        self.args = bytearray()
        if cmd in (RAMWR, RAMWRC):
            if self.sleeping:
                self.warn('RAMWR while asleep (SLPOUT missing)')
            if self.colmod & 0x07 != 0x05:
                self.warn(f'pixels with COLMOD 0x{self.colmod:02x} (only 16 bits a pixel, 0x55, is modelled)')
            if cmd == RAMWR or not hasattr(self, 'col'):
                self.col, self.row = self.xs, self.ys
            self.writing = True
            return
        if cmd not in ARGS:
            self.warn(f'unknown command 0x{cmd:02x}')
            self.need = 0
            return
        self.need = ARGS[cmd][1]
        if self.need == 0:
            self.apply()

    def apply(self):
        cmd, a = self.command, self.args
        name = ARGS[cmd][0]
        if name == 'SWRESET':
            commands, warnings = self.commands, self.warnings
            self.reset()
            self.commands, self.warnings = commands, warnings
        elif name in SWITCHES:
            attr, on = SWITCHES[name]
            setattr(self, attr, on)
        elif name == 'CASET':
            self.xs, self.xe = (a[0] << 8) | a[1], (a[2] << 8) | a[3]
        elif name == 'RASET':
            self.ys, self.ye = (a[0] << 8) | a[1], (a[2] << 8) | a[3]
        elif name == 'MADCTL':
            self.madctl = a[0]
        elif name == 'COLMOD':
            self.colmod = a[0]
        elif name == 'VSCSAD':
            self.scroll_start = (a[0] << 8) | a[1]
            if self.scroll_start:
                self.warn('vertical scrolling (VSCSAD) is not shown in the picture')
        elif name == 'IDMON':
            self.idle = True
            self.warn('idle mode (8 colours) is not shown in the picture')
        elif name == 'IDMOFF':
            self.idle = False
        elif name == 'PTLON':
            self.warn('partial mode is not shown in the picture')

    def limits(self):
        """Column and row counts of the address space as MADCTL's MV sees it."""
        return (GRAM_ROWS, GRAM_COLS) if self.madctl & 0x20 else (GRAM_COLS, GRAM_ROWS)

    def write_pixels(self, data):
        if self.pending:
            data = self.pending + bytes(data)
            self.pending = b''
        if len(data) & 1:
            self.pending = bytes(data[-1:])
            data = data[:-1]
        if self.colmod & 0x07 != 0x05 or not data:
            return
        n = len(data) // 2
        self.pixels += n
        cols, rows = self.limits()
        if self.xs > self.xe or self.ys > self.ye:
            self.warn('pixels into an empty window (start past end)')
            return
        gram = self.gram
        fast = self.madctl & 0xE0 == 0 and self.xe < cols
        i = 0
        while i < n:
            if fast:
                # Row by row: as many pixels as are left in this row of the window.
                take = min(self.xe - self.col + 1, n - i)
                if self.row < rows:
                    o = (self.row * GRAM_COLS + self.col) * 2
                    piece = data[i * 2:(i + take) * 2]
                    gram[o:o + take * 2] = piece
                    if self.writes is not None and o < SHOWN:
                        self.writes.append((o, bytes(piece)))
                self.col += take
                i += take
            else:
                self.put(self.col, self.row, data[i * 2:i * 2 + 2])
                self.col += 1
                i += 1
            if self.col > self.xe:
                self.col = self.xs
                self.row += 1
                if self.row > self.ye:
                    self.row = self.ys

    def put(self, c, r, two):
        """One pixel at logical column c, row r, through MADCTL's address mapping."""
        m = self.madctl
        pc, pr = (r, c) if m & 0x20 else (c, r)
        if pc >= GRAM_COLS or pr >= GRAM_ROWS:
            return
        if m & 0x40:
            pc = GRAM_COLS - 1 - pc
        if m & 0x80:
            pr = GRAM_ROWS - 1 - pr
        o = (pr * GRAM_COLS + pc) * 2
        self.gram[o:o + 2] = two
        if self.writes is not None and o < SHOWN:
            self.writes.append((o, bytes(two)))

    def begin_frame(self):
        """A frame starts: what the panel shows now is its `previous`."""
        self.prev = bytes(self.gram[:SHOWN])
        self.writes = []
        self.frame_bytes_at = self.bytes

    def end_frame(self):
        """The frame ends: (bytes sent in it, flicker pixels), a flicker pixel being one written
        with a colour that is neither what it showed at the frame's start nor what it shows now
        (each pixel counted once however often it flickered)."""
        if self.writes is None:
            return 0, 0
        final = bytes(self.gram[:SHOWN])
        prev = self.prev
        flicker = set()
        for o, d in self.writes:
            n = min(len(d), SHOWN - o)
            if d[:n] == final[o:o + n] or d[:n] == prev[o:o + n]:
                continue  # the usual case: every pixel of the piece in its final colour
            for k in range(0, n - 1, 2):
                two = d[k:k + 2]
                at = o + k
                if two != prev[at:at + 2] and two != final[at:at + 2]:
                    flicker.add(at)
        sent = self.bytes - self.frame_bytes_at
        self.writes = None
        return sent, len(flicker)

    def lit(self):
        return self.display_on and not self.sleeping

    def rgb565(self):
        """The picture as 240x240 RGB565 values, row by row, as the panel shows it."""
        if not self.lit():
            return [0] * (WIDTH * HEIGHT)
        shown = array.array('H', bytes(self.gram[:GRAM_COLS * HEIGHT * 2]))  # GRAM_COLS == WIDTH
        if sys.byteorder == 'little':
            shown.byteswap()  # the wire's order is big endian
        out = shown.tolist()
        if not self.inverted:
            out = [v ^ 0xffff for v in out]
        if self.madctl & 0x08:
            out = [((v & 0x1f) << 11) | (v & 0x07e0) | (v >> 11) for v in out]
        return out

    def picture(self):
        """The picture as 240x240 RGB888 bytes, row by row (embedded-graphics' widening)."""
        return b''.join(_RGB[v] for v in self.rgb565())

    def state(self):
        return {
            'displayOn': self.display_on, 'sleeping': self.sleeping, 'inverted': self.inverted,
            'madctl': self.madctl, 'colmod': self.colmod, 'resets': self.resets,
            'bytes': self.bytes, 'pixels': self.pixels,
            'commands': {f'0x{k:02x}': v for k, v in enumerate(self.commands) if v},
            'warnings': self.warnings,
        }
