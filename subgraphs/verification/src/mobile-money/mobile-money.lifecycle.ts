import { Lifecycle } from '../../../../platform/lifecycle.js';

export const MOBILE_MONEY_STATUSES = ['PENDING', 'VERIFIED', 'NAME_MISMATCH', 'NOT_FOUND', 'PROVIDER_ERROR'] as const;
export type MobileMoneyStatus = (typeof MOBILE_MONEY_STATUSES)[number];

export type MobileMoneyTrigger =
  'submitted' | 'checked.verified' | 'checked.name_mismatch' | 'checked.not_found' | 'checked.provider_error' | 'interrupted' | 'retried';

/** The spec's webhook events, and the ones only subscriptions see. */
export const MOBILE_MONEY_EVENTS = {
  pending: 'mobile_money.pending',
  verified: 'mobile_money.verified',
  failed: 'mobile_money.failed',
  providerError: 'mobile_money.provider_error',
} as const;

/**
 * The mobile money verification's state table (the spec names the states; the moves are ours):
 *
 * | From           | Trigger                | To             | Event                       |
 * |----------------|------------------------|----------------|-----------------------------|
 * | none           | submitted              | PENDING        | mobile_money.pending        |
 * | PENDING        | checked.verified       | VERIFIED       | mobile_money.verified       |
 * | PENDING        | checked.name_mismatch  | NAME_MISMATCH  | mobile_money.failed         |
 * | PENDING        | checked.not_found      | NOT_FOUND      | mobile_money.failed         |
 * | PENDING        | checked.provider_error | PROVIDER_ERROR | mobile_money.provider_error |
 * | PENDING        | interrupted            | PROVIDER_ERROR | mobile_money.provider_error |
 * | PROVIDER_ERROR | retried                | PENDING        | mobile_money.pending        |
 *
 * The operator is asked while the request waits, so a request answers a final status; PENDING is
 * seen only meanwhile, or when a crash interrupted the lookup (the sweep then makes it
 * PROVIDER_ERROR). VERIFIED, NAME_MISMATCH and NOT_FOUND are final; PROVIDER_ERROR may be retried.
 */
export const MOBILE_MONEY_LIFECYCLE = new Lifecycle<MobileMoneyStatus, MobileMoneyTrigger>(
  'a mobile money verification',
  MOBILE_MONEY_STATUSES,
  [
    { from: [null], trigger: 'submitted', to: 'PENDING', event: MOBILE_MONEY_EVENTS.pending },
    { from: ['PENDING'], trigger: 'checked.verified', to: 'VERIFIED', event: MOBILE_MONEY_EVENTS.verified },
    { from: ['PENDING'], trigger: 'checked.name_mismatch', to: 'NAME_MISMATCH', event: MOBILE_MONEY_EVENTS.failed },
    { from: ['PENDING'], trigger: 'checked.not_found', to: 'NOT_FOUND', event: MOBILE_MONEY_EVENTS.failed },
    { from: ['PENDING'], trigger: 'checked.provider_error', to: 'PROVIDER_ERROR', event: MOBILE_MONEY_EVENTS.providerError },
    { from: ['PENDING'], trigger: 'interrupted', to: 'PROVIDER_ERROR', event: MOBILE_MONEY_EVENTS.providerError },
    { from: ['PROVIDER_ERROR'], trigger: 'retried', to: 'PENDING', event: MOBILE_MONEY_EVENTS.pending },
  ],
);
