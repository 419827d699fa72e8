import { BLURRED_BELOW, type DocumentOutcome, type DocumentType, type ExtractedData } from '../document/document-check.js';
import { PORTRAIT_MATCH } from '../vision/face-match.js';

/**
 * The AI identity check's decision from what was measured on the selfie and the document: a pure
 * function (the service measures, this decides). REJECTED when a check fails for certain (another
 * person, a tampered or expired document, a manipulated selfie, no portrait to compare with),
 * MANUAL_REVIEW when unsure, APPROVED otherwise. Every threshold is here, with why.
 */

/** Face match on the API's 0–1 scale: the portrait thresholds every selfie ↔ document comparison uses (face-match.ts). */
export const FACE_MATCH_THRESHOLD = PORTRAIT_MATCH.pass;
/** Below this score the selfie shows another person; between it and the threshold a reviewer compares. */
export const FACE_MISMATCH_BELOW = PORTRAIT_MATCH.reject;
/**
 * A model cosine at or above this means the two faces come from the same picture, not two photos:
 * two photos of one person stay ≈ 0.64, the same photo re-encoded, resized or relit measures
 * 0.96–1.00 (a portrait printed smaller on a passport page ≈ 0.73). The selfie is then the
 * document's own portrait (or its source), not a new photo of the person.
 */
export const SAME_PICTURE_COSINE = 0.97;
/**
 * The anti-spoof model's `real` score (0–1) under which the selfie is taken for a print or a
 * screen. The model is noisy on stills (genuine test portraits measure 0.44–0.92), so only a
 * confident spoof verdict counts.
 */
export const SPOOF_BELOW = 0.3;

export type CognitiveKycDecision = 'APPROVED' | 'REJECTED' | 'MANUAL_REVIEW';
export type FraudRiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface SelfieEvidence {
  /** Variance of the Laplacian (the document check's measure). */
  sharpness: number;
  /** Anti-spoof `real` score, 0–1; null when not measured. */
  real: number | null;
  embedding: number[];
}

export interface DocumentImageEvidence {
  outcome: DocumentOutcome;
  /** What kind of document the machine-readable zone says it is; null without a valid zone. */
  documentType: DocumentType | null;
  /** Faces found on the document image (a passport may show a second, ghost portrait). */
  faceCount: number;
  /** The largest face's description; null without a face. */
  embedding: number[] | null;
}

/** The organization's earlier records about this person or document (fraud-history.ts). */
export interface FraudHistorySummary {
  priorVerifications: number;
  flaggedAttempts: number;
  /** The same document number was used under another userId. */
  documentReused: boolean;
}

export interface CognitiveKycEvidence {
  selfie: SelfieEvidence;
  document: DocumentImageEvidence;
  /** Cosine similarity of the two faces (face-match.ts); null without a document face. */
  cosine: number | null;
  /** The API's 0–1 score of `cosine`. */
  faceMatchScore: number | null;
  history: FraudHistorySummary;
}

export interface DocumentFields extends ExtractedData {
  documentType: DocumentType | null;
}

export interface FraudIndicators {
  tampering: boolean;
  photoManipulation: boolean;
  expiredDocument: boolean;
  blurryImage: boolean;
}

export interface CognitiveKycOutcome {
  decision: CognitiveKycDecision;
  /** 0–1: how much the evidence supports the decision. */
  confidence: number;
  faceMatchReasoning: string;
  documentFields: DocumentFields;
  fraudIndicators: FraudIndicators;
  riskLevel: FraudRiskLevel;
  /** Why it was rejected or sent to review (codes, in the order found); empty when approved. */
  reasons: string[];
}

/**
 * HIGH: the document number is used by another user, or at least two earlier attempts were
 * rejected; MEDIUM: one was; LOW otherwise.
 */
export function riskLevelOf(history: Pick<FraudHistorySummary, 'flaggedAttempts' | 'documentReused'>): FraudRiskLevel {
  if (history.documentReused || history.flaggedAttempts >= 2) return 'HIGH';
  return history.flaggedAttempts === 1 ? 'MEDIUM' : 'LOW';
}

const two = (n: number) => n.toFixed(2);

function reasoningOf(e: CognitiveKycEvidence, copied: boolean): string {
  const { faceMatchScore: score, document } = e;
  if (score === null) return 'No face was found on the document image, so the selfie could not be compared with a portrait.';
  const faces = document.faceCount > 1 ? ` (the largest of ${document.faceCount} faces on the document)` : '';
  if (copied) {
    return `The selfie is the document's own picture, not a new photo of the person: the two faces are virtually identical (model cosine ${e.cosine!.toFixed(3)}, at least ${SAME_PICTURE_COSINE} means the same picture).`;
  }
  if (score >= FACE_MATCH_THRESHOLD) {
    return `The selfie matches the document portrait${faces}: score ${two(score)} against a threshold of ${two(FACE_MATCH_THRESHOLD)}.`;
  }
  if (score < FACE_MISMATCH_BELOW) {
    return `The selfie does not match the document portrait${faces}: score ${two(score)}, below the threshold of ${two(FACE_MATCH_THRESHOLD)} and under ${two(FACE_MISMATCH_BELOW)}, so another person.`;
  }
  return `The selfie and the document portrait${faces} are too close to call: score ${two(score)} against a threshold of ${two(FACE_MATCH_THRESHOLD)}; a reviewer should compare them.`;
}

export function decideCognitiveKyc(e: CognitiveKycEvidence): CognitiveKycOutcome {
  const rejected: string[] = [];
  const review: string[] = [];
  const { outcome } = e.document;
  const score = e.faceMatchScore;

  if (score === null) rejected.push('NO_FACE_ON_DOCUMENT');
  else if (score < FACE_MISMATCH_BELOW) rejected.push('FACE_MISMATCH');
  else if (score < FACE_MATCH_THRESHOLD) review.push('FACE_MATCH_UNCERTAIN');

  const tampering = outcome.checks.mrzValid === false || outcome.reasons.includes('PRINTED_FIELDS_DIFFER_FROM_MRZ');
  // the document check names each failed check digit (MRZ_CHECK_DIGIT_FAILED:birthDate)
  const failedCheckDigits = outcome.reasons.filter((r) => r.startsWith('MRZ_CHECK_DIGIT_FAILED:'));
  rejected.push(...failedCheckDigits);
  if (outcome.reasons.includes('PRINTED_FIELDS_DIFFER_FROM_MRZ')) rejected.push('PRINTED_FIELDS_DIFFER_FROM_MRZ');

  const expiredDocument = outcome.checks.expired === true;
  if (expiredDocument) rejected.push('DOCUMENT_EXPIRED');

  const copied = e.cosine !== null && e.cosine >= SAME_PICTURE_COSINE;
  const spoofed = e.selfie.real !== null && e.selfie.real < SPOOF_BELOW;
  if (copied) rejected.push('SELFIE_COPIED_FROM_DOCUMENT');
  if (spoofed) rejected.push('SELFIE_SPOOF_SUSPECTED');

  // a blurred image is no evidence of fraud: a reviewer (or a retake) decides
  const blurryImage = e.selfie.sharpness < BLURRED_BELOW || outcome.checks.sharpness < BLURRED_BELOW;
  if (blurryImage) review.push('IMAGE_TOO_BLURRY');
  // the document check's other doubts (fields not read, low text confidence, lighting…)
  const settled = new Set([
    'IMAGE_TOO_BLURRY',
    'NO_FACE_ON_DOCUMENT',
    ...failedCheckDigits,
    'PRINTED_FIELDS_DIFFER_FROM_MRZ',
    'DOCUMENT_EXPIRED',
  ]);
  review.push(...outcome.reasons.filter((r) => !settled.has(r)));

  const riskLevel = riskLevelOf(e.history);
  if (riskLevel === 'HIGH') review.push('HIGH_FRAUD_RISK_HISTORY');

  const decision: CognitiveKycDecision = rejected.length ? 'REJECTED' : review.length ? 'MANUAL_REVIEW' : 'APPROVED';
  // approved: both the face and the document support it; rejected: a failed check is near-certain,
  // a mismatch as certain as the score is low; in review: the weaker of the two, discounted
  const supported = (score ?? 0) * outcome.confidence;
  const certainty =
    decision === 'APPROVED'
      ? supported
      : decision === 'REJECTED'
        ? rejected.some((r) => r !== 'FACE_MISMATCH')
          ? 0.95
          : 1 - (score ?? 0)
        : Math.min(score ?? 0.5, outcome.confidence) * 0.7;
  return {
    decision,
    confidence: Math.round(Math.max(0.05, Math.min(0.99, certainty)) * 100) / 100,
    faceMatchReasoning: reasoningOf(e, copied),
    documentFields: { ...outcome.extractedData, documentType: e.document.documentType },
    fraudIndicators: { tampering, photoManipulation: copied || spoofed, expiredDocument, blurryImage },
    riskLevel,
    reasons: [...rejected, ...review],
  };
}

/** The kind of document a machine-readable zone's document code names (ICAO 9303): P a passport, I, A or C a card. */
export function documentTypeOfMrzCode(code: string | null | undefined): DocumentType | null {
  if (!code) return null;
  if (code.startsWith('P')) return 'PASSPORT';
  return /^[IAC]/.test(code) ? 'ID_CARD' : null;
}
