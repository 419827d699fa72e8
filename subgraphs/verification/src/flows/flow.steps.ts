import type { IdentityTier } from '../identity/identity.entity.js';

/**
 * What a flow asks of the person, and where each step stands: the newest check of its kind the
 * user made since the flow was created. Pure rules; flow.service.ts reads the checks.
 */

export const FLOW_STEPS = ['DOCUMENT', 'LIVENESS', 'PHONE', 'EMAIL', 'ADDRESS'] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];

export const FLOW_LOCALES = ['en', 'fr'] as const;
export type FlowLocale = (typeof FLOW_LOCALES)[number];

export interface FlowBranding {
  logoUrl?: string | null;
  primaryColor?: string | null;
  accentColor?: string | null;
}

/** The steps an identity tier needs (identity-progress.ts: the face match and AML run by themselves). */
export const TIER_STEPS: Record<IdentityTier, FlowStep[]> = {
  BASIC: ['DOCUMENT'],
  STANDARD: ['DOCUMENT', 'LIVENESS'],
  ENHANCED: ['DOCUMENT', 'LIVENESS'],
};

/** The session scope each step needs: submitting that user's own check (which also reads and follows it). */
export const STEP_SCOPE: Record<FlowStep, string> = {
  DOCUMENT: 'document:submit',
  LIVENESS: 'liveness:submit',
  PHONE: 'phone:submit',
  EMAIL: 'email:submit',
  ADDRESS: 'address:submit',
};

/** The page also reads its flow. */
export const FLOW_READ_SCOPE = 'flow:read';

export const STEP_STATUSES = ['NOT_STARTED', 'IN_PROGRESS', 'PROCESSING', 'PASSED', 'FAILED', 'MANUAL_REVIEW'] as const;
export type FlowStepStatus = (typeof STEP_STATUSES)[number];

/** Each check's statuses as a step's: waiting for the person (IN_PROGRESS), for the platform (PROCESSING), or decided. */
const STEP_STATUS_OF: Record<FlowStep, Record<string, FlowStepStatus>> = {
  DOCUMENT: { PENDING: 'PROCESSING', PROCESSING: 'PROCESSING', VERIFIED: 'PASSED', REJECTED: 'FAILED', MANUAL_REVIEW: 'MANUAL_REVIEW' },
  LIVENESS: { IN_PROGRESS: 'IN_PROGRESS', PASSED: 'PASSED', FAILED: 'FAILED', EXPIRED: 'FAILED' },
  PHONE: { PENDING: 'IN_PROGRESS', VERIFIED: 'PASSED', FAILED: 'FAILED', EXPIRED: 'FAILED' },
  EMAIL: { PENDING: 'IN_PROGRESS', VERIFIED: 'PASSED', FAILED: 'FAILED', EXPIRED: 'FAILED' },
  ADDRESS: { PROCESSING: 'PROCESSING', VERIFIED: 'PASSED', REJECTED: 'FAILED', MANUAL_REVIEW: 'MANUAL_REVIEW' },
};

export interface FlowStepState {
  step: FlowStep;
  status: FlowStepStatus;
  /** The check the status is read from; null before the person starts the step. */
  checkId: string | null;
}

export function stepState(step: FlowStep, check: { id: string; status: string } | undefined): FlowStepState {
  if (!check) return { step, status: 'NOT_STARTED', checkId: null };
  return { step, status: STEP_STATUS_OF[step][check.status] ?? 'PROCESSING', checkId: check.id };
}

export const FLOW_STATES = ['CREATED', 'OPENED', 'COMPLETED', 'EXPIRED'] as const;
export type FlowState = (typeof FLOW_STATES)[number];

/**
 * COMPLETED when nothing is left for the person: every step passed or is with a reviewer (a failed
 * step may be tried again while the link lives); EXPIRED past its time otherwise.
 */
export function flowState(status: 'CREATED' | 'OPENED', steps: FlowStepState[], expiresAt: Date, now = new Date()): FlowState {
  if (steps.every((s) => s.status === 'PASSED' || s.status === 'MANUAL_REVIEW')) return 'COMPLETED';
  return expiresAt <= now ? 'EXPIRED' : status;
}

/** `#1a2b3c`: the only colour form the page applies (no CSS is taken from the integrator). */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
