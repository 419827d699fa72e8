import { compareNames } from '../../../../screening/index.js';
import type { BusinessStatus } from './business.lifecycle.js';

/**
 * Where a business verification stands, computed from what is known of it: the pure rules of its
 * automatic moves (business.progress.ts gathers the facts and applies the answer). Each step moves
 * on its own; the status follows the steps:
 *
 * 1. the registry does not know the number, or says the company is no longer active → REJECTED
 *    (at once: nothing declared later can change that);
 * 2. no director or no UBO declared yet → PENDING (awaiting data);
 * 3. the registry lookup still running (or waiting to be retried) → PROCESSING;
 * 4. a reason for a reviewer (the registry's name differs from the declared one, a director or UBO
 *    matched a sanctions/PEP list, the registry stayed unavailable after every retry, no screening
 *    list loaded) → MANUAL_REVIEW;
 * 5. otherwise → VERIFIED.
 */

export const BUSINESS_STEP_STATUSES = [
  'PENDING',
  'PROCESSING',
  'VERIFIED',
  'CLEAR',
  'FLAGGED',
  'NOT_FOUND',
  'INACTIVE',
  'NAME_MISMATCH',
  'UNAVAILABLE',
] as const;
export type BusinessStepStatus = (typeof BUSINESS_STEP_STATUSES)[number];

export interface BusinessSteps {
  registration: BusinessStepStatus;
  directors: BusinessStepStatus;
  ubo: BusinessStepStatus;
  amlScreening: BusinessStepStatus;
}

/** What a creation shows (the spec: registration PROCESSING, the other three PENDING). */
export const INITIAL_STEPS: BusinessSteps = { registration: 'PROCESSING', directors: 'PENDING', ubo: 'PENDING', amlScreening: 'PENDING' };

/** The outcome of one director's or UBO's screening. */
export type PersonScreening = 'CLEAR' | 'POTENTIAL_MATCH' | 'UNAVAILABLE';

export type RegistryFact =
  | { outcome: 'PENDING' }
  /** `retrying`: another lookup is scheduled; false once every retry was spent. */
  | { outcome: 'UNAVAILABLE'; retrying: boolean }
  | { outcome: 'NOT_FOUND' }
  | { outcome: 'FOUND'; legalName: string; status: string | null };

export interface BusinessFacts {
  declaredName: string;
  registry: RegistryFact;
  directors: number;
  ubos: number;
  /** The screening of every director and UBO declared. */
  screenings: readonly PersonScreening[];
}

export interface BusinessProgress {
  status: BusinessStatus;
  steps: BusinessSteps;
  /** Why it was rejected or needs a reviewer (codes). */
  reasons: string[];
}

/** The declared name and the registry's are the same company name at this score or above (screening's name score, legal forms ignored). */
export const NAME_MATCH_THRESHOLD = 0.9;

/** Registry statuses of a company that no longer trades (the registries' words, any case). */
const INACTIVE_STATUS =
  /\b(dissolved|dissolution|struck[\s-]*off|strike[\s-]*off|removed|closed|inactive|liquidat\w*|deregistered|de-registered|cancell?ed|revoked|wound[\s-]*up|winding[\s-]*up)\b/i;

export function isInactiveStatus(status: string | null): boolean {
  return status !== null && INACTIVE_STATUS.test(status);
}

/** The declared name against the registry's: the screening engine's name score for organisations (legal forms, case, accents ignored). */
export function sameCompanyName(declared: string, registered: string): boolean {
  return compareNames(declared, registered, { entityType: 'ENTITY' }).score >= NAME_MATCH_THRESHOLD;
}

function registrationStep(facts: BusinessFacts): BusinessStepStatus {
  const r = facts.registry;
  switch (r.outcome) {
    case 'PENDING':
      return 'PROCESSING';
    case 'UNAVAILABLE':
      return 'UNAVAILABLE';
    case 'NOT_FOUND':
      return 'NOT_FOUND';
    default:
      if (isInactiveStatus(r.status)) return 'INACTIVE';
      return sameCompanyName(facts.declaredName, r.legalName) ? 'VERIFIED' : 'NAME_MISMATCH';
  }
}

function screeningStep(screenings: readonly PersonScreening[]): BusinessStepStatus {
  if (!screenings.length) return 'PENDING';
  if (screenings.includes('POTENTIAL_MATCH')) return 'FLAGGED';
  if (screenings.includes('UNAVAILABLE')) return 'UNAVAILABLE';
  return 'CLEAR';
}

export function businessProgress(facts: BusinessFacts): BusinessProgress {
  const steps: BusinessSteps = {
    registration: registrationStep(facts),
    directors: facts.directors > 0 ? 'VERIFIED' : 'PENDING',
    ubo: facts.ubos > 0 ? 'VERIFIED' : 'PENDING',
    amlScreening: screeningStep(facts.screenings),
  };
  const gaveUp = facts.registry.outcome === 'UNAVAILABLE' && !facts.registry.retrying;
  const rejections = [
    steps.registration === 'NOT_FOUND' && 'REGISTRATION_NOT_FOUND',
    steps.registration === 'INACTIVE' && 'REGISTRY_STATUS_INACTIVE',
  ].filter((r): r is string => typeof r === 'string');
  const reviews = [
    steps.registration === 'NAME_MISMATCH' && 'REGISTRY_NAME_MISMATCH',
    gaveUp && 'REGISTRY_UNAVAILABLE',
    steps.amlScreening === 'FLAGGED' && 'AML_POTENTIAL_MATCH',
    steps.amlScreening === 'UNAVAILABLE' && 'AML_LISTS_NOT_LOADED',
  ].filter((r): r is string => typeof r === 'string');

  let status: BusinessStatus;
  if (rejections.length) status = 'REJECTED';
  else if (steps.directors === 'PENDING' || steps.ubo === 'PENDING') status = 'PENDING';
  else if (steps.registration === 'PROCESSING' || (steps.registration === 'UNAVAILABLE' && !gaveUp)) status = 'PROCESSING';
  else if (reviews.length) status = 'MANUAL_REVIEW';
  else status = 'VERIFIED';
  return { status, steps, reasons: status === 'REJECTED' ? rejections : reviews };
}
