import type { Orm } from '../../../../platform/db/orm.js';
import type { Logger } from '../../../../platform/logger.js';
import { PeriodicSweep } from '../../../../platform/sweep.js';
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
export const mobileMoneySweep = ({ orm, logger, sweepMs, timeoutMs }: MobileMoneySweepOptions) =>
  new PeriodicSweep({
    sweepMs,
    logger,
    what: 'interrupted mobile money lookups settled as PROVIDER_ERROR',
    sweep: () => settleInterruptedLookups(orm.em, 2 * timeoutMs),
  });
