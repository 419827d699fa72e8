import { decideDocument, nameKey } from '../document/document-check.js';
import { parseMrz } from '../document/mrz.js';
import { readPrintedFields } from '../document/printed-fields.js';
import { scoreOfCosine } from '../vision/face-match.js';
import { AMINA, corrupt, td3 } from '../../../../test/support/documents.js';
import {
  decideCognitiveKyc,
  documentTypeOfMrzCode,
  FACE_MATCH_THRESHOLD,
  riskLevelOf,
  SAME_PICTURE_COSINE,
  type CognitiveKycEvidence,
} from './cognitive-kyc-check.js';

const TD3 = td3(AMINA);
const PRINTED = ['SURNAME WANJIKU', 'GIVEN NAMES AMINA GRACE', 'DATE OF BIRTH 29.02.1984', 'PASSPORT NO A12345678'];
const page = { sharpness: 1100, brightness: 200, faceScores: [0.99], ocrConfidence: 90 };
const TODAY = '2026-11-25';

function documentOutcome(mrz = TD3, today = TODAY, changes: Partial<typeof page> = {}) {
  return decideDocument({
    documentType: 'PASSPORT',
    documentCountry: 'KE',
    front: { ...page, ...changes },
    back: null,
    printed: readPrintedFields(PRINTED),
    mrz: parseMrz(mrz, new Date(today)),
    today,
  });
}

/** A cosine of 0.73: the test portraits' own, the same person (score ≈ 0.97). */
const evidence = (changes: Partial<CognitiveKycEvidence> = {}): CognitiveKycEvidence => ({
  selfie: { sharpness: 1000, real: 0.7, embedding: [] },
  document: { outcome: documentOutcome(), documentType: 'PASSPORT', faceCount: 1, embedding: [] },
  cosine: 0.73,
  faceMatchScore: scoreOfCosine(0.73),
  history: { priorVerifications: 0, flaggedAttempts: 0, documentReused: false },
  ...changes,
});
const withScore = (score: number, cosine = 0.5) => evidence({ faceMatchScore: score, cosine });

describe('AI identity check decision', () => {
  it('approves the same person on a sound document, with the fields of the zone and a reasoning naming the score', () => {
    const outcome = decideCognitiveKyc(evidence());
    expect(outcome).toMatchObject({
      decision: 'APPROVED',
      reasons: [],
      riskLevel: 'LOW',
      fraudIndicators: { tampering: false, photoManipulation: false, expiredDocument: false, blurryImage: false },
      documentFields: { fullName: 'AMINA GRACE WANJIKU', documentNumber: 'A12345678', nationality: 'KE', documentType: 'PASSPORT' },
    });
    expect(outcome.faceMatchReasoning).toBe(
      `The selfie matches the document portrait: score ${scoreOfCosine(0.73).toFixed(2)} against a threshold of 0.80.`,
    );
    expect(outcome.confidence).toBeGreaterThan(0.6);
  });

  it('rejects another person, and is as sure as the score is low', () => {
    const outcome = decideCognitiveKyc(withScore(0.07, 0.4));
    expect(outcome).toMatchObject({ decision: 'REJECTED', reasons: ['FACE_MISMATCH'], confidence: 0.93 });
    expect(outcome.faceMatchReasoning).toMatch(/does not match .* score 0\.07, below the threshold of 0\.80/);
  });

  it('sends a score near the threshold to review', () => {
    const outcome = decideCognitiveKyc(withScore(0.7));
    expect(outcome).toMatchObject({ decision: 'MANUAL_REVIEW', reasons: ['FACE_MATCH_UNCERTAIN'] });
    expect(outcome.faceMatchReasoning).toMatch(/too close to call: score 0\.70/);
    expect(decideCognitiveKyc(withScore(FACE_MATCH_THRESHOLD)).decision).toBe('APPROVED');
  });

  it('rejects a tampered zone, an expired document, a faceless document and a manipulated selfie', () => {
    const broken = [TD3[0], corrupt(TD3[1], 22)]; // a digit of the expiry date
    const tampered = decideCognitiveKyc(evidence({ document: { ...evidence().document, outcome: documentOutcome(broken) } }));
    expect(tampered).toMatchObject({ decision: 'REJECTED', fraudIndicators: { tampering: true } });
    expect(tampered.reasons).toContain('MRZ_CHECK_DIGIT_FAILED:expirationDate');

    const expired = decideCognitiveKyc(evidence({ document: { ...evidence().document, outcome: documentOutcome(TD3, '2030-01-02') } }));
    expect(expired).toMatchObject({ decision: 'REJECTED', reasons: ['DOCUMENT_EXPIRED'], fraudIndicators: { expiredDocument: true } });

    const faceless = decideCognitiveKyc(evidence({ cosine: null, faceMatchScore: null }));
    expect(faceless).toMatchObject({ decision: 'REJECTED', reasons: ['NO_FACE_ON_DOCUMENT'] });
    expect(faceless.faceMatchReasoning).toMatch(/No face was found on the document/);

    const copied = decideCognitiveKyc(evidence({ cosine: SAME_PICTURE_COSINE, faceMatchScore: 1 }));
    expect(copied).toMatchObject({
      decision: 'REJECTED',
      reasons: ['SELFIE_COPIED_FROM_DOCUMENT'],
      fraudIndicators: { photoManipulation: true },
    });
    expect(copied.faceMatchReasoning).toMatch(/document's own picture/);

    const spoofed = decideCognitiveKyc(evidence({ selfie: { sharpness: 1000, real: 0.1, embedding: [] } }));
    expect(spoofed).toMatchObject({
      decision: 'REJECTED',
      reasons: ['SELFIE_SPOOF_SUSPECTED'],
      fraudIndicators: { photoManipulation: true },
    });
  });

  it('sends a blurred image, unread fields and a risky history to review', () => {
    const blurred = decideCognitiveKyc(evidence({ selfie: { sharpness: 40, real: 0.7, embedding: [] } }));
    expect(blurred).toMatchObject({ decision: 'MANUAL_REVIEW', reasons: ['IMAGE_TOO_BLURRY'], fraudIndicators: { blurryImage: true } });

    const noZone = decideDocument({
      documentType: 'ID_CARD',
      documentCountry: 'KE',
      front: page,
      back: null,
      printed: readPrintedFields([]),
      mrz: null,
      today: TODAY,
    });
    const unread = decideCognitiveKyc(evidence({ document: { ...evidence().document, outcome: noZone, documentType: null } }));
    expect(unread.decision).toBe('MANUAL_REVIEW');
    expect(unread.reasons).toContain('FIELDS_NOT_READ:fullName,dateOfBirth,documentNumber');

    const risky = decideCognitiveKyc(evidence({ history: { priorVerifications: 1, flaggedAttempts: 1, documentReused: true } }));
    expect(risky).toMatchObject({ decision: 'MANUAL_REVIEW', reasons: ['HIGH_FRAUD_RISK_HISTORY'], riskLevel: 'HIGH' });
  });

  it('rates the history: reuse of a document number or two rejections high, one medium', () => {
    expect(riskLevelOf({ flaggedAttempts: 0, documentReused: false })).toBe('LOW');
    expect(riskLevelOf({ flaggedAttempts: 1, documentReused: false })).toBe('MEDIUM');
    expect(riskLevelOf({ flaggedAttempts: 2, documentReused: false })).toBe('HIGH');
    expect(riskLevelOf({ flaggedAttempts: 0, documentReused: true })).toBe('HIGH');
  });

  it('tells the document type from the zone, and normalises names for searches', () => {
    expect([documentTypeOfMrzCode('P<'), documentTypeOfMrzCode('ID'), documentTypeOfMrzCode('V<'), documentTypeOfMrzCode(null)]).toEqual([
      'PASSPORT',
      'ID_CARD',
      null,
      null,
    ]);
    expect(nameKey("  Amína  d'Souza-Wanjikú ")).toBe('AMINA D SOUZA WANJIKU');
    expect(nameKey(' -- ')).toBeNull();
  });
});
