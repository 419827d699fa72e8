import type { VisionPool } from '../vision/vision.pool.js';
import type { FaceAnalysis } from '../vision/vision.types.js';
import { decideDocument, type DocumentOutcome, type DocumentType, type ImageEvidence } from './document-check.js';
import type { MrzReading } from './mrz.js';
import { readPrintedFields } from './printed-fields.js';

/** What the models read and measured on one document image. */
export interface ImageReading {
  evidence: ImageEvidence;
  lines: string[];
  mrz: MrzReading | null;
  /** The largest face's description (the portrait; a passport's ghost image is smaller). */
  embedding: number[] | null;
}

/** The largest face of an analysis (the subject, not a face in the background or a ghost image). */
function largestFace(faces: readonly FaceAnalysis[]): FaceAnalysis | null {
  return [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0] ?? null;
}

/**
 * Reads document images out of the API process: faces, and text with the machine-readable zone
 * (document-text.ts), as two requests to the vision workers at once (two workers read them side by
 * side; one takes both, its OCR thread reading while it analyses the face).
 */
export class DocumentReader {
  constructor(private readonly vision: Pick<VisionPool, 'analyze' | 'readDocumentText'>) {}

  async read(jpeg: Buffer, today: Date): Promise<ImageReading> {
    const [analysis, text] = await Promise.all([this.vision.analyze(jpeg), this.vision.readDocumentText(jpeg, today)]);
    return {
      evidence: {
        sharpness: analysis.image.sharpness,
        brightness: analysis.image.brightness,
        faceScores: analysis.faces.map((f) => f.score),
        ocrConfidence: text.confidence,
      },
      lines: text.lines,
      mrz: text.mrz,
      embedding: largestFace(analysis.faces)?.embedding ?? null,
    };
  }
}

/** The document check on what was read of its front (and back). */
export function decideReadings(input: {
  documentType: DocumentType;
  /** ISO 3166-1 alpha-2 */
  documentCountry: string;
  front: ImageReading;
  back: ImageReading | null;
  today: Date;
}): DocumentOutcome {
  const { front, back } = input;
  return decideDocument({
    documentType: input.documentType,
    documentCountry: input.documentCountry,
    front: front.evidence,
    back: back?.evidence ?? null,
    printed: readPrintedFields([...front.lines, ...(back?.lines ?? [])]),
    // ID cards carry their zone on the back, passports at the foot of the data page
    mrz: back?.mrz ?? front.mrz,
    today: input.today.toISOString().slice(0, 10),
  });
}
