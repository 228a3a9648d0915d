// What the harness is given to run, as a debug probe is given it: xtask reads the ELF (its one ELF
// reader, host/xtask/src/elf.rs) and writes this JSON file (`--target FILE`):
//
//   { "segments": [{ "addr": N, "hex": "..." }, ...],   the loadable segments, at their load
//                                                        addresses (empty with --uf2)
//     "pace": N | null,                                  the address of ARENA_PACE (a word in flash)
//     ... }                                              (what else the file holds is xtask's own:
//                                                        the harness knows no log format)
//
// A file that does not have this shape is a TargetError that says what is wrong.

export class TargetError extends Error {}

function address(v, what) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new TargetError(`${what} is no 32-bit address: ${JSON.stringify(v)}`);
  return v >>> 0;
}

/** The target description in `text` (the file's contents), checked. */
export function parseTarget(text) {
  let j;
  try {
    j = JSON.parse(text);
  } catch (e) {
    throw new TargetError(`not JSON: ${e.message}`);
  }
  if (j === null || typeof j !== 'object') throw new TargetError('not a JSON object');
  if (!Array.isArray(j.segments)) throw new TargetError('no "segments" list');
  const segments = j.segments.map((s, i) => {
    const addr = address(s?.addr, `segment ${i}'s addr`);
    if (typeof s.hex !== 'string' || s.hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(s.hex)) {
      throw new TargetError(`segment ${i}'s hex is no even run of lowercase hex digits`);
    }
    return { addr, data: new Uint8Array(Buffer.from(s.hex, 'hex')) };
  });
  const pace = j.pace === undefined || j.pace === null ? undefined : address(j.pace, '"pace"');
  return { segments, pace };
}
