import { conflict } from '../../../../platform/errors.js';
import type { ListKind } from '../../../../screening/index.js';

export const AML_STATUSES = ['CLEAR', 'POTENTIAL_MATCH', 'CONFIRMED_MATCH'] as const;
export type AmlStatus = (typeof AML_STATUSES)[number];
export const AML_RISK_LEVELS = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type AmlRiskLevel = (typeof AML_RISK_LEVELS)[number];
export const HIT_RESOLUTIONS = ['OPEN', 'TRUE_POSITIVE', 'FALSE_POSITIVE'] as const;
export type HitResolution = (typeof HIT_RESOLUTIONS)[number];
export const AML_BATCH_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED'] as const;
export type AmlBatchStatus = (typeof AML_BATCH_STATUSES)[number];
export const SUBJECT_STATUSES = ['PENDING', 'DONE', 'FAILED'] as const;
export type SubjectStatus = (typeof SUBJECT_STATUSES)[number];

export type AmlTrigger = 'screened.clear' | 'screened.matches' | 'review.true_positive' | 'review.all_false_positive' | 'review.recorded';

interface Transition {
  /** `null` = a new screening */
  from: readonly (AmlStatus | null)[];
  trigger: AmlTrigger;
  /** `null` = unchanged */
  to: AmlStatus | null;
  event: string;
}

/**
 * The AML screening state table as data. A screening is CLEAR (no match at or above the
 * threshold) or POTENTIAL_MATCH; a reviewer resolves each match TRUE_POSITIVE or FALSE_POSITIVE:
 * one true positive confirms the screening, all false positives clear it.
 */
export const AML_TRANSITIONS: readonly Transition[] = [
  { from: [null], trigger: 'screened.clear', to: 'CLEAR', event: 'aml.clear' },
  { from: [null], trigger: 'screened.matches', to: 'POTENTIAL_MATCH', event: 'aml.flagged' },
  { from: ['POTENTIAL_MATCH'], trigger: 'review.true_positive', to: 'CONFIRMED_MATCH', event: 'aml.flagged' },
  { from: ['POTENTIAL_MATCH'], trigger: 'review.all_false_positive', to: 'CLEAR', event: 'aml.clear' },
  { from: ['POTENTIAL_MATCH', 'CONFIRMED_MATCH'], trigger: 'review.recorded', to: null, event: 'aml.match_resolved' },
];

export function transition(from: AmlStatus | null, trigger: AmlTrigger): Transition {
  const t = AML_TRANSITIONS.find((x) => x.trigger === trigger && x.from.includes(from));
  if (!t) throw conflict(`Cannot apply ${trigger} to a screening in status ${from ?? 'none'}`);
  return t;
}

/** Hit reviews: OPEN → TRUE_POSITIVE | FALSE_POSITIVE, once. */
export function resolveHit(current: HitResolution, to: Exclude<HitResolution, 'OPEN'>): HitResolution {
  if (current !== 'OPEN') throw conflict(`This match was already resolved as ${current}`);
  return to;
}

/** After a hit review: which trigger the screening gets, from the resolutions of all its hits. */
export function reviewTrigger(status: AmlStatus, resolutions: HitResolution[]): AmlTrigger {
  if (status === 'POTENTIAL_MATCH' && resolutions.includes('TRUE_POSITIVE')) return 'review.true_positive';
  if (status === 'POTENTIAL_MATCH' && resolutions.length > 0 && resolutions.every((r) => r === 'FALSE_POSITIVE'))
    return 'review.all_false_positive';
  return 'review.recorded';
}

/** CLEAR → LOW; sanctions or law-enforcement matches → HIGH; PEP or adverse-media matches → MEDIUM; confirmed → HIGH. */
export function amlRiskLevel(status: AmlStatus, openOrConfirmedKinds: ListKind[]): AmlRiskLevel {
  if (status === 'CLEAR') return 'LOW';
  if (status === 'CONFIRMED_MATCH') return 'HIGH';
  return openOrConfirmedKinds.some((k) => k === 'SANCTIONS' || k === 'LAW_ENFORCEMENT') ? 'HIGH' : 'MEDIUM';
}
