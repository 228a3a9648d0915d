// An SSD1306 128x64 OLED controller on I2C, modelled from the SSD1306 datasheet (Solomon Systech,
// rev 1.1): the I2C control byte, the fundamental, addressing, hardware-configuration, timing and
// scrolling commands with their argument bytes, the 128 x 8-page GDDRAM and its three addressing
// modes, and the picture the panel shows.
//
// The panel is the common 0.96" 128x64 module: its glass is wired to the controller turned both
// ways (SEG0 at the right edge, COM0 at the bottom) and for the alternative COM pin configuration,
// which is why every driver sends segment remap (0xA1), COM scan remapped (0xC8) and 0xDA 0x12 for
// an upright picture. With 0xA0 and 0xC0 the picture turns 180 degrees, as on the real module.

export const WIDTH = 128;
export const HEIGHT = 64;
const PAGES = 8;

// The next `[inner, outer]` of a two-level walk: `inner` along its range; past its end, back to
// its start and `outer` along its own range (wrapping round to its start).
function advance(inner, innerStart, innerEnd, outer, outerStart, outerEnd) {
  if (inner < innerEnd) return [inner + 1, outer];
  return [innerStart, outer >= outerEnd ? outerStart : outer + 1];
}

// The commands that switch a setting off or on: the flag, then its off and on opcodes.
const TOGGLES = [
  ['segRemap', [0xa0, 0xa1]],
  ['entireOn', [0xa4, 0xa5]],
  ['inverse', [0xa6, 0xa7]],
  ['displayOn', [0xae, 0xaf]],
  ['comRemap', [0xc0, 0xc8]],
];

/** Argument bytes of each multi-byte command (datasheet, chapter 9, table 9-1). */
function argCount(cmd) {
  switch (cmd) {
    case 0x81: // contrast
    case 0x8d: // charge pump setting
    case 0x20: // memory addressing mode
    case 0xa8: // multiplex ratio
    case 0xd3: // display offset
    case 0xd5: // display clock divide ratio / oscillator frequency
    case 0xd9: // pre-charge period
    case 0xda: // COM pins hardware configuration
    case 0xdb: // VCOMH deselect level
    case 0xad: // internal IREF (SSD1306B)
      return 1;
    case 0x21: // column address
    case 0x22: // page address
    case 0xa3: // vertical scroll area
      return 2;
    case 0x29: // vertical and right horizontal scroll
    case 0x2a: // vertical and left horizontal scroll
      return 5;
    case 0x26: // right horizontal scroll
    case 0x27: // left horizontal scroll
      return 6;
    default:
      return 0;
  }
}

export class Ssd1306 {
  constructor(address = 0x3c) {
    this.address = address;
    // GDDRAM content after power-on is not defined by the datasheet; a fixed pseudo-random
    // pattern stands for it, so a firmware that never writes part of the screen shows noise there,
    // as a real panel does.
    this.gddram = new Uint8Array(WIDTH * PAGES);
    let s = 0x2545f491;
    for (let i = 0; i < this.gddram.length; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      this.gddram[i] = s & 0xff;
    }
    // Reset values (datasheet, chapter 10 and table 9-1).
    this.displayOn = false; // 0xAE
    this.contrast = 0x7f;
    this.chargePump = false; // 0x8D 0x10: disabled after reset
    this.mode = 2; // page addressing
    this.colStart = 0;
    this.colEnd = WIDTH - 1;
    this.pageStart = 0;
    this.pageEnd = PAGES - 1;
    this.col = 0;
    this.page = 0;
    this.pageModeCol = 0; // the column start of page addressing mode (0x00-0x1F)
    this.segRemap = false; // 0xA0
    this.comRemap = false; // 0xC0
    this.mux = 63;
    this.offset = 0;
    this.startLine = 0;
    this.comPins = 0x12;
    this.inverse = false;
    this.entireOn = false;
    this.scrolling = false;
    this.clockDiv = 0x80;
    this.precharge = 0x22;
    this.vcomh = 0x20;
    // The I2C transaction in progress.
    this.selected = false;
    this.expectControl = true;
    this.single = false; // Co = 1: one byte, then a control byte again
    this.data = false; // D/C#
    this.cmd = []; // command bytes gathered so far (opcode, then arguments)
    // What happened, for the harness's summary and the tests.
    this.transactions = 0;
    this.dataBytes = 0;
    this.commandsSeen = 0;
    this.warnings = [];
    this.writes = 0; // GDDRAM bytes written (a version number for the picture)
  }

  warn(msg) {
    if (this.warnings.length < 50 && !this.warnings.includes(msg)) this.warnings.push(msg);
  }

  // I2C side: an address byte with R/W#, then bytes, then a stop.
  connect(address, read) {
    if (address !== this.address) return false;
    if (read) {
      // Datasheet 8.1.5: in I2C mode only writes are possible.
      this.warn('an I2C read from the SSD1306 (not supported in I2C mode): not acknowledged');
      return false;
    }
    this.selected = true;
    this.expectControl = true;
    this.transactions++;
    return true;
  }

  stop() {
    if (this.selected && this.cmd.length > 0) {
      this.warn(`command 0x${this.cmd[0].toString(16)} ended by a stop before its ${argCount(this.cmd[0])} argument bytes`);
      this.cmd = [];
    }
    this.selected = false;
  }

  writeByte(b) {
    if (!this.selected) return false;
    if (this.expectControl) {
      // Control byte: Co (bit 7), D/C# (bit 6), the rest zero.
      if (b & 0x3f) this.warn(`control byte 0x${b.toString(16)} has bits 0-5 set`);
      this.single = !!(b & 0x80);
      this.data = !!(b & 0x40);
      this.expectControl = false;
      return true;
    }
    if (this.data) this.writeData(b);
    else this.writeCommandByte(b);
    if (this.single) this.expectControl = true;
    return true;
  }

  writeData(b) {
    this.dataBytes++;
    this.writes++;
    this.gddram[this.page * WIDTH + this.col] = b;
    switch (this.mode) {
      case 0: // horizontal: column first, then the next page, wrapping within the ranges
        [this.col, this.page] = advance(this.col, this.colStart, this.colEnd, this.page, this.pageStart, this.pageEnd);
        break;
      case 1: // vertical: page first, then the next column
        [this.page, this.col] = advance(this.page, this.pageStart, this.pageEnd, this.col, this.colStart, this.colEnd);
        break;
      default: // page: the column advances up to 127, then returns to the column start
        this.col = this.col >= WIDTH - 1 ? this.pageModeCol : this.col + 1;
        break;
    }
  }

  writeCommandByte(b) {
    this.cmd.push(b);
    if (this.cmd.length <= argCount(this.cmd[0])) return;
    const [op, ...args] = this.cmd;
    this.cmd = [];
    this.commandsSeen++;
    this.execute(op, args);
  }

  execute(op, a) {
    if (op <= 0x0f) {
      this.pageModeCol = (this.pageModeCol & 0xf0) | op;
      if (this.mode === 2) this.col = this.pageModeCol;
      return;
    }
    if (op <= 0x1f) {
      this.pageModeCol = ((op & 0x07) << 4) | (this.pageModeCol & 0x0f);
      if (this.mode === 2) this.col = this.pageModeCol;
      return;
    }
    if (op >= 0x40 && op <= 0x7f) {
      this.startLine = op & 0x3f;
      return;
    }
    if (op >= 0xb0 && op <= 0xb7) {
      if (this.mode === 2) this.page = op & 0x07;
      else this.warn(`page start 0x${op.toString(16)} outside page addressing mode (ignored, as the datasheet says)`);
      return;
    }
    for (const [flag, [off, on]] of TOGGLES) {
      if (op === off || op === on) {
        this[flag] = op === on;
        return;
      }
    }
    switch (op) {
      case 0x20:
        if ((a[0] & 0x03) === 3) this.warn('addressing mode 3 is invalid');
        else this.mode = a[0] & 0x03;
        return;
      case 0x21:
        this.colStart = a[0] & 0x7f;
        this.colEnd = a[1] & 0x7f;
        this.col = this.colStart;
        return;
      case 0x22:
        this.pageStart = a[0] & 0x07;
        this.pageEnd = a[1] & 0x07;
        this.page = this.pageStart;
        return;
      case 0x81:
        this.contrast = a[0];
        return;
      case 0x8d:
        // 0x14: enable, 0x10: disable (bit 2).
        this.chargePump = !!(a[0] & 0x04);
        return;
      case 0xa8:
        if ((a[0] & 0x3f) < 15) this.warn(`multiplex ratio ${a[0]} is invalid (0 to 14)`);
        else this.mux = a[0] & 0x3f;
        return;
      case 0xd3:
        this.offset = a[0] & 0x3f;
        return;
      case 0xd5:
        this.clockDiv = a[0];
        return;
      case 0xd9:
        this.precharge = a[0];
        return;
      case 0xda:
        this.comPins = a[0] & 0x32;
        if (this.comPins !== 0x12) {
          this.warn(`COM pins configuration 0x${a[0].toString(16)}: the 128x64 module is wired for 0x12; drawn as 0x12`);
        }
        return;
      case 0xdb:
        this.vcomh = a[0];
        return;
      case 0xe3: // NOP
      case 0xad:
        return;
      case 0x2e:
        this.scrolling = false;
        return;
      case 0x2f:
        this.scrolling = true;
        this.warn('scrolling activated: the model draws the GDDRAM unscrolled');
        return;
      case 0x26:
      case 0x27:
      case 0x29:
      case 0x2a:
      case 0xa3:
        return; // scroll setup: kept as the datasheet's argument bytes, not drawn
      default:
        this.warn(`unknown command 0x${op.toString(16)}`);
    }
  }

  /** Whether the GDDRAM bit behind panel pixel (x, y) is set (the RAM, not what the panel shows). */
  ramPixel(col, row) {
    return (this.gddram[(row >> 3) * WIDTH + col] >> (row & 7)) & 1;
  }

  /** True when the panel emits light at all: display on and the charge pump giving VCC. */
  get lit() {
    return this.displayOn && this.chargePump;
  }

  /**
   * The picture: 128x64 bytes, 1 where the pixel is on. The glass's row y is on pin COM(63 - y)
   * and its column x on SEG(127 - x); COM scan direction, display offset, start line and
   * multiplex ratio select the GDDRAM row each COM shows, segment remap the column each SEG shows.
   */
  picture() {
    const out = new Uint8Array(WIDTH * HEIGHT);
    if (!this.lit) return out;
    const n = this.mux + 1;
    for (let y = 0; y < HEIGHT; y++) {
      const pin = HEIGHT - 1 - y;
      // The COM output index that drives this pin.
      const idx = this.comRemap ? n - 1 - pin : pin;
      if (idx < 0 || idx >= n) continue; // outside the multiplex ratio: not driven
      const row = (idx + this.offset + this.startLine) & 63;
      for (let x = 0; x < WIDTH; x++) {
        const seg = WIDTH - 1 - x;
        const col = this.segRemap ? WIDTH - 1 - seg : seg;
        let on = this.entireOn ? 1 : this.ramPixel(col, row);
        if (this.inverse) on ^= 1;
        out[y * WIDTH + x] = on;
      }
    }
    return out;
  }

  /**
   * The gray level an on pixel is written with: the datasheet gives the segment current as
   * linear in the contrast setting ((contrast + 1) / 256 of full scale), and luminance follows the
   * current; written as sRGB (gamma 2.2). 0xFF gives 255; the ssd1306 crate's NORMAL (0x5F) gives 163.
   */
  get onLevel() {
    return Math.round(255 * Math.pow((this.contrast + 1) / 256, 1 / 2.2));
  }
}
