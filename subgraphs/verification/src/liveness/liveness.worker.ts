import type { Orm } from '../../../../platform/db/orm.js';
import type { Logger } from '../../../../platform/logger.js';
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
export class LivenessExpiryWorker {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(private readonly opts: LivenessExpiryOptions) {}

  start(): void {
    this.timer = setInterval(() => this.sweepSoon(), this.opts.sweepMs);
    this.timer.unref();
    this.sweepSoon();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  private sweepSoon(): void {
    // one sweep at a time per process; a tick during a sweep is skipped (the next one comes soon)
    if (this.sweeping || !this.timer) return;
    this.sweeping = expireOverdueSessions(this.opts.orm.em)
      .then((expired) => {
        if (expired) this.opts.logger.info({ expired }, 'liveness sessions expired');
      })
      .catch((err) => this.opts.logger.error({ err }, 'liveness expiry sweep failed'))
      .finally(() => (this.sweeping = null));
  }
}
