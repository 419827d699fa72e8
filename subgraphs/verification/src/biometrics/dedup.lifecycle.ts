import { Lifecycle } from '../../../../platform/lifecycle.js';

export const DEDUP_STATUSES = ['PROCESSING', 'UNIQUE', 'DUPLICATE', 'ERROR'] as const;
export type DedupStatus = (typeof DEDUP_STATUSES)[number];

export type DedupTrigger = 'checked.unique' | 'checked.duplicate' | 'checked.error';

/**
 * The spec's dedup states as data. A check runs within its request (embedding, search, enrolment),
 * so it is written once, in its final status; PROCESSING is the spec's word for a check under way
 * and is never stored. `dedup.unique` and `dedup.match` are the spec's webhook events.
 */
export const DEDUP_LIFECYCLE = new Lifecycle<DedupStatus, DedupTrigger>('a dedup check', DEDUP_STATUSES, [
  { from: [null], trigger: 'checked.unique', to: 'UNIQUE', event: 'dedup.unique' },
  { from: [null], trigger: 'checked.duplicate', to: 'DUPLICATE', event: 'dedup.match' },
  { from: [null], trigger: 'checked.error', to: 'ERROR', event: 'dedup.error' },
]);
