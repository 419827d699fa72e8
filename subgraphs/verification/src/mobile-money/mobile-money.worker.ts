import type { Orm } from '../../../../platform/db/orm.js';
import type { Logger } from '../../../../platform/logger.js';
import { settleInterruptedLookups } from './mobile-money.service.js';

export interface MobileMoneySweepOptions {
  orm: Orm;
  logger: Logger;
  /** How often each process looks for interrupted lookups (MOBILE_MONEY_SWEEP_MS). */
  sweepMs: number;
  /** One lookup's deadline (MOBILE_MONEY_TIMEOUT_MS): a verification PENDING for twice as long has no request waiting for it. */
  timeoutMs: number;
}

/**
 * A verification is PENDING only while its request waits for the operator. When the process
 * died meanwhile, this sweep (every process, on a timer; the table is the state, so a restart
 * loses nothing) makes it PROVIDER_ERROR, which the client may retry.
 */
export class MobileMoneySweep {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(private readonly opts: MobileMoneySweepOptions) {}

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
    if (this.sweeping || !this.timer) return;
    this.sweeping = settleInterruptedLookups(this.opts.orm.em, 2 * this.opts.timeoutMs)
      .then((settled) => {
        if (settled) this.opts.logger.warn({ settled }, 'interrupted mobile money lookups settled as PROVIDER_ERROR');
      })
      .catch((err) => this.opts.logger.error({ err }, 'mobile money sweep failed'))
      .finally(() => (this.sweeping = null));
  }
}
