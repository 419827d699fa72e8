import type { Orm } from '../../../../platform/db/orm.js';
import type { Logger } from '../../../../platform/logger.js';
import { PeriodicSweep } from '../../../../platform/sweep.js';
import { expireOverdueSessions } from './liveness.service.js';

export interface LivenessExpiryOptions {
  orm: Orm;
  logger: Logger;
  /** How often each process looks for overdue sessions (LIVENESS_SWEEP_MS). */
  sweepMs: number;
}

/**
 * Expires sessions whose life ran out, without waiting for a request: every process sweeps on a
 * timer. The state is the table itself (`expires_at` of IN_PROGRESS rows), so a restart loses
 * nothing: the first sweep after it expires what came due meanwhile. A session is at most one
 * sweep late; a submission to it in between expires it itself.
 */
export class LivenessExpiryWorker extends PeriodicSweep {
  constructor(opts: LivenessExpiryOptions) {
    super({ ...opts, what: 'liveness sessions expired', sweep: () => expireOverdueSessions(opts.orm.em) });
  }
}
