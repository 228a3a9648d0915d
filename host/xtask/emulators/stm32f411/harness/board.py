"""The emulated STM32F411CE: Unicorn's Cortex-M4 with the release ELF's segments in its flash (as
xtask read them from the ELF, see target.py), models of the peripherals the firmware touches
(RM0383, the STM32F411 reference manual, and the Cortex-M4 generic user guide for the core's own),
an ST7789 on SPI1, and what a debug probe has: a (sampled) watchpoint, memory reads and writes. It
knows no log format: xtask reads the RTT log through the probe (host/xtask/src/rtt.rs).

Memory: flash at 0x08000000 (512 KB, read-only, aliased at 0 as BOOT0 low maps it), SRAM at
0x20000000 (128 KB). Peripherals, each a model with its registers' reset values:
- RCC (0x40023800): HSI/HSE/PLL/PLLI2S ready bits follow their ON bits, SWS follows SW once the
  source is ready; the clock tree is computed when the PLL is selected (VCO input 1-2 MHz, VCO
  100-432 MHz, SYSCLK at most 100 MHz, APB1 at most 50 MHz) and checked against FLASH ACR's wait
  states and PWR's voltage scale (RM0383 3.4.1 table 5, 5.1.4);
- FLASH interface (0x40023C00: ACR), PWR (0x40007000: CR, CSR);
- GPIOA and GPIOB (0x40020000, 0x40020400): MODER, OTYPER, OSPEEDR, PUPDR, IDR, ODR, BSRR, LCKR,
  AFRL, AFRH; each access needs the port's clock (RCC AHB1ENR);
- SPI1 (0x40013000): CR1, CR2, SR (TXE, RXNE, BSY, OVR), DR, CRCPR, in C (fastpath.c); its bytes
  reach the LCD only while SCK (PA5) and MOSI (PA7) are in alternate function 5;
- the bit-band alias of the peripherals (0x42000000), as stm32f4xx-hal sets RCC enable bits;
- the core's: SysTick (CTRL with COUNTFLAG, LOAD, VAL, CALIB), DWT (CTRL, CYCCNT), DCB DEMCR,
  SCB (CPUID, ICSR, VTOR, AIRCR, SCR, CCR, SHPR, SHCSR, CFSR, HFSR, CPACR), FPU FPCCR/FPCAR, NVIC.
Any access to an address no model answers stops the run with the address, the PC and its symbol.

The LCD: an ST7789 on SPI1 with D/C on PB0, CS on PA4 and RST on PB1 (st7789.py). Its bus a frame at
a time (BusFrames: a frame from the log line before the loop draws it, `start`, `digest` or
`final`, to the next): bytes, transactions (CS driven low) and flicker pixels, in the summary's
`bus`. The turn clock:
with `count`, DWT CYCCNT is the number of instructions executed (a C hook on every instruction);
without, CYCCNT advances by one a read (the digest runs, where no cost is measured).
"""

import ctypes
import os
import struct
import subprocess
import time

import unicorn as U
from unicorn import arm_const as A

from .st7789 import St7789
from .target import TargetError

FLASH = 0x08000000
FLASH_SIZE = 512 * 1024
SRAM = 0x20000000
SRAM_SIZE = 128 * 1024
PERIPH = 0x40000000
BITBAND = 0x42000000
PPB = 0xE0000000

HSI_HZ = 16_000_000
HSE_HZ = 25_000_000  # the Black Pill's crystal

GPIO = 0x40020000
SPI1 = 0x40013000
SPI_BUFFER = 8 * 1024 * 1024
EVENTS = 1 << 20


def _uclib():
    """Unicorn's own library (its functions are handed to the C fast path)."""
    try:
        from unicorn.unicorn_py3 import unicorn as u
    except ImportError:  # the layout of other 2.x releases
        from unicorn import unicorn as u
    return u.uclib


class ProbeError(Exception):
    pass


class Halt(Exception):
    def __init__(self, kind, status, message):
        super().__init__(message)
        self.kind, self.status, self.message = kind, status, message


class ModelError(Exception):
    """An access no model answers, or one a real chip would not take as the firmware meant it."""


def fastpath_library(build_dir):
    """fastpath.c built (once per change) into build_dir."""
    src = os.path.join(os.path.dirname(__file__), 'fastpath.c')
    os.makedirs(build_dir, exist_ok=True)
    lib = os.path.join(build_dir, 'fastpath.so')
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        tmp = f'{lib}.{os.getpid()}'
        r = subprocess.run(['cc', '-O2', '-shared', '-fPIC', '-o', tmp, src],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f'cc could not build {src}: {r.stderr}')
        os.replace(tmp, lib)
    return ctypes.CDLL(lib)


class Registers:
    """A block of 32-bit registers: reset values, and offsets nothing else answers."""

    def __init__(self, name, regs):
        self.name = name
        self.names = {o: n for o, (n, _) in regs.items()}
        self.values = {o: v for o, (_, v) in regs.items()}

    def has(self, offset):
        return offset & ~3 in self.values


class BusFrames:
    """The LCD's bus a frame at a time, as a logic analyser would count it: bytes, transactions
    (chip selects) and flicker pixels of every frame, and per match their median and maximum."""

    def __init__(self):
        self.open = None  # (m, t, kind, transactions at its start)
        self.matches = {}
        self.game_bytes = []  # every game frame's bytes
        self.flicker_frames = []
        self.frames = 0
        self.flicker = 0

    def boundary(self, board, m, t, kind):
        if self.open is not None:
            om, ot, okind, tr0 = self.open
            sent, flicker = board.lcd.end_frame()
            row = self.matches.setdefault(om, {'bytes': [], 'transactions': [], 'flicker': 0,
                                               'resultBytes': 0})
            if okind == 'game':
                row['bytes'].append(sent)
                self.game_bytes.append(sent)
                row['transactions'].append(board.transactions - tr0)
            else:
                row['resultBytes'] = sent
            row['flicker'] += flicker
            self.frames += 1
            self.flicker += flicker
            if flicker and len(self.flicker_frames) < 50:
                self.flicker_frames.append({'m': om, 't': ot, 'kind': okind, 'pixels': flicker})
        board.lcd.begin_frame()
        self.open = (m, t, kind, board.transactions)

    def summary(self):
        def stats(xs):
            xs = sorted(xs)
            if not xs:
                return {'n': 0, 'median': 0, 'max': 0, 'total': 0}
            return {'n': len(xs), 'median': xs[len(xs) // 2], 'max': xs[-1], 'total': sum(xs)}
        return {'frames': self.frames, 'flickerPixels': self.flicker,
                'gameFrameBytes': stats(self.game_bytes),
                'flickerFrames': self.flicker_frames,
                'matches': [{'m': m, 'bytes': stats(r['bytes']),
                             'transactions': stats(r['transactions']),
                             'resultBytes': r['resultBytes'], 'flickerPixels': r['flicker']}
                            for m, r in sorted(self.matches.items())]}


def bits(value, lo, n):
    return (value >> lo) & ((1 << n) - 1)


class F411:
    def __init__(self, target, opts, build_dir):
        self.opts = opts
        self.target = target
        self.halted = None
        self.warnings = {}
        self.touched = {}
        self.fp = fastpath_library(build_dir)
        self.uc = U.Uc(U.UC_ARCH_ARM, U.UC_MODE_THUMB | U.UC_MODE_MCLASS)
        self.uc.ctl_set_cpu_model(A.UC_CPU_ARM_CORTEX_M4)
        self.map_memory()
        self.load()
        self.models()
        self.lcd = St7789()
        self.code = 0
        self.spi_to_lcd = 0
        self.spi_lost = 0
        self.events_seen = 0
        self.transactions = 0
        self.bus = BusFrames()
        self.clocks = {'sysclk': HSI_HZ, 'source': 'HSI'}
        self.reads_of_cyccnt = 0

        # The watched word (none yet), the value last reported, and the replay of the last
        # stretch's SPI bytes and pin events: [bytes, events, next event, bytes fed, paused at].
        self.watched = None
        self.reported = 0
        self.pending = None
        self.start_core()

    # ----- memory -----

    def map_memory(self):
        uc = self.uc
        self.flash = ctypes.create_string_buffer(b'\xff' * FLASH_SIZE, FLASH_SIZE)
        ptr = ctypes.addressof(self.flash)
        rx = U.UC_PROT_READ | U.UC_PROT_EXEC
        uc.mem_map_ptr(FLASH, FLASH_SIZE, rx, ptr)
        uc.mem_map_ptr(0, FLASH_SIZE, rx, ptr)  # the boot alias (BOOT0 low: main flash at 0)
        uc.mem_map(SRAM, SRAM_SIZE)
        uc.hook_add(U.UC_HOOK_MEM_UNMAPPED | U.UC_HOOK_MEM_PROT, self.on_unmapped)
        uc.hook_add(U.UC_HOOK_INTR, self.on_exception)

        # GPIOA/GPIOB in C; SPI1's registers as memory, its bytes taken by a hook in C.
        fp = self.fp
        lib = _uclib()
        self.uclib = lib
        self.spi_buffer = ctypes.create_string_buffer(SPI_BUFFER)
        self.event_buffer = (ctypes.c_uint32 * (EVENTS * 3))()
        fp.fp_setup.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_void_p, ctypes.c_uint64,
                                                         ctypes.c_void_p, ctypes.c_uint64]
        fp.fp_setup(ctypes.cast(lib.uc_emu_stop, ctypes.c_void_p),
                    ctypes.cast(lib.uc_mem_read, ctypes.c_void_p),
                    ctypes.cast(lib.uc_reg_read, ctypes.c_void_p),
                    ctypes.addressof(self.spi_buffer), SPI_BUFFER,
                    ctypes.addressof(self.event_buffer), EVENTS)
        mmio = lib.uc_mmio_map
        mmio.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p,
                         ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        mmio.restype = ctypes.c_int
        st = mmio(uc._uch, GPIO, 0x1000, ctypes.cast(fp.gpio_read, ctypes.c_void_p), None,
                  ctypes.cast(fp.gpio_write, ctypes.c_void_p), None)
        if st != 0:
            raise RuntimeError(f'uc_mmio_map for GPIOA/GPIOB failed ({st})')
        hook = lib.uc_hook_add
        hook.restype = ctypes.c_int

        def code_hook(fn, begin, end, what):
            # A C hook on the instructions from begin to end (1, 0: every instruction).
            h = ctypes.c_size_t()
            st = hook(uc._uch, ctypes.byref(h), ctypes.c_int(U.UC_HOOK_CODE),
                      ctypes.cast(fn, ctypes.c_void_p), None,
                      ctypes.c_uint64(begin), ctypes.c_uint64(end))
            if st != 0:
                raise RuntimeError(f'uc_hook_add for {what} failed ({st})')

        writer = self.target.functions.get('spi_write')
        self.spi_path = 'slices' if writer is not None and not self.opts.spi_registers else 'registers'
        if self.spi_path == 'slices':
            # Every byte goes through one routine: SPI1's registers as memory (SR reads TXE|RXNE),
            # the slices taken at the routine's entry.
            uc.mem_map(SPI1, 0x400)
            st = mmio(uc._uch, SPI1 + 0x400, 0xC00, ctypes.cast(fp.none_read, ctypes.c_void_p),
                      ctypes.c_void_p(SPI1 + 0x400), ctypes.cast(fp.none_write, ctypes.c_void_p),
                      ctypes.c_void_p(SPI1 + 0x400))
            if st != 0:
                raise RuntimeError(f'uc_mmio_map beside SPI1 failed ({st})')
            uc.mem_write(SPI1 + 0x08, struct.pack('<I', 0x0003))
            uc.mem_write(SPI1 + 0x10, struct.pack('<I', 7))
            self.spi_write_at = writer
            code_hook(fp.spi_capture, self.spi_write_at, self.spi_write_at, 'SPI1')
        else:
            # Register by register (the routine inlined, or --spi-registers).
            st = mmio(uc._uch, SPI1, 0x1000, ctypes.cast(fp.spi_read, ctypes.c_void_p), None,
                      ctypes.cast(fp.spi_write, ctypes.c_void_p), None)
            if st != 0:
                raise RuntimeError(f'uc_mmio_map for SPI1 failed ({st})')
        if getattr(self.opts, 'deepest', False):
            code_hook(fp.deepest, 1, 0, 'the stack watch')
        if self.opts.count:
            code_hook(fp.count_insn, 1, 0, 'the instruction counter')

        # Python models: one callback pair per 4 KB page.
        for page in (0x40007000, 0x40023000):
            uc.mmio_map(page, 0x1000, self.periph_read, page, self.periph_write, page)
        uc.mmio_map(BITBAND, 0x2000000, self.bitband_read, None, self.bitband_write, None)
        uc.mmio_map(PPB, 0x100000, self.ppb_read, None, self.ppb_write, None)

    def cvar(self, name, kind=ctypes.c_uint64):
        return kind.in_dll(self.fp, name)

    def load(self):
        loaded = 0
        for a, data in self.target.segments:
            if not data:
                continue
            if FLASH <= a and a + len(data) <= FLASH + FLASH_SIZE:
                ctypes.memmove(ctypes.addressof(self.flash) + (a - FLASH), data, len(data))
            elif SRAM <= a and a + len(data) <= SRAM + SRAM_SIZE:
                self.uc.mem_write(a, data)
            else:
                raise TargetError(f'a loadable segment at 0x{a:x} ({len(data)} bytes) is neither in '
                                  'flash nor in SRAM')
            loaded += len(data)
        if loaded == 0:
            raise TargetError('no loadable segment with data')
        self.loaded_bytes = loaded

    def start_core(self):
        """As the chip leaves reset with BOOT0 low: main flash at 0, SP and PC from its vector
        table (VTOR 0)."""
        sp, pc = struct.unpack('<II', self.flash.raw[:8])
        if not SRAM <= sp <= SRAM + SRAM_SIZE or sp & 3:
            raise TargetError(f'the initial stack pointer at 0x{FLASH:x} is 0x{sp:x}: not in SRAM '
                           '(no vector table there?)')
        if not pc & 1 or not (FLASH <= pc < FLASH + FLASH_SIZE or pc < FLASH_SIZE):
            raise TargetError(f'the reset vector at 0x{FLASH + 4:x} is 0x{pc:x}: not a Thumb address '
                           'in flash')
        self.uc.reg_write(A.UC_ARM_REG_MSP, sp)
        self.uc.reg_write(A.UC_ARM_REG_SP, sp)
        self.pc = pc | 1

    # ----- errors -----

    def where(self):
        pc = self.uc.reg_read(A.UC_ARM_REG_PC)
        lr = self.uc.reg_read(A.UC_ARM_REG_LR)
        return (f'pc=0x{pc:08x} {self.target.function_at(pc)}, '
                f'lr=0x{lr:08x} {self.target.function_at(lr & ~1)}')

    def halt(self, kind, status, message):
        if self.halted is None:
            self.halted = Halt(kind, status, message)
        self.uc.emu_stop()

    def unmodelled(self, address, size, write, value=None):
        what = f'write of 0x{value:x}' if write else 'read'
        self.halt('unmodelled', 1, f'{size}-byte {what} at 0x{address:08x}, which no model of the '
                  f'emulated STM32F411 answers ({self.where()})')

    def on_unmapped(self, uc, access, address, size, value, _data):
        kinds = {
            U.UC_MEM_READ_UNMAPPED: 'read', U.UC_MEM_WRITE_UNMAPPED: 'write',
            U.UC_MEM_FETCH_UNMAPPED: 'instruction fetch', U.UC_MEM_WRITE_PROT: 'write',
            U.UC_MEM_FETCH_PROT: 'instruction fetch', U.UC_MEM_READ_PROT: 'read',
        }
        what = kinds.get(access, f'access {access}')
        if access == U.UC_MEM_WRITE_PROT:
            msg = f'{size}-byte write at 0x{address:08x}: flash is written through its interface, not by a store'
        elif SRAM - 0x1000 <= address < SRAM:
            msg = (f'{size}-byte {what} at 0x{address:08x}, below SRAM: a stack overflow (flip-link '
                   'puts the stack at the bottom of RAM); on the chip a HardFault')
        else:
            msg = (f'{size}-byte {what} at 0x{address:08x}: nothing is mapped there; on the chip '
                   'a bus fault (HardFault)')
        self.halt('bus-fault', 1, f'{msg} ({self.where()})')
        return False

    def on_exception(self, uc, intno, _data):
        pc = uc.reg_read(A.UC_ARM_REG_PC)
        try:
            op = struct.unpack('<H', bytes(uc.mem_read(pc, 2)))[0]
        except U.UcError:
            op = 0
        vtor = self.scb[0x08]
        try:
            handler = struct.unpack('<I', bytes(uc.mem_read(vtor + 12, 4)))[0]
        except U.UcError:
            handler = 0
        entry = f'HardFault handler 0x{handler:08x} {self.target.function_at(handler & ~1)} (VTOR 0x{vtor:08x})'
        if intno == 1 and op >> 8 == 0xde:
            self.halt('hardfault', 1, f'HardFault: udf #{op & 0xff} at 0x{pc:08x} '
                      f'{self.target.function_at(pc)} (panic-probe ends a panic this way); {entry}')
        elif intno == 1:
            self.halt('hardfault', 1, f'HardFault: undefined instruction 0x{op:04x} at 0x{pc:08x} '
                      f'{self.target.function_at(pc)}; {entry}')
        elif intno == 7:
            self.halt('breakpoint', 1, f'bkpt at 0x{pc:08x}: the core halts, as under a probe')
        elif intno == 17:
            self.halt('hardfault', 1, f'UsageFault (NOCP): a coprocessor (FPU) instruction at '
                      f'0x{pc:08x} {self.target.function_at(pc)} with CPACR not enabling it; {entry}')
        else:
            self.halt('exception', 1, f'exception {intno} at 0x{pc:08x} {self.target.function_at(pc)}; {entry}')

    def touch(self, name):
        self.touched[name] = self.touched.get(name, 0) + 1

    # ----- peripherals -----

    def models(self):
        self.rcc = Registers('RCC', {
            0x00: ('CR', 0x0000_0083), 0x04: ('PLLCFGR', 0x2400_3010), 0x08: ('CFGR', 0),
            0x0C: ('CIR', 0), 0x10: ('AHB1RSTR', 0), 0x14: ('AHB2RSTR', 0), 0x20: ('APB1RSTR', 0),
            0x24: ('APB2RSTR', 0), 0x30: ('AHB1ENR', 0), 0x34: ('AHB2ENR', 0), 0x40: ('APB1ENR', 0),
            0x44: ('APB2ENR', 0), 0x50: ('AHB1LPENR', 0x0061_900F), 0x54: ('AHB2LPENR', 0x80),
            0x60: ('APB1LPENR', 0x10E2_C83F), 0x64: ('APB2LPENR', 0x0007_7930), 0x70: ('BDCR', 0),
            0x74: ('CSR', 0x0E00_0000), 0x80: ('SSCGR', 0), 0x84: ('PLLI2SCFGR', 0x2400_3000),
            0x8C: ('DCKCFGR', 0),
        })
        self.flash_if = Registers('FLASH', {0x00: ('ACR', 0), 0x04: ('KEYR', 0), 0x08: ('OPTKEYR', 0),
                                            0x0C: ('SR', 0), 0x10: ('CR', 0x8000_0000),
                                            0x14: ('OPTCR', 0x0FFF_AAED)})
        # VOS at reset is scale 1 on the F411 (RM0383 5.4.1: 0x0000 C000).
        self.pwr = Registers('PWR', {0x00: ('CR', 0x0000_C000), 0x04: ('CSR', 0)})
        self.blocks = {
            0x40007000: (self.pwr, None),
            0x40023800: (self.rcc, None),
            0x40023C00: (self.flash_if, None),
        }
        self.systick = {0x10: 0, 0x14: 0, 0x18: 0, 0x1C: 0x4000_0000 | 12_500}
        self.dwt = {0x000: 0x4000_0000, 0x004: 0}
        self.demcr = 0
        self.scb = {0x00: 0x410F_C241, 0x04: 0, 0x08: 0, 0x0C: 0xFA05_0000, 0x10: 0, 0x14: 0x200,
                    0x18: 0, 0x1C: 0, 0x20: 0, 0x24: 0, 0x28: 0, 0x2C: 0, 0x30: 0, 0x34: 0,
                    0x38: 0, 0x88: 0}
        self.fpu = {0xF34: 0xC000_0000, 0xF38: 0, 0xF3C: 0}
        self.nvic = {}

    def block(self, address):
        base = address & ~0x3FF
        hit = self.blocks.get(base)
        if hit is None:
            return None, None, address - base
        regs, clock = hit
        if clock is not None:
            name, bit = clock
            offsets = {v: k for k, v in self.rcc.names.items()}
            if not self.rcc.values[offsets[name]] >> bit & 1:
                raise ModelError(f'{regs.name} accessed with its clock off (RCC {name} bit {bit} '
                                 'clear): the chip ignores the access')
        return regs, base, address - base

    def periph_read(self, uc, offset, size, page):
        address = page + offset
        try:
            regs, _, o = self.block(address)
            if regs is None or not regs.has(o):
                self.unmodelled(address, size, False)
                return 0
            self.touch(f'{regs.name}.{regs.names[o & ~3]}')
            value = self.read_reg(regs, o & ~3)
            return (value >> ((o & 3) * 8)) & ((1 << (size * 8)) - 1)
        except ModelError as e:
            self.halt('model', 1, f'{e} ({self.where()})')
            return 0

    def periph_write(self, uc, offset, size, value, page):
        address = page + offset
        try:
            regs, _, o = self.block(address)
            if regs is None or not regs.has(o):
                self.unmodelled(address, size, True, value)
                return
            self.touch(f'{regs.name}.{regs.names[o & ~3]}')
            if size != 4:
                shift = (o & 3) * 8
                mask = ((1 << (size * 8)) - 1) << shift
                old = regs.values[o & ~3]
                value = (old & ~mask) | ((value << shift) & mask)
            self.write_reg(regs, o & ~3, value & 0xffffffff)
        except ModelError as e:
            self.halt('model', 1, f'{e} ({self.where()})')

    def read_reg(self, regs, o):
        if regs is self.pwr and o == 0x04:
            return regs.values[o] | (1 << 14)  # VOSRDY
        return regs.values[o]

    def write_reg(self, regs, o, value):
        if regs is self.rcc:
            self.write_rcc(o, value)
            return
        if regs is self.flash_if and o == 0x00:
            regs.values[o] = value & 0x1F0F
            return
        if regs is self.pwr:
            regs.values[o] = value & (0xC000 | 0x0F00 | 0x3F if o == 0 else 0x0100)
            return
        regs.values[o] = value

    def write_rcc(self, o, value):
        r = self.rcc.values
        if o == 0x00:
            ro = (1 << 1) | (1 << 17) | (1 << 25) | (1 << 27) | (0xFF << 8)
            v = (value & ~ro) | (r[0] & (0xFF << 8))
            for on, rdy in ((0, 1), (16, 17), (24, 25), (26, 27)):
                if v >> on & 1:
                    if on == 24 and r[0x04] >> 22 & 1 and not v >> 17 & 1:
                        continue  # PLL from HSE waits for HSE
                    v |= 1 << rdy
            r[0] = v
            if v >> 24 & 1:
                self.check_pll()
        elif o == 0x08:
            sw = value & 3
            ready = {0: r[0] >> 1 & 1, 1: r[0] >> 17 & 1, 2: r[0] >> 25 & 1}.get(sw, 0)
            sws = sw if ready else bits(r[0x08], 2, 2)
            r[0x08] = (value & ~0xC) | (sws << 2)
            self.switch_clock(sws)
        elif o == 0x30:
            r[o] = value
            self.cvar('fp_gpio_clock', ctypes.c_uint32).value = value & 3  # GPIOAEN, GPIOBEN
        elif o == 0x44:
            r[o] = value
            self.cvar('fp_spi_clock', ctypes.c_uint32).value = value >> 12 & 1  # SPI1EN
        else:
            r[o] = value

    def pll_hz(self):
        cfg = self.rcc.values[0x04]
        src = HSE_HZ if cfg >> 22 & 1 else HSI_HZ
        m, n, p = bits(cfg, 0, 6), bits(cfg, 6, 9), (bits(cfg, 16, 2) + 1) * 2
        if m < 2 or n < 50 or n > 432:
            raise ModelError(f'RCC PLLCFGR 0x{cfg:08x}: PLLM {m} or PLLN {n} out of range (RM0383 6.3.2)')
        vin = src / m
        vco = src * n // m
        if not 1e6 <= vin <= 2e6:
            raise ModelError(f'PLL input {vin / 1e6:.2f} MHz (source / PLLM {m}) is outside 1-2 MHz')
        if not 100e6 <= vco <= 432e6:
            raise ModelError(f'PLL VCO {vco / 1e6:.1f} MHz is outside 100-432 MHz')
        return src, m, n, p, int(vco) // p

    def check_pll(self):
        try:
            self.pll = self.pll_hz()
        except ModelError as e:
            self.halt('model', 1, f'{e} ({self.where()})')

    def switch_clock(self, sws):
        r = self.rcc.values
        if sws == 0:
            hz, source = HSI_HZ, 'HSI'
        elif sws == 1:
            hz, source = HSE_HZ, 'HSE'
        else:
            src, m, n, p, hz = self.pll_hz()
            source = f'PLL ({"HSE" if src == HSE_HZ else "HSI"} {src // 1_000_000} MHz / {m} x {n} / {p})'
        cfg = r[0x08]
        hpre = bits(cfg, 4, 4)
        ahb = hz >> (hpre - 7) if hpre >= 8 else hz
        if hpre >= 12:
            ahb = hz >> (hpre - 6)

        def apb(field):
            return ahb >> (field - 3) if field >= 4 else ahb

        pclk1, pclk2 = apb(bits(cfg, 10, 3)), apb(bits(cfg, 13, 3))
        self.clocks = {'sysclk': int(hz), 'hclk': int(ahb), 'pclk1': int(pclk1),
                       'pclk2': int(pclk2), 'source': source}
        if hz > 100e6:
            raise ModelError(f'SYSCLK {hz / 1e6:.1f} MHz is over the STM32F411\'s 100 MHz')
        if pclk1 > 50e6:
            raise ModelError(f'APB1 at {pclk1 / 1e6:.1f} MHz is over its 50 MHz')
        ws = self.flash_if.values[0] & 0xF
        need = 0 if ahb <= 30e6 else 1 if ahb <= 64e6 else 2 if ahb <= 90e6 else 3
        if ws < need:
            raise ModelError(f'HCLK {ahb / 1e6:.1f} MHz with {ws} flash wait states: at 2.7-3.6 V it '
                             f'needs {need} (RM0383 table 5); the core would read garbage from flash')
        vos = bits(self.pwr.values[0], 14, 2)
        limit = {1: 64e6, 2: 84e6, 3: 100e6}.get(vos, 64e6)
        if ahb > limit:
            raise ModelError(f'HCLK {ahb / 1e6:.1f} MHz is over the {limit / 1e6:.0f} MHz PWR VOS '
                             f'scale {vos} allows')
        self.clocks['flash_wait_states'] = ws

    def gpio(self, port, reg):
        """GPIO register `reg` (MODER 0 ... AFRH 9) of port 0 (A) or 1 (B), from the C model."""
        return (ctypes.c_uint32 * 20).in_dll(self.fp, 'fp_gpio')[port * 10 + reg]

    def pin_mode(self, port, pin):
        return bits(self.gpio(port, 0), pin * 2, 2)

    def pin_af(self, port, pin):
        return bits(self.gpio(port, 8 if pin < 8 else 9), (pin % 8) * 4, 4)

    def take(self):
        """The SPI bytes and pin events the C side collected since the last take, to replay."""
        c = self.cvar
        n_bytes = c('fp_len').value
        n_events = c('fp_events').value
        self.events_seen += n_events
        data = ctypes.string_at(ctypes.addressof(self.spi_buffer), n_bytes)
        ev = self.event_buffer[:n_events * 3]
        c('fp_len').value = 0
        c('fp_events').value = 0
        self.pending = [data, ev, 0, 0, None]

    def replay(self):
        """Feeds the LCD the SPI bytes and pin events taken, in order, up to the first event at
        which the watched word had changed: returns its value there (the replay goes on from
        that event at the next call), or None once all is fed."""
        if self.pending is None:
            return None
        data, ev, i, pos, paused = self.pending
        code = self.code
        wrote = self.reported
        feed = self.lcd.feed
        while i < len(ev):
            at = ev[i]
            if at > pos:
                if code & 13 == 13:  # D/C an output, RST an output driven high
                    self.spi_to_lcd += at - pos
                    feed(data[pos:at], code & 2)
                else:
                    self.lost(at - pos, code)
                pos = at
            w = ev[i + 1]
            if w != wrote and paused != i:
                self.code = code
                self.reported = w
                self.pending = [data, ev, i, pos, i]
                return w
            new = ev[i + 2]
            if new != code:
                if new & 12 == 4 and code & 12 != 4:  # RST driven low: a hardware reset
                    self.lcd.reset()
                if new & 32 and not code & 32:  # CS driven low: a transaction starts
                    self.transactions += 1
                code = new
            i += 3
        if len(data) > pos:
            if code & 13 == 13:
                self.spi_to_lcd += len(data) - pos
                feed(data[pos:], code & 2)
            else:
                self.lost(len(data) - pos, code)
        self.code = code
        self.pending = None
        return None

    def lost(self, n, code):
        self.spi_lost += n
        if not code & 1:
            self.warn('SPI bytes sent with D/C (PB0) not an output')
        else:
            self.warn('SPI bytes sent while the LCD is held in reset (RST PB1 not driven high)')

    def warn(self, what):
        self.warnings[what] = self.warnings.get(what, 0) + 1

    # ----- bit-band alias of the peripherals -----

    def bitband_target(self, offset):
        byte = offset >> 5
        bit = (offset >> 2) & 7
        word = PERIPH + (byte & ~3)
        return word, (byte & 3) * 8 + bit

    def bitband_read(self, uc, offset, size, _ud):
        word, bit = self.bitband_target(offset)
        if word >> 12 << 12 in (0x40007000, 0x40020000, 0x40023000):
            v = self.periph_read(uc, word & 0xFFF, 4, word & ~0xFFF)
            return v >> bit & 1
        self.unmodelled(BITBAND + offset, size, False)
        return 0

    def bitband_write(self, uc, offset, size, value, _ud):
        word, bit = self.bitband_target(offset)
        if word >> 12 << 12 in (0x40007000, 0x40020000, 0x40023000):
            v = self.periph_read(uc, word & 0xFFF, 4, word & ~0xFFF)
            if self.halted:
                return
            v = (v | (1 << bit)) if value & 1 else (v & ~(1 << bit))
            self.periph_write(uc, word & 0xFFF, 4, v, word & ~0xFFF)
            return
        self.unmodelled(BITBAND + offset, size, True, value)

    # ----- the core's peripherals (private peripheral bus) -----

    def cycles(self):
        if self.opts.count:
            return self.cvar('fp_insns').value
        return self.reads_of_cyccnt

    def ppb_read(self, uc, offset, size, _ud):
        a = PPB + offset
        o = a & ~3
        if 0xE000E010 <= o < 0xE000E020:
            self.touch('SysTick')
            v = self.systick[o - 0xE000E000]
            if o == 0xE000E010:
                # Time passes only as instructions run: a read of an enabled counter finds it
                # wrapped (COUNTFLAG), which clears on the read, as on the chip.
                if v & 1:
                    v |= 1 << 16
                self.systick_reads = getattr(self, 'systick_reads', 0) + 1
            return v
        if o == 0xE0001000:
            self.touch('DWT.CTRL')
            return self.dwt[0]
        if o == 0xE0001004:
            self.touch('DWT.CYCCNT')
            if not (self.demcr >> 24 & 1 and self.dwt[0] & 1):
                return self.dwt[4]
            self.reads_of_cyccnt += 1
            return (self.dwt[4] + self.cycles()) & 0xffffffff
        if o == 0xE000EDFC:
            self.touch('DCB.DEMCR')
            return self.demcr
        if 0xE000ED00 <= o <= 0xE000ED88 and o - 0xE000ED00 in self.scb:
            self.touch('SCB')
            return self.scb[o - 0xE000ED00]
        if o - 0xE000E000 in self.fpu:
            self.touch('FPU')
            return self.fpu[o - 0xE000E000]
        if 0xE000E100 <= o < 0xE000E500:
            self.touch('NVIC')
            return self.nvic.get(o, 0)
        self.unmodelled(a, size, False)
        return 0

    def ppb_write(self, uc, offset, size, value, _ud):
        a = PPB + offset
        o = a & ~3
        if 0xE000E010 <= o < 0xE000E020:
            self.touch('SysTick')
            if o == 0xE000E018:
                value = 0  # a write clears the counter
            if o != 0xE000E01C:
                self.systick[o - 0xE000E000] = value & (0x00FF_FFFF if o != 0xE000E010 else 7)
            if o == 0xE000E010 and value & 2:
                self.halt('model', 1, 'SysTick interrupt enabled: exceptions other than the '
                          f'HardFault are not modelled ({self.where()})')
            return
        if o == 0xE0001000:
            self.touch('DWT.CTRL')
            self.dwt[0] = (self.dwt[0] & 0xFFFF_0000) | (value & 0xFFFF)
            return
        if o == 0xE0001004:
            self.touch('DWT.CYCCNT')
            self.dwt[4] = (value - self.cycles()) & 0xffffffff
            return
        if o == 0xE000EDFC:
            self.touch('DCB.DEMCR')
            self.demcr = value
            return
        if 0xE000ED00 <= o <= 0xE000ED88 and o - 0xE000ED00 in self.scb:
            self.touch('SCB')
            if o == 0xE000ED0C:
                if value >> 16 == 0x05FA and value & 4:
                    self.halt('reset', 1, f'SYSRESETREQ: the firmware reset the chip ({self.where()})')
                return
            if o == 0xE000ED00:
                return  # CPUID is read-only
            self.scb[o - 0xE000ED00] = value
            if o == 0xE000ED88:
                # CPACR: CP10/CP11 full access turns the FPU on (Unicorn's Cortex-M4 has it on).
                self.fpu_enabled = (value >> 20 & 0xF) == 0xF
            return
        if o - 0xE000E000 in self.fpu:
            self.touch('FPU')
            self.fpu[o - 0xE000E000] = value
            return
        if 0xE000E100 <= o < 0xE000E500:
            self.touch('NVIC')
            if value and 0xE000E100 <= o < 0xE000E180:
                self.halt('model', 1, f'an interrupt enabled in the NVIC (0x{o:08x} = 0x{value:x}): '
                          f'interrupts are not modelled ({self.where()})')
            self.nvic[o] = value
            return
        self.unmodelled(a, size, True, value)

    # ----- the probe -----

    def watch(self, address, ring=None):
        """A watchpoint on the word at `address`: the C side samples it at every pin change (the
        pin events carry it) and `run` stops wherever it changed, with the SPI bytes and pin
        changes before that point fed to the LCD and none after. `ring` = (address of the read
        offset, size) when the word is a ring buffer's write offset: the core is then also
        stopped before that ring is half full (so a firmware that waits for room never waits)."""
        self.watched = address
        self.cvar('fp_rtt_wroff_at', ctypes.c_uint32).value = address
        if ring is not None:
            self.cvar('fp_rtt_rdoff_at', ctypes.c_uint32).value = ring[0]
            self.cvar('fp_rtt_size', ctypes.c_uint32).value = ring[1]

    def word(self, address):
        return struct.unpack('<I', bytes(self.uc.mem_read(address, 4)))[0]

    def run(self, seconds):
        """Runs until the watched word changed, the core halts, or `seconds` of wall clock pass:
        ('watch', its value), ('halt', None) or ('budget', None)."""
        started = time.monotonic()
        while True:
            w = self.replay()
            if w is not None:
                return 'watch', w
            if self.halted is not None:
                return 'halt', None
            if self.watched is not None:
                now = self.word(self.watched)
                if now != self.reported:
                    self.reported = now
                    return 'watch', now
            if time.monotonic() - started > seconds:
                return 'budget', None
            self.step(min(seconds, 1.0))

    def read(self, address, n):
        """`n` bytes at `address` (SRAM or flash, as a probe reads them)."""
        if SRAM <= address and address + n <= SRAM + SRAM_SIZE or (
                FLASH <= address and address + n <= FLASH + FLASH_SIZE):
            return bytes(self.uc.mem_read(address, n))
        raise ProbeError(f'cannot read {n} bytes at 0x{address:x}: neither SRAM nor flash')

    def write(self, address, data):
        """`data` written at `address` (SRAM only, as a probe writes memory while the core is
        halted)."""
        if not (SRAM <= address and address + len(data) <= SRAM + SRAM_SIZE):
            raise ProbeError(f'cannot write {len(data)} bytes at 0x{address:x}: not SRAM')
        self.uc.mem_write(address, bytes(data))

    def mark(self, m, t, kind):
        """The bus's frame of match `m`, turn `t`, starts here (a game frame, or the result)."""
        self.bus.boundary(self, m, t, kind)

    # ----- running -----

    def check_fastpath(self):
        c = self.cvar
        bad = c('fp_bad_offset', ctypes.c_uint32).value
        if bad != 0xffffffff:
            what = 'write' if c('fp_bad_write', ctypes.c_uint32).value else 'read'
            size = c('fp_bad_size', ctypes.c_uint32).value
            port = (bad - GPIO) >> 10 if GPIO <= bad < GPIO + 0x800 else None
            if port is not None and not c('fp_gpio_clock', ctypes.c_uint32).value >> port & 1:
                self.halt('model', 1, f'GPIO{"AB"[port]} accessed with its clock off (RCC AHB1ENR '
                          f'bit {port} clear): the chip ignores the access ({self.where()})')
            elif SPI1 <= bad < SPI1 + 0x400 and not c('fp_spi_clock', ctypes.c_uint32).value:
                self.halt('model', 1, 'SPI1 accessed with its clock off (RCC APB2ENR bit 12 '
                          f'clear): the chip ignores the access ({self.where()})')
            else:
                self.halt('unmodelled', 1, f'{size}-byte {what} at 0x{bad:08x}, which no model '
                          f'of the emulated STM32F411 answers ({self.where()})')
        err = c('fp_spi_error', ctypes.c_uint32).value
        if err == 1:
            cr1 = c('fp_spi_cr1', ctypes.c_uint32).value
            self.halt('model', 1, f'SPI1 written with CR1 0x{cr1:04x}: not an enabled 8-bit master '
                      'with software NSS high (SPE, MSTR, SSM, SSI set, DFF clear); the chip would '
                      f'send nothing or stop with a mode fault ({self.where()})')
        elif err == 2:
            self.halt('model', 1, f'spi_write called with a slice the harness cannot read ({self.where()})')
        elif err == 3:
            self.halt('internal', 2, 'the harness\'s SPI or event buffer overflowed')
        elif err == 4:
            self.halt('model', 1, 'SPI1 written with its clock off (RCC APB2ENR bit 12 clear): '
                      f'the chip ignores the access ({self.where()})')

    def step(self, seconds):
        """Runs for up to `seconds` of wall clock, or until something stops the core."""
        uc = self.uc
        try:
            uc.emu_start(self.pc, 0, timeout=int(seconds * 1e6))
        except U.UcError as e:
            if self.halted is None and e.errno == U.UC_ERR_INSN_INVALID:
                # Unicorn reports UDF as an invalid instruction: on the chip, a HardFault (as
                # UsageFault is not enabled).
                self.on_exception(uc, 1, None)
            if self.halted is None:
                self.halt('emulator', 1, f'Unicorn: {e} ({self.where()})')
        self.pc = uc.reg_read(A.UC_ARM_REG_PC) | 1
        self.check_fastpath()
        self.take()

    def spi_cr1(self):
        if self.spi_path == 'registers':
            return self.cvar('fp_cr1', ctypes.c_uint32).value
        return struct.unpack('<I', bytes(self.uc.mem_read(SPI1, 4)))[0]

    def spi_clock(self):
        """SPI1's SCK: APB2's clock / 2^(BR + 1) (RM0383 20.5.1)."""
        return self.clocks.get('pclk2', self.clocks['sysclk']) >> (bits(self.spi_cr1(), 3, 3) + 1)

    def summary(self):
        deep = {}
        if getattr(self.opts, 'deepest', False):
            c = self.cvar
            pc, lr = c('fp_min_sp_pc', ctypes.c_uint32).value, c('fp_min_sp_lr', ctypes.c_uint32).value
            deep = {'deepest': {'sp': c('fp_min_sp', ctypes.c_uint32).value,
                                'pc': self.target.function_at(pc), 'lr': self.target.function_at(lr & ~1)}}
        return {**deep,
            'instructions': self.cycles() if self.opts.count else None,
            'loadedBytes': self.loaded_bytes,
            'clocks': self.clocks,
            'spi': {'path': self.spi_path, 'clockHz': self.spi_clock(), 'cr1': self.spi_cr1(),
                    'bytes': self.cvar('fp_bytes').value, 'toLcd': self.spi_to_lcd,
                    'lostCsHigh': self.cvar('fp_lost').value, 'lost': self.spi_lost,
                    'writes': self.cvar('fp_calls').value, 'reruns': self.cvar('fp_reruns').value,
                    'events': self.events_seen},
            'pins': {'PA4': self.pin_mode(0, 4), 'PA5': [self.pin_mode(0, 5), self.pin_af(0, 5)],
                     'PA7': [self.pin_mode(0, 7), self.pin_af(0, 7)], 'PB0': self.pin_mode(1, 0),
                     'PB1': self.pin_mode(1, 1)},
            'lcd': self.lcd.state(),
            'bus': self.bus.summary(),
            'registersTouched': self.touched,
            'warnings': self.warnings,
        }
