#!/usr/bin/env python3
"""The Pocket Arena stm32f411 firmware on an emulated STM32F411CE (Black Pill) with an ST7789,
driven as a debug probe drives a board: xtask (host/xtask/src/drive.rs) sends one command a line on
stdin and reads one JSON reply a line on stdout. The harness models the hardware only; xtask reads
the RTT log through these commands, decodes defmt, decides when a picture is taken and when to stop.

  python f411.py --target FILE [--build DIR] [--count] [--spi-registers] [--deepest]

--target FILE: what to run, as xtask hands it over from the ELF (harness/target.py says its shape:
  the loadable segments, spi_write's address and the functions' names); the harness reads no ELF.
--count: DWT CYCCNT counts the instructions executed (a C hook on each; slower); without it
  CYCCNT advances by one a read, and costs in the log mean nothing.
--spi-registers: SPI1 modelled register by register (four hooked accesses a byte: slow), instead of
  taking each slice at the entry of stm32f4xx-hal's spi_write (used anyway when the ELF has no
  single such routine).
--deepest: the lowest stack pointer of the run and the function it was in (in the summary; a C
  hook on every instruction: slow).
--build DIR: where the C fast path (harness/fastpath.c) is compiled (default: a temp folder).

Once loaded it says {"ready": true}; then, each command's reply (an {"error": "..."} for a bad one):
  watch ADDR [RDOFF SIZE]  a watchpoint on the word at ADDR: the pin events carry its value, and
                     `run` stops where it changed, the LCD fed the SPI bytes before that point
                     only; RDOFF and SIZE when it is a ring's write offset (the core is stopped
                     before that ring is half full)                                       {}
  run CYCLES         runs until the watched word changed, the core halts or a second of wall
                     clock passes (CYCLES is not counted here): {"stop": "watch"|"budget"|"halt",
                     "cycles": instructions with --count, else CYCCNT reads, "value": the watched
                     word, and for "halt": "kind", "status", "message"}
  read ADDR LEN      {"hex": the bytes} (SRAM or flash)
  write ADDR HEX     {} (SRAM)
  display            {"ext": "ppm", "hex": the LCD's 240x240 picture as the panel shows it, a
                     binary PPM, RGB888; xtask writes the PNG}
  mark M T game|result  the SPI bus's frame of match M, turn T starts here (the counts per frame,
                     flicker included, are in the summary's `bus`)                      {}
  summary            what the hardware did: clocks, SPI1, the pins, the LCD, the bus, warnings
  quit               the harness's warnings on stderr, then exit 0 (also at the end of stdin)
ADDR, LEN, M and T are decimal. Exit status 2 for bad arguments or a bad target file.
"""

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from harness.board import F411, ProbeError  # noqa: E402
from harness.st7789 import HEIGHT, WIDTH  # noqa: E402
from harness.target import Target, TargetError  # noqa: E402


def say(msg):
    sys.stderr.write(f'emulator: {msg}\n')
    sys.stderr.flush()


def fail(status, msg):
    say(msg)
    sys.exit(status)


class Args(argparse.ArgumentParser):
    def error(self, message):
        fail(2, f'{message}\n{self.format_usage()}')


def number(v, what):
    try:
        n = int(v, 10)
    except (TypeError, ValueError):
        raise ProbeError(f'{what} is no whole number: {v}') from None
    if n < 0:
        raise ProbeError(f'{what} is no whole number: {v}')
    return n


def answer(board, line):
    """The reply to one command line."""
    cmd, *args = line.split()
    if cmd == 'watch':
        ring = (number(args[1], 'the read offset'), number(args[2], 'the size')) if len(args) >= 3 else None
        board.watch(number(args[0] if args else None, 'the address'), ring)
        return {}
    if cmd == 'run':
        stop, value = ('halt', None) if board.halted is not None else board.run(1.0)
        reply = {'stop': stop, 'cycles': board.cycles()}
        if board.watched is not None:
            reply['value'] = board.reported if value is None else value
        if stop == 'halt':
            h = board.halted
            reply.update({'kind': h.kind, 'status': h.status, 'message': h.message})
        return reply
    if cmd == 'read':
        return {'hex': board.read(number(args[0] if args else None, 'the address'),
                                  number(args[1] if len(args) > 1 else None, 'the length')).hex()}
    if cmd == 'write':
        h = args[1] if len(args) > 1 else ''
        try:
            data = bytes.fromhex(h)
        except ValueError:
            raise ProbeError('the bytes are no run of hex digits') from None
        board.write(number(args[0] if args else None, 'the address'), data)
        return {}
    if cmd == 'display':
        ppm = b'P6\n%d %d\n255\n' % (WIDTH, HEIGHT) + bytes(board.lcd.picture())
        return {'ext': 'ppm', 'hex': ppm.hex()}
    if cmd == 'mark':
        if len(args) < 3 or args[2] not in ('game', 'result'):
            raise ProbeError('mark M T game|result')
        board.mark(number(args[0], 'the match'), number(args[1], 'the turn'), args[2])
        return {}
    if cmd == 'summary':
        return board.summary()
    raise ProbeError(f'unknown command {cmd!r} (watch, run, read, write, display, mark, summary, quit)')


def main():
    p = Args(prog='f411.py', add_help=True)
    p.add_argument('--target', required=True)
    p.add_argument('--count', action='store_true')
    p.add_argument('--spi-registers', action='store_true')
    p.add_argument('--deepest', action='store_true')
    p.add_argument('--build')
    opts = p.parse_args()
    try:
        with open(opts.target, 'rb') as f:
            text = f.read()
    except OSError as e:
        fail(2, f'cannot read {opts.target}: {e.strerror}')
    build = opts.build or os.path.join(tempfile.gettempdir(), f'arena-f411-{os.getuid()}')
    try:
        board = F411(Target(text), opts, build)
    except TargetError as e:
        fail(2, f'{opts.target}: {e}')
    out = sys.stdout

    def send(reply):
        out.write(json.dumps(reply, separators=(',', ':')) + '\n')
        out.flush()

    send({'ready': True})
    for line in sys.stdin:
        line = line.strip()
        if line == 'quit':
            break
        if not line:
            continue
        try:
            send(answer(board, line))
        except ProbeError as e:
            send({'error': str(e)})
    for w, n in board.warnings.items():
        say(f'{w}{f" ({n} times)" if n > 1 else ""}')
    for w, n in board.lcd.warnings.items():
        say(f'ST7789: {w}{f" ({n} times)" if n > 1 else ""}')


if __name__ == '__main__':
    try:
        main()
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # noqa: BLE001 - a harness bug: said as one, with its traceback
        import traceback
        traceback.print_exc()
        fail(2, f'internal error: {e!r}')
