import { Lifecycle } from '../../../../platform/lifecycle.js';

export const COGNITIVE_KYC_STATUSES = ['APPROVED', 'REJECTED', 'MANUAL_REVIEW'] as const;
export type CognitiveKycStatus = (typeof COGNITIVE_KYC_STATUSES)[number];

export type CognitiveKycTrigger = 'check.approved' | 'check.rejected' | 'check.flagged' | 'review.approved' | 'review.rejected';

/**
 * An AI identity check is decided while the request waits: it is created APPROVED, REJECTED or
 * MANUAL_REVIEW; a reviewer settles MANUAL_REVIEW (any other status is final: 409).
 */
export const COGNITIVE_KYC_LIFECYCLE = new Lifecycle<CognitiveKycStatus, CognitiveKycTrigger>(
  'an AI identity check',
  COGNITIVE_KYC_STATUSES,
  [
    { from: [null], trigger: 'check.approved', to: 'APPROVED', event: 'cognitive_kyc.approved' },
    { from: [null], trigger: 'check.rejected', to: 'REJECTED', event: 'cognitive_kyc.rejected' },
    { from: [null], trigger: 'check.flagged', to: 'MANUAL_REVIEW', event: 'cognitive_kyc.manual_review' },
    { from: ['MANUAL_REVIEW'], trigger: 'review.approved', to: 'APPROVED', event: 'cognitive_kyc.approved' },
    { from: ['MANUAL_REVIEW'], trigger: 'review.rejected', to: 'REJECTED', event: 'cognitive_kyc.rejected' },
  ],
);
