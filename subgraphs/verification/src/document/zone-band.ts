import sharp from 'sharp';
import { findZoneLines, trackLine, type Grey, type Line } from './mrz-glyphs.js';

/**
 * The zone's band of a page photographed in perspective, straightened. Levelling the page by
 * rotation makes its lines horizontal on average, but a photo's lines converge: near the foot of
 * the page the zone's rows may still slope (and each its own way), so that OCR runs two rows
 * together or splits one. Here the rows are found in the ink (chains of glyphs, `findZoneLines`),
 * each followed by a straight line (a homography keeps lines straight), and every column of the
 * band is shifted up or down so that each row runs level.
 */

/**
 * Rows that drift up or down by less than this share of their capital height from one end to the
 * other are level enough: OCR follows them (a page tilted by less than half a degree is read as
 * it is, and a 44-glyph row's end then moves by a third of its height).
 */
const LEVEL_DRIFT = 0.5;

/** Glyphs joined by serifs (Courier) or a bold stroke are one blob up to this many glyph heights wide: each still a link of its row's chain. */
const TOUCHING = 3;

/** How far a row's middle at column `x` is from `y0`, the row's own level. */
const middleAt = (line: Line, x: number) => line.y0 + line.slope * x;

/**
 * The zone's rows as lines, top to bottom: the bottom row and those above it one row's pitch at a
 * time (at most 3 capitals apart: a row of printed text further up is no zone row), which start
 * where it starts (within two capitals: the zone's lines are left-aligned).
 */
function zoneRows(grey: Grey): Line[] {
  const tracked = findZoneLines(grey, TOUCHING)
    .map((glyphs) => trackLine(glyphs, grey.width))
    .filter((line): line is Line => line !== null);
  const rows = tracked.slice(-1);
  for (const line of tracked.slice(0, -1).reverse()) {
    const below = rows[0];
    const centre = (below.x0 + below.x1) / 2;
    const pitch = middleAt(below, centre) - middleAt(line, centre);
    if (pitch <= 0 || pitch > 3 * below.capital || Math.abs(line.x0 - below.x0) > 2 * below.capital) break;
    rows.unshift(line);
  }
  return rows;
}

/**
 * The zone's band straightened (a greyscale PNG: the zone's rows level, a row's pitch of paper
 * above and below, two capitals left and right), or null when the ink shows no zone of two or
 * three rows or its rows are level already.
 */
export async function straightenZone(image: Buffer): Promise<Buffer | null> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const grey = { data, width: info.width, height: info.height };
  const rows = zoneRows(grey);
  if (rows.length < 2) return null;
  const capital = Math.max(...rows.map((r) => r.capital));
  const x0 = Math.max(0, Math.round(Math.min(...rows.map((r) => r.x0)) - 2 * capital));
  const x1 = Math.min(grey.width, Math.round(Math.max(...rows.map((r) => r.x1)) + 2 * capital));
  const drift = Math.max(...rows.map((r) => Math.abs(r.slope) * (x1 - x0)));
  if (drift < LEVEL_DRIFT * capital) return null;
  // each row keeps its height at the zone's centre; the others' columns are moved to it
  const centre = (x0 + x1) / 2;
  const levels = rows.map((r) => middleAt(r, centre));
  const pitch = (levels.at(-1)! - levels[0]) / (rows.length - 1);
  const top = Math.round(levels[0] - pitch);
  const height = Math.round(levels.at(-1)! + pitch) - top;
  const width = x1 - x0;
  const band = Buffer.alloc(width * height);
  for (let x = 0; x < width; x++) {
    // how far each row's middle in this column is from its level
    const offsets = rows.map((r, n) => middleAt(r, x0 + x) - levels[n]);
    for (let y = 0; y < height; y++) {
      band[y * width + x] = sample(grey, x0 + x, top + y + offsetAt(top + y, levels, offsets));
    }
  }
  return sharp(band, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/** The vertical offset at height `y`: between two rows' levels, a linear blend of their offsets; above the first or below the last, that row's. */
function offsetAt(y: number, levels: number[], offsets: number[]): number {
  if (y <= levels[0]) return offsets[0];
  for (let n = 1; n < levels.length; n++) {
    if (y <= levels[n]) {
      const t = (y - levels[n - 1]) / (levels[n] - levels[n - 1]);
      return offsets[n - 1] + t * (offsets[n] - offsets[n - 1]);
    }
  }
  return offsets.at(-1)!;
}

/** The grey level at column `x` and a fractional height `y` (linear between two pixels; paper, white, off the image). */
function sample(grey: Grey, x: number, y: number): number {
  const y0 = Math.floor(y);
  const t = y - y0;
  const at = (yy: number) => (yy < 0 || yy >= grey.height ? 255 : grey.data[yy * grey.width + x]);
  return Math.round(at(y0) * (1 - t) + at(y0 + 1) * t);
}
