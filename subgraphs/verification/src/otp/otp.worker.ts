import type { Orm } from '../../../../platform/db/orm.js';
import type { Logger } from '../../../../platform/logger.js';
import { PeriodicSweep } from '../../../../platform/sweep.js';
import { expireOverdueOtps } from './otp.service.js';

/**
 * Expires phone and email verifications whose code ran out, without waiting for a request: every
 * process sweeps the table (`expires_at` of PENDING rows), so a restart loses nothing. A
 * verification is at most one sweep late; a code sent in between finds it expired itself.
 */
export const otpExpiryWorker = (opts: { orm: Orm; logger: Logger; sweepMs: number }) =>
  new PeriodicSweep({ ...opts, what: 'phone/email verifications expired', sweep: () => expireOverdueOtps(opts.orm.em) });
