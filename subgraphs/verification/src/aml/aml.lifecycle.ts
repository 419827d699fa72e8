import { conflict } from '../../../../platform/errors.js';
import { Lifecycle } from '../../../../platform/lifecycle.js';
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

/**
 * The AML screening state table. A screening is CLEAR (no match at or above the threshold) or
 * POTENTIAL_MATCH; a reviewer resolves each match TRUE_POSITIVE or FALSE_POSITIVE: one true
 * positive confirms the screening, all false positives clear it.
 */
export const AML_SCREENING_LIFECYCLE = new Lifecycle<AmlStatus, AmlTrigger>('a screening', AML_STATUSES, [
  { from: [null], trigger: 'screened.clear', to: 'CLEAR', event: 'aml.clear' },
  { from: [null], trigger: 'screened.matches', to: 'POTENTIAL_MATCH', event: 'aml.flagged' },
  { from: ['POTENTIAL_MATCH'], trigger: 'review.true_positive', to: 'CONFIRMED_MATCH', event: 'aml.flagged' },
  { from: ['POTENTIAL_MATCH'], trigger: 'review.all_false_positive', to: 'CLEAR', event: 'aml.clear' },
  { from: ['POTENTIAL_MATCH', 'CONFIRMED_MATCH'], trigger: 'review.recorded', to: null, event: 'aml.match_resolved' },
]);

/** A match is reviewed once: OPEN → TRUE_POSITIVE | FALSE_POSITIVE. */
export const HIT_LIFECYCLE = new Lifecycle<HitResolution, Exclude<HitResolution, 'OPEN'>>('a match', HIT_RESOLUTIONS, [
  { from: ['OPEN'], trigger: 'TRUE_POSITIVE', to: 'TRUE_POSITIVE' },
  { from: ['OPEN'], trigger: 'FALSE_POSITIVE', to: 'FALSE_POSITIVE' },
]);

export function resolveHit(current: HitResolution, to: Exclude<HitResolution, 'OPEN'>): HitResolution {
  if (!HIT_LIFECYCLE.allows(current, to)) throw conflict(`This match was already resolved as ${current}`);
  return HIT_LIFECYCLE.next(current, to);
}

export type AmlBatchTrigger = 'submitted' | 'subject.screened' | 'completed' | 'callback.attempted';

/**
 * A batch: PENDING when accepted, PROCESSING once its job screened a subject, COMPLETED after the
 * last one (its callback, if any, is then a delivery whose every attempt the batch reports).
 */
export const AML_BATCH_LIFECYCLE = new Lifecycle<AmlBatchStatus, AmlBatchTrigger>('a batch', AML_BATCH_STATUSES, [
  { from: [null], trigger: 'submitted', to: 'PENDING', event: 'aml.batch_created' },
  { from: ['PENDING', 'PROCESSING'], trigger: 'subject.screened', to: 'PROCESSING', event: 'aml.batch_progress' },
  { from: ['PROCESSING'], trigger: 'completed', to: 'COMPLETED', event: 'aml.batch_complete' },
  { from: ['COMPLETED'], trigger: 'callback.attempted', to: null, event: 'aml.batch_callback' },
]);

/** A batch's subject: screened once (DONE), or FAILED when its input no longer validates. */
export const AML_SUBJECT_LIFECYCLE = new Lifecycle<SubjectStatus, 'submitted' | 'screened' | 'failed'>(
  'a batch subject',
  SUBJECT_STATUSES,
  [
    { from: [null], trigger: 'submitted', to: 'PENDING' },
    { from: ['PENDING'], trigger: 'screened', to: 'DONE' },
    { from: ['PENDING'], trigger: 'failed', to: 'FAILED' },
  ],
);

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
