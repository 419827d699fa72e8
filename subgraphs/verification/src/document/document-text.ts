import type { TextReader } from '../vision/text-reader.js';
import { readMrz, type MrzReading } from './mrz.js';

/** What was read of a document image's text. */
export interface DocumentText {
  /** The lines read, top to bottom. */
  lines: string[];
  /** Mean OCR confidence of the lines, 0–100 (0 when nothing was read). */
  confidence: number;
  mrz: MrzReading | null;
}

/**
 * A document image's text, then its machine-readable zone from that text (re-read with the MRZ
 * alphabet where needed). Run in a vision worker process (vision.worker.ts), never in the API's:
 * Tesseract's threads and the zone's glyph matching are the worker's CPU and memory.
 */
export async function readDocumentText(jpeg: Buffer, text: TextReader, today: Date): Promise<DocumentText> {
  const read = await text.read(jpeg);
  return {
    lines: read.lines.map((l) => l.text),
    confidence: read.lines.length ? read.lines.reduce((sum, l) => sum + l.confidence, 0) / read.lines.length : 0,
    mrz: await readMrz(jpeg, text, { lines: read.lines, today }),
  };
}
