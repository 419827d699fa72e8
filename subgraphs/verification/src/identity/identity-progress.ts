import { PORTRAIT_MATCH } from '../vision/face-match.js';
import type { IdentityStatus, IdentityTier } from './identity.lifecycle.js';

/**
 * Where an identity verification stands, computed from the user's submissions: the pure rules of
 * the automatic moves (identity.orchestrator.ts gathers the facts and applies the answer).
 * BASIC needs the document; STANDARD the document, liveness and a face match between the
 * document's portrait and the liveness reference selfie; ENHANCED adds an AML screening of the
 * name and date of birth read from the document.
 */

export const STEP_STATUSES = ['NOT_REQUIRED', 'AWAITING', 'PROCESSING', 'PASSED', 'FAILED', 'MANUAL_REVIEW'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface IdentitySteps {
  document: StepStatus;
  liveness: StepStatus;
  faceMatch: StepStatus;
  aml: StepStatus;
}

/** Document portrait ↔ liveness reference selfie: the thresholds of every selfie ↔ document comparison. */
export const IDENTITY_FACE_MATCH = PORTRAIT_MATCH;

export interface IdentityFacts {
  tier: IdentityTier;
  /** The newest document submitted since the verification started. */
  document: { status: 'PENDING' | 'PROCESSING' | 'VERIFIED' | 'REJECTED' | 'MANUAL_REVIEW'; hasFace: boolean } | null;
  /** The newest liveness session started since the verification started. */
  liveness: { status: 'IN_PROGRESS' | 'PASSED' | 'FAILED' | 'EXPIRED'; hasReference: boolean } | null;
  /** Document portrait ↔ liveness reference, when both faces exist. */
  faceMatchScore: number | null;
  /** The screening made for this verification (ENHANCED). */
  aml: { status: 'CLEAR' | 'POTENTIAL_MATCH' | 'CONFIRMED_MATCH' } | null;
  /** ENHANCED: false when no screening list is loaded (the screening cannot run). */
  amlAvailable: boolean;
}

export interface IdentityProgress {
  status: IdentityStatus;
  steps: IdentitySteps;
  /** Why it was rejected or needs a reviewer (codes, as document reasons). */
  reasons: string[];
  /** ENHANCED: every other step passed and no screening was made yet: make it now. */
  screenAml: boolean;
}

const DOCUMENT_STEP: Record<NonNullable<IdentityFacts['document']>['status'], StepStatus> = {
  PENDING: 'PROCESSING',
  PROCESSING: 'PROCESSING',
  VERIFIED: 'PASSED',
  REJECTED: 'FAILED',
  MANUAL_REVIEW: 'MANUAL_REVIEW',
};
const LIVENESS_STEP: Record<NonNullable<IdentityFacts['liveness']>['status'], StepStatus> = {
  IN_PROGRESS: 'PROCESSING',
  PASSED: 'PASSED',
  FAILED: 'FAILED',
  EXPIRED: 'FAILED',
};
const AML_STEP: Record<NonNullable<IdentityFacts['aml']>['status'], StepStatus> = {
  CLEAR: 'PASSED',
  POTENTIAL_MATCH: 'MANUAL_REVIEW',
  CONFIRMED_MATCH: 'FAILED',
};

function faceMatchStep(facts: IdentityFacts, document: StepStatus, liveness: StepStatus): StepStatus {
  if (facts.tier === 'BASIC') return 'NOT_REQUIRED';
  if (facts.faceMatchScore != null) {
    if (facts.faceMatchScore >= IDENTITY_FACE_MATCH.pass) return 'PASSED';
    return facts.faceMatchScore < IDENTITY_FACE_MATCH.reject ? 'FAILED' : 'MANUAL_REVIEW';
  }
  // a face is missing on a side that is otherwise decided: nothing to compare, a reviewer looks
  const documentFaceless = document !== 'PROCESSING' && document !== 'AWAITING' && facts.document && !facts.document.hasFace;
  if (documentFaceless && liveness === 'PASSED') return 'MANUAL_REVIEW';
  return document === 'AWAITING' || liveness === 'AWAITING' ? 'AWAITING' : 'PROCESSING';
}

export function identityProgress(facts: IdentityFacts): IdentityProgress {
  const needsLiveness = facts.tier !== 'BASIC';
  const document = facts.document ? DOCUMENT_STEP[facts.document.status] : 'AWAITING';
  const liveness = !needsLiveness ? 'NOT_REQUIRED' : facts.liveness ? LIVENESS_STEP[facts.liveness.status] : 'AWAITING';
  const faceMatch = faceMatchStep(facts, document, liveness);
  const before: StepStatus[] = [document, liveness, faceMatch];
  const othersPassed = before.every((s) => s === 'PASSED' || s === 'NOT_REQUIRED');
  let aml: StepStatus = 'NOT_REQUIRED';
  if (facts.tier === 'ENHANCED') {
    if (facts.aml) aml = AML_STEP[facts.aml.status];
    else if (othersPassed && !facts.amlAvailable) aml = 'MANUAL_REVIEW';
    else aml = othersPassed ? 'PROCESSING' : 'AWAITING';
  }
  const steps: IdentitySteps = { document, liveness, faceMatch, aml };
  const screenAml = facts.tier === 'ENHANCED' && !facts.aml && othersPassed && facts.amlAvailable;

  const reasons = [
    document === 'FAILED' && 'DOCUMENT_REJECTED',
    document === 'MANUAL_REVIEW' && 'DOCUMENT_NEEDS_REVIEW',
    liveness === 'FAILED' && `LIVENESS_${facts.liveness!.status}`,
    faceMatch === 'FAILED' && 'FACE_MISMATCH',
    faceMatch === 'MANUAL_REVIEW' && (facts.faceMatchScore == null ? 'NO_FACE_TO_COMPARE' : 'FACE_MATCH_UNCERTAIN'),
    aml === 'FAILED' && 'AML_CONFIRMED_MATCH',
    aml === 'MANUAL_REVIEW' && (facts.aml ? 'AML_POTENTIAL_MATCH' : 'AML_LISTS_NOT_LOADED'),
  ].filter((r): r is string => typeof r === 'string');

  const all = Object.values(steps);
  const submitted = facts.document != null || facts.liveness != null;
  let status: IdentityStatus;
  if (all.includes('FAILED')) status = 'REJECTED';
  else if (all.some((s) => s === 'AWAITING' || s === 'PROCESSING')) status = submitted ? 'IN_PROGRESS' : 'PENDING';
  else if (all.includes('MANUAL_REVIEW')) status = 'MANUAL_REVIEW';
  else status = 'VERIFIED';
  return { status, steps, reasons, screenAml };
}
