import type { TextReader } from '../vision/text-reader.js';
import { readAddressFields, type AddressDocumentFields } from './address-fields.js';

export interface AddressReading {
  fields: AddressDocumentFields;
  /** Mean OCR confidence of the lines, 0–100 (0 when nothing was read). */
  textConfidence: number;
  /** The lines read, top to bottom. */
  lines: string[];
}

/** Reads a proof of address (an image's bytes) with the English and French models: the worker's reading, and the address bench's. */
export async function readAddressDocument(image: Buffer, text: TextReader): Promise<AddressReading> {
  const read = await text.read(image);
  const lines = read.lines.map((line) => line.text);
  const textConfidence = read.lines.length ? read.lines.reduce((sum, line) => sum + line.confidence, 0) / read.lines.length : 0;
  return { fields: readAddressFields(lines), textConfidence, lines };
}
