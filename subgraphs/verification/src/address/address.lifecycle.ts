import { Lifecycle } from '../../../../platform/lifecycle.js';

export const ADDRESS_STATUSES = ['PROCESSING', 'VERIFIED', 'REJECTED', 'MANUAL_REVIEW'] as const;
export type AddressStatus = (typeof ADDRESS_STATUSES)[number];

export type AddressTrigger = 'created' | 'check.verified' | 'check.rejected' | 'check.flagged' | 'review.verified' | 'review.rejected';

/**
 * The spec's table: created PROCESSING (201) while the document is read in the background; its
 * check decides VERIFIED, REJECTED or MANUAL_REVIEW; a reviewer settles MANUAL_REVIEW only.
 */
export const ADDRESS_LIFECYCLE = new Lifecycle<AddressStatus, AddressTrigger>('an address verification', ADDRESS_STATUSES, [
  { from: [null], trigger: 'created', to: 'PROCESSING', event: 'address.processing' },
  { from: ['PROCESSING'], trigger: 'check.verified', to: 'VERIFIED', event: 'address.verified' },
  { from: ['PROCESSING'], trigger: 'check.rejected', to: 'REJECTED', event: 'address.rejected' },
  { from: ['PROCESSING'], trigger: 'check.flagged', to: 'MANUAL_REVIEW', event: 'address.manual_review' },
  { from: ['MANUAL_REVIEW'], trigger: 'review.verified', to: 'VERIFIED', event: 'address.verified' },
  { from: ['MANUAL_REVIEW'], trigger: 'review.rejected', to: 'REJECTED', event: 'address.rejected' },
]);
