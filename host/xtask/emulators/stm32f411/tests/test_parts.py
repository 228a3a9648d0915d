"""The harness's parts on their own: the ST7789 model and the target file's reader."""

import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))

from harness.st7789 import St7789, expand  # noqa: E402
from harness.target import Target, TargetError  # noqa: E402


def init(lcd, madctl=0):
    """mipidsi's ST7789 set-up: SLPOUT, MADCTL, INVON, COLMOD 16 bits, NORON, DISPON."""
    for cmd, args in ((0x11, b''), (0x36, bytes([madctl])), (0x21, b''), (0x3A, b'\x55'),
                      (0x13, b''), (0x29, b'')):
        lcd.feed(bytes([cmd]), False)
        if args:
            lcd.feed(args, True)


def window(lcd, x0, y0, x1, y1, pixels):
    lcd.feed(b'\x2a', False)
    lcd.feed(struct.pack('>HH', x0, x1), True)
    lcd.feed(b'\x2b', False)
    lcd.feed(struct.pack('>HH', y0, y1), True)
    lcd.feed(b'\x2c', False)
    lcd.feed(b''.join(struct.pack('>H', p) for p in pixels), True)


class St7789Test(unittest.TestCase):
    def test_flicker_is_a_pixel_written_in_a_colour_neither_frame_shows(self):
        lcd = St7789()
        init(lcd)
        window(lcd, 0, 0, 239, 239, [0x0000] * (240 * 240))
        window(lcd, 10, 10, 19, 19, [0xF800] * 100)  # a red square on black
        # A frame that sends only what changed, each pixel once in its final colour: no flicker.
        lcd.begin_frame()
        window(lcd, 10, 10, 10, 10, [0x0000])
        window(lcd, 30, 30, 31, 31, [0x07E0] * 4)
        self.assertEqual(lcd.end_frame()[1], 0)
        # A frame drawn as before: the whole panel cleared to black, then the picture again. Each
        # red or green pixel that stays so went through black (neither the frame before nor after
        # shows black there), and the black pixel at (10, 10) went through red: flicker, once a
        # pixel; the black pixels that stay black, none.
        lcd.begin_frame()
        window(lcd, 0, 0, 239, 239, [0x0000] * (240 * 240))
        window(lcd, 10, 10, 19, 19, [0xF800] * 100)
        window(lcd, 10, 10, 10, 10, [0x0000])
        window(lcd, 30, 30, 31, 31, [0x07E0] * 4)
        sent, flicker = lcd.end_frame()
        self.assertEqual(flicker, 99 + 4 + 1)
        self.assertEqual(sent, 240 * 240 * 2 + 100 * 2 + 2 + 8 + 4 * 11)  # 11 command bytes a window
        # A pixel that goes through a third colour on its way flickers too.
        lcd.begin_frame()
        window(lcd, 50, 50, 50, 50, [0x001F])
        window(lcd, 50, 50, 50, 50, [0xFFFF])
        self.assertEqual(lcd.end_frame()[1], 1)

    def test_a_window_fills_row_by_row_and_wraps(self):
        lcd = St7789()
        init(lcd)
        window(lcd, 0, 0, 239, 239, [0x0000] * (240 * 240))
        window(lcd, 10, 20, 11, 21, [0xF800, 0x07E0, 0x001F, 0xFFFF, 0x1234])
        px = lcd.rgb565()
        # The fifth pixel wrapped to the window's start, over the first.
        self.assertEqual(px[20 * 240 + 10], 0x1234)
        self.assertEqual(px[20 * 240 + 11], 0x07E0)
        self.assertEqual(px[21 * 240 + 10], 0x001F)
        self.assertEqual(px[21 * 240 + 11], 0xFFFF)
        self.assertEqual(px[20 * 240 + 12], 0)
        self.assertEqual(lcd.warnings, {})

    def test_the_panel_shows_gram_only_with_inversion_on_and_the_display_awake(self):
        lcd = St7789()
        init(lcd)
        window(lcd, 0, 0, 0, 0, [0xF800])
        self.assertEqual(lcd.rgb565()[0], 0xF800)
        lcd.feed(b'\x20', False)  # INVOFF: the normally-black IPS panel shows the complement
        self.assertEqual(lcd.rgb565()[0], 0x07FF)
        lcd.feed(b'\x28', False)  # DISPOFF
        self.assertEqual(lcd.rgb565()[0], 0)
        fresh = St7789()
        self.assertEqual(set(fresh.rgb565()), {0})  # asleep after power-on

    def test_madctl_mirrors_exchanges_and_swaps_red_and_blue(self):
        lcd = St7789()
        init(lcd, 0x40)  # MX: columns mirrored
        window(lcd, 0, 0, 0, 0, [0xF800])
        self.assertEqual(lcd.rgb565()[239], 0xF800)
        lcd = St7789()
        init(lcd, 0x20)  # MV: the column address runs down the rows
        window(lcd, 5, 7, 5, 7, [0x07E0])
        self.assertEqual(lcd.rgb565()[5 * 240 + 7], 0x07E0)
        lcd = St7789()
        init(lcd, 0x08)  # BGR
        window(lcd, 0, 0, 0, 0, [0xF800])
        self.assertEqual(lcd.rgb565()[0], 0x001F)

    def test_resets_and_unknown_commands(self):
        lcd = St7789()
        init(lcd)
        lcd.feed(b'\xB2', False)
        lcd.feed(b'\x0c\x0c', True)
        self.assertIn('unknown command 0xb2', lcd.warnings)
        lcd.feed(b'\x01', False)  # SWRESET: asleep, display off, inversion off
        self.assertFalse(lcd.lit())
        self.assertFalse(lcd.inverted)
        window(lcd, 0, 0, 0, 0, [1])
        self.assertIn('RAMWR while asleep (SLPOUT missing)', lcd.warnings)

    def test_picture_widens_as_embedded_graphics(self):
        self.assertEqual([expand(31, 5), expand(0, 5), expand(10, 6), expand(3, 5)], [255, 0, 40, 25])
        lcd = St7789()
        init(lcd)
        window(lcd, 0, 0, 0, 0, [(31 << 11) | (10 << 5) | 3])
        self.assertEqual(lcd.picture()[:3], bytes([255, 40, 25]))


class TargetTest(unittest.TestCase):
    def test_reads_what_xtask_hands_over(self):
        t = Target('{"segments": [{"addr": 134217728, "hex": "00ff10"}], "rtt": 536870912, '
                   '"pace": null, "formats": {"frame": 3, "start": 4}, '
                   '"functions": {"spi_write": 134218240, "other": null}, '
                   '"names": [[134218240, 16, "spi_write"], [134217984, 0, "reset"]]}')
        self.assertEqual(t.segments, [(0x08000000, b'\x00\xff\x10')])
        self.assertEqual(t.functions, {'spi_write': 0x08000200})
        self.assertEqual(t.function_at(0x08000204), 'spi_write+0x4')
        self.assertEqual(t.function_at(0x08000100), 'reset+0x0')  # size 0: its first address
        self.assertEqual(t.function_at(0x08000210), '?')
        self.assertEqual(t.function_at(0x08000000), '?')

    def test_bad_files_say_what_is_wrong(self):
        for text, says in (('{"segments": [', 'not JSON'), ('[1]', 'not a JSON object'),
                           ('{"rtt": 1}', 'no "segments"'),
                           ('{"segments": [], "functions": {"spi_write": "x"}}', 'functions.spi_write'),
                           ('{"segments": [{"addr": -1, "hex": ""}], "rtt": 1}', "segment 0's addr"),
                           ('{"segments": [{"addr": 1, "hex": "0G"}], "rtt": 1}', 'hex digits'),
                           ('{"segments": [{"addr": 1, "hex": "AB"}], "rtt": 1}', 'hex digits'),
                           ('{"segments": [], "rtt": 1, "names": [[1, 2]]}', 'names[0]')):
            with self.assertRaises(TargetError) as e:
                Target(text)
            self.assertIn(says, str(e.exception))


if __name__ == '__main__':
    unittest.main()
