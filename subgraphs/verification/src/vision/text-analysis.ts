import { readAddressDocument, type AddressReading } from '../address/address-reader.js';
import { readDocumentText, type DocumentText } from '../document/document-text.js';
import { TextReader } from './text-reader.js';

/**
 * Text reading in a vision worker process (vision.worker.ts imports this module on its first text
 * request: a worker that only judges faces never loads it). Each reader starts its Tesseract
 * worker on its first read and stops it after `VISION_IDLE_MS` without one (the pool passes it as
 * the process's argument), so a worker kept busy with faces gives the OCR memory back.
 */
const idleMs = process.argv[2] ? Number(process.argv[2]) : undefined;
const english = new TextReader(['eng'], { idleMs });
// proofs of address are read with the English and French models together
const englishAndFrench = new TextReader(['eng', 'fra'], { idleMs });

export const readDocument = (image: Buffer, today: Date): Promise<DocumentText> => readDocumentText(image, english, today);
export const readAddress = (image: Buffer): Promise<AddressReading> => readAddressDocument(image, englishAndFrench);
