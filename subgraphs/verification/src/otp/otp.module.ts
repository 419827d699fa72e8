import type { VerificationCapability } from '../verification.shared.js';
import { MAGIC_LINK_PATH, serveMagicLinks } from './magic-link.route.js';
import { otpDeps } from './otp.config.js';
import { OtpVerification } from './otp.entity.js';
import {
  EmailVerificationResolver,
  OtpUserFields,
  PhoneVerificationResolver,
  resolveEmailReference,
  resolvePhoneReference,
} from './otp.resolver.js';
import { OtpService, type OtpDeps } from './otp.service.js';
import { otpExpiryWorker } from './otp.worker.js';

/** Phone and e-mail verification by one-time code (sent through notify) or magic link. */
export const otpCapability: VerificationCapability<{ otp: OtpDeps }> = {
  name: 'otp',
  resolvers: [PhoneVerificationResolver, EmailVerificationResolver, OtpUserFields],
  references: { PhoneVerification: resolvePhoneReference, EmailVerification: resolveEmailReference },
  entities: [OtpVerification],
  webhookEvents: ['phone.verified', 'phone.failed', 'email.verified', 'email.failed'],
  deps: (shared) => ({ otp: otpDeps(shared) }),
  personalData: (em, tenant, deps) => ({
    phoneVerifications: new OtpService(em, tenant, 'phone', deps.otp),
    emailVerifications: new OtpService(em, tenant, 'email', deps.otp),
  }),
  workers: (deps) => [
    otpExpiryWorker({ orm: deps.orm, logger: deps.logger.child({ component: 'otp' }), sweepMs: deps.config.OTP_SWEEP_MS }),
  ],
  // magic links are public: their token is the credential
  routes: (app, deps) => app.get(MAGIC_LINK_PATH, serveMagicLinks({ orm: deps.orm, otp: deps.otp, logger: deps.logger })),
};
