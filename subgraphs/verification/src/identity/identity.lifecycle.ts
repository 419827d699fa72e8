import { Lifecycle } from '../../../../platform/lifecycle.js';

export const IDENTITY_TIERS = ['BASIC', 'STANDARD', 'ENHANCED'] as const;
export type IdentityTier = (typeof IDENTITY_TIERS)[number];

export const IDENTITY_STATUSES = ['PENDING', 'IN_PROGRESS', 'MANUAL_REVIEW', 'VERIFIED', 'REJECTED'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

/** Statuses in which a user's verification is "active": a new create returns it instead. */
export const ACTIVE_STATUSES: readonly IdentityStatus[] = ['PENDING', 'IN_PROGRESS'];

export type IdentityTrigger =
  | 'created'
  | 'restarted'
  | 'review.verified'
  | 'review.rejected'
  | 'submission.received'
  | 'processing.flagged'
  | 'processing.verified'
  | 'processing.rejected';

/**
 * The spec's identity state table as data. Review moves are the spec's; the processing moves are
 * the automatic ones later capabilities (document, liveness, AML orchestration) drive. A restart
 * leaves the status as it was (the verification is invalidated, `identity.restarted`) and a new
 * one is created in its place.
 */
export const IDENTITY_LIFECYCLE = new Lifecycle<IdentityStatus, IdentityTrigger>('a verification', IDENTITY_STATUSES, [
  { from: [null], trigger: 'created', to: 'PENDING', event: 'identity.created' },
  { from: IDENTITY_STATUSES, trigger: 'restarted', to: null, event: 'identity.restarted' },
  { from: ['MANUAL_REVIEW', 'PENDING'], trigger: 'review.verified', to: 'VERIFIED', event: 'identity.verified' },
  { from: ['MANUAL_REVIEW', 'PENDING'], trigger: 'review.rejected', to: 'REJECTED', event: 'identity.rejected' },
  { from: ['PENDING'], trigger: 'submission.received', to: 'IN_PROGRESS', event: 'identity.in_progress' },
  { from: ['IN_PROGRESS'], trigger: 'processing.flagged', to: 'MANUAL_REVIEW', event: 'identity.manual_review' },
  { from: ['IN_PROGRESS'], trigger: 'processing.verified', to: 'VERIFIED', event: 'identity.verified' },
  { from: ['IN_PROGRESS'], trigger: 'processing.rejected', to: 'REJECTED', event: 'identity.rejected' },
]);
