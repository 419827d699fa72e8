import type { MrzReading } from './mrz.js';
import type { PrintedFields } from './printed-fields.js';
import { countryCode } from './printed-fields.js';

export const DOCUMENT_TYPES = ['ID_CARD', 'PASSPORT', 'DRIVER_LICENSE', 'RESIDENCE_PERMIT'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * The decision on a document from what was read and measured: REJECTED when a check fails for
 * certain (a check digit, an expired document, no portrait, an image too blurred to trust),
 * MANUAL_REVIEW when the evidence is incomplete or inconsistent, VERIFIED otherwise. A pure
 * function: the worker measures, this decides.
 */

/** Sharpness (variance of the Laplacian, vision worker) below which an image is too blurred to read: a rendered card measures ≈ 2,000–6,000, the same card blurred by σ = 3 below 100. */
export const BLURRED_BELOW = 150;
/** Below this an image is soft: readable, but a reviewer should look. */
export const SOFT_BELOW = 400;
/** Mean brightness (0–255) outside which the lighting is poor. */
export const DARK_BELOW = 40;
export const BRIGHT_ABOVE = 240;
/** Mean OCR confidence (0–100) below which the printed fields are not trusted alone. */
export const LOW_OCR_CONFIDENCE = 60;
/** Face detector score below which the portrait is doubtful. */
export const DOUBTFUL_FACE = 0.6;

export type DocumentDecision = 'VERIFIED' | 'REJECTED' | 'MANUAL_REVIEW';

export interface ImageEvidence {
  sharpness: number;
  brightness: number;
  /** Detector scores of the faces found (the portrait; a passport may show a second, ghost image). */
  faceScores: number[];
  /** Mean OCR confidence of the image's lines, 0–100 (0 when nothing was read). */
  ocrConfidence: number;
}

export interface DocumentEvidence {
  documentType: DocumentType;
  /** ISO 3166-1 alpha-2 */
  documentCountry: string;
  front: ImageEvidence;
  back: ImageEvidence | null;
  printed: PrintedFields;
  mrz: MrzReading | null;
  /** YYYY-MM-DD */
  today: string;
}

export interface ExtractedData {
  fullName: string | null;
  dateOfBirth: string | null;
  documentNumber: string | null;
  expiryDate: string | null;
  /** ISO 3166-1 alpha-2 */
  nationality: string | null;
}

export interface DocumentOutcome {
  decision: DocumentDecision;
  /** 0–1: how much the evidence supports the decision. */
  confidence: number;
  /** Why it was rejected or sent to review (codes, in the order found); empty when verified. */
  reasons: string[];
  extractedData: ExtractedData;
  /** What was checked, for the record and for reviewers. */
  checks: {
    mrzFound: boolean;
    mrzValid: boolean | null;
    mrzFailedChecks: string[];
    expired: boolean | null;
    faceFound: boolean;
    sharpness: number;
    ocrConfidence: number;
  };
}

/** The MRZ's document code for a type: passports P, the cards I, A or C (ICAO 9303). */
const MRZ_CODES: Record<DocumentType, RegExp> = {
  PASSPORT: /^P/,
  ID_CARD: /^[IAC]/,
  RESIDENCE_PERMIT: /^[IAC]/,
  DRIVER_LICENSE: /^[IACD]/,
};

/**
 * A name as searches compare it: accents dropped, upper case, anything but letters one space
 * ("Amína  d'Souza" → "AMINA D SOUZA"); null when nothing is left.
 */
export function nameKey(name: string | null | undefined): string | null {
  const key = (name ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim();
  return key || null;
}

const fullNameOf = (mrz: MrzReading) => [mrz.givenNames, mrz.surname].filter(Boolean).join(' ') || null;
const sameName = (a: string, b: string) => a.replace(/[^A-Z]/gi, '').toUpperCase() === b.replace(/[^A-Z]/gi, '').toUpperCase();

export function decideDocument(e: DocumentEvidence): DocumentOutcome {
  const rejected: string[] = [];
  const review: string[] = [];
  const mrz = e.mrz;
  const trustedMrz = mrz?.valid ? mrz : null;

  // the MRZ is the authority, field by field: its reading holds a checked field (number, dates)
  // only when that field's own check digit holds; the printed fields fill the gaps
  const extractedData: ExtractedData = {
    fullName: (mrz && fullNameOf(mrz)) ?? e.printed.fullName,
    dateOfBirth: mrz?.dateOfBirth ?? e.printed.dateOfBirth,
    documentNumber: mrz?.documentNumber ?? e.printed.documentNumber,
    expiryDate: mrz?.expiryDate ?? e.printed.expiryDate,
    nationality: (mrz?.nationality ? countryCode(mrz.nationality) : null) ?? e.printed.nationality,
  };

  const images = [e.front, ...(e.back ? [e.back] : [])];
  const sharpness = Math.min(...images.map((i) => i.sharpness));
  if (sharpness < BLURRED_BELOW) rejected.push('IMAGE_TOO_BLURRY');
  else if (sharpness < SOFT_BELOW) review.push('LOW_IMAGE_QUALITY');
  if (images.some((i) => i.brightness < DARK_BELOW || i.brightness > BRIGHT_ABOVE)) review.push('POOR_LIGHTING');

  const face = Math.max(0, ...e.front.faceScores);
  if (e.front.faceScores.length === 0) rejected.push('NO_FACE_ON_DOCUMENT');
  else if (face < DOUBTFUL_FACE) review.push('FACE_UNCLEAR');

  // each failed check named: MRZ_CHECK_DIGIT_FAILED:birthDate
  for (const field of mrz?.failedChecks ?? []) rejected.push(`MRZ_CHECK_DIGIT_FAILED:${field}`);
  // no check digit covers the state codes: one that is no ICAO code was misread, or made up
  for (const field of mrz?.unknownStates ?? []) review.push(`MRZ_UNKNOWN_STATE_CODE:${field}`);
  // a field the image leaves in doubt (a name glyph with a close runner-up, look-alikes a check digit cannot tell apart): a person looks
  for (const field of mrz?.doubtful ?? []) review.push(`MRZ_FIELD_UNCERTAIN:${field}`);
  if (!mrz && e.documentType === 'PASSPORT') review.push('MRZ_NOT_FOUND');
  if (trustedMrz) {
    if (!MRZ_CODES[e.documentType].test(trustedMrz.documentCode)) review.push('DOCUMENT_TYPE_MISMATCH');
    const issuer = trustedMrz.issuingState ? countryCode(trustedMrz.issuingState) : null;
    if (issuer && issuer !== e.documentCountry) review.push('COUNTRY_MISMATCH');
    const printed = e.printed;
    const disagree =
      (printed.documentNumber && trustedMrz.documentNumber && printed.documentNumber !== trustedMrz.documentNumber) ||
      (printed.dateOfBirth && trustedMrz.dateOfBirth && printed.dateOfBirth !== trustedMrz.dateOfBirth) ||
      (printed.expiryDate && trustedMrz.expiryDate && printed.expiryDate !== trustedMrz.expiryDate) ||
      (printed.fullName && extractedData.fullName && !sameName(printed.fullName, extractedData.fullName));
    if (disagree) review.push('PRINTED_FIELDS_DIFFER_FROM_MRZ');
  }

  const expired = extractedData.expiryDate ? extractedData.expiryDate < e.today : null;
  if (expired) rejected.push('DOCUMENT_EXPIRED');
  const missing = (['fullName', 'dateOfBirth', 'documentNumber'] as const).filter((f) => !extractedData[f]);
  if (missing.length) review.push(`FIELDS_NOT_READ:${missing.join(',')}`);
  const ocrConfidence = Math.round(Math.max(...images.map((i) => i.ocrConfidence)));
  if (!trustedMrz && ocrConfidence < LOW_OCR_CONFIDENCE) review.push('LOW_TEXT_CONFIDENCE');

  const decision: DocumentDecision = rejected.length ? 'REJECTED' : review.length ? 'MANUAL_REVIEW' : 'VERIFIED';
  // evidence quality: the text's confidence, the portrait's, the image's sharpness, a valid MRZ
  const quality =
    (trustedMrz ? 1 : 0.8) *
    Math.min(1, ocrConfidence / 90) *
    (face || 0.5) *
    Math.min(1, sharpness / SOFT_BELOW) *
    (decision === 'MANUAL_REVIEW' ? 0.7 : 1);
  return {
    decision,
    confidence: Math.round(Math.max(0.05, Math.min(0.99, decision === 'REJECTED' ? Math.max(quality, 0.9) : quality)) * 100) / 100,
    reasons: [...rejected, ...review],
    extractedData,
    checks: {
      mrzFound: mrz !== null,
      mrzValid: mrz ? mrz.valid : null,
      mrzFailedChecks: mrz?.failedChecks ?? [],
      expired,
      faceFound: e.front.faceScores.length > 0,
      sharpness: Math.round(sharpness),
      ocrConfidence,
    },
  };
}
