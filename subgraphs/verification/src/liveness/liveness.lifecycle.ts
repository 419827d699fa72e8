import { Lifecycle } from '../../../../platform/lifecycle.js';

export const LIVENESS_STATUSES = ['IN_PROGRESS', 'PASSED', 'FAILED', 'EXPIRED'] as const;
export type LivenessStatus = (typeof LIVENESS_STATUSES)[number];

export type LivenessTrigger = 'created' | 'challenge.recorded' | 'reference.recorded' | 'passed' | 'failed' | 'expired';

/**
 * The spec's liveness state table as data, with the moves it leaves open: a session that does not
 * pass FAILS (`liveness.failed`), and one that is not finished within its life EXPIRES — also a
 * `liveness.failed` (failureReason SESSION_EXPIRED), as phone verification reports its expiry, so a
 * webhook subscribed to failures hears of every session that did not pass. A submission that
 * completes the session fires only its outcome (passed or failed), not a progress event too.
 */
export const LIVENESS_LIFECYCLE = new Lifecycle<LivenessStatus, LivenessTrigger>('a liveness session', LIVENESS_STATUSES, [
  { from: [null], trigger: 'created', to: 'IN_PROGRESS', event: 'liveness.created' },
  { from: ['IN_PROGRESS'], trigger: 'challenge.recorded', to: null, event: 'liveness.progress' },
  { from: ['IN_PROGRESS'], trigger: 'reference.recorded', to: null, event: 'liveness.reference_recorded' },
  { from: ['IN_PROGRESS'], trigger: 'passed', to: 'PASSED', event: 'liveness.passed' },
  { from: ['IN_PROGRESS'], trigger: 'failed', to: 'FAILED', event: 'liveness.failed' },
  { from: ['IN_PROGRESS'], trigger: 'expired', to: 'EXPIRED', event: 'liveness.failed' },
]);
