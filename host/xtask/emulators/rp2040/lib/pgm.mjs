// The OLED's frame buffer handed to xtask as a binary PGM (P5): one byte a pixel, rows top to
// bottom, 0 for an unlit pixel and `on` for a lit one. xtask scales it and writes the PNG.

/** A 1-bit picture (1 = on, `width` x `height`) as a PGM with lit pixels at gray `on`. */
export function framePgm(picture, width, height, on) {
  if (picture.length !== width * height) throw new Error('pixel count does not match the size');
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii');
  const levels = Buffer.alloc(width * height);
  for (let i = 0; i < levels.length; i++) levels[i] = picture[i] ? on : 0;
  return Buffer.concat([header, levels]);
}
