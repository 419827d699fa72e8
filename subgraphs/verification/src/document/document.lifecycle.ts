import { Lifecycle } from '../../../../platform/lifecycle.js';

export const DOCUMENT_STATUSES = ['PENDING', 'PROCESSING', 'VERIFIED', 'REJECTED', 'MANUAL_REVIEW'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export type DocumentTrigger =
  | 'created'
  | 'check.started'
  | 'check.verified'
  | 'check.rejected'
  | 'check.flagged'
  | 'review.verified'
  | 'review.rejected'
  | 'images.deleted';

/** Statuses in which a document is still being checked. */
export const OPEN_DOCUMENT_STATUSES: readonly DocumentStatus[] = ['PENDING', 'PROCESSING'];

/**
 * A document verification: created PENDING (201), its job takes it to PROCESSING and decides
 * VERIFIED, REJECTED or MANUAL_REVIEW; a reviewer settles MANUAL_REVIEW. A retried job may start
 * again from PROCESSING (the process died mid-check). Deleting the images changes no status.
 */
export const DOCUMENT_LIFECYCLE = new Lifecycle<DocumentStatus, DocumentTrigger>('a document verification', DOCUMENT_STATUSES, [
  { from: [null], trigger: 'created', to: 'PENDING', event: 'document.created' },
  { from: ['PENDING'], trigger: 'check.started', to: 'PROCESSING', event: 'document.processing' },
  { from: OPEN_DOCUMENT_STATUSES, trigger: 'check.verified', to: 'VERIFIED', event: 'document.verified' },
  { from: OPEN_DOCUMENT_STATUSES, trigger: 'check.rejected', to: 'REJECTED', event: 'document.rejected' },
  { from: OPEN_DOCUMENT_STATUSES, trigger: 'check.flagged', to: 'MANUAL_REVIEW', event: 'document.manual_review' },
  { from: ['MANUAL_REVIEW'], trigger: 'review.verified', to: 'VERIFIED', event: 'document.verified' },
  { from: ['MANUAL_REVIEW'], trigger: 'review.rejected', to: 'REJECTED', event: 'document.rejected' },
  { from: DOCUMENT_STATUSES, trigger: 'images.deleted', to: null, event: 'document.images_deleted' },
]);
