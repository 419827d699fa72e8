import { Lifecycle } from '../../../../platform/lifecycle.js';

export const OTP_KINDS = ['phone', 'email'] as const;
export type OtpKind = (typeof OTP_KINDS)[number];

export const OTP_STATUSES = ['PENDING', 'VERIFIED', 'FAILED', 'EXPIRED'] as const;
export type OtpStatus = (typeof OTP_STATUSES)[number];

export type OtpTrigger = 'created' | 'resent' | 'code.wrong' | 'code.matched' | 'attempts.exhausted' | 'expired';

/**
 * The spec's phone and email state tables as data (they are the same table; the events carry the
 * kind: `phone.verified`, `email.failed`…). A wrong code that leaves attempts only records the
 * attempt; the last wrong one fails. Expiry is a `<kind>.failed` for both kinds: the spec names it
 * for phone, and an integrator listening for failures hears of every address that was not verified.
 */
export const otpLifecycle = (kind: OtpKind) =>
  new Lifecycle<OtpStatus, OtpTrigger>(`a ${kind} verification`, OTP_STATUSES, [
    { from: [null], trigger: 'created', to: 'PENDING', event: `${kind}.created` },
    { from: ['PENDING'], trigger: 'resent', to: null, event: `${kind}.resent` },
    { from: ['PENDING'], trigger: 'code.wrong', to: null, event: `${kind}.attempt_failed` },
    { from: ['PENDING'], trigger: 'code.matched', to: 'VERIFIED', event: `${kind}.verified` },
    { from: ['PENDING'], trigger: 'attempts.exhausted', to: 'FAILED', event: `${kind}.failed` },
    { from: ['PENDING'], trigger: 'expired', to: 'EXPIRED', event: `${kind}.failed` },
  ]);

export const OTP_LIFECYCLES: Record<OtpKind, Lifecycle<OtpStatus, OtpTrigger>> = {
  phone: otpLifecycle('phone'),
  email: otpLifecycle('email'),
};
