import { USER_ERASURE_EVENTS } from '../../../../platform/privacy/erasure.js';
import type { OtpDeps } from '../otp/otp.service.js';
import type { VerificationCapability } from '../verification.shared.js';
import { RetentionResolver, resolveUserDataExportReference, UserDataExportResolver, UserErasureResolver } from './privacy.resolver.js';
import { privacyWorkers } from './privacy.worker.js';

/** Erasure, export and retention of users' data, over every capability's `personalData` and `retention`. */
export const privacyCapability: VerificationCapability<object, { otp: OtpDeps }> = {
  name: 'privacy',
  resolvers: [UserErasureResolver, UserDataExportResolver, RetentionResolver],
  webhookEvents: [USER_ERASURE_EVENTS.erased],
  references: { UserDataExport: resolveUserDataExportReference },
  workers: (deps) => [privacyWorkers(deps)],
};
