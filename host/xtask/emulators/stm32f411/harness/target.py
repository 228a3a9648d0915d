"""What the harness is given to run, as a debug probe is given it: xtask reads the ELF (its one ELF
reader, host/xtask/src/elf.rs; probe.rs writes this) and hands over a JSON file (`--target FILE`):

  { "segments": [{"addr": N, "hex": "..."}, ...],  the loadable segments at their load addresses
    "functions": {"spi_write": N | null},           the one routine SPI bytes go through, if one
    "names": [[address, size, name], ...],          the functions, sorted: for naming a PC
    ... }                                           (what else the file holds is xtask's own: the
                                                    harness knows no log format)

A file that does not have this shape is a TargetError that says what is wrong.
"""

import bisect
import json

class TargetError(Exception):
    pass


def _address(v, what):
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 0xffffffff:
        raise TargetError(f'{what} is no 32-bit address: {json.dumps(v)}')
    return v


class Target:
    def __init__(self, text):
        try:
            j = json.loads(text)
        except ValueError as e:
            raise TargetError(f'not JSON: {e}') from None
        if not isinstance(j, dict):
            raise TargetError('not a JSON object')
        if not isinstance(j.get('segments'), list):
            raise TargetError('no "segments" list')
        self.segments = []
        for i, s in enumerate(j['segments']):
            if not isinstance(s, dict):
                raise TargetError(f'segment {i} is no object')
            addr = _address(s.get('addr'), f"segment {i}'s addr")
            h = s.get('hex')
            try:
                if not isinstance(h, str) or h != h.lower():
                    raise ValueError
                data = bytes.fromhex(h)
            except ValueError:
                raise TargetError(f"segment {i}'s hex is no even run of lowercase hex digits") from None
            self.segments.append((addr, data))
        functions = j.get('functions') or {}
        if not isinstance(functions, dict):
            raise TargetError('"functions" is no object')
        self.functions = {k: _address(v, f'functions.{k}') for k, v in functions.items()
                          if v is not None}
        self._names = []
        for i, n in enumerate(j.get('names') or []):
            if (not isinstance(n, list) or len(n) != 3 or not isinstance(n[2], str)):
                raise TargetError(f'names[{i}] is no [address, size, name]')
            start = _address(n[0], f'names[{i}] address')
            size = _address(n[1], f'names[{i}] size')
            self._names.append((start, start + max(size, 1), n[2]))
        self._names.sort()

    def function_at(self, address):
        """The name of the function whose code holds `address` (+offset), or '?'."""
        i = bisect.bisect_right(self._names, (address, 0xffffffff + 2, '')) - 1
        if i >= 0:
            start, end, name = self._names[i]
            if start <= address < end:
                return f'{name}+0x{address - start:x}'
        return '?'
