import sharp from 'sharp';
import { estimateSkew } from '../document/skew.js';
import type { ReadLine, TextReader } from '../vision/text-reader.js';
import { readAddressFields, type AddressDocumentFields, type TextCell } from './address-fields.js';

export interface AddressReading {
  fields: AddressDocumentFields;
  /** Mean OCR confidence of the lines, 0–100 (0 when nothing was read). */
  textConfidence: number;
  /** The lines read, top to bottom. */
  lines: string[];
}

/** Under this tilt (degrees) a page is read as it is. */
const MIN_SKEW_DEGREES = 0.5;
/** A gap between two words wider than this many word heights parts two columns. */
const COLUMN_GAP = 1.5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A line's words in cells: a gap much wider than a space (a label's column, a box to the right) starts a new one. */
export function cellsOf(line: ReadLine): TextCell[] {
  const words = line.words.filter((w) => w.text.trim());
  if (!words.length) return [{ text: line.text, box: line.box }];
  const height = median(words.map((w) => w.box.y1 - w.box.y0));
  const cells: Array<typeof words> = [[words[0]]];
  for (const word of words.slice(1)) {
    const last = cells.at(-1)!;
    if (word.box.x0 - last.at(-1)!.box.x1 > COLUMN_GAP * height) cells.push([word]);
    else last.push(word);
  }
  return cells.map((ws) => ({
    text: ws.map((w) => w.text).join(' '),
    box: {
      x0: Math.min(...ws.map((w) => w.box.x0)),
      y0: Math.min(...ws.map((w) => w.box.y0)),
      x1: Math.max(...ws.map((w) => w.box.x1)),
      y1: Math.max(...ws.map((w) => w.box.y1)),
    },
  }));
}

/**
 * The page as Tesseract reads it best: levelled when tilted (so a label and its value, in two
 * columns or a box to the right, fall on one row), and grey by each pixel's darkest channel, so
 * print in a brand's colour (an issuer's name in orange) is as dark as black ink on white paper
 * instead of a mid grey a photo's dark background pushes under the threshold.
 */
async function prepared(image: Buffer): Promise<Buffer> {
  const skew = await estimateSkew(image);
  const page = Math.abs(skew) >= MIN_SKEW_DEGREES ? sharp(image).rotate(-skew, { background: '#ffffff' }) : sharp(image);
  const { data, info } = await page.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels < 3)
    return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
      .png()
      .toBuffer();
  const grey = Buffer.alloc(info.width * info.height);
  for (let p = 0, i = 0; p < grey.length; p++, i += info.channels) grey[p] = Math.min(data[i], data[i + 1], data[i + 2]);
  return sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

/** Reads a proof of address (an image's bytes) with the English and French models: the worker's reading, and the address bench's. */
export async function readAddressDocument(image: Buffer, text: TextReader): Promise<AddressReading> {
  const read = await text.read(await prepared(image));
  const textConfidence = read.lines.length ? read.lines.reduce((sum, line) => sum + line.confidence, 0) / read.lines.length : 0;
  return { fields: readAddressFields(read.lines.flatMap(cellsOf)), textConfidence, lines: read.lines.map((line) => line.text) };
}
