import { Lifecycle } from '../../../../platform/lifecycle.js';

export const BUSINESS_STATUSES = ['PENDING', 'PROCESSING', 'MANUAL_REVIEW', 'VERIFIED', 'REJECTED'] as const;
export type BusinessStatus = (typeof BUSINESS_STATUSES)[number];

export type BusinessTrigger =
  | 'created'
  | 'updated'
  | 'data.complete'
  | 'checks.verified'
  | 'checks.rejected'
  | 'checks.flagged'
  | 'review.verified'
  | 'review.rejected';

/** Statuses of a business still being checked. */
export const OPEN_STATUSES: readonly BusinessStatus[] = ['PENDING', 'PROCESSING'];
/** Statuses in which directors and UBOs may be declared (unless a reviewer decided it). */
export const DECLARABLE_STATUSES: readonly BusinessStatus[] = ['PENDING', 'PROCESSING', 'VERIFIED', 'MANUAL_REVIEW'];

/**
 * The spec's states: PENDING (created, awaiting data), PROCESSING (registry lookup and AML
 * screening running), MANUAL_REVIEW, VERIFIED, REJECTED. The automatic moves follow the steps
 * (business-rules.ts decides, business.progress.ts applies); a reviewer settles MANUAL_REVIEW only.
 * `updated` records a change within a status (a step moved, people declared): subscribers see it,
 * webhooks do not. Directors and UBOs may be declared one per call (Form B), so a business the
 * checks verified still takes declarations until a reviewer has decided it: each one is screened,
 * and a match moves it from VERIFIED to MANUAL_REVIEW.
 */
export const BUSINESS_LIFECYCLE = new Lifecycle<BusinessStatus, BusinessTrigger>('a business verification', BUSINESS_STATUSES, [
  { from: [null], trigger: 'created', to: 'PENDING', event: 'business.created' },
  { from: DECLARABLE_STATUSES, trigger: 'updated', to: null, event: 'business.updated' },
  { from: ['PENDING'], trigger: 'data.complete', to: 'PROCESSING', event: 'business.processing' },
  { from: OPEN_STATUSES, trigger: 'checks.verified', to: 'VERIFIED', event: 'business.verified' },
  { from: OPEN_STATUSES, trigger: 'checks.rejected', to: 'REJECTED', event: 'business.rejected' },
  { from: [...OPEN_STATUSES, 'VERIFIED'], trigger: 'checks.flagged', to: 'MANUAL_REVIEW', event: 'business.manual_review' },
  { from: ['MANUAL_REVIEW'], trigger: 'review.verified', to: 'VERIFIED', event: 'business.verified' },
  { from: ['MANUAL_REVIEW'], trigger: 'review.rejected', to: 'REJECTED', event: 'business.rejected' },
]);

/** Webhook events (the spec's); the others feed subscriptions only. */
export const BUSINESS_WEBHOOK_EVENTS = ['business.verified', 'business.rejected', 'business.manual_review'] as const;
