#!/usr/bin/env python3
"""The Pocket Arena stm32f411 firmware on an emulated STM32F411CE (Black Pill) with an ST7789.

  python f411.py --target FILE [--matches N] [--frames DIR] [--every N] [--summary FILE]
                 [--timeout SECONDS] [--silence SECONDS] [--count] [--build DIR]

--target FILE: what to run, as xtask hands it over from the ELF (harness/target.py says its shape:
  the loadable segments, the address of _SEGGER_RTT, the defmt indices of the log lines the
  harness acts on, spi_write's address and the functions' names); the harness reads no ELF.
stdout: the RTT up-channel 0, byte for byte as a probe reads it (pipe it to `defmt-print -e ELF`).
stderr: what the harness says, each line starting with "emulator:".
--frames DIR: each frame the firmware announces ("frame m=.. t=.. k=.." in its log) as
  DIR/frame-NNNN.ppm (the LCD's 240x240 frame buffer as the panel shows it: a binary PPM, RGB888;
  xtask writes the PNG from it) and a line of DIR/frames.jsonl (whose `png` names that PNG); with --every N, the picture after every N-th turn of each match too (taken when
  the firmware logs the next turn's digest, so it needs a digest every turn).
--count: DWT CYCCNT counts the instructions executed (a C hook on each; slower); without it
  CYCCNT advances by one a read, and costs in the log mean nothing.
--spi-registers: SPI1 modelled register by register (four hooked accesses a byte: slow), instead of
  taking each slice at the entry of stm32f4xx-hal's spi_write (used anyway when the ELF has no
  single such routine).
--frames-max N: stop (status 0) once N frames have been announced.
--deepest: the lowest stack pointer of the run and the function it was in (in the summary; a C
  hook on every instruction: slow).
--build DIR: where the C fast path (harness/fastpath.c) is compiled (default: a temp folder).
Exit status: 0 when N matches were played; 1 when the firmware faulted (a panic ends in a
HardFault), touched an address no model answers or set the chip up wrongly; 2 for bad arguments or
a bad target file; 3 when the run timed out: --timeout seconds of wall clock (default 900) or --silence
seconds without a log line (default 60).
"""

import argparse
import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from harness.board import F411  # noqa: E402
from harness.defmt import DefmtError  # noqa: E402
from harness.rtt import RttError  # noqa: E402
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


def main():
    p = Args(prog='f411.py', add_help=True)
    p.add_argument('--target', required=True)
    p.add_argument('--matches', type=int)
    p.add_argument('--frames')
    p.add_argument('--every', type=int)
    p.add_argument('--summary')
    p.add_argument('--timeout', type=float, default=900)
    p.add_argument('--silence', type=float, default=60)
    p.add_argument('--count', action='store_true')
    p.add_argument('--spi-registers', action='store_true')
    p.add_argument('--deepest', action='store_true')
    p.add_argument('--frames-max', type=int)
    p.add_argument('--build')
    p.add_argument('--chunk', type=float, default=1.0)
    opts = p.parse_args()
    for name in ('matches', 'every', 'frames_max'):
        v = getattr(opts, name)
        if v is not None and v < 0:
            fail(2, f'--{name.replace("_", "-")} must be a whole number, not {v}')
    try:
        with open(opts.target, 'rb') as f:
            text = f.read()
    except OSError as e:
        fail(2, f'cannot read {opts.target}: {e.strerror}')
    if opts.frames:
        os.makedirs(opts.frames, exist_ok=True)
        open(os.path.join(opts.frames, 'frames.jsonl'), 'w').close()
    out = sys.stdout.buffer
    broken = []

    def on_log(data):
        if broken:
            return
        try:
            out.write(data)
        except (BrokenPipeError, OSError) as e:
            broken.append(e)

    def on_frame(k, f):
        name = f'frame-{k:04d}.png'
        with open(os.path.join(opts.frames, f'frame-{k:04d}.ppm'), 'wb') as ppm:
            ppm.write(b'P6\n%d %d\n255\n' % (WIDTH, HEIGHT) + bytes(f['picture']))
        with open(os.path.join(opts.frames, 'frames.jsonl'), 'a') as j:
            j.write(json.dumps({'k': k, 'm': f['m'], 't': f['t'], 'announced': f['announced'],
                                'instructions': f['instructions'], 'png': name}) + '\n')

    opts.on_log = on_log
    opts.on_frame = on_frame if opts.frames else None
    build = opts.build or os.path.join(tempfile.gettempdir(), f'arena-f411-{os.getuid()}')
    on_log(b'\0')  # defmt-rtt's leading frame separator
    try:
        board = F411(Target(text), opts, build)
    except (TargetError, DefmtError, RttError) as e:
        fail(2, f'{opts.target}: {e}')

    started = time.monotonic()
    while board.halted is None:
        board.step(opts.chunk)
        try:
            out.flush()
        except (BrokenPipeError, OSError) as e:
            broken.append(e)
        now = time.monotonic()
        if broken:
            board.halt('output', 2, f'stdout closed: {broken[0]}')
        elif now - started > opts.timeout:
            board.halt('timeout', 3, f'timed out after {opts.timeout:.0f} s (wall clock)')
        elif now - board.last_log > opts.silence:
            board.halt('silent', 3, f'the firmware has logged nothing for {opts.silence:.0f} s of '
                       'wall clock')
    board.drain()
    wall = time.monotonic() - started
    h = board.halted
    summary = {'status': h.status, 'kind': h.kind, 'message': h.message, 'wallSeconds': wall,
               **board.summary()}
    if board.splitter.pending:
        summary['unfinishedLogBytes'] = len(board.splitter.pending)
    if opts.summary:
        with open(opts.summary, 'w') as f:
            json.dump(summary, f, indent=2)
            f.write('\n')
    for w, n in board.warnings.items():
        say(f'{w}{f" ({n} times)" if n > 1 else ""}')
    for w, n in board.lcd.warnings.items():
        say(f'ST7789: {w}{f" ({n} times)" if n > 1 else ""}')
    speed = ''
    if summary['instructions'] is not None:
        speed = f'{summary["instructions"]} instructions ({summary["instructions"] / 1e6 / max(wall, 1e-3):.0f} M/s), '
    say(f'{"" if h.kind == "done" else "stopped: "}{h.message}; {speed}{wall:.1f} s, '
        f'{summary["logFrames"]} log frames, {summary["frames"]} frames announced, '
        f'{summary["spi"]["bytes"]} SPI bytes')
    try:
        out.flush()
    except (BrokenPipeError, OSError):
        pass
    sys.exit(h.status)


if __name__ == '__main__':
    try:
        main()
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # noqa: BLE001 - a harness bug: said as one, with its traceback
        import traceback
        traceback.print_exc()
        fail(2, f'internal error: {e!r}')
