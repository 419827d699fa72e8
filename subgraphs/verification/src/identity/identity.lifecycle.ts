import { conflict } from '../../../../platform/errors.js';

export const IDENTITY_STATUSES = ['PENDING', 'IN_PROGRESS', 'MANUAL_REVIEW', 'VERIFIED', 'REJECTED'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

/** Statuses in which a user's verification is "active": a new create returns it instead. */
export const ACTIVE_STATUSES: readonly IdentityStatus[] = ['PENDING', 'IN_PROGRESS'];

export type IdentityTrigger =
  'review.verified' | 'review.rejected' | 'submission.received' | 'processing.flagged' | 'processing.verified' | 'processing.rejected';

interface Transition {
  from: readonly IdentityStatus[];
  trigger: IdentityTrigger;
  to: IdentityStatus;
  event: string;
}

/**
 * The spec's identity state table as data. Review moves are the spec's; the processing moves are
 * the automatic ones later capabilities (document, liveness, AML orchestration) drive.
 * Creation (→ PENDING) and restart (invalidate, start a new one) are handled by the service.
 */
export const IDENTITY_TRANSITIONS: readonly Transition[] = [
  { from: ['MANUAL_REVIEW', 'PENDING'], trigger: 'review.verified', to: 'VERIFIED', event: 'identity.verified' },
  { from: ['MANUAL_REVIEW', 'PENDING'], trigger: 'review.rejected', to: 'REJECTED', event: 'identity.rejected' },
  { from: ['PENDING'], trigger: 'submission.received', to: 'IN_PROGRESS', event: 'identity.in_progress' },
  { from: ['IN_PROGRESS'], trigger: 'processing.flagged', to: 'MANUAL_REVIEW', event: 'identity.manual_review' },
  { from: ['IN_PROGRESS'], trigger: 'processing.verified', to: 'VERIFIED', event: 'identity.verified' },
  { from: ['IN_PROGRESS'], trigger: 'processing.rejected', to: 'REJECTED', event: 'identity.rejected' },
];

/** The one way an identity verification changes status; anything else is a CONFLICT (409). */
export function transition(from: IdentityStatus, trigger: IdentityTrigger): Transition {
  const t = IDENTITY_TRANSITIONS.find((x) => x.trigger === trigger && x.from.includes(from));
  if (!t) {
    const allowed = IDENTITY_TRANSITIONS.filter((x) => x.trigger === trigger).flatMap((x) => x.from);
    throw conflict(`Cannot apply ${trigger} to a verification in status ${from} (allowed from: ${allowed.join(', ')})`);
  }
  return t;
}
