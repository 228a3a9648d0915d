"""A PNG of an RGB888 picture, scaled by a whole factor (zlib, no other library)."""

import struct
import zlib


def rgb_png(pixels, width, height, scale=1):
    rows = []
    for y in range(height):
        row = pixels[y * width * 3:(y + 1) * width * 3]
        if scale > 1:
            row = b''.join(row[x * 3:x * 3 + 3] * scale for x in range(width))
        rows.append(b'\0' + bytes(row))
    raw = b''.join(r for r in rows for _ in range(scale))

    def chunk(kind, data):
        body = kind + data
        return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)

    header = struct.pack('>IIBBBBB', width * scale, height * scale, 8, 2, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 6))
            + chunk(b'IEND', b''))
