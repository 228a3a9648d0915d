/*
 * The hot paths of the emulated STM32F411, in C: GPIOA/GPIOB's registers (RM0383 section 8.4), the
 * bytes SPI1 sends, and the instruction counter behind DWT CYCCNT. Everything else the firmware
 * touches is modelled in Python (harness/board.py), which is fine for registers touched a few
 * times a turn, but not for what drawing a 240x240 RGB565 screen costs: about 130 KB through SPI1
 * a turn, four register accesses a byte, and a few thousand pin changes (CS around every transfer,
 * D/C around every command).
 *
 * - GPIOA and GPIOB (the 4 KB page at 0x40020000, uc_mmio_map): every register, with the reset
 *   values; each access needs the port's clock (RCC AHB1ENR, mirrored here by Python). A write
 *   that changes what the LCD sees (D/C on PB0, RST on PB1, their modes, SCK PA5 / MOSI PA7 in
 *   alternate function 5, CS on PA4) or that follows new log output (the RTT up-channel's write offset moved)
 *   adds an event: the number of SPI bytes sent so far, the RTT write offset, and the pins. Python
 *   replays the events in order, so every byte meets the pins as they were when it was sent and
 *   every announced frame is the picture as it was when the firmware announced it.
 * - SPI1's bytes: a code hook on the entry of stm32f4xx-hal's `Inner<SPI>::spi_write` (the one
 *   routine through which every byte reaches SPI1's DR, (pointer, end) in r0/r1) copies the whole
 *   slice at once, after checking that SPI1 is enabled as an 8-bit master (CR1) and that CS (PA4)
 *   selects the LCD; the routine then runs as it would on the chip, on SPI1's registers kept as
 *   memory whose SR reads TXE|RXNE. A byte count, a copy: no hook per byte.
 * - count_insn: one call per instruction (UC_HOOK_CODE) when instructions are counted.
 *
 * Unicorn stops a run at a stop request by abandoning the instruction that saw it (it runs again
 * on resume), and a stop that lands at spi_write's entry may resume without its hook: so the run
 * is stopped (handed to Python) only here, at a GPIO write, which is idempotent, every
 * STOP_EVERY writes or when a buffer fills; Python's wall-clock timeout is only the safety net for
 * stretches without pin changes. A capture of the same slice with no pin change since is a re-run,
 * and is dropped.
 *
 * Built by the harness with `cc -O2 -shared -fPIC`; no Unicorn header is needed: the engine's
 * functions are handed over as pointers.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define REG_R0 66
#define REG_R1 67
#define SPI1 0x40013000u
#define STOP_EVERY 20000u

typedef int (*stop_fn)(void *uc);
typedef int (*mem_read_fn)(void *uc, uint64_t address, void *bytes, uint64_t size);
typedef int (*reg_read_fn)(void *uc, int regid, void *value);

static stop_fn stop;
static mem_read_fn mem_read;
static reg_read_fn reg_read;

static uint8_t *bytes;
static uint64_t bytes_cap;
static uint32_t *events;
static uint64_t events_cap; /* in events of 3 words */

/* Read and written by Python through ctypes. */
uint64_t fp_len;          /* bytes in the byte buffer */
uint64_t fp_events;       /* events in the event buffer */
uint64_t fp_bytes;        /* bytes sent since the start */
uint64_t fp_lost;         /* bytes sent with CS (PA4) not driven low */
uint64_t fp_calls;        /* spi_write calls */
uint64_t fp_reruns;       /* captures dropped as re-runs */
uint64_t fp_insns;        /* instructions counted */
uint64_t fp_gpio_writes;  /* GPIO register writes */
uint32_t fp_gpio_clock;   /* RCC AHB1ENR: bit 0 GPIOA, bit 1 GPIOB */
uint32_t fp_spi_clock;    /* RCC APB2ENR SPI1EN */
uint32_t fp_bad_offset = 0xffffffffu; /* the address of an access no model answers */
uint32_t fp_bad_write, fp_bad_size;
uint32_t fp_spi_error;    /* 1: SPI1 not an enabled 8-bit master, 2: a slice out of reach,
                             3: a buffer full, 4: SPI1's clock off */
uint32_t fp_spi_cr1;      /* CR1 at the error */
uint32_t fp_rtt_wroff_at, fp_rtt_rdoff_at, fp_rtt_size; /* the up-channel's offsets' addresses */
uint32_t fp_rtt_last;     /* the write offset at the last event */

/* GPIOA, GPIOB: MODER, OTYPER, OSPEEDR, PUPDR, IDR (computed), ODR, BSRR (write-only), LCKR,
 * AFRL, AFRH. */
uint32_t fp_gpio[2][10] = {
    {0xA8000000u, 0, 0x0C000000u, 0x64000000u, 0, 0, 0, 0, 0, 0},
    {0x00000280u, 0, 0x000000C0u, 0x00000100u, 0, 0, 0, 0, 0, 0},
};

static uint32_t last_code = 0xffffffffu;
static uint64_t last_r0, last_r1, writes_at_capture = (uint64_t)-1;

void fp_setup(stop_fn s, mem_read_fn m, reg_read_fn r, uint8_t *b, uint64_t bc, uint32_t *e,
              uint64_t ec) {
    stop = s;
    mem_read = m;
    reg_read = r;
    bytes = b;
    bytes_cap = bc;
    events = e;
    events_cap = ec;
}

static uint32_t field(uint32_t v, unsigned lo, unsigned n) {
    return (v >> lo) & ((1u << n) - 1);
}

static int output(int port, int pin) {
    return field(fp_gpio[port][0], pin * 2, 2) == 1;
}

static int level(int port, int pin) {
    return (fp_gpio[port][5] >> pin) & 1;
}

static int af5(int port, int pin) {
    uint32_t afr = pin < 8 ? fp_gpio[port][8] : fp_gpio[port][9];
    return field(fp_gpio[port][0], pin * 2, 2) == 2 && field(afr, (pin % 8) * 4, 4) == 5;
}

/* What the LCD sees of the pins: bit 0 D/C (PB0) an output, 1 its level, 2 RST (PB1) an output,
 * 3 its level, 4 SCK (PA5) and MOSI (PA7) in alternate function 5, 5 CS (PA4) an output driven
 * low (the LCD selected: each 0 -> 1 is the start of a transaction). */
uint32_t fp_code(void) {
    return (uint32_t)(output(1, 0) | level(1, 0) << 1 | output(1, 1) << 2 | level(1, 1) << 3 |
                      (af5(0, 5) && af5(0, 7)) << 4 | (output(0, 4) && !level(0, 4)) << 5);
}

static uint32_t rtt_wroff(void *uc) {
    uint32_t v = 0;
    if (fp_rtt_wroff_at) mem_read(uc, fp_rtt_wroff_at, &v, 4);
    return v;
}

static void event(void *uc, uint32_t code, uint32_t wroff) {
    if (fp_events >= events_cap) {
        /* Cannot happen: the run stops at three quarters (below); reported if it does. */
        fp_spi_error = 3;
        stop(uc);
        return;
    }
    uint32_t *e = events + fp_events * 3;
    e[0] = (uint32_t)fp_len;
    e[1] = wroff;
    e[2] = code;
    fp_events++;
    last_code = code;
    fp_rtt_last = wroff;
}

static void bad(void *uc, uint64_t offset, unsigned size, int write) {
    if (fp_bad_offset == 0xffffffffu) {
        fp_bad_offset = (uint32_t)offset;
        fp_bad_size = size;
        fp_bad_write = (uint32_t)write;
    }
    stop(uc);
}

uint64_t gpio_read(void *uc, uint64_t offset, unsigned size, void *user) {
    (void)user;
    int port = (int)(offset >> 10);
    unsigned reg = (unsigned)(offset & 0x3ff) >> 2;
    if (port > 1 || reg > 9 || !((fp_gpio_clock >> port) & 1)) {
        bad(uc, 0x40020000u + offset, size, 0);
        return 0;
    }
    uint32_t v;
    if (reg == 4) {
        /* IDR: outputs read back their level, inputs with a pull-up read 1. */
        v = 0;
        for (int pin = 0; pin < 16; pin++) {
            uint32_t mode = field(fp_gpio[port][0], pin * 2, 2);
            if (mode == 1 ? level(port, pin) : field(fp_gpio[port][3], pin * 2, 2) == 1) v |= 1u << pin;
        }
    } else if (reg == 6) {
        v = 0; /* BSRR reads 0 */
    } else {
        v = fp_gpio[port][reg];
    }
    unsigned shift = (unsigned)(offset & 3) * 8;
    return size >= 4 ? v : (v >> shift) & ((1u << (size * 8)) - 1);
}

void gpio_write(void *uc, uint64_t offset, unsigned size, uint64_t value, void *user) {
    (void)user;
    int port = (int)(offset >> 10);
    unsigned reg = (unsigned)(offset & 0x3ff) >> 2;
    if (port > 1 || reg > 9 || reg == 4 || !((fp_gpio_clock >> port) & 1)) {
        bad(uc, 0x40020000u + offset, size, 1);
        return;
    }
    uint32_t v = (uint32_t)value;
    if (size < 4) {
        unsigned shift = (unsigned)(offset & 3) * 8;
        uint32_t mask = ((1u << (size * 8)) - 1) << shift;
        v = (reg == 6 ? 0 : (fp_gpio[port][reg] & ~mask)) | ((v << shift) & mask);
    }
    fp_gpio_writes++;
    if (reg == 6) {
        /* BSRR: set bits 0-15, reset bits 16-31; set wins. */
        fp_gpio[port][5] = ((fp_gpio[port][5] & ~(v >> 16)) | (v & 0xffff)) & 0xffff;
    } else if (reg == 5) {
        fp_gpio[port][5] = v & 0xffff;
    } else {
        fp_gpio[port][reg] = v;
    }
    uint32_t code = fp_code();
    uint32_t wroff = rtt_wroff(uc);
    if (code != last_code || wroff != fp_rtt_last) event(uc, code, wroff);
    /* Hand over before the buffers fill up, or the RTT buffer does (the firmware would wait). */
    uint32_t rd = 0;
    if (fp_rtt_rdoff_at) mem_read(uc, fp_rtt_rdoff_at, &rd, 4);
    uint32_t fill = fp_rtt_size ? (wroff + fp_rtt_size - rd) % fp_rtt_size : 0;
    if (fp_len > bytes_cap / 4 * 3 || fp_events > events_cap / 4 * 3 || fill > fp_rtt_size / 2 ||
        fp_gpio_writes % STOP_EVERY == 0)
        stop(uc);
}

void spi_capture(void *uc, uint64_t address, uint32_t size, void *user) {
    (void)address;
    (void)size;
    (void)user;
    uint32_t r0 = 0, r1 = 0, cr1 = 0;
    reg_read(uc, REG_R0, &r0);
    reg_read(uc, REG_R1, &r1);
    if (fp_gpio_writes == writes_at_capture && r0 == last_r0 && r1 == last_r1) {
        fp_reruns++;
        return;
    }
    writes_at_capture = fp_gpio_writes;
    last_r0 = r0;
    last_r1 = r1;
    fp_calls++;
    if (!fp_spi_clock) {
        fp_spi_error = 4;
        stop(uc);
        return;
    }
    mem_read(uc, SPI1, &cr1, 4);
    /* SPE, MSTR, SSM and SSI set (software NSS high, or a mode fault), DFF clear (8-bit). */
    if ((cr1 & 0x0b44u) != 0x0344u) {
        fp_spi_error = 1;
        fp_spi_cr1 = cr1;
        stop(uc);
        return;
    }
    if (r1 < r0 || r1 - r0 > 65536) {
        fp_spi_error = 2;
        stop(uc);
        return;
    }
    uint32_t n = r1 - r0;
    if (n == 0) return; /* a command without arguments: an empty write (its pointer dangles) */
    if (!(output(0, 4) && !level(0, 4)) || !(af5(0, 5) && af5(0, 7))) {
        fp_lost += n;
        fp_bytes += n;
        return;
    }
    if (fp_len + n > bytes_cap) {
        fp_spi_error = 3;
        stop(uc);
        return;
    }
    if (mem_read(uc, r0, bytes + fp_len, n) != 0) {
        fp_spi_error = 2;
        stop(uc);
        return;
    }
    fp_len += n;
    fp_bytes += n;
}

/*
 * SPI1's registers one access at a time (RM0383 20.5), for firmware in which the harness finds no
 * single spi_write routine to take slices from (`--spi registers`, or the routine inlined): CR1,
 * CR2, SR (TXE always set: a byte leaves at once; RXNE set by a byte sent, cleared by reading DR;
 * OVR when a byte arrives with RXNE still set), DR (8-bit frames), CRCPR, RXCRCR, TXCRCR. A DR write
 * that finds RXNE set is the re-run of a write Unicorn abandoned at a stop (stm32f4xx-hal reads DR
 * after every byte), and is dropped.
 */
uint32_t fp_cr1, fp_cr2, fp_sr = 0x2, fp_crcpr = 7;

uint64_t spi_read(void *uc, uint64_t offset, unsigned size, void *user) {
    (void)user;
    if (!fp_spi_clock || offset >= 0x400) {
        bad(uc, SPI1 + offset, size, 0);
        return 0;
    }
    switch (offset) {
    case 0x00: return fp_cr1;
    case 0x04: return fp_cr2;
    case 0x08: return fp_sr;
    case 0x0c: fp_sr &= ~1u; return 0xff; /* nothing drives MISO */
    case 0x10: return fp_crcpr;
    case 0x14: case 0x18: return 0;
    default: bad(uc, SPI1 + offset, size, 0); return 0;
    }
}

void spi_write(void *uc, uint64_t offset, unsigned size, uint64_t value, void *user) {
    (void)user;
    if (!fp_spi_clock || offset >= 0x400) {
        bad(uc, SPI1 + offset, size, 1);
        return;
    }
    switch (offset) {
    case 0x00: fp_cr1 = (uint32_t)value & 0xffff; return;
    case 0x04: fp_cr2 = (uint32_t)value & 0xf7; return;
    case 0x08: if (!(value & 0x10)) fp_sr &= ~0x10u; return;
    case 0x10: fp_crcpr = (uint32_t)value & 0xffff; return;
    case 0x0c: break;
    default: bad(uc, SPI1 + offset, size, 1); return;
    }
    if ((fp_cr1 & 0x0b44u) != 0x0344u) {
        fp_spi_error = 1;
        fp_spi_cr1 = fp_cr1;
        stop(uc);
        return;
    }
    if (fp_sr & 1u) {
        fp_reruns++;
        return;
    }
    fp_sr |= 1u;
    fp_calls++;
    fp_bytes++;
    if (!(output(0, 4) && !level(0, 4)) || !(af5(0, 5) && af5(0, 7))) {
        fp_lost++;
        return;
    }
    if (fp_len >= bytes_cap) {
        fp_spi_error = 3;
        stop(uc);
        return;
    }
    bytes[fp_len++] = (uint8_t)value;
}

/* The rest of a page a model shares with registers nobody models (SPI4, SYSCFG, EXTI beside
 * SPI1's slice mode): `user` is the address the mapping starts at. */
uint64_t none_read(void *uc, uint64_t offset, unsigned size, void *user) {
    bad(uc, (uint64_t)(uintptr_t)user + offset, size, 0);
    return 0;
}

void none_write(void *uc, uint64_t offset, unsigned size, uint64_t value, void *user) {
    (void)value;
    bad(uc, (uint64_t)(uintptr_t)user + offset, size, 1);
}

void count_insn(void *uc, uint64_t address, uint32_t size, void *user) {
    (void)uc;
    (void)address;
    (void)size;
    (void)user;
    fp_insns++;
}

/* --deepest: the lowest stack pointer seen and where (one register read an instruction). */
#define REG_SP 12
uint32_t fp_min_sp = 0xffffffffu, fp_min_sp_pc, fp_min_sp_lr;

void deepest(void *uc, uint64_t address, uint32_t size, void *user) {
    (void)size;
    (void)user;
    uint32_t sp = 0;
    reg_read(uc, REG_SP, &sp);
    if (sp < fp_min_sp) {
        fp_min_sp = sp;
        fp_min_sp_pc = (uint32_t)address;
        reg_read(uc, 10, &fp_min_sp_lr);
    }
}
